"""How the editor's loop and the site build grow with the catalogue: CPU for N cases.

Copies the project to a scratch folder, multiplies the published cases (each copy with its own
id, beside its original in the same topic) until there are ``--cases`` of them, then measures the
CPU time (children included) of replaying the catalogue with pytest and of the strict site build.
It also prints the peak memory of the largest of the two processes, and the built site's size,
split into the case pages and everything else. The goal (issue 21): 10,000 cases replayed and
built within 2 minutes of CPU and 500 MB, with a site whose size per case does not grow with the
catalogue.

    .venv/bin/python bench/build_bench.py --cases 1000
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cpu_of(command: list[str], cwd: Path) -> tuple[float, float, int]:
    """CPU seconds (user + system, children included), wall seconds and exit status."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(
        command,
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        print(result.stdout[-2000:], result.stderr[-2000:], file=sys.stderr)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu, wall, result.returncode


def grow(project: Path, wanted: int) -> int:
    """Copy the published cases, each under a new id, until the catalogue holds ``wanted``."""
    originals = sorted((project / "cases").glob("*/*.yaml"))
    count, copy = len(originals), 0
    while count < wanted:
        copy += 1
        for path in originals:
            if count >= wanted:
                break
            text = path.read_text(encoding="utf-8")
            text = re.sub(r"^id: (\S+)", rf"id: \1-copy-{copy}", text, count=1, flags=re.M)
            target = path.parent / f"{1000 * copy + int(path.name.split('-')[0])}-copy.yaml"
            target.write_text(text, encoding="utf-8")
            count += 1
    return count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1000)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "tests"))
    from conftest import copy_project  # the project as the site tests copy it

    with tempfile.TemporaryDirectory() as scratch:
        project = copy_project(Path(scratch))
        shutil.copy(ROOT / "pyproject.toml", project / "pyproject.toml")
        total = grow(project, args.cases)
        print(f"{total} cases")
        cpu, wall, status = cpu_of([sys.executable, "-m", "pytest", "-q", "cases"], project)
        print(f"  replayed by pytest:   {cpu:6.1f} s CPU, {wall:6.1f} s wall (exit {status})")
        build, build_wall, built = cpu_of(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "-q"], project
        )
        print(
            f"  strict site build:    {build:6.1f} s CPU, {build_wall:6.1f} s wall (exit {built})"
        )
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KiB on Linux
        site = project / "site"
        size = sum(path.stat().st_size for path in site.rglob("*") if path.is_file())
        pages = sum(path.stat().st_size for path in (site / "cases").rglob("*") if path.is_file())
        print(f"  both:                 {cpu + build:6.1f} s CPU, peak {peak:.0f} MB")
        print(
            f"  the site:             {size / 1e6:6.1f} MB: case pages {pages / 1e6:.1f} MB"
            f" ({pages / total / 1e3:.1f} KB a case), the rest {(size - pages) / 1e6:.1f} MB"
        )
        for name in ("search/search_index.json", "sitemap.xml", "all-cases.html"):
            if (site / name).exists():
                print(f"    {name}: {(site / name).stat().st_size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
