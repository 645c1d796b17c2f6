"""Each kind of question a case asks, answered by the engine and judged: the answer worked out
once, in the conformance protocol's shape (:mod:`oracle.verify.answers`), under a judge that
checks the engine or trusts it (:mod:`oracle.verify.judging`), then compared, as data, with what
the case pins (:func:`oracle.verify.answers.pinned_answers`); the checks an editor reads are
worded from that comparison. One class a kind (:class:`VerifiedKind`), each registered in
:data:`oracle.verify.replay.VERIFIED_KINDS` under the kind of :mod:`oracle.casefile.questions`
it verifies."""

from __future__ import annotations

import difflib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from engine import Game, GameState, IllegalMove, Match, MoveSyntaxError, Player, card_name
from oracle.casefile.model import (
    Case,
    DealQuestion,
    MatchQuestion,
    PlayQuestion,
    TurnQuestion,
)
from oracle.casefile.questions import (
    CLAIMS,
    DEAL,
    IMPOSSIBLE,
    MATCH,
    PLAYS,
    TURN,
    QuestionKind,
)
from oracle.casefile.source import DataPath
from oracle.casefile.vocabulary import PLAYER_WORDS
from oracle.verify.answers import (
    card_names,
    claims_answer,
    deal_facts,
    illegal_play,
    legal_play,
    match_facts,
    pinned_deal,
    pinned_match,
    pinned_play,
    pinned_turn,
    turn_facts,
    unreadable_play,
)
from oracle.verify.judging import Moment
from oracle.verify.moves import Unjudgeable
from oracle.verify.report import BOARD, GameCheck, words

Answer = tuple[Any, Any]
"""An answer in the protocol's shape, and how the engine explains it (None: nothing to say)."""


class Answered:
    """The engine's answers as a case's questions are verified, in the order they are asked,
    each with how the engine explains it: what :class:`CaseReport` keeps."""

    def __init__(self) -> None:
        self.answers: dict[str, Any] = {}
        self.explanations: dict[str, Any] = {}
        self.shown: dict[str, Any] = {}
        """What the engine showed on the way that no other engine is asked (the cards a deal
        gave each player), by the question's key: what ``ask`` prints beside the answers."""

    def add(self, kind: QuestionKind[Any], answer: Answer) -> None:
        """The answer to the question of ``kind``, and its explanation (None: none); a kind
        other engines are not asked keeps none."""
        if not kind.exported:
            return
        self.answers[kind.key], why = answer
        if why is not None:
            self.explanations[kind.key] = why


class VerifiedKind(ABC):
    """A kind of question as the engine answers it and the verifier judges it."""

    kind: ClassVar[QuestionKind[Any]]
    """The kind of question of the case file it answers."""

    @abstractmethod
    def answer(self, case: Case, moment: Moment) -> Answer:
        """The engine's answer to the question, in the protocol's shape, and its explanation,
        worked out on ``moment`` (whose judge says how far the engine is checked)."""

    @abstractmethod
    def judged(self, case: Case, moment: Moment, answered: Answered) -> Iterator[GameCheck]:
        """The question verified: answered (the answer kept in ``answered``), then compared
        with what the case pins. The checks come one by one, so that those found before the
        engine could not go on are kept."""


class ComparedWhole(VerifiedKind):
    """A kind whose answer is worked out whole, then compared."""

    @abstractmethod
    def compared(self, case: Case, answer: Answer) -> Iterable[GameCheck]:
        """The checks of the engine's ``answer`` against what the case pins, in words."""

    def judged(self, case: Case, moment: Moment, answered: Answered) -> Iterator[GameCheck]:
        answer = self.answer(case, moment)
        answered.add(self.kind, answer)
        for check in self.compared(case, answer):
            yield replace(check, question=self.kind.item_name())


class ClaimsVerified(ComparedWhole):
    """Stones claimed: the claim proof's verdicts (compared in the report's claim checks)."""

    kind = CLAIMS

    def answer(self, case: Case, moment: Moment) -> Answer:
        return claims_answer(moment.verdicts())

    def compared(self, case: Case, answer: Answer) -> Iterable[GameCheck]:
        return ()  # each claim is a ClaimCheck of the report, made from the verdicts


