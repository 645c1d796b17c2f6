"""Render verified cases and the rules index into Markdown with the Jinja templates of the site.

A plain function of its inputs: the mkdocs hook calls it, and any other site generator could. The
verdict shown is always the engine's, computed here, never the one written in a case file.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from typing import Any

from engine import Formation, Tactic, card_name, formation_of, parse_cards
from engine.cards import CARDS
from engine.misreadings import MISREADINGS
from oracle.site.boards import TACTIC_TITLES
from oracle.site.casepages import case_page_uri, link_from, render_case_page, table_data
from oracle.conformance.runner import CaseResult, Result, adapter_engine, run
from oracle.conformance.export import engine_version, export_json, export_jsonl
from oracle.casefile.loader import load_cases, load_rules_index
from oracle.site.markup import (
    Markup,
    anchor,
    code_block,
    rendered,
    template_environment,
    text,
)
from oracle.misreadings.matrix import (
    MatrixRow,
    Outcome,
    misreading_matrix,
    outcome,
    published_records,
    save_remembered,
)
from oracle.casefile.model import RuleEntry, RulesIndex
from oracle.site.odds import cached_formation_counts
from oracle.verify.replay import CaseReport, verify_case
from oracle.site.walkthrough import WalkthroughError, replay_walkthrough
from oracle.casefile.source import SourceError, shown_path

CASES_DIR = "cases"
RULES_INDEX = "rules/index.yaml"
GAMES_DIR = "games"

MARKER = re.compile(
    r"^[ \t]*<!--\s*oracle:([a-z0-9-]+)(?:\s+([a-z0-9-]+))?\s*-->[ \t]*$", re.MULTILINE
)
"""Where a page asks for generated content, on a line of its own (only in the pages of
``site_src/``, never in a case page): ``<!-- oracle:verdict-table claims -->`` renders the
table of the cases in ``cases/claims/``; ``<!-- oracle:rulings -->`` the rulings;
``<!-- oracle:walkthrough NAME -->`` the recorded game ``games/NAME.txt``, replayed turn by turn."""


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

    @cached_property
    def matrix(self) -> tuple[MatrixRow, ...]:
        """Every published case under every misreading (worked out once)."""
        return misreading_matrix(self.published)

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
        raise CatalogueError(error.lines_from(root)) from None
    collection = load_cases(root / CASES_DIR, rules, root)
    problems = [line for error in collection.errors for line in error.lines_from(root)]
    reports = tuple(verify_case(case) for case in collection.cases)
    for report in reports:
        problems += report.explained_problems(root)
    problems += unmet_guards(reports, root)
    return Catalogue(reports, rules, tuple(problems))


def unmet_guards(reports: tuple[CaseReport, ...], root: Path | None = None) -> list[str]:
    """A located line for each misreading a verified case names but does not catch."""
    lines = []
    for report in reports:
        if not report.verified:
            continue
        for name in report.case.guards_against:
            result = outcome(report, MISREADINGS[name])
            if result is Outcome.FLIPS:
                continue
            why = "gives the same answer" if result is Outcome.SAME else "does not apply to it"
            lines.append(
                f"{shown_path(report.case.path, root)}:{report.case.line}: case"
                f" {report.case.id!r} says it guards against {name!r}, but that misreading {why}"
            )
    return lines


def verified_catalogue(root: Path) -> Catalogue:
    """:func:`build_catalogue`, raising :class:`CatalogueError` with every problem it found.

    A case file that is invalid, drifted (the engine disagrees with its expected verdict) or that
    the engine cannot judge makes the whole catalogue unpublishable.
    """
    catalogue = build_catalogue(root)
    if catalogue.problems:
        raise CatalogueError(list(catalogue.problems))
    return catalogue


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
    return _render_rows(template, reports, templates, page)


def _render_rows(
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
    anchor: Markup
    checked_by: tuple[tuple[str, Markup], ...]
    """The situation of each case that pins the ruling, with the link to its page."""


def ruling_anchor(entry: RuleEntry) -> Markup:
    """The HTML anchor of a ruling on the rulings page: its id with dots as hyphens."""
    return anchor(entry.id.replace(".", "-"))


def render_rulings(
    rules: RulesIndex,
    templates: Path,
    reports: tuple[CaseReport, ...] = (),
    page: str = "rulings.md",
) -> str:
    """Every ruling of the rules index with its reason, grouped by section.

    Under each ruling, the situations of the verified ``reports`` whose cases pin it, each
    linking to its case's page (links relative to ``page``).
    """
    sections = []
    for title in rules.sections():
        rulings = tuple(
            _Ruling(
                entry.title,
                entry.text,
                entry.reason or "",
                ruling_anchor(entry),
                tuple(
                    (report.case.situation, link_from(page, case_page_uri(report.case)))
                    for report in reports
                    if entry.id in report.case.rules
                ),
            )
            for entry in rules.rulings()
            if entry.section == title
        )
        if rulings:
            sections.append(_Section(title, rulings))
    return rendered(template_environment(templates), "rulings.md.j2", sections=sections)


Block = Callable[[str | None, str], tuple[str, set[str]]]
"""Renders a marker's content from its argument, for a page; returns it and the case ids shown."""


