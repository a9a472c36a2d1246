#!/usr/bin/env python3
"""Generates the learner skeletons in exercises/ from the marked references in reference/.

In a reference file, a block

    // KPZ-TODO(roughly 3 lines): what to do, in lines of at most 100 characters; the lines
    //   right after it at the same indentation that start with `//   ` (two more spaces)
    //   go on with the text
    ...solution lines...
    // KPZ-END

becomes `// TODO(roughly 3 lines): what to do, ...` and its continuation lines in the skeleton,
and the namespace `kpz::<puzzle>::reference` becomes `kpz::<puzzle>::exercise`. The file's
leading comment is replaced by the learner's header.

A bug hunt (a variant declared with `bug_hunt = true`) puts a bug into the skeleton instead of a
TODO:

    // KPZ-BUG(note for maintainers: what the bug is)
    ...correct lines (the reference)...
    // KPZ-BUGGY:
    // ...buggy lines, commented out (the skeleton gets them uncommented)...
    // KPZ-END

Without a `KPZ-BUGGY:` part the correct lines are simply left out of the skeleton (e.g. a
barrier). The skeleton shows no marker at the bug: finding it is the exercise (`kpuzzles trace`).

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
BUG = re.compile(r"^(\s*)// KPZ-BUG\((.+)\)\s*$")
BUGGY = re.compile(r"^\s*// KPZ-BUGGY:\s*$")
END = re.compile(r"^\s*// KPZ-END\s*$")
MORE = re.compile(r"^(\s*)//   \S")  # a continuation line of a KPZ-TODO's text
COMMENTED = re.compile(r"^(\s*)// ?(.*)$")


def header(puzzle: str) -> str:
    return (
        f"// {puzzle} exercise: fill in every TODO and fix the bug hunts, then run `kpuzzles run {puzzle}`\n"
        f"// (or the tests). Host builds race-check every pass; `kpuzzles trace {puzzle} --<variant>` draws the accesses.\n"
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
    block = None  # None, "todo", "bug" (correct lines, dropped) or "buggy" (commented buggy lines)
    todo_count = 0
    todo_indent = None  # while the KPZ-TODO's text goes on: its indentation
    for lineno, line in enumerate(lines[i:], start=i + 1):
        m = TODO.match(line)
        b = BUG.match(line)
        if m or b:
            if block:
                sys.exit(f"{source}:{lineno}: a KPZ-TODO or KPZ-BUG block inside another block")
            block = "todo" if m else "bug"
            todo_count += 1
            if m:
                out.append(f"{m.group(1)}// TODO({m.group(2)}): {m.group(3)}")
                todo_indent = m.group(1)
            continue
        more = MORE.match(line)
        if todo_indent is not None and more and more.group(1) == todo_indent:
            out.append(line.rstrip())
            continue
        todo_indent = None
        if BUGGY.match(line):
            if block != "bug":
                sys.exit(f"{source}:{lineno}: KPZ-BUGGY outside a KPZ-BUG block")
            block = "buggy"
            continue
        if END.match(line):
            if not block:
                sys.exit(f"{source}:{lineno}: KPZ-END without KPZ-TODO or KPZ-BUG")
            block = None
            continue
        if block == "buggy":
            c = COMMENTED.match(line)
            if not c:
                sys.exit(f"{source}:{lineno}: the buggy lines of a KPZ-BUG block must be commented out (// ...)")
            out.append(c.group(1) + c.group(2) if c.group(2) else "")
            continue
        if block:
            continue
        out.append(line.replace(f"kpz::{puzzle_ns(puzzle)}::reference", f"kpz::{puzzle_ns(puzzle)}::exercise"))
    if block:
        sys.exit(f"{source}: unterminated KPZ-TODO or KPZ-BUG block")
    if todo_count == 0:
        sys.exit(f"{source}: no KPZ-TODO or KPZ-BUG block: a skeleton must leave work to do")
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
