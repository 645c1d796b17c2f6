"""The editor's loop, measured: CPU and wall time of the README's test command, and per file.

Runs ``pytest`` as ``make test`` does (spread over the cores by pytest-xdist), then in one process,
in a child process each time, and prints the CPU it and everything it started used (the site
builds, the subprocesses), then the same for each test file, so that a slow file is found before
the loop slows down. The goal is well under a minute of CPU (the speed issue's: 30 s). On
2026-12-04 the default run took 40 s spread by pytest-xdist over two cores and 35 s in one process
on a fast morning, and 51-60 s and 52 s in the afternoon (this machine's speed changes from day to
day and hour to hour, its system time from 4 s to 16 s between two identical runs); the
misreadings' answers were kept from an earlier run (a first run on a fresh machine works them
out once, about 12 s). On 2026-12-06, on the same two cores shared with other jobs (load average
12 to 13, so every figure is high), alternated with the parent commit twice: spread over two
workers 88-100 s before the changes of issue 47's "make test without repeats" and 77-93 s after,
in one process 72-84 s and 66-73 s (user time; about 10 s less either way). xdist's two workers
cost about 15 s of CPU more than one process (each starts, imports and collects everything), for
about two thirds of its wall time on a quiet machine (42 s against about 63 s on 2026-12-05).
With PYTHONDONTWRITEBYTECODE set (no bytecode kept), each test process compiles and rewrites its
modules afresh (a whole collection took 5.4 s against 2.9 s with bytecode kept, before the
plugins were named in pyproject.toml). But the site builds of tests/test_site.py run with an
environment of their own, without PYTHONDONTWRITEBYTECODE, and write the bytecode of engine/ and
oracle/ into the checkout, which every later process reads: an A/B clears the ``__pycache__``
folders of both trees before each run, or the tree run first pays for both. On 2026-12-07 (load
9 to 12, alternated three times with the parent, caches cleared): spread over two workers 57.4,
64.5 and 64.6 s before issue 47's second round of "make test without repeats", 60.8, 56.9 and
52.7 s after; in one process 52.2, 55.5 and 51.1 s before, 47.7, 47.5 and 47.1 s after.
Measured alone (named on the command line, alternated twice, load 11 to 14),
tests/test_history_written.py went from 3.1 and 3.1 s to 1.9 and 1.9 s once edits compose and
read back with libyaml; the other files changed moved less than the noise of one file's run
(about 0.5 s). Later on 2026-12-07 (load 8 to 13, caches cleared, alternated twice with the
parent), after a mangled board's form was drawn only when used and the quick profile's share
went from a quarter to an eighth: spread over two workers 50.0 and 45.4 s before, 43.4 and
48.9 s after; in one process 38.9 and 42.2 s before, 36.0 and 40.3 s after (the noise of a run
is about 4 s here). ``--tests``: the files' collections and tests took 39.1 s before and
33.1 s after, tests/test_blockyaml.py 3.75 -> 1.48 s, test_misreadings.py 1.18 -> 0.80 s,
test_reference_rules.py 0.75 -> 0.49 s. Later still on 2026-12-07 (load 8 to 13, caches cleared,
alternated three times with the parent, ``--tree``), once the test processes collect garbage less
often and freeze what collecting the tests made (tests/conftest.py; one process had spent about
5 s of its CPU in the collector, 42 full collections walking its whole heap): spread over two
workers 46.9, 50.0 and 46.6 s before, 41.6, 37.3 and 38.5 s after; in one process 37.8, 42.7
and 38.7 s before, 31.0, 33.2 and 32.3 s after. On the evening of 2026-12-07 (load 3 to 8,
caches cleared, ``--tree``), once our adapter ran in the test process where the subprocess is
not what is tested, the plugin's bad files were collected in-process and the deep folder,
the rpds stand-in and the drift bases cost less: the files changed, each alone and alternated
twice, 13.7 and 13.5 s before, 9.1 and 9.5 s after; the whole run, alternated six times, in
one process 32.0, 32.0, 31.7, 30.5, 33.2 and 38.4 s before, 30.3, 31.4, 31.6, 29.1, 28.7 and
30.5 s after, spread over two workers 33.9 to 37.7 s before and 31.9 to 40.6 s after (at this
load the noise of a spread run is larger than the change). Late on 2026-12-07 (load 1 to 9),
each process's CPU read at its start, collection and end: spread over two workers, the
controller took 1.0 to 1.5 s (0.35 s starting, 0.6 to 0.8 s taking the workers' reports, about
5,000, and 0.3 s of system time at its end removing the temporary folders of the run three runs
back), each worker 0.37 s starting and 1.45 s collecting (0.65 s of it pytest rewriting asserts:
a collection takes 1.75 s with them rewritten, 1.1 s with ``--assert=plain``), and the reports
cost about 0.6 ms a test (2,000 empty tests: 1.1 s of CPU in one process, 3.3 s spread).
System time is the noise: a run writes about 5,300 files and 1,500 folders, nearly all of them
project copies (``tests/conftest.py``'s and the look copies, about 115 files each), and fifty
copies took 1.8 to 5.4 s of system time (0.1 s user) on the busy machine, 0.2 to 0.4 s quiet;
writing the copies from bytes read once a run halved their user time and left their system
time as it was, so it was not kept. After the catalogue's items became one worker's unit of
work (tests/conftest.py's scheduler) and a move's text was written once in
tests/test_move_generation.py, alternated three times with the parent (caches cleared,
``--tree``, load 1.3 to 1.7, the machine slowing and speeding up by 5 s between rounds): spread
35.4, 36.7 and 39.6 s before, 35.4, 36.2 and 30.8 s after; in one process 30.4, 33.7 and
35.0 s before, 30.0, 32.6 and 25.5 s after. On 2026-12-08, once the tests that only read a
project copy took the shared one, and the tests of the editors' commands, the coverage
projects and the citations' look a copy without the site's build-only files (templates,
scripts, stylesheets, downloads, games, package files), ``--files``: a run created 8,951
files and made 3,341 folders before, 6,280 and 2,682 after. Alternated with the parent
(``--tree``, caches cleared), at load 1.2 to 6: spread over two workers 33.0, 32.4, 35.0 and
38.0 s before, 30.5, 30.4, 33.4 and 31.2 s after (17 to 19 s wall at load 1.2 to 3); in one
process 28.6, 27.3, 28.2 and 28.5 s before, 26.5, 27.9, 28.9 and 27.8 s after. Earlier states
of the change (all but the last two small commits), at load 6 to 12: spread 35.3, 34.7, 35.4
and 36.9 s before, 33.0, 33.1, 36.5 and 37.1 s after; one process 27.9, 31.2, 30.6 and 33.4 s
before, 27.1, 27.5, 28.5 and 32.1 s after.

The default run leaves out the soaks (``-m slow``) and the browser tests (``-m browser``, which
CI runs); ``tests/test_browser.py`` is measured apart, as ``-m "browser and not slow"``, the
browser tests an editor opts into.

    .venv/bin/python bench/test_run_cpu.py            # the whole default run, then each file
    .venv/bin/python bench/test_run_cpu.py --total    # the whole run only
    .venv/bin/python bench/test_run_cpu.py tests/test_cli.py tests/test_render.py   # those files
    .venv/bin/python bench/test_run_cpu.py --tests 40   # one process: CPU by file and test
    .venv/bin/python bench/test_run_cpu.py --total --tree ../base   # another checkout's run
    .venv/bin/python bench/test_run_cpu.py --files 30   # files and folders a run makes (strace)

``--tree PATH`` measures the checkout at PATH (its tests, engine and oracle, run from there with
PATH first on ``PYTHONPATH``) with this checkout's virtual environment: an A/B of a change
alternates a run of the tree with one of its parent's worktree (``git worktree add --detach``),
each tree's ``__pycache__`` folders cleared before each run (see above).

``--tests N`` runs the default run once, in one process, with this module loaded as a pytest
plugin that reads the CPU (of the process and of what it started) around each collection and
each test's setup, call and teardown, and prints the files and the N tests that cost most:
pytest's own ``--durations`` gives wall time, which a loaded machine inflates (up to five times
on 2026-12-07), and says nothing of the files' collection.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Generator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

ROWS_FILE = "TEST_RUN_CPU_ROWS"
"""The environment variable naming the file the plugin writes its rows to (``--tests``)."""

_rows: list[tuple[float, str, str]] = []
"""The plugin's rows: CPU seconds, the phase (collect, setup, call, teardown) and the node."""


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _timed(phase: str, node_id: str) -> Generator[None, Any, Any]:
    """A hook wrapper's body: the CPU of what it wraps, kept as a row."""
    started = _cpu()
    try:
        return (yield)
    finally:
        _rows.append((_cpu() - started, phase, node_id))


