"""What the catalogue checks of the engine at every moment a case reaches, beyond its answers.

:meth:`engine.GameState.check_invariants` is the engine's own check of a state (each card in
one place, Tactic counts that can be true, each player's view a position that can exist), the
one a table built by hand must pass. The checks here are the oracle's, made from outside on what
the engine tells: the history against the log, each view and the returns against the state, the
ending against the border, the decks, the Recruiter's counters and the stones' capacities. No
input can break them; only a wrong engine can, which is why they live here and not in the
engine: the catalogue (``oracle.verify.replay``) and the engine's soak tests run them after
every move.
"""

from __future__ import annotations

from itertools import pairwise

from engine import (
    STONES,
    ClaimVerdict,
    Deck,
    GameState,
    Phase,
    Player,
    Reason,
    Tactic,
    Termination,
    Verdict,
    card_name,
    side_capacity,
)


def engine_problems(state: GameState) -> list[str]:
    """Every broken invariant of ``state``, in words: the engine's own and the oracle's."""
    problems = state.check_invariants()
    for number, stone in zip(STONES, state.stones, strict=True):
        if stone.capacity != side_capacity(stone.modes):
            problems.append(
                f"stone {number} takes {stone.capacity} cards a side, but its combat modes"
                f" make it {side_capacity(stone.modes)}"
            )
    problems += recruiter_problems(state)
    problems += record_problems(state)
    for deck, cards in state.decks.items():
        strays = [card for card in cards if (card >= Tactic.JOKER) != (deck is Deck.TACTICS)]
        if strays:
            names = ", ".join(card_name(card) for card in strays)
            problems.append(f"the {deck.value} deck holds {names}")
    problems += interface_problems(state)
    problems += outcome_problems(state)
    if state.idle_turns < 0:
        problems.append(f"{state.idle_turns} idle turns in a row")
    return problems


def record_problems(state: GameState) -> list[str]:
    """The history must tell the game as it went: the moves chosen are the log's unforced
    entries, in order, the turn numbers of the log go up one turn at a time (every turn has
    at least one entry, a forced pass or draw at least) up to the turn being played, and the
    players take the turns in turn."""
    problems = []
    chosen_events = [event for event in state.events if not event.forced]
    chosen = [event.text for event in chosen_events]
    if [str(move) for move in state.moves] != chosen:
        problems.append(
            f"the moves recorded ({len(state.moves)}) are not the {len(chosen)} moves the log"
            " shows chosen"
        )
    turns = [event.turn for event in state.events] + [state.turn]
    for before, after in pairwise(turns):
        if after - before not in (0, 1):
            problems.append(f"the turn number goes from {before} to {after}")
            break
    for event in chosen_events[1:]:
        first = chosen_events[0]
        whose = first.player if (event.turn - first.turn) % 2 == 0 else first.player.other
        if event.player is not whose:
            mover = event.player.name
            problems.append(f"turn {event.turn} is {whose.name}'s, but {mover} moved")
            break
    return problems


def outcome_problems(state: GameState) -> list[str]:
    """How the game ended must fit the border: over exactly when there is an outcome, a draw
    exactly when nobody won, and a winner holding what the ending names (five stones, or
    three adjacent ones and fewer than five)."""
    outcome = state.outcome
    if (outcome is None) != (state.phase is not Phase.OVER):
        return [f"the game is at the {state.phase.value} step with the outcome {outcome}"]
    if outcome is None:
        return []
    if outcome.termination.is_draw != (outcome.winner is None):
        return [f"the game ended by {outcome} with {outcome.winner} as the winner"]
    if outcome.winner is None:
        return []
    held = set(state.stones_held(outcome.winner))
    adjacent = any({first, first + 1, first + 2} <= held for first in range(1, 8))
    fits = {
        Termination.FIVE_STONES: len(held) >= 5,
        Termination.THREE_ADJACENT_STONES: len(held) < 5 and adjacent,
        Termination.STALEMATE_AWARD: len(held) >= 5 or adjacent,
    }[outcome.termination]
    if fits:
        return []
    return [f"{outcome.winner.name} won by {outcome} holding stones {sorted(held)}"]


def interface_problems(state: GameState) -> list[str]:
    """What the game tells a player or a driver must be the truth: each view shows the real
    deck sizes, hand size, Tactic counts, player and step, and the returns give the winner 1
    and the loser -1 (0 each in a draw or a game still going)."""
    problems = []
    for player in Player:
        view = state.view(player)
        shown = (
            view.deck_sizes,
            view.their_hand_size,
            view.tactics_played,
            view.current_player,
            view.phase,
        )
        true = (
            {deck: len(cards) for deck, cards in state.decks.items()},
            len(state.hands[player.other]),
            tuple(state.tactics_played),
            state.current_player,
            state.phase,
        )
        if shown != true:
            problems.append(f"{player.name}'s view shows {shown}, not {true}")
    winner = state.winner if state.is_over else None
    due = (0, 0) if winner is None else (1, -1) if winner is Player.A else (-1, 1)
    if state.returns() != due:
        problems.append(f"the returns are {state.returns()}, not {due}")
    return problems


def recruiter_problems(state: GameState) -> list[str]:
    """The Recruiter's counters must fit the step: draws left only while drawing for it
    (with both returns to come), returns left only while putting cards back, never more
    than the hand holds, and none at all in any other step."""
    recruits, returns = state.recruits_left, state.returns_left
    if state.phase is Phase.RECRUITER_DRAW:
        fits = 0 < recruits <= 3 and returns == 2
    elif state.phase is Phase.RECRUITER_RETURN:
        fits = recruits == 0 and 0 < returns <= min(2, len(state.hands[state.current_player]))
    else:
        fits = recruits == returns == 0
    if fits:
        return []
    return [
        f"at the {state.phase.value} step the Recruiter has {recruits} draws and {returns}"
        " returns left"
    ]


def verdict_problem(verdict: ClaimVerdict) -> str | None:
    """Why a claim verdict contradicts itself, or None: it names witness cards (the cards the
    site marks) exactly when a completion out of sight refutes the claim, and such a claim is
    refused."""
    stone, reason = verdict.stone, verdict.reason
    if bool(verdict.witness) != (reason is Reason.WITNESS):
        return f"stone {stone}: the engine names witness cards for {reason.value}"
    if reason is Reason.WITNESS and verdict.verdict is not Verdict.REFUSED:
        return f"stone {stone}: a completion out of sight beats the claim, yet it is granted"
    return None
