"""The pytest plugin: every case file under the case directories becomes a test.

Registered as a ``pytest11`` entry point. A published case gives one item per question, named
by the case's id and the question: ``last-three-in-your-hand[stone-3]``, ``...[play-2]``,
``...[turn]``, ``...[deal]``, ``...[match]``, ``...[board]`` (a board the engine must refuse),
and ``...[catalogue]`` (what publishing it needs: every misreading it names changes its answer,
a page shows its topic); ``-k`` selects by either part. A case file that cannot be loaded fails
its collection with a one-line ``path:line:`` error; a draft case is one item, skipped and
listed by name at the end of the run.

The plugin is a thin front end over :class:`oracle.catalogue.Catalogue`: the problems it reports
are the catalogue's, in the words ``schotten-oracle check`` and the site build use. As pytest
does for other files, ``pytest cases/claims`` runs one topic and ``pytest cases/claims/x.yaml``
one case, while the catalogue they belong to is read whole (duplicate ids, the pages that show
each topic).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from oracle.casefile.errors import CaseError
from oracle.casefile.model import Case
from oracle.casefile.source import SourceError, shown_path
from oracle.catalogue import COVERAGE, Catalogue, Problem, build_catalogue
from oracle.verify.report import CaseReport, questions_of

CASE_DIRS_INI = "oracle_case_dirs"
CATALOGUE = "catalogue"
"""The item of a published case that checks it can be published, and the name of the item that
reports the catalogue's problems that no case file has."""

COVERAGE_ITEM = "coverage"
"""The item that reports what the published catalogue as a whole does not cover of what
``coverage.yaml`` asks (every case replayed when it runs, not when it is collected)."""

