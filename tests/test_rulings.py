"""A ruling lives in one place (:mod:`engine.proof.rulings`): flipping it there changes the answers
of exactly the cases that pin its id, and the proof, the enumeration and the slow judge still agree.

The cases are a small fixture catalogue of their own (``tests/rulings/cases``), not the project's:
each pins the ids of the rulings its answers depend on, and no other. Their answers are worked
out by the engine directly, every question under the rulings given, so that nothing but the
one :class:`~engine.proof.rulings.Rulings` value changes between two runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FIXTURE

import engine.proof.rulings
from engine import Game, GameState, Match, Player, claim_verdicts
from engine.proof.rulings import RULING_IDS, RULINGS, Rulings
from oracle.casefile.loader import load_cases
from oracle.casefile.model import Case
from oracle.casefile.questions import unknown_guard
from oracle.cli import main
from oracle.judges.enumeration import claim_granted_by_enumeration
from oracle.judges.misreadings import (
    MISREAD_RULINGS,
    MISREADINGS,
    RULES,
    Reading,
    RulingMisread,
    misreading_now_in_force,
)

CASES = Path(__file__).parent / "rulings" / "cases"


@pytest.fixture(scope="module")
def cases() -> tuple[Case, ...]:
    collection = load_cases(CASES)
    assert not collection.errors, collection.errors
    return collection.cases


def game_state(case: Case, rulings: Rulings) -> GameState:
    """The case's moment, as :meth:`Case.game_state` builds it, in a game played by ``rulings``."""
    table = case.table
    assert table is not None
    game = Game(case.position.variant, table.expert, Player.A, rulings=rulings)
    return GameState.from_table(
        game,
        case.position,
        their_hand=table.their_hand,
        clan_deck=table.clan_deck,
        tactic_deck=table.tactic_deck,
        tactics_played=table.tactics_played,
        phase=table.step,
        played_this_turn=None if table.passed is None else not table.passed,
        could_claim_this_turn=table.could_claim,
        idle_turns=table.idle_turns,
    )


def answers(case: Case, rulings: Rulings) -> dict[str, object]:
    """What the engine answers to each question of ``case`` when it plays by ``rulings``."""
    found: dict[str, object] = {}
    if case.claims:
        verdicts = claim_verdicts(case.position, case.claimed_stones, rulings)
        found["claims"] = [verdict.verdict.label for verdict in verdicts]
    if case.plays or case.turn:
        moment = game_state(case, rulings)
        for index, play in enumerate(case.plays):
            state = moment.clone()
            for text in play.after:
                state.apply_text(text)
            found[f"play-{index}"] = state.why_illegal(state.parse_move(play.move)) is None
        if case.turn:
            state = moment.clone()
            for text, _ in case.turn.moves:
                state.apply_text(text)
            held = tuple(state.stones_held(player) for player in Player)
            found["turn"] = (state.outcome, held, state.current_player, state.phase)
    if case.match:
        found["match"] = match_answer(case, rulings)
    return found


def match_answer(case: Case, rulings: Rulings) -> object:
    """The facts the case's match question asks (only those), or the engine's refusal."""
    question = case.match
    assert question is not None
    match = Match(len(question.rounds), first_player=question.rounds[0].starter, rulings=rulings)
    try:
        for played in question.rounds:
            match.record_result(played.starter, played.winner, played.stones)
    except ValueError as error:
        return str(error)
    asked = {"points": question.points, "next_starter": question.next_starter}
    facts = {"points": match.scores, "next_starter": match.next_starter}
    return {name: facts[name] for name, expected in asked.items() if expected is not None}


def test_the_fixture_cases_answer_as_they_expect_under_the_engines_rulings(
    cases: tuple[Case, ...],
) -> None:
    for case in cases:
        found = answers(case, RULINGS)
        if case.claims:
            expected = [claim.expect and claim.expect.label for claim in case.claims]
            assert found["claims"] == expected, case.id
        for index, play in enumerate(case.plays):
            assert found[f"play-{index}"] == play.legal, (case.id, play.move)
        if case.match:
            question = case.match
            asked = {"points": question.points, "next_starter": question.next_starter}
            assert found["match"] == {k: v for k, v in asked.items() if v is not None}, case.id


@pytest.mark.parametrize("field", list(RULING_IDS))
def test_flipping_a_ruling_changes_exactly_the_cases_that_pin_it(
    cases: tuple[Case, ...], field: str
) -> None:
    flipped = RULINGS.flipped(field)
    changed = {case.id for case in cases if answers(case, flipped) != answers(case, RULINGS)}
    pinning = {case.id for case in cases if RULING_IDS[field] in case.rules}
    assert pinning, f"no fixture case pins {RULING_IDS[field]}"
    assert changed == pinning


