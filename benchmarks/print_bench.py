#!/usr/bin/env python3
"""Prints a `kpuzzles bench --json` file as the table `kpuzzles bench` shows."""
import json
import sys

for path in sys.argv[1:]:
    with open(path) as f:
        r = json.load(f)
    extras = []
    for row in r["rows"]:
        for name in row.get("extra", {}):
            if name not in extras:
                extras.append(name)
    print(f"bench {r['puzzle']} on {r['space']} {json.dumps(r['config'])}")
    print(f"{'kernel':<52} {'median ms':>10} {'GB/s':>8} {'% copy':>7} {'vs base':>8}"
          + "".join(f" {name + ' x':>10}" for name in extras))
    for row in r["rows"]:
        ratio = f"{row['ratio_to_baseline']:.2f}x" if "ratio_to_baseline" in row and row["kind"] != "copy" else ""
        cells = "".join(f" {format(row['extra'][n], '.2f') + 'x' if n in row.get('extra', {}) else '':>10}"
                        for n in extras)
        print(f"{row['name']:<52} {row['median_ms']:>10.4f} {row['gbps']:>8.1f} "
              f"{100 * row.get('fraction_of_copy', 0):>6.1f}% {ratio:>8}" + cells)
    for n in r.get("notes", []):
        print(n)
