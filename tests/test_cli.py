"""The editors' command line: ask, check and new, run in-process on a copy of the project."""

from __future__ import annotations

from pathlib import Path

import pytest

from oracle.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    for command in ("ask", "check", "new"):
        assert command in out


def test_ask_answers_a_draft_with_verdict_reason_witness_and_board(
    project_copy: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project_copy)
    status, out = run(capsys, "new", "claims", "open-question")
    assert status == 0 and "cases/claims/12-open-question.yaml" in out
    case = project_copy / "cases" / "claims" / "12-open-question.yaml"
    case.write_text(case.read_text().replace("hand: [green 1, green 2]", "hand: [blue 9]"))
    status, out = run(capsys, "ask", str(case))
    assert status == 0
    assert "1      red 7, red 8, red 9 (3/3)  blue 7, blue 8 (2/3)" in out
    assert "stone 1: granted" in out
    assert "draft: copy these answers" in out


def test_ask_shows_a_refusal_with_its_witness(
    capsys: pytest.CaptureFixture[str], project_copy: Path
) -> None:
    case = project_copy / "cases" / "claims" / "02-last-three-in-your-hand.yaml"
    status, out = run(capsys, "ask", str(case))
    assert status == 0
    assert "stone 3: refused" in out and "witness: pink 3" in out


def test_ask_lists_the_legal_moves_of_a_game_case(
    capsys: pytest.CaptureFixture[str], project_copy: Path
) -> None:
    case = project_copy / "cases" / "turns" / "01-play-claim-draw.yaml"
    status, out = run(capsys, "ask", str(case))
    assert status == 0
    assert "the turn: you: red 9 on 4 → you: claim 4 → you: draw clan" in out
    assert "your legal moves: red 9 on 1," in out


def test_ask_names_a_bad_file_in_one_line(
    capsys: pytest.CaptureFixture[str], project_copy: Path
) -> None:
    case = project_copy / "cases" / "claims" / "99-bad.yaml"
    case.write_text("id: bad\nsituation: s\nwhy: w\nvariant: base\nclaims: [{stone: 12}]\n")
    status, out = run(capsys, "ask", str(case))
    assert status == 2
    assert out.strip() == "cases/claims/99-bad.yaml:5: no stone 12: stones are numbered 1 to 9"


def test_check_passes_on_the_catalogue_and_fails_on_a_drift(
    capsys: pytest.CaptureFixture[str], project_copy: Path
) -> None:
    status, out = run(capsys, "check", "--root", str(project_copy))
    assert status == 0 and "0 problem lines" in out
    case = project_copy / "cases" / "claims" / "07-no-wrap-around.yaml"
    case.write_text(case.read_text().replace("expect: refused", "expect: granted"))
    status, out = run(capsys, "check", "--root", str(project_copy))
    assert status == 1
    assert "cases/claims/07-no-wrap-around.yaml:" in out and "the engine says refused" in out


def test_new_from_a_seed_writes_a_full_board_that_loads(
    capsys: pytest.CaptureFixture[str], project_copy: Path
) -> None:
    status, out = run(
        capsys,
        "new",
        "turns",
        "late",
        "--variant",
        "tactics",
        "--from-seed",
        "5",
        "--root",
        str(project_copy),
    )
    assert status == 0
    status, out = run(capsys, "ask", str(project_copy / "cases" / "turns" / "12-late.yaml"))
    assert status == 0 and "your legal moves:" in out
