#!/usr/bin/env python3
"""Checks the built book for what `mkdocs build --strict` lets through.

  - A table or a list that did not render: Python-Markdown starts a table or a list only after
    a blank line, so one written right under a paragraph (or an image) stays text, and the page
    shows its raw `| --- |` row or `- item` lines inside a paragraph. Found in the built HTML:
    a line of a <p> that starts with `|` and holds `---`, or a line after a <p>'s first that
    starts like a list's first item (`- `, `* `, `+ `, `1. `), once per paragraph.
  - An image with no page: an image file of docs/ that the site carries (mkdocs.yml's
    exclude_docs leaves some out) and that no page, stylesheet or other image of the site
    refers to. UNUSED lists those kept on purpose, each with the reason; an entry that a page
    shows after all, or whose file is gone, is reported too, so that the list stays true.

  kpz_site_check.py SITE [--docs DIR]   SITE: the folder `mkdocs build -d SITE` wrote; DIR: the
                                        book's sources (default: docs/ beside this script)
  kpz_site_check.py --self-test         the rules on a small made-up site: each finds its fault

Each finding is printed as path:line: what (the page's source when it can be found, else the
built file); exit 1 on any finding, 0 when there is none, 2 on bad usage.
"""
import argparse
import html.parser
import pathlib
import re
import sys
import urllib.parse

IMAGE_SUFFIXES = {".svg", ".png", ".jpg", ".jpeg", ".gif", ".webp"}

# Images of docs/ that no page shows, on purpose: path relative to docs/ -> why. The trace build
# draws every traceable reference (`trace-docs`), and CI compares them all with the code.
_FLAT = ("a flat kernel: every iteration is a member of its own, in one epoch; basics.md says so in a"
         " sentence, and the picture adds nothing to it")
_HUNT = ("a bug hunt: the reference's diagram is the fixed kernel; the page has the learner trace their own"
         " code (`kpuzzles trace`) to find the bug")
UNUSED = {
    "img/trace/basics-views.svg": _FLAT,
    "img/trace/basics-axpy.svg": _FLAT,
    "img/trace/basics-mdrange.svg": _FLAT,
    "img/trace/basics-reduce.svg": _FLAT,
    "img/trace/basics-custom-reducer.svg": _FLAT,
    "img/trace/basics-scan.svg": _FLAT,
    "img/trace/basics-histogram.svg": _FLAT,
    "img/trace/conv1d-bug-missing-barrier.svg": _HUNT,
    "img/trace/butterfly-bug-in-place.svg": _HUNT,
    "img/trace/butterfly-parallel-min.svg": "the same accesses as --parallel-max, whose diagram the page shows",
    "img/trace/butterfly-parallel-sum.svg": "the same accesses as --parallel-max, whose diagram the page shows",
    "img/trace/butterfly-general.svg": "the same accesses as --conditional-max, whose diagram the page shows for both",
}

TABLE_ROW = re.compile(r"^\s*\|.*---")
# An ordered list starts at 1: a wrapped line that begins "1990. " is prose.
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|1\.)\s+\S")
REFERENCE_ATTRIBUTES = {"src", "href", "data", "srcset", "xlink:href", "poster"}
CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)")


