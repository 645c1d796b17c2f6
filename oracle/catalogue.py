"""The catalogue: every case replayed, what is published, and every check publishing needs.

One object knows what the project publishes and what stands in its way. The CLI's ``check``, the
pytest plugin and the site build all make it with :func:`build_catalogue` and report its
:attr:`Catalogue.problems`, so they report the same problems in the same words: a case file
that does not load, a case the engine disagrees with or cannot judge, a misreading a case names
but does not catch, a topic no page shows, a page the navigation leaves out, an editors' schema
out of date, the rules index broken, and what the catalogue as a whole must still cover
(``coverage.yaml``: the rows the pages' text refers to by their place, every misreading caught,
every cell of the grid of early claims).
"""

from __future__ import annotations

import datetime
import inspect
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import Any

import engine
from engine import Rulings
from oracle.casefile.errors import CaseError
from oracle.casefile.loader import CaseCollection, ReadCases, load_cases
from oracle.casefile.model import Case, RulesIndex
from oracle.casefile.rules import rules_index_of_text, rules_index_text, unknown_moved
from oracle.casefile.schema import EDITOR_SCHEMA, stale_editor_schema
from oracle.casefile.source import SourceError, shown_path
from oracle.casefile.vocabulary import CASES_DIR, RULES_INDEX
from oracle.citations import citation_problems
from oracle.coverage import COVERAGE, coverage_problems
from oracle.judges.misreadings import MISREADINGS
from oracle.misreadings.cache import MisreadingCache
from oracle.misreadings.matrix import MatrixRow, Outcome, misreading_matrix, outcome
from oracle.problems import Problem
from oracle.sitepages import MARKER, nav_pages, site_pages, topic_pages
from oracle.verify.replay import verify_case
from oracle.verify.report import CaseReport, answers_digest, same_answers

PAGES_DIR = "site_src"
"""The site's pages, whose markers place each topic's table."""

SITE_CONFIG = "mkdocs.yml"
"""The site's configuration, whose navigation must list every page that shows a topic."""


