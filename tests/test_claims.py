"""The claim verdict: each reason, the witness, several stones at once, refusals on bad claims."""

from __future__ import annotations

import pytest
from conftest import FIXTURE

from engine import (
    CombatMode,
    DuplicateClaim,
    MisplacedCard,
    Player,
    Position,
    PositionError,
    Reason,
    StoneState,
    Tactic,
    Verdict,
    claim_verdict,
    claim_verdicts,
    elite_troops_for,
    parse_card,
    strongest_completion,
)
from engine.cards.card import cards_in, mask_of
from engine.cards.tactics import CARD_RULES, ELITE_TROOPS
from engine.proof.claims import ELITE_TROOP_RULES, MODE_RULES, REASON_RULES
from oracle.casefile.rules import load_rules_index
from oracle.verify.report import CaseReport


def side(text: str) -> tuple[int, ...]:
    return tuple(parse_card(name) for name in text.split(",")) if text else ()


def stone(you: str, them: str = "", **extra: object) -> StoneState:
    return StoneState(sides=(side(you), side(them)), **extra)  # type: ignore[arg-type]


def test_incomplete_side_is_refused() -> None:
    position = Position.from_stones({5: stone("red 4, red 5")})
    verdict = claim_verdict(position, 5)
    assert verdict.verdict is Verdict.REFUSED
    assert verdict.reason is Reason.INCOMPLETE_SIDE


def test_claimed_stone_is_refused() -> None:
    position = Position.from_stones({3: stone("red 1, red 2, red 3", claimed_by=Player.B)})
    assert claim_verdict(position, 3).reason is Reason.STONE_CLAIMED


def test_your_hand_is_no_proof_and_the_witness_says_so() -> None:
    stones = {
        3: stone("red 1, blue 1, green 1", "red 3, blue 3"),
        6: stone("yellow 3", "purple 3"),
        8: stone("", "green 3"),
    }
    in_hand = Position.from_stones(stones, hand=side("pink 3"))
    verdict = claim_verdict(in_hand, 3)
    assert verdict.reason is Reason.WITNESS
    assert verdict.witness == side("pink 3")
    assert verdict.witness_in_hand == side("pink 3")
    assert "in your hand" in verdict.explanation

    stones[6] = stone("yellow 3, pink 3", "purple 3")
    on_table = Position.from_stones(stones)
    assert claim_verdict(on_table, 3).reason is Reason.UNBEATABLE


def test_a_tie_against_an_incomplete_side_goes_to_the_claimant() -> None:
    position = Position.from_stones({5: stone("red 7, red 8, red 9", "blue 7, blue 8")})
    verdict = claim_verdict(position, 5)
    assert verdict.reason is Reason.UNBEATABLE
    assert verdict.best_reply is not None and verdict.best_reply.added == side("blue 9")
    assert "tie" in verdict.explanation


def test_a_better_completion_refuses_the_claim() -> None:
    position = Position.from_stones({5: stone("red 6, red 7, red 8", "blue 7, blue 8")})
    verdict = claim_verdict(position, 5)
    assert verdict.reason is Reason.WITNESS
    assert verdict.witness == side("blue 9")


@pytest.mark.parametrize(
    ("completed_first", "reason"),
    [(Player.A, Reason.TIE_WON), (Player.B, Reason.TIE_LOST)],
)
def test_ties_between_complete_sides_follow_completion_order(
    completed_first: Player, reason: Reason
) -> None:
    tie = stone(
        "red 4, blue 5, green 9", "yellow 4, purple 5, pink 9", completed_first=completed_first
    )
    assert claim_verdict(Position.from_stones({4: tie}), 4).reason is reason


def test_complete_sides_compare_rank_first() -> None:
    position = Position.from_stones(
        {
            1: stone("red 2, blue 2, green 2", "yellow 9, yellow 8, yellow 6"),
            7: stone("red 8, blue 9, green 1", "yellow 2, purple 3, pink 4"),
        }
    )
    assert claim_verdict(position, 1).reason is Reason.STRONGER_FORMATION
    assert claim_verdict(position, 7).reason is Reason.WEAKER_FORMATION


