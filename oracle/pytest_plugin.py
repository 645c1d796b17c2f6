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

from oracle.loader import CaseError, duplicate_id_error, load_case_file, load_rules_index
from oracle.model import Case, RulesIndex
from oracle.verify import CaseReport, verify_case
from oracle.yamlsource import SourceError, shown_path

CASE_DIRS_INI = "oracle_case_dirs"
RULES_INDEX_INI = "oracle_rules_index"

_rules_key = pytest.StashKey[RulesIndex | SourceError]()
_ids_key = pytest.StashKey[dict[str, Case]]()
_drafts_key = pytest.StashKey[list[str]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        CASE_DIRS_INI,
        type="paths",
        default=[],
        help="directories whose *.yaml files are Schotten Totten rules cases; nothing is"
        " collected until a project names them (this project: cases)",
    )
    parser.addini(
        RULES_INDEX_INI,
        default="rules/index.yaml",
        help="the rules index that cases pin rule ids from (default: rules/index.yaml)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_ids_key] = {}
    config.stash[_drafts_key] = []


def _case_dirs(config: pytest.Config) -> list[Path]:
    raw: list[Path] = config.getini(CASE_DIRS_INI)
    return [Path(directory).resolve() for directory in raw]


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


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix not in (".yaml", ".yml"):
        return None
    resolved = file_path.resolve()
    if any(resolved.is_relative_to(directory) for directory in _case_dirs(parent.config)):
        collector: CaseFile = CaseFile.from_parent(parent, path=file_path)
        return collector
    return None


class CaseFile(pytest.File):
    """One case file: it yields one item, or fails collection with a located message."""

    def collect(self) -> Iterator[CaseItem]:
        case = load_case_file(self.path, _rules_index(self.config))
        ids = self.config.stash[_ids_key]
        first = ids.setdefault(case.id, case)
        if first is not case:
            raise duplicate_id_error(case, first, self.config.rootpath)
        yield CaseItem.from_parent(self, name=case.id, case=case)

    def repr_failure(  # type: ignore[override]  # the same narrowing as pytest's Collector
        self, excinfo: pytest.ExceptionInfo[BaseException]
    ) -> Any:
        if isinstance(excinfo.value, SourceError):
            return excinfo.value.located_from(self.config.rootpath)
        return super().repr_failure(excinfo)


class CaseDrift(Exception):
    """The engine disagrees with a case (or cannot judge it)."""

    def __init__(self, report: CaseReport) -> None:
        super().__init__("\n".join(report.problems()))
        self.report = report


class CaseItem(pytest.Item):
    """One case replayed through the engine."""

    def __init__(self, *, case: Case, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        report = verify_case(self.case)
        if not report.verified:
            raise CaseDrift(report)
        if self.case.draft:
            verdicts = (
                ", ".join(
                    f"stone {check.verdict.stone} {check.verdict.verdict.label}"
                    for check in report.checks
                )
                if self.case.asks_about_claims_only
                else report.verdict_label
            )
            where = f"{shown_path(self.case.path, self.config.rootpath)}:{self.case.line}"
            self.config.stash[_drafts_key].append(f"{self.case.id} ({where})")
            # Reported at the case (reportinfo), not at this line of the plugin.
            raise pytest.skip.Exception(
                f"draft case {self.case.id!r} is not published; the engine says {verdicts}",
                _use_item_location=True,
            )

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, CaseDrift):
            return "\n".join(excinfo.value.report.explained_problems(self.config.rootpath))
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.case.line - 1, f"case {self.case.id}"


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    drafts = config.stash.get(_drafts_key, [])
    if drafts:
        terminalreporter.section("draft cases (checked, not published)")
        for line in drafts:
            terminalreporter.write_line(line)
