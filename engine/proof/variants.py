"""The variants of the game: the base game and the tactics variant, what cards each deals and
how large a hand may grow; :func:`variant_named` finds one by its name.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from engine.cards.card import CARDS, Card, echoed, mask_of
from engine.cards.tactics import Tactic
from engine.proof.pieces import VariantError


class Variant:
    """The rules in force. Variants subclass this and override its small hooks: the hand size,
    the Tactic cards in the game, and the rule that says when a player may pass.

        >>> from engine import Variant, variant_named
        >>> isinstance(variant_named("base"), Variant), variant_named("base").hand_size
        (True, 6)
    """

    name = "base"
    hand_size = 6
    has_tactics = False
    tactic_cards: tuple[Card, ...] = ()
    """The Tactic cards in the game, in the order the Tactic deck is made before its shuffle."""
    pass_rule = "stalemate.base-pass"
    """The rule that lets a player pass when no Clan card can be played."""

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card in the game: the Clan cards, then the Tactic cards."""
        return (*CARDS, *self.tactic_cards)

    @property
    def card_mask(self) -> int:
        """Every card in the game, as a bitmask."""
        return _card_mask(self.tactic_cards)

    @property
    def largest_hand(self) -> int:
        """The most cards a hand can hold at any moment: the hand size, plus two mid-Recruiter."""
        return self.hand_size + 2 if Tactic.RECRUITER in self.tactic_cards else self.hand_size

    def __repr__(self) -> str:
        return f"VARIANTS[{self.name!r}]"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(self.name)


@cache
def _card_mask(tactic_cards: tuple[Card, ...]) -> int:
    return mask_of((*CARDS, *tactic_cards))


class TacticsVariant(Variant):
    """The tactics variant: 7-card hands, combat modes on stones, face-up discards.
    For example:

        >>> from engine import TacticsVariant
        >>> TacticsVariant().hand_size, len(TacticsVariant().cards)
        (7, 64)
    """

    name = "tactics"
    hand_size = 7
    has_tactics = True
    tactic_cards = tuple(int(tactic) for tactic in Tactic)
    pass_rule = "tactics.passing"


VARIANTS: Mapping[str, Variant] = {
    variant.name: variant for variant in (Variant(), TacticsVariant())
}
"""Every variant by name, as cases write it."""


def variant_named(name: str) -> Variant:
    """The variant called ``name``, or :class:`VariantError` naming the choices.
    For example:

        >>> from engine import variant_named
        >>> variant_named("tactics")
        VARIANTS['tactics']
    """
    try:
        return VARIANTS[name]
    except KeyError:
        raise VariantError(
            f"unknown variant {echoed(str(name))}; the variants are {', '.join(VARIANTS)}",
            part="variant",
        ) from None


BASE_VARIANT = VARIANTS["base"]


__all__ = ["BASE_VARIANT", "VARIANTS", "TacticsVariant", "Variant", "variant_named"]
