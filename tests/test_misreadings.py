"""The misreading matrix: every misreading caught by a case, every guard a case names real."""

from __future__ import annotations

from pathlib import Path

import hypothesis
import pytest
from conftest import THOROUGH, examples, kept_for_the_run
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import claim_positions, tactics_claim_positions

from engine import Position, StoneState, Tactic, claim_verdict, parse_cards
from oracle.catalogue import build_catalogue
from oracle.judges.misreadings import MISREADINGS, RULES
from oracle.misreadings.matrix import MatrixRow, Outcome, misreading_matrix
from oracle.verify.report import CaseReport


@pytest.fixture(scope="module")
def matrix(published: tuple[CaseReport, ...]) -> tuple[MatrixRow, ...]:
    return misreading_matrix(published)


def judge_against_the_proof(seed: int, count: int) -> int:
    """Claim positions, base and tactics, judged by the slow reference and by the proof: they
    must agree. Returns how many the reference judged (it leaves some undecided)."""
    judged: list[Position] = []

    @hypothesis.seed(seed)
    @settings(max_examples=count)
    @given(st.one_of(claim_positions(), tactics_claim_positions()))
    def judge(sample: tuple[Position, int]) -> None:
        position, stone = sample
        granted = RULES.claim_granted(position, stone)
        if granted is None:
            return
        judged.append(position)
        assert granted == claim_verdict(position, stone).granted

    judge()
    return len(judged)


def test_the_slow_judge_reads_the_rules_as_the_proof_does() -> None:
    # The reference leaves about one in five undecided, in both profiles' samples (the quick
    # profile's 25 boards: 22 judged).
    assert judge_against_the_proof(11, examples(200)) > (160 if THOROUGH else 15)


@pytest.mark.slow
def test_the_slow_judge_reads_the_rules_as_the_proof_does_long() -> None:
    assert judge_against_the_proof(12, 3000) > 2400


def test_every_guard_a_case_names_is_real(matrix: tuple[MatrixRow, ...]) -> None:
    for row in matrix:
        for name in row.report.case.guards_against:
            assert row.outcomes[name] is Outcome.FLIPS, (row.report.case.id, name)


def test_the_misread_formations() -> None:
    wrap = MISREADINGS["runs-wrap-around"]
    assert wrap.consecutive([1, 8, 9]) and wrap.consecutive([1, 2, 9])
    assert not wrap.consecutive([1, 7, 9]) and not RULES.consecutive([1, 8, 9])
    colour = MISREADINGS["colour-beats-three-of-a-kind"]
    reds, twos = parse_cards("red 1, red 5, red 9"), parse_cards("red 2, blue 2, green 2")
    assert colour.strength(reds, ()) > colour.strength(twos, ())
    assert RULES.strength(reds, ()) < RULES.strength(twos, ())


def test_hand_is_proof_also_hides_the_elite_troops_in_your_hand() -> None:
    blue_run = parse_cards("blue 8, blue 9")
    position = Position.from_stones(
        {
            3: StoneState(sides=(parse_cards("red 4, red 5, red 6"), blue_run)),
            5: StoneState(sides=(parse_cards("blue 7"), ())),
        },
        hand=parse_cards("spy"),
        discards=(Tactic.JOKER, Tactic.SECOND_JOKER, Tactic.SHIELD_BEARER, Tactic.BANSHEE),
        variant="tactics",
    )
    assert claim_verdict(position, 3).witness == parse_cards("spy")
    assert RULES.claim_granted(position, 3) is False
    assert MISREADINGS["hand-is-proof"].claim_granted(position, 3) is True


def test_a_case_naming_a_guard_it_does_not_catch_is_a_problem(catalogue_copy: Path) -> None:
    case = catalogue_copy / "cases" / "claims" / "08-three-twos-beat-a-colour.yaml"
    text = case.read_text()
    case.write_text(
        text.replace(
            "guards_against: [colour-beats-three-of-a-kind, colour-and-run-above-three-of-a-kind]",
            "guards_against: [hand-is-proof]",
        )
    )
    problems = build_catalogue(catalogue_copy, kept=kept_for_the_run()).problem_lines
    assert problems == [
        "cases/claims/08-three-twos-beat-a-colour.yaml:2: case 'three-twos-beat-a-colour' says it"
        " guards against 'hand-is-proof', but that misreading gives the same answer",
    ]


