"""What a case's situation and why say of its board is read against the board
(:mod:`oracle.verify.prose`, the ``prose-agrees-with-board`` ask of ``coverage.yaml``): each
form it reads, on the developers' fixture cases, right as written and wrong once changed."""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import FIXTURE, kept_for_the_run

from oracle.casefile.model import Case
from oracle.catalogue import Catalogue, build_catalogue
from oracle.verify.prose import cards_in, placed_phrases, prose_contradictions


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return build_catalogue(FIXTURE, kept=kept_for_the_run())


def case(catalogue: Catalogue, case_id: str) -> Case:
    return next(r.case for r in catalogue.published if r.case.id == case_id)


def test_cards_are_read_as_prose_writes_them() -> None:
    assert cards_in("red 7-8") == {"red 7", "red 8"}
    assert cards_in("red 8 and 9") == {"red 8", "red 9"}
    assert cards_in("blue 1, green 2") == {"blue 1", "green 2"}


def test_the_fixture_cases_say_nothing_their_boards_contradict(catalogue: Catalogue) -> None:
    assert {r.case.id: prose_contradictions(r.case) for r in catalogue.published} == {
        r.case.id: [] for r in catalogue.published
    }
    assert sum(placed_phrases(r.case) for r in catalogue.published) >= 1  # it reads something


def test_a_card_called_yours_must_be_yours(catalogue: Catalogue) -> None:
    written = case(catalogue, "incomplete-side")  # you: red 4, red 5 at stone 5
    assert prose_contradictions(replace(written, why="your red 4-5 wait")) == []
    assert prose_contradictions(replace(written, why="your red 4 and 6 wait")) == [
        "it says your red 6, but red 6 is not on your side or in your hand"
    ]
    assert prose_contradictions(replace(written, why="their red 4 waits")) == [
        "it says their red 4, but red 4 is not on their side or hand"
    ]


def test_cards_said_to_lie_at_a_stone_lie_there(catalogue: Catalogue) -> None:
    written = case(catalogue, "incomplete-side")
    assert prose_contradictions(replace(written, why="red 4 and 5 stand at stone 5")) == []
    assert prose_contradictions(replace(written, why="red 4 and 5 stand at stone 4")) == [
        "it says red 4 is at stone 4, but it is not there",
        "it says red 5 is at stone 4, but it is not there",
    ]
    # A card on its way to a stone is not said to lie there.
    assert prose_contradictions(replace(written, why="you play red 4 at stone 4")) == []


def test_a_count_of_tactic_cards_played_fits_the_cards_face_up(catalogue: Catalogue) -> None:
    written = next(
        r.case
        for r in catalogue.published
        if r.case.variant == "tactics"
        and r.case.impossible is None
        and r.case.position.on_table_mask()
        and not prose_contradictions(replace(r.case, why="no tactic cards to your none"))
    )
    assert prose_contradictions(replace(written, why="five tactic cards to your five")) == [
        "it counts 5 Tactic cards played to your 5, but 0 are face up"
    ]