def test_a_full_border_leaves_exactly_the_missing_cards_out_of_sight() -> None:
    # Every other stone is full: the two cards out of sight are the only possible completion.
    cards = list(range(54))
    mine, theirs, rest = cards[:3], cards[3:4], cards[4:]
    stones = {1: StoneState(sides=(tuple(mine), tuple(theirs)))}
    for number in range(2, 10):
        chunk, rest = rest[:6], rest[6:]
        stones[number] = StoneState(sides=(tuple(chunk[:3]), tuple(chunk[3:])))
    position = Position.from_stones(stones, hand=tuple(rest[:1]))
    assert sorted(cards_in(position.out_of_sight_mask())) == rest
    verdict = claim_verdict(position, 1)
    assert verdict.best_reply is not None and sorted(verdict.best_reply.added) == rest


def test_an_empty_border_has_every_card_out_of_sight() -> None:
    # The card pass's shortcut for a position with no cards (no stone, no hand, no discards).
    position = Position()
    assert position.on_table_mask() == 0
    assert sorted(cards_in(position.out_of_sight_mask())) == list(range(54))


def test_a_side_that_cannot_be_completed_has_no_completion() -> None:
    assert strongest_completion(side("red 1"), mask_of(side("blue 2"))) is None


def test_several_stones_in_one_step() -> None:
    position = Position.from_stones(
        {
            2: stone("red 5, red 6, red 7", "blue 2, green 2, yellow 5"),
            7: stone("green 7, green 8, green 9"),
            9: stone("red 1"),
        }
    )
    verdicts = claim_verdicts(position, [2, 7, 9])
    assert [verdict.verdict for verdict in verdicts] == [
        Verdict.GRANTED,
        Verdict.GRANTED,
        Verdict.REFUSED,
    ]
    with pytest.raises(DuplicateClaim):
        claim_verdicts(position, [2, 2])


def test_mud_fight_needs_four_and_blind_mans_bluff_counts_totals() -> None:
    position = Position.from_stones(
        {
            4: stone("red 6, red 7, red 8", "blue 2", modes=frozenset({CombatMode.MUD_FIGHT})),
            6: stone(
                "red 1, red 2, red 3",
                "blue 9, green 9, yellow 8",
                modes=frozenset({CombatMode.BLIND_MANS_BLUFF}),
            ),
        },
        variant="tactics",
    )
    assert claim_verdict(position, 4).reason is Reason.INCOMPLETE_SIDE
    assert claim_verdict(position, 6).reason is Reason.WEAKER_FORMATION


def test_unseen_elite_troops_can_complete_their_side() -> None:
    # Your three 5s against their blue 8-9; blue 7 lies on the table, so only a wild card could
    # give them the colour run 7-8-9.
    stones = {
        3: stone("red 5, green 5, pink 5", "blue 8, blue 9"),
        6: stone("blue 7", ""),
    }
    everything_unseen = Position.from_stones(stones, variant="tactics")
    verdict = claim_verdict(everything_unseen, 3)
    assert verdict.reason is Reason.WITNESS
    assert "joker as blue 7" in verdict.explanation

    # The Jokers are gone from play (discarded), but the Spy is still unseen: a Spy is a 7.
    spy_unseen = Position.from_stones(
        stones, discards=(Tactic.JOKER, Tactic.SECOND_JOKER), variant="tactics"
    )
    verdict = claim_verdict(spy_unseen, 3)
    assert verdict.witness == (Tactic.SPY,)
    assert verdict.explanation.startswith("they could still add the spy, making colour run")
    assert "spy as blue 7" in verdict.explanation

    all_seen = Position.from_stones(
        stones, discards=(Tactic.JOKER, Tactic.SECOND_JOKER, Tactic.SPY), variant="tactics"
    )
    assert claim_verdict(all_seen, 3).granted


def test_a_player_with_a_joker_on_the_border_gets_no_second_one() -> None:
    stones = {
        3: stone("red 5, green 5, pink 5", "blue 8, blue 9"),
        6: StoneState(sides=(side("blue 7"), (Tactic.JOKER,))),
    }
    position = Position.from_stones(stones, discards=(Tactic.SPY,), variant="tactics")
    assert elite_troops_for(position, Player.B) == (Tactic.SHIELD_BEARER,)
    assert elite_troops_for(position, Player.A) == (Tactic.SECOND_JOKER, Tactic.SHIELD_BEARER)
    assert claim_verdict(position, 3).granted


