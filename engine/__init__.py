"""The Schotten Totten rules engine: cards, formations, positions, the claim proof and the game.

Pure: no I/O, no YAML, no printing. Everything else in the project calls it.

Importing it loads what judging a position needs (cards, formations, positions, the claim proof);
the game, its moves, records and matches load the first time one of their names is asked for, so
that a process that only judges positions starts faster.
"""

from __future__ import annotations

import importlib

from engine.cards import (
    CARDS,
    COLOUR_NAMES,
    Card,
    CardError,
    CardSet,
    Colour,
    card_colour,
    card_name,
    card_value,
    make_card,
    parse_card,
    parse_cards,
)
from engine.claims import (
    ClaimVerdict,
    DuplicateClaim,
    Reason,
    Verdict,
    claim_verdict,
    claim_verdicts,
    elite_troops_for,
)
from engine.formations import (
    CombatMode,
    Completion,
    Formation,
    describe,
    forget_strengths,
    formation_of,
    side_capacity,
    strength,
    strongest_completion,
)
from engine.position import (
    STONES,
    VARIANTS,
    DuplicateCard,
    HandTooLarge,
    MisplacedCard,
    MisplacedCompletionOrder,
    MissingCompletionOrder,
    Player,
    Position,
    PositionError,
    SideOverCapacity,
    StoneNumberError,
    StoneState,
    TacticsVariant,
    Variant,
    VariantError,
    variant_named,
)
from engine.rulings import (
    RULING_IDS,
    RULINGS,
    DrawnRoundPoints,
    DrawnRoundStarter,
    OpenSideTie,
    Rulings,
    TieBreak,
)
from engine.tactics import (
    CARD_RULES,
    COMBAT_MODE_CARDS,
    ELITE_TROOPS,
    JOKERS,
    SECOND_JOKER_NAME,
    TACTICS_MASK,
    Tactic,
)

TYPE_CHECKING = False  # typing is not imported at run time (see engine.frozen)
if TYPE_CHECKING:
    from typing import Any

    from engine.game import (
        CLAIM_RULES,
        Event,
        Game,
        GameState,
        Outcome,
        Phase,
        PlayerView,
        TableError,
        TableFact,
        Termination,
    )
    from engine.match import Match, RoundResult, round_points
    from engine.moves import (
        Banshee,
        Claim,
        Deck,
        Draw,
        IllegalMove,
        Move,
        MoveSyntaxError,
        Pass,
        Play,
        Recruit,
        Return,
        Strategist,
        Traitor,
        stones_named,
    )
    from engine.odds import formation_counts
    from engine.opponent import choose_move
    from engine.reachable import reachability_problems
    from engine.records import (
        GameRecord,
        length_text,
        parse_record,
        play_random_game,
        random_move,
        record_text,
        replay,
        result_text,
    )

_LOADED_ON_FIRST_USE = {
    "CLAIM_RULES": "engine.game",
    "Banshee": "engine.moves",
    "Claim": "engine.moves",
    "Deck": "engine.moves",
    "Draw": "engine.moves",
    "Event": "engine.game",
    "Game": "engine.game",
    "GameRecord": "engine.records",
    "GameState": "engine.game",
    "IllegalMove": "engine.moves",
    "Match": "engine.match",
    "Move": "engine.moves",
    "MoveSyntaxError": "engine.moves",
    "Outcome": "engine.game",
    "Pass": "engine.moves",
    "Phase": "engine.game",
    "Play": "engine.moves",
    "PlayerView": "engine.game",
    "Recruit": "engine.moves",
    "Return": "engine.moves",
    "RoundResult": "engine.match",
    "Strategist": "engine.moves",
    "TableError": "engine.game",
    "TableFact": "engine.game",
    "Termination": "engine.game",
    "Traitor": "engine.moves",
    "choose_move": "engine.opponent",
    "formation_counts": "engine.odds",
    "reachability_problems": "engine.reachable",
    "length_text": "engine.records",
    "parse_record": "engine.records",
    "play_random_game": "engine.records",
    "random_move": "engine.records",
    "record_text": "engine.records",
    "replay": "engine.records",
    "result_text": "engine.records",
    "round_points": "engine.match",
    "stones_named": "engine.moves",
}
"""Each name of the game's modules, and the module it is loaded from when first asked for."""


def __getattr__(name: str) -> Any:
    module = _LOADED_ON_FIRST_USE.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # asked for once
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "CARDS",
    "CARD_RULES",
    "CLAIM_RULES",
    "COLOUR_NAMES",
    "COMBAT_MODE_CARDS",
    "ELITE_TROOPS",
    "JOKERS",
    "RULINGS",
    "RULING_IDS",
    "SECOND_JOKER_NAME",
    "STONES",
    "TACTICS_MASK",
    "VARIANTS",
    "Banshee",
    "Card",
    "CardError",
    "CardSet",
    "Claim",
    "ClaimVerdict",
    "Colour",
    "CombatMode",
    "Completion",
    "Deck",
    "Draw",
    "DrawnRoundPoints",
    "DrawnRoundStarter",
    "DuplicateCard",
    "DuplicateClaim",
    "Event",
    "Formation",
    "Game",
    "GameRecord",
    "GameState",
    "HandTooLarge",
    "IllegalMove",
    "Match",
    "MisplacedCard",
    "MisplacedCompletionOrder",
    "MissingCompletionOrder",
    "Move",
    "MoveSyntaxError",
    "OpenSideTie",
    "Outcome",
    "Pass",
    "Phase",
    "Play",
    "Player",
    "PlayerView",
    "Position",
    "PositionError",
    "Reason",
    "Recruit",
    "Return",
    "RoundResult",
    "Rulings",
    "SideOverCapacity",
    "StoneNumberError",
    "StoneState",
    "Strategist",
    "TableError",
    "TableFact",
    "Tactic",
    "TacticsVariant",
    "Termination",
    "TieBreak",
    "Traitor",
    "Variant",
    "VariantError",
    "Verdict",
    "card_colour",
    "card_name",
    "card_value",
    "choose_move",
    "claim_verdict",
    "claim_verdicts",
    "describe",
    "elite_troops_for",
    "forget_strengths",
    "formation_counts",
    "formation_of",
    "length_text",
    "make_card",
    "parse_card",
    "parse_cards",
    "parse_record",
    "play_random_game",
    "random_move",
    "reachability_problems",
    "record_text",
    "replay",
    "result_text",
    "round_points",
    "side_capacity",
    "stones_named",
    "strength",
    "strongest_completion",
    "variant_named",
]
