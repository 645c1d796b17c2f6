"""The misreadings' matrix from a cold store: CPU of working out every case under every reading.

Loads a catalogue (the project's own, or a generated one made as ``build_bench.py`` makes it,
kept in ``--project`` to be read again by later runs), replays it, then makes the misreadings'
matrix ``--runs`` times, each with an empty store of its own (cold), and once more from the last
run's store (warm), printing the CPU seconds of each. ``--dump FILE`` writes the matrix and every
misread response as JSON, to compare two versions of the code (``cmp``).

    .venv/bin/python bench/matrix_bench.py --cases 400 --project /tmp/p400 --runs 3
    .venv/bin/python bench/matrix_bench.py --project . --dump /tmp/real.json
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def generated_project(folder: Path, cases: int) -> None:
    """A copy of the project with generated cases up to ``cases`` (as ``build_bench.py``)."""
    sys.path.insert(0, str(ROOT / "tests"))
    sys.path.insert(0, str(ROOT / "bench"))
    from build_bench import grow
    from conftest import copy_project

    folder.mkdir(parents=True)
    copy_project(folder)
    print(f"{grow(folder, cases)} cases generated in {folder}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", type=Path, default=ROOT, help="the project (made if absent)")
    parser.add_argument("--cases", type=int, default=400, help="cases of a project made anew")
    parser.add_argument("--runs", type=int, default=1, help="cold matrices made")
    parser.add_argument("--dump", type=Path, help="write the matrix and responses here as JSON")
    args = parser.parse_args()
    if not args.project.exists():
        generated_project(args.project, args.cases)

    from oracle.catalogue import build_catalogue
    from oracle.judges.misreadings import MISREADINGS
    from oracle.misreadings.cache import MisreadingCache
    from oracle.misreadings.matrix import misreading_matrix

    with tempfile.TemporaryDirectory() as scratch:
        catalogue = build_catalogue(args.project, MisreadingCache(Path(scratch) / "unused"))
        started = time.process_time()
        published = catalogue.published
        print(
            f"{len(published)} published cases, replayed in {time.process_time() - started:.2f} s"
        )
        store = Path(scratch) / "store"
        for run in range(args.runs):
            shutil.rmtree(store, ignore_errors=True)
            started = time.process_time()
            rows = misreading_matrix(published, MisreadingCache(store))
            print(f"  cold matrix {run + 1}: {time.process_time() - started:6.2f} s CPU")
        cache = MisreadingCache(store)
        started = time.process_time()
        warm = misreading_matrix(published, cache)
        print(f"  warm matrix:   {time.process_time() - started:6.2f} s CPU")
        if args.dump is not None:
            dumped = {
                "cold": [
                    [row.report.case.id, {k: v.value for k, v in row.outcomes.items()}]
                    for row in rows
                ],
                "warm": [
                    [row.report.case.id, {k: v.value for k, v in row.outcomes.items()}]
                    for row in warm
                ],
                "responses": [
                    [report.case.id, name, cache.misread(report.case, reading, report)]
                    for report in published
                    for name, reading in MISREADINGS.items()
                ],
            }
            args.dump.write_text(json.dumps(dumped, sort_keys=True, indent=0))
            print(f"  written to {args.dump}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
