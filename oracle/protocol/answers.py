"""What a case asks another engine, as plain data in the keys of a case file, and the answers
another engine must give: the verified ones (:attr:`oracle.verify.report.CaseReport.answers`),
never worked out here (:func:`oracle.verify.replay.engine_answers`, the same code that
verifies, answers a case that was not verified)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from engine import Player, Position
from oracle.casefile.model import Case, Table
from oracle.casefile.questions import exported_kinds
from oracle.casefile.vocabulary import PLAYER_WORDS
from oracle.verify.answers import card_names
from oracle.verify.report import CaseReport


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
                entry[PLAYER_WORDS[player]] = card_names(stone.sides[player])
        if stone.completed_first is not None:
            entry["completed_first"] = PLAYER_WORDS[stone.completed_first]
        if stone.modes:
            entry["modes"] = sorted(mode.value for mode in stone.modes)
        if stone.claimed_by is not None:
            entry["claimed_by"] = PLAYER_WORDS[stone.claimed_by]
        if number in first:
            entry["played_first"] = PLAYER_WORDS[first[number]]
        if len(entry) > 1:
            stones.append(entry)
    data: dict[str, Any] = {"stones": stones, "hand": card_names(position.hand)}
    if position.discards:
        data["discards"] = card_names(position.discards)
    gone = [
        PLAYER_WORDS[player]
        for player in (Player.A, Player.B)
        if player in position.jokers_played and not position.jokers_on_border(player)
    ]
    if gone:
        data["jokers_played"] = gone
    return data


def table_data(table: Table) -> dict[str, Any]:
    """A table in the keys of a case file's ``table``: the decks complete, top card first."""
    data: dict[str, Any] = {
        "their_hand": card_names(table.their_hand),
        "clan_deck": card_names(table.clan_deck),
        "tactic_deck": card_names(table.tactic_deck),
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


def request_of(case: Case) -> dict[str, Any]:
    """The case as a conformance request: a case file's keys, without any expected answer."""
    request: dict[str, Any] = {
        "variant": case.position.variant.name,
        "position": position_data(case.position, case.played_first),
    }
    if case.table is not None:
        request["table"] = table_data(case.table)
    for kind in exported_kinds():
        if kind.asked_by(case):
            request[kind.key] = kind.request(case)
    return request


def expected_answers(report: CaseReport) -> tuple[dict[str, Any], dict[str, Any]]:
    """What another engine must answer: the answers verifying ``report``'s case gave (never
    worked out again), each cut by its kind to what they are held to (a turn: the facts the
    case asserts, the others shown in the detail). They are copies, the caller's
    to change: the report's own answers are shared by everything that reads the report."""
    answers, detail = copy.deepcopy(report.answers), copy.deepcopy(report.explanations)
    for kind in exported_kinds():
        if kind.key in answers:
            answers[kind.key], shown = kind.held_to(report.case, answers[kind.key])
            if shown is not None:
                detail[kind.key] = shown
    return answers, detail
