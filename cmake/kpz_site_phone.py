#!/usr/bin/env python3
"""Checks the built book in a browser at a phone's width: no page is wider than the screen.

Every page of the site is opened in headless Chromium at 390 CSS px (a phone held upright) and at
1280 px (a laptop), with the page's own scripts running as they would for a reader. A page fails
when its document is wider than the window (document.scrollWidth > innerWidth): a table, a code
line or a diagram wider than its column must scroll inside its own box (Material's
.md-typeset__scrollwrap for tables, the <code> of a code block), since past the column Material's
`html { overflow-x: hidden }` cuts it off where nobody can scroll to it. Each finding names the
outermost blocks that stick out (tag and classes, the heading above them, the start of their
text) and how far right they reach, so that the page's source can be found.

With --shots DIR it also writes screenshots of SHOT_PAGES at both widths into DIR (NAME-390.png,
NAME-1280.png; the whole page, up to SHOT_MAX_HEIGHT), for a person to look at what the numbers
cannot say.

Chromium is driven through its DevTools protocol over a pipe (--remote-debugging-pipe), with the
Python standard library only; the site is read from file:// URLs and every host name fails to
resolve, so that no page waits on the network (Material asks Google for its fonts). The window
is a desktop one of the phone's width, not mobile emulation: a phone may zoom out to fit a page
that is too wide, which would hide what this check looks for, and Material picks its phone
layout from the width alone.

  kpz_site_phone.py SITE [--shots DIR] [--docs DIR] [--chromium PATH]
      SITE: the folder `mkdocs build -d SITE` wrote; --docs: the book's sources, to name each page
      by its source (default: docs/ beside this script); PATH: the browser (default: chromium,
      else chromium-browser, google-chrome on PATH)
  kpz_site_phone.py --self-test [--chromium PATH]
      the rule on made-up pages: a table, a code span and a <pre> line wider than the screen are
      found; the same in a scroll box, and a banner fixed to the window, are not

Each finding is printed as page @ width: what; exit 1 on any finding, 0 when there is none, 2 on
bad usage, or when the browser does not start or stops answering.
"""
import argparse
import base64
import fcntl
import json
import os
import pathlib
import select
import shutil
import subprocess
import sys
import tempfile
import time

from kpz_site_check import source_of  # beside this script: docs/<page>.md for site/<page>/index.html

WIDTHS = (390, 1280)
HEIGHT = 844  # a phone's screen; the laptop's is irrelevant to the rule
# The pages a person looks at in the screenshots: the home page, a puzzle page with wide tables,
# and the instructor's agenda (site paths).
SHOT_PAGES = ("index.html", "puzzles/conv1d/index.html", "instructor/agendas/index.html")
# A screenshot taller than this is cut: a 390 px wide page can be 40 000 px tall, and the top of
# it says what a reader sees; the overflow rule reads the whole page regardless.
SHOT_MAX_HEIGHT = 16000
TIMEOUT_S = 30

# The rule, run in the page. Something sticks out when its box ends past the window, or its own
# text does (a <pre> without a scroll box keeps its box in the column and lets its line run on),
# unless a box that clips or scrolls (overflow-x not visible) and ends within the window holds
# it, or it is fixed to the window (which adds nothing to the document's width). Each is named by
# the block it belongs to (a highlighted code line's tokens by their <code>, an inline code span
# by its paragraph), outermost blocks only: a table that sticks out drags its rows and cells with
# it, and naming them all would bury the table.
MEASURE = r"""
(() => {
  const vw = window.innerWidth, sw = document.documentElement.scrollWidth;
  const past = (rect) => rect.width > 0 && rect.right > vw + 0.5;
  const textRight = (el) => Math.max(0, ...[...el.childNodes].map((n) => {
    if (n.nodeType !== Node.TEXT_NODE || !n.textContent.trim()) return 0;
    const range = document.createRange();
    range.selectNodeContents(n);
    return range.getBoundingClientRect().right;
  }));
  const reach = (el) => {  // how far right el or its own text goes; 0 when it does not stick out
    const style = getComputedStyle(el);
    if (style.position === 'fixed') return 0;
    const rect = el.getBoundingClientRect();
    const right = Math.max(past(rect) ? rect.right : 0, style.overflowX === 'visible' ? textRight(el) : 0);
    if (right <= vw + 0.5) return 0;
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const s = getComputedStyle(up);
      if (s.position === 'fixed') return 0;
      if (s.overflowX !== 'visible' && up.getBoundingClientRect().right <= vw + 0.5) return 0;
    }
    return right;
  };
  const blockOf = (el) => {
    while (el.parentElement !== document.body && getComputedStyle(el).display.startsWith('inline')) el = el.parentElement;
    return el;
  };
  const blocks = new Map();  // block -> the farthest right something in it reaches
  if (sw > vw) {
    for (const el of document.body.querySelectorAll('*')) {
      const right = reach(el);
      if (!right) continue;
      const block = blockOf(el);
      blocks.set(block, Math.max(right, blocks.get(block) || 0));
    }
  }
  const headings = [...document.querySelectorAll('article h1, article h2, article h3, article h4')];
  const under = (el) => {  // the last heading before el, to find it in the page's source
    let last = null;
    for (const h of headings) if (h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) last = h;
    return last ? last.textContent.replace(/\u00b6/g, '').trim() : '';
  };
  const offenders = [];
  for (const [el, right] of blocks) {
    let inner = false;
    for (let up = el.parentElement; up && !inner; up = up.parentElement) inner = blocks.has(up);
    if (inner) continue;
    const name = el.tagName.toLowerCase() + [...el.classList].map((c) => '.' + c).join('');
    const text = (el.textContent || el.getAttribute('src') || '').replace(/\s+/g, ' ').trim();
    offenders.push({name, text: text.slice(0, 60), right: Math.round(right), under: under(el)});
  }
  return {vw, sw, height: document.documentElement.scrollHeight, offenders};
})()
"""


