"""What the current player may do: the legal moves, listed in one place, and the refusal of any
other move in words and a rule id.

:func:`legal_moves` is the one definition of what is legal; :func:`refusal` only explains why a
move is not among them. Both read the rules from :mod:`engine.game.move_rules` and the Tactic cards'
own from :mod:`engine.game.tactic_cards`, and a test checks on thousands of states that they agree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain

from engine.cards.card import Card, card_name, is_clan_card
from engine.cards.tactics import COMBAT_MODE_CARDS, ELITE_TROOPS, JOKERS
from engine.game.move_rules import (
    CLAN_PLAYS_TO,
    ROOM_FOR_A_CARD,
    SOME_STONE_HAS_ROOM,
    STONE_EXISTS,
    TACTIC_LIMIT,
    check_room,
    claims_of,
    pass_rule,
    plays_to,
)
from engine.game.moves import (
    RUSE_OF_MOVE,
    Banshee,
    Claim,
    Deck,
    Draw,
    IllegalMove,
    Move,
    Pass,
    Play,
    Recruit,
    Return,
    Strategist,
    Traitor,
    held_card,
    play_of,
)
from engine.game.play_state import Phase, PlayState
from engine.game.tactic_cards import KIND_OF_CARD, USES_OF_CARD
from engine.proof.claims import REASON_RULES, Verdict, claim_verdict
from engine.proof.pieces import STONES

CLAIM_RULES = {
    reason: rules[0] for reason, rules in REASON_RULES.items() if reason.verdict is Verdict.REFUSED
}
"""The rule a refused claim breaks, by the reason the proof gives."""

RULES_NAMED = frozenset(
    {
        *CLAIM_RULES.values(),
        "components.clan-cards",
        "components.stones",
        "components.tactic-kinds",
        "stalemate.game-ends",
        "claim.several-at-once",
        "stalemate.base-pass",
        "tactics.banshee",
        "tactics.blind-mans-bluff",
        "tactics.limit",
        "tactics.mud-fight",
        "tactics.one-joker-per-player",
        "tactics.passing",
        "tactics.recruiter",
        "tactics.ruse-targets",
        "tactics.strategist",
        "tactics.traitor",
        "turn.draw",
        "turn.empty-deck",
        "turn.expert-variant",
        "turn.order",
        "turn.play-card",
        "turn.victory",
    }
)
"""Every rule id an :class:`IllegalMove` can name; a test checks each is in the rules index."""


# ------------------------------------------------------------------ listing

_PLAY, _CLAIM, _DRAW, _RECRUITER_DRAW = Phase.PLAY, Phase.CLAIM, Phase.DRAW, Phase.RECRUITER_DRAW
"""The steps the listing tells apart, read as module values (a member read from its
enumeration's class costs ten times as much)."""
_PASS, _DRAW_FROM = (Pass(),), {deck: Draw(deck) for deck in Deck}
"""The pass and the draws the listing offers, made once (a move is an immutable value)."""
_IS_TACTIC = tuple(not is_clan_card(card) for card in range(64))
""":func:`~engine.cards.card.is_clan_card`'s answer reversed, for each card number."""


class LegalMoves:
    """The legal moves of a state as it is now, a view over its listing (:func:`listing`, as
    python-chess's ``LegalMoveGenerator``): iterating it lists them in a fixed order; ``move
    in`` asks the rules' own checks (:func:`refusal`), listing nothing. A test checks on whole
    games that ``in`` and the listing agree.

        >>> from engine import Game, Pass
        >>> from engine.game.legality import LegalMoves
        >>> state = Game.named("base", seed=1).new_initial_state()
        >>> legal = LegalMoves(state)
        >>> bool(legal), legal.count(), Pass() in legal, state.legal_moves()[0] in legal
        (True, 54, False, True)
    """

    __slots__ = ("_state",)

    def __init__(self, state: PlayState) -> None:
        self._state = state

    def __iter__(self) -> Iterator[Move]:
        return chain.from_iterable(self._groups())

    def __bool__(self) -> bool:
        return any(self._groups())

    def count(self) -> int:
        """How many legal moves there are (no ``len``: ``list(view)`` would ask it first)."""
        return sum(map(len, self._groups()))

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, Move):
            return False
        return refusal(self._state, as_listed(self._state, move)) is None

    def _groups(self) -> Iterator[Sequence[Move]]:
        """The moves as one group: the listing, kept until the state changes."""
        yield listing(self._state)


def listed_moves(state: PlayState) -> tuple[Move, ...]:
    """The legal moves, in a fixed order; the play step's in one pass over the hand: each Clan
    card's plays to the stones with room (:func:`~engine.game.move_rules.plays_to`, kept by card
    and mask), what each Tactic card allows, and the pass when no Clan card fits (``may_pass``)."""
    if state.phase is not _PLAY:
        return _listed_outside_play(state, state.phase)
    me = state.current_player
    hand, room, rows = state.hands[me], state.room(me), CLAN_PLAYS_TO
    moves: list[Move] = []
    tactic_cards = 0  # how many Tactic cards the hand holds
    for card in hand:
        block = rows[card][room]
        if block is None:
            block = plays_to(card, room)
        elif not block:
            tactic_cards += _IS_TACTIC[card]
        moves += block
    clan_card_fits = bool(moves)
    if tactic_cards and state.variant.has_tactics and TACTIC_LIMIT.holds(state, me):
        _list_tactic_uses(state, hand, moves)
    if not clan_card_fits:
        moves += _PASS
    return tuple(moves)


