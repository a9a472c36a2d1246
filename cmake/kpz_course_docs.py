#!/usr/bin/env python3
"""The course's numbers in the docs, generated from the puzzle registry (`kpuzzles list --json`).

Exercise counts, the course order, time estimates and the workshop agendas are never typed in
the docs: each lives between markers that this script fills in,

    <!-- course:NAME [key=value ...] -->...<!-- course:end -->

in docs/**/*.md and README.md. A marker on a line of its own makes a block, one inside a line an
inline value. NAMEs: count (exercises), puzzles, summary (a sentence), list (a `kpuzzles list`
transcript; solved=N pending=N), table (the course: position, puzzle, exercise, what it
practises, minutes, core or stretch, bug hunt), puzzle-table (one row per puzzle in course
order: its page's title, its summary, its exercises), agenda (kind=day, cuda-day or half, AGENDAS below;
notes=no leaves out the notes under the table), demo (the H100
and 16-core CPU numbers of one puzzle's benchmark from benchmarks/results/: puzzle=P, and
group=first or last, the bench's first or last size or filter length).

  kpz_course_docs.py [--kpuzzles PATH | --list-json FILE] --write   rewrite the blocks
  kpz_course_docs.py [--kpuzzles PATH | --list-json FILE] --check   exit 1 if any is stale (CI)

`kpuzzles list` runs with a throw-away progress file, so a learner's progress is never touched.
"""
import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
MARKER = re.compile(r"<!-- course:([a-z-]+)((?: [a-z-]+=[\w.-]+)*) -->(.*?)<!-- course:end -->", re.S)

# The agendas. Each has fixed items, (start, minutes, what), and fills the time between them with
# puzzle introductions (a part's deck) and exercises in course order: every core exercise of the
# course (no "plan"), or the plan's exercises ("puzzle --variant", any track). A slot too short
# for the next exercise is catch-up time. "skip": what to drop first when the group is behind.
# In a "what", {deck:NAME} is the file of a deck (welcome, gpu-demo, wrap-up or a puzzle).
INTRO_MINUTES = 10  # the slides of one part (a puzzle), before its first exercise
AGENDAS = {
    "day": {  # newcomers to GPUs: basics to team scratch, then conv1d with its halo and bug hunt
        "start": "09:00", "end": "17:00",
        "fixed": [("09:00", 20, "Welcome (deck {deck:welcome}); everyone's `kpuzzles doctor` says ready ([setup check](setup-check.md))"),
                  ("10:30", 15, "Break"),
                  ("12:30", 60, "Lunch"),
                  ("13:30", 30, "[GPU demo](gpu-demo.md) (deck {deck:gpu-demo}): the references and benchmarks on a GPU"),
                  ("15:30", 15, "Break"),
                  ("16:45", 15, "Wrap-up (deck {deck:wrap-up}): what Kokkos maps to on each machine, where to go on")],
        "plan": ["basics --views", "basics --axpy", "basics --reduce", "basics --histogram", "basics --team",
                 "basics --scratch", "conv1d --simple", "conv1d --block-boundary", "conv1d --bug-missing-barrier"],
        "skip": ["basics --histogram", "conv1d --bug-missing-barrier"],
    },
    "cuda-day": {  # CUDA programmers: the Kokkos spelling fast, then butterfly and the ladder
        "start": "09:00", "end": "17:00",
        "fixed": [("09:00", 20, "Welcome (deck {deck:welcome}): CUDA → Kokkos in one slide; `kpuzzles doctor` says ready"),
                  ("10:30", 15, "Break"),
                  ("12:30", 60, "Lunch"),
                  ("15:00", 15, "Break"),
                  ("16:15", 30, "[GPU demo](gpu-demo.md) (deck {deck:gpu-demo}): the ladder they just climbed, on an H100"),
                  ("16:45", 15, "Wrap-up (deck {deck:wrap-up})")],
        "plan": ["basics --views", "basics --team", "basics --scratch",
                 "butterfly --pair-swap", "butterfly --parallel-max", "butterfly --parallel-min",
                 "butterfly --parallel-sum",
                 "reduce --neighbored", "reduce --interleaved", "reduce --unroll2", "reduce --unroll4",
                 "reduce --unroll8", "reduce --builtin", "reduce --team-reduce"],
        "skip": ["butterfly --parallel-min", "butterfly --parallel-sum", "reduce --interleaved",
                 "reduce --unroll4", "reduce --unroll8"],
    },
    "half": {  # newcomers, half a day: up to team scratch
        "start": "09:00", "end": "12:30",
        "fixed": [("09:00", 15, "Welcome (deck {deck:welcome}); everyone's `kpuzzles doctor` says ready ([setup check](setup-check.md))"),
                  ("10:25", 15, "Break"),
                  ("11:50", 25, "[GPU demo](gpu-demo.md) (deck {deck:gpu-demo}): the references and benchmarks on a GPU"),
                  ("12:15", 15, "Wrap-up (deck {deck:wrap-up})")],
        "plan": ["basics --views", "basics --axpy", "basics --team", "basics --scratch"],
        "skip": ["basics --axpy"],
    },
}