class BrowserError(Exception):
    """Chromium did not start, or did not answer in time."""


class Chromium:
    """One headless Chromium and one tab, over the DevTools pipe (fd 3: commands in, fd 4: out)."""

    def __init__(self, binary, profile):
        to_browser, self._write = os.pipe()
        self._read, from_browser = os.pipe()
        # Above the descriptors the child is given, so that placing them at 3 and 4 overwrites none.
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (to_browser, from_browser)]
        os.close(to_browser)
        os.close(from_browser)

        def give_pipe():  # in the child: dup2 clears close-on-exec for 3 and 4 only
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        self._process = subprocess.Popen(
            [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--mute-audio",
             "--host-resolver-rules=MAP * ~NOTFOUND", f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            close_fds=False, preexec_fn=give_pipe)
        for fd in high:
            os.close(fd)
        self._buffer, self._events, self._next_id = b"", [], 0
        self._session = None
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self._session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.send("Page.enable")
        self.send("Emulation.setScrollbarsHidden", {"hidden": True})  # the window's width is the page's

    def _message(self, deadline):
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._read], [], [], left)[0]:
                raise BrowserError(f"no answer from the browser in {TIMEOUT_S} s")
            chunk = os.read(self._read, 1 << 20)
            if not chunk:
                raise BrowserError(f"the browser exited (code {self._process.poll()})")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def send(self, method, params=None):
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if self._session:
            message["sessionId"] = self._session
        try:
            os.write(self._write, json.dumps(message).encode() + b"\0")
        except OSError as e:
            raise BrowserError(f"the browser is gone ({e})") from e
        deadline = time.monotonic() + TIMEOUT_S
        while True:
            answer = self._message(deadline)
            if answer.get("id") != self._next_id:
                self._events.append(answer.get("method"))
                continue
            if "error" in answer:
                raise BrowserError(f"{method}: {answer['error'].get('message')}")
            return answer["result"]

    def open(self, url, width):
        """Loads url in a window `width` px wide; returns what MEASURE found."""
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})
        self._events.clear()
        self.send("Page.navigate", {"url": url})
        deadline = time.monotonic() + TIMEOUT_S
        while "Page.loadEventFired" not in self._events:
            self._events.append(self._message(deadline).get("method"))
        # Two frames after load: Material's scripts have wrapped the tables and laid them out.
        settle = "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
        self.send("Runtime.evaluate", {"expression": settle, "awaitPromise": True})
        found = self.send("Runtime.evaluate", {"expression": MEASURE, "returnByValue": True})
        if "exceptionDetails" in found:
            raise BrowserError(f"the measuring script failed on {url}")
        return found["result"]["value"]

    def screenshot(self, path, width, height):
        """The page as loaded by open(), from its top, `height` px of it."""
        shot = self.send("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})
        path.write_bytes(base64.b64decode(shot["data"]))

    def close(self):
        try:
            self._session = None
            self.send("Browser.close")
        except BrowserError:
            pass
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        os.close(self._read)
        os.close(self._write)


def describe(found):
    """One line for an overflowing page: how much wider, and what sticks out."""
    what = "; ".join(f"<{o['name']}>" + (f" under \"{o['under']}\"" if o["under"] else "")
                     + f" reaches {o['right']} px ({o['text']!r})"
                     for o in found["offenders"][:5]) or "no element found that sticks out"
    more = f" and {len(found['offenders']) - 5} more" if len(found["offenders"]) > 5 else ""
    return (f"the page is {found['sw']} px wide, wider than the {found['vw']} px window: {what}{more}"
            " (make it wrap, or scroll inside its own box)")


def check(browser, site, shots, docs):
    """Prints the findings, each under the page's source in docs (when there is one); 1 when there
    is any, else 0."""
    findings = []
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    for rel in SHOT_PAGES:
        if shots and rel not in pages:
            findings.append(f"{rel}: no such page in the site, for a screenshot (SHOT_PAGES in kpz_site_phone.py)")
    for rel in pages:
        for width in WIDTHS:
            found = browser.open((site / rel).as_uri(), width)
            if found["sw"] > found["vw"]:
                md = docs and source_of(site, site / rel, docs)
                findings.append(f"{md.relative_to(docs.parent) if md else rel} @ {width} px: {describe(found)}")
            if shots and rel in SHOT_PAGES:
                name = rel.removesuffix("index.html").strip("/").replace("/", "-") or "index"
                browser.screenshot(shots / f"{name}-{width}.png", width, min(found["height"], SHOT_MAX_HEIGHT))
    for finding in findings:
        print(finding)
    print(f"kpz_site_phone.py: {len(findings)} finding(s) in {len(pages)} pages of {site} at"
          f" {' and '.join(map(str, WIDTHS))} px", file=sys.stderr)
    return 1 if findings else 0


def self_test(browser):
    """Made-up pages: what sticks out past 390 px is found and named; the same in a scroll box is not."""
    import contextlib
    import io
    # Wider than a phone, narrower than a laptop: only the 390 px window finds them.
    cell = "<td>" + "unbreakable_" * 2 + "</td>"
    pages = {
        "table/index.html": f"<table><tr>{cell * 3}</tr></table>",
        "code/index.html": "<p>Run <code style='white-space:pre'>" + "a_long_command_line " * 4 + "</code></p>",
        "pre/index.html": "<pre>" + "a_long_output_line " * 4 + "</pre>",  # its box fits, its line does not
        "boxed/index.html": f"<div style='overflow-x:auto'><table><tr>{cell * 3}</tr></table></div>"
                            "<pre style='overflow:auto'>" + "x" * 400 + "</pre>",
        "fixed/index.html": "<div style='position:fixed;left:300px;width:600px'>a banner</div><p>Text.</p>",
        "index.html": "<p>Home.</p>",
    }
    with tempfile.TemporaryDirectory() as tmp:
        site = pathlib.Path(tmp)
        for rel, body in pages.items():
            (site / rel).parent.mkdir(parents=True, exist_ok=True)
            (site / rel).write_text(f"<!doctype html><meta name=viewport content='width=device-width'>"
                                    f"<body style='margin:8px'>{body}</body>")
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            code = check(browser, site, None, None)
    found = sorted(out.getvalue().splitlines())
    expected = [("code/index.html @ 390 px:", "<p>"), ("pre/index.html @ 390 px:", "<pre>"),
                ("table/index.html @ 390 px:", "<table>")]
    ok = code == 1 and len(found) == len(expected) and all(
        f.startswith(where) and what in f for f, (where, what) in zip(found, expected))
    print("kpz_site_phone.py --self-test: " + ("ok" if ok else "FAILED, found:\n" + "\n".join(found)),
          file=sys.stderr)
    return 0 if ok else 1


def find_chromium(given):
    if given:
        return shutil.which(given)
    return next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)


