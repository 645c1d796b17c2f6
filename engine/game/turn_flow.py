"""How a turn goes on: a move carried out, the steps that leave no choice, the end of a turn,
victory on the border and the stalemate award.

The state stops only where a player has a choice. Steps with a single possible outcome are
carried out at once and logged: the draw when only one deck can be drawn from, the claim step
when nothing can be proved, the pass when no card can be played.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.cards.card import CARDS, Card
from engine.cards.tactics import WILD_VALUES
from engine.game.legality import has_a_play
from engine.game.move_rules import someone_can_go_on
from engine.game.moves import (
    RUSE_OF_MOVE,
    Banshee,
    Claim,
    Deck,
    Draw,
    Move,
    Pass,
    Play,
    Recruit,
    Return,
    Strategist,
    Traitor,
)
from engine.game.play_state import Event, Outcome, Phase, PlayState, Termination
from engine.game.tactic_cards import KIND_OF_CARD
from engine.proof.pieces import Player
from engine.proof.reachable import has_won


def carry_out(state: PlayState, move: Move) -> None:
    """Carry out a legal move for the current player (the forced steps after it are
    :func:`settle`'s)."""
    state._version += 1
    _CARRY_OUT[type(move)](state, move)


def _claim(state: PlayState, move: Move) -> None:
    assert isinstance(move, Claim)
    me = state.current_player
    for number in move.stones:
        state.stones[number - 1].claimed_by = me
    if not check_victory(state, me):
        state.phase = Phase.PLAY if state.game.expert else Phase.DRAW


def _draw(state: PlayState, move: Move) -> None:
    assert isinstance(move, Draw)
    state.hands[state.current_player].append(state.decks[move.deck].pop())
    if state.phase is Phase.RECRUITER_DRAW:
        state._recruits_left -= 1
    else:
        end_turn(state)


def _return(state: PlayState, move: Move) -> None:
    assert isinstance(move, Return)
    state.hands[state.current_player].remove(move.card)
    state.decks[Deck.of(move.card)].insert(0, move.card)
    state._returns_left -= 1


def _pass(state: PlayState, move: Move) -> None:
    state.after_play()


def _card(state: PlayState, move: Move) -> None:
    me = state.current_player
    state._played_this_turn = True
    card = move.card if isinstance(move, Play) else RUSE_OF_MOVE[type(move)]
    state.hands[me].remove(card)
    if card < len(CARDS):
        assert isinstance(move, Play)
        state.add(move.stone, me, card)
    else:
        state.tactics_played[me] += 1
        KIND_OF_CARD[card].carry_out(state, move)
    if state.phase is Phase.PLAY:  # not after a Recruiter, whose own steps follow
        state.after_play()


_CARRY_OUT: dict[type, Callable[[PlayState, Move], None]] = {
    Claim: _claim,
    Draw: _draw,
    Return: _return,
    Pass: _pass,
    Play: _card,
    Recruit: _card,
    Strategist: _card,
    Banshee: _card,
    Traitor: _card,
}


def check_victory(state: PlayState, player: Player) -> bool:
    """End the game if ``player`` now holds five stones or three adjacent ones."""
    if not has_won(set(state.stones_held(player))):
        return False
    five = len(state.stones_held(player)) >= 5
    how = Termination.FIVE_STONES if five else Termination.THREE_ADJACENT_STONES
    state.outcome = Outcome(how, player)
    state.phase = Phase.OVER
    return True


def end_turn(state: PlayState) -> None:
    """Count the turn idle or not, end the game if nobody can go on, else pass the turn."""
    state._version += 1
    if state._played_this_turn or state._could_claim_this_turn:
        state._idle_turns = 0
    else:
        state._idle_turns += 1
        if state._idle_turns >= 2 and not someone_can_go_on(state):
            stalemate(state)
            return
    state.current_player = state.current_player.other
    state.turn += 1
    state._played_this_turn = state._could_claim_this_turn = False
    state.phase = Phase.CLAIM if state.game.expert else Phase.PLAY


def stalemate(state: PlayState) -> None:
    """Nobody can go on: award the open stones, then look for a winner."""
    state._version += 1
    for number, stone in state.open_stones():
        complete = [len(stone.sides[p]) == stone.capacity for p in Player]
        if complete[0] != complete[1]:
            stone.claimed_by = Player.A if complete[0] else Player.B
        else:
            totals = [award_total(stone.sides[p]) for p in Player]
            if totals[0] != totals[1]:
                stone.claimed_by = Player.A if totals[0] > totals[1] else Player.B
        if stone.claimed_by is not None:
            state.events.append(
                Event(state.turn, stone.claimed_by, f"receives stone {number}", forced=True)
            )
    winners = [player for player in Player if has_won(set(state.stones_held(player)))]
    state.phase = Phase.OVER
    if len(winners) == 1:
        state.outcome = Outcome(Termination.STALEMATE_AWARD, winners[0])
    elif winners:
        state.outcome = Outcome(Termination.AWARD_GIVES_BOTH_A_WIN)
    else:
        state.outcome = Outcome(Termination.NOBODY_WINS_AFTER_THE_AWARD)


def award_total(cards: Sequence[Card]) -> int:
    """A side's total for the stalemate award, each elite troop at its highest value."""
    return sum(max(WILD_VALUES[card]) if card in WILD_VALUES else card % 9 + 1 for card in cards)


# ------------------------------------------------------------------ forced steps


def settle(state: PlayState) -> None:
    """Carry out every step that leaves the current player no choice."""
    while state.phase is not Phase.OVER and _FORCED_STEP[state.phase](state):
        pass


def _recruiter_draw(state: PlayState) -> bool:
    if state._recruits_left == 0 or not state.drawable():
        state._recruits_left = 0
        state._returns_left = min(state._returns_left, len(state.hands[state.current_player]))
        state.phase = Phase.RECRUITER_RETURN
        return True
    if len(state.drawable()) == 1:
        forced(state, Draw(state.drawable()[0]))
        return True
    return False


def _recruiter_return(state: PlayState) -> bool:
    if state._returns_left == 0:
        state.after_play()
        return True
    return False


def _claim_step(state: PlayState) -> bool:
    if not state.provable_stones():
        forced(state, Claim())
        return True
    return False


def _draw_step(state: PlayState) -> bool:
    me = state.current_player
    drawable = state.drawable()
    if len(state.hands[me]) >= state.variant.hand_size or not drawable:
        state.events.append(Event(state.turn, me, "no draw", forced=True))
        end_turn(state)
        return True
    if len(drawable) == 1:
        forced(state, Draw(drawable[0]))
        return True
    return False


def _play_step(state: PlayState) -> bool:
    if not has_a_play(state):
        forced(state, Pass())
        return True
    return False


_FORCED_STEP: dict[Phase, Callable[[PlayState], bool]] = {
    Phase.RECRUITER_DRAW: _recruiter_draw,
    Phase.RECRUITER_RETURN: _recruiter_return,
    Phase.CLAIM: _claim_step,
    Phase.DRAW: _draw_step,
    Phase.PLAY: _play_step,
}
"""For each step, carry it out if it leaves no choice (True), or say it waits for one."""


def forced(state: PlayState, move: Move) -> None:
    """Carry out a step the rules force, logged as such."""
    state.events.append(Event(state.turn, state.current_player, str(move), forced=True))
    carry_out(state, move)


__all__ = ["award_total", "carry_out", "check_victory", "end_turn", "forced", "settle", "stalemate"]
