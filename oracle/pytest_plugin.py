"""The pytest plugin: every case file under the case directories becomes a test.

Registered as a ``pytest11`` entry point. A published case gives one item per question, named
by the case's id and the question: ``last-three-in-your-hand[stone-3]``, ``...[play-2]``,
``...[turn]``, ``...[deal]``, ``...[match]``, ``...[board]`` (a board the engine must refuse),
and ``...[catalogue]`` (its topic has a page, and every misreading it names changes its
answer); ``-k`` selects by either part. A case file that
cannot be loaded fails its collection with a one-line ``path:line:`` error; a draft case is one
item, skipped and listed by name at the end of the run.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from pathlib import Path
from typing import Any

import pytest

from oracle.casefile.loader import CaseError, load_cases, load_rules_index
from oracle.casefile.model import Case, RulesIndex
from oracle.casefile.source import SourceError, shown_path
from oracle.site.render import site_pages, topic_pages, unmet_guards, unshown_topics
from oracle.verify.replay import CaseReport, questions_of, verify_case

CASE_DIRS_INI = "oracle_case_dirs"
RULES_INDEX_INI = "oracle_rules_index"
PAGES_DIR_INI = "oracle_pages_dir"

_rules_key = pytest.StashKey[RulesIndex | SourceError]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        CASE_DIRS_INI,
        type="paths",
        default=[],
        help="directories whose *.yaml files are Schotten Totten rules cases; nothing is"
        " collected until a project names them (this project: cases)",
    )
    parser.addini(
        PAGES_DIR_INI,
        default="",
        help="the site's Markdown pages; a published case whose topic no page shows fails, as"
        " in `schotten-oracle check` (this project: site_src)",
    )
    parser.addini(
        RULES_INDEX_INI,
        default="rules/index.yaml",
        help="the rules index that cases pin rule ids from (default: rules/index.yaml)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(DraftList(config.rootpath), "schotten-oracle-drafts")


def _case_dirs(config: pytest.Config) -> list[Path]:
    raw: list[Path] = config.getini(CASE_DIRS_INI)
    return [Path(directory).absolute() for directory in raw]


def _rules_index(config: pytest.Config) -> RulesIndex:
    if _rules_key not in config.stash:
        path = config.rootpath / str(config.getini(RULES_INDEX_INI))
        try:
            config.stash[_rules_key] = load_rules_index(path)
        except SourceError as error:
            config.stash[_rules_key] = error
    rules = config.stash[_rules_key]
    if isinstance(rules, SourceError):
        raise CaseError.of_all(
            [
                CaseError(
                    error.path, error.line, f"the rules index cannot be used: {error.problem}"
                )
                for error in rules.every()
            ]
        )
    return rules


def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A case folder is collected by :func:`oracle.casefile.loader.load_cases`, as ``check``
    reads it."""
    if path.absolute() in _case_dirs(parent.config):
        directory: CaseDirectory = CaseDirectory.from_parent(parent, path=path)
        return directory
    return None


class _LocatedFailure(pytest.Collector):
    """A collector whose failure to read a file is the file's one located line, no traceback."""

    def repr_failure(  # type: ignore[override]  # the same narrowing as pytest's Collector
        self, excinfo: pytest.ExceptionInfo[BaseException]
    ) -> Any:
        if isinstance(excinfo.value, SourceError):
            return "\n".join(excinfo.value.lines_from(self.config.rootpath))
        return super().repr_failure(excinfo)


class CaseDirectory(pytest.Directory, _LocatedFailure):
    """A case folder: one :class:`CaseFile` per entry, whether it is a case or an error."""

    def collect(self) -> Iterator[CaseFile]:
        collection = load_cases(self.path, _rules_index(self.config), self.config.rootpath)
        for path, result in collection.entries:
            if str(path).isprintable():
                yield CaseFile.from_parent(self, path=path, result=result)
            else:  # a name holding a new line or an escape must not forge a line of the report
                shown = shown_path(path, self.config.rootpath)
                yield CaseFile.from_parent(
                    self, path=path, result=result, name=ascii(path.name), nodeid=shown
                )


