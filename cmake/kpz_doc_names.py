#!/usr/bin/env python3
"""Checks that the code names a page cites exist in the code (docs/contributing.md by default).

A name is an identifier in a `code span` that looks like code rather than a word: it has an
underscore, a `::` or an inner capital (`set_exercise`, `kpz::tile_launch`, `PuzzleSpec`), and is
followed by `(`, `<` or the span's end. It exists when it is a whole word of a source file under
framework/, cmake/, tests/, benchmarks/, reference/ or .ci/ (or of CMakeLists.txt and the
presets). Placeholders such as `KPZ_<NAME>_KERNELS` are skipped.

  kpz_doc_names.py [PAGE...]   exit 1 naming every cited name that no source file has
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ("framework", "cmake", "tests", "benchmarks", "reference", ".ci")
SUFFIXES = {".cpp", ".hpp", ".inc", ".cmake", ".py", ".txt", ".json", ""}
NAME = re.compile(r"(?<![\w./<>-])((?:kpz::)?[A-Za-z]\w*(?:::\w+)*)(?=\s*(?:\(|<|$))")


def cited(text):
    names = set()
    for span in re.findall(r"`([^`\n]+)`", text):
        for m in NAME.finditer(span):
            n = m.group(1)
            if "_" in n or "::" in n or re.search(r"[a-z][A-Z]", n):
                names.add(n)
    return names


def corpus():
    words = set()
    files = [ROOT / "CMakeLists.txt", ROOT / "CMakePresets.json"]
    for d in SOURCES:
        files += [f for f in (ROOT / d).rglob("*") if f.is_file() and f.suffix in SUFFIXES]
    for f in files:
        words.update(re.findall(r"\w+", f.read_text(errors="ignore")))
    return words


def main(pages):
    words = corpus()
    bad = 0
    for page in pages or [str(ROOT / "docs" / "contributing.md")]:
        for name in sorted(cited(pathlib.Path(page).read_text())):
            if name.split("::")[-1] not in words:
                print(f"{page}: `{name}` is in no source file (renamed or removed? fix the page)")
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