def _listed_outside_play(state: PlayState, phase: Phase) -> tuple[Move, ...]:
    """The legal moves of a claim step, a draw or a Recruiter's return; none once it is over."""
    if phase is _CLAIM:
        return claims_of(state.provable_stones())
    if phase is _DRAW or phase is _RECRUITER_DRAW:
        return tuple([_DRAW_FROM[deck] for deck, cards in state.decks.items() if cards])
    if phase is Phase.RECRUITER_RETURN:
        return tuple([Return(card) for card in distinct(state.hands[state.current_player])])
    return ()


def _list_tactic_uses(state: PlayState, hand: list[Card], moves: list[Move]) -> None:
    """Add to ``moves`` what each Tactic card in ``hand`` allows (its kind's ``uses``), a Joker
    after the first left out (as :func:`distinct` does)."""
    joker = False  # whether a Joker's moves are listed
    for card in hand:
        if _IS_TACTIC[card]:
            if card in JOKERS:
                if joker:
                    continue
                joker = True
            moves += USES_OF_CARD[card](state, card)


def legal_moves(state: PlayState) -> list[Move]:
    """Every move the current player may make now, in a fixed order (:class:`LegalMoves`)."""
    return list(LegalMoves(state))


def has_a_play(state: PlayState) -> bool:
    """Whether the play step offers any move but a pass: its listing (:func:`listing`, which
    the player asks next) is more than the pass alone."""
    listed = listing(state)
    return len(listed) > 1 or type(listed[0]) is not Pass


def listing(state: PlayState) -> tuple[Move, ...]:
    """The legal moves (:func:`listed_moves`), kept until the state changes."""
    return state.derived("legal moves", listed_moves, state)


def distinct(cards: Iterable[Card]) -> list[Card]:
    """The cards, with any Joker after the first dropped: the two Jokers play alike, and which
    one comes first in the hand (not its number) keeps the order of the moves."""
    kept: list[Card] = []
    joker = False  # whether a Joker is kept
    for card in cards:
        if card in JOKERS:
            if joker:
                continue
            joker = True
        kept.append(card)
    return kept


def as_listed(state: PlayState, move: Move) -> Move:
    """``move`` as the legal moves write it: the two Jokers play alike, so a Joker names the one
    actually in the place it is taken from (as ``joker`` in the notation does)."""
    if not isinstance(move, _MOVES_OF_A_CARD):
        return move
    if move.card not in JOKERS:
        return move
    me = state.current_player
    if isinstance(move, Play | Return):
        card = held_card(move.card, state.hands[me])
        return play_of(card, move.stone) if isinstance(move, Play) else Return(card)
    if isinstance(move, Banshee):
        return Banshee(held_card(move.card, state.side(move.stone, me.other)), move.stone)
    if isinstance(move, Strategist):
        card = held_card(move.card, state.side(move.source, me))
        return Strategist(card, move.source, move.to)
    card = held_card(move.card, state.side(move.source, me.other))
    return Traitor(card, move.source, move.to)


_MOVES_OF_A_CARD = (Play, Return, Strategist, Banshee, Traitor)
"""The kinds of move that name a card, which may be a Joker (a tuple made once, not a union
at each call)."""


# ------------------------------------------------------------------ explaining a refusal


def refusal(state: PlayState, move: Move) -> IllegalMove | None:
    """Why ``move`` is refused here, in words and a rule id; None if nothing forbids it."""
    try:
        _check(state, move)
    except IllegalMove as refused:
        return refused
    return None


def _check(state: PlayState, move: Move) -> None:
    if state.phase is Phase.OVER:
        victory = state.outcome is not None and state.outcome.is_victory
        rule = "turn.victory" if victory else "stalemate.game-ends"
        raise IllegalMove(move, "the game is over", rule)
    card = getattr(move, "card", 0)
    if not isinstance(card, int) or not 0 <= card < 64:
        raise IllegalMove(move, f"there is no card number {card!r}", "components.clan-cards")
    _CHECKS[type(move)](state, move)


def _check_claim(state: PlayState, move: Move) -> None:
    assert isinstance(move, Claim)
    if state.phase is not Phase.CLAIM:
        if state.game.expert:
            raise IllegalMove(
                move,
                "in the expert variant claims come at the start of the turn",
                "turn.expert-variant",
            )
        _explain_passed_claim_step(state, move)
        raise IllegalMove(move, f"no claim in the {state.phase.value} step", "turn.order")
    if len(set(move.stones)) != len(move.stones):
        raise IllegalMove(move, "a stone is named twice", "claim.several-at-once")
    position = state.position(state.current_player)
    for number in move.stones:
        if not isinstance(number, int):
            raise IllegalMove(move, f"there is no stone {number}", "components.stones")
        STONE_EXISTS.check(move, number)
        verdict = claim_verdict(position, number, state.game.rulings)
        if not verdict.granted:
            raise IllegalMove(
                move, f"stone {number}: {verdict.explanation}", CLAIM_RULES[verdict.reason]
            )


