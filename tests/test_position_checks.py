"""The constructor's quick pass over a position's cards vouches only for a position the full
listing finds nothing wrong with: whatever the position, ``Position(...)`` raises the first
problem ``status()`` lists (same type, same message), or builds with the cards face up."""

from __future__ import annotations

from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import claim_positions, tactics_claim_positions

from engine import Player, Position, PositionError, StoneState
from engine.cards.card import mask_of
from engine.proof.pieces import face_up_mask

_ODD_CARDS: tuple[object, ...] = (-1, -20, 64, 99, 3.0, True, "red 5", None)
"""Values that are no plain card number, each at an edge of what the quick pass reads."""


def _fields(position: Position) -> dict[str, object]:
    return {name: getattr(position, name) for name in Position._fields}


_CHANGES = (
    "none",
    "duplicate",
    "over capacity",
    "completion order",
    "no completion order",
    "odd card",
    "large hand",
    "discards",
    "jokers played",
    "short border",
)


def _changed(data: st.DataObject, position: Position) -> dict[str, object]:
    """The fields of ``position`` with one change drawn: none, or one a position may not have
    (drawn a plain value at a time: a stone holding what is no card has no repr to log)."""
    fields = _fields(position)
    placed = [card for state in position.stones for side in state.sides for card in side]
    unseen = sorted(set(range(54)) - set(placed) - set(position.hand) - set(position.discards))
    change = data.draw(st.sampled_from(_CHANGES))
    if change == "duplicate" and placed:
        fields["hand"] = (*position.hand, data.draw(st.sampled_from(placed)))
    elif change == "large hand":
        fields["hand"] = (*position.hand, *unseen[: data.draw(st.integers(1, 4))])
    elif change == "discards" and unseen:
        fields["discards"] = (*position.discards, unseen[-1])
    elif change == "jokers played":
        fields["jokers_played"] = frozenset({data.draw(st.sampled_from(list(Player)))})
    elif change == "short border":
        fields["stones"] = position.stones[:-1]
    elif change in ("over capacity", "completion order", "no completion order", "odd card"):
        fields["stones"] = _stone_changed(data, position.stones, change, unseen)
    return fields


def _stone_changed(
    data: st.DataObject, stones: tuple[StoneState, ...], change: str, unseen: list[int]
) -> tuple[StoneState, ...]:
    """``stones`` with one of them changed as ``change`` says."""
    number = data.draw(st.integers(0, 8))
    player = data.draw(st.sampled_from(list(Player)))
    stone = stones[number]
    sides = [stone.sides[0], stone.sides[1]]
    first = stone.completed_first
    if change == "over capacity":
        sides[player] = (*sides[player], *unseen[: 4 - len(sides[player])])
        if data.draw(st.booleans()):
            sides[1 - player] = ()  # 4 against 0 as well as against 1 to 3
    elif change == "odd card":
        odd = data.draw(st.sampled_from(_ODD_CARDS))
        sides[player] = (*sides[player][:2], odd)  # type: ignore[arg-type]
    else:
        first = player if change == "completion order" else None
    changed = StoneState._without_checks((sides[0], sides[1]), first, stone.modes, stone.claimed_by)
    return (*stones[:number], changed, *stones[number + 1 :])


def _status(fields: dict[str, object]) -> list[PositionError]:
    """What the full listing says of these fields (set as they are: even ``_without_checks``
    works a mask out of the cards, which a value that is no card stops)."""
    unchecked = object.__new__(Position)
    for name, value in fields.items():
        object.__setattr__(unchecked, name, value)
    return unchecked.status()


def _judged_alike(fields: dict[str, object]) -> None:
    problems = _status(fields)
    try:
        built = Position(**fields)  # type: ignore[arg-type]
    except PositionError as error:
        assert problems, f"raised {error!r} where status lists nothing"
        assert (type(error), str(error)) == (type(problems[0]), str(problems[0]))
    else:
        assert not problems, f"built where status lists {problems!r}"
        expected = face_up_mask(built.stones, built.discards)
        assert built.on_table_mask() == expected & ~mask_of(built.hand)


@settings(max_examples=examples(400))
@given(st.data(), claim_positions())
def test_a_base_position_is_built_or_refused_as_its_status_says(
    data: st.DataObject, drawn: tuple[Position, int]
) -> None:
    _judged_alike(_changed(data, drawn[0]))


@settings(max_examples=examples(200))
@given(st.data(), tactics_claim_positions())
def test_a_tactics_position_is_built_or_refused_as_its_status_says(
    data: st.DataObject, drawn: tuple[Position, int]
) -> None:
    _judged_alike(_changed(data, drawn[0]))


def test_the_quick_pass_takes_no_bool_or_float_for_a_card() -> None:
    """A bool is an int, and the full check takes it as one; a float equal to a card is not."""
    for odd in (3.0, 2.5):
        stones = (StoneState(sides=((odd,), (4,))),) + (StoneState(),) * 8  # type: ignore[arg-type]
        try:
            Position(stones)
        except PositionError as error:
            assert str(error) == f"no card number {odd!r}"
        else:
            raise AssertionError(f"{odd!r} taken for a card")
    stones = (StoneState(sides=((True,), (4,))),) + (StoneState(),) * 8
    assert Position(stones).on_table_mask() == (1 << 1) | (1 << 4)