def test_readings_share_what_they_score_alike_and_only_that() -> None:
    """The judge remembers side strengths and best completions across readings that score sides
    with the same methods; one that scores differently never gets another's answer."""
    from engine import parse_cards
    from oracle.judges.sides import Judgements

    wrapped = parse_cards("red 8, red 9, red 1")
    wraps, plain, hand = (
        MISREADINGS["runs-wrap-around"],
        RULES,
        MISREADINGS["hand-is-proof"],
    )
    for first, second in ((plain, wraps), (wraps, plain)):
        assert first.side_strength(wrapped, ()) != second.side_strength(wrapped, ())
    assert hand.side_strength(wrapped, ()) == plain.side_strength(wrapped, ())
    kept = Judgements()
    assert kept.shared(hand, "side_strength") is kept.shared(plain, "side_strength")
    assert kept.shared(wraps, "side_strength") is not kept.shared(plain, "side_strength")


def test_side_strengths_kept_past_their_bound_are_worked_out_again_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The judge's memo of side strengths starts again when full (a large catalogue would hold
    them all otherwise); the strengths are the same, and the independent enumeration's."""
    import oracle.judges.sides as judged_sides
    from engine import CARDS
    from oracle.judges.enumeration import side_strength_by_enumeration

    sides = [tuple(CARDS[start : start + 3]) for start in range(0, 40, 2)]
    monkeypatch.setattr(judged_sides, "SIDES_KEPT", 4)
    kept = judged_sides.Judgements()
    memo = kept.sides_scored(RULES, frozenset())
    for side in sides * 2:
        assert RULES._scored(side, (), kept) == side_strength_by_enumeration(side, ())
        assert 1 <= len(memo) <= 4


@pytest.mark.parametrize("reading", [RULES, *MISREADINGS.values()], ids=repr)
def test_sides_scored_by_values_score_as_every_identity_does(reading: object) -> None:
    """A reading that keeps the rules' ``strength`` and ``identities`` scores a side from its
    values and colouring, not from every identity of its elite troops: the same standing, for
    sides of Clan cards, with a troop (on either side of them) and with two, of one colour or
    several, under each set of combat modes."""
    from engine import CARDS, CombatMode
    from oracle.judges.misreadings import Reading
    from oracle.judges.reference_rules import ELITE_TROOPS, JOKER, SHIELD_BEARER, SPY
    from oracle.judges.sides import Judgements

    assert isinstance(reading, Reading)
    clan = [card for card in CARDS if card < 54]
    sides = [tuple(clan[start : start + 3]) for start in range(0, 52, 5)]
    sides += [(clan[9], clan[1], clan[2]), (clan[4], clan[4 + 9], clan[4 + 18])]
    sides += [(troop, clan[3], clan[5]) for troop in ELITE_TROOPS]
    sides += [(clan[12], troop, clan[13]) for troop in ELITE_TROOPS]
    sides += [(clan[3], clan[30], troop) for troop in ELITE_TROOPS]
    sides += [(JOKER, SPY, clan[7]), (SHIELD_BEARER, clan[0], SPY, clan[10])]
    for modes in (frozenset(), frozenset({CombatMode.BLIND_MANS_BLUFF})):
        memo = Judgements().sides_scored(reading, modes)
        if not memo.by_values:
            continue
        for side in sides:
            assert memo[side] == memo._by_identities(side), side


SCORED_APART = list(
    {reading.scoring(): reading for reading in [*MISREADINGS.values(), RULES]}.values()
)
"""One reading of each way of scoring sides (the rules' last, so that it is the rules' own)."""