@pytest.mark.parametrize("field", list(RULING_IDS))
def test_the_proof_the_enumeration_and_the_slow_judge_agree_under_a_flipped_ruling(
    cases: tuple[Case, ...], field: str
) -> None:
    flipped = RULINGS.flipped(field)
    judge = Reading(flipped)
    for case in cases:
        if not case.claims:
            continue
        verdicts = claim_verdicts(case.position, case.claimed_stones, flipped)
        for verdict in verdicts:
            played_first = dict(case.played_first).get(verdict.stone)
            by_enumeration = claim_granted_by_enumeration(case.position, verdict.stone, flipped)
            assert verdict.granted == by_enumeration, (case.id, verdict)
            assert judge.claim_granted(case.position, verdict.stone, played_first) in (
                verdict.granted,
                None,
            )
            assert verdict.explanation  # every reason can be put in words under any rulings


def test_a_misread_ruling_is_the_rulings_with_that_field_flipped() -> None:
    for reading in MISREADINGS.values():
        if isinstance(reading, RulingMisread):
            (field,) = (
                f for f in RULING_IDS if getattr(reading.rulings, f) is not getattr(RULINGS, f)
            )
            assert reading.rulings == RULINGS.flipped(field)
            assert reading.name == MISREAD_RULINGS[getattr(reading.rulings, field)].name
    assert RULES.rulings is RULINGS


def test_a_game_played_by_flipped_rulings_says_so() -> None:
    flipped = RULINGS.flipped("tie_break")
    assert "rulings=RULINGS.replace(tie_break=TieBreak.COMPLETED_LAST)" in repr(
        Game.named("base", rulings=flipped)
    )
    assert repr(Game.named("base")).endswith("seed=0)")


def test_a_drawn_round_under_flipped_rulings() -> None:
    match = Match(2, rulings=RULINGS.flipped("drawn_round_starter"))
    match.record_result(Player.A, None, (4, 3))
    assert match.next_starter is Player.A
    with pytest.raises(ValueError, match="started by A"):
        match.record_result(Player.B, Player.A, (5, 2))


def test_a_tie_against_an_open_side_follows_the_tie_break() -> None:
    """Our ruling: when ties go to the side completed last, an open side that can equal the
    claimant would be completed last and win, so that claim cannot be granted."""
    assert RULINGS.contradictions() == ()
    [reason] = RULINGS.flipped("tie_break").contradictions()
    assert "formations.tie-break" in reason and "claim.tie-against-incomplete" in reason
    assert reason.endswith("set open_side_tie=OpenSideTie.REFUSED")
    both = RULINGS.flipped("tie_break").flipped("open_side_tie")
    assert both.contradictions() == ()
    assert RULINGS.flipped("open_side_tie").contradictions() == ()


def test_check_says_where_the_rulings_contradict_each_other(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(engine, "RULINGS", RULINGS.flipped("tie_break"))
    source = Path(engine.proof.rulings.__file__).read_text(encoding="utf-8").splitlines()
    line = 1 + next(n for n, text in enumerate(source) if text.startswith("RULINGS = "))
    assert main(["check", "--root", str(FIXTURE)]) == 1
    out = capsys.readouterr().out
    assert f"engine/proof/rulings.py:{line}: formations.tie-break gives a tie to the side" in out


def test_a_guard_named_after_the_ruling_in_force_says_what_its_misreading_is_called_now(
    tmp_path: Path,
) -> None:
    """Flipping a ruling renames its misreading: a case that guarded against the new ruling
    is told so, with the name the replaced ruling goes by now, not a near-miss spelling."""
    assert misreading_now_in_force("tie-to-first-to-finish") == (
        "formations.tie-break",
        "tie-to-second-player",
    )
    flipped = RULINGS.flipped("tie_break")
    assert misreading_now_in_force("tie-to-second-player", flipped) == (
        "formations.tie-break",
        "tie-to-first-to-finish",
    )
    assert misreading_now_in_force("runs-wrap-around") is None
    assert unknown_guard("tie-to-first-to-finish") == (
        "'tie-to-first-to-finish' is what the engine's rulings now hold (formations.tie-break),"
        " so it is no misreading; the ruling it replaced is now the misreading"
        " 'tie-to-second-player': guard against that if this case catches it, or drop it"
    )
    assert unknown_guard("runs-wrap-arund").startswith(
        "unknown misreading 'runs-wrap-arund'; did you mean 'runs-wrap-around'?"
    )
