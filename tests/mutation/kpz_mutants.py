#!/usr/bin/env python3
"""Mutation harness: does a PASS mean correct? Each mutant is one planted bug in a reference
(a barrier removed, an atomic made plain, a scratch request halved, a loop bound one past, a
Kokkos::single dropped so that every member or lane writes), judged exactly as a learner's code
is: written into reference/ in place (the build tree compiles that tree), built, race-checked by
the tracer (kpz-verify-<puzzle>), then, if the race check finds nothing, run through `kpuzzles
check --reference` on OpenMP. Every mutant must be killed on every run, unless
tests/mutation/equivalent.json says why it cannot be (an equivalent mutant).

exit codes: 0 every mutant killed or listed equivalent; 1 a survivor, a stale equivalent, an
unmet --expect, a race (barrier, atomic, single) that only the real cases caught where the
puzzle has a race check (a kill by timing), or a reference that fails unmutated; 2 bad usage,
or reference/ has edits.
"""
import argparse, fcntl, hashlib, json, os, signal, subprocess, sys, time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mutators  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
LOCK = "/tmp/kpz-openmp.lock"  # every engineer's builds of the shared tree take this lock
RUN_ENV = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}
RUN_ENV["OMP_PROC_BIND"] = "false"  # OpenMP's default thread count, threads unbound
VERIFY_TIMEOUT = 120  # a traced configuration runs well under a second: this long is a hang
COLUMNS = ("mutants", "race-check", "real-check", "equivalent", "survived")
RACE_KINDS = ("barrier", "atomic", "single")  # mutants that plant a race


class Interrupted(Exception):
    pass


def on_signal(signum, _frame):
    raise Interrupted(signal.Signals(signum).name)


def die(message, code=2):
    print(f"kpz_mutants: {message}", file=sys.stderr)
    sys.exit(code)


def run(argv, timeout, env=RUN_ENV):
    """(exit code or -signal, stdout, stderr, timed out). The child gets a process group of its
    own, killed whole on a timeout or an interrupt: no build outlives the mutant it compiles."""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                         start_new_session=True, cwd=ROOT)
    try:
        out, err = p.communicate(timeout=timeout)
        return p.returncode, out, err, False
    except BaseException as e:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        if isinstance(e, subprocess.TimeoutExpired):
            return p.returncode, out, err, True
        raise


def restore(path, original):
    """Puts the original bytes back, SIGINT and SIGTERM held off until the hash is checked."""
    handlers = {s: signal.signal(s, signal.SIG_IGN) for s in (signal.SIGINT, signal.SIGTERM)}
    path.write_bytes(original)
    if hashlib.sha256(path.read_bytes()).digest() != hashlib.sha256(original).digest():
        print(f"FATAL: {path} could not be restored: git checkout -- {path}", file=sys.stderr)
        os._exit(3)
    for s, h in handlers.items():
        signal.signal(s, h)


class Tree:
    """The build tree; its lock is held while a mutant is in reference/, so that another
    engineer's build of this tree (through the same lock) waits instead of compiling a mutant."""

    def __init__(self, build):
        self.build, self.kpuzzles, self.fd = build, build / "framework/cli/kpuzzles", None

    def verifier(self, puzzle):
        path = self.build / "verify" / f"kpz-verify-{puzzle}"
        return path if path.exists() else None

    def lock(self):
        self.fd = os.open(LOCK, os.O_RDONLY | os.O_CREAT, 0o666)
        fcntl.flock(self.fd, fcntl.LOCK_EX)

    def unlock(self):
        if self.fd is not None:
            os.close(self.fd)  # closing releases the flock
            self.fd = None

    def compile(self, target):
        """'' when the target built, else the end of its log. Outside lock(): through flock(1)."""
        argv = ["cmake", "--build", str(self.build), "--target", target]
        rc, out, err, _ = run(argv if self.fd is not None else ["flock", LOCK] + argv, 1800, os.environ)
        return "" if rc == 0 else "\n".join((out + err).splitlines()[-15:])