class CatalogueError(Exception):
    """The catalogue cannot be published: each line names a case or file and what is wrong."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


class Catalogue:
    """Every case of a project, replayed when asked, the rules index, and every problem
    publishing has. Each case is replayed once, when its report or the whole catalogue's
    problems are first asked for: a test item of one case replays only that case."""

    def __init__(
        self,
        root: Path,
        rules: RulesIndex,
        collection: CaseCollection,
        whole_problems: Sequence[Problem],
        cache: MisreadingCache,
        index_error: SourceError | None = None,
        kept: Kept | None = None,
    ) -> None:
        self.root = root
        self.index_error = index_error
        """Why the rules index cannot be read, if it cannot."""
        self.rules = rules
        self.collection = collection
        self.cache = cache
        self._whole_problems = list(whole_problems)
        self.shown_topics = topic_pages(site_pages(root / PAGES_DIR))
        self._reports: dict[Path, CaseReport] = {}
        self.kept = kept or Kept()
        """What this catalogue has read and replayed, shared with the catalogues built with it."""

    @property
    def index_readable(self) -> bool:
        """Whether the rules index could be read."""
        return self.index_error is None

    def report_of(self, case: Case) -> CaseReport:
        """``case`` replayed through the engine (once, and once for every catalogue built with
        the same :class:`Kept` for the same case read by the loader, wherever its file lies)."""
        if case.path not in self._reports:
            report = self.kept.report_of(case)
            self._reports[case.path] = report if report.case is case else replace(report, case=case)
        return self._reports[case.path]

    @cached_property
    def reports(self) -> tuple[CaseReport, ...]:
        """Every case that loaded, replayed, in table order."""
        return tuple(self.report_of(case) for case in self.collection.cases)

    @cached_property
    def published(self) -> tuple[CaseReport, ...]:
        """The verified, non-draft cases, in table order (worked out once: a site build's pages
        ask for them about twenty times)."""
        return tuple(report for report in self.reports if report.publishable)

    @property
    def drafts(self) -> tuple[CaseReport, ...]:
        """The draft cases: checked, not published."""
        return tuple(report for report in self.reports if report.case.draft)

    @cached_property
    def matrix(self) -> tuple[MatrixRow, ...]:
        """Every published case under every misreading (worked out once)."""
        return misreading_matrix(self.published, self.cache)

    def let_go_of_working(self) -> None:
        """Forget what was kept while the catalogue was checked, once its problems, reports and
        misreading matrix are made: the cases read by their text and replayed by case (its own
        reports stay), and the misread answers held in memory. A site build holds the catalogue
        while it writes every page, and these are about 20 KB a case; whatever is asked again
        is read or worked out again (the misread answers from the store, a case at a time)."""
        self.problems  # noqa: B018  # each made before letting go, as the site shows them
        self.reports  # noqa: B018
        self.matrix  # noqa: B018
        self.kept = Kept()
        self.cache.save()
        self.cache = MisreadingCache(self.cache.store.parent)

    def case_problems(self, case: Case) -> list[Problem]:
        """Everything that stops ``case`` from being published: where the engine disagrees with
        it or cannot judge it, a check no question owns, a misreading it names but does not
        catch, a topic no page shows, a page of its topic the navigation leaves out."""
        report = self.report_of(case)
        found = _verify_problems(report, self.root)
        found += unmet_guards((report,), self.cache, self.root)
        found += unshown_topics((report,), self.shown_topics, self.root)
        found += [p for p in self.nav_problems if p.topic == case.topic and report.publishable]
        found += [p for p in self.duplicates if p.file == case.path]
        found += unreviewed_prose(report, self.root)
        return found

    @cached_property
    def duplicates(self) -> list[Problem]:
        """A published case that gives the same answers as an earlier one, reasons included,
        and catches the same misreadings: it checks nothing the first does not. Only cases
        whose answers match another's are run under the misreadings (most match none)."""
        groups: dict[object, list[CaseReport]] = {}
        for report in self.published:
            if report.case.impossible is None:
                groups.setdefault(same_answers(report), []).append(report)
        alike = tuple(report for group in groups.values() if len(group) > 1 for report in group)
        found = duplicate_cases(misreading_matrix(alike, self.cache), self.root) if alike else []
        return found + unneeded_twins(self.published, self.root)

    @cached_property
    def whole_problems(self) -> list[Problem]:
        """The problems of no case file: the rules index, the editors' schema, a site
        configuration that cannot be read."""
        found = ruling_contradictions() + self._whole_problems
        found += [p for p in self.nav_problems if p.topic is None]
        if self.index_readable:  # each case a history says moved is a case
            ids = frozenset(case.id for case in self.collection.cases)
            found += [
                Problem(line)
                for e in unknown_moved(self.rules, ids)
                for line in e.lines_from(self.root)
            ]
        if self.index_readable and (self.root / PAGES_DIR).is_dir():  # pages citing rules
            pages = site_pages(self.root / PAGES_DIR)
            found += [Problem(line) for line, _ in citation_problems(pages, self.rules, self.root)]
        return found

    @property
    def expects_coverage(self) -> bool:
        """Whether the project says what its catalogue must cover (:data:`COVERAGE`)."""
        return (self.root / COVERAGE).is_file()

    @cached_property
    def coverage_problems(self) -> list[Problem]:
        """What the published catalogue as a whole does not cover of what :data:`COVERAGE` asks
        (every published case replayed, and run under the misreadings if it asks for that)."""
        if not self.expects_coverage:
            return []
        return coverage_problems(self)

    @cached_property
    def nav_problems(self) -> list[Problem]:
        """The pages showing a topic's table that the site's navigation leaves out."""
        return pages_missing_from_nav(self.root, self.shown_topics, self.kept)

    @cached_property
    def problems(self) -> tuple[Problem, ...]:
        """Every problem publishing has, in the order a reader fixes them: the whole
        catalogue's, then each case file's."""
        found = list(self.whole_problems)
        found += _load_problems(self.collection, self.root)
        for case in self.collection.cases:
            found += self.case_problems(case)
        listed = {problem.line for problem in found}
        found += [problem for problem in self.nav_problems if problem.line not in listed]
        found += self.coverage_problems
        self.cache.save()
        return tuple(dict.fromkeys(found))

    @property
    def problem_lines(self) -> list[str]:
        """Every problem, as printed."""
        return [line for problem in self.problems for line in problem.lines]