class BoardVerified(ComparedWhole):
    """A board the engine must refuse: whether the loader's engine refused it as pinned."""

    kind = IMPOSSIBLE

    def answer(self, case: Case, moment: Moment) -> Answer:
        board = case.impossible
        assert board is not None
        now = "accepted" if board.refusal is None else {"refused": words(board.refusal)}
        return now, None

    def compared(self, case: Case, answer: Answer) -> Iterable[GameCheck]:
        """Whether the engine refused the board with the message pinned (spaces and line
        breaks aside). Its problem line is worded by :func:`report.board_problem`."""
        board = case.impossible
        assert board is not None
        now = answer[0]
        pinned = None if board.expected is None else {"refused": board.expected}
        actual = "accepted" if now == "accepted" else f"refused: {now['refused']}"
        expected = None if pinned is None else f"refused: {pinned['refused']}"
        if board.refusal is None:
            label = "Board accepted"
            detail: tuple[str, ...] = (
                "the engine builds this board and its game without objection",
            )
        else:
            label = f"Board refused: {words(board.refusal)}"
            detail = (f"refused: {words(board.refusal)}",)
            if board.refusal_line is not None:
                detail += (f"the engine objects to line {board.refusal_line} of the case file",)
        repin = () if board.refusal is None else ((("impossible",), words(board.refusal)),)
        yield GameCheck(
            "the board", board.line, expected, actual, label, detail, BOARD, repin, pinned, now
        )


class PlaysVerified(VerifiedKind):
    """Moves judged each on its own: legal, illegal under a rule, or unreadable."""

    kind = PLAYS

    def answer(self, case: Case, moment: Moment) -> Answer:
        judged = [play_answer(moment, play)[0] for play in case.plays]
        return [answer for answer, _ in judged], [why for _, why in judged]

    def judged(self, case: Case, moment: Moment, answered: Answered) -> Iterator[GameCheck]:
        """Each play answered, then compared, in turn: a play the engine cannot judge stops
        the question there, the plays before it judged."""
        judged = []
        for index, play in enumerate(case.plays):
            answer, shown = play_answer(moment, play)
            judged.append(answer)
            check = play_check(play, index, answer, shown)
            yield replace(check, question=self.kind.item_name(index + 1))
        answered.add(self.kind, ([a for a, _ in judged], [why for _, why in judged]))


def play_answer(moment: Moment, play: PlayQuestion) -> tuple[Answer, str | None]:
    """``legal``, ``illegal`` or ``unreadable`` for one play, from a copy of the case's moment
    (after the moves it names), and why; with the move as the engine writes it (None when it
    cannot read it). A trusted judge answers a play after an earlier move the engine refuses
    as that refusal: a misreading that refuses an earlier move cannot make this one either."""
    judge = moment.judge
    state = moment.copy(play.line)
    try:
        for text in play.after:
            judge.move(state, text, play.line, f"cannot reach {play.label}: ")
        move = state.parse_move(play.move)
    except MoveSyntaxError as error:
        judge.unreadable(play, error)
        return unreadable_play(str(error)), None
    except IllegalMove as error:  # an earlier move, refused (only a trusted judge gets here)
        return illegal_play(error.rule, error.problem), None
    explained = judge.explained(state, move)
    try:
        state.apply(move)
    except IllegalMove as error:
        judge.carried_out(state, explained, error, play.line, play.label)
        return illegal_play(error.rule, error.problem), str(move)
    judge.carried_out(state, explained, None, play.line, play.label)
    return legal_play(), str(move)


def play_now(play: PlayQuestion, answer: Answer) -> dict[str, Any]:
    """The engine's answer to a play as :func:`oracle.verify.answers.pinned_play` pins one."""
    given, why = answer
    now: dict[str, Any] = {"answer": given}
    if "rule" in why:
        now["rule"] = why["rule"]
    if "problem" in why:
        now["because"] = words(why["problem"])
    return now


