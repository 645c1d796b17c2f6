"""History written by the tools and checked: ``moved`` ids are case ids, ``history RULE --base``
writes a step's moved cases and answers, ``check --base`` refuses answers that moved with no
step naming them, and What changed shows each moved answer old -> new."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import kept_for_the_run, run_main

from oracle.catalogue import build_catalogue
from oracle.site.render import render_changes

ROOT = Path(__file__).resolve().parent.parent
LOOK = Path(__file__).resolve().parent / "look"
TEMPLATES = ROOT / "site_src" / "_templates"
STEP = """    history:
      - date: "2026-12-02"
        change: changed
        why: Claims now wait for the other side.
        source: a test
"""
OWN_SIDE = "      three cards, or four under Mud Fight. There is no exception.\n"


@pytest.fixture
def look(tmp_path: Path) -> Path:
    """A copy of the fixture catalogue (its cases and rules index), to change."""
    for name in ("cases", "rules"):
        shutil.copytree(LOOK / name, tmp_path / "project" / name)
    return tmp_path / "project"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = run_main(argv)
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def _base_with_a_moved_answer(look: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """An export of the catalogue in which incomplete-side's stone was granted, as if the
    engine had answered so before."""
    base = look.parent / "base.json"
    assert run(capsys, "export", "--root", str(look), "-o", str(base))[0] == 0
    document = json.loads(base.read_text(encoding="utf-8"))
    (record,) = [r for r in document["cases"] if r["id"] == "incomplete-side"]
    assert record["answers"] == {"claims": {"5": "refused"}}
    record["answers"] = {"claims": {"5": "granted"}}
    base.write_text(json.dumps(document), encoding="utf-8")
    return base


def _add_step(look: Path) -> None:
    index = look / "rules" / "index.yaml"
    text = index.read_text(encoding="utf-8")
    assert OWN_SIDE in text
    index.write_text(text.replace(OWN_SIDE, OWN_SIDE + STEP, 1), encoding="utf-8")


def test_an_unknown_moved_id_is_refused_at_its_line(
    look: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _add_step(look)
    index = look / "rules" / "index.yaml"
    text = index.read_text(encoding="utf-8")
    index.write_text(
        text.replace(
            "        source: a test\n", "        source: a test\n        moved: [incomplet-side]\n"
        ),
        encoding="utf-8",
    )
    lines = index.read_text(encoding="utf-8").splitlines()
    line = next(number for number, text in enumerate(lines, 1) if "incomplet-side" in text)
    status, out = run(capsys, "check", "--root", str(look))
    assert status == 1
    assert (
        f"rules/index.yaml:{line}: the history of 'claim.own-side-complete' (2026-12-02) says the"
        " answers of case 'incomplet-side' moved, but no case file has that id; did you mean"
        " 'incomplete-side'?" in out
    )


def test_history_writes_the_moved_cases_and_check_base_wants_them_named(
    look: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = _base_with_a_moved_answer(look, capsys)
    status, out = run(capsys, "check", "--root", str(look), "--base", str(base))
    assert status == 1
    assert (
        f"cases/claims/01-incomplete-side.yaml:2: case 'incomplete-side': its answers moved since"
        f" {base} (claims.5: granted -> refused), but no history step of rules/index.yaml added"
        " since names it" in out
    )
    status, out = run(
        capsys, "history", "claim.own-side-complete", "--root", str(look), "--base", str(base)
    )
    assert status == 2 and "has no history step to write; add one" in out
    _add_step(look)
    index = look / "rules" / "index.yaml"
    before = index.read_text(encoding="utf-8")
    status, out = run(
        capsys, "history", "claim.own-side-complete", "--root", str(look), "--base", str(base)
    )
    assert status == 0 and "names 1 moved case" in out
    after = index.read_text(encoding="utf-8")
    written = (
        "        moved: [incomplete-side]\n"
        "        answers: [{case: incomplete-side, question: claims.5, then: granted,"
        " now: refused}]\n"
    )
    assert after == before.replace("        source: a test\n", "        source: a test\n" + written)
    assert run(capsys, "check", "--root", str(look), "--base", str(base))[0] == 0


@pytest.mark.parametrize("ending", [b"\r\n", b"\r"], ids=["CRLF", "CR"])
def test_history_keeps_the_index_line_endings(
    look: Path, capsys: pytest.CaptureFixture[str], ending: bytes
) -> None:
    """``history`` writes its two lines into the rules index and changes nothing else of it:
    not its line endings (an index saved with CRLF, or CR alone, which ``check`` reads)."""
    base = _base_with_a_moved_answer(look, capsys)
    _add_step(look)
    index = look / "rules" / "index.yaml"
    lf = index.read_bytes()
    index.write_bytes(lf.replace(b"\n", ending))
    status, out = run(
        capsys, "history", "claim.own-side-complete", "--root", str(look), "--base", str(base)
    )
    assert status == 0 and "names 1 moved case" in out
    written = (
        b"        moved: [incomplete-side]\n"
        b"        answers: [{case: incomplete-side, question: claims.5, then: granted,"
        b" now: refused}]\n"
    )
    step = b"        source: a test\n"
    assert index.read_bytes() == lf.replace(step, step + written).replace(b"\n", ending)
    assert [p.name for p in index.parent.iterdir() if p.name.startswith(".")] == []
    assert run(capsys, "check", "--root", str(look), "--base", str(base))[0] == 0


def test_what_changed_shows_each_moved_answer_old_and_new(
    look: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = _base_with_a_moved_answer(look, capsys)
    _add_step(look)
    assert (
        run(capsys, "history", "claim.own-side-complete", "--root", str(look), "--base", str(base))[
            0
        ]
        == 0
    )
    catalogue = build_catalogue(look, kept=kept_for_the_run())
    page = render_changes(catalogue.rules, TEMPLATES, catalogue.published, "changes.md")
    assert "(claims&#46;5&#58; granted &#45;&#62; refused)" in page
    assert "[Your own side must be complete](rulings.md#claim-own-side-complete)" in page


def test_history_shows_a_diff_when_dry_and_names_only_the_cases_that_pin_the_rule(
    look: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = _base_with_a_moved_answer(look, capsys)
    _add_step(look)
    index = look / "rules" / "index.yaml"
    before = index.read_text(encoding="utf-8")
    arguments = ["--root", str(look), "--base", str(base)]
    status, out = run(capsys, "history", "claim.own-side-complete", *arguments, "--dry-run")
    assert status == 0 and index.read_text(encoding="utf-8") == before
    assert out.startswith("--- rules/index.yaml\n+++ rules/index.yaml\n@@ ")
    assert "+        moved: [incomplete-side]\n" in out and len(out.splitlines()) < 40
    # A rule the moved case does not pin: its step names nobody, and says who was left out.
    text = before.replace(STEP, "")
    ranking = "      totals.\n"
    assert ranking in text
    index.write_text(text.replace(ranking, ranking + STEP, 1), encoding="utf-8")
    status, out = run(capsys, "history", "formations.ranking", *arguments)
    assert status == 0 and "names 0 moved cases" in out
    assert (
        "history: 1 moved case does not pin 'formations.ranking' and are left to the steps of the"
        " rules they pin: incomplete-side"
    ) in out
