"""Building a position and judging a claim make no reference cycles: everything they leave
behind is freed by reference counting alone. ``bench/rust_judge.py`` pauses Python's cyclic
garbage collector for its batch on that ground (the collector would only scan the positions
again and again as they pile up), so a change that starts making cycles shows here first."""

from __future__ import annotations

import gc
from collections.abc import Callable

from conftest import bench_module, examples
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import claim_positions, tactics_claim_positions

from engine import Position, claim_verdict


def _cycles_left_by(work: Callable[[], object]) -> int:
    """How many objects ``work`` left in unreachable cycles (the collector paused meanwhile)."""
    gc.collect()  # what earlier tests left is not this work's
    enabled = gc.isenabled()
    gc.disable()
    try:
        work()
    finally:
        found = gc.collect()
        if enabled:
            gc.enable()
    return found


def _rebuilt(position: Position) -> Position:
    """``position`` built again through the validated constructor (as any reader builds it)."""
    return Position(**{name: getattr(position, name) for name in Position._fields})


@settings(max_examples=examples(40))
@given(st.lists(st.one_of(claim_positions(), tactics_claim_positions()), min_size=1, max_size=4))
def test_building_and_judging_leave_no_cycles(claims: list[tuple[Position, int]]) -> None:
    def work() -> None:
        for position, stone in claims:
            claim_verdict(_rebuilt(position), stone)

    assert _cycles_left_by(work) == 0


@settings(max_examples=examples(40))
@given(st.lists(claim_positions(), min_size=1, max_size=4))
def test_the_benchs_reading_and_judging_leave_no_cycles(claims: list[tuple[Position, int]]) -> None:
    rust_judge = bench_module("rust_judge")

    def work() -> None:
        for position, stone in claims:
            claim_verdict(*rust_judge.decode(rust_judge.encode(position, stone)))

    assert _cycles_left_by(work) == 0
