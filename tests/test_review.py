"""Changing a ruling on purpose: ``drift`` lists every answer that moved, ``pin`` writes the
engine's answers back value by value, and a case whose answers changed waits for its prose to
be read again. Run in-process on copies of the project; the history of a real git repository
is the slow test at the end."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import FIXTURE, copy_catalogue_project, kept_for_the_run

import engine.proof.claims
from oracle.casefile.editing import edited_text
from oracle.casefile.errors import CaseError
from oracle.casefile.rules import load_rules_index
from oracle.casefile.source import DataPath
from oracle.catalogue import Catalogue
from oracle.cli import main
from oracle.site.casepages import Since

ROOT = Path(__file__).resolve().parent.parent
TIE = Path("cases/claims/04-tie-you-finished-first.yaml")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv), kept_for_the_run())
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_catalogue_has_not_drifted(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "drift", "--root", str(FIXTURE))
    assert status == 0 and out == "drift: every answer the case files pin is the engine's\n"


def test_a_hand_edited_answer_is_reported_in_every_format_and_pin_restores_the_file(
    catalogue_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = catalogue_copy / TIE
    original = case.read_text()
    edited = original.replace("expect: granted", "expect: refused").replace(
        "you completed your side first", "you completed your side later"
    )
    case.write_text(edited)
    root = str(catalogue_copy)
    status, out, _ = run(capsys, "drift", "--root", root)
    assert status == 1
    assert out.splitlines()[0] == "drift: 2 answers in 1 case differ from the engine's"
    assert f"{TIE}:2: tie-you-finished-first" in out
    assert "stone 4: refused -> granted" in out
    pinned, now = (
        line.strip()
        for line in out.splitlines()
        if "your side later" in line
        or ("your side first" in line and line.strip().startswith("now:"))
    )
    assert pinned.startswith("pinned: ") and now.startswith("now: ")  # a reason, on two lines
    assert pinned.replace("later", "first").split(": ", 1)[1] == now.split(":", 1)[1].strip()
    assert "formations.tie-break: tie-you-finished-first" in out  # by rule
    status, out, _ = run(capsys, "drift", "--root", root, "--format", "markdown")
    assert status == 1 and "| Line | Answer | Pinned | The engine now |" in out
    status, out, _ = run(capsys, "drift", "--root", root, "--format", "json")
    document = json.loads(out)
    [entry] = document["cases"]
    assert entry["id"] == "tie-you-finished-first" and len(entry["answers"]) == 2
    # The dry run shows only the values; pin then gives back the file as it was, byte for byte.
    status, out, _ = run(capsys, "pin", "--root", root, "--dry-run", str(case))
    changed = [line for line in out.splitlines() if line[:1] in "+-" and line[:3] not in "+++---"]
    assert status == 0 and len(changed) == 4 and case.read_text() == edited
    status, out, _ = run(capsys, "pin", "--root", root, "--all-drifted")
    assert status == 0 and case.read_text() == original
    assert run(capsys, "check", "--root", root)[0] == 0


def test_a_changed_wording_of_the_engine_is_pinned_everywhere_and_waits_for_review(
    catalogue_copy: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine rewords a reason: every case that pins it drifts, pin rewrites exactly those
    reasons, and the cases then wait until an editor confirms their prose."""
    explain = engine.proof.claims._EXPLAIN[engine.proof.claims.Reason.STRONGER_FORMATION]
    monkeypatch.setitem(
        engine.proof.claims._EXPLAIN,
        engine.proof.claims.Reason.STRONGER_FORMATION,
        lambda verdict: explain(verdict).replace("outranks", "ranks above"),
    )
    root = str(catalogue_copy)
    status, out, _ = run(capsys, "drift", "--root", root, "--format", "json")
    drifted = json.loads(out)["cases"]
    assert status == 1 and drifted
    assert all("its reason" in a["question"] for c in drifted for a in c["answers"])
    before = {c["file"]: (catalogue_copy / c["file"]).read_text() for c in drifted}
    assert run(capsys, "pin", "--root", root, "--all-drifted")[0] == 0
    for name, text in before.items():
        after = (catalogue_copy / name).read_text()
        assert after != text
        assert after.replace("ranks above", "outranks") == text or _same_but_reasons(text, after)
    status, out, _ = run(capsys, "check", "--root", root)
    assert status == 1 and out.count("last read for them") == len(drifted)
    files = [str(catalogue_copy / name) for name in before]
    assert run(capsys, "pin", "--root", root, "--reviewed", *files)[0] == 0
    assert run(capsys, "check", "--root", root)[0] == 0
    assert run(capsys, "drift", "--root", root)[0] == 0


