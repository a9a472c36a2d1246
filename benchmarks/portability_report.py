#!/usr/bin/env python3
"""One source, two machines: the table and chart of docs/one-source-two-machines.md.

Reads benchmarks/results/<puzzle>-cpu16.json and <puzzle>-h100.json (`kpuzzles bench --json`
of the 16-core CPU and the H100) and barrier-cpu16.json / barrier-h100.json (kpz_barrier_cost),
and writes, between the page's `<!-- generated:... -->` markers, a table per machine of every
row marked `portable` (the puzzle's portable exercise variant) with its % of the same-run copy and
its ratio to the same-run baseline, and docs/img/one-source-two-machines.svg, a bar chart of the
same % of copy. `--check` only compares (CI): exit 1 when the page or chart is out of date.
"""
import argparse
import html
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
PAGE = ROOT / "docs" / "one-source-two-machines.md"
SVG = ROOT / "docs" / "img" / "one-source-two-machines.svg"
MACHINES = [("cpu16", "16-core CPU (OpenMP)"), ("h100", "H100 (CUDA)")]


def load(name):
    path = RESULTS / name
    return json.loads(path.read_text()) if path.exists() else None


def puzzles():
    """Every puzzle with a portable row in its <puzzle>-<machine>.json (the file's own "puzzle"
    names it): a new puzzle joins the page with its results, no list to edit."""
    names = set()
    for m, _ in MACHINES:
        for path in RESULTS.glob(f"*-{m}.json"):
            report = json.loads(path.read_text())
            if path.name == f"{report.get('puzzle')}-{m}.json" and any(r.get("portable") for r in report["rows"]):
                names.add(report["puzzle"])
    return sorted(names)


def portable_rows(puzzle, machine):
    report = load(f"{puzzle}-{machine}.json")
    if not report:
        return []
    return [r for r in report["rows"] if r.get("portable")]


def short(name):
    return re.sub(r"\s*\([^)]*\)", "", name).strip()


def key(row):
    """A row's name without its size: machines run different N (2^26 on the CPU, 2^28 on the H100)."""
    name = re.sub(r",?\s*2\^\d+ \w+$", "", short(row["name"]))
    group = row.get("group", "")
    return name if not group or group in name or re.fullmatch(r"(N=)?2\^\d+", group) else f"{name}, {group}"


def collect():
    """[(puzzle, label, {machine: row})]: rows matched across machines by name (sizes dropped);
    where one machine ran several sizes, the largest (the last row) counts."""
    out = []
    for p in puzzles():
        keys, cells = [], {}
        for m, _ in MACHINES:
            for r in portable_rows(p, m):
                k = key(r)
                if k not in keys:
                    keys.append(k)
                cells.setdefault(k, {})[m] = r
        out.extend((p, k, cells[k]) for k in keys)
    return out


def cell(r):
    if not r:
        return "not measured", "", ""
    pct = f"{100 * r.get('fraction_of_copy', 0):.1f} %"
    ratio = f"{r['ratio_to_baseline']:.2f}x {short(r.get('baseline', ''))}" if "ratio_to_baseline" in r else ""
    return f"{r['gbps']:.1f}", pct, ratio


def table(rows):
    lines = ["| puzzle | portable kernel | CPU GB/s | CPU % of copy | CPU vs baseline | H100 GB/s | H100 % of copy | H100 vs baseline |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for p, label, cells in rows:
        c = cell(cells.get("cpu16"))
        g = cell(cells.get("h100"))
        lines.append(f"| {p} | {label} | {c[0]} | {c[1]} | {c[2]} | {g[0]} | {g[1]} | {g[2]} |")
    return "\n".join(lines)


def barrier_table():
    per = {}
    for m, _ in MACHINES:
        b = load(f"barrier-{m}.json")
        for space in (b or {}).get("barrier_cost", []):
            if space["space"] != "serial":
                for r in space["rows"]:
                    per.setdefault(r["team_size"], {})[m] = r["ns_per_barrier"]
    if not per:
        return "(not measured yet: run `benchmarks/run_portability.sh OUT barrier`)"
    head = "| team size | " + " | ".join(f"{t}: ns per `team_barrier`" for _, t in MACHINES) + " |"
    lines = [head, "| --- |" + " --- |" * len(MACHINES)]
    for team in sorted(per):
        cells = [f"{per[team][m]:.0f}" if m in per[team] else "" for m, _ in MACHINES]
        lines.append(f"| {team} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def svg(rows):
    bar_h, gap, left, width = 11, 8, 330, 360
    height = 40 + len(rows) * (2 * bar_h + gap) + 30
    colors = {"cpu16": "#4477aa", "h100": "#76b900"}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {left + width + 70} {height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<text x="4" y="16" font-weight="bold">% of the same-run copy, portable exercise kernels (one source)</text>']
    y = 34
    for i, (m, title) in enumerate(MACHINES):
        out.append(f'<rect x="{left + i * 170}" y="{y - 10}" width="10" height="10" fill="{colors[m]}"/>'
                   f'<text x="{left + 14 + i * 170}" y="{y - 1}">{html.escape(title)}</text>')
    y += 10
    for p, label, cells in rows:
        out.append(f'<text x="{left - 6}" y="{y + bar_h + 3}" text-anchor="end">{html.escape(p + ": " + label)[:60]}</text>')
        for m, _ in MACHINES:
            r = cells.get(m)
            frac = min(1.2, r.get("fraction_of_copy", 0)) if r else 0
            w = frac / 1.2 * width
            out.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar_h - 1}" fill="{colors[m]}"/>')
            txt = f"{100 * r['fraction_of_copy']:.0f} %" if r else "n/a"
            out.append(f'<text x="{left + w + 3:.1f}" y="{y + bar_h - 2}">{txt}</text>')
            y += bar_h
        y += gap
    for pct in (0, 50, 100):
        x = left + pct / 120 * width
        out.append(f'<line x1="{x:.1f}" y1="40" x2="{x:.1f}" y2="{y}" stroke="#999" stroke-dasharray="2,3"/>'
                   f'<text x="{x:.1f}" y="{y + 12}" text-anchor="middle">{pct} %</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def render_page(text, rows):
    def put(marker, body, t):
        pat = re.compile(rf"(<!-- generated:{marker} -->\n).*?(\n<!-- generated:end -->)", re.S)
        if not pat.search(t):
            sys.exit(f"{PAGE}: no <!-- generated:{marker} --> ... <!-- generated:end --> block")
        return pat.sub(lambda mo: mo.group(1) + body + mo.group(2), t)
    text = put("table", table(rows), text)
    return put("barriers", barrier_table(), text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the page or chart is out of date")
    args = ap.parse_args()
    rows = collect()
    page = render_page(PAGE.read_text(), rows)
    chart = svg(rows)
    if args.check:
        stale = [str(p.relative_to(ROOT)) for p, want in ((PAGE, page), (SVG, chart))
                 if not p.exists() or p.read_text() != want]
        if stale:
            print("out of date: " + ", ".join(stale) + "; run python3 benchmarks/portability_report.py")
            return 1
        print("one-source-two-machines page and chart match benchmarks/results")
        return 0
    PAGE.write_text(page)
    SVG.parent.mkdir(parents=True, exist_ok=True)
    SVG.write_text(chart)
    return 0


if __name__ == "__main__":
    sys.exit(main())
