#!/usr/bin/env python3
"""Checks that the learner's TODOs say what to do, not how.

A TODO is the text of a `// KPZ-TODO(roughly N lines): ...` marker in reference/<puzzle>/*.cpp (and *.hpp)
and its continuation lines (`//   ...`, see framework/cli/skeleton.hpp). The how lives in the hint
tiers of docs/puzzles/<puzzle>.md (its `## Hints` section). A TODO fails when

  - it shares a run of 6 or more consecutive words with that puzzle's hints (words: identifiers
    and numbers, case ignored, punctuation and code symbols skipped), or
  - it contains a code fragment of the hints (an inline code span, or a line of a code block)
    that is an expression (it has an operator) of 12 or more characters, spaces ignored, or
  - it assigns (`x = ...`, `+=`): a TODO names what to compute, never the expression, or
  - one of its lines is longer than 100 characters.

  kpz_todo_check.py            check every puzzle (exit 1 on any failure)
  kpz_todo_check.py --stats    also print the TODOs' lengths (count, max, median characters)
  kpz_todo_check.py --self-test  check that the rules catch what they must (exit 1 if not)
"""
import argparse
import pathlib
import re
import statistics
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MAX_LINE = 100
MIN_WORDS = 6
MIN_CODE = 12
TODO = re.compile(r"^(\s*)// KPZ-TODO\((roughly \d+ lines?)\): (.+)$")
MORE = re.compile(r"^(\s*)//   (\S.*)$")
WORD = re.compile(r"[a-z0-9_]+")
TEMPLATE_ARGS = re.compile(r"<[\w:, ]*>")  # Views<T>, GroupsMinMax<U>: names, not operators
OPERATOR = re.compile(r"[=+*/<>?|&^%]|\s-\s")
ASSIGNMENT = re.compile(r"(?<![=!<>+\-*/%&|^])=(?!=)|[+\-*/%&|^]=(?!=)")


def todos(text):
    """(line number, [source lines], joined text) for every KPZ-TODO of a reference file."""
    lines = text.splitlines()
    found = []
    for i, line in enumerate(lines):
        m = TODO.match(line)
        if not m:
            continue
        source, parts = [line], [m.group(3).strip()]
        for nxt in lines[i + 1:]:
            c = MORE.match(nxt)
            if not c or c.group(1) != m.group(1):
                break
            source.append(nxt)
            parts.append(c.group(2).strip())
        found.append((i + 1, source, " ".join(parts)))
    return found


def hints_section(page):
    """The `## Hints` section of a docs page (up to the next `## ` heading)."""
    m = re.search(r"^## Hints\s*$(.*?)(?=^## |\Z)", page, re.S | re.M)
    return m.group(1) if m else ""


def code_fragments(markdown):
    """Inline code spans and the lines of fenced code blocks."""
    frags = []
    fenced = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
    for block in fenced.findall(markdown):
        frags += [line for line in block.splitlines() if line.strip()]
    frags += re.findall(r"`([^`\n]+)`", fenced.sub("", markdown))
    return frags


def squeeze(s):
    return re.sub(r"\s+", "", s)


def words(s):
    return WORD.findall(s.lower())


def shared_run(todo_words, hint_words, n):
    """The first run of `n` consecutive words of the TODO that the hints contain, or None."""
    grams = {tuple(hint_words[i:i + n]) for i in range(len(hint_words) - n + 1)}
    for i in range(len(todo_words) - n + 1):
        if tuple(todo_words[i:i + n]) in grams:
            return " ".join(todo_words[i:i + n])
    return None


def problems(todo_text, source_lines, hints):
    """What is wrong with one TODO, given its puzzle's hints (the `## Hints` section)."""
    out = []
    for line in source_lines:
        if len(line) > MAX_LINE:
            out.append(f"a line of {len(line)} characters (at most {MAX_LINE})")
    run = shared_run(words(todo_text), words(hints), MIN_WORDS)
    if run:
        out.append(f"shares {MIN_WORDS}+ consecutive words with the hints: '{run} ...'")
    squeezed = squeeze(todo_text)
    for frag in code_fragments(hints):
        f = squeeze(frag)
        if len(f) >= MIN_CODE and OPERATOR.search(TEMPLATE_ARGS.sub("", frag)) and f in squeezed:
            out.append(f"contains the hints' code '{frag.strip()}'")
            break
    a = ASSIGNMENT.search(todo_text)
    if a:
        out.append(f"assigns ('{todo_text[max(0, a.start() - 20):a.end() + 20]}'): name what to compute instead")
    return out


def check(stats):
    failures, lengths = 0, []
    for ref in sorted([*(ROOT / "reference").glob("*/*.cpp"), *(ROOT / "reference").glob("*/*.hpp")]):
        puzzle = ref.parent.name
        page = ROOT / "docs" / "puzzles" / f"{puzzle}.md"
        hints = hints_section(page.read_text()) if page.exists() else ""
        for lineno, source, text in todos(ref.read_text()):
            lengths.append(len(text))
            for p in problems(text, source, hints):
                print(f"{ref.relative_to(ROOT)}:{lineno}: the TODO {p}")
                failures += 1
    if stats and lengths:
        print(f"{len(lengths)} TODOs: max {max(lengths)}, median {statistics.median(lengths):g} characters of text")
    if failures:
        print(f"{failures} problem(s): a TODO says what to do and names what it uses; the how is in the hints "
              f"(docs/puzzles/<puzzle>.md), and its lines are at most {MAX_LINE} characters")
    return 1 if failures else 0


def self_test():
    """The rules catch TODOs that gave the solution away (segscan's `combine` TODO was its third hint)."""
    hints = ("#### Hint 2\n\nIf `b.flag` is set, the sum in `a` belongs to an older segment: the result's "
             "value is `b.value` alone.\n\n#### Hint 3\n\n```cpp\nr.value = b.flag ? b.value : a.value + b.value;\n"
             "r.flag = a.flag | b.flag;\n```\n")
    old = ("if the later operand b starts a segment, the earlier sum must not leak into it: r.value = b.flag ? "
           "b.value : a.value + b.value; and the range of r has a head if either part has one: r.flag = a.flag | "
           "b.flag.")
    cases = [
        (old, [f"  // KPZ-TODO(roughly 2 lines): {old}"], 4),  # long line, words, code, assignment
        ("if b belongs to an older segment, the result is b alone", ["  // short"], 1),  # 6 words
        ("write the segmented sum of the two pairs into r", ["  // short"], 0),
        ("the pair r combines a and b", ["x" * (MAX_LINE + 1)], 1),
        ("count until i == n or i <= n", ["  // short"], 0),  # comparisons are not assignments
    ]
    bad = 0
    for text, source, want in cases:
        got = problems(text, source, hints)
        if len(got) != want:
            print(f"self-test: expected {want} problem(s) for '{text[:50]}...', got {got}")
            bad += 1
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stats", action="store_true")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    return check(args.stats)


if __name__ == "__main__":
    sys.exit(main())
