"""Cases whose board the engine must refuse (``impossible:``), from the loader to the site.

The plugin is seen from the outside, as in ``test_plugin.py``: tiny projects run in-process with
``pytester``, each from (YAML, expected message) pairs. A ``#@`` comment marks the line a
message must point at, and ``#@name`` another line it mentions (``{name}`` in the message).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from case_files import clean, confirmed, start_project, write_case
from conftest import FIXTURE, kept_for_the_run, run_main

from oracle.browser.pages import Session
from oracle.casefile.errors import CaseError
from oracle.casefile.loader import load_case
from oracle.casefile.model import Case
from oracle.catalogue import Catalogue, build_catalogue
from oracle.conformance.export import catalogue_records
from oracle.misreadings.matrix import misreading_matrix
from oracle.site.casepages import answers
from oracle.site.render import render_verdict_table
from oracle.verify.replay import verify_case
from oracle.verify.report import questions_of

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "site_src" / "_templates"

RULES = """
rules:
  - {id: case.reachable-board, kind: ruling, section: Boards in cases, title: T, applies: both,
     text: X, reason: R}
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    """An empty oracle project whose one rule is the ruling an impossible board pins."""
    return start_project(pytester, RULES)


def assert_no_traceback(result: pytest.RunResult) -> None:
    output = result.outlines + result.errlines
    assert not any("Traceback" in line for line in output), "\n".join(output)
    assert not any(line.startswith("E   ") for line in output), "\n".join(output)


# Boards refused by different checks of the engine, each with the refusal pinned word for word.
REFUSED = [
    pytest.param(
        """
        id: card-twice
        situation: S
        why: W
        variant: base
        position:
          stones:
            - stone: 2
              you: [red 5, red 6]
          hand: [red 5]
        impossible: red 5 appears twice
        """,
        id="a-card-twice-in-the-position",
    ),
    pytest.param(
        """
        id: claimed-unprovable
        situation: S
        why: W
        variant: base
        rules: [case.reachable-board]
        position:
          stones:
            - stone: 3
              you: [red 1, blue 1, green 1]
              them: [red 3, blue 3]
              claimed_by: you
        impossible: >-
          stone 3 is claimed by you, who could never have proved it: they could still add
          green 3, making three of a kind red 3, blue 3, green 3 (total 9), which beats your
          three of a kind red 1, blue 1, green 1 (total 3), since a total of 9 beats 3
        """,
        id="a-claim-the-holder-could-not-prove",
    ),
    pytest.param(
        """
        id: full-hand
        situation: S
        why: W
        variant: base
        position:
          stones: []
          hand: [red 1, red 2, red 3, red 4, red 5, red 6]
        table:
          their_hand: [blue 1]
          step: claim
        impossible: >-
          you have played a card this turn, so your hand holds at most 5 cards until the draw
        """,
        id="a-full-hand-after-a-play-in-the-table",
    ),
]


@pytest.mark.parametrize("text", REFUSED)
def test_a_board_refused_as_pinned_passes(project: pytest.Pytester, text: str) -> None:
    write_case(project, "01-x.yaml", confirmed(text, RULES))
    result = project.runpytest("-v")
    result.assert_outcomes(passed=2)  # the board, and that the case can be published
    result.stdout.fnmatch_lines(["*[[]board[]] PASSED*", "*[[]catalogue[]] PASSED*"])


