"""The site's figures made from the catalogue: the rank grid of formations, the grid of early
claims against each opening, the Tactic cards' coverage, the formation odds and the misreading
matrix."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from engine import (
    Formation,
    parse_cards,
)
from oracle.catalogue import Catalogue
from oracle.judges.misreadings import MISREADINGS
from oracle.misreadings.matrix import Outcome
from oracle.site.boards import TACTIC_TITLES
from oracle.site.casepages import case_page_uri, link_from
from oracle.site.markup import Markup, rendered, template_environment, text
from oracle.site.odds import FormationCounts
from oracle.verify.dimensions import TACTIC_USES, rank_pairs, tactic_card_cases
from oracle.verify.openings import Opening, early_claims_by_opening, opening_ceiling


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
