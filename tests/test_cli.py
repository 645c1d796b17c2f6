"""The editors' command line: ask, check and new, run in-process on a copy of the project."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import kept_for_the_run

from oracle.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv), kept_for_the_run())
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
    catalogue_copy: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(catalogue_copy)
    folder = catalogue_copy / "cases" / "claims"
    number = max(int(path.name[:2]) for path in folder.glob("*.yaml")) + 1
    status, out = run(capsys, "new", "claims", "open-question")
    case = folder / f"{number:02d}-open-question.yaml"
    assert status == 0 and f"cases/claims/{case.name}" in out
    case.write_text(case.read_text().replace("hand: [green 1, green 2]", "hand: [blue 9]"))
    status, out = run(capsys, "ask", str(case))
    assert status == 0
    assert "1      red 7, red 8, red 9 (3/3)  blue 7, blue 8 (2/3)" in out
    assert "stone 1: granted" in out
    assert "draft: once you agree with these answers, schotten-oracle pin" in out


def test_ask_shows_a_refusal_with_its_witness(
    capsys: pytest.CaptureFixture[str], project_to_read: Path
) -> None:
    case = project_to_read / "cases" / "claims" / "02-last-three-in-your-hand.yaml"
    status, out = run(capsys, "ask", str(case))
    assert status == 0
    assert "stone 3: refused" in out and "witness: pink 3" in out


def test_ask_lists_the_legal_moves_of_a_game_case(
    capsys: pytest.CaptureFixture[str], project_to_read: Path
) -> None:
    case = project_to_read / "cases" / "turns" / "01-play-claim-draw.yaml"
    status, out = run(capsys, "ask", str(case))
    assert status == 0
    assert "the turn: you: red 9 on 4 → you: claim 4 → you: draw clan" in out
    assert "your legal moves: red 9 on 1," in out


def test_ask_names_a_bad_file_in_one_line(
    capsys: pytest.CaptureFixture[str], catalogue_copy: Path
) -> None:
    case = catalogue_copy / "cases" / "claims" / "99-bad.yaml"
    case.write_text("id: bad\nsituation: s\nwhy: w\nvariant: base\nclaims: [{stone: 12}]\n")
    status, out = run(capsys, "ask", str(case))
    assert status == 2
    assert out.strip() == "cases/claims/99-bad.yaml:5: no stone 12: stones are numbered 1 to 9"


def test_check_passes_on_the_catalogue_and_fails_on_a_drift(
    capsys: pytest.CaptureFixture[str], catalogue_copy: Path
) -> None:
    status, out = run(capsys, "check", "--root", str(catalogue_copy))
    assert status == 0 and "0 with problems" in out
    case = catalogue_copy / "cases" / "claims" / "07-no-wrap-around.yaml"
    case.write_text(case.read_text().replace("expect: refused", "expect: granted"))
    status, out = run(capsys, "check", "--root", str(catalogue_copy))
    assert status == 1
    assert "cases/claims/07-no-wrap-around.yaml:" in out and "the engine says refused" in out


def test_new_from_a_seed_writes_a_full_board_that_loads(
    capsys: pytest.CaptureFixture[str], catalogue_copy: Path
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
        str(catalogue_copy),
    )
    assert status == 0
    late = next((catalogue_copy / "cases" / "turns").glob("*-late.yaml"))
    status, out = run(capsys, "ask", str(late))
    assert status == 0 and "your legal moves:" in out


def test_check_names_a_topic_that_no_page_shows(
    capsys: pytest.CaptureFixture[str], catalogue_copy: Path
) -> None:
    lonely = catalogue_copy / "cases" / "openings" / "01-lonely.yaml"
    lonely.parent.mkdir()
    lonely.write_text(
        "# yaml-language-server: $schema=../../oracle/schema/case.schema.json\n"
        "id: lonely\nsituation: S\nwhy: W\nreviewed: f300f956\nvariant: base\n"
        "position:\n  stones:\n"
        "    - stone: 2\n      you: [pink 5, pink 6, pink 7]\n"
        "      them: [blue 2, green 3, yellow 4]\n      completed_first: them\n"
        "claims:\n  - stone: 2\n    expect: granted\n"
        "    because: your colour run pink 5, pink 6, pink 7 (total 18) beats their run blue 2,"
        " green 3, yellow 4 (total 9), since a colour run outranks a run\n"
    )
    status, out = run(capsys, "check", "--root", str(catalogue_copy))
    assert status == 1
    assert (
        "cases/openings/01-lonely.yaml:2: case 'lonely': no page shows the topic 'openings'" in out
    )
    total = len(list((catalogue_copy / "cases").glob("*/*.yaml")))
    assert f"{total} case files: {total - 1} verified, 0 drafts, 1 with problems\n" in out
    page = catalogue_copy / "site_src" / "openings.md"
    page.write_text("# Openings\n\n<!-- oracle:verdict-table openings -->\n")
    status, out = run(capsys, "check", "--root", str(catalogue_copy))
    assert status == 1
    assert (
        "site_src/openings.md: shows the table of 'openings' but is not in the nav of mkdocs.yml"
        in out
    )
    assert (
        f"{total} case files: {total} verified, 0 drafts, 0 with problems;"
        " 1 problem outside the case files, in site_src/openings.md" in out
    )
    # Each problem is counted, not each file: two lines of one file are two problems.
    (catalogue_copy / "site_src" / "more.md").write_text("# More\n\n<!-- oracle:rule nope -->\n")
    status, out = run(capsys, "check", "--root", str(catalogue_copy))
    lines = [line for line in out.splitlines() if line.startswith("site_src/")]
    assert f"; {len(lines)} problems outside the case files, in site_src/more.md," in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("new", "claims", "My Case"), "'My Case' is not a valid id"),
        (("new", "claims", "incomplete-side"), "the id 'incomplete-side' is taken by cases/claims"),
    ],
)
def test_new_refuses_a_bad_or_taken_id(
    capsys: pytest.CaptureFixture[str], project_to_read: Path, argv: tuple[str, ...], message: str
) -> None:
    status, out = run(capsys, *argv, "--root", str(project_to_read))
    assert status == 2 and message in out


def test_ask_refuses_a_folder(capsys: pytest.CaptureFixture[str], project_to_read: Path) -> None:
    status, out = run(capsys, "ask", str(project_to_read / "cases" / "claims"))
    assert status == 2 and "is a folder; give one case file" in out


def test_new_past_the_end_of_the_game_says_so(
    capsys: pytest.CaptureFixture[str], project_to_read: Path
) -> None:
    argv = ("new", "late-games", "too-late", "--from-seed", "3", "--turn", "500")
    status, out = run(capsys, *argv, "--root", str(project_to_read))
    assert status == 2 and "ends on turn" in out and "choose an earlier --turn" in out
    assert not (project_to_read / "cases" / "late-games").exists()


def test_ask_refuses_a_file_outside_the_cases(
    capsys: pytest.CaptureFixture[str], project_to_read: Path
) -> None:
    status, out = run(capsys, "ask", str(project_to_read / "rules" / "index.yaml"))
    assert status == 2 and "is not a case file: cases live under cases/" in out


def test_ask_judges_a_case_kept_outside_the_project_by_the_working_folders_rules(
    capsys: pytest.CaptureFixture[str],
    project_to_read: Path,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    elsewhere = tmp_path_factory.mktemp("downloads")
    case = elsewhere / "my-board.yaml"
    case.write_text(
        (project_to_read / "cases" / "claims" / "02-last-three-in-your-hand.yaml").read_text()
    )
    monkeypatch.chdir(project_to_read)
    status, out = run(capsys, "ask", str(case))
    assert status == 0 and "stone 3: refused" in out, out
    (elsewhere / "link.yaml").symlink_to(case)
    status, out = run(capsys, "ask", str(elsewhere / "link.yaml"))
    assert status == 2 and "a symbolic link" in out and len(out.strip().splitlines()) == 1
    monkeypatch.chdir(elsewhere)  # no project here or above: both places are named
    status, out = run(capsys, "ask", str(case))
    assert status == 2 and f"no rules/index.yaml in {elsewhere} or above, nor in the working" in out


def test_ask_lists_every_move_on_request(
    capsys: pytest.CaptureFixture[str], project_to_read: Path
) -> None:
    case = str(project_to_read / "cases" / "turns" / "01-play-claim-draw.yaml")
    status, out = run(capsys, "ask", case)
    assert status == 0 and "--all-moves shows them" in out
    status, out = run(capsys, "ask", case, "--all-moves")
    assert status == 0 and "--all-moves shows them" not in out and "yellow 9 on 9" in out


def test_new_numbers_from_the_whole_prefix_and_never_overwrites(
    capsys: pytest.CaptureFixture[str], catalogue_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 12, item 9: with 99-a and 100-hundred, the next case is 101, and no file is lost."""
    folder = catalogue_copy / "cases" / "scratch"
    folder.mkdir()
    (folder / "99-a.yaml").write_text("draft by hand\n")
    (folder / "100-hundred.yaml").write_text("an editor's unfinished case\n")
    status, out = run(capsys, "new", "scratch", "hundred", "--root", str(catalogue_copy))
    assert status == 0 and "cases/scratch/101-hundred.yaml" in out
    assert (folder / "100-hundred.yaml").read_text() == "an editor's unfinished case\n"
    taken = folder / "102-taken.yaml"
    taken.write_text("written meanwhile\n")
    monkeypatch.setattr("oracle.casefile.drafts.next_case_number", lambda folder: 102)
    status, out = run(capsys, "new", "scratch", "taken", "--root", str(catalogue_copy))
    assert status == 2 and "102-taken.yaml already exists; nothing was written" in out
    assert taken.read_text() == "written meanwhile\n"


