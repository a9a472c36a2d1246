#!/usr/bin/env python3
"""Compares two `kpuzzles bench --json` files row by row (matched by name).

    compare_results.py OLD.json NEW.json [--tolerance 0.05]

Prints every row of OLD with its GB/s in both and the change, flags rows of NEW that are more
than the tolerance slower (by GB/s; the copies are printed too, to tell a slower machine from a
slower kernel), and exits 1 when a puzzle or library row regressed. Rows only in one file are
listed as such.
"""
import argparse
import json
import sys


def rows(path):
    with open(path) as f:
        return {r["name"]: r for r in json.load(f)["rows"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--tolerance", type=float, default=0.05, help="allowed slow-down (default 0.05 = 5 %%)")
    a = ap.parse_args()
    old, new = rows(a.old), rows(a.new)
    regressed = []
    print(f"{'row':<64} {'old GB/s':>9} {'new GB/s':>9} {'change':>8}")
    for name, o in old.items():
        n = new.get(name)
        if not n:
            print(f"{name[:64]:<64} {o['gbps']:>9.1f} {'(gone)':>9}")
            continue
        change = n["gbps"] / o["gbps"] - 1 if o["gbps"] else 0.0
        flag = ""
        if change < -a.tolerance and o["kind"] == "puzzle":
            flag = "  SLOWER"
            regressed.append(name)
        print(f"{name[:64]:<64} {o['gbps']:>9.1f} {n['gbps']:>9.1f} {100 * change:>7.1f}%{flag}")
    for name in new:
        if name not in old:
            print(f"{name[:64]:<64} {'(new)':>9} {new[name]['gbps']:>9.1f}")
    if regressed:
        print(f"{len(regressed)} puzzle row(s) more than {100 * a.tolerance:.0f} % slower")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
