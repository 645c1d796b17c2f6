"""The site's figures made from the catalogue: the rank grid of formations, the grid of early
claims against each opening, the Tactic cards' coverage, the formation odds and the misreading
matrix."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from engine import (
    Formation,
    Tactic,
    card_name,
    formation_of,
    parse_cards,
)
from engine.misreadings import MISREADINGS
from oracle.catalogue import Catalogue
from oracle.misreadings.matrix import Outcome
from oracle.site.boards import TACTIC_TITLES
from oracle.site.casepages import case_page_uri, link_from
from oracle.site.markup import Markup, rendered, template_environment, text
from oracle.site.odds import FormationCounts
from oracle.verify.openings import (
    Opening,
    early_claims_by_opening,
    opening_ceiling,
    plain_claims,
    plain_side,
)
from oracle.verify.report import CaseReport


@dataclass(frozen=True)
class RankPair:
    """A claim between two complete sides of Clan cards, with no combat mode: the rank grid."""

    mine: Formation
    theirs: Formation
    report: CaseReport
    verdict: str


def rank_pairs(reports: Iterable[CaseReport]) -> list[RankPair]:
    """Every claim of the catalogue that pits one plain formation against another."""
    return [
        RankPair(formation_of(claim.mine), formation_of(claim.theirs), claim.report, claim.verdict)
        for claim in plain_claims(reports)
        if plain_side(claim.mine) and plain_side(claim.theirs)
    ]


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


def render_opening_grid(catalogue: Catalogue, templates: Path, page: str) -> str:
    """The grid of formations claimed early against each opening, each cell linking its cases;
    a cell that can never be refused says so, with the best the opening can become."""
    order = sorted(Formation, reverse=True)
    cells: dict[tuple[Formation, Opening], dict[str, list[tuple[str, str]]]] = {}
    for claim in early_claims_by_opening(catalogue.published):
        link = link_from(page, case_page_uri(claim.report.case))
        found = cells.setdefault((claim.mine, claim.opening), {})
        if claim.report.case.id not in {case_id for case_id, _ in found.get(claim.verdict, [])}:
            found.setdefault(claim.verdict, []).append((claim.report.case.id, link))
    ceilings = {opening: opening_ceiling(opening) for opening in Opening}
    return rendered(
        template_environment(templates),
        "opening_grid.md.j2",
        order=order,
        openings=list(Opening),
        cells=cells,
        ceilings=ceilings,
    )


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
    for report in reports:
        if report.case.impossible is not None:
            continue  # a board the engine refuses shows no use of a card, only its refusal
        for name, use in sorted(_tactic_uses(report, names)):
            found[name][use].append(report)
    return found


def _tactic_uses(report: CaseReport, names: list[str]) -> set[tuple[str, str]]:
    """The (card, use) pairs one case shows: a move played or refused, a card in a turn, a card
    on the board of a claim."""
    return _move_uses(report, names) | _turn_uses(report, names) | _board_uses(report, names)


def _move_uses(report: CaseReport, names: list[str]) -> set[tuple[str, str]]:
    uses: set[tuple[str, str]] = set()
    for check in report.game_checks:
        if check.what.startswith("move "):
            move = check.what[len("move ") :].strip("'\"").lower()
            use = "legal" if check.actual == "legal" else "illegal"
            uses |= {(name, use) for name in names if move.startswith(name)}
    return uses


def _turn_uses(report: CaseReport, names: list[str]) -> set[tuple[str, str]]:
    """A card played in a turn is a legal use, and weighs in a proof when the turn claims or
    asserts the stones held."""
    turn = report.case.turn
    if turn is None:
        return set()
    moves = [text.lower() for text, _ in turn.moves]
    claims = turn.expect.held is not None or any(
        move.startswith("claim ") and move != "claim nothing" for move in moves
    )
    played = {name for move in moves for name in names if move.startswith(name)}
    return {(name, "legal") for name in played} | {(name, "proof") for name in played if claims}


def _board_uses(report: CaseReport, names: list[str]) -> set[tuple[str, str]]:
    """A card on the board (or in the discards) of a claim weighs in its proof."""
    if not report.checks:
        return set()
    position = report.case.position
    seen = {card_name(card) for card in position.discards}
    for stone in position.stones:
        seen |= {card_name(card) for side in stone.sides for card in side}
        seen |= {mode.value for mode in stone.modes}
    return {(name, "proof") for name in names if name in seen}


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


@dataclass(frozen=True)
class OddsRow:
    """One row of the odds page: what is placed, and each formation's chance, strongest first."""

    label: str
    percents: tuple[str, ...]


ONE_CARD = [
    (f"a {value} (or {'an' if value == 2 else 'a'} {10 - value})", f"red {value}")
    for value in (1, 2, 3, 4)
]


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
    engine, see :mod:`oracle.site.odds`)."""
    formations = tuple(sorted(Formation, reverse=True))
    kept = FormationCounts()
    counted = {size: kept.counts(size=size) for size in (3, 4)}

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
            counts = kept.counts(parse_cards(cards))
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
    # Short column headings, each misreading's own; the full title shows on hover and above.
    headings = [(r.heading or r.title, r.title) for r in readings]
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
