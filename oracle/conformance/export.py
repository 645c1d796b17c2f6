"""The catalogue as plain data, for other engines: one versioned JSON file, or JSON Lines.

Each published case becomes a record: its id, topic, variant, prose, rule ids, the misreadings it
catches, its position (and table) in the keys of a case file, and its questions, each with the
verified answer. A question is what the conformance runner (:mod:`oracle.conformance.runner`) sends
to an engine; the answer is what the engine must say back. Answers hold only facts, as plain data:
``{"verdicts": {"3": "refused"}}``, ``{"legal": false}``, ``{"winner": "you", ...}``; how the engine
explains them is kept apart, under ``detail``, and never compared.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

import engine
from engine import (
    Game,
    GameState,
    IllegalMove,
    MoveSyntaxError,
    Player,
    Position,
    card_name,
    claim_verdicts,
)
from engine.match import Match
from oracle.casefile.model import (
    Case,
    DealQuestion,
    MatchQuestion,
    PlayQuestion,
    Table,
    TurnQuestion,
)
from oracle.verify.replay import CaseReport, ending_words

FORMAT = "schotten-totten-oracle-catalogue"
VERSION = 1
"""The export's version: it changes whenever a record or question changes shape."""
WHO = {Player.A: "you", Player.B: "them"}
QUESTIONS = ("claims", "plays", "turn", "deal", "match")
"""The questions a case may ask, as the keys of its request and of its answers."""


def _names(cards: Sequence[int]) -> list[str]:
    return [card_name(card) for card in cards]


def position_data(
    position: Position, played_first: Sequence[tuple[int, Player]] = ()
) -> dict[str, Any]:
    """A position in the keys of a case file's ``position`` (you are the viewer)."""
    first = dict(played_first)
    stones = []
    for number, stone in enumerate(position.stones, 1):
        entry: dict[str, Any] = {"stone": number}
        for player in (Player.A, Player.B):
            if stone.sides[player]:
                entry[WHO[player]] = _names(stone.sides[player])
        if stone.completed_first is not None:
            entry["completed_first"] = WHO[stone.completed_first]
        if stone.modes:
            entry["modes"] = sorted(mode.value for mode in stone.modes)
        if stone.claimed_by is not None:
            entry["claimed_by"] = WHO[stone.claimed_by]
        if number in first:
            entry["played_first"] = WHO[first[number]]
        if len(entry) > 1:
            stones.append(entry)
    data: dict[str, Any] = {"stones": stones, "hand": _names(position.hand)}
    if position.discards:
        data["discards"] = _names(position.discards)
    gone = [
        WHO[player]
        for player in (Player.A, Player.B)
        if player in position.jokers_played and not position.jokers_on_border(player)
    ]
    if gone:
        data["jokers_played"] = gone
    return data


def table_data(table: Table) -> dict[str, Any]:
    """A table in the keys of a case file's ``table``: the decks complete, top card first."""
    data: dict[str, Any] = {
        "their_hand": _names(table.their_hand),
        "clan_deck": _names(table.clan_deck),
        "tactic_deck": _names(table.tactic_deck),
        "tactics_played": {"you": table.tactics_played[0], "them": table.tactics_played[1]},
        "expert": table.expert,
        "step": table.step.value,
    }
    for key, value in (
        ("passed", table.passed),
        ("could_claim", table.could_claim),
        ("idle_turns", table.idle_turns),
    ):
        if value is not None:
            data[key] = value
    return data


# ------------------------------------------------------------------------------ answers


def turn_facts(state: GameState) -> dict[str, Any]:
    """What a turn decided, as plain data: the log, the winner, the stones, your hand..."""
    if not state.is_over:
        winner = "nobody"
    else:
        winner = "draw" if state.winner is None else WHO[state.winner]
    return {
        "log": [f"{WHO[event.player]}: {event.text}" for event in state.events],
        "winner": winner,
        "ending": ending_words(state),
        "held": {WHO[player]: sorted(state.stones_held(player)) for player in Player},
        "hand": sorted(_names(state.hands[Player.A])),
        "discards": sorted(_names(state.discards)),
        "next": "nobody" if state.is_over else WHO[state.current_player],
    }


def asserted_facts(turn: TurnQuestion) -> tuple[str, ...]:
    """The facts a turn question asserts: only those are asked of another engine."""
    expect = turn.expect
    named = {
        "log": expect.log,
        "winner": expect.winner,
        "ending": expect.ending,
        "held": expect.held,
        "hand": expect.hand,
        "discards": expect.discards,
        "next": expect.next_player,
    }
    return tuple(key for key, value in named.items() if value is not None)