def main(argv):
    parser = argparse.ArgumentParser(
        description="Open every page of a book built by mkdocs in headless Chromium at 390 and 1280 px"
        " wide; exit 1 when a page is wider than the window.",
        epilog="kpz_site_phone.py --self-test: the rule on made-up pages.")
    parser.add_argument("site", type=pathlib.Path, nargs="?", help="the folder `mkdocs build -d SITE` wrote")
    parser.add_argument("--shots", type=pathlib.Path, help="write screenshots of SHOT_PAGES here")
    parser.add_argument("--docs", type=pathlib.Path,
                        default=pathlib.Path(__file__).resolve().parent.parent / "docs",
                        help="the book's sources, to name a page by its source (default: docs/ of the repository"
                        " this script is in)")
    parser.add_argument("--chromium", help="the browser (default: chromium on PATH)")
    parser.add_argument("--self-test", action="store_true", help="the rule on made-up pages")
    args = parser.parse_args(argv)  # bad usage: argparse exits 2
    if args.self_test == bool(args.site):
        parser.exit(2, "kpz_site_phone.py: give SITE or --self-test (one of them)\n")
    if args.site and not args.docs.is_dir():
        parser.exit(2, f"kpz_site_phone.py: {args.docs} is no folder\n")
    if args.site and not (args.site / "index.html").is_file():
        parser.exit(2, f"kpz_site_phone.py: {args.site} is no built site (no index.html): run"
                    " `mkdocs build -d SITE` first\n")
    binary = find_chromium(args.chromium)
    if not binary:
        parser.exit(2, "kpz_site_phone.py: no Chromium found (Debian: apt-get install chromium;"
                    " or --chromium PATH)\n")
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="kpz-chromium-") as profile:
        try:
            browser = Chromium(binary, profile)
        except (BrowserError, OSError) as e:
            parser.exit(2, f"kpz_site_phone.py: {binary} did not start: {e}\n")
        try:
            if args.self_test:
                return self_test(browser)
            code = check(browser, args.site.resolve(), args.shots and args.shots.resolve(), args.docs.resolve())
            if args.shots:
                print(f"kpz_site_phone.py: screenshots in {args.shots.resolve()}", file=sys.stderr)
            return code
        except BrowserError as e:
            print(f"kpz_site_phone.py: {e}", file=sys.stderr)
            return 2
        finally:
            browser.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
