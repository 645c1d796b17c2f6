"""Render verified cases and the rules index into Markdown with the Jinja templates of the site.

Plain functions of their inputs: the MkDocs plugin calls them, and any other site generator could.
The verdict shown is always the engine's, computed here, never the one written in a case file.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from oracle.casefile.model import RuleChange, RuleEntry, RulesIndex
from oracle.casefile.source import shown_path
from oracle.catalogue import Catalogue, CatalogueError
from oracle.site.casepages import (
    CasePageSource,
    case_page_uri,
    link_from,
    render_case_page_source,
    table_data,
)
from oracle.site.history import answer_since, changes_by_date, moved_cases
from oracle.site.markup import Markup, anchor, rendered, template_environment
from oracle.verify.report import CaseReport
from oracle.verify.walkthrough import WalkthroughError, replay_walkthrough


def render_verdict_table(
    reports: tuple[CaseReport, ...], templates: Path, page: str = "index.md"
) -> str:
    """The verdict table of the given verified cases, in their order, as shown on ``page``.

    Each row links to its case's page; the rows' facts ride along for the table's filters.
    """
    unverified = [report.case.id for report in reports if not report.publishable]
    if unverified:
        raise CatalogueError(
            [f"case {case_id!r} is not verified and cannot be published" for case_id in unverified]
        )
    refused = all(report.case.impossible is not None for report in reports)
    template = "impossible_table.md.j2" if reports and refused else "verdict_table.md.j2"
    return render_rows(template, reports, templates, page)


def render_rows(
    template: str, reports: tuple[CaseReport, ...], templates: Path, page: str
) -> Markup:
    """A table of cases: each row linked to its case's page, with the facts its filters use."""
    links = [link_from(page, case_page_uri(report.case)) for report in reports]
    return rendered(
        template_environment(templates),
        template,
        reports=reports,
        links=links,
        data=table_data(reports),
    )


@dataclass(frozen=True)
class _Section:
    title: str
    rulings: tuple[_Ruling, ...]


@dataclass(frozen=True)
class _Ruling:
    title: str
    text: str
    reason: str
    """Why we ruled so (empty for a rule of the game)."""
    applies: str
    """Where the ruling holds, in words."""
    unpinned: tuple[str, str] | None
    """The version no case can pin it in, in words, and why."""
    anchor: Markup
    checked_by: tuple[tuple[str, Markup], ...]
    """The situation of each case that pins the ruling, with the link to its page."""
    history: tuple[tuple[RuleChange, tuple[tuple[str, Markup | None, str], ...]], ...] = ()
    """Each change of the ruling, with the cases it moved (linked where published)."""
    is_ruling: bool = True
    """Whether it is our ruling, or a rule of the game."""


def _moved(
    step: RuleChange, reports: tuple[CaseReport, ...], page: str
) -> tuple[tuple[str, Markup | None, str], ...]:
    """The cases a change moved, each linked to its page when it is published, with each of
    its answers before and after where the step records them (``old -> new``)."""
    return tuple(
        (
            case_id,
            None if case is None else link_from(page, case_page_uri(case)),
            "; ".join(f"{q}: {then} -> {now}" for c, q, then, now in step.answers if c == case_id),
        )
        for case_id, case in moved_cases(step, (report.case for report in reports))
    )


def render_changes(
    rules: RulesIndex, templates: Path, reports: tuple[CaseReport, ...], page: str
) -> str:
    """The What changed page's list: every change of a rule or ruling, newest first, with why,
    its source and the answers that moved."""
    days = [
        (
            date,
            [
                (
                    entry,
                    link_from(page, f"rulings.md#{ruling_anchor(entry)}"),
                    step,
                    _moved(step, reports, page),
                )
                for entry, step in steps
            ],
        )
        for date, steps in changes_by_date(rules)
    ]
    return rendered(template_environment(templates), "changes.md.j2", days=days)


VERSION_WORDS = {"base": "the base game", "tactics": "the tactics variant"}
APPLIES_WORDS = {"both": "the base game and the tactics variant", **VERSION_WORDS}


def ruling_anchor(entry: RuleEntry) -> Markup:
    """The HTML anchor of a rule or ruling on the rulings page: its id with dots as hyphens."""
    return anchor(entry.id.replace(".", "-"))


def render_citation(entry: RuleEntry, templates: Path, page: str) -> Markup:
    """A rule or ruling cited on ``page`` (``<!-- oracle:rule ID -->``): its title and text as
    the rules index words them, linked to it on the Rulings page."""
    link = link_from(page, f"rulings.md#{ruling_anchor(entry)}")
    return rendered(template_environment(templates), "rule_citation.md.j2", entry=entry, link=link)