def render_walkthrough(record: Path, templates: Path, root: Path | None = None) -> str:
    """The recorded game at ``record``, replayed by the engine and shown turn by turn."""
    try:
        game = replay_walkthrough(record.read_text(encoding="utf-8"), record, root)
    except OSError as error:
        raise CatalogueError([f"{shown_path(record, root)}: {error.strerror}"]) from None
    except WalkthroughError as error:
        raise CatalogueError([str(error)]) from None
    return rendered(template_environment(templates), "walkthrough.md.j2", game=game)


def generated_blocks(
    catalogue: Catalogue,
    templates: Path,
    root: Path | None = None,
    engine_app: EngineApp | None = None,
    conformance_runs: Conformance | None = None,
) -> dict[str, Block]:
    """What each page marker turns into, rendered on demand (recorded games under ``root``)."""

    def verdict_table(topic: str | None, page: str) -> tuple[str, set[str]]:
        reports = tuple(
            report for report in catalogue.published if topic is None or report.case.topic == topic
        )
        if not reports:
            raise CatalogueError([f"no published case has the topic {topic!r}"])
        shown = {report.case.id for report in reports}
        return render_verdict_table(reports, templates, page), shown

    def rulings(argument: str | None, page: str) -> tuple[str, set[str]]:
        return render_rulings(catalogue.rules, templates, catalogue.published, page), set()

    def walkthrough(name: str | None, page: str) -> tuple[str, set[str]]:
        if name is None or root is None:
            raise CatalogueError(["the walkthrough marker names a game: oracle:walkthrough NAME"])
        return render_walkthrough(root / GAMES_DIR / f"{name}.txt", templates, root), set()

    def case_index(argument: str | None, page: str) -> tuple[str, set[str]]:
        text = _render_rows("case_index.md.j2", catalogue.published, templates, page)
        return text, set()  # the index does not stand in for a topic's own table

    def app(argument: str | None, page: str) -> tuple[str, set[str]]:
        if engine_app is None:
            raise CatalogueError(
                ["the engine-app marker needs the browser runtime, not built here"]
            )
        return render_engine_app(argument, engine_app, templates, page), set()

    def conformance_matrix(argument: str | None, page: str) -> tuple[str, set[str]]:
        runs = conformance_runs if conformance_runs is not None else conformance(catalogue)
        return render_conformance(runs, templates, page), set()

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
        "conformance-matrix": conformance_matrix,
        "example-adapter": example_adapter,
        "engine-app": app,
        "verdict-table": verdict_table,
        "rulings": rulings,
        "walkthrough": walkthrough,
        "case-index": case_index,
        "formation-odds": lambda argument, page: (render_formation_odds(templates), set()),
        "misreading-matrix": lambda argument, page: (
            render_misreading_matrix(catalogue, templates, page),
            set(),
        ),
    }


@dataclass(frozen=True)
class RankPair:
    """A claim between two complete sides of Clan cards, with no combat mode: the rank grid."""

    mine: Formation
    theirs: Formation
    report: CaseReport
    verdict: str


def rank_pairs(reports: Iterable[CaseReport]) -> list[RankPair]:
    """Every claim of the catalogue that pits one plain formation against another."""
    pairs = []
    for report in reports:
        if report.case.impossible is not None:
            continue  # a board the engine refuses claims nothing: its position is a placeholder
        position = report.case.position
        for check in report.checks:
            stone = position.stone(check.verdict.stone)
            sides = (stone.sides[position.viewer], stone.sides[position.viewer.other])
            plain_sides = all(len(side) == 3 and max(side) < len(CARDS) for side in sides)
            if plain_sides and not stone.modes:
                mine, theirs = (formation_of(side) for side in sides)
                pairs.append(RankPair(mine, theirs, report, check.verdict.verdict.label))
    return pairs