def _same_but_reasons(before: str, after: str) -> bool:
    """Whether two case files differ only in reasons reworded (and refolded) from "outranks"
    to "ranks above", the prose's ``reviewed:`` aside."""
    old, new = yaml.safe_load(before), yaml.safe_load(after)
    old.pop("reviewed", None)
    new.pop("reviewed", None)
    for claim in old.get("claims", ()):
        claim["because"] = " ".join(claim["because"].split()).replace("outranks", "ranks above")
    for claim in new.get("claims", ()):
        claim["because"] = " ".join(claim["because"].split())
    return bool(old == new)


def test_pin_refuses_a_file_changed_since_its_report(
    catalogue_copy: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    case = catalogue_copy / TIE
    case.write_text(case.read_text().replace("expect: granted", "expect: refused"))
    report = tmp_path / "drift.json"
    root = str(catalogue_copy)
    assert run(capsys, "drift", "--root", root, "--format", "json", "-o", str(report))[0] == 1
    case.write_text(case.read_text() + "# an editor's note\n")
    status, _, err = run(capsys, "pin", "--root", root, "--report", str(report))
    assert status == 2
    assert err.strip().endswith("changed since the drift report; make the report again")
    assert "\n" not in err.strip() and "expect: refused" in case.read_text()
    # The report is the drift command's own file: written again over itself, never over another.
    notes = tmp_path / "notes.json"
    notes.write_text('{"mine": true}\n')
    status, _, err = run(capsys, "drift", "--root", root, "--format", "json", "-o", str(notes))
    assert status == 2 and notes.read_text() == '{"mine": true}\n'


def test_the_published_catalogue_is_compared_with_an_earlier_export(
    project_to_read: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    earlier = tmp_path / "earlier.json"
    assert (
        main(["export", "--root", str(project_to_read), "-o", str(earlier)], kept_for_the_run())
        == 0
    )
    capsys.readouterr()
    document = json.loads(earlier.read_text())
    cases = {record["id"]: record for record in document["cases"]}
    cases["tie-you-finished-first"]["answers"]["claims"]["4"] = "refused"
    cases["no-wrap-around"]["id"] = "runs-do-not-wrap"
    del cases["incomplete-side"]
    document["cases"] = list(cases.values())
    earlier.write_text(json.dumps(document))
    status, out, _ = run(capsys, "drift", "--root", str(project_to_read), "--base", str(earlier))
    assert status == 0  # the case files agree with the engine: only the catalogue moved
    assert "tie-you-finished-first, claims.4: refused -> granted" in out
    assert "renamed: runs-do-not-wrap -> no-wrap-around" in out
    assert "added: incomplete-side" in out
    assert "1 answers moved, 1 cases added, 0 removed, 1 renamed" in out


@pytest.fixture(scope="module")
def unreadable_bases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    """Each project with a base that cannot be read, and that base: a copy (of what drift
    reads) that is no checkout, a checkout committed twice asked for a revision it lacks, a
    shallow clone of it (made once for the three: each checkout is about ten git processes and
    a few hundred files)."""
    plain = copy_catalogue_project(tmp_path_factory.mktemp("plain"))
    committed = copy_catalogue_project(tmp_path_factory.mktemp("committed"))
    _commit_twice(committed)
    clones = tmp_path_factory.mktemp("clones")
    _git(clones, "clone", "-q", "--depth", "1", f"file://{committed}", "shallow")
    return {
        "none": (plain, "HEAD~1"),
        "missing": (committed, "no-such-tag"),
        "shallow": (clones / "shallow", "HEAD~1"),
    }


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("none", "is not a git checkout; give an export file made from HEAD~1 instead"),
        ("missing", "no revision 'no-such-tag' in this checkout"),
        ("shallow", "which is shallow: fetch its history (git fetch --unshallow)"),
    ],
)
def test_a_base_that_cannot_be_read_is_one_line(
    setup: str,
    message: str,
    unreadable_bases: dict[str, tuple[Path, str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    root, base = unreadable_bases[setup]
    status, _, err = run(capsys, "drift", "--root", str(root), "--base", base)
    assert status == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err


def _git(where: Path, *arguments: str) -> str:
    environment = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Editor",
        "GIT_AUTHOR_EMAIL": "editor@example.org",
        "GIT_COMMITTER_NAME": "Editor",
        "GIT_COMMITTER_EMAIL": "editor@example.org",
    }
    done = subprocess.run(
        ["git", "-C", str(where), *arguments],
        capture_output=True,
        text=True,
        env=environment,
        check=True,
    )
    return done.stdout


def _commit_twice(root: Path) -> None:
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "the catalogue")
    (root / "NOTES.md").write_text("notes\n")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "notes")


