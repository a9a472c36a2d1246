#!/usr/bin/env python3
"""One shape for every puzzle: each part of a puzzle holds only files with a known job, none still
holds the scaffold template's placeholder text, and no hand-written source file is longer than 400
lines.

  python3 cmake/kpz_puzzle_shape.py [--root DIR]     exit 1 listing every file out of shape
  python3 cmake/kpz_puzzle_shape.py --roles          print the roles (docs/contributing.md cites them)
  python3 cmake/kpz_puzzle_shape.py --self-test      prove the check on planted mistakes

A puzzle is a folder framework/puzzles/<name>/ (cmake/KpzPuzzles.cmake); its other parts are
reference/<name>/, exercises/<name>/ (generated), benchmarks/<name>/ and docs/puzzles/<name>.md.
Exit 2 with one line on bad usage.
"""
import fnmatch
import pathlib
import re
import sys
import tempfile

LIMIT = 400  # lines of a hand-written source file, no exception

# framework/puzzles/<name>/: (pattern, required, job). {name} is the puzzle's name.
PUZZLE_ROLES = [
    ("{name}.hpp", True, "the contract: the kernels (or signatures.inc), their launch, scratch sizing, bytes model"),
    ("signatures.inc", False, "the kernels, listed once, each with its contract"),
    ("launch.hpp", False, "what the kernels ask of a launch, and the given launches a reference and its skeleton share"),
    ("launch.cpp", False, "given launch code compiled once per space (a kernel lambda that must not sit in a header)"),
    ("spec.cpp", True, "the PuzzleSpec: variants, options, checks, estimates, registration"),
    ("spec.hpp", False, "what the runner's files share with the tests and the benchmark: variants, inputs, oracle, run"),
    ("inputs.cpp", False, "seeded inputs and host validation (and the oracle while it is short)"),
    ("oracle.cpp", False, "the expected results, computed on the host"),
    ("run.cpp", False, "the run: one case of a variant on a space, launched and compared with the oracle"),
    ("run_*.cpp", False, "the run, in files by group of variants"),
    ("trace_config.cpp", False, "`kpuzzles trace`'s configurations and budgets"),
    ("puzzle.cmake", False, "the puzzle's extra build needs"),
    ("requires.cmake", False, "what the puzzle needs that not every build has"),
    # A puzzle whose runs span ranks (PuzzleSpec::ranks) starts MPI and gathers its verdict in
    # code the reference, the skeleton and the benchmark share; kept apart from the contract.
    ("mpi.hpp", False, "the MPI plumbing a puzzle that spans ranks shares: start, buffers MPI can reach, the verdict"),
    ("mpi.cpp", False, "that plumbing's host code, the only place with an MPI implementation's #if"),
    ("fast/*", False, "benchmark-grade kernels that are not the lesson (fast/kernels.hpp declares them)"),
]
# benchmarks/<name>/
BENCH_ROLES = [
    # The whole folder is optional for a puzzle whose PuzzleSpec states .bytes_moved (bench from the run).
    ("{name}_bench.cpp", True, "the benchmark, registered with KPZ_REGISTER_BENCH"),
    ("*_baselines.hpp", False, "library rows compiled in every build that has the library (Kokkos Kernels)"),
    ("library.hpp", False, "the function type and name of a plain-CUDA baseline"),
    ("cuda/*.cpp", False, "library baselines in plain CUDA, registered in kpz::LibraryBaselines"),
    ("*.py", False, "a chart drawn from the benchmark's JSON"),
]
# What cmake/puzzle-template/ asks a contributor to replace: a puzzle that still holds one is the
# template, not a puzzle yet (lower case).
PLACEHOLDERS = ("replace this line", "replace this paragraph", "replace with your puzzle's summary")
SOURCE_SUFFIXES = (".cpp", ".hpp", ".inc", ".h", ".cu", ".py", ".sh", ".cmake")
LIMITED_DIRS = ("framework", "reference", "exercises", "benchmarks", "cmake")