class Page(html.parser.HTMLParser):
    """The text of each <p> (nested inline elements included) and every URL the page refers to."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.paragraphs, self.urls = [], []
        self._depth, self._text = 0, []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if not value:
                continue
            if name == "srcset":
                self.urls += [part.split()[0] for part in value.split(",") if part.strip()]
            elif name in REFERENCE_ATTRIBUTES:
                self.urls.append(value)
            elif name == "style":
                self.urls += CSS_URL.findall(value)
        if tag == "p":
            self._depth += 1
            if self._depth == 1:
                self._text = []

    def handle_endtag(self, tag):
        if tag == "p" and self._depth:
            self._depth -= 1
            if self._depth == 0:
                self.paragraphs.append("".join(self._text))

    def handle_data(self, data):
        if self._depth:
            self._text.append(data)


def source_of(site, built, docs):
    """docs/<page>.md for site/<page>/index.html (or site/index.html), when it exists."""
    rel = built.relative_to(site)
    parts = rel.parts[:-1] if rel.name == "index.html" else rel.with_suffix("").parts
    md = docs.joinpath(*parts).with_suffix(".md") if parts else docs / "index.md"
    if parts and not md.is_file():
        md = docs.joinpath(*parts, "index.md")
    return md if md.is_file() else None


def where(site, built, docs, line_text):
    """path:line of `line_text` in the page's source, else the built file's path."""
    md = source_of(site, built, docs)
    if not md:
        return str(built)
    # The built line has lost its markup (`code`, **bold**, links): compare letters and digits.
    wanted = re.sub(r"[^0-9A-Za-z]+", "", line_text)[:40]
    for number, line in enumerate(md.read_text(encoding="utf-8").split("\n"), 1):
        if wanted and re.sub(r"[^0-9A-Za-z]+", "", line).startswith(wanted):
            return f"{md.relative_to(docs.parent)}:{number}"
    return str(md.relative_to(docs.parent))


def resolve(site, referrer, url):
    """The site file `url` names, from the file `referrer`; None for another site or a scheme."""
    parsed = urllib.parse.urlsplit(url)
    if parsed.scheme or parsed.netloc or not parsed.path:
        return None
    path = urllib.parse.unquote(parsed.path)
    base = site if path.startswith("/") else referrer.parent
    target = (base / path.lstrip("/")).resolve()
    if target.is_dir():
        target = target / "index.html"
    try:
        return target.relative_to(site.resolve()).as_posix()
    except ValueError:
        return None


def self_test():
    """A made-up site with one of each fault and their correct forms: exactly the faults found."""
    import contextlib
    import io
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        docs, site = root / "docs", root / "site"
        for folder in (docs / "img", site / "page", site / "img"):
            folder.mkdir(parents=True)
        (docs / "page.md").write_text("Text.\n![a](img/shown.svg)\n| a | b |\n| --- | --- |\n\nSee:\n- one\n- two\n")
        (docs / "index.md").write_text("Home.\n")
        for name in ("shown.svg", "orphan.svg"):
            (docs / "img" / name).write_text("<svg/>")
            (site / "img" / name).write_text("<svg/>")
        (site / "index.html").write_text("<p>Home.</p><table><tr><td>| --- |</td></tr></table>")
        (site / "page" / "index.html").write_text(
            '<p>Text.\n<img src="../img/shown.svg">\n| a | b |\n| --- | --- |</p>\n'
            "<p>See:\n- one\n- two</p><ul><li>fine</li></ul><p>a - b\n1990. A year.</p>")
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            code = check(site, docs, {})
    found = out.getvalue().splitlines()
    expected = ["docs/page.md:3: a table that did not render", "docs/page.md:7: a list that did not render",
                "docs/img/orphan.svg: no page shows this image"]
    ok = code == 1 and len(found) == len(expected) and all(f.startswith(e) for f, e in zip(sorted(found),
                                                                                           sorted(expected)))
    print("kpz_site_check.py --self-test: " + ("ok" if ok else "FAILED, found:\n" + "\n".join(found)),
          file=sys.stderr)
    return 0 if ok else 1


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    parser = argparse.ArgumentParser(
        description="Find tables and lists that did not render, and images no page shows, in a book"
        " built by mkdocs; exit 1 when there is any.",
        epilog="kpz_site_check.py --self-test: the rules on a small made-up site.")
    parser.add_argument("site", type=pathlib.Path, help="the folder `mkdocs build -d SITE` wrote")
    parser.add_argument("--docs", type=pathlib.Path,
                        default=pathlib.Path(__file__).resolve().parent.parent / "docs",
                        help="the book's sources (default: docs/ of the repository this script is in)")
    args = parser.parse_args(argv)  # bad usage: argparse exits 2
    if not (args.site / "index.html").is_file():
        print(f"kpz_site_check.py: {args.site} is no built site (no index.html): run"
              " `mkdocs build -d SITE` first", file=sys.stderr)
        return 2
    if not args.docs.is_dir():
        print(f"kpz_site_check.py: {args.docs} is no folder", file=sys.stderr)
        return 2
    return check(args.site.resolve(), args.docs.resolve(), UNUSED)


def check(site, docs, unused):
    """Prints the findings; 1 when there is any, else 0."""
    findings = []
    referenced = set()
    for built in sorted(site.rglob("*")):
        if built.suffix == ".css":
            for url in CSS_URL.findall(built.read_text(encoding="utf-8", errors="replace")):
                referenced.add(resolve(site, built, url))
        elif built.suffix == ".svg":  # an image may embed or link another
            text = built.read_text(encoding="utf-8", errors="replace")
            for url in re.findall(r"(?:xlink:)?href=\"([^\"]+)\"", text):
                referenced.add(resolve(site, built, url))
        if built.suffix != ".html":
            continue
        page = Page()
        page.feed(built.read_text(encoding="utf-8", errors="replace"))
        referenced.update(resolve(site, built, url) for url in page.urls)
        for paragraph in page.paragraphs:
            lines = paragraph.split("\n")
            in_list = False  # one finding for the lines of one list
            for index, line in enumerate(lines):
                if TABLE_ROW.match(line):
                    head = lines[index - 1] if index > 0 and lines[index - 1].lstrip().startswith("|") else line
                    findings.append(f"{where(site, built, docs, head)}: a table that did not render (a blank"
                                    f" line must come before it): {head.strip()}")
                elif index > 0 and re.match(r"^\s*(?:[-*+]|\d+\.)\s", line):
                    if not in_list and LIST_ITEM.match(line):
                            findings.append(f"{where(site, built, docs, line)}: a list that did not render (a"
                                        f" blank line must come before it): {line.strip()}")
                    in_list = in_list or bool(LIST_ITEM.match(line))
                    continue
                in_list = False

    for image in sorted(p for p in docs.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES):
        rel = image.relative_to(docs).as_posix()
        if not (site / rel).is_file():
            continue  # not in the book (mkdocs.yml's exclude_docs)
        shown = rel in referenced
        if rel in unused and shown:
            findings.append(f"{image.relative_to(docs.parent)}: shown by a page, but listed as unused in"
                            " kpz_site_check.py's UNUSED: take it out of the list")
        elif not shown and rel not in unused:
            findings.append(f"{image.relative_to(docs.parent)}: no page shows this image: show it where it"
                            " teaches something, delete it, or list it with the reason in kpz_site_check.py's"
                            " UNUSED")
    for rel in sorted(unused):
        if not (docs / rel).is_file():
            findings.append(f"{docs.name}/{rel}: listed in kpz_site_check.py's UNUSED, but there is no such file")

    for finding in findings:
        print(finding)
    print(f"kpz_site_check.py: {len(findings)} finding(s) in {site}", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