def _wrapper(phase: str) -> Any:
    """A pytest hook wrapper around a test's ``phase``."""
    import pytest

    @pytest.hookimpl(wrapper=True)
    def hook(item: pytest.Item) -> Generator[None, Any, Any]:
        return (yield from _timed(phase, item.nodeid))

    return hook


if os.environ.get(ROWS_FILE):  # loaded as a pytest plugin by --tests
    import pytest

    pytest_runtest_setup = _wrapper("setup")
    pytest_runtest_call = _wrapper("call")
    pytest_runtest_teardown = _wrapper("teardown")

    @pytest.hookimpl(wrapper=True)
    def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, Any]:
        return (yield from _timed("collect", collector.nodeid))

    def pytest_unconfigure(config: pytest.Config) -> None:
        Path(os.environ[ROWS_FILE]).write_text(json.dumps(_rows), encoding="utf-8")


def measure(arguments: list[str]) -> tuple[float, float, int]:
    """CPU seconds (user + system, children included) and wall seconds of one pytest run."""
    # The same measure as the build benchmark, imported here: not by the plugin (--tests).
    from build_bench import cpu_of

    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *arguments]
    return cpu_of(command, ROOT)


def by_test(shown: int) -> None:
    """The default run in one process, with this module as a plugin: its CPU by file (the
    file's collection, its tests and their fixtures; the cases' items as one) and its ``shown``
    costliest test phases."""
    with tempfile.TemporaryDirectory() as folder:
        rows_file = Path(folder) / "rows.json"
        os.environ[ROWS_FILE] = str(rows_file)
        bench = str(Path(__file__).resolve().parent)
        os.environ["PYTHONPATH"] = os.pathsep.join(
            [bench, *filter(None, [os.environ.get("PYTHONPATH")])]
        )
        cpu, wall, status = measure(["-p", Path(__file__).stem])
        rows: list[tuple[float, str, str]] = json.loads(rows_file.read_text(encoding="utf-8"))
    print(f"one process, measured: {cpu:6.1f} s CPU, {wall:6.1f} s wall (exit {status})")
    by_file: dict[str, float] = {}
    for seconds, _, node in rows:
        name = node.split("::")[0]
        name = "cases" if name.startswith("cases") else name
        by_file[name] = by_file.get(name, 0.0) + seconds
    print(f"  in collections and tests: {sum(by_file.values()):6.1f} s CPU")
    for name, seconds in sorted(by_file.items(), key=lambda item: -item[1])[:shown]:
        print(f"  {name:44} {seconds:6.2f} s CPU")
    print(f"the {shown} costliest phases:")
    for seconds, phase, node in sorted(rows, reverse=True)[:shown]:
        print(f"  {seconds:6.2f} s {phase:8} {node[:110]}")