def _explain_passed_claim_step(state: PlayState, move: Claim) -> None:
    """A claim just after the engine passed the claim step for want of a provable stone."""
    passed = state.phase is Phase.DRAW and not state.could_claim_this_turn
    if not passed or not move.stones or move.stones[0] not in STONES:
        return
    verdict = claim_verdict(
        state.position(state.current_player), move.stones[0], state.game.rulings
    )
    raise IllegalMove(
        move,
        "the claim step is over: no stone could be proved, so the engine passed it (claim"
        f" nothing); stone {verdict.stone}: {verdict.explanation}",
        CLAIM_RULES.get(verdict.reason, "turn.order"),
    )


def _check_draw(state: PlayState, move: Move) -> None:
    assert isinstance(move, Draw)
    if state.phase not in (Phase.DRAW, Phase.RECRUITER_DRAW):
        raise IllegalMove(move, f"no card is drawn in the {state.phase.value} step", "turn.order")
    if move.deck not in state.decks:
        raise IllegalMove(move, "the base game has no Tactic deck", "turn.draw")
    if not state.decks[move.deck]:
        raise IllegalMove(move, f"the {move.deck.value} deck is empty", "turn.empty-deck")


def _check_return(state: PlayState, move: Move) -> None:
    assert isinstance(move, Return)
    if state.phase is not Phase.RECRUITER_RETURN:
        raise IllegalMove(move, "cards go back only for a Recruiter", "tactics.recruiter")
    if move.card not in state.hands[state.current_player]:
        raise IllegalMove(move, f"{card_name(move.card)} is not in your hand", "tactics.recruiter")


def _check_play_step(state: PlayState, move: object) -> None:
    if state.phase is not Phase.PLAY:
        expert_claim = state.game.expert and state.phase is Phase.CLAIM
        rule = "turn.expert-variant" if expert_claim else "turn.order"
        raise IllegalMove(
            move, f"cards are played in the play step, not the {state.phase.value} step", rule
        )


def _check_pass(state: PlayState, move: Move) -> None:
    _check_play_step(state, move)
    pass_rule(state).check(move, state, state.current_player)


def _check_card(state: PlayState, move: Move) -> None:
    """A card played: a Clan card onto a side, or a Tactic card of any kind."""
    _check_play_step(state, move)
    me = state.current_player
    card = move.card if isinstance(move, Play) else RUSE_OF_MOVE[type(move)]
    if card not in state.hands[me]:
        raise IllegalMove(move, f"{card_name(card)} is not in your hand", "turn.play-card")
    if not is_clan_card(card):
        TACTIC_LIMIT.check(move, state, me)
    if is_clan_card(card):
        assert isinstance(move, Play)
        check_room(state, move, move.stone, ROOM_FOR_A_CARD)
    elif isinstance(move, Play) and card not in ELITE_TROOPS | COMBAT_MODE_CARDS:
        raise IllegalMove(
            move, f"{card_name(card)} is a ruse: write it as a ruse", "components.tactic-kinds"
        )
    else:
        KIND_OF_CARD[card].check(state, move)


def card_refusal(state: PlayState, card: Card) -> IllegalMove | None:
    """Why ``card`` in the current player's hand can be played nowhere now, in the words of the
    rule a move of it would break (the page shows it on the card); None when :func:`legal_moves`
    lists a move that plays it. A test checks the two agree."""
    name = card_name(card)
    try:
        _check_play_step(state, name)
        if card not in state.hands[state.current_player]:
            raise IllegalMove(name, f"{name} is not in your hand", "turn.play-card")
        if is_clan_card(card):
            SOME_STONE_HAS_ROOM.check(name, state, state.current_player)
        else:
            TACTIC_LIMIT.check(name, state, state.current_player)
            KIND_OF_CARD[card].check_some_use(state, card, name)
    except IllegalMove as refused:
        return refused
    return None


_CHECKS: dict[type, Callable[[PlayState, Move], None]] = {
    Claim: _check_claim,
    Draw: _check_draw,
    Return: _check_return,
    Pass: _check_pass,
    Play: _check_card,
    Recruit: _check_card,
    Strategist: _check_card,
    Banshee: _check_card,
    Traitor: _check_card,
}
"""How each kind of move is checked, beyond what every move must keep."""


__all__ = [
    "CLAIM_RULES",
    "RULES_NAMED",
    "LegalMoves",
    "as_listed",
    "card_refusal",
    "distinct",
    "has_a_play",
    "legal_moves",
    "listed_moves",
    "listing",
    "refusal",
]