def play_check(
    play: PlayQuestion, index: int, answer: Answer, shown: str | None, question: str = ""
) -> GameCheck:
    """The play ``plays[index]`` of its file, the engine's ``answer`` against what it pins,
    worded; ``shown`` is the move as the engine writes it."""
    pinned, now = pinned_play(play), play_now(play, answer)
    given, why = answer
    expected = None if pinned is None else _play_words(pinned)
    if pinned is not None and given == "legal" and pinned["answer"] == "illegal":
        expected = "illegal"  # a move carried out: what the case said of a refusal is moot
    earlier = f" (after {', '.join(play.after)})" if play.after else ""
    shown = f"{shown or play.move}{earlier}"
    if given == "unreadable":
        actual = "unreadable" + ("" if play.because is None else f": {now['because']}")
        label = f"{play.move!r}{earlier}: unreadable"
        detail: tuple[str, ...] = (f"unreadable: {why['problem']}",)
    elif given == "legal":
        actual, label, detail = "legal", f"{shown}: legal", ()
    else:
        rule, problem = why["rule"], why["problem"]
        detail = (f"refused: {problem} ({rule})",)
        label = f"{shown}: illegal ({rule})"
        if pinned is not None and pinned["answer"] == "illegal" and len(pinned) > 1:
            actual = _play_words({key: now[key] for key in pinned})
        else:  # the answer to pin: the rule and the reason, whatever the case expected
            actual = _play_words(now)
    repin = _play_repin(play, index, _to_pin(pinned, now, actual))
    return GameCheck(
        play.label, play.line, expected, actual, label, detail, question, repin, pinned, now
    )


def _to_pin(pinned: dict[str, Any] | None, now: dict[str, Any], actual: str) -> str:
    """What ``pin`` writes for a play, in words: what was compared, with the engine's reason
    added where the case leaves it open (a draft's refusal without its ``because:``)."""
    if now["answer"] == "legal" or "because" not in now:
        return actual
    if pinned is None or pinned["answer"] != now["answer"]:
        return actual  # a changed answer is pinned whole (the rule it breaks, the reason)
    kept = {key: now[key] for key in (pinned or now) if key in now}
    return _play_words({**kept, "because": now["because"]})


def _play_words(answer: dict[str, Any]) -> str:
    """A play's answer in words: ``illegal under RULE: REASON`` (the parts it has)."""
    rule = f" under {answer['rule']}" if "rule" in answer else ""
    because = f": {answer['because']}" if "because" in answer else ""
    return f"{answer['answer']}{rule}{because}"


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


class TurnVerified(ComparedWhole):
    """The rest of the turn played from the case's moment: its log and each fact the case
    asserts (the winner, the ending, the stones held, your hand, the discards, who plays
    next); a fact the case does not assert is shown, not compared."""

    kind = TURN

    def answer(self, case: Case, moment: Moment) -> Answer:
        assert case.turn is not None
        return turn_answer(moment, case.turn), None

    def compared(self, case: Case, answer: Answer) -> Iterable[GameCheck]:
        assert case.turn is not None
        facts = answer[0]
        if "refused" in facts or case.turn.expect.refused is not None:
            return [refusal_check(case.turn, facts, case.position.variant.has_tactics)]
        return turn_checks(case.turn, facts, case.position.variant.has_tactics)


def turn_answer(moment: Moment, turn: TurnQuestion) -> dict[str, Any]:
    """The facts the turn leaves (:func:`oracle.verify.answers.turn_facts`), or
    ``{"refused": why}`` when the engine refuses its last move (a trusted judge: any of its
    moves). A checked judge holds the moves before the last to being legal, and the last
    too where the case pins facts of the turn: a refusal is then no answer to them."""
    state = moment.copy(turn.line)
    start = len(state.events)
    refusable = len(turn.moves) - 1 if not pinned_turn(turn.expect) or turn.expect.refused else -1
    for index, (text, line) in enumerate(turn.moves):
        try:
            if index == refusable:
                moment.judge.last_move(state, text, line)
            else:
                moment.judge.move(state, text, line)
        except IllegalMove as error:
            return {"refused": words(error.problem)}
        except Unjudgeable as error:  # show how far the turn got, up to the move refused
            so_far = [f"{PLAYER_WORDS[e.player]}: {e.text}" for e in state.events[start:]]
            shown = "; ".join(so_far) or "nothing yet"
            raise Unjudgeable(error.line, error.problem, (f"the turn so far: {shown}",)) from None
    return turn_facts(state)