def test_your_own_wild_cards_take_your_best_identity() -> None:
    mine = (parse_card("red 7"), Tactic.JOKER, parse_card("red 9"))
    position = Position.from_stones(
        {2: StoneState(sides=(mine, side("blue 8, blue 9, blue 7")), completed_first=Player.A)},
        variant="tactics",
    )
    verdict = claim_verdict(position, 2)
    assert verdict.reason is Reason.TIE_WON
    assert "joker as red 8" in verdict.explanation


def test_reprs_paste_back_in() -> None:
    from engine import CombatMode, parse_cards
    from engine.cards.formations import Completion

    namespace = {
        "Position": Position,
        "StoneState": StoneState,
        "Player": Player,
        "CombatMode": CombatMode,
        "parse_cards": parse_cards,
        "Completion": Completion,
    }
    position = Position.from_stones(
        {
            2: stone("red 6, red 7, red 8", "blue 7", claimed_by=Player.B),
            4: stone("green 1", "", modes=frozenset({CombatMode.MUD_FIGHT})),
            5: stone("red 1, red 2, red 3", "pink 1, pink 2, pink 3", completed_first=Player.B),
        },
        hand=side("blue 9, pink 9"),
        variant="tactics",
    )
    assert eval(repr(position), namespace) == position
    assert "parse_cards('red 6, red 7, red 8')" in repr(position)
    jokers = Position.from_stones(  # "joker" alone reads as the first Joker
        {
            2: StoneState(sides=(side("red 3"), (Tactic.JOKER, *side("red 4")))),
            5: StoneState(sides=((*side("red 1"), Tactic.SECOND_JOKER, *side("red 2")), ())),
        },
        hand=side("blue 9"),
        variant="tactics",
    )
    assert eval(repr(jokers), {**namespace, "Tactic": Tactic}) == jokers
    completion = Completion(side("blue 9"), 280)
    assert eval(repr(completion), namespace) == completion
    verdict = claim_verdict(
        Position.from_stones({5: stone("red 6, red 7, red 8", "blue 7, blue 8")}), 5
    )
    assert repr(verdict) == (
        "<ClaimVerdict stone 5: refused (a completion out of sight beats it), witness blue 9>"
    )


def test_a_card_given_as_text_is_refused_with_a_hint() -> None:
    with pytest.raises(PositionError, match=r"write parse_card\('red 4'\)"):
        Position.from_stones({1: StoneState(sides=(("red 4",), ()))})  # type: ignore[arg-type]


def test_status_lists_every_problem_and_the_constructor_raises_the_first() -> None:
    stones = [StoneState()] * 9
    stones[0] = StoneState(sides=(side("red 1, red 2, red 3, red 4"), ()))
    stones[4] = StoneState(sides=(side("blue 5"), ()), completed_first=Player.A)
    args = (tuple(stones), side("green 2"), side("red 1"), Player.A, Position().variant)
    unchecked = Position._without_checks(*args, frozenset())
    problems = [type(problem).__name__ for problem in unchecked.status()]
    assert problems == [
        "DuplicateCard",
        "VariantError",
        "SideOverCapacity",
        "MisplacedCompletionOrder",
    ]
    with pytest.raises(PositionError) as raised:
        Position(*args)
    assert type(raised.value).__name__ == "DuplicateCard"
    assert Position.from_stones({1: stone("red 1, red 2, red 3", "")}).status() == []


@pytest.mark.parametrize(
    "stones, extra, message",
    [
        ({}, {"hand": side("banshee")}, "Tactic cards only exist in the tactics variant"),
        ({1: side("traitor")}, {}, "cannot lie on a side"),
        ({1: side("mud fight")}, {}, "goes in the stone's modes"),
        ({}, {"discards": side("mud fight")}, "it is never discarded"),
        ({1: (Tactic.JOKER,), 2: (Tactic.SECOND_JOKER,)}, {}, "only one Joker"),
    ],
)
def test_a_tactic_card_where_it_cannot_lie_is_refused(
    stones: dict[int, tuple[int, ...]], extra: dict[str, tuple[int, ...]], message: str
) -> None:
    variant = "base" if "hand" in extra else "tactics"
    with pytest.raises(PositionError, match=message):
        Position.from_stones(
            {number: StoneState(sides=(cards, ())) for number, cards in stones.items()},
            variant=variant,
            hand=extra.get("hand", ()),
            discards=extra.get("discards", ()),
        )