def decks(rows):
    """The slide decks in order, as cmake/kpz_slides.py names them: {part: file stem}."""
    names = {"welcome": "00-welcome"}
    for i, p in enumerate(puzzles_in_order(rows), start=1):
        names[p] = f"{i:02d}-{p}"
    n = len(names)
    for extra in ("gpu-demo", "wrap-up"):
        names[extra] = f"{n:02d}-{extra}"
        n += 1
    return names


def load_course(args):
    if args.list_json:
        return json.loads(pathlib.Path(args.list_json).read_text())
    kp = args.kpuzzles or str(ROOT / "build" / "openmp" / "framework" / "cli" / "kpuzzles")
    if not os.access(kp, os.X_OK):
        sys.exit(f"kpz_course_docs.py: no kpuzzles at {kp}: build it (cmake --build --preset openmp --target kpuzzles) "
                 "or pass --kpuzzles PATH / --list-json FILE")
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, KPZ_STATE_FILE=os.path.join(tmp, "state.json"))
        out = subprocess.run([kp, "list", "--json"], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"kpz_course_docs.py: `kpuzzles list --json` exited {out.returncode}: {out.stderr.strip()}")
    course = json.loads(out.stdout)
    # Where puzzles are modules, `list` shows the built ones: the course needs every puzzle.
    if course.get("not_built"):
        sys.exit("kpz_course_docs.py: puzzles not built yet: " + ", ".join(course["not_built"]) +
                 f"; build them first: cmake --build {pathlib.Path(kp).parents[2]} --target puzzles")
    return course


def exercises(course):
    rows = course["exercises"]
    missing = [f"{r['puzzle']} --{r['variant']}" for r in rows if not r.get("minutes")]
    if missing:
        sys.exit("kpz_course_docs.py: no time estimate for " + ", ".join(missing) +
                 ": add set_estimate(spec, \"<variant>\", <minutes>, Track::core or Track::stretch) to its "
                 "spec.cpp (docs/instructor/estimates.md says how to estimate)")
    return rows


def puzzles_in_order(rows):
    seen = []
    for r in rows:
        if r["puzzle"] not in seen:
            seen.append(r["puzzle"])
    return seen


def hours(minutes):
    h, m = divmod(minutes, 60)
    return f"{h} h {m:02d} min" if h else f"{m} min"


def link(doc, page):
    """A link from `page` (a path under docs/, or README.md) to `doc` (a path under docs/)."""
    if page == "README.md":
        return "docs/" + doc
    return os.path.relpath(doc, os.path.dirname(page) or ".").replace(os.sep, "/")


