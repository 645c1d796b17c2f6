"""The search's colour tables, made by folding one bit at a time, equal the tables worked out
set by set (the way they were first written, kept here as the reference)."""

from __future__ import annotations

import pytest

from engine.cards import tables


def _reference_colour_tops(count: int) -> tuple[tuple[int, tuple[int, ...]] | None, ...]:
    tops: list[tuple[int, tuple[int, ...]] | None] = []
    for cards in range(0x200):
        bits = tuple([bit for bit in range(8, -1, -1) if cards >> bit & 1][:count])
        tops.append((sum(bits) + count, bits) if len(bits) == count else None)
    return tuple(tops)


def _reference_value_fields() -> tuple[int, ...]:
    fields = []
    for cards in range(0x200):
        spread = 0
        for bit in range(9):
            if cards >> bit & 1:
                spread |= 1 << 4 * bit
        fields.append(spread)
    return tuple(fields)


def _reference_highest_runs(size: int) -> tuple[int, ...]:
    """The highest run of ``size`` values wholly among the cards, each start tried."""
    highest = []
    for cards in range(0x200):
        reached = 0
        for start in range(10 - size, 0, -1):
            run = ((1 << size) - 1) << (start - 1)
            if run & ~cards == 0:
                reached = start
                break
        highest.append(reached)
    return tuple(highest)


@pytest.mark.parametrize("count", range(6))
def test_colour_tops_equal_the_set_by_set_table(count: int) -> None:
    assert tables._colour_tops(count) == _reference_colour_tops(count)


def test_value_fields_equal_the_set_by_set_table() -> None:
    assert tables._value_fields() == _reference_value_fields()


@pytest.mark.parametrize("size", range(1, 6))
def test_highest_runs_without_troops_equal_each_start_tried(size: int) -> None:
    assert tables._highest_runs(size, ()) == _reference_highest_runs(size)


@pytest.mark.parametrize("size", [3, 4])
def test_highest_runs_without_troops_equal_the_coverings_search(size: int) -> None:
    """The shortcut for no elite troops agrees with the general search it skips."""
    general = tuple(
        next(
            (
                start
                for start in range(10 - size, 0, -1)
                if (((1 << size) - 1) << (start - 1)) & ~cards
                in tables._first_coverings(start, size, 0, ())
            ),
            0,
        )
        for cards in range(0x200)
    )
    assert tables._highest_runs(size, ()) == general