def test_new_says_when_the_topic_is_a_file(
    capsys: pytest.CaptureFixture[str], catalogue_copy: Path
) -> None:
    (catalogue_copy / "cases" / "notes").write_text("not a folder\n")
    status, out = run(capsys, "new", "notes", "fresh", "--root", str(catalogue_copy))
    assert status == 2 and "cases/notes is a file, not a topic folder" in out
    assert "Traceback" not in out


def test_new_says_when_it_cannot_write(
    capsys: pytest.CaptureFixture[str], project_to_read: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "mkdir", refuse)
    status, out = run(capsys, "new", "claims", "fresh", "--root", str(project_to_read))
    assert status == 2 and "cannot write cases/claims/" in out and "Permission denied" in out


def test_ask_refuses_a_link_and_a_fifo_without_reading_them(
    capsys: pytest.CaptureFixture[str], catalogue_copy: Path
) -> None:
    claims = catalogue_copy / "cases" / "claims"
    loop = claims / "90-loop.yaml"
    loop.symlink_to(loop)
    status, out = run(capsys, "ask", str(loop))
    assert status == 2 and "a symbolic link" in out and "Traceback" not in out
    fifo = claims / "91-fifo.yaml"
    os.mkfifo(fifo)
    status, out = run(capsys, "ask", str(fifo))  # would block for ever if it were opened
    assert status == 2 and "not a regular file" in out


