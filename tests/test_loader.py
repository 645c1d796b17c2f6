"""The loader on Tactic cards: where each may lie, the two Jokers, combat mode cards; each mistake
is one located line."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Reason, Tactic, claim_verdict
from oracle.loader import CaseError, load_case

HEADER = """\
id: tactic-case
situation: S
why: W
variant: {variant}
position:
  stones:
"""


def write(tmp_path: Path, body: str, variant: str = "tactics") -> Path:
    path = tmp_path / "case.yaml"
    path.write_text(HEADER.format(variant=variant) + body)
    return path


CLAIM = """\
claims:
  - stone: 3
    expect: refused
"""


def test_a_tactics_case_with_elite_troops_loads_and_is_judged(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """\
    - stone: 3
      you: [red 5, green 5, pink 5]
      them: [blue 8, blue 9]
    - stone: 6
      you: [blue 7, joker]
      them: [joker]
  discards: [spy, banshee]
  hand: [shield-bearer, mud fight]
"""
        + CLAIM,
    )
    case = load_case(path)
    assert case.position.stone(6).sides == ((15, Tactic.JOKER), (Tactic.SECOND_JOKER,))
    verdict = claim_verdict(case.position, 3)
    # No Joker for them (they hold one), the Spy is discarded: only the Shield-Bearer is left,
    # and it cannot be a 7, so blue 7-8-9 is out of reach.
    assert verdict.reason is Reason.UNBEATABLE


@pytest.mark.parametrize(
    ("body", "variant", "line", "message"),
    [
        (
            "    - stone: 3\n      you: [red 1, joker]\n",
            "base",
            8,
            "joker: Tactic cards only exist in the tactics variant",
        ),
        (
            "    - stone: 3\n      you: [red 1, mud fight]\n",
            "tactics",
            8,
            "mud fight: mud fight cannot lie on a side: only Clan cards and elite troops do"
            " (a combat mode goes in the stone's modes)",
        ),
        (
            "    - stone: 3\n      you: [joker]\n      them: [joker]\n  hand: [joker]\n",
            "tactics",
            10,
            "a third joker: the game has only two",
        ),
        (
            "    - stone: 3\n      you: [joker]\n    - stone: 4\n      you: [joker]\n",
            "tactics",
            10,
            "joker: a player may have only one Joker on their side of the border",
        ),
        (
            "    - stone: 3\n      modes: [mud fight]\n    - stone: 4\n      modes: [mud fight]\n",
            "tactics",
            10,
            "mud fight lies on stones 3 and 4; there is one such card",
        ),
        (
            "    - stone: 3\n      modes: [mud fight]\n  hand: [mud fight]\n",
            "tactics",
            9,
            "mud fight already lies on a stone; it cannot be here too",
        ),
        (
            "    - stone: 3\n      you: [red 1]\n  discards: [blind-man's bluff]\n",
            "tactics",
            9,
            "blind-man's bluff: blind-man's bluff stays on its stone; it is never discarded",
        ),
        (
            "    - stone: 3\n      you: [red 1]\n  hand: [Joker]\n",
            "tactics",
            9,
            "'Joker' is not a valid 'hand'",
        ),
    ],
)
def test_misplaced_tactic_cards_are_located_errors(
    tmp_path: Path, body: str, variant: str, line: int, message: str
) -> None:
    path = write(tmp_path, body + CLAIM, variant)
    with pytest.raises(CaseError) as caught:
        load_case(path)
    assert caught.value.line == line, caught.value.located
    assert caught.value.problem.startswith(message), caught.value.problem
