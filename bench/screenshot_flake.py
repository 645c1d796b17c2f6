"""How often the reviewed-screenshot comparison fails when nothing changed: the flake rate of
``tests/test_reader.py::test_every_page_looks_as_reviewed``, and how near the runs come to its
tolerance.

Runs the screenshot tests ``--runs`` times against the committed baselines; every ``--load``-th
run (by default every other one) is taken with every core kept busy by spinning processes, as a
shared CI machine may be. Prints, for each run, whether it passed, its wall time and the screens
that failed; then the flake rate, and the largest share of changed pixels any screen showed
against the share that fails a screen (``CHANGED_SHARE``).

    .venv/bin/python bench/screenshot_flake.py [--runs 20] [--load 2] [-k play]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from reader_support import CHANGED_SHARE  # noqa: E402

TEST = "tests/test_reader.py::test_every_page_looks_as_reviewed"


def _spin(stop: Any) -> None:
    while not stop.is_set():
        pass


def _run(select: str | None, log: Path, loaded: bool) -> tuple[bool, float, list[str]]:
    """One run of the screenshot tests: passed, wall seconds, the tests that failed or could not
    run (a run that failed before any test says why, in its last line)."""
    stop = multiprocessing.Event()
    spinners = [
        multiprocessing.Process(target=_spin, args=(stop,), daemon=True)
        for _ in range((os.cpu_count() or 1) if loaded else 0)
    ]
    for spinner in spinners:
        spinner.start()
    command = [
        sys.executable,
        "-m",
        "pytest",
        TEST,
        "-m",
        "browser",
        "-q",
        "-p",
        "no:cacheprovider",
    ]
    command += ["-n", "2", f"--basetemp={log.with_suffix('')}"]  # apart from other pytest runs
    command += ["-k", select] if select else []
    environment = {**os.environ, "ORACLE_SCREENSHOT_LOG": str(log)}
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True)
    wall = time.perf_counter() - started
    stop.set()
    for spinner in spinners:
        spinner.join()
    lines = done.stdout.splitlines()
    failed = [line.split()[1] for line in lines if line.startswith(("FAILED ", "ERROR "))]
    if done.returncode != 0 and not failed:
        failed = [(lines or done.stderr.splitlines() or ["no output"])[-1]]
    return done.returncode == 0, wall, failed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--load", type=int, default=2, help="every LOAD-th run is under load")
    parser.add_argument("-k", dest="select", help="only the views pytest -k selects")
    args = parser.parse_args()
    failures = Counter[str]()
    largest: dict[str, float] = {}
    flaked = 0
    with tempfile.TemporaryDirectory() as scratch:
        for run in range(1, args.runs + 1):
            log = Path(scratch) / f"run-{run}.jsonl"
            loaded = args.load > 0 and run % args.load == 0
            passed, wall, failed = _run(args.select, log, loaded)
            flaked += not passed
            failures.update(failed)
            if log.is_file():
                for line in log.read_text(encoding="utf-8").splitlines():
                    seen = json.loads(line)
                    largest[seen["screen"]] = max(largest.get(seen["screen"], 0.0), seen["share"])
            state = "passed" if passed else "FAILED " + ", ".join(failed)
            print(
                f"run {run:2} {'loaded' if loaded else 'quiet '} {wall:6.0f} s  {state}", flush=True
            )
    print(
        f"\n{flaked} of {args.runs} runs failed ({flaked / args.runs:.0%}); screens compared:"
        f" {len(largest)}"
    )
    for name, count in failures.most_common():
        print(f"  {name}: failed {count} times")
    worst = sorted(largest.items(), key=lambda item: -item[1])[:5]
    print(f"largest share of changed pixels (a screen fails above {CHANGED_SHARE:.2%}):")
    for name, share in worst:
        print(f"  {name:40} {share:.4%}")
    identical = sum(share == 0.0 for share in largest.values())
    print(f"  {identical} of {len(largest)} screens were identical, byte for byte, in every run")


if __name__ == "__main__":
    main()