class Kept:
    """What catalogues built with it keep of each other's work: the rules index and the cases
    read (by their text) and each case replayed (by the case the loader first read), so that a
    catalogue built again (several commands, a test session, a copy of the project) reads and
    replays only what changed. A catalogue made without one keeps its own; whoever patches the
    engine makes a new one."""

    def __init__(self) -> None:
        self.read = ReadCases()
        self.replayed: dict[int, tuple[Case, CaseReport]] = {}
        self.rules: dict[tuple[str, datetime.date], RulesIndex] = {}
        """Each rules index read, by its text and the day (a history's dates are real days up
        to today): a copy of the project's index elsewhere is the same index at another path."""
        self.site_configs: dict[tuple[Path, bytes, frozenset[tuple[str, str]]], Any] = {}
        """Each site configuration read, by its path, its text and the environment (its
        ``!relative`` and ``!ENV`` tags read both)."""

    def rules_index(self, path: Path) -> RulesIndex:
        """The rules index at ``path`` (:func:`load_rules_index`), read again only when its
        text changed; an index that cannot be read raises its problems, located at ``path``,
        each time."""
        text = rules_index_text(path)
        key = (text, datetime.date.today())
        index = self.rules.get(key)
        if index is None:
            if len(self.rules) >= ReadCases.LIMIT:
                self.rules.clear()
            index = self.rules[key] = rules_index_of_text(text, path, key[1])
        return index if index.path == path else replace(index, path=path)

    def site_config(self, path: Path) -> Any:
        """The site configuration at ``path`` read with MkDocs' own loader (its ``!ENV`` and
        ``!relative`` tags), read again only when its text or the environment changed."""
        from mkdocs.utils.yaml import yaml_load  # the site's packages: asked for only here

        key = (path, path.read_bytes(), frozenset(os.environ.items()))
        if key not in self.site_configs:
            if len(self.site_configs) >= ReadCases.LIMIT:
                self.site_configs.clear()
            with path.open(encoding="utf-8") as file:
                self.site_configs[key] = yaml_load(file)
        return self.site_configs[key]

    def report_of(self, case: Case) -> CaseReport:
        """``case`` replayed, once for every case the loader read from the same text."""
        if len(self.replayed) >= ReadCases.LIMIT:
            self.replayed.clear()
        first = self.read.first_read(case)
        known = self.replayed.get(id(first))
        if known is None or known[0] is not first:
            known = self.replayed[id(first)] = (first, verify_case(first))
        return known[1]


def build_catalogue(
    root: Path, cache: MisreadingCache | None = None, kept: Kept | None = None
) -> Catalogue:
    """Load every case of the project at ``root`` (replayed when asked), and the rules index;
    what ``kept`` holds from catalogues built before is not read or replayed again."""
    kept = kept or Kept()
    whole: list[Problem] = []
    index_error: SourceError | None = None
    try:
        rules = kept.rules_index(root / RULES_INDEX)
    except SourceError as error:  # the cases are still read, to say what else is wrong
        whole += [Problem(line) for line in error.lines_from(root)]
        rules, index_error = RulesIndex(root / RULES_INDEX, ()), error
        collection = load_cases(root / CASES_DIR, None, root, kept.read)
    else:
        collection = load_cases(root / CASES_DIR, rules, root, kept.read)
        stale = stale_editor_schema(root, rules)
        if stale is not None and (root / EDITOR_SCHEMA).parent.is_dir():
            whole.append(Problem(stale))
    cache = cache or MisreadingCache()
    return Catalogue(root, rules, collection, whole, cache, index_error, kept)


def _load_problems(collection: CaseCollection, root: Path) -> list[Problem]:
    return [
        Problem(line, file=error.path, topic=_topic(error))
        for error in collection.errors
        for line in error.lines_from(root)
    ]