def race_check(tree, puzzle, variants):
    """{variant: finding kinds} of the variants with findings, {variant: why} of those not judged."""
    found, unjudged = {}, {}
    for v in variants:
        rc, out, _, hung = run([str(tree.verifier(puzzle)), v, "--reference"], VERIFY_TIMEOUT)
        if hung or rc < 0:  # as kpuzzles check counts them: a bug of the code under test
            found[v] = ["hang" if hung else f"crash ({signal.Signals(-rc).name})"]
            continue
        try:
            j = json.loads(out.strip().splitlines()[-1])
        except (ValueError, IndexError):
            unjudged[v] = f"the verifier printed no verdict (exit {rc})"
            continue
        if not j.get("judged"):
            unjudged[v] = j.get("reason", "")
        elif j.get("findings"):
            found[v] = sorted({f["kind"] for f in j["findings"]})
    return found, unjudged


def real_check(tree, puzzle, nvariants):
    """One `kpuzzles check <puzzle> --reference --json`: (kinds, how); kinds is empty on a pass,
    how names each failing variant and what failed (race check kinds, wrong-result, crash)."""
    rc, out, err, hung = run([str(tree.kpuzzles), "check", puzzle, "--reference", "--json"], 60 * (nvariants + 2))
    if hung or rc == 124:
        return {"timeout"}, "timeout" + (" (the harness stopped it)" if hung else " (kpuzzles' time limit)")
    if rc == 0:
        return set(), "pass"
    if rc != 1:  # a signal, or an error of the program: the run died before its report
        what = signal.Signals(-rc).name if rc < 0 else f"exit {rc}"
        return {"crash"}, f"crash ({what}): {(err.strip().splitlines() or [''])[-1][:120]}"
    try:
        exercises = json.loads(out)["exercises"]
    except (ValueError, KeyError):
        return {"crash"}, "crash (exit 1 without a report)"
    kinds, how = set(), []
    for e in (e for e in exercises if not e["pass"]):
        race = e.get("race_check", {})
        if race.get("state") == "bug" and race.get("findings"):
            ks = sorted({f["kind"] for f in race["findings"]})
            what = "race check: " + ",".join(ks)
        else:
            bad = next((c for c in e["cases"] if not c.get("pass")), {})
            ks = ["cannot-run" if "usage_error" in bad else "wrong-result"]
            what = f"{ks[0]} ({bad.get('args', '')})"
        kinds.update(ks)
        how.append(f"{e['variant']}: {what}")
    return kinds or {"failed"}, "; ".join(how) or "failed"


def judge(tree, puzzle, variants, repeat):
    """The verdict on the mutant now in place: the race check first, then the real cases."""
    race_checked = bool(tree.verifier(puzzle))
    if race_checked:
        broken = tree.compile(f"kpz_verify_{puzzle}")
        if broken:
            return {"verdict": "no-build", "log": broken}
        found, _ = race_check(tree, puzzle, variants)
        if found:
            return {"verdict": "killed", "killed_by": "race-check", "variants": found,
                    "kinds": sorted({k for ks in found.values() for k in ks})}
    broken = tree.compile(f"kpz_module_{puzzle}")
    if broken:
        return {"verdict": "no-build", "log": broken}
    runs = [real_check(tree, puzzle, len(variants)) for _ in range(repeat)]
    fails = sum(bool(kinds) for kinds, _ in runs)
    return {"verdict": "killed" if fails == repeat else "flaky" if fails else "survived",
            "killed_by": "real-check" if fails == repeat else None, "race_checked": race_checked,
            "kinds": sorted(set().union(*(kinds for kinds, _ in runs))), "runs": [how for _, how in runs]}


def norm(text):
    return "\n".join(x.strip() for x in text.strip().splitlines())


def is_equivalent(m, e):
    if "id" in e:
        return e["id"] == m["id"]
    text = norm(e["line"])
    return (e.get("file") == m["file"] and e.get("kind") == m["kind"] and text in m["context"]
            and text.splitlines()[-1] in norm(m["before"]))


def load_equivalents(path):
    try:
        entries = json.loads(Path(path).read_text())
        if isinstance(entries, list) and all("reason" in e and ("id" in e or "line" in e) for e in entries):
            return entries
    except FileNotFoundError:
        return []
    except ValueError:
        pass
    die(f"{path}: not a JSON list of {{\"id\" (or \"file\", \"kind\", \"line\"), \"reason\"}} objects")


class Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2
        die(f"{message} (--help for usage)")


