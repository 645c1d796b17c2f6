"""How a turn goes on: a move carried out, the steps that leave no choice, the end of a turn,
victory on the border and the stalemate award.

The state stops only where a player has a choice. Steps with a single possible outcome are
carried out at once and logged: the draw when only one deck can be drawn from, the claim step
when nothing can be proved, the pass when no card can be played.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.cards.card import Card, is_clan_card
from engine.cards.tactics import WILD_VALUES
from engine.game.cards_in_play import STONES_IN_MASK
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
from engine.proof.pieces import STONES, Player
from engine.proof.reachable import has_won

_PLAY_STEP, _DRAW_STEP, _RECRUITER_DRAW_STEP = Phase.PLAY, Phase.DRAW, Phase.RECRUITER_DRAW
"""The phases a move sets or tests, read as module values (a member read from its enumeration's
class costs ten times as much)."""

_IS_CLAN_CARD = tuple(map(is_clan_card, range(64)))
""":func:`~engine.cards.card.is_clan_card` of each card number, read from a table."""

Step = Callable[[PlayState], None]
"""One step of a game: a move carried out, or a step the rules force. The state carries each out
between two changes of its version (:meth:`engine.game.play_state.PlayState.derived`)."""


def carry_out(state: PlayState, move: Move) -> None:
    """Carry out a legal move for the current player (the forced steps after it are
    :data:`FORCED_STEP`'s)."""
    _CARRY_OUT[type(move)](state, move)


def _claim(state: PlayState, move: Move) -> None:
    assert isinstance(move, Claim)
    me = state.current_player
    for number in move.stones:
        state.claim(number, me)
    if not check_victory(state, me):
        state.phase = _PLAY_STEP if state.game.expert else _DRAW_STEP


def _draw(state: PlayState, move: Move) -> None:
    assert isinstance(move, Draw)
    state.draw(move.deck)
    if state.phase is not _RECRUITER_DRAW_STEP:
        end_turn(state)


def _return(state: PlayState, move: Move) -> None:
    assert isinstance(move, Return)
    state.return_card(move.card)


def _pass(state: PlayState, move: Move) -> None:
    state.after_play()


def _card(state: PlayState, move: Move) -> None:
    me = state.current_player
    card = move.card if isinstance(move, Play) else RUSE_OF_MOVE[type(move)]
    state.play_from_hand(card)
    if _IS_CLAN_CARD[card]:
        assert isinstance(move, Play)
        state.add(move.stone, me, card)
    else:
        state.tactics_played[me] += 1
        KIND_OF_CARD[card].carry_out(state, move)
    if state.phase is _PLAY_STEP:  # not after a Recruiter, whose own steps follow
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
    held = state.held_mask(player)
    if not WINS[held]:
        return False
    five = held.bit_count() >= 5
    how = Termination.FIVE_STONES if five else Termination.THREE_ADJACENT_STONES
    state.outcome = Outcome(how, player)
    state.phase = Phase.OVER
    return True


def end_turn(state: PlayState) -> None:
    """Count the turn idle or not, end the game if nobody can go on, else pass the turn."""
    if state.count_idle_turn() >= 2 and not someone_can_go_on(state):
        stalemate(state)
    else:
        state.pass_turn()


def stalemate(state: PlayState) -> None:
    """Nobody can go on: award the open stones, then look for a winner."""
    for number, stone in state.open_stones():
        complete = [len(stone.sides[p]) == stone.capacity for p in Player]
        if complete[0] != complete[1]:
            state.claim(number, Player.A if complete[0] else Player.B)
        else:
            totals = [award_total(stone.sides[p]) for p in Player]
            if totals[0] != totals[1]:
                state.claim(number, Player.A if totals[0] > totals[1] else Player.B)
        if stone.claimed_by is not None:
            state.events.append(
                Event.logged(state.turn, stone.claimed_by, f"receives stone {number}", True)
            )
    winners = [player for player in Player if WINS[state.held_mask(player)]]
    state.phase = Phase.OVER
    if len(winners) == 1:
        state.outcome = Outcome(Termination.STALEMATE_AWARD, winners[0])
    elif winners:
        state.outcome = Outcome(Termination.AWARD_GIVES_BOTH_A_WIN)
    else:
        state.outcome = Outcome(Termination.NOBODY_WINS_AFTER_THE_AWARD)


WINS = tuple(has_won(set(STONES_IN_MASK[mask])) for mask in range(1 << len(STONES)))
"""For each mask of stones held (stone ``n`` is bit ``n - 1``), whether they win
(:func:`engine.proof.reachable.has_won`), worked out once."""


def award_total(cards: Sequence[Card]) -> int:
    """A side's total for the stalemate award, each elite troop at its highest value."""
    return sum(max(WILD_VALUES[card]) if card in WILD_VALUES else card % 9 + 1 for card in cards)


# ------------------------------------------------------------------ forced steps


def _recruiter_draw(state: PlayState) -> Step | None:
    drawable = state.drawable()
    if state.recruits_left == 0 or not drawable:
        return PlayState.stop_recruiting
    if len(drawable) == 1:
        return _DRAW[drawable[0]]
    return None


def _recruiter_return(state: PlayState) -> Step | None:
    return PlayState.after_play if state.returns_left == 0 else None


def _claim_step(state: PlayState) -> Step | None:
    return None if state.provable_stones() else _CLAIM_NOTHING


def _draw_step(state: PlayState) -> Step | None:
    drawable = state.drawable()
    if len(state.hands[state.current_player]) >= state.variant.hand_size or not drawable:
        return _no_draw
    if len(drawable) == 1:
        return _DRAW[drawable[0]]
    return None


def _no_draw(state: PlayState) -> None:
    state.events.append(Event.logged(state.turn, state.current_player, "no draw", True))
    end_turn(state)


def _play_step(state: PlayState) -> Step | None:
    return None if has_a_play(state) else _PASS


def _game_over(state: PlayState) -> None:
    return None


FORCED_STEP: dict[Phase, Callable[[PlayState], Step | None]] = {
    Phase.OVER: _game_over,
    Phase.RECRUITER_DRAW: _recruiter_draw,
    Phase.RECRUITER_RETURN: _recruiter_return,
    Phase.CLAIM: _claim_step,
    Phase.DRAW: _draw_step,
    Phase.PLAY: _play_step,
}
"""For each step, what tells the step the rules force there (``FORCED_STEP[state.phase](state)``:
the step, when the current player has no choice; None when they have one, or the game is over).
The game state reads it after each step, a table rather than a function that reads it."""


def forced(move: Move) -> Step:
    """The step carrying out ``move`` when the rules force it, logged as such: made once for
    each move (a forced step is one of a few: no claim, a pass, a draw from one deck)."""
    step = _FORCED.get(move)
    if step is None:
        text, carry = str(move), _CARRY_OUT[type(move)]

        def step(state: PlayState) -> None:
            state.events.append(Event.logged(state.turn, state.current_player, text, True))
            carry(state, move)

        _FORCED[move] = step
    return step


_FORCED: dict[Move, Step] = {}
_CLAIM_NOTHING, _PASS = forced(Claim()), forced(Pass())
_DRAW = {deck: forced(Draw(deck)) for deck in Deck}
"""The forced steps the turn flow takes, made once."""


__all__ = [
    "FORCED_STEP",
    "Step",
    "award_total",
    "carry_out",
    "check_victory",
    "end_turn",
    "forced",
    "stalemate",
]
