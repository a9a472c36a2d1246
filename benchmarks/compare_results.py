#!/usr/bin/env python3
"""Compares two `kpuzzles bench --json` files row by row (matched by name and group).

    compare_results.py OLD.json NEW.json [--tolerance 0.05]
    compare_results.py --self-test

Prints every row of OLD with its GB/s in both and the change, flags rows of NEW that are more
than the tolerance slower (by GB/s; the copies are printed too, to tell a slower machine from a
slower kernel), and exits 1 when a puzzle or library row regressed. Rows only in one file are
listed as such. A row is its name and its group: a bench may give two groups rows of one name
(butterfly's vector rows at W=32 and at W=4).
"""
import argparse
import json
import sys


def rows(path):
    with open(path) as f:
        return {(r["name"], r.get("group", "")): r for r in json.load(f)["rows"]}


def label(key, keys):
    name, group = key
    shared = sum(1 for k in keys if k[0] == name) > 1
    return (f"{name} [{group}]" if shared else name)[:64]


def compare(old, new, tolerance):
    """The table's lines and the keys of the puzzle and library rows that got slower."""
    lines, regressed = [f"{'row':<64} {'old GB/s':>9} {'new GB/s':>9} {'change':>8}"], []
    keys = list(old) + [k for k in new if k not in old]
    for key, o in old.items():
        n = new.get(key)
        if not n:
            lines.append(f"{label(key, keys):<64} {o['gbps']:>9.1f} {'(gone)':>9}")
            continue
        change = n["gbps"] / o["gbps"] - 1 if o["gbps"] else 0.0
        flag = ""
        if change < -tolerance and o["kind"] in ("puzzle", "library"):
            flag = "  SLOWER"
            regressed.append(key)
        lines.append(f"{label(key, keys):<64} {o['gbps']:>9.1f} {n['gbps']:>9.1f} {100 * change:>7.1f}%{flag}")
    for key in new:
        if key not in old:
            lines.append(f"{label(key, keys):<64} {'(new)':>9} {new[key]['gbps']:>9.1f}")
    return lines, regressed


def self_test():
    """Two rows share a name in different groups: each is compared with its own old row."""
    import os
    import tempfile

    def bench(*rs):
        fd, path = tempfile.mkstemp(suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump({"rows": [{"name": n, "group": g, "gbps": v, "kind": k} for n, g, v, k in rs]}, f)
        return path
    old = bench(("copy", "", 100, "copy"), ("vector", "W=32", 50, "puzzle"), ("vector", "W=4", 40, "puzzle"),
                ("cub", "", 80, "library"))
    new = bench(("copy", "", 50, "copy"), ("vector", "W=32", 50, "puzzle"), ("vector", "W=4", 30, "puzzle"),
                ("cub", "", 70, "library"), ("extra", "", 1, "puzzle"))
    lines, regressed = compare(rows(old), rows(new), 0.02)
    os.remove(old)
    os.remove(new)
    ok = (regressed == [("vector", "W=4"), ("cub", "")] and any(l.startswith("vector [W=4]") for l in lines)
          and any(l.startswith("extra") and "(new)" in l for l in lines))
    print("compare_results.py --self-test: " + ("ok" if ok else "FAILED:\n" + "\n".join(lines)), file=sys.stderr)
    return 0 if ok else 1


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--tolerance", type=float, default=0.05, help="allowed slow-down (default 0.05 = 5 %%)")
    a = ap.parse_args()
    lines, regressed = compare(rows(a.old), rows(a.new), a.tolerance)
    print("\n".join(lines))
    if regressed:
        print(f"{len(regressed)} puzzle or library row(s) more than {100 * a.tolerance:.0f} % slower")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