def test_edited_values_keep_everything_else_of_the_file() -> None:
    text = (FIXTURE / "cases/end-of-game/05-both-pass-by-choice.yaml").read_text()
    changes: list[tuple[DataPath, Any]] = [
        (("turn", "expect", "winner"), "you"),
        (("turn", "expect", "held"), {"you": [1], "them": []}),
        (("plays", 0, "because"), "a reason that is long enough to be folded over two lines " * 2),
    ]
    after = edited_text(text, changes)
    changed = [line for line in after.splitlines() if line not in text.splitlines()]
    assert changed == [
        "    because: >-",
        "      a reason that is long enough to be folded over two lines a reason that is long"
        " enough to be",
        "      folded over two lines",
        "    winner: you",
        "    held: {you: [1], them: []}",
    ]
    assert len(after.splitlines()) == len(text.splitlines()) + 2


# ------------------------------------------------------------------ a real history, slow


def _drop_guard(case: Path, misreading: str) -> None:
    """Take ``misreading`` out of the case file's ``guards_against``, as an editor would (the
    key too, once it guards against nothing)."""
    kept = [
        re.sub(rf"\b{re.escape(misreading)}\b,? ?", "", line)
        if line.startswith("guards_against:")
        else line
        for line in case.read_text().splitlines()
    ]
    case.write_text("\n".join(line for line in kept if line != "guards_against: []") + "\n")


