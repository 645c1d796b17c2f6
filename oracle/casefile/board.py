"""A case's board and table, built by the engine, and the engine's objections to them told at
the line of the case file they concern; the board as written, for one the engine refuses."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import (
    COMBAT_MODE_CARDS,
    JOKERS,
    Card,
    CardError,
    CardSet,
    CombatMode,
    DuplicateCard,
    MisplacedCard,
    Phase,
    Player,
    Position,
    PositionError,
    SideOverCapacity,
    StoneState,
    TableError,
    TableFact,
    Tactic,
    card_name,
    is_clan_card,
    parse_card,
    reachability_problems,
    variant_named,
)
from oracle.casefile.errors import CaseError, EngineObjection
from oracle.casefile.model import Table, WrittenBoard, WrittenStone
from oracle.casefile.source import DataPath, LocatedDocument
from oracle.casefile.vocabulary import (
    MISSING_FACTS,
    PLAYER_WORDS,
    PLAYERS,
    TABLE_KEYS,
    WRITTEN_TABLE_FACTS,
)


def read_cards(
    document: LocatedDocument, where: DataPath, places: dict[int, list[int]]
) -> tuple[int, ...]:
    """Parse the list of cards at ``where``, recording each card's line for later messages."""
    raw: Sequence[str] = _get(document.data, where) or []
    cards = []
    for index, text in enumerate(raw):
        line = document.line_of((*where, index))
        try:
            card = parse_card(text)
        except CardError as error:
            raise CaseError(document.path, line, str(error)) from None
        if card == Tactic.JOKER and card in places and Tactic.SECOND_JOKER not in places:
            card = Tactic.SECOND_JOKER  # the game has two Jokers: the second one named
        places.setdefault(card, []).append(line)
        cards.append(card)
    return tuple(cards)


def _get(data: Any, where: DataPath) -> Any:
    for part in where:
        if isinstance(part, int):
            data = data[part]
        elif part not in data:
            return None
        else:
            data = data[part]
    return data


@dataclass(frozen=True)
class Board:
    """The position a case describes, with what locating the engine's objections needs: each
    stone as written and its index in the file, and the lines each card appears on."""

    position: Position
    stones: dict[int, StoneState]
    stone_indexes: dict[int, int]
    places: dict[int, list[int]]

    def error(self, document: LocatedDocument, error: PositionError) -> CaseError:
        return position_error(document, error, self.stones, self.stone_indexes, self.places)


def read_board(document: LocatedDocument) -> Board:
    """The position: every stone, the discards and the hand, checked by the engine (a board
    that cannot exist, or that no game in progress can reach, is refused at its line)."""
    path, data = document.path, document.data
    places: dict[int, list[int]] = {}
    stones: dict[int, StoneState] = {}
    stone_lines: dict[int, int] = {}
    stone_indexes: dict[int, int] = {}
    for index, raw in enumerate(data["position"]["stones"]):
        stone_at: DataPath = ("position", "stones", index)
        number = raw["stone"]
        line = document.line_of(stone_at)
        if number in stones:
            raise CaseError(
                path, line, f"stone {number} is listed twice (first at line {stone_lines[number]})"
            )
        stone_lines[number] = line
        stone_indexes[number] = index
        sides = [read_cards(document, (*stone_at, name), places) for name in PLAYERS]
        stones[number] = StoneState(
            sides=(sides[0], sides[1]),
            completed_first=PLAYERS.get(raw.get("completed_first", "")),
            modes=frozenset(CombatMode(mode) for mode in raw.get("modes", ())),
            claimed_by=PLAYERS.get(raw.get("claimed_by", "")),
        )
    discards = read_cards(document, ("position", "discards"), places)
    hand = read_cards(document, ("position", "hand"), places)
    try:
        position = Position.from_stones(
            stones,
            discards=discards,
            hand=hand,
            viewer=Player.A,
            variant=variant_named(data["variant"]),
            jokers_played=[PLAYERS[name] for name in data["position"].get("jokers_played", ())],
        )
    except PositionError as error:
        raise position_error(document, error, stones, stone_indexes, places) from None
    board = Board(position, stones, stone_indexes, places)
    for problem in reachability_problems(position):
        raise board.error(document, problem)
    # Open stones of a table are the engine's to demand (it names the fact to add).
    demanded_by_the_table = "table" in data
    for number, stone in stones.items():
        complete = all(stone.is_complete(player) for player in Player)
        left_to_the_table = demanded_by_the_table and stone.claimed_by is None
        if complete and stone.completed_first is None and not left_to_the_table:
            raise CaseError(
                path,
                stone_lines[number],
                f"stone {number}: both sides are complete, so say who completed first"
                " (completed_first: you or them): an engine that records the order of play"
                " needs it, tie or not",
            )
    return board