def render_rulings(
    rules: RulesIndex,
    templates: Path,
    reports: tuple[CaseReport, ...] = (),
    page: str = "rulings.md",
) -> str:
    """Every rule and ruling of the rules index (a ruling with its reason), grouped by section.

    Under each, the situations of the verified ``reports`` whose cases pin it, each
    linking to its case's page (links relative to ``page``).
    """
    sections = []
    for title in rules.sections():
        rulings = tuple(
            _Ruling(
                entry.title,
                entry.text,
                entry.reason or "",
                APPLIES_WORDS[entry.applies],
                None
                if entry.unpinned_in is None
                else (VERSION_WORDS[entry.unpinned_in[0]], entry.unpinned_in[1]),
                ruling_anchor(entry),
                tuple(
                    (report.case.situation, link_from(page, case_page_uri(report.case)))
                    for report in reports
                    if entry.id in report.case.rules
                ),
                tuple((step, _moved(step, reports, page)) for step in entry.history),
                entry.is_ruling,
            )
            for entry in rules.entries
            if entry.section == title
        )
        if rulings:
            sections.append(_Section(title, rulings))
    return rendered(template_environment(templates), "rulings.md.j2", sections=sections)


def render_walkthrough(record: Path, templates: Path, root: Path | None = None) -> str:
    """The recorded game at ``record``, replayed by the engine and shown turn by turn."""
    try:
        game = replay_walkthrough(record.read_text(encoding="utf-8"), record, root)
    except OSError as error:
        raise CatalogueError([f"{shown_path(record, root)}: {error.strerror}"]) from None
    except WalkthroughError as error:
        raise CatalogueError([str(error)]) from None
    return rendered(template_environment(templates), "walkthrough.md.j2", game=game)


def catalogue_summary(catalogue: Catalogue) -> str:
    """One sentence: how many cases are published, in how many topics."""
    published = catalogue.published
    topics = len({report.case.topic for report in published})
    return (
        f"The catalogue publishes **{len(published)} cases** in {topics} topics, every one"
        " replayed by the engine at this build."
    )


def render_case_pages(
    catalogue: Catalogue,
    templates: Path,
    topics: Mapping[str, str],
    root: Path | None = None,
    added: Mapping[Path, str] | None = None,
) -> CasePages:
    """Every published case's page, by its source path in the site; ``added`` gives the day
    each case file was added, where the build knows it (:func:`oracle.site.history.files_added`).
    Each page is rendered when it is asked for, so a large catalogue's pages are never all held
    at once."""
    return CasePages(catalogue, templates, topics, root, added or {})


class CasePages(Mapping[str, str]):
    """The Markdown of each published case's page by its source path in the site, rendered
    anew each time it is asked for (:func:`render_case_pages`)."""

    def __init__(
        self,
        catalogue: Catalogue,
        templates: Path,
        topics: Mapping[str, str],
        root: Path | None,
        added: Mapping[Path, str],
    ) -> None:
        self._rules = catalogue.rules
        self._template = template_environment(templates).get_template("case_page.md.j2")
        self._topics = dict(topics)
        self._root = root
        self._added = added
        self._reports = {case_page_uri(report.case): report for report in catalogue.published}
        # The text each case was read from, the one verified: a page shows the file as verified
        # even if an editor saves it meanwhile (line breaks as a text file reads them).
        self._sources = {
            uri: report.case.text.replace("\r\n", "\n").replace("\r", "\n")
            for uri, report in self._reports.items()
        }

    def __getitem__(self, uri: str) -> str:
        return self.source(uri).whole

    def source(self, uri: str) -> CasePageSource:
        """The page's Markdown with its board held apart until it is converted (as the site
        build converts it: :class:`oracle.site.casepages.CasePageSource`)."""
        report = self._reports[uri]
        return render_case_page_source(
            report,
            self._sources[uri],
            self._rules,
            self._template,
            self._topics,
            self._root,
            answer_since(report.case, self._rules, self._added),
        )

    def __contains__(self, uri: object) -> bool:
        return uri in self._reports  # Mapping's own would render the page to find out

    def __iter__(self) -> Iterator[str]:
        return iter(self._reports)

    def __len__(self) -> int:
        return len(self._reports)

    def situation(self, uri: str) -> str | None:
        """The situation of the case whose page is ``uri`` (its title), or None for a page that
        is not a case's."""
        report = self._reports.get(uri)
        return None if report is None else report.case.situation


def unplaced_cases(catalogue: Catalogue, shown: set[str], root: Path | None = None) -> list[str]:
    """The published cases that no page shows, as located lines: nothing may be lost."""
    return [
        f"{report.case.named_at(root)}"
        f" (topic {report.case.topic!r}) is in no"
        f" table; add <!-- oracle:verdict-table {report.case.topic} --> to a page"
        for report in catalogue.published
        if report.case.id not in shown
    ]
