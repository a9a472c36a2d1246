#!/usr/bin/env python3
"""Generates the learner skeletons in exercises/ from the marked references in reference/.

In a reference file, a block

    // KPZ-TODO(roughly 3 lines): what to do
    ...solution lines...
    // KPZ-END

becomes `// TODO(roughly 3 lines): what to do` in the skeleton, and the namespace
`kpz::<puzzle>::reference` becomes `kpz::<puzzle>::exercise`. The file's leading comment
is replaced by the learner's header.

  kpz_skeletons.py --check          exit 1 if any skeleton differs from what generation gives
  kpz_skeletons.py --write [PUZZLE] (re)write skeletons (this overwrites learner work)
  kpz_skeletons.py --print FILE     print the skeleton of one reference file
"""
import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TODO = re.compile(r"^(\s*)// KPZ-TODO\((roughly \d+ lines?)\): (.+)$")
END = re.compile(r"^\s*// KPZ-END\s*$")


def header(puzzle: str) -> str:
    return (
        f"// {puzzle} exercise: fill in every TODO, then run `kpuzzles run {puzzle}` (or the tests).\n"
        f"// The solution is in reference/{puzzle}/, but try first: docs/puzzles/{puzzle}.md has hints.\n"
        f"// This file is generated from the reference; `python3 cmake/kpz_skeletons.py --write {puzzle}`\n"
        f"// restores it (and discards your work).\n"
    )


def skeleton(text: str, puzzle: str, source: str) -> str:
    lines = text.splitlines()
    i = 0
    while i < len(lines) and lines[i].startswith("//"):  # drop the reference's header comment
        i += 1
    out = [header(puzzle).rstrip("\n")]
    in_block = False
    todo_count = 0
    for lineno, line in enumerate(lines[i:], start=i + 1):
        m = TODO.match(line)
        if m:
            if in_block:
                sys.exit(f"{source}:{lineno}: KPZ-TODO inside another KPZ-TODO block")
            in_block = True
            todo_count += 1
            out.append(f"{m.group(1)}// TODO({m.group(2)}): {m.group(3)}")
            continue
        if END.match(line):
            if not in_block:
                sys.exit(f"{source}:{lineno}: KPZ-END without KPZ-TODO")
            in_block = False
            continue
        if in_block:
            continue
        out.append(line.replace(f"kpz::{puzzle_ns(puzzle)}::reference", f"kpz::{puzzle_ns(puzzle)}::exercise"))
    if in_block:
        sys.exit(f"{source}: unterminated KPZ-TODO block")
    if todo_count == 0:
        sys.exit(f"{source}: no KPZ-TODO block: a skeleton must leave work to do")
    return "\n".join(out) + "\n"


def puzzle_ns(puzzle: str) -> str:
    return puzzle.replace("-", "_")


def pairs(only=None):
    for ref in sorted((ROOT / "reference").glob("*/*.cpp")):
        puzzle = ref.parent.name
        if only and puzzle != only:
            continue
        yield puzzle, ref, ROOT / "exercises" / puzzle / ref.name


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--check", action="store_true")
    g.add_argument("--write", nargs="?", const="", metavar="PUZZLE")
    g.add_argument("--print", metavar="FILE")
    args = ap.parse_args()
    if args.print:
        ref = pathlib.Path(args.print).resolve()
        sys.stdout.write(skeleton(ref.read_text(), ref.parent.name, str(ref)))
        return 0
    if args.write is not None:
        for puzzle, ref, ex in pairs(args.write or None):
            ex.parent.mkdir(parents=True, exist_ok=True)
            ex.write_text(skeleton(ref.read_text(), puzzle, str(ref)))
            print(f"wrote {ex.relative_to(ROOT)}")
        return 0
    stale = []
    for puzzle, ref, ex in pairs():
        want = skeleton(ref.read_text(), puzzle, str(ref))
        if not ex.exists() or ex.read_text() != want:
            stale.append(str(ex.relative_to(ROOT)))
    extra = [str(p.relative_to(ROOT)) for p in (ROOT / "exercises").glob("*/*.cpp")
             if not (ROOT / "reference" / p.parent.name / p.name).exists()]
    for s in stale:
        print(f"skeleton out of date with its reference: {s} (run cmake/kpz_skeletons.py --write)")
    for e in extra:
        print(f"skeleton without a reference: {e}")
    return 1 if stale or extra else 0


if __name__ == "__main__":
    sys.exit(main())
