"""The mutants of one reference source: five kinds of one-token bugs a learner could write.

Every search runs on a masked copy of the source (comments and string literals blanked, same
offsets), so a TeamThreadRange in a comment or a KPZ-TODO is never mutated; the edits are then
spliced into the real text at those offsets.
"""
import re

KINDS = ("barrier", "atomic", "scratch", "bounds", "single")
# The finding each kind must produce when the race check is asked to prove it (--expect).
EXPECTED_FINDING = {"barrier": "race", "atomic": "race", "scratch": "scratch-request", "bounds": "out-of-bounds",
                    "single": "race"}


def mask(src):
    """src with every comment and string or character literal replaced by spaces (newlines kept)."""
    out, i, n = list(src), 0, len(src)

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c, two = src[i], src[i:i + 2]
        if two == "//":
            j = src.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif two == "/*":
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            blank(i + 1, j)  # the quotes stay: the literal is still one operand
            i = j + 1
        else:
            i += 1
    return "".join(out)


def close_paren(m, open_at):
    """Offset of the ')' matching the '(' at open_at in masked text m."""
    depth = 0
    for k in range(open_at, len(m)):
        if m[k] in "([{":
            depth += 1
        elif m[k] in ")]}":
            depth -= 1
            if depth == 0:
                return k
    raise ValueError(f"unbalanced parenthesis at offset {open_at}")


def split_args(m, open_at, close_at):
    """[(start, end)] of the top-level arguments between the parentheses (stripped)."""
    spans, depth, start = [], 0, open_at + 1
    for k in range(open_at + 1, close_at):
        if m[k] in "([{":
            depth += 1
        elif m[k] in ")]}":
            depth -= 1
        elif m[k] == "," and depth == 0:
            spans.append((start, k))
            start = k + 1
    spans.append((start, close_at))
    out = []
    for a, b in spans:
        while a < b and m[a].isspace():
            a += 1
        while b > a and m[b - 1].isspace():
            b -= 1
        out.append((a, b))
    return out


def skip_template(m, k):
    """After an optional <...> at k (nested), the offset of the next non-space character."""
    while k < len(m) and m[k].isspace():
        k += 1
    if k < len(m) and m[k] == "<":
        depth = 0
        while k < len(m):
            depth += {"<": 1, ">": -1}.get(m[k], 0)
            k += 1
            if depth == 0:
                break
    while k < len(m) and m[k].isspace():
        k += 1
    return k


def enclosing_expression(m, a, b):
    """The argument or initializer around m[a:b]: out to the nearest ',', '=', ';' or bracket at
    depth 0, so that halving it halves the whole value passed (2 * f() halves, not f() alone)."""
    depth, s = 0, a
    while s > 0:
        ch = m[s - 1]
        if ch in ")]}":
            depth += 1
        elif ch in "([{":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (ch in ",;" or (ch == "=" and m[s - 2] not in "=!<>")):
            break
        s -= 1
    depth, e = 0, b
    while e < len(m):
        ch = m[e]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and ch in ",;":
            break
        e += 1
    while m[s].isspace():
        s += 1
    while m[e - 1].isspace():
        e -= 1
    return s, e, (m[s - 1] if s > 0 else "")


def _barriers(m):
    for x in re.finditer(r"\b\w+\s*\.\s*team_barrier\s*\(\s*\)\s*;", m):
        prev = m[:x.start()].rstrip()
        # The body of an if/else/loop keeps an empty block, so the statement after it stays outside.
        body = prev.endswith(")") or re.search(r"\b(else|do)$", prev)
        yield x.start(), x.start(), x.end(), ("{}" if body else ""), None


def _atomics(src, m):
    pat = r"\b(?:Kokkos::)?atomic_(add|fetch_add|add_fetch|inc|increment|fetch_inc|inc_fetch)\s*\("
    for x in re.finditer(pat, m):
        op, open_at = x.group(1), x.end() - 1
        close_at = close_paren(m, open_at)
        args = split_args(m, open_at, close_at)
        target = src[args[0][0]:args[0][1]]
        target = target[1:].strip() if target.startswith("&") else f"*({target})"
        value = src[args[1][0]:args[1][1]] if "add" in op else "1"
        if "fetch" in op or op == "inc_fetch":
            before = m[:x.start()].rstrip()
            after = m[close_at + 1:].lstrip()
            if not (after.startswith(";") and (not before or before[-1] in ";{})")):
                yield x.start(), x.start(), close_at + 1, None, f"atomic_{op} whose value is used: skipped"
                continue
        yield x.start(), x.start(), close_at + 1, f"{target} += {value}", None


