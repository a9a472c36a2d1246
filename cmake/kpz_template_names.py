#!/usr/bin/env python3
"""Counts the framework names a new puzzle meets: the types, functions and macros declared in
framework/include/kpz/ that the scaffold's C++ files (cmake/puzzle-template/) use, comments and
strings left out. Fields of a declared struct (`.tile`, `.checks`) are not counted, members
called through a name (`req.params.get`) are not either, nor the names a macro declares
(`kernels<Space>(impl)`, from KPZ_KERNELS): count those by hand.

  cmake/kpz_template_names.py [--list]

prints the count (and with --list the names, one a line). Exit 0; it measures, it does not judge.
"""
import argparse
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "cmake" / "puzzle-template"
HEADERS = ROOT / "framework" / "include" / "kpz"
DECLARATIONS = [
    re.compile(r"^(?:struct|class|enum class|enum)\s+(\w+)\s*[{:;]", re.M),
    re.compile(r"^using\s+(\w+)\s*=", re.M),
    re.compile(r"^#define\s+(\w+)", re.M),
    # A function at namespace scope (no indentation): its return type, then its name and '('.
    re.compile(r"^(?:inline |constexpr |static )*(?!\s)[\w:<>,*& ]*?[\w>*&]\s+[*&]?(\w+)\(", re.M),
]


def strip(text):
    text = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def declared():
    names = set()
    # kpz/trace/ holds the trace build's stand-ins for Kokkos' own names (parallel_for, ...).
    for path in (p for p in HEADERS.rglob("*.hpp") if "trace" not in p.relative_to(HEADERS).parts[:-1]):
        text = strip(path.read_text())
        for pattern in DECLARATIONS:
            names.update(n for n in pattern.findall(text) if not n.endswith("_") and n != "operator")
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", action="store_true", help="print the names, one a line")
    args = ap.parse_args()
    used, own = set(), set()
    for path in sorted(TEMPLATE.glob("*.[ch]pp")):
        text = strip(path.read_text())
        # The template's own variables and parameters (`LaunchShape launch = ...`), and names it
        # takes from std:: or Kokkos::, are not the framework's.
        own.update(name for before, name in re.findall(r"(\w+|[>&*])\s+[&*]?(\w+)\s*(?:=[^=]|[;,)({])", text)
                   if before not in ("return", "else", "case", "throw"))
        own.update(re.findall(r"\b(?:std|Kokkos)::(\w+)", text))
        # `.field = ` designators and `x.member` accesses are not names a contributor looks up.
        used.update(re.findall(r"\b[A-Za-z_]\w*\b", re.sub(r"\.\s*\w+", "", text)))
    names = sorted((used - own) & declared())
    print(f"{len(names)} framework names in cmake/puzzle-template/")
    if args.list:
        print("\n".join(names))


if __name__ == "__main__":
    main()