@pytest.mark.slow
def test_a_ruling_changed_in_the_engine_and_re_pinned_shows_in_the_report_of_its_history(
    tmp_path: Path,
) -> None:
    """A repository whose second commit flips who wins a tie between complete sides in the
    engine and re-pins the cases with pin: drift against the first commit names exactly the
    answers that moved; a dirty or detached checkout is said in a line, not a traceback."""
    project = tmp_path / "project"
    for name in ("engine", "oracle", "site_src", "games"):
        shutil.copytree(ROOT / name, project / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("rules", "cases"):  # the fixture catalogue, not the editors'
        shutil.copytree(FIXTURE / name, project / name)
    shutil.copy(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    environment = {
        **os.environ,
        "PYTHONPATH": str(project),
        "SCHOTTEN_ORACLE_CACHE": str(tmp_path / "cache"),
    }

    def oracle(*arguments: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "oracle.cli", *arguments],
            cwd=project,
            env=environment,
            capture_output=True,
            text=True,
            check=False,
        )

    def schema_made() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "oracle.casefile.schema"],
            cwd=project,
            env=environment,
            capture_output=True,
            text=True,
            check=False,
        )

    # The editors' schema names the fixture's rules and misreadings: made as an editor makes it.
    assert schema_made().returncode == 0
    _git(project, "init", "-q", "-b", "main")
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "ties go to whoever completed first")
    rulings = project / "engine" / "proof" / "rulings.py"  # the ruling's one home
    ruled = rulings.read_text()
    flipped = ruled.replace(
        "tie_break=TieBreak.COMPLETED_FIRST,", "tie_break=TieBreak.COMPLETED_LAST,"
    )
    assert flipped != ruled
    rulings.write_text(flipped)
    # The tie-break alone flipped contradicts the ruling that follows from it: check says so
    # at the line to change, and what to set.
    checked = oracle("check")
    assert checked.returncode == 1 and "set open_side_tie=OpenSideTie.REFUSED" in checked.stdout
    both = flipped.replace(
        "open_side_tie=OpenSideTie.GRANTED,", "open_side_tie=OpenSideTie.REFUSED,"
    )
    assert both != flipped
    rulings.write_text(both)
    drifted = oracle("drift", "--format", "json")
    assert drifted.returncode == 1, drifted.stderr
    report_of_drift = json.loads(drifted.stdout)
    moved = {case["id"] for case in report_of_drift["cases"]}
    unreadable = {entry["id"] for entry in report_of_drift["unreadable"]}
    # A tie you won by finishing first was granted, so the stone is yours on the board; now
    # the claim could not have been proved, and the board is no longer one play can reach.
    assert "tie-they-finished-first" in moved and "tie-you-finished-first" in unreadable
    pinned = oracle("pin", "--all-drifted", "--reviewed")
    left = [line.split(": ")[1].split(":")[0] for line in pinned.stderr.splitlines()]
    assert pinned.returncode == (1 if left else 0), pinned.stderr
    assert "re-pinned cases/claims/05-tie-they-finished-first.yaml" in pinned.stdout
    assert "cases/claims/04-tie-you-finished-first.yaml" in pinned.stderr
    for name in left:  # what pin cannot rewrite, an editor rewrites by hand; here it goes
        (project / name).unlink()
    # A guard that no longer holds under the new ruling is for the editor to drop by hand.
    unguarded = oracle("drift")
    stale = re.findall(
        r"^\s*(\S+\.yaml):\d+: \S+ says it guards against '([^']+)'", unguarded.stdout, re.M
    )
    assert (
        unguarded.returncode == 1
        and ("cases/elite-troops/06-your-joker-fills-your-run.yaml", "joker-only-nine") in stale
    )
    for name, misreading in stale:
        _drop_guard(project / name, misreading)
    assert oracle("drift").returncode == 0, oracle("drift").stdout
    assert schema_made().returncode == 0  # the flipped ruling's misreadings are named anew
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "ties go to whoever completed last; cases re-pinned")
    report = oracle("drift", "--base", "HEAD~1")
    assert report.returncode == 0, report.stderr
    assert "tie-they-finished-first, claims." in report.stdout
    assert f"0 cases added, {len(left)} removed, 0 renamed" in report.stdout
    (project / "cases" / "claims" / "README.txt").write_text("scratch\n")
    _git(project, "checkout", "-q", "--detach")
    noted = oracle("drift", "--base", "HEAD~1")
    assert "note: the checkout is on a detached HEAD" in noted.stdout
    assert "note: the checkout has uncommitted changes" in noted.stdout
    assert "Traceback" not in noted.stderr


# ------------------------------------------------------------------ the rulings' history