class CaseFile(pytest.File, _LocatedFailure):
    """One case file: an item per question (one for a draft), or a located collection error."""

    def __init__(self, *, result: Case | CaseError, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.result = result

    @cached_property
    def _replayed(self) -> CaseReport | Exception:
        assert not isinstance(self.result, CaseError)
        try:
            return verify_case(self.result)
        except Exception as error:  # kept, so a crash is reported once per item, not replayed
            return error

    @property
    def report(self) -> CaseReport:
        """The case replayed once for all its items in a process (``make test`` sends a whole
        file to one worker, with ``--dist loadfile``; spread otherwise, each worker replays it
        once)."""
        replayed = self._replayed
        if isinstance(replayed, Exception):
            raise replayed
        return replayed

    def collect(self) -> Iterator[CaseItem]:
        if isinstance(self.result, CaseError):
            raise self.result
        case = self.result
        if case.draft:
            yield CaseItem.from_parent(self, name=case.id, case=case, question=None)
            return
        for question, line in [*questions_of(case).items(), (CATALOGUE, case.line)]:
            yield CaseItem.from_parent(
                self, name=f"{case.id}[{question}]", case=case, question=question, line=line
            )


CATALOGUE = "catalogue"
"""The item of a published case that checks it can be published: a page shows its topic and
every misreading it names changes its answer."""


class CaseDrift(Exception):
    """The engine disagrees with a case (or cannot judge it)."""

    def __init__(self, report: CaseReport) -> None:
        super().__init__("\n".join(report.problems()))
        self.report = report


class CatalogueProblem(Exception):
    """A verified case that still cannot be published (``check`` reports the same lines)."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


class CaseItem(pytest.Item):
    """One question of a case replayed through the engine (a whole draft case when
    ``question`` is None)."""

    def __init__(
        self, *, case: Case, question: str | None, line: int | None = None, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.case, self.question, self.line = case, question, line or case.line

    def runtest(self) -> None:
        assert isinstance(self.parent, CaseFile)
        report = self.parent.report
        if self.question == CATALOGUE:
            if not report.verified:
                raise pytest.skip.Exception(
                    "judged once the engine agrees with the case's answers",
                    _use_item_location=True,
                )
            if report.unassigned:
                raise CatalogueProblem(
                    [
                        f"{shown_path(self.path, self.config.rootpath)}:{self.case.line}: case"
                        f" {self.case.id!r}: no question owns {', '.join(report.unassigned)}"
                    ]
                )
            self._check_publishable(report)
            return
        if self.question is not None:
            asked = report.on_question(self.question)
            if not asked.verified:
                raise CaseDrift(asked)
            return
        if not report.verified:
            raise CaseDrift(report)
        self._check_publishable(report)
        if self.case.draft:
            verdicts = (
                ", ".join(
                    f"stone {check.verdict.stone} {check.verdict.verdict.label}"
                    for check in report.checks
                )
                if self.case.asks_about_claims_only
                else report.verdict_label
            )
            # Reported at the case (reportinfo), not at this line of the plugin; the summary
            # of drafts is made from the reports, so it also works across pytest-xdist workers.
            raise pytest.skip.Exception(
                f"{DRAFT_SKIP}{self.case.id!r} is not published; the engine says {verdicts}",
                _use_item_location=True,
            )

    def _check_publishable(self, report: CaseReport) -> None:
        root = self.config.rootpath
        problems = unmet_guards((report,), root)
        pages_dir = str(self.config.getini(PAGES_DIR_INI))
        if pages_dir:
            problems += unshown_topics((report,), topic_pages(site_pages(root / pages_dir)), root)
        if problems:
            raise CatalogueProblem(problems)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, CaseDrift):
            return "\n".join(excinfo.value.report.explained_problems(self.config.rootpath))
        if isinstance(excinfo.value, CatalogueProblem):
            return "\n".join(excinfo.value.problems)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        what = f"case {self.case.id}"
        return (
            self.path,
            self.line - 1,
            what if self.question is None else f"{what}, {self.question}",
        )


DRAFT_SKIP = "draft case "


class DraftList:
    """The skipped drafts, gathered from the test reports: the one place every pytest-xdist
    worker's results reach, so the list is whole however the run is spread."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.drafts: list[str] = []

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if not report.skipped or not isinstance(report.longrepr, tuple):
            return
        path, line, message = report.longrepr
        if message.removeprefix("Skipped: ").startswith(DRAFT_SKIP):
            where = f"{shown_path(Path(path), self.root)}:{line}"
            self.drafts.append(f"{report.nodeid.rsplit('::', 1)[-1]} ({where})")

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.drafts:
            terminalreporter.section("draft cases (checked, not published)")
            for line in self.drafts:
                terminalreporter.write_line(line)