def read_table(document: LocatedDocument, board: Board, moves: bool = False) -> Table | None:
    """The game around the position, for cases that give one or ask about ``moves`` (a kind
    of question whose :attr:`~oracle.casefile.questions.QuestionKind.plays_moves`), None for the
    others; the engine must be able to start a game from it."""
    if not ("table" in document.data or moves):
        return None
    table = _table_facts(document, board.position, board.places)
    try:
        table.game_state(board.position)
    except PositionError as error:
        raise board.error(document, error) from None
    return table


def _table_facts(
    document: LocatedDocument, position: Position, places: dict[int, list[int]]
) -> Table:
    """The game around the position: their hand, complete decks, the Tactic cards played."""
    raw = document.data.get("table", {})
    their_hand = read_cards(document, ("table", "their_hand"), places)
    clan_top = read_cards(document, ("table", "clan_deck"), places)
    tactic_top = read_cards(document, ("table", "tactic_deck"), places)
    _check_table_cards(document, position, places, their_hand, clan_top, tactic_top)
    seen = position.on_table_mask() | CardSet(position.hand).mask  # combat modes included
    placed = seen | CardSet((*their_hand, *clan_top, *tactic_top)).mask
    unplaced = [card for card in position.variant.cards if not placed >> card & 1]
    clan_deck = clan_top + tuple(card for card in unplaced if is_clan_card(card))
    tactic_deck = tactic_top + tuple(card for card in unplaced if not is_clan_card(card))
    played_raw = raw.get("tactics_played", {"you": 0, "them": 0})
    played = (played_raw["you"], played_raw["them"])
    step = Phase(raw.get("step", "claim" if raw.get("expert") else "play"))
    return Table(
        their_hand,
        clan_deck,
        tactic_deck,
        played,
        bool(raw.get("expert")),
        step,
        passed=raw.get("passed"),
        could_claim=raw.get("could_claim"),
        idle_turns=raw.get("idle_turns"),
    )


def _check_table_cards(
    document: LocatedDocument,
    position: Position,
    places: dict[int, list[int]],
    their_hand: tuple[Card, ...],
    clan_top: tuple[Card, ...],
    tactic_top: tuple[Card, ...],
) -> None:
    """Each card of the table once, in its own deck, and hands and decks the variant has."""
    path, variant = document.path, position.variant
    for card, lines in places.items():
        if len(lines) > 1:
            raise _twice(path, card, lines)
    seen = position.on_table_mask() | CardSet(position.hand).mask  # combat modes included
    for card in (*their_hand, *clan_top, *tactic_top):
        if seen >> card & 1 and card in COMBAT_MODE_CARDS:
            raise CaseError(
                path,
                places[card][0],
                f"{card_name(card)} already lies on a stone; it cannot be here too",
            )
    decks = [(c, "clan_deck") for c in clan_top] + [(c, "tactic_deck") for c in tactic_top]
    for card, where in decks:
        if is_clan_card(card) != (where == "clan_deck"):
            deck = "clan" if is_clan_card(card) else "tactic"
            raise CaseError(path, places[card][-1], f"{card_name(card)} belongs in the {deck} deck")
    if tactic_top and not variant.has_tactics:
        raise CaseError(
            path, document.line_of(("table", "tactic_deck")), "the base game has no Tactic deck"
        )
    if len(their_hand) > variant.hand_size:
        raise CaseError(
            path,
            document.line_of(("table", "their_hand")),
            f"a hand of {len(their_hand)} cards, but a hand in the {variant.name} game holds"
            f" at most {variant.hand_size}",
        )


def _twice(path: Path, card: int, lines: list[int]) -> CaseError:
    """The error for a card written in two places, at the second one."""
    if card in JOKERS:
        return CaseError(path, lines[-1], "a third joker: the game has only two")
    where = (
        f"twice on line {lines[0]}"
        if lines[0] == lines[1]
        else f"twice (lines {lines[0]} and {lines[1]})"
    )
    return CaseError(path, lines[1], f"{card_name(card)} appears {where}; every card exists once")


def position_error(
    document: LocatedDocument,
    error: PositionError,
    stones: dict[int, StoneState],
    stone_indexes: dict[int, int],
    places: dict[int, list[int]],
) -> CaseError:
    """The engine's objection to a position or table, at the line of the value it names, as
    an :class:`EngineObjection` that keeps the engine's own error."""
    located = _located_objection(document, error, stones, stone_indexes, places)
    return EngineObjection(located, error)