# Cases the engine does not answer as pinned: one located line, at the impossible: key.
WRONG = [
    pytest.param(
        """
        id: accepted
        situation: S
        why: W
        variant: base
        position:
          stones:
            - stone: 2
              you: [red 5, red 6, red 7]
        impossible: red 5 appears twice #@
        """,
        "case 'accepted', impossible: expected the engine to refuse this board with \"red 5"
        ' appears twice", but it accepted it',
        id="accepted",
    ),
    pytest.param(
        """
        id: other-refusal
        situation: S
        why: W
        variant: base
        position:
          stones:
            - stone: 2
              you: [red 5, red 6, red 7, red 8]
        impossible: "stone 2: combat modes only exist in the tactics variant" #@
        """,
        "case 'other-refusal', impossible: expected the engine to refuse this board with"
        ' "stone 2: combat modes only exist in the tactics variant", but it refused it with'
        ' "stone 2: 4 cards on your side, but a side holds 3 here"',
        id="refused-with-another-message",
    ),
    pytest.param(
        """
        id: loader-words
        situation: S
        why: W
        variant: base
        position:
          stones:
            - stone: 2
              you: [red 5, red 6]
          hand: [red 5]
        impossible: red 5 appears twice (lines 6 and 7); every card exists once #@
        """,
        "case 'loader-words', impossible: expected the engine to refuse this board with"
        ' "red 5 appears twice (lines 6 and 7); every card exists once", but it refused it with'
        ' "red 5 appears twice"',
        id="the-loader-words-are-not-the-engine-message",
    ),
]


@pytest.mark.parametrize(("text", "message"), WRONG)
def test_a_board_not_refused_as_pinned_fails_at_its_line(
    project: pytest.Pytester, text: str, message: str
) -> None:
    lines = write_case(project, "01-x.yaml", text)
    result = project.runpytest()
    result.assert_outcomes(failed=1, skipped=1)  # the catalogue item waits for the board
    result.stdout.fnmatch_lines([f"cases/t/01-x.yaml:{lines['line']}: {message}"])
    assert_no_traceback(result)


# Mistakes in the file itself still fail its collection loudly, with one located line.
LOUD = [
    pytest.param(
        """
        id: unknown-card
        situation: S
        why: W
        variant: base
        position:
          stones:
            - stone: 2
              you: [red 5, red 10] #@
        impossible: red 5 appears twice
        """,
        "'red 10': unknown value '10'; values run from 1 to 9",
        id="unknown-card",
    ),
    pytest.param(
        """
        id: bad-syntax
        situation: S
        why: W: x #@
        variant: base
        impossible: red 5 appears twice
        """,
        "YAML syntax error: mapping values are not allowed here"
        " (a value holding ': ' needs quotes, or the indentation is off)",
        id="yaml-syntax",
    ),
    pytest.param(
        """
        id: with-claims
        situation: S
        why: W
        variant: base
        position:
          stones:
            - stone: 2
              you: [red 5, red 6, red 7, red 8]
        claims: #@
          - stone: 2
            expect: refused
        impossible: "stone 2: 4 cards on your side, but a side holds 3 here"
        """,
        "a board the engine must refuse asks nothing else: the refusal comes before any"
        " question, so remove claims (or impossible)",
        id="impossible-and-claims",
    ),
    pytest.param(
        """
        id: unpinned
        situation: S
        why: W
        variant: base
        impossible: true #@
        """,
        "'impossible' must be text, not true (YAML reads yes, no, on and off as true or false)",
        id="unpinned-outside-a-draft",
    ),
    pytest.param(
        """
        id: table-twice
        situation: S
        why: W
        variant: base
        position:
          stones: []
          hand: [red 1] #@first
        table:
          their_hand: [red 1] #@
        impossible: red 1 appears twice
        """,
        "red 1 appears twice (lines {first} and {line}); every card exists once",
        id="a-check-of-the-loader-own-is-no-engine-refusal",
    ),
]


@pytest.mark.parametrize(("text", "message"), LOUD)
def test_a_mistake_in_an_impossible_case_fails_loudly(
    project: pytest.Pytester, text: str, message: str
) -> None:
    lines = write_case(project, "01-x.yaml", text)
    result = project.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*_ ERROR collecting cases/t/01-x.yaml _*",
            f"cases/t/01-x.yaml:{lines['line']}: {message.format(**lines)}",
            "*= short test summary info =*",
        ],
        consecutive=True,
    )
    assert_no_traceback(result)


