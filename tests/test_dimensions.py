"""The catalogue's depth, measured by dimensions and not by count alone (issue 9): every pair of
formations both ways round, early claims of each formation, the combat modes, and each Tactic
card played, refused and weighed in a proof. The site lists each of these; so do these tests.

They read the editors' own catalogue, so they are slow tests (CI runs them, make test does
not): a property of the catalogue is for its own gate to report. The grid of early claims by
opening is one already (coverage.yaml, tested in tests/test_coverage.py); these are not yet.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Formation, formation_of
from engine.cards import CARDS
from engine.formations import CombatMode
from oracle.catalogue import Catalogue
from oracle.site.figures import (
    TACTIC_USES,
    rank_pairs,
    render_rank_grid,
    render_tactic_coverage,
    tactic_card_cases,
)
from oracle.site.render import catalogue_summary
from oracle.verify.report import CaseReport

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "site_src" / "_templates"


@pytest.fixture(scope="module")
def catalogue(editors_catalogue: Catalogue) -> Catalogue:
    return editors_catalogue


@pytest.fixture(scope="module")
def published(editors_catalogue: Catalogue) -> tuple[CaseReport, ...]:
    return editors_catalogue.published


def test_at_least_a_hundred_cases_are_published_and_the_home_page_says_how_many(
    published: tuple[CaseReport, ...], catalogue: Catalogue
) -> None:
    assert len(published) >= 100
    assert f"**{len(published)} cases**" in catalogue_summary(catalogue)


def test_every_ordered_pair_of_formations_is_judged_and_ranks_decide(
    published: tuple[CaseReport, ...], catalogue: Catalogue
) -> None:
    seen: dict[tuple[Formation, Formation], set[str]] = {}
    for pair in rank_pairs(published):
        seen.setdefault((pair.mine, pair.theirs), set()).add(pair.verdict)
        if pair.mine != pair.theirs:
            assert pair.verdict == ("granted" if pair.mine > pair.theirs else "refused")
    assert set(seen) == {(a, b) for a in Formation for b in Formation}
    # Equal formations: the total decides, both ways round.
    equal = [p for p in rank_pairs(published) if p.mine == p.theirs]
    assert {"granted", "refused"} <= {p.verdict for p in equal}
    grid = render_rank_grid(catalogue, TEMPLATES, "formations.md")
    assert "none yet" not in grid and grid.count("](cases/") >= 25


def early_claims(published: tuple[CaseReport, ...]) -> set[tuple[Formation, int, str, str]]:
    """(your formation, their cards, the combat mode, the verdict) of every early claim."""
    found: set[tuple[Formation, int, str, str]] = set()
    for report in published:
        position = report.case.position
        for check in report.checks:
            stone = position.stone(check.verdict.stone)
            mine = stone.sides[position.viewer]
            theirs = stone.sides[position.viewer.other]
            modes = ",".join(sorted(mode.value for mode in stone.modes))
            if len(theirs) >= stone.capacity or len(mine) != stone.capacity:
                continue
            if max(mine) < len(CARDS) and len(mine) == 3 and not modes:
                found.add((formation_of(mine), len(theirs), modes, check.verdict.verdict.label))
            elif modes:
                found.add((Formation.SUM, len(theirs), modes, check.verdict.verdict.label))
    return found


def test_each_formation_is_claimed_early_against_zero_one_and_two_cards(
    published: tuple[CaseReport, ...],
) -> None:
    found = {
        (formation, cards) for formation, cards, modes, _ in early_claims(published) if not modes
    }
    assert {(f, n) for f in Formation for n in (0, 1, 2)} <= found


def test_combat_modes_are_claimed_early_both_ways_and_tie(
    published: tuple[CaseReport, ...],
) -> None:
    verdicts = {(modes, verdict) for _, _, modes, verdict in early_claims(published) if modes}
    for mode in (CombatMode.MUD_FIGHT.value, CombatMode.BLIND_MANS_BLUFF.value):
        assert {(mode, "granted"), (mode, "refused")} <= verdicts
    ties = {
        mode.value
        for report in published
        for check in report.checks
        if "tie" in check.verdict.explanation
        for mode in report.case.position.stone(check.verdict.stone).modes
    }
    assert ties >= {CombatMode.MUD_FIGHT.value, CombatMode.BLIND_MANS_BLUFF.value}


def test_each_tactic_card_is_played_refused_and_weighed_in_a_proof(
    published: tuple[CaseReport, ...], catalogue: Catalogue
) -> None:
    coverage = tactic_card_cases(published)
    assert len(coverage) == 9  # the two Jokers are one kind
    missing = [
        (name, use) for name, uses in coverage.items() for use in TACTIC_USES if not uses[use]
    ]
    assert not missing
    page = render_tactic_coverage(catalogue, TEMPLATES, "tactic-cards.md")
    assert "none yet" not in page


def test_a_ruse_at_a_combat_mode_names_the_rule_about_ruse_targets(
    published: tuple[CaseReport, ...],
) -> None:
    refusals = [
        check
        for report in published
        for check in report.game_checks
        if check.what.startswith("move ")
        and ": mud fight" in check.what
        and check.actual.startswith("illegal")
    ]
    assert refusals and all("tactics.ruse-targets" in check.actual for check in refusals)