def summary(rows):
    core = [r for r in rows if r["track"] == "core"]
    stretch = [r for r in rows if r["track"] != "core"]
    hunts = sum(r["bug_hunt"] for r in rows)
    return (f"{len(rows)} exercises in {len(puzzles_in_order(rows))} puzzles: {len(core)} core (about "
            f"{hours(sum(r['minutes'] for r in core))}) and {len(stretch)} stretch (about "
            f"{hours(sum(r['minutes'] for r in stretch))}); {hunts} of them "
            f"{'is a bug hunt' if hunts == 1 else 'are bug hunts'}, judged by the race check")


def list_transcript(rows, solved=0, pending=0):
    """`kpuzzles list` as a learner sees it: the first exercises, then each puzzle's first."""
    def status(i, r):
        if i < solved:
            return "solved"
        if i < solved + pending:
            return "pending"
        return "not attempted"  # a host build's race check judges bug hunts like the rest
    shown = set(range(solved + pending + 1))
    first = {}
    for i, r in enumerate(rows):
        first.setdefault(r["puzzle"], i)
    shown |= set(first.values())
    out = [f"$ kpuzzles list", f"Kokkos Puzzles on openmp: {solved} of {len(rows)} exercises solved"]
    last = -1
    for i, r in enumerate(rows):
        if i not in shown:
            continue
        if i != last + 1:
            out.append("  ...")
        label = f"{r['puzzle']} --{r['variant']}"
        out.append(f"{i + 1:3d}  {label:<30} {status(i, r):<14} {r['summary']}")
        last = i
    if last != len(rows) - 1:
        out.append("  ...")
    nxt = rows[min(solved, len(rows) - 1)]
    out.append(f"next: {nxt['puzzle']} --{nxt['variant']} (exercises/{nxt['puzzle']}/); `kpuzzles watch` starts there")
    return "```text\n" + "\n".join(out) + "\n```"


def cell(text):
    return text.replace("|", "\\|")