def test_a_draft_may_leave_the_refusal_unpinned(project: pytest.Pytester) -> None:
    write_case(
        project,
        "01-x.yaml",
        """
        id: unsettled
        situation: S
        why: W
        variant: base
        draft: true
        position:
          stones:
            - stone: 2
              you: [red 5, red 6, red 7, red 8]
        impossible: true
        """,
    )
    result = project.runpytest("-rs")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(
        [
            "*draft case 'unsettled' is not published; the engine says Board refused: stone 2: 4"
            " cards on your side, but a side holds 3 here*"
        ]
    )


# ------------------------------------------------------------------------- the loaded model


def _load(tmp_path: Path, text: str) -> Case:
    path = tmp_path / "cases" / "t" / "01-x.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(clean(text), encoding="utf-8")
    return load_case(path)


FULL_HAND = """
id: full-hand
situation: You played and still hold six cards
why: W
variant: base
position:
  stones:
    - stone: 3
      you: [red 2, red 3]
      them: [blue 8]
      modes: []
  hand: [green 1, green 2, yellow 4, pink 5, purple 6, red 9]
table:
  their_hand: [pink 1, pink 2]
  clan_deck: [yellow 7]
  step: claim
impossible: >-
  you have played a card this turn, so your hand holds at most 5 cards until the draw
"""


def test_the_case_keeps_the_board_as_written_and_the_engine_refusal(tmp_path: Path) -> None:
    case = _load(tmp_path, FULL_HAND)
    assert case.impossible is not None
    board = case.impossible
    assert board.refusal == board.expected
    assert board.refusal_line == 11  # the hand, which the engine names
    assert questions_of(case) == {"board": board.line}
    assert not case.claims and case.table is None  # the table could not be built either
    written = board.board
    assert [stone.number for stone in written.stones] == [3]
    assert written.hand and written.their_hand is not None and len(written.their_hand) == 2
    assert ("Clan deck, top", "yellow 7") in written.table
    assert ("Step of your turn", "claim") in written.table
    report = verify_case(case)
    assert report.verified and report.verdict_label.startswith("Board refused: you have played")
    assert [answer.title for answer in answers(report)] == ["The engine refuses this board"]


def test_a_plain_case_refused_by_the_engine_still_fails_loudly(tmp_path: Path) -> None:
    with pytest.raises(CaseError, match="your hand holds at most 5 cards"):
        plain = FULL_HAND.split("impossible:")[0] + "plays: [{move: pass, expect: legal}]\n"
        _load(tmp_path, plain)


# ---------------------------------------------------------------------- the catalogue's uses


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return build_catalogue(FIXTURE, kept=kept_for_the_run())


def test_impossible_boards_are_left_out_of_the_export_and_the_matrix(catalogue: Catalogue) -> None:
    refused = tuple(r for r in catalogue.published if r.case.impossible is not None)
    assert catalogue_records(refused, {}) == []
    assert misreading_matrix(refused) == ()


def test_their_table_shows_each_refusal(catalogue: Catalogue) -> None:
    refused = tuple(r for r in catalogue.published if r.case.impossible is not None)
    table = render_verdict_table(refused, TEMPLATES, "impossible-boards.md")
    assert "| Situation | The engine's refusal | Why | Rules |" in table
    assert table.count("](cases/impossible-boards/") == len(refused)