def role_of(rel, name, roles):
    for pattern, _, job in roles:
        if fnmatch.fnmatchcase(rel, pattern.format(name=name)) and ("/" in pattern) == ("/" in rel):
            return job
    return None


def files_under(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def times_its_run(folder):
    """A puzzle whose PuzzleSpec states its bytes moved is benched inside its run (kpz::timed) and
    needs no benchmarks/<name>/ of its own."""
    return any(re.search(r"^\s*\.bytes_moved\s*=", f.read_text(errors="replace"), re.M) for f in folder.glob("*.cpp"))


def check_part(folder, name, roles, what):
    problems = []
    if not folder.is_dir():
        if what.startswith("benchmarks/"):
            return [f"{what}: missing (a bench of its own, or .bytes_moved in the PuzzleSpec: `bench` times the run)"]
        return [f"{what}: missing"]
    rels = files_under(folder)
    for rel in rels:
        if role_of(rel, name, roles) is None:
            problems.append(f"{what}{rel}: no role (allowed: " + ", ".join(p.format(name=name) for p, _, _ in roles) + ")")
    for pattern, required, _ in roles:
        if required and not any(fnmatch.fnmatchcase(r, pattern.format(name=name)) for r in rels):
            problems.append(f"{what}{pattern.format(name=name)}: missing")
    return problems


def check(root):
    problems = []
    puzzles = sorted(p.name for p in (root / "framework" / "puzzles").iterdir() if p.is_dir())
    for name in puzzles:
        problems += check_part(root / "framework" / "puzzles" / name, name, PUZZLE_ROLES, f"framework/puzzles/{name}/")
        if (root / "benchmarks" / name).is_dir() or not times_its_run(root / "framework" / "puzzles" / name):
            problems += check_part(root / "benchmarks" / name, name, BENCH_ROLES, f"benchmarks/{name}/")
        ref = root / "reference" / name
        refs = files_under(ref) if ref.is_dir() else []
        if not any(r.endswith(".cpp") and "/" not in r for r in refs):
            problems.append(f"reference/{name}/: no .cpp (the solution, with KPZ-TODO blocks)")
        problems += [f"reference/{name}/{r}: no role (a reference holds .cpp and .hpp files only)"
                     for r in refs if "/" in r or not r.endswith((".cpp", ".hpp"))]
        page = root / "docs" / "puzzles" / f"{name}.md"
        if not page.is_file():
            problems.append(f"docs/puzzles/{name}.md: missing (the learner's page)")
        parts = [root / d / name for d in ("framework/puzzles", "reference", "benchmarks")]
        for path in [f for d in parts if d.is_dir() for f in sorted(d.rglob("*")) if f.is_file()] + [page]:
            text = path.read_text(errors="replace").lower() if path.is_file() else ""
            for placeholder in PLACEHOLDERS:
                if placeholder in text:
                    problems.append(f"{path.relative_to(root).as_posix()}: still says '{placeholder}' "
                                    "(cmake/kpz-new-puzzle's template text: write the puzzle's own)")
    for top in LIMITED_DIRS:
        for path in sorted((root / top).rglob("*")) if (root / top).is_dir() else []:
            if path.is_file() and path.suffix in SOURCE_SUFFIXES and "puzzle-template" not in path.parts:
                lines = path.read_text(errors="replace").count("\n")
                if lines > LIMIT:
                    problems.append(f"{path.relative_to(root).as_posix()}: {lines} lines (at most {LIMIT}: split it by job)")
    return problems


def self_test():
    """A tree in shape passes; each planted mistake gives its own complaint."""
    def tree(base, extra=None, drop=None):
        files = {"framework/puzzles/p/p.hpp": "", "framework/puzzles/p/spec.cpp": "", "framework/puzzles/p/fast/k.cpp": "",
                 "framework/puzzles/p/run_scans.cpp": "", "benchmarks/p/p_bench.cpp": "", "benchmarks/p/cuda/cub.cpp": "",
                 "reference/p/p.cpp": "", "reference/p/op.hpp": "", "docs/puzzles/p.md": ""}
        files.update(extra or {})
        for f in drop or []:
            files.pop(f)
        for f, text in files.items():
            (base / f).parent.mkdir(parents=True, exist_ok=True)
            (base / f).write_text(text)
        return base
    cases = [
        ({}, [], []),
        ({"framework/puzzles/p/helpers.cpp": ""}, [], ["framework/puzzles/p/helpers.cpp: no role"]),
        ({}, ["framework/puzzles/p/spec.cpp"], ["framework/puzzles/p/spec.cpp: missing"]),
        ({"framework/puzzles/p/run.cpp": "x\n" * 401}, [], ["framework/puzzles/p/run.cpp: 401 lines"]),
        ({"benchmarks/p/extra.cpp": ""}, [], ["benchmarks/p/extra.cpp: no role"]),
        ({"reference/p/notes.txt": ""}, [], ["reference/p/notes.txt: no role"]),
        ({}, ["docs/puzzles/p.md"], ["docs/puzzles/p.md: missing"]),
        ({}, ["benchmarks/p/p_bench.cpp", "benchmarks/p/cuda/cub.cpp"], ["benchmarks/p/: missing"]),
        ({"framework/puzzles/p/spec.cpp": ".bytes_moved = bytes,"}, ["benchmarks/p/p_bench.cpp", "benchmarks/p/cuda/cub.cpp"],
         []),
        ({"framework/puzzles/p/spec.cpp": ".bytes_moved = bytes,"}, ["benchmarks/p/p_bench.cpp"],
         ["benchmarks/p/p_bench.cpp: missing"]),
        ({"framework/puzzles/p/spec.cpp": "// no .bytes_moved here"}, ["benchmarks/p/p_bench.cpp", "benchmarks/p/cuda/cub.cpp"],
         ["benchmarks/p/: missing"]),
        ({"framework/puzzles/p/sub/spec.cpp": ""}, [], ["framework/puzzles/p/sub/spec.cpp: no role"]),
        ({"docs/puzzles/p.md": "Replace this paragraph with what the puzzle teaches"}, [],
         ["docs/puzzles/p.md: still says 'replace this paragraph'"]),
        ({"framework/puzzles/p/spec.cpp": '.summary = "x (replace with your puzzle\'s summary)"'}, [],
         ["framework/puzzles/p/spec.cpp: still says 'replace with your puzzle's summary'"]),
    ]
    failed = 0
    for extra, drop, expected in cases:
        with tempfile.TemporaryDirectory() as d:
            got = check(tree(pathlib.Path(d), extra, drop))
            ok = len(got) == len(expected) and all(any(e in g for g in got) for e in expected)
            if not ok:
                failed += 1
                print(f"self-test: planted {extra or drop}: expected {expected}, got {got}")
    print("kpz_puzzle_shape self-test: " + ("ok" if not failed else f"{failed} case(s) wrong"))
    return 1 if failed else 0


def main(argv):
    root = pathlib.Path(__file__).resolve().parent.parent
    args = list(argv)
    if args in (["--help"], ["-h"]):
        print(__doc__.strip())
        return 0
    if args == ["--self-test"]:
        return self_test()
    if args == ["--roles"]:
        for title, roles in (("framework/puzzles/<name>/", PUZZLE_ROLES), ("benchmarks/<name>/", BENCH_ROLES)):
            print(title)
            for pattern, required, job in roles:
                print(f"  {pattern:<18} {'required' if required else 'optional'}  {job}")
        return 0
    if len(args) == 2 and args[0] == "--root":
        root = pathlib.Path(args[1])
    elif args:
        print(f"kpz_puzzle_shape: unknown arguments {' '.join(args)} (allowed: --root DIR, --roles, --self-test, --help)",
              file=sys.stderr)
        return 2
    if not (root / "framework" / "puzzles").is_dir():
        print(f"kpz_puzzle_shape: {root} holds no framework/puzzles/ (give the repository with --root)", file=sys.stderr)
        return 2
    problems = check(root)
    for p in problems:
        print(p)
    print(f"kpz_puzzle_shape: {len(problems)} file(s) out of shape" if problems else "kpz_puzzle_shape: every puzzle in shape")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
