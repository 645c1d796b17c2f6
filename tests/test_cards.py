"""Cards: the parse/name pair round-trips, and bad input names itself in the error."""

from __future__ import annotations

import pytest

from engine import (
    CARDS,
    CardError,
    CardSet,
    Colour,
    Tactic,
    card_colour,
    card_name,
    card_value,
    make_card,
    parse_card,
    parse_cards,
)


def test_every_card_round_trips_through_its_name() -> None:
    assert len(CARDS) == 54
    for card in CARDS:
        assert parse_card(card_name(card)) == card


def test_card_identity() -> None:
    card = parse_card("purple 7")
    assert card_colour(card) is Colour.PURPLE
    assert card_value(card) == 7
    assert make_card(Colour.PURPLE, 7) == card
    assert card_name(card) == "purple 7"


@pytest.mark.parametrize("text", ["Red 7", "  red   7 ", "RED 7"])
def test_case_and_spacing_are_forgiven(text: str) -> None:
    assert parse_card(text) == make_card(Colour.RED, 7)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("red 10", "unknown value '10'"),
        ("red 0", "unknown value '0'"),
        ("orange 3", "unknown colour 'orange'"),
        ("7 red", "write the colour first, as in 'red 7'"),
        ("red", "not a card"),
        ("red seven", "unknown value 'seven'"),
        ("", "not a card"),
    ],
)
def test_bad_cards_are_named_in_the_error(text: str, message: str) -> None:
    with pytest.raises(CardError, match=message) as caught:
        parse_card(text)
    assert repr(text) in str(caught.value)


def test_card_set_behaves_like_a_set() -> None:
    cards = CardSet(map(parse_card, ["red 1", "pink 9", "blue 4"]))
    assert len(cards) == 3
    assert parse_card("pink 9") in cards
    assert parse_card("pink 8") not in cards
    assert cards.names() == ["red 1", "blue 4", "pink 9"]
    namespace = {"CardSet": CardSet, "parse_cards": parse_cards, "Tactic": Tactic}
    assert eval(repr(cards), namespace) == cards
    jokers = CardSet([Tactic.JOKER, Tactic.SECOND_JOKER])  # "joker" alone reads as the first
    assert eval(repr(jokers), namespace) == jokers
    assert (cards - CardSet([parse_card("red 1")])).names() == ["blue 4", "pink 9"]
    with pytest.raises(CardError):
        CardSet(1 << 64)


def test_parse_cards_and_cards_text_round_trip() -> None:
    from engine.cards.card import cards_text

    assert parse_cards("") == ()
    cards = parse_cards("red 7, Pink 1 ,blue 9")
    assert cards_text(cards) == "red 7, pink 1, blue 9"
    assert parse_cards(cards_text(cards)) == cards