def render_rank_grid(catalogue: Catalogue, templates: Path, page: str) -> str:
    """The grid of formations against formations, each cell linking its cases."""
    order = sorted(Formation, reverse=True)
    cells: dict[tuple[Formation, Formation], list[tuple[str, str, str]]] = {}
    for pair in rank_pairs(catalogue.published):
        link = link_from(page, case_page_uri(pair.report.case))
        cells.setdefault((pair.mine, pair.theirs), []).append(
            (pair.verdict, pair.report.case.id, link)
        )
    return rendered(template_environment(templates), "rank_grid.md.j2", order=order, cells=cells)


TACTIC_USES = ("legal", "illegal", "proof")
"""What the catalogue shows of each Tactic card: a legal use, an illegal one, and its effect on
a proof (the card on the board where a claim is judged, or played in a turn that claims or
asserts the stones held)."""


def tactic_card_cases(reports: Iterable[CaseReport]) -> dict[str, dict[str, list[CaseReport]]]:
    """For each kind of Tactic card, the published cases that show each of its uses."""
    names = sorted({card_name(int(tactic)) for tactic in Tactic})
    found: dict[str, dict[str, list[CaseReport]]] = {
        name: {use: [] for use in TACTIC_USES} for name in names
    }

    def add(name: str, use: str, report: CaseReport) -> None:
        if report not in found[name][use]:
            found[name][use].append(report)

    for report in reports:
        case = report.case
        if case.impossible is not None:
            continue  # a board the engine refuses shows no use of a card, only its refusal
        for check in report.game_checks:
            if check.what.startswith("move "):
                move = check.what[len("move ") :].strip("'\"").lower()
                for name in names:
                    if move.startswith(name):
                        add(name, "legal" if check.actual == "legal" else "illegal", report)
        turn_moves = [text.lower() for text, _ in case.turn.moves] if case.turn else []
        claims_in_turn = case.turn is not None and (
            case.turn.expect.held is not None
            or any(m.startswith("claim ") and m != "claim nothing" for m in turn_moves)
        )
        for move in turn_moves:
            for name in names:
                if move.startswith(name):
                    add(name, "legal", report)
                    if claims_in_turn:
                        add(name, "proof", report)
        if report.checks:
            position = case.position
            seen = {card_name(card) for card in position.discards}
            for stone in position.stones:
                seen |= {card_name(card) for side in stone.sides for card in side}
                seen |= {mode.value for mode in stone.modes}
            for name in names:
                if name in seen:
                    add(name, "proof", report)
    return found


def render_tactic_coverage(catalogue: Catalogue, templates: Path, page: str) -> str:
    """Each kind of Tactic card with the cases that play it legally, refuse it, and weigh it in a
    proof."""
    rows = []
    for name, uses in tactic_card_cases(catalogue.published).items():
        cells = [
            [(report.case.id, link_from(page, case_page_uri(report.case))) for report in uses[use]]
            for use in TACTIC_USES
        ]
        rows.append((TACTIC_TITLES[name], cells))
    return rendered(template_environment(templates), "tactic_coverage.md.j2", rows=rows)


def catalogue_summary(catalogue: Catalogue) -> str:
    """One sentence: how many cases are published, in how many topics."""
    published = catalogue.published
    topics = len({report.case.topic for report in published})
    return (
        f"The catalogue publishes **{len(published)} cases** in {topics} topics, every one"
        " replayed by the engine at this build."
    )


@dataclass(frozen=True)
class EngineRun:
    """One engine's run over the exported catalogue, as the conformance page shows it."""

    name: str
    title: str
    results: tuple[CaseResult, ...]


@dataclass(frozen=True)
class Conformance:
    """The export of the published catalogue and the runs through it, made at every build."""

    records: tuple[dict[str, Any], ...]
    runs: tuple[EngineRun, ...]
    version: str

    def texts(self) -> dict[str, str]:
        """The export's files, by name."""
        return {
            EXPORT_JSON: export_json(self.records, self.version),
            EXPORT_JSONL: export_jsonl(self.records, self.version),
        }


