#!/usr/bin/env python3
"""No answers in sight: no file a learner's exercise includes (outside Kokkos and the standard
library), and no other part of the exercise itself, holds the body of one of its TODO blocks.

  python3 cmake/kpz_answer_leak.py [--root DIR]    exit 1 naming each leak: the TODO, the file, the line
  python3 cmake/kpz_answer_leak.py --self-test     prove the rule on planted leaks

A TODO block is the code between `// KPZ-TODO(...)` and `// KPZ-END` in reference/<puzzle>/; the
skeleton (exercises/<puzzle>/, generated) has it removed. Its body leaks when its statements (the
lines with at least MIN_CHARS characters of code, spaces and comments removed) appear one after
the other in a file the skeleton includes, directly or through other project headers, or in the
skeleton itself (a bug hunt that is the answer minus one line, a helper that does the job).
Exit 2 with one line on bad usage.
"""
import pathlib
import re
import sys
import tempfile

MIN_CHARS = 12  # shorter lines (`});`, `team.team_barrier();`) are shared by every kernel
TODO_RE = re.compile(r"^\s*// KPZ-TODO\(")
END_RE = re.compile(r"^\s*// KPZ-END\s*$")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def code_of(line):
    """A line's code, comments and spaces removed."""
    return re.sub(r"\s+", "", line.split("//", 1)[0])


def statements(lines):
    return [c for c in (code_of(l) for l in lines) if len(c) >= MIN_CHARS]


def todo_blocks(text):
    """(line number of the marker, the statements of the block) for each KPZ-TODO block."""
    blocks, body, start = [], None, 0
    for n, line in enumerate(text.splitlines(), 1):
        if TODO_RE.match(line):
            body, start = [], n
        elif END_RE.match(line) and body is not None:
            blocks.append((start, statements(body)))
            body = None
        elif body is not None and not line.strip().startswith("//"):
            body.append(line)
    return blocks


def includes(path, search, seen):
    """The project files `path` includes, transitively (quoted includes only: never Kokkos)."""
    for line in path.read_text(errors="replace").splitlines():
        m = INCLUDE_RE.match(line)
        if not m:
            continue
        for base in [path.parent, *search]:
            target = (base / m.group(1)).resolve()
            if target.is_file():
                if target not in seen:
                    seen.add(target)
                    includes(target, search, seen)
                break
    return seen


def find_run(needle, hay):
    """The index in hay where the statements of needle start, one after the other, or -1."""
    for i in range(len(hay) - len(needle) + 1):
        if hay[i:i + len(needle)] == needle:
            return i
    return -1


def line_of(path, statement):
    for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        if code_of(line) == statement:
            return n
    return 0


def check(root):
    problems = []
    search = [root / "framework" / "include", root / "framework" / "puzzles"]
    for ref_dir in sorted((root / "reference").iterdir()):
        ex_dir = root / "exercises" / ref_dir.name
        if not ex_dir.is_dir():
            continue
        refs = sorted(p for p in ref_dir.iterdir() if p.suffix in (".cpp", ".hpp"))
        blocks = [(ref, n, body) for ref in refs for n, body in todo_blocks(ref.read_text()) if body]
        skeletons = sorted(p for p in ex_dir.iterdir() if p.suffix in (".cpp", ".hpp"))
        seen = set()
        for sk in skeletons:
            includes(sk, search, seen)
        # The skeleton's own files are searched too, the headers under exercises/ being the
        # learner's (they hold TODOs of their own, not answers).
        files = sorted(seen | set(p.resolve() for p in skeletons))
        hay = {f: statements(f.read_text(errors="replace").splitlines()) for f in files}
        for ref, n, body in blocks:
            for f, stmts in hay.items():
                i = find_run(body, stmts)
                if i >= 0:
                    where = f.relative_to(root.resolve()).as_posix()
                    problems.append(f"{ref.relative_to(root).as_posix()}:{n}: the TODO's answer is in sight in "
                                    f"{where}:{line_of(f, body[0])} ({len(body)} statement(s), from `{body[0][:60]}`)")
    return problems


def self_test():
    cases = [  # (extra files, expected substrings of problems)
        ({}, []),
        ({"framework/puzzles/p/p.hpp": "inline void helper() {\n  out(first + i) = s_a(i) * s_b(j);\n}\n"},
         ["reference/p/p.cpp:5: the TODO's answer is in sight in framework/puzzles/p/p.hpp:2"]),
        ({"exercises/p/p.cpp": '#include "p/p.hpp"\nvoid bug() {\n  out(first + i) = s_a(i) * s_b(j);\n}\n'},
         ["in sight in exercises/p/p.cpp:3"]),
    ]
    failed = 0
    for extra, expected in cases:
        with tempfile.TemporaryDirectory() as d:
            root = pathlib.Path(d)
            files = {
                "reference/p/p.cpp": '#include "p/p.hpp"\nvoid k() {\n  const int first = 0;\n  // given\n'
                                     "  // KPZ-TODO(roughly 1 line): the product.\n"
                                     "  out(first + i) = s_a(i) * s_b(j);\n  // KPZ-END\n}\n",
                "exercises/p/p.cpp": '#include "p/p.hpp"\nvoid k() {\n  // TODO(roughly 1 line): the product.\n}\n',
                "framework/puzzles/p/p.hpp": "#pragma once\nint first_tile();\n",
                "framework/include/kpz/x.hpp": "\n",
            }
            files.update(extra)
            for f, text in files.items():
                (root / f).parent.mkdir(parents=True, exist_ok=True)
                (root / f).write_text(text)
            got = check(root)
            ok = len(got) == len(expected) and all(any(e in g for g in got) for e in expected)
            if not ok:
                failed += 1
                print(f"self-test: planted {list(extra) or 'nothing'}: expected {expected}, got {got}")
    print("kpz_answer_leak self-test: " + ("ok" if not failed else f"{failed} case(s) wrong"))
    return 1 if failed else 0


def main(argv):
    root = pathlib.Path(__file__).resolve().parent.parent
    if argv in (["--help"], ["-h"]):
        print(__doc__.strip())
        return 0
    if argv == ["--self-test"]:
        return self_test()
    if len(argv) == 2 and argv[0] == "--root":
        root = pathlib.Path(argv[1])
    elif argv:
        print(f"kpz_answer_leak: unknown arguments {' '.join(argv)} (allowed: --root DIR, --self-test, --help)",
              file=sys.stderr)
        return 2
    if not (root / "reference").is_dir() or not (root / "exercises").is_dir():
        print(f"kpz_answer_leak: {root} holds no reference/ and exercises/ (give the repository with --root)",
              file=sys.stderr)
        return 2
    problems = check(root)
    for p in problems:
        print(p)
    print(f"kpz_answer_leak: {len(problems)} answer(s) in sight" if problems
          else "kpz_answer_leak: no TODO's answer is in a file its exercise includes")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