def deal_answer(variant: str, deal: DealQuestion) -> dict[str, Any]:
    """The deal's facts, in the keys of a case file's ``deal.expect``."""
    state = Game.named(variant, first_player=deal.first, seed=deal.seed).new_initial_state()
    decks = {deck.value: len(cards) for deck, cards in state.decks.items()}
    return {
        "hands": {WHO[player]: len(state.hands[player]) for player in Player},
        "decks": decks,
        "to_move": WHO[state.current_player],
    }


def match_answer(question: MatchQuestion) -> dict[str, Any]:
    """The match's facts, in the keys of a case file's ``match.expect``."""
    match = Match(len(question.rounds), first_player=question.rounds[0].starter)
    for played in question.rounds:
        match.record_result(played.starter, played.winner, played.stones)
    a, b = match.scores
    return {
        "points": {"you": a, "them": b},
        "next_starter": WHO[match.next_starter],
        "winner": "draw" if match.winner is None else WHO[match.winner],
    }


def request_of(case: Case) -> dict[str, Any]:
    """The case as a conformance request: a case file's keys, without any expected answer."""
    request: dict[str, Any] = {
        "variant": case.position.variant.name,
        "position": position_data(case.position, case.played_first),
    }
    if case.table is not None:
        request["table"] = table_data(case.table)
    if case.claims:
        request["claims"] = [{"stone": claim.stone} for claim in case.claims]
    if case.plays:
        request["plays"] = [
            {"move": play.move, **({"after": list(play.after)} if play.after else {})}
            for play in case.plays
        ]
    if case.turn is not None:
        request["turn"] = {
            "moves": [text for text, _ in case.turn.moves],
            "facts": list(asserted_facts(case.turn)),
        }
    if case.deal is not None:
        request["deal"] = {"seed": case.deal.seed, "first": WHO[case.deal.first]}
    if case.match is not None:
        request["match"] = {
            "rounds": [
                {
                    "started": WHO[played.starter],
                    "winner": "nobody" if played.winner is None else WHO[played.winner],
                    "stones": {"you": played.stones[0], "them": played.stones[1]},
                }
                for played in case.match.rounds
            ]
        }
    return request


def engine_answers(case: Case) -> tuple[dict[str, Any], dict[str, Any]]:
    """The engine's answers to every question of ``case``, and how it explains them.

    Answers are shaped like a case file's expectations: ``claims`` maps each stone to
    ``granted`` or ``refused``, ``plays`` lists ``legal``, ``illegal`` or ``unreadable`` in order,
    ``turn`` holds
    the facts of :func:`turn_facts` (or ``{"refused": ...}`` when a move is illegal), ``deal`` and
    ``match`` their ``expect`` keys.
    """
    answers: dict[str, Any] = {}
    detail: dict[str, Any] = {}
    if case.claims:
        verdicts = claim_verdicts(case.position, [claim.stone for claim in case.claims])
        answers["claims"] = {str(v.stone): v.verdict.label for v in verdicts}
        detail["claims"] = {
            str(v.stone): {
                "reason": v.reason.value,
                "explanation": v.explanation,
                "witness": _names(v.witness),
            }
            for v in verdicts
        }
    if case.plays:
        judged = [play_answer(case, play) for play in case.plays]
        answers["plays"] = [answer for answer, _ in judged]
        detail["plays"] = [why for _, why in judged]
    if case.turn is not None:
        state = case.game_state()
        try:
            for text, _ in case.turn.moves:
                state.apply_text(text)
            answers["turn"] = turn_facts(state)
        except IllegalMove as error:
            answers["turn"] = {"refused": str(error)}
    if case.deal is not None:
        answers["deal"] = deal_answer(case.position.variant.name, case.deal)
    if case.match is not None:
        answers["match"] = match_answer(case.match)
    return answers, detail


def play_answer(case: Case, play: PlayQuestion) -> tuple[str, dict[str, str]]:
    """``legal``, ``illegal`` or ``unreadable`` for one play of ``case``, and why."""
    state = case.game_state()
    try:
        # The earlier moves are legal in a published case; a misreading that refuses one cannot
        # make the move either.
        for earlier in play.after:
            state.apply_text(earlier)
        move = state.parse_move(play.move)
        state.apply(move)
    except MoveSyntaxError as error:
        return "unreadable", {"problem": str(error)}
    except IllegalMove as error:
        return "illegal", {"rule": error.rule, "problem": error.problem}
    return "legal", {}


