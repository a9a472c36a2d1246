#!/usr/bin/env python3
"""Checks that the learner's pages carry no development history.

The book (docs/**/*.md) and README.md speak to a learner in the present tense. Who measured
what in which working session, which issue asked for a change, and at which commit a number
was taken belongs in benchmarks/results/*-notes.md and the git log, not on a learner's page.
A line fails when it contains

  - "session <number>" (or "sessions <number>") or "issue <number>" / "issue #<number>", case
    ignored, also when a line break separates the word from the number (the line of the word
    is reported), or
  - a lowercase hex word of 7 to 40 characters that is a commit of this repository
    (`git cat-file -e <word>^{commit}` in DIR); other hex words (colours, sizes, seeds) pass,
    and outside a git checkout no word is a commit, or
  - on a learner's page, "the VM" as words (case ignored, also across a line break): the
    machine this project was developed on is no machine a learner has; a page names the
    machine it means ("a 2-core machine", "your laptop").

Learner pages are README.md and docs/**/*.md except the pages for other readers, who may
mean a particular virtual machine: docs/contributing.md (for contributors) and docs/instructor/
(for the instructor, who may hand participants a VM). Those are checked for the first two rules
only.

  kpz_doc_history.py [--root DIR]   print each hit as path:line: text; exit 1 on any hit,
                                    0 when there is none, 2 on bad usage
  kpz_doc_history.py --self-test    the rules on made-up pages: each finds what it must
"""
import argparse
import pathlib
import re
import subprocess
import sys

HISTORY = re.compile(r"\b(sessions?\s+\d+|issue\s+#?\d+)", re.I)
THE_VM = re.compile(r"\bthe\s+vm\b", re.I)
# Pages for readers other than the learner (relative to the root; a folder ends with "/").
NOT_FOR_LEARNERS = ("docs/contributing.md", "docs/instructor/")
HEX = re.compile(r"(?<![0-9A-Za-z_])[0-9a-f]{7,40}(?![0-9A-Za-z_])")


def is_commit(root, word, cache):
    """Whether `word` names a commit of the repository at `root` (answers cached)."""
    if word not in cache:
        if not re.search(r"[a-f]", word):  # all digits: a size or a seed, not a hash
            cache[word] = False
        else:
            try:
                done = subprocess.run(["git", "cat-file", "-e", word + "^{commit}"], cwd=root,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                cache[word] = done.returncode == 0
            except OSError:  # no git: nothing can be checked as a commit
                cache[word] = False
    return cache[word]


def for_learners(root, page):
    rel = page.relative_to(root).as_posix()
    return not any(rel == p or (p.endswith("/") and rel.startswith(p)) for p in NOT_FOR_LEARNERS)


def pages(root):
    found = sorted((root / "docs").glob("**/*.md"))
    readme = root / "README.md"
    return found + ([readme] if readme.is_file() else [])


def self_test():
    """Made-up pages: "the VM" counts on a learner's page only; history counts everywhere."""
    import contextlib
    import io
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / "docs" / "instructor").mkdir(parents=True)
        (root / "docs" / "page.md").write_text("Built on the VM in 60 s.\nOn a VMware host, a 2-core machine.\n")
        (root / "docs" / "contributing.md").write_text("The VM is ours.\nSee " + "session" + " 12.\n")  # split: the history grep skips it
        (root / "docs" / "instructor" / "agenda.md").write_text("Hand out the VM.\n")
        (root / "README.md").write_text("Measured on the\nvm of the project.\n")
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            code = main(["--root", str(root)])
    found = sorted(line.split(": ")[0] for line in out.getvalue().splitlines())
    ok = code == 1 and found == ["README.md:1", "docs/contributing.md:2", "docs/page.md:1"]
    print("kpz_doc_history.py --self-test: " + ("ok" if ok else f"FAILED, found: {out.getvalue()}"),
          file=sys.stderr)
    return 0 if ok else 1


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    parser = argparse.ArgumentParser(
        description="List development history (session N, issue N, commit hashes; \"the VM\" on a"
        " learner's page) in docs/ and README.md; exit 1 when there is any.")
    parser.add_argument("--root", type=pathlib.Path,
                        default=pathlib.Path(__file__).resolve().parent.parent,
                        help="the repository root (default: the one this script lives in)")
    args = parser.parse_args(argv)  # bad usage: argparse exits 2
    root = args.root.resolve()
    if not (root / "docs").is_dir():
        print(f"kpz_doc_history.py: {root} has no docs/ folder", file=sys.stderr)
        return 2
    cache, hits = {}, 0
    for page in pages(root):
        text = page.read_text(encoding="utf-8")
        rules = [HISTORY] + ([THE_VM] if for_learners(root, page) else [])
        marked = {text.count("\n", 0, m.start()) + 1 for rule in rules for m in rule.finditer(text)}
        for number, line in enumerate(text.split("\n"), 1):
            if number in marked or any(is_commit(root, w, cache) for w in HEX.findall(line)):
                hits += 1
                print(f"{page.relative_to(root)}:{number}: {line.strip()}")
    print(f"kpz_doc_history.py: {hits} line(s) with development history", file=sys.stderr)
    return 1 if hits else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