def refusal_check(turn: TurnQuestion, facts: dict[str, Any], tactics: bool) -> GameCheck:
    """A turn where the engine refuses the last move, or the case pins that it does: one check,
    the refusal's reason against the case's (or the turn carried out against the refusal)."""
    pinned = pinned_turn(turn.expect)
    last = turn.moves[-1][0]
    line = turn.expect_lines.get("refused", turn.line)
    expected = _turn_words(pinned) if pinned else None
    actual = _turn_words(facts)
    before = "".join(f"{text}, " for text, _ in turn.moves[:-1]) + "then " * (len(turn.moves) > 1)
    label = f"{before}{last}: refused" if "refused" in facts else f"the turn: {actual}"
    detail = (f"refused: {facts['refused']}",) if "refused" in facts else ()
    if "refused" in facts:  # every fact the case pinned gives way to the refusal
        repin: list[tuple[DataPath, Any]] = [
            (("turn", "expect", key), None) for key in pinned if key != "refused"
        ]
        repin.append((("turn", "expect", "refused"), facts["refused"]))
    else:  # the move is made: the facts it leaves, in place of the refusal
        repin = [(("turn", "expect", "refused"), None)]
        repin += [
            (("turn", "expect", key), facts[key])
            for key in ("log", *FACT_WORDS)
            if (key != "discards" or tactics) and not (key == "next" and facts[key] == "nobody")
        ]
    return GameCheck(
        "the refusal", line, expected, actual, label, detail, "", tuple(repin), pinned, facts
    )


def _turn_words(answer: dict[str, Any]) -> str:
    """A turn's answer in an editor's words: its refusal, or the moves it carried out."""
    if "refused" in answer:
        return f"refused: {answer['refused']}"
    return f"carried out: {_fact_words('log', answer['log'])}" if "log" in answer else "carried out"


FACT_WORDS = {
    "winner": "the winner",
    "ending": "how the game ended",
    "held": "the stones held",
    "hand": "your hand",
    "discards": "the discards",
    "next": "whose turn it is",
}
"""How a check names each fact of a turn but its log."""


def turn_checks(turn: TurnQuestion, facts: dict[str, Any], tactics: bool) -> list[GameCheck]:
    """The turn's checks: its summary (shown, never compared), its log, then each fact, the
    discards only in the tactics variant or where the case pins them."""
    assert "refused" not in facts, "a checked turn stops at a refused move"
    pinned = pinned_turn(turn.expect)
    log: list[str] = facts["log"]
    detail = (f"log: {'; '.join(log)}", f"outcome: {facts['winner']}")
    steps = log + _ending(facts)
    summary = " → ".join(steps)
    # A whole game is the answer's list of steps; its one line says how long and how it ended.
    short = summary if len(steps) <= LONG_TURN else _short_turn(facts, len(log))
    diff = tuple(
        line.rstrip()
        for line in difflib.ndiff(list(turn.expect.log or ()), log)
        if not line.startswith("?")
    )
    checks = [
        GameCheck("the turn", turn.line, None, summary, short, detail),
        GameCheck(
            "the log",
            turn.expect_lines.get("log", turn.line),
            _pinned_words("log", pinned),
            _fact_words("log", log),
            "",
            ("log, expected (-) against the engine's (+):", *diff),
            "",
            ((("turn", "expect", "log"), log),),
            pinned.get("log"),
            log,
        ),
    ]
    for key, what in FACT_WORDS.items():
        if key == "discards" and not (tactics or "discards" in pinned):
            continue
        now = facts[key]
        over = key == "next" and now == "nobody"  # a case cannot pin "nobody" as next
        repin = () if over else ((("turn", "expect", key), now),)
        line = turn.expect_lines.get(key, turn.line)
        expected, actual = _pinned_words(key, pinned), _fact_words(key, now)
        check = GameCheck(what, line, expected, actual, "", detail, "", repin, pinned.get(key), now)
        checks.append(check)
    return checks


def _pinned_words(key: str, pinned: dict[str, Any]) -> str | None:
    """A fact the turn pins, in an editor's words (None: not pinned)."""
    return None if key not in pinned else _fact_words(key, pinned[key])


def _fact_words(key: str, value: Any) -> str:
    """A fact of a turn in an editor's words."""
    if key == "log":
        return "; ".join(value)
    if key == "held":
        return "; ".join(
            f"{player}: {', '.join(map(str, value[player])) or 'none'}" for player in value
        )
    if key in ("hand", "discards"):
        return names_text(value)
    if key == "next" and value == "nobody":
        return "nobody (the game is over)"
    return str(value)


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


def cards_text(cards: Sequence[int]) -> str:
    """Cards by name, sorted, as a message lists them."""
    return names_text(sorted(card_name(card) for card in cards))