def _located_objection(
    document: LocatedDocument,
    error: PositionError,
    stones: dict[int, StoneState],
    stone_indexes: dict[int, int],
    places: dict[int, list[int]],
) -> CaseError:
    """The engine's objection in the editor's words, at the line of the value it names."""
    path = document.path
    if isinstance(error, DuplicateCard):
        return _card_twice(document, error.card, stones, stone_indexes, places)
    if isinstance(error, MisplacedCard) and error.card in places:
        return CaseError(path, places[error.card][-1], str(error))
    fact = error.fact if isinstance(error, TableError) else None
    where = _objection_place(error, fact, stone_indexes)
    missing = isinstance(error, TableError) and error.missing and fact is not None
    hint = MISSING_FACTS[fact] if missing and fact is not None else ""
    return CaseError(path, document.line_of(where), f"{error}{hint}")


def _card_twice(
    document: LocatedDocument,
    card: Card,
    stones: dict[int, StoneState],
    stone_indexes: dict[int, int],
    places: dict[int, list[int]],
) -> CaseError:
    """A card the board holds twice: a combat mode both on a stone and elsewhere, one on two
    stones, or any card written twice."""
    path = document.path
    if card in COMBAT_MODE_CARDS and card in places:
        return CaseError(
            path,
            places[card][0],
            f"{card_name(card)} already lies on a stone; it cannot be here too",
        )
    if card not in places:  # a combat mode laid on two stones
        mode = CombatMode(card_name(card))
        twice = [number for number, state in stones.items() if mode in state.modes]
        return CaseError(
            path,
            document.line_of(("position", "stones", stone_indexes[twice[-1]], "modes")),
            f"{mode.label} lies on stones {twice[0]} and {twice[-1]}; there is one such card",
        )
    return _twice(path, card, places[card])


def _objection_place(
    error: PositionError, fact: TableFact | None, stone_indexes: dict[int, int]
) -> DataPath:
    """Where in the file the value lies that the engine's objection names."""
    part = PLAYER_WORDS[error.player] if isinstance(error, SideOverCapacity) else error.part
    if error.stone is not None and error.stone in stone_indexes:
        where: DataPath = ("position", "stones", stone_indexes[error.stone])
        return (*where, part) if part else where
    if part == "variant":
        return ("variant",)
    if part == "their_hand":
        return ("table", "their_hand")
    if part is None and fact is not None:
        return ("table", TABLE_KEYS[fact])
    return ("position", part) if part else ("position",)


def written_board(document: LocatedDocument) -> WrittenBoard:
    """The board and table as the file writes them, cards parsed (an unknown card fails here,
    at its line), nothing else judged: what a reader is shown of a board the engine refuses."""
    data = document.data
    cards: dict[int, list[int]] = {}

    def parsed(*where: str | int) -> tuple[int, ...]:
        return read_cards(document, where, cards)

    stones = tuple(
        WrittenStone(
            number=raw["stone"],
            you=parsed("position", "stones", index, "you"),
            them=parsed("position", "stones", index, "them"),
            modes=tuple(raw.get("modes", ())),
            completed_first=PLAYERS.get(raw.get("completed_first", "")),
            claimed_by=PLAYERS.get(raw.get("claimed_by", "")),
        )
        for index, raw in enumerate(data["position"]["stones"])
    )
    discards, hand = parsed("position", "discards"), parsed("position", "hand")
    raw_table = data.get("table")
    their_hand = None
    facts: list[tuple[str, str]] = []
    if raw_table is not None:
        if "their_hand" in raw_table:
            their_hand = parsed("table", "their_hand")
        for key, label in (("clan_deck", "Clan deck, top"), ("tactic_deck", "Tactic deck, top")):
            if key in raw_table:
                names = [card_name(card) for card in parsed("table", key)]
                facts.append((label, ", ".join(names) or "nothing listed"))
        if "tactics_played" in raw_table:
            played = raw_table["tactics_played"]
            facts.append(("Tactic cards played", f"you {played['you']}, them {played['them']}"))
        for key, label in WRITTEN_TABLE_FACTS:
            if key in raw_table:
                value = raw_table[key]
                shown = ("yes" if value else "no") if isinstance(value, bool) else str(value)
                facts.append((label, shown))
    return WrittenBoard(
        variant=data["variant"],
        stones=stones,
        hand=hand,
        discards=discards,
        jokers_played=tuple(PLAYERS[name] for name in data["position"].get("jokers_played", ())),
        their_hand=their_hand,
        table=tuple(facts),
    )
