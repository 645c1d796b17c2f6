"""Write a game state as the text of a case file, from the point of view of the player to move.

The loader reads the text back into the same state, so an editor can start a case from any
moment of a real game (a seeded game, say) and then trim it by hand.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from engine import GameState, Phase, Player, card_name
from engine.moves import Deck

WHO = ("you", "them")


def _flow(cards: Iterable[int]) -> str:
    return "[" + ", ".join(_quoted(card_name(card)) for card in cards) + "]"


def _quoted(text: str) -> str:
    """A plain YAML scalar where that is safe, else a double-quoted one."""
    return json.dumps(text) if "'" in text or ":" in text else text


def case_text(
    state: GameState,
    *,
    case_id: str,
    situation: str = "Describe the board from your side",
    why: str = "Say why the engine must answer as it does",
    rules: Iterable[str] = (),
    draft: bool = True,
) -> str:
    """The case file for ``state`` as seen by the player to move (who becomes "you")."""
    if state.phase not in (Phase.PLAY, Phase.CLAIM, Phase.DRAW):
        raise ValueError(
            f"a case starts at the play, claim or draw step, not the {state.phase.value} step"
        )
    me = state.current_player
    order = (me, me.other)

    def who(player: Player | None) -> str:
        return WHO[order.index(player)] if player is not None else ""

    position = state.position(me)
    lines = [
        "# yaml-language-server: $schema=../../oracle/schema/case.schema.json",
        f"id: {case_id}",
        f"situation: {_quoted(situation)}",
        f"why: {_quoted(why)}",
        f"variant: {state.variant.name}",
    ]
    if draft:
        lines.append("draft: true")
    rules = list(rules)
    if rules:
        lines.append(f"rules: [{', '.join(rules)}]")
    lines += ["position:", "  stones:"]
    stones_written = 0
    for number, stone in enumerate(position.stones, 1):
        if stone.is_empty:
            continue
        stones_written += 1
        lines.append(f"    - stone: {number}")
        for player in order:
            if stone.sides[player]:
                lines.append(f"      {who(player)}: {_flow(stone.sides[player])}")
        if stone.completed_first is not None:
            lines.append(f"      completed_first: {who(stone.completed_first)}")
        if stone.modes:
            modes = ", ".join(_quoted(mode.label) for mode in sorted(stone.modes, key=str))
            lines.append(f"      modes: [{modes}]")
        if stone.claimed_by is not None:
            lines.append(f"      claimed_by: {who(stone.claimed_by)}")
    if not stones_written:
        lines[-1] = "  stones: []"
    if position.discards:
        lines.append(f"  discards: {_flow(position.discards)}")
    lines.append(f"  hand: {_flow(state.hands[me])}")
    played = [who(player) for player in order if player in position.jokers_played]
    gone = [name for name in played if not position.jokers_on_border(order[WHO.index(name)])]
    if gone:
        lines.append(f"  jokers_played: [{', '.join(gone)}]")
    lines += ["table:", f"  their_hand: {_flow(state.hands[me.other])}"]
    lines.append(f"  clan_deck: {_flow(reversed(state.decks[Deck.CLAN]))}")
    if Deck.TACTICS in state.decks:
        lines.append(f"  tactic_deck: {_flow(reversed(state.decks[Deck.TACTICS]))}")
        played_counts = (state.tactics_played[me], state.tactics_played[me.other])
        lines.append(f"  tactics_played: {{you: {played_counts[0]}, them: {played_counts[1]}}}")
    expert = state.game.expert
    if expert:
        lines.append("  expert: true")
    if state.phase is not (Phase.CLAIM if expert else Phase.PLAY):
        lines.append(f"  step: {state.phase.value}")
    play_done = state.phase is Phase.DRAW or (state.phase is Phase.CLAIM and not expert)
    if play_done and not state.played_this_turn:
        lines.append("  passed: true")
    if state.phase is Phase.DRAW or (state.phase is Phase.PLAY and expert):
        lines.append(f"  could_claim: {'true' if state.could_claim_this_turn else 'false'}")
    lines.append(f"  idle_turns: {state.idle_turns}")
    return "\n".join(lines) + "\n"