CREATED = re.compile(r'^\d+\s+(openat|mkdir|mkdirat)\(.*?"((?:[^"\\]|\\.)*)"(.*)$')
"""A line of strace's output naming a path (the pid first, as ``strace -f -o`` writes it)."""

TEST_FOLDER = re.compile(r"/pytest-\d+/(?:popen-gw\d+/)?([^/]+?)\d*(?:/|$)")
"""A test's own temporary folder in a path, without pytest's number: where a file was made."""


def files_made(shown: int) -> None:
    """The default run once, in one process, under ``strace``: the files it created (the
    distinct paths it opened with ``O_CREAT``) and the folders it made, in all and by the
    temporary folder they were made in (a test's, or a session fixture's). Each file created
    costs system time, several times more on a busy machine (see the module's docstring)."""
    if shutil.which("strace") is None:
        print("--files needs strace")
        return
    with tempfile.TemporaryDirectory() as folder:
        trace = Path(folder) / "trace"
        command = [
            *("strace", "-f", "-qq", "-o", str(trace), "-e", "status=successful"),
            *("-e", "trace=openat,mkdir,mkdirat", sys.executable, "-m", "pytest", "-q"),
            *("-p", "no:cacheprovider"),
        ]
        status = subprocess.run(command, cwd=ROOT, capture_output=True, check=False).returncode
        files: set[str] = set()
        folders = 0
        by_place: dict[str, list[int]] = {}
        with trace.open(encoding="utf-8", errors="replace") as lines:
            for line in lines:
                found = CREATED.match(line)
                if found is None:
                    continue
                call, path, rest = found.groups()
                if call == "openat" and ("O_CREAT" not in rest or path in files):
                    continue
                made = call == "openat"
                if made:
                    files.add(path)
                else:
                    folders += 1
                test_folder = TEST_FOLDER.search(path)
                where = test_folder.group(1) if test_folder else "elsewhere"
                counts = by_place.setdefault(where, [0, 0])
                counts[0 if made else 1] += 1
    print(f"one process (exit {status}): {len(files)} files created, {folders} folders made")
    for place, (made, made_folders) in sorted(by_place.items(), key=lambda item: -item[1][0])[
        :shown
    ]:
        print(f"  {made:5} files {made_folders:5} folders  {place}")


