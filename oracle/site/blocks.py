"""What each ``<!-- oracle:NAME -->`` marker of a page turns into, and the filling of a page's
markers; the interactive pages' HTML."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from oracle.catalogue import MARKER, Catalogue, CatalogueError
from oracle.site.engines import EXAMPLE_ADAPTER, Conformance, conformance, render_conformance
from oracle.site.figures import (
    render_formation_odds,
    render_misreading_matrix,
    render_opening_grid,
    render_rank_grid,
    render_tactic_coverage,
)
from oracle.site.markup import Markup, code_block, rendered, template_environment
from oracle.site.render import (
    catalogue_summary,
    render_changes,
    render_citation,
    render_rows,
    render_rulings,
    render_verdict_table,
    render_walkthrough,
)
from oracle.site.tablerows import HeldRows, hold_items, hold_rows

GAMES_DIR = "games"


Block = Callable[[str | None, str], tuple[str, set[str]]]
"""Renders a marker's content from its argument, for a page; returns it and the case ids shown."""


def generated_blocks(
    catalogue: Catalogue,
    templates: Path,
    root: Path | None = None,
    engine_app: EngineApp | None = None,
    conformance_runs: Conformance | None = None,
    held_rows: dict[str, list[HeldRows]] | None = None,
) -> dict[str, Block]:
    """What each page marker turns into, rendered on demand (recorded games under ``root``).
    Given ``held_rows``, a table of cases (each of the misreadings' matrix, and of the
    Conformance page) keeps its first row only (and each row linking to a place on a page that
    no row before it links to, for MkDocs to check), and the rest are held there by page, to be
    written after Markdown has converted the page (:mod:`oracle.site.tablerows`); so are the
    items after the first of each of the Rulings page's lists of cases."""

    def held(
        text: str,
        page: str,
        hold: Callable[[str], tuple[str, list[HeldRows]]] = hold_rows,
    ) -> str:
        """The block's Markdown with what ``hold`` takes out (a table's rows, a list's items)
        kept aside for ``page``."""
        if held_rows is None:
            return text
        text, rows = hold(text)
        if rows:
            held_rows.setdefault(page, []).extend(rows)
        return text

    def verdict_table(topic: str | None, page: str) -> tuple[str, set[str]]:
        if topic is None:
            raise CatalogueError(["a verdict table names its topic: oracle:verdict-table TOPIC"])
        reports = tuple(report for report in catalogue.published if report.case.topic == topic)
        if not reports:
            raise CatalogueError([f"no published case has the topic {topic!r}"])
        shown = {report.case.id for report in reports}
        return held(render_verdict_table(reports, templates, page), page), shown

    def rulings(argument: str | None, page: str) -> tuple[str, set[str]]:
        text = render_rulings(catalogue.rules, templates, catalogue.published, page)
        return held(text, page, hold_items), set()

    def rule(rule_id: str | None, page: str) -> tuple[str, set[str]]:
        entry = None if rule_id is None else catalogue.rules.entry(rule_id)
        if entry is None:
            raise CatalogueError(
                [f"a citation names a rule of the index: oracle:rule ID, not {rule_id!r}"]
            )
        return render_citation(entry, templates, page), set()

    def changes(argument: str | None, page: str) -> tuple[str, set[str]]:
        return render_changes(catalogue.rules, templates, catalogue.published, page), set()

    def walkthrough(name: str | None, page: str) -> tuple[str, set[str]]:
        if name is None or root is None:
            raise CatalogueError(["the walkthrough marker names a game: oracle:walkthrough NAME"])
        return render_walkthrough(root / GAMES_DIR / f"{name}.txt", templates, root), set()

    def case_index(argument: str | None, page: str) -> tuple[str, set[str]]:
        text = render_rows("case_index.md.j2", catalogue.published, templates, page)
        return held(text, page), set()  # the index does not stand in for a topic's own table

    def app(argument: str | None, page: str) -> tuple[str, set[str]]:
        if engine_app is None:
            raise CatalogueError(
                ["the engine-app marker needs the browser runtime, not built here"]
            )
        return render_engine_app(argument, engine_app, templates, page), set()

    def conformance_matrix(argument: str | None, page: str) -> tuple[str, set[str]]:
        runs = conformance_runs if conformance_runs is not None else conformance(catalogue)
        return held(render_conformance(runs, templates, page, catalogue.rules), page), set()

    def example_adapter(argument: str | None, page: str) -> tuple[str, set[str]]:
        source = (templates.parent / EXAMPLE_ADAPTER).read_text(encoding="utf-8")
        return code_block(source, "python"), set()

    return {
        "catalogue-summary": lambda argument, page: (catalogue_summary(catalogue), set()),
        "tactic-coverage": lambda argument, page: (
            render_tactic_coverage(catalogue, templates, page),
            set(),
        ),
        "rank-grid": lambda argument, page: (render_rank_grid(catalogue, templates, page), set()),
        "opening-grid": lambda argument, page: (
            render_opening_grid(catalogue, templates, page),
            set(),
        ),
        "conformance-matrix": conformance_matrix,
        "example-adapter": example_adapter,
        "engine-app": app,
        "verdict-table": verdict_table,
        "rulings": rulings,
        "rule": rule,
        "changes": changes,
        "walkthrough": walkthrough,
        "case-index": case_index,
        "formation-odds": lambda argument, page: (render_formation_odds(templates), set()),
        "misreading-matrix": lambda argument, page: (
            held(render_misreading_matrix(catalogue, templates, page), page),
            set(),
        ),
    }


