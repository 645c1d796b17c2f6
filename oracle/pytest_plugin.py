"""The pytest plugin: every case file under the case directories becomes a test.

Registered as a ``pytest11`` entry point. Each case is one item named by its id (``-k`` selects
it); a case file that cannot be loaded fails its collection with a one-line ``path:line:`` error;
a draft case is skipped and listed by name at the end of the run.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from oracle.loader import CaseError, load_cases, load_rules_index
from oracle.model import Case, RulesIndex
from oracle.render import site_pages, topic_pages, unmet_guards, unshown_topics
from oracle.verify import CaseReport, verify_case
from oracle.yamlsource import SourceError, shown_path

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
        raise CaseError(rules.path, rules.line, f"the rules index cannot be used: {rules.problem}")
    return rules


def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A case folder is collected by :func:`oracle.loader.load_cases`, as ``check`` reads it."""
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
            return excinfo.value.located_from(self.config.rootpath)
        return super().repr_failure(excinfo)


class CaseDirectory(pytest.Directory, _LocatedFailure):
    """A case folder: one :class:`CaseFile` per entry, whether it is a case or an error."""

    def collect(self) -> Iterator[CaseFile]:
        collection = load_cases(self.path, _rules_index(self.config), self.config.rootpath)
        for path, result in collection.entries:
            yield CaseFile.from_parent(self, path=path, result=result)


class CaseFile(pytest.File, _LocatedFailure):
    """One case file: it yields one item, or fails collection with a located message."""

    def __init__(self, *, result: Case | CaseError, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.result = result

    def collect(self) -> Iterator[CaseItem]:
        if isinstance(self.result, CaseError):
            raise self.result
        yield CaseItem.from_parent(self, name=self.result.id, case=self.result)


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
    """One case replayed through the engine."""

    def __init__(self, *, case: Case, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        report = verify_case(self.case)
        if not report.verified:
            raise CaseDrift(report)
        root = self.config.rootpath
        problems = unmet_guards((report,), root)
        pages_dir = str(self.config.getini(PAGES_DIR_INI))
        if pages_dir:
            problems += unshown_topics((report,), topic_pages(site_pages(root / pages_dir)), root)
        if problems:
            raise CatalogueProblem(problems)
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

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, CaseDrift):
            return "\n".join(excinfo.value.report.explained_problems(self.config.rootpath))
        if isinstance(excinfo.value, CatalogueProblem):
            return "\n".join(excinfo.value.problems)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.case.line - 1, f"case {self.case.id}"


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