def names_text(names: list[str]) -> str:
    """Card names, sorted, as a message lists them (``none`` for no card)."""
    return ", ".join(names) or "none"


class DealVerified(VerifiedKind):
    """A new game dealt with the case's seed: the hands, the decks and who moves, and your
    hand where the case pins the shuffle itself (this engine's, so not in the protocol's
    answer: the check alone compares it)."""

    kind = DEAL

    def answer(self, case: Case, moment: Moment) -> Answer:
        return deal_facts(dealt(case, moment)), None

    def judged(self, case: Case, moment: Moment, answered: Answered) -> Iterator[GameCheck]:
        """The deal answered and compared from the one state dealt (its hand included)."""
        assert case.deal is not None
        state = dealt(case, moment)
        answer = deal_facts(state)
        answered.add(self.kind, (answer, None))
        answered.shown[self.kind.key] = {
            PLAYER_WORDS[player]: tuple(state.hands[player]) for player in (Player.A, Player.B)
        }
        check = deal_check(case.deal, answer, state.hands[Player.A])
        yield replace(check, question=self.kind.item_name())


def dealt(case: Case, moment: Moment) -> GameState:
    """A new game dealt with the case's seed and first player."""
    deal = case.deal
    assert deal is not None
    state = Game(case.position.variant, False, deal.first, deal.seed).new_initial_state()
    moment.judge.dealt(state, deal.line)
    return state


def deal_check(deal: DealQuestion, facts: dict[str, Any], dealt: Sequence[int]) -> GameCheck:
    """The deal's facts (and your hand ``dealt``, where the case pins it) against the case."""
    pinned, now = pinned_deal(deal), dict(facts)
    if deal.hand is not None:  # the shuffle itself, pinned
        pinned["hand"], now["hand"] = cards_text(deal.hand), cards_text(dealt)
    actual = _deal_words(now)
    expected = _deal_words({**now, **pinned})
    label = (
        f"dealt {now['hands']['you']} and {now['hands']['them']} cards, {now['to_move']} to move"
    )
    if deal.hand is not None:
        label += f"; your hand {now['hand']}"
    repin: list[tuple[DataPath, Any]] = [
        (("deal", "expect", key), value) for key, value in facts.items()
    ]
    if deal.hand is not None:
        repin.append((("deal", "expect", "hand"), card_names(dealt)))
    unpinned = (deal.hand_sizes, deal.deck_sizes, deal.hand) == (None, None, None)
    return GameCheck(
        "the deal", deal.line, expected, actual, label, (), "", tuple(repin), pinned, now, unpinned
    )


def _deal_words(facts: dict[str, Any]) -> str:
    """A deal's facts in an editor's words."""
    hands, decks = facts["hands"], facts["decks"]
    words_ = (
        f"hands {hands['you']} and {hands['them']}; decks {decks['clan']} and"
        f" {decks.get('tactics', 0)}; {facts['to_move']} to move"
    )
    return words_ + (f"; your hand {facts['hand']}" if "hand" in facts else "")


class MatchVerified(ComparedWhole):
    """A match of the case's rounds scored: the points, who wins and who starts next."""

    kind = MATCH

    def answer(self, case: Case, moment: Moment) -> Answer:
        assert case.match is not None
        return match_answer(case.match), None

    def compared(self, case: Case, answer: Answer) -> Iterable[GameCheck]:
        assert case.match is not None
        facts = answer[0]
        pinned = pinned_match(case.match)
        actual = _match_words(facts)
        expected = _match_words({**facts, **pinned})
        repin = tuple((("match", "expect", key), value) for key, value in facts.items())
        line = case.match.line
        unpinned = not pinned
        return (
            GameCheck(
                "the match", line, expected, actual, actual, (), "", repin, pinned, facts, unpinned
            ),
        )


def match_answer(question: MatchQuestion) -> dict[str, Any]:
    """The match's facts once its rounds are scored (:func:`oracle.verify.answers.match_facts`);
    a round started by the wrong player cannot be scored (:class:`Unjudgeable`)."""
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
    return match_facts(match)


def _match_words(facts: dict[str, Any]) -> str:
    """A match's facts in an editor's words."""
    points, winner = facts["points"], facts["winner"]
    return "; ".join(
        (
            f"points {points['you']} to {points['them']}",
            "a draw" if winner == "draw" else f"{winner} win",
            f"{facts['next_starter']} start next",
        )
    )