def parse(argv):
    p = Parser(prog="kpz_mutants.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default=str(ROOT / "build/openmp"), help="host build tree with the verifier")
    p.add_argument("--puzzle", action="append", help="only this puzzle (repeatable)")
    p.add_argument("--kinds", default=",".join(mutators.KINDS), help="comma list of: " + ", ".join(mutators.KINDS))
    p.add_argument("--pick", action="append", metavar="PUZZLE:KIND[:TEXT]",
                   help="only the first mutant of that puzzle and kind (whose line holds TEXT); repeatable")
    p.add_argument("--expect", action="store_true", help="each mutant must be killed with its kind's finding: " +
                   ", ".join(f"{k}->{v}" for k, v in mutators.EXPECTED_FINDING.items()))
    p.add_argument("--repeat", type=int, default=3, help="real-check runs that must all fail (default 3)")
    p.add_argument("--equivalent", default=str(ROOT / "tests/mutation/equivalent.json"),
                   help="the mutants expected to survive, each with its reason")
    p.add_argument("--json", metavar="FILE", help="write every mutant, its verdict and the summary here")
    p.add_argument("--list", action="store_true", help="print the mutants; build and run nothing")
    a = p.parse_args(argv)
    a.kinds = [k.strip() for k in a.kinds.split(",") if k.strip()]
    if not a.kinds or any(k not in mutators.KINDS for k in a.kinds):
        die(f"--kinds takes a comma list of {', '.join(mutators.KINDS)}")
    if a.repeat < 1:
        die("--repeat must be at least 1")
    known = sorted(d.name for d in (ROOT / "reference").iterdir() if d.is_dir())
    for puzzle in a.puzzle or []:
        if puzzle not in known:
            die(f"no puzzle '{puzzle}' (puzzles: {', '.join(known)})")
    a.puzzles, a.picks = a.puzzle or known, []
    for spec in a.pick or []:
        parts = spec.split(":", 2) + [""]
        if len(parts) < 3 or parts[0] not in known or parts[1] not in mutators.KINDS:
            die(f"--pick {spec}: expected PUZZLE:KIND[:TEXT] with a known puzzle and kind")
        a.picks.append(parts[:3])
    return a


def collect(a):
    """The mutants this run judges, and the sites skipped, in file and line order."""
    found, skipped = [], []
    for puzzle in sorted({p for p, _, _ in a.picks}) if a.picks else a.puzzles:
        for path in sorted([*(ROOT / "reference" / puzzle).glob("*.cpp"), *(ROOT / "reference" / puzzle).glob("*.hpp")]):
            ms, sk = mutators.mutants(path, str(path.relative_to(ROOT)))
            found += [m for m in ms if m["kind"] in a.kinds]
            skipped += [s for s in sk if s["kind"] in a.kinds]
    if not a.picks:
        return found, skipped
    chosen = []
    for puzzle, kind, text in a.picks:
        m = next((m for m in found if m["file"].split("/")[1] == puzzle and m["kind"] == kind and text in m["before"]),
                 None)
        chosen.append(m or die(f"--pick {puzzle}:{kind}:{text}: no such mutant"))
    return chosen, skipped


def judge_puzzle(tree, puzzle, ms, variants, a, entries, counter, results, failures, notes):
    # The baseline: unmutated, the reference builds, its race check is clean and its cases pass.
    broken = tree.compile(f"kpz_module_{puzzle}")
    found, unjudged = race_check(tree, puzzle, variants) if tree.verifier(puzzle) else (
        {}, dict.fromkeys(variants, "no verifier for this puzzle"))
    kinds, how = ({"no-build"}, broken) if broken else real_check(tree, puzzle, len(variants))
    if found or kinds:
        failures.append(f"{puzzle}: the unmutated reference fails ({found or how}): its mutants cannot be judged")
        return
    notes += [f"{puzzle} --{v}: not race-checked ({why[:90]})" for v, why in unjudged.items()]
    for m in ms:
        counter[0] += 1
        t0, path = time.time(), ROOT / m["file"]
        original = path.read_bytes()
        try:
            tree.lock()
            path.write_text(m["source"], encoding="utf-8")
            verdict = judge(tree, puzzle, variants, a.repeat)
        finally:
            restore(path, original)
            tree.unlock()
        time.sleep(0.1)  # lets a build of another engineer, waiting on the lock, take it
        e = next((e for e in entries if is_equivalent(m, e)), None)
        r = dict({k: m[k] for k in ("id", "file", "line", "kind", "before", "after")}, puzzle=puzzle, **verdict,
                 seconds=round(time.time() - t0, 1), equivalent=e["reason"] if e else None, gap=bool(e and e.get("gap")))
        results.append(r)
        said = {"killed": lambda: f"killed by the {r['killed_by']} ({','.join(r['kinds'])})",
                "survived": lambda: "SURVIVED",
                "flaky": lambda: f"FLAKY: killed in {sum(h != 'pass' for h in r.get('runs', []))} of {a.repeat} runs",
                "no-build": lambda: "DOES NOT BUILD"}[r["verdict"]]()
        if e:
            said = said + ": STALE, listed as equivalent" if r["verdict"] == "killed" else "equivalent (survives)"
        print(f"[{counter[0]}/{counter[1]}] {m['id']}  {m['kind']}  {said}  {r['seconds']} s", flush=True)
        if r["verdict"] == "no-build":  # why: a mutant changes an operator, so the build itself failed
            print("    " + r["log"].replace("\n", "\n    "), flush=True)
    # The tree ends as the source is: the last mutant's objects rebuilt from the original.
    broken = tree.compile(f"kpz_module_{puzzle}")
    if broken:
        failures.append(f"{puzzle}: the restored reference does not rebuild:\n{broken}")


def summarise(results):
    table, totals = {}, dict.fromkeys(COLUMNS, 0)
    for r in results:
        row = table.setdefault(r["puzzle"], {}).setdefault(r["kind"], dict.fromkeys(COLUMNS, 0))
        column = r["killed_by"] if r["verdict"] == "killed" else "equivalent" if r["equivalent"] else "survived"
        for c in ("mutants", column):
            row[c] += 1
            totals[c] += 1
    print(f"\n{'puzzle':<12} {'kind':<8} {'mutants':>7} {'race chk':>8} {'real chk':>8} {'equiv':>6} {'survived':>8}")
    rows = [(p, k, table[p][k]) for p in sorted(table) for k in mutators.KINDS if k in table[p]]
    for puzzle, kind, row in rows + [("all", "", totals)]:
        print(f"{puzzle:<12} {kind:<8} " + " ".join(f"{row[c]:>{w}}" for c, w in zip(COLUMNS, (7, 8, 8, 6, 8))))
    killed, judged = totals["race-check"] + totals["real-check"], totals["mutants"] - totals["equivalent"]
    score = killed / judged if judged else 1.0
    print(f"mutation score: {killed}/{judged} = {100 * score:.1f} % (killed / (mutants - equivalent))")
    gaps = [r for r in results if r["verdict"] != "killed" and r.get("gap")]
    if gaps:  # listed as expected survivors, but not equivalent: what the verdict still misses
        print(f"known gaps (equivalent.json, \"gap\": true: survivors the verdict still misses, not equivalent): "
              f"{len(gaps)}; counted as survivors, the score is {killed}/{judged + len(gaps)}")
    return table, totals, score


def in_scope(entry, a):
    """Whether an equivalent.json entry concerns this run's mutants (--puzzle, --kinds; not --pick)."""
    file, kind = entry["id"].split(":")[0::2][:2] if "id" in entry else (entry.get("file", ""), entry.get("kind"))
    return not a.picks and kind in a.kinds and file.split("/")[1:2] and file.split("/")[1] in a.puzzles


def main(argv):
    a = parse(argv)
    mutants, skipped = collect(a)
    entries = load_equivalents(a.equivalent)
    if a.list:
        for m in mutants:
            e = next((e for e in entries if is_equivalent(m, e)), None)
            print(m["id"] + (f"  [equivalent: {e['reason']}]" if e else ""))
            print(f"  - {m['before'].strip()}\n  + {m['after'].strip() or '(deleted)'}")
        for s in skipped:
            print(f"skipped {s['file']}:{s['line']}:{s['kind']}: {s['why']}: {s['before']}")
        print(f"{len(mutants)} mutants, {len(skipped)} sites skipped")
        return 0
    tree = Tree(Path(a.build).resolve())
    if not tree.kpuzzles.exists():
        die(f"{tree.kpuzzles} is not built (build the tree first: cmake --build {tree.build})")
    git = subprocess.run(["git", "status", "--porcelain", "reference/"], cwd=ROOT, capture_output=True, text=True)
    if git.returncode != 0 or git.stdout.strip():
        die("reference/ has uncommitted changes: refusing to mutate it in place" if git.returncode == 0
            else f"cannot tell whether reference/ has edits (git status: {git.stderr.strip()[:100]})")
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    rc, out, err, _ = run([str(tree.kpuzzles), "list", "--json"], 300)
    variants = {}
    for row in json.loads(out)["exercises"] if rc == 0 else []:
        variants.setdefault(row["puzzle"], []).append(row["variant"])
    started, results, failures, notes, counter = time.time(), [], [], [], [0, len(mutants)]
    for puzzle in dict.fromkeys(m["file"].split("/")[1] for m in mutants):
        if not variants.get(puzzle):
            failures.append(f"{puzzle}: `kpuzzles list --json` lists no variant of it (exit {rc}: {err.strip()[:200]})")
            continue
        ms = [m for m in mutants if m["file"].split("/")[1] == puzzle]
        judge_puzzle(tree, puzzle, ms, variants[puzzle], a, entries, counter, results, failures, notes)
    table, totals, score = summarise(results)
    survivors = [r for r in results if r["verdict"] != "killed" and not r["equivalent"]]
    stale = [r for r in results if r["verdict"] == "killed" and r["equivalent"]]
    unmatched = [e for e in entries if in_scope(e, a) and not any(is_equivalent(m, e) for m in mutants)]
    unmet = [f"{r['id']}: expected the finding {mutators.EXPECTED_FINDING[r['kind']]}, got {r['verdict']} "
             f"({','.join(r.get('kinds', []))})" for r in results if a.expect and (
                 r["verdict"] != "killed" or mutators.EXPECTED_FINDING[r["kind"]] not in r["kinds"])]
    # A missing barrier or a plain add where an atomic belongs is a race: where the puzzle has a race
    # check, a kill by the real cases alone is a kill by timing (another machine may pass the bug),
    # so the race check must name it (its trace configuration needs members that share data).
    by_timing = [f"{r['id']}: a {r['kind']} mutant killed only by the real cases, by timing; the race check "
                 f"must name it (a trace configuration whose members share data)" for r in results
                 if r["kind"] in RACE_KINDS and r.get("killed_by") == "real-check" and r.get("race_checked")]
    for r in survivors:
        print(f"\nSURVIVOR {r['id']} ({r['verdict']}): the verdict passes this bug\n  - {r['before'].strip()}\n"
              f"  + {r['after'].strip() or '(deleted)'}")
        print("".join(f"  run: {how}\n" for how in r.get("runs", [])) + r.get("log", ""), end="")
    for r in stale:
        print(f"\nSTALE EQUIVALENT {r['id']}: killed ({r['killed_by']}: {','.join(r['kinds'])}), yet "
              f"{a.equivalent} says: {r['equivalent']}")
    for line in [f"STALE EQUIVALENT entry, no such mutant: {json.dumps(e)}" for e in unmatched] + unmet + by_timing + \
            failures:
        print(f"\nFAILED: {line}")
    for line in notes:
        print(f"note: {line}")
    elapsed = round(time.time() - started, 1)
    print(f"{len(results)} mutants judged in {elapsed} s")
    if a.json:
        Path(a.json).write_text(json.dumps({
            "build": str(tree.build), "kinds": a.kinds, "repeat": a.repeat, "seconds": elapsed, "score": score,
            "summary": table, "totals": totals, "mutants": results, "skipped": skipped, "notes": notes,
            "survivors": [r["id"] for r in survivors], "stale_equivalents": [r["id"] for r in stale] + unmatched,
            "unmet_expectations": unmet, "killed_by_timing": by_timing, "failures": failures}, indent=1) + "\n")
    return 1 if survivors or stale or unmatched or unmet or by_timing or failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Interrupted as e:
        print(f"\nkpz_mutants: interrupted ({e}); reference/ is restored (the next build recompiles it)",
              file=sys.stderr)
        sys.exit(130 if str(e) == "SIGINT" else 143)