def _topic(error: CaseError) -> str | None:
    """The topic of a case file in error (its folder); a file anywhere else has none."""
    return error.path.parent.name if error.path.suffix == ".yaml" else None


def _verify_problems(report: CaseReport, root: Path) -> list[Problem]:
    """Where the engine disagrees with a case or cannot judge it, and a check no question owns."""
    case = report.case
    found = [Problem.about(case, line, detail) for line, detail in report.explained(root)]
    if report.verified and report.unassigned:
        found.append(
            Problem.about(
                case,
                f"{case.named_at(root)}: no question owns {', '.join(report.unassigned)}",
            )
        )
    return found


def unreviewed_prose(report: CaseReport, root: Path) -> list[Problem]:
    """A published case whose situation and why were never confirmed (no ``reviewed:``), or
    were last read for other answers or other texts of the rules it pins: the prose may argue
    for another answer, or restate a rule that changed, so it waits for an editor."""
    case = report.case
    if not report.publishable or case.prose_reviewed:
        return []
    problem = (
        "its situation and why were never confirmed for its answers (no reviewed:)"
        if case.reviewed is None
        else "its answers, or the texts of the rules it pins, changed since its situation and"
        " why were last read for them"
    )
    return [
        Problem.about(
            case,
            f"{case.named_at(root)}: {problem}; read them again, and the rules it pins"
            f" ({', '.join(case.rules) or 'none'}), then run schotten-oracle pin --reviewed"
            f" {shown_path(case.path, root)}",
        )
    ]


def unmet_guards(
    reports: Iterable[CaseReport], cache: MisreadingCache, root: Path | None = None
) -> list[Problem]:
    """A located line for each misreading a verified case names but does not catch."""
    found = []
    for report in reports:
        if not report.verified:
            continue
        for name in report.case.guards_against:
            result = outcome(report, MISREADINGS[name], cache)
            if result is Outcome.FLIPS:
                continue
            why = "gives the same answer" if result is Outcome.SAME else "does not apply to it"
            found.append(
                Problem.about(
                    report.case,
                    f"{report.case.named_at(root)} says it guards against {name!r}, but that"
                    f" misreading {why}",
                )
            )
    return found


def published_answers(catalogue: Catalogue) -> dict[str, dict[str, str]]:
    """Each published case that builds a board, by :func:`answers_digest`: its id and topic."""
    return {
        answers_digest(report): {"id": report.case.id, "topic": report.case.topic}
        for report in catalogue.published
        if report.case.impossible is None
    }


def duplicate_cases(rows: Iterable[MatrixRow], root: Path | None = None) -> list[Problem]:
    """A located line for each case whose answers (each verdict with its reason, each answer
    about the game) and caught misreadings are those of an earlier case of its variant."""
    first: dict[object, Case] = {}
    found = []
    for row in rows:
        case = row.report.case
        earlier = first.setdefault((same_answers(row.report), row.caught), case)
        if earlier is not case and not _twins(case, earlier):
            found.append(
                Problem.about(
                    case,
                    f"{case.named_at(root)} gives the same answers as case {earlier.id!r}"
                    f" ({shown_path(earlier.path, root)}:{earlier.line}) and catches the same"
                    " misreadings: merge the two, make one ask or catch what the other does not,"
                    f" or keep it on purpose with twin_of: {{case: {earlier.id}, because: what it"
                    " asks with fewer features}",
                )
            )
    return found


def _twins(case: Case, other: Case) -> bool:
    """Whether one of the two cases names the other in its ``twin_of:``."""
    return any(
        first.twin_of is not None and first.twin_of.case_id == second.id
        for first, second in ((case, other), (other, case))
    )


def unneeded_twins(reports: Sequence[CaseReport], root: Path) -> list[Problem]:
    """A located line for each ``twin_of:`` that names no published case, or one whose answers
    are not this case's (it is no twin: the key only keeps a duplicate on purpose)."""
    by_id = {report.case.id: report for report in reports}
    found = []
    for report in reports:
        twin = report.case.twin_of
        if twin is None:
            continue
        other = by_id.get(twin.case_id)
        if other is None:
            why = f"names {twin.case_id!r}, which is no published case"
        elif same_answers(other) != same_answers(report):
            why = f"names {twin.case_id!r}, whose answers are not this case's: remove twin_of"
        else:
            continue
        found.append(
            Problem.about(
                report.case,
                f"{shown_path(report.case.path, root)}:{twin.line}: twin_of {why}",
            )
        )
    return found