def expected_answers(case: Case) -> tuple[dict[str, Any], dict[str, Any]]:
    """What another engine must answer: the engine's answers, a turn cut to what it asserts."""
    answers, detail = engine_answers(case)
    if case.turn is not None and "refused" not in answers["turn"]:
        facts = answers["turn"]
        asked = asserted_facts(case.turn)
        answers["turn"] = {key: facts[key] for key in asked}
        detail["turn"] = {key: value for key, value in facts.items() if key not in asked}
    return answers, detail


def case_record(report: CaseReport, caught: Sequence[str]) -> dict[str, Any]:
    """One published case as plain data: what it is, the request, the verified answers."""
    case = report.case
    answers, detail = expected_answers(case)
    return {
        "id": case.id,
        "topic": case.topic,
        "variant": case.position.variant.name,
        "situation": case.situation,
        "why": case.why,
        "rules": list(case.rules),
        "guards_against": list(case.guards_against),
        "catches": list(caught),
        "request": request_of(case),
        "answers": answers,
        "detail": detail,
    }


def catalogue_records(
    reports: Sequence[CaseReport], caught: Mapping[str, Sequence[str]]
) -> list[dict[str, Any]]:
    """Every published case as a record, in catalogue order, except the boards the engine
    must refuse (``impossible:``): the protocol asks an engine for verdicts and moves on a board,
    and the words of a refusal are this engine's own, so they are left out on purpose (the
    Conformance page says so)."""
    return [
        case_record(report, caught.get(report.case.id, ()))
        for report in reports
        if report.case.impossible is None
    ]


def engine_version() -> str:
    """The package's version and a digest of the engine's source, which answered the export."""
    digest = hashlib.sha256()
    for path in sorted(Path(engine.__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return (
        f"{importlib.metadata.version('schotten-totten-oracle')} (engine {digest.hexdigest()[:12]})"
    )


def header(engine_version: str, count: int) -> dict[str, Any]:
    """What the export is: its format, version, the engine that answered, how many cases."""
    return {"format": FORMAT, "version": VERSION, "engine": engine_version, "count": count}


def export_json(records: Sequence[dict[str, Any]], engine_version: str) -> str:
    """The whole export as one JSON document."""
    document = {**header(engine_version, len(records)), "cases": list(records)}
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def export_jsonl(records: Sequence[dict[str, Any]], engine_version: str) -> str:
    """The export as JSON Lines: a header line, then one case a line."""
    lines = [json.dumps(header(engine_version, len(records)), ensure_ascii=False)]
    lines += [json.dumps(record, ensure_ascii=False) for record in records]
    return "\n".join(lines) + "\n"


def is_export(head: str) -> bool:
    """Whether a file's first characters are those of an export (one ``export`` may replace)."""
    return head.lstrip().startswith("{") and f'"format": "{FORMAT}"' in head


def read_export(text: str) -> list[dict[str, Any]]:
    """The case records of an export, JSON or JSON Lines, checked for its format, its version
    and the shape of every record (:class:`ValueError`, in one line, for anything else)."""
    if not text.strip():
        raise ValueError("the export is empty")
    try:
        whole = json.loads(text)
    except (ValueError, RecursionError):
        whole = None
    if isinstance(whole, dict) and isinstance(whole.get("cases"), list):
        _check_header(whole)
        records: list[Any] = list(whole["cases"])
    else:
        lines = [line for line in text.splitlines() if line.strip()]
        try:
            head, records = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
        except (ValueError, RecursionError) as error:
            raise ValueError(f"neither JSON nor JSON Lines: {str(error)[:120]}") from None
        _check_header(head)
    validator = jsonschema.Draft7Validator(_record_schema())
    for number, record in enumerate(records, 1):
        wrong = jsonschema.exceptions.best_match(validator.iter_errors(record))
        if wrong is not None:
            where = "/".join(str(part) for part in wrong.absolute_path) or "the record"
            raise ValueError(f"case record {number}, {where}: {wrong.message[:160]}")
    return records


def _record_schema() -> dict[str, Any]:
    """The export schema's definition of one case record, with the definitions it refers to."""
    text = resources.files("oracle").joinpath("schema/export.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return {**schema["definitions"]["case"], "definitions": schema["definitions"]}


def _check_header(head: Any) -> None:
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} export")
    if head.get("version") != VERSION:
        raise ValueError(
            f"export version {str(head.get('version'))[:20]!r}; this runner reads {VERSION}"
        )


__all__ = [
    "FORMAT",
    "QUESTIONS",
    "VERSION",
    "case_record",
    "catalogue_records",
    "engine_answers",
    "engine_version",
    "expected_answers",
    "export_json",
    "export_jsonl",
    "position_data",
    "read_export",
    "request_of",
    "table_data",
    "turn_facts",
]