@pytest.mark.parametrize("reading", SCORED_APART, ids=repr)
def test_a_boards_kinds_of_side_give_the_strongest_completion_every_identity_gives(
    reading: object,
) -> None:
    """A reading that scores sides by values and colouring reads a board's strongest completion
    from the kinds of side its completions make, each scored once: the same standing as every
    completion scored with every identity of its elite troops, and as every completion scored
    through the memo of sides; for empty sides, sides of one colour and of two, with troops
    placed or added (at most one Joker), four-card sides, pools too small, and under each set of
    combat modes."""
    from engine import CombatMode
    from oracle.judges.enumeration import strongest_completion
    from oracle.judges.misreadings import Reading
    from oracle.judges.reference_rules import JOKER, SECOND_JOKER, SHIELD_BEARER, SPY, clan_card
    from oracle.judges.sides import Judgements, completion_kinds

    assert isinstance(reading, Reading)
    red, blue, green, pink = 0, 1, 2, 5
    pool = [clan_card(red, value) for value in (1, 3, 4, 5, 9)]
    pool += [clan_card(blue, 4), clan_card(green, 4), clan_card(pink, 5)]
    pool.sort(key=lambda card: card % 9)  # rising values, as the judge lays them
    all_troops = (JOKER, SECOND_JOKER, SPY, SHIELD_BEARER)
    boards = [
        ((), pool, (), 3),
        ((), pool, (JOKER, SPY), 3),
        ((clan_card(red, 2),), pool, (JOKER, SPY), 2),
        ((clan_card(red, 2), clan_card(red, 6)), pool, all_troops, 1),
        ((clan_card(red, 2), clan_card(blue, 2)), pool, all_troops, 1),
        ((clan_card(pink, 3),), pool, all_troops, 2),
        ((JOKER,), pool, (SPY,), 2),
        ((clan_card(red, 7), SPY), pool, (SHIELD_BEARER,), 1),
        ((clan_card(red, 6),), pool[:6], (SPY,), 3),
        ((clan_card(green, 1),), pool[:1], (), 2),
        ((SHIELD_BEARER,), (), (JOKER, SECOND_JOKER, SPY), 2),
    ]
    for modes in (frozenset(), frozenset({CombatMode.BLIND_MANS_BLUFF})):
        memo = Judgements().sides_scored(reading, modes)
        if not memo.by_values:
            continue
        for placed, cards, wilds, missing in boards:
            by_kinds = max(
                map(memo.strength_of_kind, completion_kinds(placed, cards, wilds, missing)),
                default=None,
            )
            board = (placed, cards, wilds, missing)
            assert by_kinds == strongest_completion(*board, memo._by_identities), board
            assert by_kinds == strongest_completion(*board, memo.__getitem__), board


def test_the_judges_memos_are_owned_by_the_cache_and_let_go_once_a_matrix_is_made(
    published: tuple[CaseReport, ...], tmp_path: Path
) -> None:
    """A cold matrix fills the judge's memos, which its misreadings' cache owns (no module
    keeps them); once it is made they are empty again (a site build goes on to write its pages
    in that memory), and a second cold matrix, with a cache of its own, answers alike."""
    from oracle.judges.sides import Judgements
    from oracle.misreadings.cache import MisreadingCache

    judged: list[int] = []
    real = Judgements.clear

    def clear(self: Judgements) -> None:
        judged.append(len(self))
        real(self)

    # Six claim cases fill the memos as well as the whole matrix does, at a fraction of its cost.
    claims = tuple(report for report in published if report.case.claims)[:6]
    cache = MisreadingCache(tmp_path / "first")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Judgements, "clear", clear)
        first = misreading_matrix(claims, cache)
    assert judged and judged[0] > 0
    assert not len(cache.judgements)
    again = misreading_matrix(claims, MisreadingCache(tmp_path / "again"))
    assert [row.outcomes for row in again] == [row.outcomes for row in first]


def test_a_reading_that_scores_sides_its_own_way_is_asked_in_every_completion() -> None:
    """The enumeration takes the shared memo of side strengths only for readings that score
    sides as the rules do: one overriding ``side_strength`` scores every completion itself."""
    from oracle.judges.misreadings import Reading
    from oracle.judges.reference_rules import Standing

    class AllSidesEqual(Reading):
        name = "all-sides-equal"

        def side_strength(self, side: object, modes: object) -> Standing:
            return Standing(0, 0)

    mine = parse_cards("red 1, blue 2, green 4")
    position = Position.from_stones({1: StoneState(sides=(mine, ()))})
    assert RULES.claim_granted(position, 1) is False  # a stronger side can still be made
    assert AllSidesEqual().claim_granted(position, 1) is True  # every completion only ties


def test_blocked_games_going_on_reads_how_the_verified_turn_ended_without_playing_it_again(
    published: tuple[CaseReport, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The misreading that a blocked game goes on answers from the turn's verified answer
    (its ending): no move of the turn is played again for it."""
    from engine import GameState
    from oracle.misreadings.answers import misread

    report = next(r for r in published if r.case.id == "blocked-board-shared-out")
    assert report.answers["turn"]["ending"] == "stalemate award"

    def played_again(*args: object, **kwargs: object) -> None:
        raise AssertionError("a move of the turn played again")

    monkeypatch.setattr(GameState, "apply_text", played_again)
    monkeypatch.setattr(GameState, "apply", played_again)
    response = misread(report.case, MISREADINGS["blocked-games-never-end"], report)
    assert response is not None and response["answers"]["turn"] == {"winner": "nobody"}