@dataclass(frozen=True)
class EngineApp:
    """Where a built site keeps the browser runtime, the engine archive and the snapshot of
    Python with the engine imported (``oracle.site.snapshot``), for the app pages."""

    runtime: str
    bundle: str
    digest: str
    pyodide_version: str
    snapshot: str


APPS = {"ask": "ask.js", "play": "play.js"}
"""The interactive pages' scripts, by the argument of their ``oracle:engine-app`` marker."""


def render_engine_app(app: str | None, engine_app: EngineApp, templates: Path, page: str) -> Markup:
    """The HTML of an interactive page: its form, and the script that runs the engine in it."""
    if app not in APPS:
        raise CatalogueError([f"the engine-app marker names one of {', '.join(APPS)}, not {app!r}"])

    def relative(target: str) -> str:
        shown = posixpath.relpath(target, posixpath.dirname(page) or ".")
        return shown + "/" if target.endswith("/") else shown

    html = rendered(
        template_environment(templates),
        "engine_app.html.j2",
        app=app,
        digest=engine_app.digest,
        pyodide_version=engine_app.pyodide_version,
        script=relative(f"assets/javascripts/{APPS[app]}"),
    )
    # One HTML block for Markdown: no blank line inside it.
    return Markup("\n".join(line for line in html.splitlines() if line.strip()))


def fill_markers(
    markdown: str, blocks: Mapping[str, Block], page: str
) -> tuple[str, set[str], set[str]]:
    """Replace each ``<!-- oracle:NAME [ARGUMENT] -->`` marker.

    Returns the page, the marker names it used and the ids of the cases it shows.
    """
    used: set[str] = set()
    shown: set[str] = set()

    def replace(match: re.Match[str]) -> str:
        name, argument = match.group(1), match.group(2)
        if name not in blocks:
            raise CatalogueError(
                [
                    f"{page}: unknown marker 'oracle:{name}';"
                    f" the markers are {', '.join(sorted(blocks))}"
                ]
            )
        try:
            text, ids = blocks[name](argument, page)
        except CatalogueError as error:
            raise CatalogueError([f"{page}: {problem}" for problem in error.problems]) from None
        used.add(name)
        shown.update(ids)
        return text

    return MARKER.sub(replace, markdown), used, shown