def test_ask_prints_each_answer_of_a_turn_once(
    capsys: pytest.CaptureFixture[str], catalogue_copy: Path
) -> None:
    case = catalogue_copy / "cases" / "turns" / "01-play-claim-draw.yaml"
    status, out = run(capsys, "ask", str(case))
    assert status == 0
    assert out.count("you: red 9 on 4") == 1  # the turn, once
    assert "the log [log]: as expected" in out
    assert "the stones held [held]: you: 4; them: none (as expected)" in out
    draft = case.read_text().split("  expect:")[0].replace("id: play-claim-draw", "id: a-draft")
    case.write_text(draft + "draft: true\n")
    status, out = run(capsys, "ask", str(case))
    assert status == 0
    for line in ("the winner [winner]: nobody", "the stones held [held]: you: 4; them: none"):
        assert line in out
    assert "your hand [hand]: " in out and "whose turn it is [next]: them" in out


def test_new_counts_the_id_of_a_file_that_does_not_load_yet_as_taken(
    capsys: pytest.CaptureFixture[str], catalogue_copy: Path
) -> None:
    broken = catalogue_copy / "cases" / "claims" / "90-unfinished.yaml"
    broken.write_text("id: unfinished\nsituation: [\n")
    status, out = run(capsys, "new", "claims", "unfinished", "--root", str(catalogue_copy))
    assert status == 2 and "the id 'unfinished' is taken by cases/claims/90-unfinished.yaml" in out


