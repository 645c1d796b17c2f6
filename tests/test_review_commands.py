"""``drift``, ``pin``, ``held`` and ``review`` on the change they are for, on copies of the
fixture catalogue of ``tests/look`` (never the project's own cases): a file that no longer
loads is listed, not a stop; every path pin leaves is named with why; held cases are listed and
confirmed; the review goes case by case; a draft's open answers are filled in; ``ask`` says
what it carried out and what a deal dealt."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from conftest import run_main

LOOK = Path(__file__).resolve().parent / "look"
INCOMPLETE = Path("cases/claims/01-incomplete-side.yaml")
IN_HAND = Path("cases/claims/02-last-three-in-your-hand.yaml")
MUD = Path("cases/claims/10-three-cards-under-mud-fight.yaml")
JOKER = Path("cases/tactic-cards/01-second-joker-stays-in-hand.yaml")
TWO = Path("cases/claims/09-two-stones-at-once.yaml")


@pytest.fixture
def look(tmp_path: Path) -> Path:
    """A copy of the fixture catalogue to break."""
    for name in ("cases", "rules"):
        shutil.copytree(LOOK / name, tmp_path / "project" / name)
    return tmp_path / "project"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = run_main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new))


def _break(look: Path) -> None:
    """One answer drifted, one board unreachable, one misreading no longer caught."""
    _edit(look / INCOMPLETE, "expect: refused", "expect: granted")
    _edit(look / IN_HAND, "them: [green 3, green 8]", "them: [green 3, green 8, red 1]")
    _edit(look / MUD, "guards_against: [", "guards_against: [runs-wrap-around, ")


def test_drift_lists_each_unreadable_file_and_each_case_to_read_again_in_every_format(
    look: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _break(look)
    root = str(look)
    status, out, _ = run(capsys, "drift", "--root", root)
    assert status == 1
    assert out.splitlines()[0] == (
        "drift: 1 answer in 1 case differs from the engine's; 1 case file cannot be read;"
        " 1 case to read again"
    )
    assert f"  {IN_HAND}:18: red 1 appears twice (lines 12 and 18); every card exists once" in out
    assert f"  {MUD}:2: three-cards-under-mud-fight: says it guards against 'runs-wrap-around'" in (
        out
    )
    status, out, _ = run(capsys, "drift", "--root", root, "--format", "markdown")
    assert status == 1 and "**Cannot be read**" in out and "**Read again**" in out
    assert f"| `{IN_HAND}` | 18 | red 1 appears twice" in out
    status, out, _ = run(capsys, "drift", "--root", root, "--format", "json", "-o", "-")
    document = json.loads(out)
    assert document["unreadable"] == [
        {
            "file": str(IN_HAND),
            "line": 18,
            "reason": "red 1 appears twice (lines 12 and 18); every card exists once",
            "id": "last-three-in-your-hand",
        }
    ]
    assert [entry["id"] for entry in document["read_again"]] == ["three-cards-under-mud-fight"]
    assert not (Path.cwd() / "-").exists()


def test_pin_all_drifted_pins_what_it_can_and_names_every_file_it_cannot(
    look: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _break(look)
    root = str(look)
    status, out, err = run(capsys, "pin", "--root", root, "--all-drifted", "--dry-run")
    assert status == 1 and "+    expect: refused" in out and "would re-pin 1 case file" in out
    assert err.strip() == (
        f"schotten-oracle pin: {IN_HAND}:18: cannot be pinned: red 1 appears twice (lines 12"
        " and 18); every card exists once"
    )
    status, out, err = run(capsys, "pin", "--root", root, "--all-drifted")
    assert status == 1 and f"re-pinned {INCOMPLETE}" in out and str(IN_HAND) in err
    assert "expect: refused" in (look / INCOMPLETE).read_text()


def test_pin_names_each_path_it_skips_and_fails_when_it_did_nothing(
    look: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    outside = tmp_path / "notes.yaml"
    outside.write_text("id: x\n")
    link = look / "cases" / "claims" / "99-link.yaml"
    link.symlink_to(look / INCOMPLETE)
    named = [str(outside), str(link), str(look / TWO), str(look / "cases" / "claims")]
    status, out, err = run(capsys, "pin", "--root", str(look), *named)
    lines = err.splitlines()
    assert status == 2 and len(lines) == 4 and "re-pinned" not in out
    assert any(
        line.endswith(
            "notes.yaml: skipped: not under cases/ of this project; pin edits only its case files"
        )
        for line in lines
    )
    assert any("99-link.yaml: skipped: a symbolic link" in line for line in lines)
    assert any(
        line.endswith(f"{TWO}: skipped: has not drifted: it agrees with the engine, nothing to pin")
        for line in lines
    )
    assert any("claims: skipped: a folder" in line for line in lines)
    report = tmp_path / "drift.json"
    report.write_text(
        json.dumps(
            {
                "format": "schotten-oracle-drift",
                "cases": [{"file": "../notes.yaml", "digest": "sha256:0"}],
            }
        )
    )
    status, _, err = run(capsys, "pin", "--root", str(look), "--report", str(report))
    assert status == 2 and "skipped: not under cases/" in err
    # A path outside cases/ is named as such whether or not it exists (a report naming it
    # need not be of this machine); one under cases/ that does not exist is no such file.
    gone = [{"file": "../gone.yaml", "digest": "sha256:0"}]
    gone.append({"file": "cases/claims/gone.yaml", "digest": "sha256:0"})
    report.write_text(json.dumps({"format": "schotten-oracle-drift", "cases": gone}))
    status, _, err = run(capsys, "pin", "--root", str(look), "--report", str(report))
    lines = err.splitlines()
    assert status == 2 and len(lines) == 2, lines
    assert lines[0].endswith(
        "gone.yaml: skipped: not under cases/ of this project; pin edits only its case files"
    )
    assert lines[1].endswith("cases/claims/gone.yaml: skipped: no such file")


def test_a_move_that_became_illegal_is_pinned_with_the_rule_it_breaks(
    look: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = look / JOKER
    original = case.read_text()
    _edit(
        case,
        "    expect: illegal\n    rule: tactics.one-joker-per-player\n"
        "    because: you have already played a Joker\n",
        "    expect: legal\n",
    )
    assert run(capsys, "pin", "--root", str(look), str(case))[0] == 0
    assert case.read_text() == original  # the rule back in its place, the prose as read
    assert run(capsys, "check", "--root", str(look))[0] == 0


def test_held_cases_are_listed_and_confirmed_all_at_once(
    look: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in (TWO, INCOMPLETE):
        text = (look / name).read_text()
        (look / name).write_text(
            "\n".join(
                "reviewed: 0000dead" if line.startswith("reviewed:") else line
                for line in text.splitlines()
            )
            + "\n"
        )
    root = str(look)
    status, out, _ = run(capsys, "held", "--root", root)
    assert status == 1 and out.count("changed since its situation and why") == 2
    assert f"{INCOMPLETE}:2: case 'incomplete-side'" in out
    assert "pin --reviewed --all-held" in out
    status, _, err = run(capsys, "pin", "--root", root, "--all-held")
    assert status == 2 and "give --reviewed too" in err
    status, out, _ = run(capsys, "pin", "--root", root, "--reviewed", "--all-held")
    assert status == 0 and "re-pinned 2 case files" in out
    assert run(capsys, "held", "--root", root)[0] == 0
    assert run(capsys, "check", "--root", root)[0] == 0


def test_review_goes_case_by_case_and_refuses_a_stdin_that_is_no_terminal(
    look: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = str(look)
    _edit(look / INCOMPLETE, "expect: refused", "expect: granted")
    _edit(look / INCOMPLETE, "can never be claimed", "can never be taken")
    _edit(look / JOKER, "because: you have already played a Joker", "because: one Joker each")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    status, _, err = run(capsys, "review", "--root", root)
    assert status == 2 and "standard input is not a terminal" in err and err.count("\n") == 1
    monkeypatch.setattr("sys.stdin", io.StringIO("maybe\na\ns\n"))
    status, out, _ = run(capsys, "review", "--root", root, "--stdin")
    assert status == 0 and "answer one of a, r, s, q" in out
    assert "the case pins:   granted" in out and "the engine says: refused" in out
    assert "can never be taken" in out and "can never be claimed" in out  # both, in full
    assert "review: 1 pinned, 0 with their prose confirmed, 1 skipped" in out
    assert "expect: refused" in (look / INCOMPLETE).read_text()
    assert "one Joker each" in (look / JOKER).read_text()
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    status, out, _ = run(capsys, "review", "--root", root, "--stdin")
    assert status == 0 and "review: 0 pinned" in out
    assert "one Joker each" in (look / JOKER).read_text()


def _draw_step_draft(look: Path, name: str, questions: str) -> Path:
    """A draft in ``look``'s turns: red 1 on stone 1, your hand of five, their six, at your draw
    step, asking ``questions``."""
    draft = look / "cases" / "turns" / f"{name}.yaml"
    draft.write_text(
        f"id: {name.split('-', 1)[1]}\nsituation: to write\nwhy: to write\ndraft: true\n"
        "variant: base\nposition:\n  stones:\n    - stone: 1\n      you: [red 1]\n"
        "  hand: [red 2, red 3, red 4, red 5, red 6]\n"
        "table:\n  their_hand: [blue 1, blue 2, blue 3, blue 4, blue 5, blue 6]\n  step: draw\n"
        + questions
    )
    return draft


def test_pin_fills_a_drafts_open_answers_and_ask_says_what_it_did(
    look: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    draft = _draw_step_draft(look, "30-draw-step", "claims:\n  - stone: 1\nturn:\n  moves: []\n")
    status, out, _ = run(capsys, "ask", str(draft))
    assert status == 0
    assert "the engine carried out what left no choice: you: draw clan" in out
    assert "then, at the play step, their legal moves: blue 1 on 1" in out
    assert "whose turn it is [next]: them (nothing pinned)" in out
    assert "schotten-oracle pin cases/turns/30-draw-step.yaml writes them into the case" in out
    status, out, _ = run(capsys, "pin", "--root", str(look), str(draft))
    assert status == 0 and "filled the open answers of cases/turns/30-draw-step.yaml" in out
    text = draft.read_text()
    assert "  - stone: 1\n    expect: refused\n    because: " in text
    assert '  expect:\n    log: ["you: draw clan"]\n' in text and "    next: them\n" in text
    assert "situation: to write" in text and "draft: true" in text
    status, out, _ = run(capsys, "ask", str(draft))
    assert "(as expected)" in out and "(nothing pinned)" not in out


def test_ask_prints_what_a_deal_dealt_and_says_when_nothing_is_pinned(
    look: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = look / "cases" / "setup" / "01-base-deal.yaml"
    status, out, _ = run(capsys, "ask", str(case))
    assert status == 0 and "(as expected)" in out
    assert "  the engine dealt you: green 3, green 8, red 4, yellow 8, green 6, pink 5" in out
    assert "  the engine dealt them: " in out
    text = case.read_text()
    case.write_text(text[: text.index("  expect:")] + "draft: true\n")
    status, out, _ = run(capsys, "ask", str(case))
    assert "(as expected)" not in out and "you to move (nothing pinned)" in out
    assert "  the engine dealt you: green 3" in out


def test_drift_writes_over_a_file_it_did_not_write_only_with_force(
    look: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    notes = tmp_path / "README.md"
    notes.write_text("# notes\n")
    status, _, err = run(capsys, "drift", "--root", str(look), "-o", str(notes))
    assert status == 2 and "--force to replace it" in err and notes.read_text() == "# notes\n"
    assert run(capsys, "drift", "--root", str(look), "-o", str(notes), "--force")[0] == 0
    assert notes.read_text().startswith("drift: every answer")


def test_review_walks_the_held_pages_after_the_cases(
    look: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page that cites a rule whose text changed waits like a case: review shows what the
    rule reads now, and confirming it writes the record of reviewed pages."""
    shutil.copytree(LOOK.parent.parent / "site_src", look / "site_src")
    root = str(look)
    assert run(capsys, "held", "--root", root)[0] == 0
    _edit(
        look / "rules" / "index.yaml",
        "values wins. If rank and total are both equal",
        "values wins. If rank and total are both the same",
    )
    status, out, _ = run(capsys, "held", "--root", root)
    assert status == 1 and "site_src/rulings.md:" in out
    monkeypatch.setattr("sys.stdin", io.StringIO("c\n" * 40))
    status, out, _ = run(capsys, "review", "--root", root, "--stdin")
    assert status == 0, out
    assert "held page: site_src/rulings.md:" in out
    assert "cites formations.tie-break, which now reads:" in out
    assert "If rank and total are both the same" in out
    assert "confirmed the prose of site_src/rulings.md" in out
    assert run(capsys, "held", "--root", root)[0] == 0
    assert run(capsys, "check", "--root", root)[0] == 0