def test_the_history_of_the_rulings_is_shown_by_ruling_by_date_and_on_each_moved_case(
    catalogue: Catalogue,
) -> None:
    from oracle.site.history import answer_since
    from oracle.site.render import render_changes, render_rulings

    templates = ROOT / "site_src" / "_templates"
    changes = render_changes(catalogue.rules, templates, catalogue.published, "changes.md")
    days = [line for line in changes.splitlines() if line.startswith("## ")]
    assert days == sorted(days, reverse=True) and "## 2026&#45;12&#45;01" in days
    assert "[The Recruiter with too few cards left](rulings.md#tactics-recruiter-short-deck)" in (
        changes
    )
    assert "[playing&#45;your&#45;last&#45;card&#45;after&#45;two&#45;idle&#45;turns](cases/" in (
        changes
    )
    rulings = render_rulings(catalogue.rules, templates, catalogue.published)
    assert "*History:*" in rulings and "Source: commit d05e285 of this project." in rulings
    moved = next(r for r in catalogue.published if r.case.id == "recruiter-with-empty-decks")
    since = answer_since(moved.case, catalogue.rules, {})
    assert since is not None and since.date == "2026-11-30"
    assert since.cause == "when the ruling “The Recruiter with too few cards left” was added"
    other = next(r for r in catalogue.published if r.case.id == "incomplete-side")
    assert answer_since(other.case, catalogue.rules, {}) is None
    added = {other.case.path.resolve(): "2026-11-29"}
    assert answer_since(other.case, catalogue.rules, added) == Since(
        "2026-11-29", "when the case was added"
    )


def test_a_history_out_of_order_is_one_located_line(tmp_path: Path) -> None:
    index = (FIXTURE / "rules" / "index.yaml").read_text()
    swapped = index.replace('date: "2026-11-30"', 'date: "2026-12-09"', 1)
    (tmp_path / "index.yaml").write_text(swapped)
    with pytest.raises(CaseError) as caught:
        load_rules_index(tmp_path / "index.yaml")
    assert "the history of 'tactics.recruiter-short-deck' goes oldest first" in str(caught.value)


# ------------------------------------------------------------------ the editor's tools


def test_ask_shows_how_far_a_turn_got_before_the_move_it_refuses(
    catalogue_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = catalogue_copy / "cases" / "end-of-game" / "05-both-pass-by-choice.yaml"
    case.write_text(case.read_text().replace("moves: [pass, pass]", "moves: [pass, red 1 on 2]"))
    _, out, _ = run(capsys, "ask", str(case))
    assert "the engine cannot judge it: move 'red 1 on 2' is illegal (it is their turn now)" in out
    assert out.rstrip().endswith("  the turn so far: you: pass; you: claim nothing; you: no draw")


def test_check_lists_every_mistake_of_a_file_each_at_its_line(
    catalogue_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = catalogue_copy / "cases" / "claims" / "90-two-mistakes.yaml"
    broken.write_text(
        "id: two-mistakes\nsituaton: x\nwhy: y\nvariant: base\nposition:\n  stones:\n"
        "    - stone: 2\n      you: [red 5, red 6, red 7]\n      completed_first: maybe\n"
        "claims:\n  - stone: 12\n"
    )
    status, out, _ = run(capsys, "check", "--root", str(catalogue_copy))
    lines = [line for line in out.splitlines() if line.startswith("cases/claims/90-")]
    assert status == 1 and [line.split(": ")[0] for line in lines] == [
        "cases/claims/90-two-mistakes.yaml:2",
        "cases/claims/90-two-mistakes.yaml:9",
        "cases/claims/90-two-mistakes.yaml:11",
    ]
    assert "did you mean 'situation'?" in lines[0] and "no stone 12" in lines[2]


def test_a_hostile_reason_reaches_the_markdown_report_as_text_and_a_foreign_report_is_refused(
    catalogue_copy: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    case = catalogue_copy / TIE
    hostile = "<img src=x onerror=alert(1)> | **bold**"
    case.write_text(
        case.read_text().replace(
            "you completed your side first\n", f"you completed your side first {hostile}\n"
        )
    )
    root = str(catalogue_copy)
    status, out, _ = run(capsys, "drift", "--root", root, "--format", "markdown")
    assert status == 1 and "<img" not in out
    assert "&lt;img src=x onerror=alert(1)&gt; \\| **bold**" in out
    foreign = tmp_path / "other.json"
    foreign.write_text('{"format": "schotten-totten-oracle-catalogue", "cases": []}\n')
    status, _, err = run(capsys, "pin", "--root", root, "--report", str(foreign))
    assert status == 2 and err.count("\n") == 1
    assert "not a drift report of schotten-oracle drift --format json" in err