EXPORT_JSON = "schotten-totten-catalogue.json"
EXPORT_JSONL = "schotten-totten-catalogue.jsonl"
REFERENCE = "reference"
EXAMPLE_ADAPTER = "downloads/example_adapter.py"
"""The example adapter of the conformance page, under ``site_src/``: shown on it and offered."""


def conformance(catalogue: Catalogue) -> Conformance:
    """Export the published cases, run our engine and each misreading through the protocol.

    The build fails (:class:`CatalogueError`) unless our engine passes every case and each
    misreading fails exactly the cases the misreading matrix says it changes.
    """
    matrix = catalogue.matrix
    records = tuple(published_records(catalogue.published, matrix))
    runs = [EngineRun(REFERENCE, "This engine", tuple(run(adapter_engine(), records)))]
    for name, reading in MISREADINGS.items():
        runs.append(EngineRun(name, reading.title, tuple(run(adapter_engine(name), records))))
    save_remembered()
    problems = [
        f"the export of case {result.case_id!r} does not replay: {result.describe()}"
        for result in runs[0].results
        if result.result is not Result.PASS
    ]
    flips = {
        name: {row.report.case.id for row in matrix if row.outcomes[name] is Outcome.FLIPS}
        for name in MISREADINGS
    }
    for engine_run in runs[1:]:
        failed = {r.case_id for r in engine_run.results if r.result is Result.FAIL}
        if failed != flips[engine_run.name]:
            problems.append(
                f"misreading {engine_run.name!r} through the conformance runner fails"
                f" {sorted(failed)}, but the matrix says {sorted(flips[engine_run.name])}"
            )
    if problems:
        raise CatalogueError(problems)
    return Conformance(records, tuple(runs), engine_version())


def render_conformance(result: Conformance, templates: Path, page: str) -> str:
    """The conformance matrix: engines down, topics across; counts, and links to failures."""
    topics = list(dict.fromkeys(record["topic"] for record in result.records))
    links = {
        record["id"]: link_from(page, f"cases/{record['topic']}/{record['id']}.md")
        for record in result.records
    }
    rows = []
    for engine_run in result.runs:
        cells = []
        for topic in topics:
            mine = [r for r in engine_run.results if r.topic == topic]
            counts = {outcome: sum(r.result is outcome for r in mine) for outcome in Result}
            failing = [(r.case_id, links[r.case_id]) for r in mine if r.result is Result.FAIL]
            cells.append(
                (counts[Result.PASS], counts[Result.FAIL], counts[Result.UNSUPPORTED], failing)
            )
        totals = {
            outcome: sum(r.result is outcome for r in engine_run.results) for outcome in Result
        }
        rows.append((engine_run, cells, totals))
    return rendered(
        template_environment(templates),
        "conformance_matrix.md.j2",
        topics=topics,
        rows=rows,
        cases=len(result.records),
        Result=Result,
    )


@dataclass(frozen=True)
class EngineApp:
    """Where a built site keeps the browser runtime and the engine archive, for the app pages."""

    runtime: str
    bundle: str
    digest: str
    pyodide_version: str


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
        runtime=relative(engine_app.runtime),
        bundle=relative(engine_app.bundle),
        digest=engine_app.digest,
        pyodide_version=engine_app.pyodide_version,
        script=relative(f"assets/javascripts/{APPS[app]}"),
    )
    # One HTML block for Markdown: no blank line inside it.
    return Markup("\n".join(line for line in html.splitlines() if line.strip()))


@dataclass(frozen=True)
class OddsRow:
    """One row of the odds page: what is placed, and each formation's chance, strongest first."""

    label: str
    percents: tuple[str, ...]


ONE_CARD = [
    (f"a {value} (or {'an' if value == 2 else 'a'} {10 - value})", f"red {value}")
    for value in (1, 2, 3, 4)
]
ONE_CARD.append(("a 5", "red 5"))
TWO_CARDS = [
    ("5 and 6 of one colour", "red 5, red 6"),
    ("5 and 7 of one colour", "red 5, red 7"),
    ("8 and 9 of one colour", "red 8, red 9"),
    ("2 and 8 of one colour", "red 2, red 8"),
    ("a pair of 5s", "red 5, blue 5"),
    ("5 and 6 of two colours", "red 5, blue 6"),
    ("5 and 7 of two colours", "red 5, blue 7"),
    ("1 and 9 of two colours", "red 1, blue 9"),
]


