"""The engine's immutable values: equal by fields, hashable, unchangeable, picklable, copyable."""

from __future__ import annotations

import pickle

import pytest

from engine import ClaimVerdict, Completion, Player, Position, Reason, StoneState, parse_cards


def test_values_are_equal_by_class_and_fields_and_hash_alike() -> None:
    stone = StoneState(sides=(tuple(parse_cards("red 1, red 2")), ()))
    same = StoneState(sides=(tuple(parse_cards("red 1, red 2")), ()))
    assert stone == same and hash(stone) == hash(same)
    assert stone != StoneState()
    assert Completion((1, 2), 5) != (1, 2)  # not a tuple, whatever its fields
    assert ClaimVerdict(1, Reason.WITNESS) != ClaimVerdict(1, Reason.UNBEATABLE)


def test_a_value_cannot_be_changed_but_can_be_copied_with_changes() -> None:
    position = Position.from_stones({1: StoneState(claimed_by=Player.B)})
    with pytest.raises(AttributeError, match="cannot assign to field 'hand'"):
        position.hand = (1,)
    with pytest.raises(AttributeError, match="cannot delete field 'hand'"):
        del position.hand
    moved = position.replace(viewer=Player.B)
    assert moved.viewer is Player.B and moved.stones == position.stones
    assert position.viewer is Player.A
    with pytest.raises(TypeError, match="Position has no field 'hands'"):
        position.replace(hands=())


def test_a_copy_is_checked_like_any_new_position() -> None:
    position = Position()
    with pytest.raises(ValueError, match="a border has 9 stones"):
        position.replace(stones=position.stones[:8])


def test_values_survive_pickling() -> None:
    verdict = ClaimVerdict(3, Reason.WITNESS, best_reply=Completion((7,), 12))
    position = Position.from_stones({2: StoneState(sides=((1,), (2,)))}, variant="tactics")
    for value in (verdict, position, position.stone(2)):
        assert pickle.loads(pickle.dumps(value)) == value
    assert pickle.loads(pickle.dumps(position)).on_table_mask() == position.on_table_mask()