_catalogues_key = pytest.StashKey[dict[Path, Catalogue]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        CASE_DIRS_INI,
        type="paths",
        default=[],
        help="directories whose *.yaml files are Schotten Totten rules cases, each the cases/"
        " folder of a project; nothing is collected until a project names them (this"
        " project: cases)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(DraftList(config.rootpath), "schotten-oracle-drafts")
    config.stash[_catalogues_key] = {}


def _case_dirs(config: pytest.Config) -> list[Path]:
    raw: list[Path] = config.getini(CASE_DIRS_INI)
    return [Path(directory).absolute() for directory in raw]


def catalogue_of(config: pytest.Config, case_dir: Path) -> Catalogue:
    """The catalogue of the project whose case folder is ``case_dir``, read once a run."""
    catalogues = config.stash[_catalogues_key]
    if case_dir not in catalogues:
        catalogues[case_dir] = build_catalogue(case_dir.parent)
    return catalogues[case_dir]


def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A case folder is collected from its catalogue, as ``check`` reads it."""
    if path.absolute() in _case_dirs(parent.config):
        folder: CaseFolder = CaseFolder.from_parent(parent, path=path)
        return folder
    return None


def pytest_sessionfinish(session: pytest.Session) -> None:
    for catalogue in session.config.stash.get(_catalogues_key, {}).values():
        catalogue.cache.save()  # the misreadings worked out for the [catalogue] items


class _LocatedFailure(pytest.Collector):
    """A collector whose failure to read a file is the file's located lines, no traceback."""

    def repr_failure(  # type: ignore[override]  # the same narrowing as pytest's Collector
        self, excinfo: pytest.ExceptionInfo[BaseException]
    ) -> Any:
        if isinstance(excinfo.value, SourceError):
            return "\n".join(excinfo.value.lines_from(self.config.rootpath))
        return super().repr_failure(excinfo)


class CaseFolder(pytest.Directory, _LocatedFailure):
    """A case folder: a :class:`TopicFolder` per topic, an entry at the top (never a case), and
    the catalogue's problems that no case file has, as one item."""

    def collect(self) -> Iterator[pytest.Collector | pytest.Item]:
        top = self.path.absolute()
        catalogue = catalogue_of(self.config, top)
        if catalogue.index_error is not None:  # no case can be read without it
            unusable = "the rules index cannot be used"
            raise CaseError.of_all(
                [
                    CaseError(error.path, error.line, f"{unusable}: {error.problem}")
                    for error in catalogue.index_error.every()
                ]
            )
        topics: dict[Path, None] = {}
        for path, result in catalogue.collection.entries:
            parts = path.absolute().relative_to(top).parts
            if len(parts) == 1 and not path.is_dir():
                yield _case_file(self, path, result)
            else:
                topics.setdefault(top / parts[0], None)
        for folder in topics:
            yield TopicFolder.from_parent(self, path=folder)
        if catalogue.whole_problems:
            yield CatalogueItem.from_parent(
                self, name=CATALOGUE, problems=tuple(catalogue.whole_problems)
            )
        if catalogue.expects_coverage:
            yield CoverageItem.from_parent(self, name=COVERAGE_ITEM, catalogue=catalogue)


class TopicFolder(pytest.Directory, _LocatedFailure):
    """A topic folder: its case files, or its own problem (an empty folder, a bad name)."""

    def collect(self) -> Iterator[pytest.Collector]:
        catalogue = catalogue_of(self.config, self.path.parent.absolute())
        for path, result in catalogue.collection.entries:
            if path.absolute() == self.path.absolute() and isinstance(result, CaseError):
                raise result
            if path.absolute().is_relative_to(self.path.absolute()):
                yield _case_file(self, path, result)


def _case_file(parent: pytest.Collector, path: Path, result: Case | CaseError) -> CaseFile:
    if str(path).isprintable():
        case_file: CaseFile = CaseFile.from_parent(parent, path=path, result=result)
        return case_file
    # A name holding a new line or an escape must not forge a line of the report.
    shown = shown_path(path, parent.config.rootpath)
    quoted: CaseFile = CaseFile.from_parent(
        parent, path=path, result=result, name=ascii(path.name), nodeid=shown
    )
    return quoted


class CaseFile(pytest.File, _LocatedFailure):
    """One case file: an item per question (one for a draft), or a located collection error."""

    def __init__(self, *, result: Case | CaseError, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.result = result

    @property
    def catalogue(self) -> Catalogue:
        folder = self.path.absolute()
        for case_dir in _case_dirs(self.config):
            if folder.is_relative_to(case_dir):
                return catalogue_of(self.config, case_dir)
        raise RuntimeError(f"{self.path} lies in no case folder")  # pragma: no cover

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


class CaseDrift(Exception):
    """The engine disagrees with a case (or cannot judge it)."""

    def __init__(self, report: CaseReport) -> None:
        super().__init__("\n".join(report.problems()))
        self.report = report


class CatalogueProblem(Exception):
    """What stops the catalogue, or a verified case, from being published."""

    def __init__(self, problems: list[Problem]) -> None:
        self.lines = [line for problem in problems for line in problem.lines]
        super().__init__("\n".join(self.lines))


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
        catalogue = self.parent.catalogue
        report = catalogue.report_of(self.case)
        if self.question == CATALOGUE:
            if not report.verified:
                raise pytest.skip.Exception(
                    "judged once the engine agrees with the case's answers",
                    _use_item_location=True,
                )
            self._publishable(catalogue)
            return
        if self.question is not None:
            asked = report.on_question(self.question)
            if not asked.verified:
                raise CaseDrift(asked)
            return
        if not report.verified:
            raise CaseDrift(report)
        self._publishable(catalogue)
        verdicts = (
            ", ".join(
                f"stone {check.verdict.stone} {check.verdict.verdict.label}"
                for check in report.checks
            )
            if self.case.asks_about_claims_only
            else report.verdict_label
        )
        # Reported at the case (reportinfo), not at this line of the plugin; the summary of
        # drafts is made from the reports, so it also works across pytest-xdist workers.
        raise pytest.skip.Exception(
            f"{DRAFT_SKIP}{self.case.id!r} is not published; the engine says {verdicts}",
            _use_item_location=True,
        )

    def _publishable(self, catalogue: Catalogue) -> None:
        """The catalogue's problems of this verified case: a misreading it names but does not
        catch, its topic on no page (the engine's answers are its questions' own items)."""
        problems = catalogue.case_problems(self.case)
        if problems:
            raise CatalogueProblem(problems)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, CaseDrift):
            return "\n".join(excinfo.value.report.explained_problems(self.config.rootpath))
        if isinstance(excinfo.value, CatalogueProblem):
            return "\n".join(excinfo.value.lines)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        what = f"case {self.case.id}"
        return (
            self.path,
            self.line - 1,
            what if self.question is None else f"{what}, {self.question}",
        )


class CatalogueItem(pytest.Item):
    """The catalogue's problems that no case file has (the editors' schema, say)."""

    def __init__(self, *, problems: tuple[Problem, ...], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.problems = problems

    def runtest(self) -> None:
        raise CatalogueProblem(list(self.problems))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, CatalogueProblem):
            return "\n".join(excinfo.value.lines)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return (self.path, 0, "the catalogue")


class CoverageItem(pytest.Item):
    """What the published catalogue as a whole does not cover of what ``coverage.yaml`` asks:
    the rows of a table the pages refer to, every misreading caught, every cell of the grid."""

    def __init__(self, *, catalogue: Catalogue, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.catalogue = catalogue

    def runtest(self) -> None:
        problems = self.catalogue.coverage_problems
        self.catalogue.cache.save()
        if problems:
            raise CatalogueProblem(problems)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, CatalogueProblem):
            return "\n".join(excinfo.value.lines)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return (self.catalogue.root / COVERAGE, 0, "what the catalogue covers")


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