def _percent(chance: Fraction) -> str:
    return "0" if not chance else f"{float(chance) * 100:.2f} %"


def _roughly(chance: Fraction) -> str:
    if not chance:
        return "never"
    if chance == 1:
        return "always"
    if chance > Fraction(9, 10):  # "10 in 10" would read as certain
        return f"all but 1 in {round(1 / (1 - chance)):,}"
    if chance >= Fraction(1, 2):
        return f"{round(chance * 10)} in 10"
    return f"1 in {round(1 / chance):,}"


def render_formation_odds(templates: Path) -> str:
    """The formation odds page's tables, computed exactly by the engine (counts cached per
    engine version, see :mod:`oracle.site.odds`)."""
    formations = tuple(sorted(Formation, reverse=True))
    counted = {size: cached_formation_counts(size=size) for size in (3, 4)}

    def totals(size: int) -> list[tuple[str, int, str, str]]:
        counts = counted[size]
        total = sum(counts.values())
        return [
            (
                formation.label(size),
                counts[formation],
                _percent(Fraction(counts[formation], total)),
                _roughly(Fraction(counts[formation], total)),
            )
            for formation in formations
        ]

    def rows(examples: list[tuple[str, str]]) -> list[OddsRow]:
        shown = []
        for label, cards in examples:
            counts = cached_formation_counts(parse_cards(cards))
            total = sum(counts.values())
            shown.append(
                OddsRow(label, tuple(_percent(Fraction(counts[f], total)) for f in formations))
            )
        return shown

    return rendered(
        template_environment(templates),
        "formation_odds.md.j2",
        formations=[formation.label() for formation in formations],
        three=totals(3),
        four=totals(4),
        three_total=sum(counted[3].values()),
        four_total=sum(counted[4].values()),
        one_card=rows(ONE_CARD),
        two_cards=rows(TWO_CARDS),
    )


MATRIX_HEADINGS = {
    "hand-is-proof": "Hand is proof",
    "runs-wrap-around": "Runs wrap",
    "colour-beats-three-of-a-kind": "Colour over three of a kind",
    "tie-to-first-player": "Tie to the first player",
    "tie-to-claimant": "Tie to the claimant",
    "tie-to-second-player": "Tie to the second to finish",
    "tie-against-open-side-refused": "Tie refused against an open side",
    "unplayed-tactics-ignored": "Unplayed Tactic cards ignored",
    "three-cards-under-mud-fight": "Three cards under Mud Fight",
    "formations-under-bluff": "Formations under Bluff",
    "claims-before-playing": "Claims before playing",
    "runs-in-rising-order": "Runs in rising order",
    "pair-with-neighbour-is-run": "3-3-4 is a run",
    "colour-and-run-above-three-of-a-kind": "Colour and run over three of a kind",
    "joker-only-nine": "Joker only a 9",
    "no-early-claim": "No early claim",
    "taken-stones-stay-open": "Taken stones stay open",
    "blocked-games-never-end": "Blocked games never end",
}
"""Short column headings for the matrix; the full title shows on hover and in the list above."""

_CELLS = {
    (Outcome.FLIPS, True): ("✗", "changes the answer; the case is written to catch it"),
    (Outcome.FLIPS, False): ("✗", "changes the answer"),
    (Outcome.SAME, True): ("·", "gives the same answer"),
    (Outcome.SAME, False): ("·", "gives the same answer"),
    (Outcome.NOT_APPLICABLE, True): ("", "does not apply"),
    (Outcome.NOT_APPLICABLE, False): ("", "does not apply"),
}


def _matrix_cell(result: Outcome, guarded: bool) -> Markup:
    """One cell: the symbol for the eye, the same in words for a screen reader."""
    symbol, words = _CELLS[(result, guarded)]
    shown = Markup('<span class="oracle-guarded">◆</span>') if guarded and symbol == "✗" else symbol
    return Markup(
        f'<span aria-hidden="true" title="{text(words)}">{text(shown)}</span>'
        f'<span class="oracle-sr-only">{text(words)}</span>'
    )


