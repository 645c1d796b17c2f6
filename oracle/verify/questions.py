"""Each kind of question a case asks of the game, judged: a move on its own, a turn, a deal, a
match, a board the engine must refuse (the claims are judged by the claim proof itself, in
:mod:`oracle.verify.replay`)."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine import (
    Game,
    IllegalMove,
    Match,
    MoveSyntaxError,
    Player,
    card_name,
)
from engine.game import GameState
from engine.moves import Deck
from oracle.casefile.model import (
    Case,
    DealQuestion,
    MatchQuestion,
    PlayQuestion,
    TurnExpectation,
    TurnQuestion,
)
from oracle.casefile.source import DataPath
from oracle.casefile.vocabulary import PLAYER_WORDS
from oracle.verify.answers import (
    deal_facts,
    illegal_play,
    legal_play,
    match_facts,
    turn_facts,
    unreadable_play,
)
from oracle.verify.moves import Unjudgeable, agrees, keeps_its_invariants, make_move
from oracle.verify.report import BOARD, GameCheck, words


def check_board(case: Case) -> GameCheck:
    """Whether the engine refused the board of an ``impossible`` case with the message pinned
    (spaces and line breaks aside). Its problem line is worded by :func:`board_problem`."""
    board = case.impossible
    assert board is not None
    actual = "accepted" if board.refusal is None else f"refused: {words(board.refusal)}"
    expected = None if board.expected is None else f"refused: {board.expected}"
    if board.refusal is None:
        label = "Board accepted"
        detail: tuple[str, ...] = ("the engine builds this board and its game without objection",)
    else:
        label = f"Board refused: {words(board.refusal)}"
        detail = (f"refused: {words(board.refusal)}",)
        if board.refusal_line is not None:
            detail += (f"the engine objects to line {board.refusal_line} of the case file",)
    repin = () if board.refusal is None else ((("impossible",), words(board.refusal)),)
    return GameCheck("the board", board.line, expected, actual, label, detail, BOARD, repin)


Answer = tuple[Any, Any]
"""An answer in the protocol's shape, and how the engine explains it (None: nothing to say)."""


def check_play(state: GameState, play: PlayQuestion, index: int = 0) -> tuple[GameCheck, Answer]:
    """One move from the case's moment ``state`` (after the moves it names): legal, illegal
    under the rule the engine names, or unreadable; the play is ``plays[index]`` of its file.
    Gives the check worded from the engine's answer, and the answer itself."""
    check, answer = _judged_play(state, play)
    return replace(check, repin=_play_repin(play, index, check.actual)), answer


def _play_repin(play: PlayQuestion, index: int, actual: str) -> tuple[tuple[DataPath, Any], ...]:
    """What the case file pins for the move, as the engine now judges it: the kind, and for a
    refusal the rule (where the case names one) and the reason."""
    kind, _, reason = actual.partition(": ")
    kind, _, rule = kind.partition(" under ")
    at = ("plays", index)
    values: list[tuple[DataPath, Any]] = [((*at, "expect"), kind)]
    if play.rule is not None or kind == "legal" or rule:  # a refusal's rule, kept or replaced
        values.append(((*at, "rule"), rule or None))
    values.append(((*at, "because"), reason or None))
    return tuple(values)


def _judged_play(state: GameState, play: PlayQuestion) -> tuple[GameCheck, Answer]:
    what = play.label
    for text in play.after:
        make_move(state, text, play.line, f"cannot reach {what}: ")
    earlier = f" (after {', '.join(play.after)})" if play.after else ""
    expected = None if play.legal is None else ("legal" if play.legal else "illegal")
    if play.unreadable:
        expected = "unreadable" + ("" if play.because is None else f": {play.because}")
    try:
        move = state.parse_move(play.move)
    except MoveSyntaxError as error:
        if not play.unreadable:
            raise Unjudgeable(play.line, str(error)) from None
        answer = unreadable_play(str(error))
        problem = answer[1]["problem"]
        actual = "unreadable" + ("" if play.because is None else f": {words(problem)}")
        label = f"{play.move!r}{earlier}: unreadable"
        check = GameCheck(what, play.line, expected, actual, label, (f"unreadable: {problem}",))
        return check, answer
    explained = state.why_illegal(move)
    try:
        state.apply(move)
    except IllegalMove as error:
        agrees(explained, error, play.line, what)
        answer = illegal_play(error.rule, error.problem)
        return _refused_play(play, answer[1], f"{move}{earlier}", expected), answer
    agrees(explained, None, play.line, what)
    keeps_its_invariants(state, play.line, what)
    return GameCheck(what, play.line, expected, "legal", f"{move}{earlier}: legal"), legal_play()


