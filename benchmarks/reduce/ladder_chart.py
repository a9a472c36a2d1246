#!/usr/bin/env python3
"""Draws the reduction ladder of a `kpuzzles bench reduce --json` file as an SVG bar chart.

    python3 benchmarks/reduce/ladder_chart.py benchmarks/results/reduce-h100.json docs/puzzles/reduce-ladder-h100.svg [NOTE]

One panel per input size: a bar per kernel (GB/s, the value and the kernel time printed next to
it), in the order of the table, and a dashed line at the device-to-device copy of the same size.
NOTE (optional) is added to every panel's title, e.g. "H100" or "OMP_NUM_THREADS=1".
Plain SVG, no dependencies.
"""
import json
import sys
from html import escape

COLORS = {"puzzle": "#4C78A8", "builtin": "#F58518", "library": "#54A24B"}
HIGHLIGHT = {"--persistent": "#1F3B73", "--team-reduce": "#2E7D32", "--recursive": "#9D9DA3"}

BAR_H, GAP, LABEL_W, PLOT_W, RIGHT_W = 18, 6, 250, 520, 150


def rows_by_group(report):
    groups = {}
    for row in report["rows"]:
        if not row["group"].startswith("persistent sweep"):  # `--sweep 1` tuning rows: a table, not the ladder
            groups.setdefault(row["group"], []).append(row)
    return groups


def color(row):
    for prefix, c in HIGHLIGHT.items():
        if row["name"].startswith(prefix + ","):
            return c
    return COLORS.get(row["kind"], "#888888")


def label(row):
    return row["name"].split(",")[0]


def gbps(v):
    return f"{v:.0f}" if v >= 100 else f"{v:.1f}" if v >= 1 else f"{v:.2f}"


def panel(out, y, group, rows, space, scale_max, note):
    copy = next((r for r in rows if r["kind"] == "copy"), None)
    bars = [r for r in rows if r["kind"] != "copy"]
    what = bars[0]["name"].split(", ")[-1] if bars else group
    title = f"sum of {what} on {space}" + (f" ({note})" if note else "")
    out.append(f'<text x="10" y="{y + 14}" font-size="14" font-weight="bold">{escape(title)}</text>')
    y += 26
    top = y
    for r in bars:
        w = PLOT_W * r["gbps"] / scale_max
        out.append(f'<text x="{LABEL_W - 8}" y="{y + BAR_H - 5}" font-size="12" text-anchor="end">{escape(label(r))}</text>')
        out.append(f'<rect x="{LABEL_W}" y="{y}" width="{w:.1f}" height="{BAR_H}" fill="{color(r)}"/>')
        text = f"{gbps(r['gbps'])} GB/s, {r['median_ms']:.3f} ms"
        extra = r.get("extra", {})
        if "cumulative" in extra:
            text += f", {extra['cumulative']:.2f}x"
        out.append(f'<text x="{LABEL_W + w + 6:.1f}" y="{y + BAR_H - 5}" font-size="11">{escape(text)}</text>')
        y += BAR_H + GAP
    if copy:
        x = LABEL_W + PLOT_W * copy["gbps"] / scale_max
        out.append(f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{y}" stroke="#D62728" stroke-dasharray="4,3"/>')
        out.append(f'<text x="{x:.1f}" y="{y + 12}" font-size="11" fill="#D62728" text-anchor="middle">'
                   f'copy {gbps(copy["gbps"])} GB/s</text>')
    return y + 26


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: ladder_chart.py BENCH.json OUT.svg [NOTE]")
    note = sys.argv[3] if len(sys.argv) == 4 else ""
    with open(sys.argv[1]) as f:
        report = json.load(f)
    groups = rows_by_group(report)
    scale_max = max(r["gbps"] for r in report["rows"]) * 1.02
    body = []
    y = 10
    for group, rows in groups.items():
        y = panel(body, y, group, rows, report["space"], scale_max, note)
    legend = [("ladder (the book)", COLORS["puzzle"]), ("persistent (beyond the book)", HIGHLIGHT["--persistent"]),
              ("team-reduce (Kokkos' levels)", HIGHLIGHT["--team-reduce"]), ("recursive", HIGHLIGHT["--recursive"]), ("Kokkos parallel_reduce", COLORS["builtin"]),
              ("library (CUB)", COLORS["library"])]
    x = 10
    for text, c in legend:
        body.append(f'<rect x="{x}" y="{y}" width="12" height="12" fill="{c}"/>')
        body.append(f'<text x="{x + 16}" y="{y + 10}" font-size="11">{escape(text)}</text>')
        x += 30 + 7 * len(text)
    y += 24
    width = LABEL_W + PLOT_W + RIGHT_W
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y}" viewBox="0 0 {width} {y}" '
           f'font-family="sans-serif">', f'<rect width="{width}" height="{y}" fill="white"/>'] + body + ["</svg>"]
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main()