@pytest.mark.parametrize("variant", ["base", "tactics"])
def test_any_misplaced_tactic_card_in_any_slot_of_a_complete_stone_gets_the_documented_error(
    variant: str,
) -> None:
    """Both sides complete, so the constructor would compare them: a card that has no strength
    must be refused as misplaced first, never reach the strength code (a bare KeyError once)."""
    for tactic in Tactic:
        if variant == "tactics" and tactic in ELITE_TROOPS:
            continue  # elite troops lie on sides in the tactics variant
        for player in Player:
            for slot in range(3):
                cards = list(side("red 1, red 2, red 3"))
                cards[slot] = int(tactic)
                sides = [side("blue 1, blue 2, blue 3"), side("green 1, green 2, green 3")]
                sides[player] = tuple(cards)
                with pytest.raises(MisplacedCard):
                    Position.from_stones(
                        {5: StoneState(sides=(sides[0], sides[1]))}, variant=variant
                    )


def test_several_stones_may_be_given_as_any_iterable() -> None:
    position = Position.from_stones(
        {2: stone("red 1, red 2, red 3"), 7: stone("blue 7, blue 8, blue 9", "pink 9")}
    )
    listed = claim_verdicts(position, [2, 7])
    assert claim_verdicts(position, iter([2, 7])) == listed
    assert claim_verdicts(position, (n for n in (2, 7))) == listed


def test_jokers_played_only_exist_in_the_tactics_variant() -> None:
    with pytest.raises(PositionError, match="Jokers only exist in the tactics variant"):
        Position.from_stones({}, jokers_played=[Player.B])
    with pytest.raises(PositionError, match="2 players have played a Joker, but only 1 Joker"):
        Position.from_stones(
            {1: StoneState(sides=((Tactic.JOKER,), ()))},
            variant="tactics",
            jokers_played=[Player.A, Player.B],
        )


def test_a_side_over_capacity_is_the_one_problem_of_its_stone() -> None:
    """Once a side is over capacity, nothing else about the stone is judged (not even a
    completion order given for sides that are not both complete)."""
    crowded = StoneState(
        sides=(side("red 1, red 2, red 3, red 4"), side("blue 1")), completed_first=Player.A
    )
    args = ((crowded, *[StoneState()] * 8), (), (), Player.A, Position().variant)
    problems = Position._without_checks(*args, frozenset()).status()
    assert [type(problem).__name__ for problem in problems] == ["SideOverCapacity"]


@pytest.mark.parametrize("first", [Player.A, Player.B])
def test_a_completion_order_on_an_empty_stone_is_refused_for_either_player(first: Player) -> None:
    with pytest.raises(PositionError, match="completed first"):
        Position.from_stones({4: StoneState(completed_first=first)})


def test_each_verdict_names_only_rules_of_the_index_that_hold_in_its_game(
    published: tuple[CaseReport, ...],
) -> None:
    """The rules a verdict relied on (what the Ask page suggests for a copied case) are rules of
    the index, hold in the case's version of the game, and come with what played a part."""
    index = load_rules_index(FIXTURE / "rules" / "index.yaml")
    entries = {entry.id: entry for entry in index.entries}
    named = {*MODE_RULES.values(), *ELITE_TROOP_RULES.values(), *CARD_RULES.values()}
    named |= {rule for rules in REASON_RULES.values() for rule in rules}
    assert not named - set(entries)
    seen: set[str] = set()
    for report in published:
        for check in report.checks:
            verdict = check.verdict
            rules = verdict.rules
            variant = report.case.position.variant.name
            assert rules[: len(REASON_RULES[verdict.reason])] == REASON_RULES[verdict.reason]
            assert all(variant in entries[rule].variants() for rule in rules), report.case.id
            assert ("claim.hand-is-no-proof" in rules) == bool(verdict.witness_in_hand)
            assert ("tactics.mud-fight" in rules) == (CombatMode.MUD_FIGHT in verdict.modes)
            seen.update(rules)
    # The catalogue exercises every kind of suggestion at least once.
    assert {"claim.tie-against-incomplete", "claim.elite-troops-out-of-sight"} <= seen
    assert {"tactics.joker", "tactics.wild-best-identity", "tactics.both-modes"} <= seen
