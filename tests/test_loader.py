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
            "'Joker': write Tactic cards in lowercase, as in 'joker'",
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


GOOD_START = "id: x\nsituation: S\nwhy: W\nvariant: base\nposition:\n  stones:\n"


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (GOOD_START + "    - stone: 2.0\n", 7, "'2.0': numbers in these files are whole numbers"),
        (GOOD_START + "    - stone: !!int x\n", 7, "'x' cannot be read as !!int"),
        (
            GOOD_START + "    - stone: 2\n      you: [red \u00b2]\n" + CLAIM,
            8,
            "'red \u00b2': unknown value",
        ),
        (
            GOOD_START + "    - stone: 2\n      you: [red \u0663]\n" + CLAIM,
            8,
            "'red \u0663': unknown value",
        ),
        (
            GOOD_START + "    - stone: 2\n      you: [red " + "9" * 5000 + "]\n" + CLAIM,
            8,
            "'red 999",
        ),
        ("id: x\nwhy: \x00\n", 2, "character '\\x00' cannot appear in a YAML file"),
        ("id: " + "[" * 3000 + "]" * 3000 + "\n", None, "the YAML is nested too deeply"),
        ("[1, 2]\n", 1, "the file must be a mapping of keys"),
    ],
)
def test_odd_input_is_one_located_line(
    tmp_path: Path, text: str, line: int | None, message: str
) -> None:
    path = tmp_path / "odd.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CaseError) as caught:
        load_case(path)
    assert caught.value.line == line, caught.value.located
    assert caught.value.problem.startswith(message), caught.value.problem
    assert "\n" not in caught.value.located


def test_unreadable_files_are_case_errors(tmp_path: Path) -> None:
    latin = tmp_path / "latin.yaml"
    latin.write_bytes("id: caf\u00e9\n".encode("latin-1"))
    with pytest.raises(CaseError, match="cannot read the file"):
        load_case(latin)
    with pytest.raises(CaseError, match="cannot read the file"):
        load_case(tmp_path)