def test_new_counts_an_id_written_with_a_yaml_escape_as_taken(
    capsys: pytest.CaptureFixture[str], catalogue_copy: Path
) -> None:
    """``new`` reads only the files whose text could hold the id: one that writes it with an
    escape holds it too."""
    escaped = catalogue_copy / "cases" / "claims" / "90-escaped.yaml"
    escaped.write_text('id: "esc\\x61ped"\n')
    status, out = run(capsys, "new", "claims", "escaped", "--root", str(catalogue_copy))
    assert status == 2 and "the id 'escaped' is taken by cases/claims/90-escaped.yaml:1" in out


# ------------------------------------------------------------- no command replaces a file


def test_export_never_writes_over_an_editors_file(
    capsys: pytest.CaptureFixture[str], catalogue_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(catalogue_copy)
    index = catalogue_copy / "rules" / "index.yaml"
    case = catalogue_copy / "cases" / "claims" / "02-last-three-in-your-hand.yaml"
    notes = catalogue_copy / "notes.txt"
    notes.write_text("my notes\n")
    kept = {path: path.read_bytes() for path in (index, case, notes)}
    (catalogue_copy / "a-folder").mkdir()
    for target, words in (
        (index, "inside rules/, which holds the editors' files"),
        (case, "inside cases/, which holds the editors' files"),
        (catalogue_copy / "cases" / "claims" / "new.json", "inside cases/"),
        (notes, "exists and was not written by this command"),
        (catalogue_copy / "a-folder", "is a folder"),
        (catalogue_copy / "missing" / "out.json", "does not exist"),
        (notes / "x.json", "does not exist"),
    ):
        status, out = run(capsys, "export", "-o", str(target))
        assert status == 2 and words in out and len(out.strip().splitlines()) == 1, out
        assert "Traceback" not in out
    assert {path: path.read_bytes() for path in kept} == kept
    # Its own file it replaces; another only when told to, and never inside the editors' files.
    out_file = catalogue_copy / "catalogue.json"
    assert run(capsys, "export", "-o", str(out_file))[0] == 0
    assert run(capsys, "export", "--format", "jsonl", "-o", str(out_file))[0] == 0
    assert run(capsys, "export", "-o", str(notes), "--force")[0] == 0
    assert notes.read_text().startswith("{")
    assert run(capsys, "export", "-o", str(index), "--force")[0] == 2
    assert index.read_bytes() == kept[index]


def test_an_interrupted_write_leaves_the_old_file_whole(
    catalogue_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from oracle.conformance.export import is_export
    from oracle.outputs import OutputRefused, write_output

    target = catalogue_copy / "catalogue.json"
    old = '{"format": "schotten-totten-oracle-catalogue", "cases": []}\n'
    target.write_text(old)

    def interrupted(source: str, destination: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(OutputRefused, match="No space left on device"):
        write_output(target, "{" + "x" * 100_000, is_export)
    assert target.read_text() == old
    assert sorted(path.name for path in catalogue_copy.iterdir() if "catalogue" in path.name) == [
        "catalogue.json"
    ]


def test_conform_refuses_its_junit_file_before_the_run_starts(
    capsys: pytest.CaptureFixture[str], project_to_read: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    monkeypatch.chdir(project_to_read)
    index = project_to_read / "rules" / "index.yaml"
    kept = index.read_bytes()
    started = time.monotonic()
    status, out = run(capsys, "conform", "--junit", str(index), "--", "sleep", "60")
    assert status == 2 and "inside rules/" in out and time.monotonic() - started < 20
    assert index.read_bytes() == kept
    status, out = run(capsys, "conform", "--junit", str(project_to_read), "--", "sleep", "60")
    assert status == 2 and "is a folder" in out


def test_new_never_writes_through_a_linked_topic_folder(
    capsys: pytest.CaptureFixture[str],
    catalogue_copy: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    outside = tmp_path_factory.mktemp("outside")
    (catalogue_copy / "cases" / "linked").symlink_to(outside, target_is_directory=True)
    status, out = run(capsys, "new", "linked", "fresh", "--root", str(catalogue_copy))
    assert status == 2 and "cases/linked is a symbolic link" in out
    assert list(outside.iterdir()) == []


def test_replay_reads_a_bounded_record_and_never_waits_on_a_fifo(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import time

    fifo = tmp_path / "record.fifo"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.txt"
    huge.write_text("variant: base\n" + "1. " + "x" * 2_000_000 + "\n")
    long_line = tmp_path / "long.txt"
    long_line.write_text("variant: base\n" + "y" * 10_000 + "\n")
    for path, words in (
        (fifo, "not a regular file"),
        (Path("/dev/zero"), "not a regular file"),
        (huge, "over 1,024 KiB"),
        (long_line, "... (10,000 characters) is neither a header nor a turn"),
    ):
        started = time.monotonic()
        status, out = run(capsys, "replay", str(path))
        assert status in (1, 2) and words in out, out
        assert time.monotonic() - started < 5 and len(out) < 400, out


def test_check_quotes_a_file_name_that_could_forge_a_report_line(
    capsys: pytest.CaptureFixture[str], catalogue_copy: Path
) -> None:
    (catalogue_copy / "cases" / "claims" / "bad\nname\x1b[31m.yaml").write_text("id: x\n")
    status, out = run(capsys, "check", "--root", str(catalogue_copy))
    assert status == 1
    assert "'cases/claims/bad\\nname\\x1b[31m.yaml': the file name" in out
    assert "\x1b" not in out and "\nname" not in out


def test_a_file_that_fails_while_it_is_read_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "replay", "/proc/self/mem")
    assert status == 2 and "cannot read the file" in out and "Traceback" not in out


def test_a_linked_case_folder_is_an_error_and_export_never_writes_behind_it(
    capsys: pytest.CaptureFixture[str],
    catalogue_copy: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    real = tmp_path_factory.mktemp("real") / "cases"
    (catalogue_copy / "cases").rename(real)
    (catalogue_copy / "cases").symlink_to(real, target_is_directory=True)
    case = real / "claims" / "01-incomplete-side.yaml"
    kept = case.read_bytes()
    for target in (case, real / "claims" / "99-new.json"):
        status, out = run(
            capsys, "export", "--root", str(catalogue_copy), "--force", "-o", str(target)
        )
        assert status == 2 and "inside cases/" in out, out
    assert case.read_bytes() == kept and not (real / "claims" / "99-new.json").exists()
    status, out = run(capsys, "check", "--root", str(catalogue_copy))
    assert status == 1 and "cases: a symbolic link: the case folder must be a real folder" in out


def test_every_problem_of_the_rules_index_is_reported_at_once(
    capsys: pytest.CaptureFixture[str], catalogue_copy: Path
) -> None:
    index = catalogue_copy / "rules" / "index.yaml"
    broken = (
        "\n  - id: zz.one\n    kind: rule\n    section: S\n    title: T\n    applies: both\n"
        '    text: "\\a bell"\n'
        "  - id: zz.two\n    kind: law\n    section: S\n    title: T\n    applies: both\n"
        "    text: X\n"
        "  - id: zz.three\n    kind: rule\n    section: ' '\n    title: T\n    applies: both\n"
        "    text: X\n"
        "  - id: zz.four\n    kind: rule\n    section: S\n    title: T\n    text: X\n"
        "  - id: zz.five\n    kind: rule\n    section: S\n    title: T\n    applies: base\n"
        "    text: X\n    unpinned_in: {variant: tactics, because: B}\n"
    )
    lines = len(index.read_text().splitlines())
    index.write_text(index.read_text() + broken)
    status, out = run(capsys, "check", "--root", str(catalogue_copy))
    assert status == 2
    shown = [line for line in out.splitlines() if line.startswith("rules/index.yaml:")]
    assert [int(line.split(":")[1]) for line in shown] == [
        lines + 7,
        lines + 9,
        lines + 16,
        lines + 20,
        lines + 31,
    ], out
    assert "missing key 'applies'" in shown[3]
    assert "rule 'zz.five' applies to the base game only" in shown[4]


def test_a_record_seed_that_is_neither_a_number_nor_quoted_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "game.txt"
    record.write_text("variant: base\nseed: 44  # a comment\nfirst: A\n1. red 1 on 1\n")
    status, out = run(capsys, "replay", str(record))
    assert status == 1
    assert "seed: '44  # a comment' is neither a whole number nor a text in quotes" in out


def test_check_flags_a_case_that_checks_nothing_another_does_not(
    capsys: pytest.CaptureFixture[str], catalogue_copy: Path
) -> None:
    """The same board under another id gives the same answers, reasons included, and catches
    the same misreadings: a duplicate, named with the case it repeats."""
    seed = catalogue_copy / "cases" / "claims" / "07-no-wrap-around.yaml"
    twin = catalogue_copy / "cases" / "claims" / "12-no-wrap-again.yaml"
    twin.write_text(seed.read_text().replace("id: no-wrap-around", "id: no-wrap-again"))
    status, out = run(capsys, "check", "--root", str(catalogue_copy))
    assert status == 1
    assert (
        "cases/claims/12-no-wrap-again.yaml:2: case 'no-wrap-again' gives the same answers as"
        " case 'no-wrap-around' (cases/claims/07-no-wrap-around.yaml:2) and catches the same"
        " misreadings"
    ) in out
    assert "or keep it on purpose with twin_of: {case: no-wrap-around, because: " in out
    # Kept on purpose, saying why: accepted; a twin_of naming a case that answers otherwise,
    # or none, is refused at its line.
    text = twin.read_text()
    kept = text.replace(
        "variant: ", "twin_of:\n  case: no-wrap-around\n  because: fewer features\nvariant: ", 1
    )
    twin.write_text(kept)
    assert run(capsys, "check", "--root", str(catalogue_copy))[0] == 0
    twin.write_text(kept.replace("case: no-wrap-around", "case: incomplete-side"))
    status, out = run(capsys, "check", "--root", str(catalogue_copy))
    assert status == 1
    assert (
        "cases/claims/12-no-wrap-again.yaml:6: twin_of names 'incomplete-side', whose answers are"
        " not this case's: remove twin_of"
    ) in out
    twin.write_text(kept.replace("case: no-wrap-around", "case: no-such-case"))
    status, out = run(capsys, "check", "--root", str(catalogue_copy))
    assert status == 1 and "twin_of names 'no-such-case', which is no published case" in out


def test_check_reads_every_file_of_the_published_results(
    capsys: pytest.CaptureFixture[str], catalogue_copy: Path
) -> None:
    results = catalogue_copy / "results"
    results.mkdir()
    (results / "README.md").write_text("how to publish\n")
    assert run(capsys, "check", "--root", str(catalogue_copy))[0] == 0
    (results / "mine.json").write_text("not json\n")
    status, out = run(capsys, "check", "--root", str(catalogue_copy))
    assert status == 1 and "results/mine.json:1: not JSON" in out
    assert "0 published results of other engines, 1 unreadable" in out
    # A report of this catalogue naming a case it does not hold: check says so, as the build does.
    exported = catalogue_copy / "catalogue.json"
    assert run(capsys, "export", "--root", str(catalogue_copy), "-o", str(exported))[0] == 0
    version = json.loads(exported.read_text())["catalogue"]
    case = {"id": "no-such-case", "topic": "claims", "result": "pass"}
    report = {
        "format": "schotten-totten-oracle-conformance-report",
        "version": 1,
        "catalogue": version,
        "engine": "./mine",
        "summary": {"cases": 1, "pass": 1, "fail": 0, "unsupported": 0},
        "cases": [case],
        "submitted": {
            "name": "Mine",
            "version": "1",
            "link": "https://example.org",
            "date": "2026-12-02",
        },
    }
    (results / "mine.json").write_text(json.dumps(report))
    status, out = run(capsys, "check", "--root", str(catalogue_copy))
    assert status == 1, out
    assert (
        "results/mine.json:1: cases/0/id: case 'no-such-case' of topic 'claims' is not in the"
        " catalogue" in out
    )