def _refused_play(
    play: PlayQuestion, why: dict[str, str], shown: str, expected: str | None
) -> GameCheck:
    """A move the engine refused (``why``: the rule and the engine's words), against what the
    case expects (the rule and the reason compared where the case names them)."""
    rule, problem = why["rule"], why["problem"]
    detail = (f"refused: {problem} ({rule})",)
    actual = "illegal"
    if play.legal is False and (play.rule is not None or play.because is not None):
        expected = "illegal"
        if play.rule is not None:
            expected += f" under {play.rule}"
            actual += f" under {rule}"
        if play.because is not None:
            expected += f": {play.because}"
            actual += f": {words(problem)}"
    else:  # the answer to pin: the rule and the reason, whatever the case expected
        actual = f"illegal under {rule}: {words(problem)}"
    label = f"{shown}: illegal ({rule})"
    return GameCheck(play.label, play.line, expected, actual, label, detail)


def check_turn(state: GameState, turn: TurnQuestion) -> tuple[list[GameCheck], Answer]:
    """The rest of the turn played from the case's moment ``state``: its log and each fact the
    case asserts (the winner, the ending, the stones held, your hand, the discards, who plays
    next), worded from the engine's facts (:func:`oracle.verify.answers.turn_facts`), which it
    also gives; a fact the case does not assert is shown, not compared."""
    start = len(state.events)
    for text, line in turn.moves:
        try:
            make_move(state, text, line)
        except Unjudgeable as error:  # show how far the turn got, up to the move refused
            so_far = [f"{PLAYER_WORDS[e.player]}: {e.text}" for e in state.events[start:]]
            shown = "; ".join(so_far) or "nothing yet"
            raise Unjudgeable(error.line, error.problem, (f"the turn so far: {shown}",)) from None
    facts = turn_facts(state)
    log: list[str] = facts["log"]
    expect, lines = turn.expect, turn.expect_lines
    outcome = facts["winner"]
    detail = (f"log: {'; '.join(log)}", f"outcome: {outcome}")

    def fact(name: str, key: str, expected: str | None, actual: str, value: Any) -> GameCheck:
        repin = () if value is None else ((("turn", "expect", key), value),)
        return GameCheck(name, lines.get(key, turn.line), expected, actual, "", detail, "", repin)

    steps = log + _ending(facts)
    summary = " → ".join(steps)
    # A whole game is the answer's list of steps; its one line says how long and how it ended.
    short = summary if len(steps) <= LONG_TURN else _short_turn(facts, len(log))
    diff = tuple(
        line.rstrip()
        for line in difflib.ndiff(list(expect.log or ()), log)
        if not line.startswith("?")
    )
    held = (tuple(facts["held"]["you"]), tuple(facts["held"]["them"]))
    checks: list[GameCheck] = [
        GameCheck("the turn", turn.line, None, summary, short, detail),
        GameCheck(
            "the log",
            lines.get("log", turn.line),
            "; ".join(expect.log) if expect.log is not None else None,
            "; ".join(log),
            "",
            ("log, expected (-) against the engine's (+):", *diff),
            "",
            ((("turn", "expect", "log"), log),),
        ),
        fact("the winner", "winner", expect.winner, outcome, outcome),
        fact("how the game ended", "ending", expect.ending, facts["ending"], facts["ending"]),
        fact(
            "the stones held",
            "held",
            None if expect.held is None else held_text(tuple(map(_sorted, expect.held))),
            held_text(held),
            {"you": list(held[0]), "them": list(held[1])},
        ),
        fact(
            "your hand",
            "hand",
            None if expect.hand is None else cards_text(expect.hand),
            names_text(facts["hand"]),
            facts["hand"],
        ),
    ]
    tactics = state.variant.has_tactics
    return checks + _discards_and_next(tactics, facts, expect, fact), (facts, None)


_Fact = Callable[[str, str, "str | None", str, Any], GameCheck]


def _discards_and_next(
    tactics: bool, facts: dict[str, Any], expect: TurnExpectation, fact: _Fact
) -> list[GameCheck]:
    """The last facts of a turn: the discards (in the tactics variant, or where the case pins
    them) and whose turn it is."""
    checks = []
    if tactics or expect.discards is not None:
        checks.append(
            fact(
                "the discards",
                "discards",
                None if expect.discards is None else cards_text(expect.discards),
                names_text(facts["discards"]),
                facts["discards"],
            )
        )
    next_player = None if expect.next_player is None else PLAYER_WORDS[expect.next_player]
    over = facts["next"] == "nobody"  # a case cannot pin "nobody" as next: left to the editor
    playing = "nobody (the game is over)" if over else facts["next"]
    checks.append(fact("whose turn it is", "next", next_player, playing, None if over else playing))
    return checks