def test_check_counts_them_and_ask_shows_the_written_board(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_main(["check", "--root", str(FIXTURE)]) == 0
    out = capsys.readouterr().out
    assert "are boards the engine refuses as the case pins (impossible:)" in out
    path = FIXTURE / "cases" / "impossible-boards" / "18-a-full-hand-after-a-play.yaml"
    assert run_main(["ask", str(path)]) == 0
    out = capsys.readouterr().out
    assert "the board as the case writes it" in out
    assert "3      red 2, red 3  blue 8" in out
    assert "refused: you have played a card this turn" in out
    assert "the case agrees with the engine" in out


def test_the_ask_page_reports_the_refusal_at_its_line() -> None:
    path = FIXTURE / "cases" / "impossible-boards" / "08-four-cards-on-a-side.yaml"
    answer = Session().ask_text({"text": path.read_text(encoding="utf-8")})
    assert answer["ok"] is False
    assert answer["problem"] == (
        "the engine refuses this board: stone 2: 4 cards on your side, but a side holds 3 here"
        " (as the case expects)"
    )
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[answer["line"] - 1].strip() == "you: [red 1, red 2, red 3, red 4]"


def test_new_starts_an_impossible_board_as_a_draft_that_ask_judges(
    catalogue_copy: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(catalogue_copy)
    folder = catalogue_copy / "cases" / "impossible-boards"
    number = max(int(path.name[:2]) for path in folder.glob("*.yaml")) + 1
    assert run_main(["new", "impossible-boards", "five-cards-high", "--impossible"]) == 0
    case = folder / f"{number:02d}-five-cards-high.yaml"
    assert "impossible: true" in case.read_text()
    capsys.readouterr()
    assert run_main(["ask", str(case)]) == 0
    out = capsys.readouterr().out
    assert "refused: stone 1: 4 cards on your side, but a side holds 3 here" in out
    assert "draft: copy the refusal into impossible:" in out
    status = run_main(["new", "impossible-boards", "both", "--impossible", "--from-seed", "3"])
    assert status == 2 and "choose one" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("discards", "refused"),
    [
        ((), None),
        (("recruiter", "traitor"), None),  # a ruse explains itself
        (("banshee", "green 5"), None),  # the Banshee and its victim
        (("strategist",), None),  # the Strategist may have moved a card instead
        (("banshee", "strategist", "green 5", "joker"), None),
        (("green 5",), "hold neither"),
        (("banshee",), "without its victim"),
        (("banshee", "strategist", "green 5", "joker", "spy"), "3 cards in the discards"),
    ],
)
def test_the_discards_are_explained_by_the_ruses_lying_there(
    discards: tuple[str, ...], refused: str | None
) -> None:
    from engine import Player, Position, StoneState, parse_card
    from engine.proof.reachable import discard_problem

    jokers = [Player.B] if "joker" in discards else []
    position = Position.from_stones(
        {1: StoneState(sides=((parse_card("red 1"),), ()))},
        discards=[parse_card(name) for name in discards],
        variant="tactics",
        jokers_played=jokers,
    )
    problem = discard_problem(position)
    if refused is None:
        assert problem is None
    else:
        assert problem is not None and refused in str(problem)


@pytest.mark.parametrize(
    ("yours", "theirs", "discards", "refused"),
    [
        (("joker", "spy"), (), ("recruiter",), None),  # two against one
        (("joker", "spy"), (), (), "they have played at most 0 of the 2 face up"),
        ((), ("spy", "shield-bearer"), ("recruiter",), None),
        ((), ("spy", "shield-bearer"), (), "they have played at least 2"),
        (("spy",), ("shield-bearer",), (), None),
    ],
)
def test_the_tactic_limit_holds_for_what_the_board_shows(
    yours: tuple[str, ...], theirs: tuple[str, ...], discards: tuple[str, ...], refused: str | None
) -> None:
    from engine import Position, StoneState, parse_card
    from engine.proof.reachable import tactic_limit_problem

    position = Position.from_stones(
        {
            1: StoneState(sides=(tuple(map(parse_card, yours)), ())),
            2: StoneState(sides=((), tuple(map(parse_card, theirs)))),
        },
        discards=[parse_card(name) for name in discards],
        variant="tactics",
    )
    problem = tactic_limit_problem(position)
    if refused is None:
        assert problem is None
    else:
        assert problem is not None and refused in str(problem)