def render_misreading_matrix(catalogue: Catalogue, templates: Path, page: str) -> str:
    """The misreadings, each with the cases that catch it, and the matrix of cases against them,
    one table per topic."""
    rows = catalogue.matrix
    readings = list(MISREADINGS.values())
    catching = {
        reading.name: [
            (row.report.case.situation, link_from(page, case_page_uri(row.report.case)))
            for row in rows
            if reading.name in row.caught
        ]
        for reading in readings
    }
    groups: dict[str, list[tuple[str, str, list[str]]]] = {}
    for row in rows:
        if not row.caught:
            continue
        groups.setdefault(row.report.case.topic, []).append(
            (
                row.report.case.situation,
                link_from(page, case_page_uri(row.report.case)),
                [
                    _matrix_cell(row.outcomes[r.name], r.name in row.report.case.guards_against)
                    for r in readings
                ],
            )
        )
    headings = [(MATRIX_HEADINGS.get(r.name, r.title), r.title) for r in readings]
    return rendered(
        template_environment(templates),
        "misreading_matrix.md.j2",
        readings=readings,
        catching=catching,
        groups=list(groups.items()),
        headings=headings,
        shown=sum(len(group) for group in groups.values()),
        total=len(rows),
    )


def topic_pages(pages: Mapping[str, str]) -> dict[str, str]:
    """Which page shows each topic's table, from the pages' text by source path."""
    found: dict[str, str] = {}
    for uri, page_text in sorted(pages.items()):
        for match in MARKER.finditer(page_text):
            if match.group(1) == "verdict-table" and match.group(2):
                found.setdefault(match.group(2), uri)
    return found


def tabled_cases(catalogue: Catalogue, pages: Mapping[str, str]) -> set[str]:
    """The ids of the published cases the pages' verdict tables will show, read from the pages'
    markers before they are rendered: a topic's table shows that topic's cases, a table without
    a topic every case."""
    topics = {
        match.group(2)
        for text in pages.values()
        for match in MARKER.finditer(text)
        if match.group(1) == "verdict-table"
    }
    return {
        report.case.id
        for report in catalogue.published
        if None in topics or report.case.topic in topics
    }


def unshown_topics(
    reports: Iterable[CaseReport], shown_topics: Mapping[str, str], root: Path | None = None
) -> list[str]:
    """A located line for each published case whose topic no page of the site shows."""
    return [
        f"{shown_path(report.case.path, root)}:{report.case.line}: case {report.case.id!r}:"
        f" no page shows the topic {report.case.topic!r}; add"
        f" <!-- oracle:verdict-table {report.case.topic} --> to a page in site_src/"
        for report in reports
        if report.publishable and report.case.topic not in shown_topics
    ]


MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdown", ".mkdn", ".mkd")
"""The suffixes MkDocs builds as pages."""


def site_pages(pages_dir: Path) -> dict[str, str]:
    """The site's Markdown pages, by path under ``pages_dir`` (``site_src/``), as MkDocs takes
    them: hidden files and folders are left out, and so are ``_templates/`` and ``_overrides/``
    (named in ``exclude_docs``)."""
    pages = {}
    for path in sorted(pages_dir.rglob("*")):
        parts = path.relative_to(pages_dir).parts
        if path.suffix not in MARKDOWN_SUFFIXES or not path.is_file():
            continue
        if any(part.startswith((".", "_")) for part in parts):
            continue
        pages[path.relative_to(pages_dir).as_posix()] = path.read_text(encoding="utf-8")
    return pages


def render_case_pages(
    catalogue: Catalogue, templates: Path, topics: Mapping[str, str], root: Path | None = None
) -> dict[str, str]:
    """Every published case's page, by its source path in the site."""
    template = template_environment(templates).get_template("case_page.md.j2")
    return {
        case_page_uri(report.case): render_case_page(
            report, catalogue.rules, template, dict(topics), root
        )
        for report in catalogue.published
    }


def unplaced_cases(catalogue: Catalogue, shown: set[str], root: Path | None = None) -> list[str]:
    """The published cases that no page shows, as located lines: nothing may be lost."""
    return [
        f"{shown_path(report.case.path, root)}:{report.case.line}: case {report.case.id!r}"
        f" (topic {report.case.topic!r}) is in no"
        f" table; add <!-- oracle:verdict-table {report.case.topic} --> to a page"
        for report in catalogue.published
        if report.case.id not in shown
    ]


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