def _sorted(stones: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    return tuple(sorted(stones))


LONG_TURN = 12
"""Steps beyond which a turn's one-line answer gives its length and its end, not every step."""


def _short_turn(facts: dict[str, Any], moves: int) -> str:
    """A long turn (a whole game, say) in a line: how many moves, then how it ended."""
    ending = _ending(facts)
    return f"{moves} moves, then {ending[0]}" if ending else f"{moves} moves; the game goes on"


def _ending(facts: dict[str, Any]) -> list[str]:
    """How the game ended, for the turn's summary: who won and how, or nothing."""
    outcome, ending = facts["winner"], facts["ending"]
    if outcome in ("you", "them"):
        return [f"{'you win' if outcome == 'you' else 'they win'} ({ending})"]
    return [] if ending == "none" else [ending]


def held_text(held: tuple[tuple[int, ...], ...]) -> str:
    return "; ".join(
        f"{PLAYER_WORDS[player]}: {', '.join(map(str, stones)) or 'none'}"
        for player, stones in zip(Player, held, strict=True)
    )


def cards_text(cards: tuple[int, ...] | list[int]) -> str:
    return names_text(sorted(card_name(card) for card in cards))


def names_text(names: list[str]) -> str:
    """Card names, sorted, as a message lists them (``none`` for no card)."""
    return ", ".join(names) or "none"


def check_deal(case: Case, deal: DealQuestion) -> tuple[list[GameCheck], Answer]:
    """A new game dealt with the case's seed, worded from the engine's facts
    (:func:`oracle.verify.answers.deal_facts`), which it also gives: the hands, the decks and
    who moves, and your hand where the case pins the shuffle itself."""
    game = Game(case.position.variant, False, deal.first, deal.seed)
    state = game.new_initial_state()
    keeps_its_invariants(state, deal.line, "the deal")
    facts = deal_facts(state)
    hands = (facts["hands"]["you"], facts["hands"]["them"])
    decks = (facts["decks"][Deck.CLAN.value], facts["decks"].get(Deck.TACTICS.value, 0))
    to_move = facts["to_move"]
    actual = f"hands {hands[0]} and {hands[1]}; decks {decks[0]} and {decks[1]}; {to_move} to move"
    label = f"dealt {hands[0]} and {hands[1]} cards, {to_move} to move"
    expected_hands = deal.hand_sizes or hands
    expected_decks = deal.deck_sizes or decks
    expected = (
        f"hands {expected_hands[0]} and {expected_hands[1]};"
        f" decks {expected_decks[0]} and {expected_decks[1]}; {PLAYER_WORDS[deal.first]} to move"
    )
    repin: list[tuple[DataPath, Any]] = [
        (("deal", "expect", key), value) for key, value in facts.items()
    ]
    if deal.hand is not None:  # the shuffle itself, pinned
        expected += f"; your hand {cards_text(deal.hand)}"
        actual += f"; your hand {cards_text(state.hands[Player.A])}"
        label += f"; your hand {cards_text(state.hands[Player.A])}"
        repin.append((("deal", "expect", "hand"), [card_name(c) for c in state.hands[Player.A]]))
    check = GameCheck("the deal", deal.line, expected, actual, label, (), "", tuple(repin))
    return [check], (facts, None)


def check_match(question: MatchQuestion) -> tuple[list[GameCheck], Answer]:
    """A match of the case's rounds scored, worded from the engine's facts
    (:func:`oracle.verify.answers.match_facts`), which it also gives: the points, who wins and
    who starts next."""
    match = Match(len(question.rounds), first_player=question.rounds[0].starter)
    for played in question.rounds:
        starter, number = match.next_starter, len(match.results) + 1
        try:
            match.record_result(played.starter, played.winner, played.stones)
        except ValueError:
            raise Unjudgeable(
                played.line or question.line,
                f"round {number} is started by {PLAYER_WORDS[starter]}, not"
                f" {PLAYER_WORDS[played.starter]}: the winner of a round starts the next (after a"
                " draw, the player who did not start it)",
            ) from None
    facts = match_facts(match)
    points, winner = facts["points"], facts["winner"]
    actual = [
        f"points {points['you']} to {points['them']}",
        "a draw" if winner == "draw" else f"{winner} win",
        f"{facts['next_starter']} start next",
    ]
    expected = list(actual)
    if question.points is not None:
        expected[0] = f"points {question.points[0]} to {question.points[1]}"
    if question.winner is not None:
        expected[1] = "a draw" if question.winner == "draw" else f"{question.winner} win"
    if question.next_starter is not None:
        expected[2] = f"{PLAYER_WORDS[question.next_starter]} start next"
    label = "; ".join(actual)
    repin = tuple((("match", "expect", key), value) for key, value in facts.items())
    check = GameCheck("the match", question.line, "; ".join(expected), label, label, (), "", repin)
    return [check], (facts, None)