def course_table(rows, page):
    out = ["| # | puzzle | exercise | what it practises | minutes | track | notes |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        note = "bug hunt: judged by the race check" if r["bug_hunt"] else ""
        out.append(f"| {r['position']} | [{r['puzzle']}]({link(r['doc'], page)}) | `--{r['variant']}` | "
                   f"{cell(r['summary'])} | {r['minutes']} | {r['track']} | {note} |")
    return "\n".join(out)


def page_title(doc):
    """The puzzle page's heading without the trailing (`name`): "# 1D convolution (`conv1d`)"."""
    first = (ROOT / "docs" / doc).read_text().splitlines()[0]
    return re.sub(r"\s*\(`[^`]*`\)\s*$", "", first.lstrip("# ").strip())


def puzzle_table(rows, page):
    out = ["| Puzzle | What you practise | Exercises |", "| --- | --- | --- |"]
    for p in puzzles_in_order(rows):
        mine = [r for r in rows if r["puzzle"] == p]
        core = sum(r["track"] == "core" for r in mine)
        out.append(f"| [{page_title(mine[0]['doc'])}]({link(mine[0]['doc'], page)}) (`{p}`) | "
                   f"{cell(mine[0]['puzzle_summary'])} | {len(mine)} ({core} core) |")
    return "\n".join(out)


def clock(t):
    h, m = map(int, t.split(":"))
    return h * 60 + m


def hhmm(minutes):
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def agenda(rows, kind, page, notes=True):
    """The agenda's rows: fixed items at their times; in between, each puzzle's introduction and
    its exercises (the plan's, else the core ones) in course order, as many as fit before the end.
    `notes`: the sums, what to skip when behind, what was not reached and the stretch exercises,
    below the table."""
    plan = AGENDAS[kind]
    deck = decks(rows)
    named = {f"{r['puzzle']} --{r['variant']}": r for r in rows}
    wanted = plan.get("plan")
    unknown = [e for e in (wanted or []) + plan.get("skip", []) if e not in named]
    unknown += [f"{e} (to skip, not in the plan)" for e in plan.get("skip", []) if wanted and e not in wanted]
    if unknown:
        sys.exit(f"kpz_course_docs.py: agenda {kind} names exercises it cannot use (not in the registry, "
                 f"or skipped but not planned): {', '.join(unknown)}")

    def what(text):
        return re.sub(r"\{deck:([\w-]+)\}", lambda m: f"`{deck[m.group(1)]}.html`", text)

    fixed = sorted((clock(s), m, what(w)) for s, m, w in plan["fixed"])
    chosen = [r for r in rows if (f"{r['puzzle']} --{r['variant']}" in wanted if wanted else r["track"] == "core")]
    items = []  # (minutes, what, puzzle, row or None)
    for p in puzzles_in_order(chosen):
        mine = [r for r in chosen if r["puzzle"] == p]
        doc = link(mine[0]["doc"], page)
        items.append((INTRO_MINUTES, f"Slides: [{p}]({doc}) (deck `{deck[p]}.html`), its concepts and first diagram", p, None))
        for r in mine:
            hunt = " (bug hunt)" if r["bug_hunt"] else ""
            items.append((r["minutes"], f"`{p} --{r['variant']}`{hunt}", p, r))
    out = ["| time | minutes | what |", "| --- | --- | --- |"]
    t, end, fi, done, slack = clock(plan["start"]), clock(plan["end"]), 0, 0, 0
    covered = []
    while True:
        # The next fixed item, when its time has come or the next exercise would run into it.
        nxt = fixed[fi] if fi < len(fixed) else None
        item = items[done] if done < len(items) else None
        if nxt and (item is None or t + item[0] > nxt[0]):
            if nxt[0] > t:
                out.append(f"| {hhmm(t)} | {nxt[0] - t} | catch up, or a stretch exercise |")
                slack += nxt[0] - t
                t = nxt[0]
            out.append(f"| {hhmm(t)} | {nxt[1]} | {nxt[2]} |")
            t += nxt[1]
            fi += 1
            continue
        if item is None or nxt is None:
            break
        out.append(f"| {hhmm(t)} | {item[0]} | {item[1]} |")
        t += item[0]
        if item[2] not in covered:
            covered.append(item[2])
        done += 1
    if t < end:
        out.append(f"| {hhmm(t)} | | end |")
    if not notes:
        return "\n".join(out)
    reached = [i[3] for i in items[:done] if i[3]]
    left = [i for i in items[done:] if i[3]]
    # A puzzle whose introduction was given but whose core exercises did not all fit is partly covered.
    partly = [p for p in covered if any(r["puzzle"] == p and r["track"] == "core" and r not in reached for r in rows)]
    later = [p for p in puzzles_in_order(rows) if p not in covered]
    ex_min = sum(r["minutes"] for r in reached)
    text = [f"Exercise time in this agenda: {hours(ex_min)} ({len(reached)} exercises); "
            f"slack (catch-up rows): {hours(slack)}."]
    if left and wanted:
        text.append("Planned but not reached before the end: " + ", ".join(i[1] for i in left) + ".")
    elif left:
        text.append(f"Core exercises not reached: {len(left)}.")
    skip = [named[e] for e in plan.get("skip", [])]
    if skip:
        text.append("If the group is behind, skip first: " +
                    ", ".join(f"`{r['puzzle']} --{r['variant']}` ({r['minutes']} min)" for r in skip) +
                    f": {hours(sum(r['minutes'] for r in skip))} saved.")
    if partly:
        text.append("Partly covered (their remaining core exercises are homework): " + ", ".join(partly) + ".")
    if later:
        text.append("Not reached (self-study after the workshop): " + ", ".join(later) + ".")
    extra = [r for r in rows if r["puzzle"] in covered and r not in reached]
    if extra:
        text.append("For those who finish early (this agenda's stretch: the covered puzzles' other exercises): " +
                    ", ".join(f"`{r['puzzle']} --{r['variant']}` ({r['minutes']} min, {r['track']})" for r in extra) + ".")
    return "\n".join(out) + "\n\n" + "\n".join("- " + t for t in text)


def demo(puzzle, which="last"):
    """One puzzle's benchmark rows on the H100 (its first or last group of rows: a size, a filter
    length) with the same kernel on the 16-core CPU beside it."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from portability_report import key  # a row's name without its size, as that page matches them
    reports = {}
    for m in ("h100", "cpu16"):
        path = RESULTS / f"{puzzle}-{m}.json"
        reports[m] = json.loads(path.read_text()) if path.exists() else {"rows": []}
    cpu = {key(r): r for r in reports["cpu16"]["rows"]}
    gpu_rows = reports["h100"]["rows"]
    if not gpu_rows:
        return f"(no benchmarks/results/{puzzle}-h100.json yet)"
    groups = [r["group"] for r in gpu_rows if r.get("group")]
    chosen = (groups[0] if which == "first" else groups[-1]) if groups else ""  # sizes run smallest first
    out = ["| kernel | H100 GB/s | H100 % of copy | 16-core CPU GB/s | CPU % of copy |",
           "| --- | --- | --- | --- | --- |"]
    for r in gpu_rows:
        if r.get("group", "") not in (chosen, ""):  # rows of no group (the copies) belong to all
            continue
        c = cpu.get(key(r))
        cg = f"{c['gbps']:.1f}" if c else ""
        cp = f"{100 * c.get('fraction_of_copy', 0):.1f} %" if c else ""
        out.append(f"| {cell(r['name'])} | {r['gbps']:.1f} | {100 * r.get('fraction_of_copy', 0):.1f} % | {cg} | {cp} |")
    return "\n".join(out)


def render(name, opts, rows, page):
    if name == "count":
        return str(len(rows))
    if name == "puzzles":
        return str(len(puzzles_in_order(rows)))
    if name == "summary":
        return summary(rows)
    if name == "list":
        return list_transcript(rows, int(opts.get("solved", 0)), int(opts.get("pending", 0)))
    if name == "table":
        return course_table(rows, page)
    if name == "puzzle-table":
        return puzzle_table(rows, page)
    if name == "agenda":
        return agenda(rows, opts.get("kind", "day"), page, opts.get("notes", "yes") != "no")
    if name == "demo":
        return demo(opts["puzzle"], opts.get("group", "last"))
    raise ValueError(f"unknown block course:{name}")


def fill(text, rows, page):
    def sub(m):
        opts = dict(kv.split("=", 1) for kv in m.group(2).split())
        body = render(m.group(1), opts, rows, page)
        if m.group(3).startswith("\n"):  # a block: on lines of its own
            body = "\n" + body + "\n"
        return f"<!-- course:{m.group(1)}{m.group(2)} -->{body}<!-- course:end -->"
    return MARKER.sub(sub, text)


def pages():
    return sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kpuzzles", help="the kpuzzles to ask (default: build/openmp/framework/cli/kpuzzles)")
    ap.add_argument("--list-json", help="a saved `kpuzzles list --json` instead of running kpuzzles")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="exit 1 if a generated block is out of date")
    mode.add_argument("--write", action="store_true", help="rewrite the generated blocks")
    args = ap.parse_args()
    rows = exercises(load_course(args))
    stale = []
    for path in pages():
        text = path.read_text()
        if "<!-- course:" not in text:
            continue
        page = str(path.relative_to(ROOT / "docs")) if path.is_relative_to(ROOT / "docs") else "README.md"
        new = fill(text, rows, page)
        if new != text:
            stale.append(path.relative_to(ROOT))
            if args.write:
                path.write_text(new)
    verb = "rewrote" if args.write else "out of date"
    for s in stale:
        print(f"{verb}: {s}")
    if args.check and stale:
        print("regenerate: python3 cmake/kpz_course_docs.py --write (after building kpuzzles), and commit")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