def _scratch(src, m):
    requested = []  # PerTeam/PerThread(size) spans: a *_scratch_bytes inside them is covered there
    for x in re.finditer(r"\bPer(Team|Thread)\s*\(", m):
        open_at = x.end() - 1
        close_at = close_paren(m, open_at)
        if re.search(r"\bsingle\s*\(\s*(Kokkos::)?$", m[:x.start()]):
            continue  # Kokkos::single(PerTeam(team), ...): a member selector, not a size
        requested.append((open_at, close_at))
        inner = src[open_at + 1:close_at]
        yield x.start(), open_at + 1, close_at, f"({inner}) / 2", None
    for x in re.finditer(r"\b\w*scratch_bytes\b", m):
        if any(a < x.start() < b for a, b in requested):
            continue
        k = skip_template(m, x.end())
        if k >= len(m) or m[k] != "(":
            continue  # a declaration's name, not a call
        if re.search(r"\b(auto|int|size_t|void|inline)\s*$", m[:x.start()]):
            continue  # the helper's definition
        s, e, _ = enclosing_expression(m, x.start(), close_paren(m, k) + 1)
        yield x.start(), s, e, f"({src[s:e]}) / 2", None


def _bounds(src, m):
    for x in re.finditer(r"\b(TeamThreadRange|ThreadVectorRange|TeamVectorRange|RangePolicy)\b", m):
        k = skip_template(m, x.end())
        if x.group(1) == "RangePolicy" and re.match(r"[A-Za-z_]\w*", m[k:]):
            k = skip_template(m, k + re.match(r"[A-Za-z_]\w*", m[k:]).end())  # RangePolicy<S> name(...)
        if k >= len(m) or m[k] not in "({":
            continue
        args = split_args(m, k, close_paren(m, k))
        if len(args) < 2:
            continue  # RangePolicy(n) or a bare type: no bound of ours to move
        a, b = args[-1]
        yield x.start(), a, b, f"({src[a:b]}) + 1", None


def _singles(src, m):
    # Kokkos::single(PerTeam / PerThread, body) -> body run by every member / lane: the write it
    # guarded becomes a race between members or lanes, even where they write the same value.
    for x in re.finditer(r"\b(?:Kokkos::)?single\s*\(", m):
        open_at = x.end() - 1
        close_at = close_paren(m, open_at)
        args = split_args(m, open_at, close_at)
        if len(args) != 2:
            yield x.start(), x.start(), close_at + 1, None, "single that broadcasts a value: skipped"
            continue
        a, b = args[1]
        yield x.start(), x.start(), close_at + 1, f"({src[a:b]})()", None


def line_of(src, at):
    return src.count("\n", 0, at) + 1


def mutants(path, rel):
    """Every mutant of the file at path (rel: its name in ids), and the skipped sites, as dicts."""
    src = open(path, encoding="utf-8").read()
    m = mask(src)
    found, skipped, per_line = [], [], {}
    gens = {"barrier": _barriers(m), "atomic": _atomics(src, m), "scratch": _scratch(src, m),
            "bounds": _bounds(src, m), "single": _singles(src, m)}
    for kind in KINDS:
        for site, a, b, text, why in gens[kind]:
            line = line_of(src, site)
            first, last = line, line_of(src, max(b - 1, a))
            old_lines = src.splitlines()[first - 1:last]
            if why:
                skipped.append({"file": rel, "line": line, "kind": kind, "before": old_lines[0].strip(), "why": why})
                continue
            new_src = src[:a] + text + src[b:]
            new_last = last + text.count("\n") - src[a:b].count("\n")
            new_lines = new_src.splitlines()[first - 1:new_last]
            idx = per_line.get((line, kind), 0)
            per_line[(line, kind)] = idx + 1
            # context: the mutated lines and the three above them, stripped, which equivalent.json
            # entries match (a bare `team.team_barrier();` names no site on its own).
            context = "\n".join(x.strip() for x in src.splitlines()[max(first - 4, 0):last])
            found.append({"id": f"{rel}:{line}:{kind}:{idx}", "file": rel, "line": line, "kind": kind, "index": idx,
                          "before": "\n".join(old_lines), "after": "\n".join(new_lines), "context": context,
                          "source": new_src})
    found.sort(key=lambda x: (x["line"], KINDS.index(x["kind"]), x["index"]))
    return found, skipped
