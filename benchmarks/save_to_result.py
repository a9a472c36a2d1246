#!/usr/bin/env python3
"""Save-to-result time of the learner loop: `kpuzzles watch --json` on one exercise, the exercise
file saved N times (a comment line appended, as an editor's save changes the file), the seconds
from each save to its result read from watch's own `result` events (feedback_seconds). The file is
put back as it was at the end, also on Ctrl-C. Prints one line per save and the median.

usage: benchmarks/save_to_result.py BUILD_DIR PUZZLE VARIANT [--saves N]
  e.g. benchmarks/save_to_result.py build/openmp conv1d simple --saves 5
Run it on idle cores: another build in the background doubles the times.
"""
import json
import os
import signal
import statistics
import subprocess
import sys
import time


def main(argv):
    if len(argv) < 3 or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    build, puzzle, variant = argv[:3]
    saves = 5
    if len(argv) > 3:
        if argv[3] != "--saves" or len(argv) != 5 or not argv[4].isdigit() or int(argv[4]) < 1:
            print("save_to_result.py: unexpected arguments %s (allowed: --saves N, N >= 1)" % argv[3:], file=sys.stderr)
            return 2
        saves = int(argv[4])
    kpuzzles = os.path.join(build, "framework", "cli", "kpuzzles")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not os.path.isfile(kpuzzles):
        print("save_to_result.py: no %s (build it first)" % kpuzzles, file=sys.stderr)
        return 2
    # The file that holds the exercise's function, as `kpuzzles list --json` names it.
    listed = json.loads(subprocess.run([kpuzzles, "list", "--json"], capture_output=True, text=True).stdout)
    files = [e["file"] for e in listed["exercises"] if e["puzzle"] == puzzle and e["variant"] == variant]
    if not files or not files[0].endswith(".cpp"):
        print("save_to_result.py: no exercise %s --%s with a file of its own" % (puzzle, variant), file=sys.stderr)
        return 2
    source = os.path.join(root, files[0])
    original = open(source, "rb").read()
    env = dict(os.environ, OMP_PROC_BIND="false")
    watch = subprocess.Popen([kpuzzles, "watch", puzzle, "--variant", variant, "--json"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)

    def restore(*_):
        with open(source, "wb") as f:
            f.write(original)
        if watch.poll() is None:
            watch.terminate()
        sys.exit(1)

    signal.signal(signal.SIGINT, restore)
    signal.signal(signal.SIGTERM, restore)

    def next_event(kind, timeout=600):
        deadline = time.time() + timeout
        while time.time() < deadline:
            line = watch.stdout.readline()
            if not line:
                raise RuntimeError("watch ended before its %s event" % kind)
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("event") == kind:
                return event
        raise RuntimeError("no %s event within %d s" % (kind, timeout))

    times = []
    try:
        next_event("ready")
        next_event("result")  # the check of the code as it is
        for i in range(saves):
            time.sleep(1.0)  # one save at a time, as a person saves
            with open(source, "ab") as f:
                f.write(b"// save %d\n" % i)
            while True:
                event = next_event("result")
                if event.get("current") and "feedback_seconds" in event:
                    break
            times.append(event["feedback_seconds"])
            print("save %d: %.2f s (%s)" % (i + 1, event["feedback_seconds"], "pass" if event["pass"] else "fail"))
    finally:
        with open(source, "wb") as f:
            f.write(original)
        if watch.poll() is None:
            watch.stdin.write("q\n")
            watch.stdin.flush()
            try:
                watch.wait(10)
            except subprocess.TimeoutExpired:
                watch.terminate()
    print("%s --%s: median %.2f s over %d saves" % (puzzle, variant, statistics.median(times), len(times)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
