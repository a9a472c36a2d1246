#!/usr/bin/env bash
# kpz-skeletons end to end on a copy of one puzzle: --check passes on the generated skeleton,
# fails (exit 1, naming the file) on an edited one and on a skeleton without a reference; --write
# repairs it; --print gives what --write writes; bad usage is exit 2 and one line.
set -uo pipefail
tool=${1:?usage: skeletons_tool_test.sh KPZ_SKELETONS SOURCE_DIR}
src=${2:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAILED: $*"; exit 1; }
mkdir -p "$tmp/reference" "$tmp/exercises"
cp -r "$src/reference/conv1d" "$tmp/reference/"
"$tool" --root "$tmp" --write conv1d >/dev/null || fail "--write"
"$tool" --root "$tmp" --check || fail "--check of freshly written skeletons"
echo "// edited" >>"$tmp/exercises/conv1d/conv1d.cpp"
out=$("$tool" --root "$tmp" --check); code=$?
[ "$code" -eq 1 ] || fail "--check of an edited skeleton exited $code"
grep -q 'out of date with its reference: exercises/conv1d/conv1d.cpp' <<<"$out" || fail "not named: $out"
"$tool" --root "$tmp" --write >/dev/null && "$tool" --root "$tmp" --check || fail "--write did not repair"
touch "$tmp/exercises/conv1d/orphan.cpp"
out=$("$tool" --root "$tmp" --check); code=$?
[ "$code" -eq 1 ] && grep -q 'skeleton without a reference: exercises/conv1d/orphan.cpp' <<<"$out" || fail "orphan: $code $out"
for bad in "--bogus" "--write nosuch" "" "--print"; do
  # shellcheck disable=SC2086
  err=$("$tool" --root "$tmp" $bad 2>&1 >/dev/null); code=$?
  [ "$code" -eq 2 ] || fail "'$bad' exited $code"
  [ "$(wc -l <<<"$err")" -eq 1 ] || fail "'$bad' said more than one line: $err"
done
rm "$tmp/exercises/conv1d/orphan.cpp"
cmp <("$tool" --root "$tmp" --print "$tmp/reference/conv1d/conv1d.cpp") "$tmp/exercises/conv1d/conv1d.cpp" ||
  fail "--print differs from what --write wrote"
echo "kpz-skeletons: check, write, orphans and usage ok"
