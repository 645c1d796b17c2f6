"""Shared fixtures: pytester for the plugin tests, the seed table, a scratch copy of the project
(its pages and machinery, with the developers' fixture catalogue of ``tests/catalogue/``)."""

from __future__ import annotations

import functools
import gc
import importlib.util
import itertools
import os
import re
import shutil
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

from engine import RULINGS, Position, Verdict, claim_verdict
from engine.proof.rulings import Rulings

if TYPE_CHECKING:
    # Imported where used: pytest-xdist's controller process loads this module too, and runs
    # no test (oracle.cli and oracle.catalogue are about 0.1 s of CPU to import).
    from oracle.catalogue import Catalogue, Kept
    from oracle.verify.report import CaseReport

pytest_plugins = ["pytester", "browser_support"]

ROOT = Path(__file__).resolve().parent.parent

HYPOTHESIS_PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "quick")
"""The Hypothesis profile of the run (see :func:`pytest_configure`)."""
THOROUGH = HYPOTHESIS_PROFILE == "ci"
"""Whether the property tests draw all their examples (CI), not the quick profile's share."""

QUICK_SHARE = 8
"""The quick profile draws one example in this many of those CI's draws."""


def examples(thorough: int) -> int:
    """How many examples a property test of the default run draws: ``thorough`` under the CI
    profile (``HYPOTHESIS_PROFILE=ci``), a :data:`QUICK_SHARE`-th of it (at least 1) under the
    quick one. The long soaks (``-m slow``) draw their own counts under either."""
    return thorough if THOROUGH else max(1, thorough // QUICK_SHARE)


def stones_granted_afresh(position: Position, rulings: Rulings = RULINGS) -> tuple[int, ...]:
    """The unclaimed stones of ``position`` the claim proof grants, each proved afresh: what a
    game's claim step, which keeps and shortens its proofs, must find at that step."""
    return tuple(
        number
        for number in range(1, 10)
        if position.stone(number).claimed_by is None
        and claim_verdict(position, number, rulings).granted
    )


FIXTURE = Path(__file__).resolve().parent / "catalogue"
"""The developers' own catalogue: a frozen copy of some of the project's cases and of its rules
index (``tests/catalogue/``). The tests of the machinery read it, never the project's ``cases/``
or ``rules/``: those are the editors', judged by their own gate (``schotten-oracle check``,
``pytest cases``, the site build), so that a change an editor makes there that ``check``
accepts never fails ``make test``."""

RUNTIME_MISSING = (
    "the browser runtime is not installed (node_modules/pyodide): run npm ci, as make test does"
)
"""Why a test that builds the site, or reads the runtime npm installs, is skipped without it."""

RUNTIME_INSTALLED = (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file()

needs_the_runtime = pytest.mark.skipif(not RUNTIME_INSTALLED, reason=RUNTIME_MISSING)
"""For a test that builds the site or reads the browser runtime npm installs."""


@functools.cache
def bench_module(name: str) -> ModuleType:
    """``bench/NAME.py`` loaded once a run, for the tests of a benchmark's own parts (the
    benchmarks are scripts, not a package). It is registered under its name, since a
    dataclass looks its module up by name."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def skip_without_the_runtime() -> None:
    """Skip the calling test (or fixture) when the browser runtime is not installed."""
    if not RUNTIME_INSTALLED:
        pytest.skip(RUNTIME_MISSING)


SEED_ROWS: list[tuple[str, Verdict]] = [
    ("incomplete-side", Verdict.REFUSED),
    ("last-three-in-your-hand", Verdict.REFUSED),
    ("last-three-on-the-table", Verdict.GRANTED),
    ("tie-you-finished-first", Verdict.GRANTED),
    ("tie-they-finished-first", Verdict.REFUSED),
    ("colour-run-against-blue-7-8", Verdict.GRANTED),
    ("no-wrap-around", Verdict.REFUSED),
    ("three-twos-beat-a-colour", Verdict.GRANTED),
    ("two-stones-at-once", Verdict.GRANTED),
    ("three-cards-under-mud-fight", Verdict.REFUSED),
    ("colour-run-under-blind-mans-bluff", Verdict.REFUSED),
]
"""The seed page's eleven rows, in order, with its verdicts: the table opens with them."""


def runs_no_test(config: pytest.Config) -> bool:
    """Whether this process is pytest-xdist's controller, which starts the workers (``-n``) and
    runs no test itself."""
    return not hasattr(config, "workerinput") and bool(getattr(config.option, "numprocesses", None))


GARBAGE_THRESHOLDS = (10_000, 10, 10)
"""The collector's thresholds in a test process (Python's are 700, 10, 10): a young collection
after ten thousand new objects rather than 700. A test process holds a large heap that lives
to its end (the modules, every collected item, the catalogues a run shares), and each full
collection walks all of it: with Python's thresholds, one process of the default run spent
about 5 s of its 38 s of CPU collecting garbage (42 full collections), 0.65 s of them in the
collection of the tests, which every xdist worker repeats; with these and
:func:`pytest_collection_finish`, 1.4 s."""


def pytest_configure(config: pytest.Config) -> None:
    """The collector's thresholds (:data:`GARBAGE_THRESHOLDS`), before any test module is
    imported; and the Hypothesis profiles.

    The property tests run the same examples every run: each check is seeded (a test that is
    not is derandomized), keeps no example database, and has no deadline, since an enumeration
    may take a while. Two profiles: "quick", an editor's default, draws an eighth of the examples
    CI draws (see :func:`examples`); "ci" (HYPOTHESIS_PROFILE=ci, set by .ci/gate) draws them
    all. Loaded before any test module is imported, in each process that runs tests: not in
    xdist's controller, which has no use for Hypothesis (about 70 ms of CPU to import)."""
    gc.set_threshold(*GARBAGE_THRESHOLDS)
    if runs_no_test(config):
        return
    from hypothesis import settings

    settings.register_profile("quick", deadline=None, derandomize=True, database=None)
    settings.register_profile("ci", settings.get_profile("quick"))
    settings.load_profile(HYPOTHESIS_PROFILE)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collecting the tests made lives to the end of the process: collected once more,
    what is left is frozen (:func:`gc.freeze`), out of the sight of every later collection of
    garbage (about 110,000 objects)."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Spread by file over workers (``--dist loadfile``, as make test does), the catalogue's
    items (``cases/...yaml::...`` and ``cases::coverage``) are one unit of work, run by one
    worker: each worker that runs any of them first pays for what they share (the
    catalogue's replays and misreadings' answers, about 0.2 s of CPU), and each one's own
    check is quick. Any other way of spreading is pytest-xdist's own."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling  # type: ignore[import-untyped]

    from oracle.casefile.vocabulary import CASES_DIR

    class CatalogueTogether(LoadFileScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)
            inside = scope == CASES_DIR or scope.startswith(f"{CASES_DIR}/")
            return CASES_DIR if inside else scope

    return CatalogueTogether(config, log)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Spread over workers (``-n``), work the misreadings' answers out once, before the workers
    start, when no earlier run has kept them for this code: otherwise each worker would work
    the whole matrix out at once (about 12 s of CPU each), and keep the same answers."""
    if not runs_no_test(session.config):
        return
    from oracle.catalogue import build_catalogue
    from oracle.misreadings.cache import MisreadingCache

    cache = MisreadingCache()
    if not cache.store.exists():
        build_catalogue(ROOT, cache).matrix  # noqa: B018 (worked out for its answers)
        cache.save()


BROWSER_MODULE = re.compile(r"^pytestmark = .*\bpytest\.mark\.browser\b", re.MULTILINE)
"""A test module whose every test is a browser test: its ``pytestmark`` names ``browser``."""

MARK_NAMED = re.compile(r"\bpytest\.mark\.(\w+)")


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """A module of browser tests (:data:`BROWSER_MODULE`) is not imported when the run's ``-m``
    selects none of its tests, whatever other marks a test of it names: the default run would
    collect test_browser.py's tests only to deselect them all, after rewriting its asserts and
    compiling it in each test process (about 0.2 s of CPU each). A file named on the command
    line is collected as always."""
    expression = config.getoption("markexpr")
    if not expression or not collection_path.name.startswith("test_"):
        return None
    if collection_path.suffix != ".py" or not collection_path.is_file():
        return None
    text = collection_path.read_text(encoding="utf-8")
    if not BROWSER_MODULE.search(text):
        return None
    compiled = _compiled_mark_expression(expression)
    if compiled is None:
        return None
    named = sorted(set(MARK_NAMED.findall(text)) - {"browser"})
    for size in range(len(named) + 1):
        for others in itertools.combinations(named, size):
            if compiled.evaluate(functools.partial(_carries, {"browser", *others})):
                return None
    return True


def _compiled_mark_expression(expression: str) -> Any:
    """The ``-m`` expression compiled by pytest's own parser, or None where this pytest has none
    where we look for it: it is not public API, so a pytest that moved it only costs the run the
    import of the browser modules (they are collected and deselected as before), never a test."""
    try:
        from _pytest.mark.expression import Expression
    except ImportError:
        return None
    compile_expression = getattr(Expression, "compile", None)
    return None if compile_expression is None else compile_expression(expression)


def _carries(marks: set[str], name: str, /, **arguments: object) -> bool:
    """Whether a test with ``marks`` matches a mark of an ``-m`` expression (one given with
    arguments is taken to match: a module is left out only when surely nothing in it runs)."""
    return bool(arguments) or name in marks


@pytest.fixture
def pytester(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """pytest's own, its runs loading only the oracle's plugin (and xdist's, for a run spread
    over workers), named as this run names its plugins (pyproject.toml's addopts) rather than
    found among every installed package's: the plugins of the others (hypothesis's imports
    hypothesis afresh in each in-process run, seconds each) are not needed there, and looking
    them up cost each run about 70 ms of CPU."""
    monkeypatch.setenv(
        "PYTEST_ADDOPTS", "--disable-plugin-autoload -p oracle.pytest_plugin -p xdist.plugin"
    )
    return pytester


@pytest.fixture
def seed_rows() -> list[tuple[str, Verdict]]:
    """The seed rows (see :data:`SEED_ROWS`)."""
    return list(SEED_ROWS)


@pytest.fixture
def project_copy(tmp_path: Path) -> Path:
    """The parts of the project a site build reads, copied so that a test may break them, with
    the cases and rules index of the fixture catalogue (:data:`FIXTURE`).

    Only the publishable cases come along: a case an editor has not settled yet (invalid or
    drifted) fails its own test, not every test that builds the site.
    """
    return copy_project(tmp_path)


@pytest.fixture
def catalogue_copy(tmp_path: Path) -> Path:
    """The parts of the project the catalogue and the editors' commands (``ask``, ``check``,
    ``new``, ``pin``, ``drift``, ``export``) read, copied so that a test may change them: the
    fixture catalogue's publishable cases and rules index, the site's Markdown pages and
    ``mkdocs.yml`` (:func:`copy_catalogue_project`). A test that builds the site, or reads
    what only a build reads, takes :func:`project_copy`."""
    return copy_catalogue_project(tmp_path)


@functools.cache
def kept_for_the_run() -> Kept:
    """What the catalogues a run builds of the project, or of copies of it, share: each case
    read and replayed once a run. A test that patches the engine builds its catalogue without
    it, and so replays with the patch."""
    from oracle.catalogue import Kept

    return Kept()


def run_main(argv: Sequence[str]) -> int:
    """The command line (:func:`oracle.cli.main`) run in the test's process, its catalogues
    sharing the run's reads and replays (:func:`kept_for_the_run`) with every other catalogue
    of the run. A test that patches the engine calls :func:`oracle.cli.main` itself."""
    from oracle.cli import main

    return main(list(argv), kept_for_the_run())


OUR_ADAPTER = [sys.executable, "-m", "oracle.conformance.adapter"]
"""Our reference adapter as an engine command: what a test gives ``conform`` after ``--``
(with ``--misreading NAME`` for a misreading's answers)."""


@pytest.fixture
def adapter_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """``conform`` runs :data:`OUR_ADAPTER` (or one of its misreadings) in the test's process,
    as :func:`oracle.conformance.adapter.adapter_engine`, rather than starting it: for the tests
    of what the command line makes of a run (its selection, its reports, its exit status), not
    of the protocol through a pipe. Each start costs about 0.15 s of CPU (the adapter imports
    the oracle afresh). Any other command is started as always, and the tests of the protocol
    through a subprocess (test_conformance.py's "as a subprocess", "through the subprocess",
    the broken engines, ``conform`` with an engine that passes nothing) start theirs."""
    import oracle.cli
    from oracle.conformance.adapter import adapter_engine
    from oracle.conformance.engines import DEFAULT_TIMEOUT, CommandEngine
    from oracle.judges.misreadings import MISREADINGS

    def engine(command: Sequence[str], timeout: float = DEFAULT_TIMEOUT) -> Any:
        rest = list(command[len(OUR_ADAPTER) :])
        if list(command[: len(OUR_ADAPTER)]) != OUR_ADAPTER:
            return CommandEngine(command, timeout)
        if not rest:
            return adapter_engine()
        if len(rest) == 2 and rest[0] == "--misreading" and rest[1] in MISREADINGS:
            return adapter_engine(rest[1])
        return CommandEngine(command, timeout)

    monkeypatch.setattr(oracle.cli, "CommandEngine", engine)


@functools.cache
def publishable_case_files() -> tuple[Path, ...]:
    """The case files of the fixture catalogue a site can be built from: verified, not drafts.

    Worked out once a run (a fixture case the engine no longer verifies fails the tests that
    read it, by its absence, and :mod:`tests.test_fixture_catalogue`, by name).
    """
    from oracle.catalogue import build_catalogue

    catalogue = build_catalogue(FIXTURE, kept=kept_for_the_run())
    return tuple(
        report.case.path
        for report in catalogue.published
        if not catalogue.case_problems(report.case)
    )


def copy_project(tmp_path: Path) -> Path:
    """Copy what a site build reads, with only the publishable cases of the fixture catalogue
    and its rules index, into ``tmp_path``."""
    copy_catalogue_project(tmp_path, pages_only=False)
    shutil.copytree(ROOT / "games", tmp_path / "games")
    for name in ("package.json", "package-lock.json"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / "node_modules").symlink_to(ROOT / "node_modules")  # the browser runtime
    return tmp_path


def copy_catalogue_project(tmp_path: Path, *, pages_only: bool = True) -> Path:
    """Copy what the catalogue and the editors' commands read of a project (its publishable
    fixture cases and rules index, the site's Markdown pages, ``mkdocs.yml``) into
    ``tmp_path``; with ``pages_only`` (the default), none of ``site_src/``'s other files, which
    only a site build reads: the templates, stylesheets, scripts and downloads, about a third
    of a whole copy's files. Each file created costs system time, several times more on a
    busy machine (see bench/test_run_cpu.py)."""
    shutil.copytree(FIXTURE / "rules", tmp_path / "rules")
    cases = publishable_case_files()
    for folder in sorted({path.parent for path in cases}):  # each made once, not once a file
        (tmp_path / folder.relative_to(FIXTURE)).mkdir(parents=True)
    for path in cases:
        shutil.copy(path, tmp_path / path.relative_to(FIXTURE))
    copy_site_sources(tmp_path / "site_src", pages_only=pages_only)
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    return tmp_path


@functools.cache
def site_page_names() -> tuple[str, ...]:
    """The site's Markdown pages by path under ``site_src/``, as the catalogue reads them."""
    from oracle.sitepages import site_pages

    return tuple(site_pages(ROOT / "site_src"))


def copy_site_sources(target: Path, *, pages_only: bool) -> None:
    """``site_src/`` copied to ``target``: whole, or only the Markdown pages the catalogue
    reads (:func:`oracle.sitepages.site_pages`, which leaves out ``_templates/``)."""
    if not pages_only:
        shutil.copytree(ROOT / "site_src", target)
        return
    pages = site_page_names()
    for folder in sorted({(target / uri).parent for uri in pages}):
        folder.mkdir(parents=True, exist_ok=True)
    for uri in pages:
        shutil.copy(ROOT / "site_src" / uri, target / uri)


@pytest.fixture(scope="session")
def project_copier() -> Callable[[Path], Path]:
    """:func:`copy_project`, for fixtures wider than one test."""
    return copy_project


def tree_contents(root: Path) -> dict[str, bytes | str | int | None]:
    """Every entry under ``root`` by its path: a file's bytes, a link's target (not followed),
    None for a folder, and for anything else (a FIFO, a socket, a device) its type, never
    opened: reading a FIFO nobody writes to would wait for ever."""
    contents: dict[str, bytes | str | int | None] = {}
    for folder, folders, files in os.walk(root):
        for name in folders + files:
            path = Path(folder) / name
            key = str(path.relative_to(root))
            mode = path.lstat().st_mode
            if stat.S_ISLNK(mode):
                contents[key] = os.readlink(path)
            elif stat.S_ISDIR(mode):
                contents[key] = None
            elif stat.S_ISREG(mode):
                contents[key] = path.read_bytes()
            else:
                contents[key] = stat.S_IFMT(mode)
    return contents


def changed_entries(
    before: dict[str, bytes | str | int | None], after: dict[str, bytes | str | int | None]
) -> list[str]:
    """The paths of two :func:`tree_contents` of one tree that were made, removed or changed."""
    missing = object()
    return sorted(
        name
        for name in before.keys() | after.keys()
        if before.get(name, missing) != after.get(name, missing)
    )


@pytest.fixture(scope="session")
def project_to_read(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One copy of the project (:func:`copy_project`) shared by the tests that only read it
    (an ``ask``, a ``new`` that is refused, a catalogue built from it): each test that writes
    into its copy takes its own (:func:`project_copy`). Making a copy costs about 0.02 to
    0.07 s of CPU (a hundred files created). A test that writes into this one by mistake
    fails the run at its end, naming what changed, rather than leaking into the next."""
    root = copy_project(tmp_path_factory.mktemp("project-to-read"))
    before = tree_contents(root)
    yield root
    changed = changed_entries(before, tree_contents(root))
    assert not changed, f"a test wrote into the project copy shared for reading: {changed}"


@pytest.fixture(scope="session")
def catalogue(project_to_read: Path) -> Catalogue:
    """The verified catalogue of a copy of the project with the fixture catalogue (its
    publishable cases), for the tests that only read it."""
    from oracle.catalogue import verified_catalogue

    return verified_catalogue(project_to_read, kept=kept_for_the_run())


@pytest.fixture(scope="session")
def published(catalogue: Catalogue) -> tuple[CaseReport, ...]:
    """The publishable cases of :func:`catalogue`, in table order."""
    return catalogue.published