def test_pin_fills_the_reason_a_drafts_refused_move_leaves_open_and_ask_shows_it(
    look: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    draft = look / "cases" / "turns" / "31-unreadable.yaml"
    draft.write_text(
        "id: unreadable\nsituation: to write\nwhy: to write\ndraft: true\nvariant: base\n"
        "position:\n  stones:\n    - stone: 1\n      you: [red 1]\n      them: [blue 9]\n"
        "  hand: [red 2, red 3, red 4, red 5, red 6, red 7]\n"
        "table:\n  their_hand: [blue 1, blue 2, blue 3, blue 4, blue 5, blue 6]\n"
        "plays:\n  - move: red 5 onto 4\n    expect: unreadable\n"
    )
    status, out, _ = run(capsys, "ask", str(draft))
    assert status == 0 and "move 'red 5 onto 4': unreadable (as expected)" in out
    assert "  its reason (not pinned): 'red 5 onto 4' is not a move: write" in out
    status, out, _ = run(capsys, "pin", "--root", str(look), str(draft))
    assert status == 0 and "filled the open answers of cases/turns/31-unreadable.yaml" in out
    text = draft.read_text()
    assert "    expect: unreadable\n    because: " in text and "is not a move" in text
    status, out, _ = run(capsys, "ask", str(draft))
    assert "its reason (not pinned)" not in out


def test_a_turn_whose_last_move_is_refused_is_pinned_as_a_refusal_and_held_to_it(
    look: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A draft turn ending in a move the engine refuses: ask shows the refusal, pin writes it
    as ``expect: refused:``, and once the move is made legal the case fails at that line."""
    draft = look / "cases" / "turns" / "32-refused.yaml"
    draft.write_text(
        "id: refused\nsituation: to write\nwhy: to write\ndraft: true\nvariant: base\n"
        "position:\n  stones:\n    - stone: 1\n      you: [red 1]\n      them: [blue 9]\n"
        "  hand: [red 2, red 3, red 4, red 5, red 6, red 7]\n"
        "table:\n  their_hand: [blue 1, blue 2, blue 3, blue 4, blue 5, blue 6]\n"
        "turn:\n  moves: [red 2 on 1, red 3 on 1]\n"
    )
    status, out, _ = run(capsys, "ask", str(draft))
    assert status == 0 and "the refusal: refused: " in out and "(nothing pinned)" in out
    status, out, _ = run(capsys, "pin", "--root", str(look), str(draft))
    assert status == 0 and "filled the open answers of cases/turns/32-refused.yaml" in out
    text = draft.read_text()
    assert "turn:\n  moves: [red 2 on 1, red 3 on 1]\n  expect:\n    refused: " in text
    status, out, _ = run(capsys, "ask", str(draft))
    assert status == 0 and "(as expected)" in out
    draft.write_text(text.replace("[red 2 on 1, red 3 on 1]", "[red 2 on 1]"))
    status, out, _ = run(capsys, "ask", str(draft))
    assert status == 1
    assert "the refusal: expected refused: " in out and "the engine says carried out" in out
    draft.write_text(text.replace("  expect:\n", "  expect:\n    next: them\n"))
    status, _, err = run(capsys, "ask", str(draft))
    assert status != 0 and "32-refused.yaml:" in err


def test_pin_lays_a_long_log_below_its_key_without_a_space_after_the_colon(
    look: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    moves = "turn:\n  moves: [blue 1 on 2, red 2 on 1, blue 2 on 2]\n"
    draft = _draw_step_draft(look, "31-long-log", moves)
    status, out, _ = run(capsys, "pin", "--root", str(look), str(draft))
    assert status == 0, out
    text = draft.read_text()
    assert "    log:\n      - " in text
    assert [line for line in text.splitlines() if line.endswith(" ")] == []
