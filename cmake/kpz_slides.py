#!/usr/bin/env python3
"""The workshop slides: one self-contained HTML deck per part, built with pandoc (Debian: `apt-get
install pandoc`; DZSlides, pandoc's built-in HTML slide format, so no JavaScript to download).

Parts, in course order: welcome (docs/slides/welcome.md), one per puzzle of the course, the GPU
demo (gpu-demo.md) and the wrap-up (wrap-up.md). A puzzle's deck is made from the book: its page's
title and opening paragraph, the concept slides in docs/slides/<puzzle>.md when there are any,
its exercises with their minutes (the registry), each core exercise's access diagram
(docs/img/trace/), and its measured row of docs/one-source-two-machines.md. In the parts' text,
the book's generated blocks (`<!-- course:... -->`, cmake/kpz_course_docs.py) are filled in, and

    <!-- slides:include PAGE MARKER -->   the block of docs/PAGE between <!-- generated:MARKER -->
                                         and <!-- generated:end --> (the committed measurements)

  cmake/kpz_slides.py [--kpuzzles PATH | --list-json FILE] [--out DIR]   (default DIR: build/slides)

Open DIR/index.html; in a deck, the arrow keys move, Home and End jump, F11 is full screen.
"""
import argparse
import html
import importlib.util
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
PARTS = ROOT / "docs" / "slides"
DOCS = ROOT / "docs"
spec = importlib.util.spec_from_file_location("kpz_course_docs", ROOT / "cmake" / "kpz_course_docs.py")
course_docs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(course_docs)

INCLUDE = re.compile(r"<!-- slides:include (\S+) (\S+) -->")
IMAGE = re.compile(r"!\[([^\]]*)\]\((?!https?:)([^)\s]+)\)")
PAGE_LINK = re.compile(r"(?<!!)\[([^\]]+)\]\((?!https?:)[^)]*\.md(#[^)]*)?\)")  # the book's pages: text only


def generated_block(page, marker):
    text = (DOCS / page).read_text()
    m = re.search(rf"<!-- generated:{re.escape(marker)} -->\n(.*?)\n<!-- generated:end -->", text, re.S)
    if not m:
        sys.exit(f"cmake/kpz_slides.py: docs/{page} has no <!-- generated:{marker} --> block")
    return m.group(1)


def absolute_images(text, base):
    """Image paths of the book (relative to a page) made absolute, for pandoc to embed."""
    return IMAGE.sub(lambda m: f"![{m.group(1)}]({(base / m.group(2)).resolve()})", text)


def expand(text, rows, page):
    text = INCLUDE.sub(lambda m: generated_block(m.group(1), m.group(2)), text)
    return PAGE_LINK.sub(r"\1", course_docs.fill(text, rows, page))


def page_opening(doc):
    """The title (without the `name` in parentheses) and first paragraph of a puzzle's page."""
    text = (DOCS / doc).read_text()
    title = re.search(r"^# (.+)$", text, re.M).group(1)
    body = " ".join(text.split("\n", 1)[1].strip().split("\n\n")[0].split())
    body = re.sub(r"\s*It teaches:$", "", body)  # the page's list of lessons follows; the deck has its own
    return re.sub(r"\s*\(`[^`]*`\)$", "", title), body


