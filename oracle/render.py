"""Render verified cases and the rules index into Markdown with the Jinja templates of the site.

A plain function of its inputs: the mkdocs hook calls it, and any other site generator could. The
verdict shown is always the engine's, computed here, never the one written in a case file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import jinja2

from oracle.loader import load_cases, load_rules_index
from oracle.model import RuleEntry, RulesIndex
from oracle.verify import CaseReport, verify_case
from oracle.yamlsource import SourceError

CASES_DIR = "cases"
RULES_INDEX = "rules/index.yaml"
TEMPLATES_DIR = "site_src/_templates"

MARKER = re.compile(r"<!--\s*oracle:([a-z0-9-]+)\s*-->")
"""Where a page asks for generated content: ``<!-- oracle:verdict-table -->``."""


class CatalogueError(Exception):
    """The catalogue cannot be published: each line names a case or file and what is wrong."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Catalogue:
    """Every case replayed, and the rules index: what the site is rendered from."""

    reports: tuple[CaseReport, ...]
    rules: RulesIndex
    problems: tuple[str, ...] = ()
    """One located line per case file that is invalid, drifted or that the engine cannot judge."""

    @property
    def published(self) -> tuple[CaseReport, ...]:
        """The verified, non-draft cases, in table order."""
        return tuple(report for report in self.reports if report.publishable)

    @property
    def drafts(self) -> tuple[CaseReport, ...]:
        """The draft cases: checked, not published."""
        return tuple(report for report in self.reports if report.case.draft)


def build_catalogue(root: Path) -> Catalogue:
    """Load and replay every case of the project at ``root``, collecting what is wrong.

    Raises :class:`CatalogueError` only when the rules index itself cannot be read.
    """
    try:
        rules = load_rules_index(root / RULES_INDEX)
    except SourceError as error:
        raise CatalogueError([error.located_from(root)]) from None
    collection = load_cases(root / CASES_DIR, rules, root)
    problems = [error.located_from(root) for error in collection.errors]
    reports = tuple(verify_case(case) for case in collection.cases)
    for report in reports:
        problems += report.explained_problems(root)
    return Catalogue(reports, rules, tuple(problems))


def verified_catalogue(root: Path) -> Catalogue:
    """:func:`build_catalogue`, raising :class:`CatalogueError` with every problem it found.

    A case file that is invalid, drifted (the engine disagrees with its expected verdict) or that
    the engine cannot judge makes the whole catalogue unpublishable.
    """
    catalogue = build_catalogue(root)
    if catalogue.problems:
        raise CatalogueError(list(catalogue.problems))
    return catalogue


def _cell(text: str) -> str:
    """Text made safe for one Markdown table cell."""
    return " ".join(text.split()).replace("|", "\\|")


def template_environment(templates: Path) -> jinja2.Environment:
    """The Jinja environment over the site's templates; undefined names are errors."""
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
    )
    environment.filters["cell"] = _cell
    return environment


def render_verdict_table(reports: tuple[CaseReport, ...], templates: Path) -> str:
    """The verdict table of the given verified cases, in their order."""
    unverified = [report.case.id for report in reports if not report.publishable]
    if unverified:
        raise CatalogueError(
            [f"case {case_id!r} is not verified and cannot be published" for case_id in unverified]
        )
    return (
        template_environment(templates).get_template("verdict_table.md.j2").render(reports=reports)
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
    anchor: str
    checked_by: tuple[str, ...]


def ruling_anchor(entry: RuleEntry) -> str:
    """The HTML anchor of a ruling on the rulings page: its id with dots as hyphens."""
    return entry.id.replace(".", "-")


def render_rulings(rules: RulesIndex, templates: Path, reports: tuple[CaseReport, ...] = ()) -> str:
    """Every ruling of the rules index with its reason, grouped by section.

    Under each ruling, the situations of the verified ``reports`` whose cases pin it.
    """
    sections = []
    for title in rules.sections():
        rulings = tuple(
            _Ruling(
                entry.title,
                entry.text,
                entry.reason or "",
                ruling_anchor(entry),
                tuple(report.case.situation for report in reports if entry.id in report.case.rules),
            )
            for entry in rules.rulings()
            if entry.section == title
        )
        if rulings:
            sections.append(_Section(title, rulings))
    return template_environment(templates).get_template("rulings.md.j2").render(sections=sections)


def generated_blocks(catalogue: Catalogue, templates: Path) -> dict[str, Callable[[], str]]:
    """What each page marker turns into, rendered on demand."""
    return {
        "verdict-table": lambda: render_verdict_table(catalogue.published, templates),
        "rulings": lambda: render_rulings(catalogue.rules, templates, catalogue.published),
    }


def fill_markers(
    markdown: str, blocks: Mapping[str, Callable[[], str]], page: str
) -> tuple[str, set[str]]:
    """Replace each ``<!-- oracle:NAME -->`` marker; return the page and the names it used."""
    used: set[str] = set()

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in blocks:
            raise CatalogueError(
                [
                    f"{page}: unknown marker 'oracle:{name}';"
                    f" the markers are {', '.join(sorted(blocks))}"
                ]
            )
        used.add(name)
        return blocks[name]()

    return MARKER.sub(replace, markdown), used