def use_tree(tree: Path) -> None:
    """Measure the checkout at ``tree`` rather than this one: its files, run from there, its
    packages imported before any installed copy."""
    global ROOT
    ROOT = tree.resolve()
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    )


def main() -> int:
    if "--tree" in sys.argv:
        at = sys.argv.index("--tree")
        use_tree(Path(sys.argv[at + 1]))
        del sys.argv[at : at + 2]
    if "--files" in sys.argv:
        at = sys.argv.index("--files")
        files_made(int(sys.argv[at + 1]) if at + 1 < len(sys.argv) else 30)
        return 0
    if "--tests" in sys.argv:
        at = sys.argv.index("--tests")
        by_test(int(sys.argv[at + 1]) if at + 1 < len(sys.argv) else 40)
        return 0
    named = [argument for argument in sys.argv[1:] if not argument.startswith("-")]
    if named:  # only these files, each in its own process: a change to them measured quickly
        for name in named:
            cpu, wall, status = measure([name])
            print(f"  {name:36} {cpu:6.1f} s CPU, {wall:6.1f} s wall (exit {status})")
        return 0
    cpu, wall, status = measure(["-n", "auto", "--dist", "loadfile"])
    print(f"make test (-n auto):   {cpu:6.1f} s CPU, {wall:6.1f} s wall (exit {status})")
    cpu, wall, status = measure([])
    print(f"one process:           {cpu:6.1f} s CPU, {wall:6.1f} s wall (exit {status})")
    if "--total" in sys.argv:
        return 0
    files = [*sorted((ROOT / "tests").glob("test_*.py")), ROOT / "cases"]
    for path in files:
        name = str(path.relative_to(ROOT))
        if path.name == "test_browser.py":  # not in the default run: measured as opted into
            cpu, wall, status = measure([name, "-m", "browser and not slow"])
            name += " (-m browser)"
        else:
            cpu, wall, status = measure([name])
        print(f"  {name:36} {cpu:6.1f} s CPU, {wall:6.1f} s wall")
    return 0


if __name__ == "__main__":
    sys.exit(main())