def puzzle_deck(puzzle, rows, portable):
    mine = [r for r in rows if r["puzzle"] == puzzle]
    doc = mine[0]["doc"]
    title, opening = page_opening(doc)
    out = [f"---\ntitle: \"{title}\"\nsubtitle: \"kpuzzles {puzzle}\"\n---\n", f"## {title}\n\n{opening}\n"]
    own = PARTS / f"{puzzle}.md"
    if own.exists():
        out.append(own.read_text())
    minutes = sum(r["minutes"] for r in mine if r["track"] == "core")
    table = ["| # | exercise | what | min | track |", "| --- | --- | --- | --- | --- |"]
    for r in mine:
        hunt = " (bug hunt)" if r["bug_hunt"] else ""
        table.append(f"| {r['position']} | `--{r['variant']}`{hunt} | {course_docs.cell(r['summary'])} | "
                     f"{r['minutes']} | {r['track']} |")
    out.append(f"## The exercises\n\nCore: about {course_docs.hours(minutes)}. `kpuzzles watch` takes them in "
               f"this order.\n\n" + "\n".join(table) + "\n")
    for r in mine:
        svg = DOCS / "img" / "trace" / f"{puzzle}-{r['variant']}.svg"
        if r["track"] == "core" and svg.exists():
            out.append(f"## `{puzzle} --{r['variant']}`: who touches what\n\n{r['summary']}\n\n"
                       f"![`kpuzzles trace {puzzle} --{r['variant']}`]({svg})\n")
    mine_measured = [line for line in portable if line.startswith(f"| {puzzle} |")]
    if mine_measured:
        head = portable[:2]
        out.append("## Measured: the portable exercise on both machines\n\n" + "\n".join(head + mine_measured) +
                   "\n\nFrom `benchmarks/results/`, as in *One source, two machines*.\n")
    out.append(f"## Now you\n\n```sh\nkpuzzles watch {puzzle}\n```\n\nThe page: `docs/{doc}`; hints: `h` in "
               "`watch`, one tier at a time.\n")
    return "\n".join(out)


def pandoc(md, html_out, workdir):
    src = workdir / (html_out.stem + ".md")
    src.write_text(md)
    version = subprocess.run(["pandoc", "--version"], capture_output=True, text=True).stdout.split()[1]
    embed = ["--embed-resources", "--standalone"] if tuple(map(int, version.split(".")[:2])) >= (2, 19) else \
        ["--self-contained"]
    cmd = ["pandoc", "-f", "markdown-smart", "-t", "dzslides", "--slide-level=2", *embed, "--css", str(ROOT / "docs" / "slides" / "slides.css"),
           "--resource-path", str(DOCS), "-o", str(html_out), str(src)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"cmake/kpz_slides.py: pandoc failed on {html_out.name}:\n{r.stderr}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kpuzzles", help="the kpuzzles to ask (default: build/openmp/framework/cli/kpuzzles)")
    ap.add_argument("--list-json", help="a saved `kpuzzles list --json` instead of running kpuzzles")
    ap.add_argument("--out", default=str(ROOT / "build" / "slides"), help="output folder (default: build/slides)")
    args = ap.parse_args()
    if not shutil.which("pandoc"):
        sys.exit("cmake/kpz_slides.py: needs pandoc (Debian/Ubuntu: apt-get install pandoc; macOS: brew install pandoc)")
    rows = course_docs.exercises(course_docs.load_course(args))
    portable = generated_block("one-source-two-machines.md", "table").splitlines()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    names = course_docs.decks(rows)  # the file names the agendas print
    titles = {"welcome": "Welcome", "gpu-demo": "The GPU demo", "wrap-up": "Wrap-up"}
    decks = []
    for part, stem in names.items():
        md = (PARTS / f"{part}.md").read_text() if part in titles else puzzle_deck(part, rows, portable)
        decks.append((stem, titles.get(part, part), absolute_images(expand(md, rows, "instructor/x.md"), DOCS)))
    with tempfile.TemporaryDirectory() as tmp:
        for name, _, md in decks:
            pandoc(md, out / f"{name}.html", pathlib.Path(tmp))
    links = "\n".join(f'<li><a href="{name}.html">{html.escape(title)}</a></li>' for name, title, _ in decks)
    (out / "index.html").write_text(f"<!doctype html>\n<meta charset=\"utf-8\">\n<title>Kokkos Puzzles: slides</title>\n"
                                    f"<h1>Kokkos Puzzles: workshop slides</h1>\n<ol>\n{links}\n</ol>\n")
    print(f"{len(decks)} decks in {os.path.relpath(out)}; open {os.path.relpath(out / 'index.html')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
