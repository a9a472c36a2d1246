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
    and outside a git checkout no word is a commit.

  kpz_doc_history.py [--root DIR]   print each hit as path:line: text; exit 1 on any hit,
                                    0 when there is none, 2 on bad usage
"""
import argparse
import pathlib
import re
import subprocess
import sys

HISTORY = re.compile(r"\b(sessions?\s+\d+|issue\s+#?\d+)", re.I)
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


def pages(root):
    found = sorted((root / "docs").glob("**/*.md"))
    readme = root / "README.md"
    return found + ([readme] if readme.is_file() else [])


def main(argv):
    parser = argparse.ArgumentParser(
        description="List development history (session N, issue N, commit hashes) in docs/ and"
        " README.md; exit 1 when there is any.")
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
        marked = {text.count("\n", 0, m.start()) + 1 for m in HISTORY.finditer(text)}
        for number, line in enumerate(text.split("\n"), 1):
            if number in marked or any(is_commit(root, w, cache) for w in HEX.findall(line)):
                hits += 1
                print(f"{page.relative_to(root)}:{number}: {line.strip()}")
    print(f"kpz_doc_history.py: {hits} line(s) with development history", file=sys.stderr)
    return 1 if hits else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