def unshown_topics(
    reports: Iterable[CaseReport], shown_topics: Mapping[str, str], root: Path
) -> list[Problem]:
    """A located line for each publishable case whose topic no page of the site shows (in a
    project whose site has pages: one without publishes nothing)."""
    if not (root / PAGES_DIR).is_dir():
        return []
    return [
        Problem.about(
            report.case,
            f"{report.case.named_at(root)}:"
            f" no page shows the topic {report.case.topic!r}; add"
            f" <!-- oracle:verdict-table {report.case.topic} --> to a page in {PAGES_DIR}/",
        )
        for report in reports
        if report.publishable and report.case.topic not in shown_topics
    ]


def ruling_contradictions(rulings: Rulings | None = None) -> list[Problem]:
    """A line for each reason the engine's rulings cannot stand together, located at the line of
    :data:`engine.RULINGS` that sets them in ``engine/proof/rulings.py`` (an editor's flip of one
    ruling that another follows from)."""
    reasons = (engine.RULINGS if rulings is None else rulings).contradictions()
    if not reasons:
        return []
    source = inspect.getsourcefile(Rulings)  # engine/proof/rulings.py, the rulings' one home
    lines = Path(str(source)).read_text(encoding="utf-8").splitlines()
    line = 1 + next((n for n, text in enumerate(lines) if text.startswith("RULINGS = ")), 0)
    return [Problem(f"engine/proof/rulings.py:{line}: {reason}") for reason in reasons]


def verified_catalogue(
    root: Path, cache: MisreadingCache | None = None, kept: Kept | None = None
) -> Catalogue:
    """:func:`build_catalogue`, raising :class:`CatalogueError` with every problem it found."""
    catalogue = build_catalogue(root, cache, kept)
    if catalogue.problems:
        raise CatalogueError(catalogue.problem_lines)
    return catalogue


# ------------------------------------------------------------------------------ the site's pages


def pages_missing_from_nav(
    root: Path, shown_topics: Mapping[str, str], kept: Kept | None = None
) -> list[Problem]:
    """A line for each page showing a topic's table that the site's navigation leaves out,
    read from ``mkdocs.yml`` with MkDocs' own loader (its ``!ENV`` and ``!relative`` tags; by
    ``kept``, whose catalogues read each configuration once)."""
    path = root / SITE_CONFIG
    if not path.exists() or not shown_topics:
        return []  # a project without a site publishes nothing to navigate
    try:
        config = (kept or Kept()).site_config(path)
    except ImportError:
        return [
            Problem(
                f"{SITE_CONFIG}: the site's navigation cannot be checked without MkDocs;"
                " install the site's packages (pip install -e '.[site]')"
            )
        ]
    except (OSError, ValueError) as error:
        return [Problem(f"{SITE_CONFIG}: cannot be read to check its nav: {error}")]
    if not isinstance(config, dict) or "nav" not in config:
        return []  # without a nav, MkDocs lists every page itself
    listed = nav_pages(config["nav"])
    return [
        Problem(
            f"{PAGES_DIR}/{page}: shows the table of {topic!r} but is not in the nav of"
            f" {SITE_CONFIG}; add it there, or the strict site build stops",
            topic=topic,
        )
        for topic, page in sorted(shown_topics.items())
        if page not in listed
    ]


__all__ = [
    "COVERAGE",
    "MARKER",
    "PAGES_DIR",
    "Catalogue",
    "CatalogueError",
    "Kept",
    "Problem",
    "build_catalogue",
    "coverage_problems",
    "pages_missing_from_nav",
    "published_answers",
    "site_pages",
    "topic_pages",
    "unmet_guards",
    "unshown_topics",
    "verified_catalogue",
]
