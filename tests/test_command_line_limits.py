"""The command line says what it will not do in the same words everywhere: a link is never
followed, a turn is never negative, a timeout is long enough for a process to answer, and a move
is read as written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import OUR_ADAPTER, run_main

from engine import MoveSyntaxError
from engine.game.moves import Banshee, read_move
from oracle.cli import main

GAMES = Path(__file__).resolve().parent.parent / "games"


def test_a_linked_record_is_named_a_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = next(GAMES.glob("*.txt"))
    link = tmp_path / "link.txt"
    link.symlink_to(record)
    assert main(["replay", str(link)]) == 2
    assert "a symbolic link: links are never followed; give the file itself" in (
        capsys.readouterr().err
    )


def test_a_negative_turn_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    look = Path(__file__).resolve().parent / "look"
    shutil.copytree(look / "rules", tmp_path / "rules")
    (tmp_path / "cases").mkdir()
    arguments = ["new", "--root", str(tmp_path), "--from-seed", "3", "--turn", "-5"]
    assert main([*arguments, "claims", "some-case"]) != 0
    assert "--turn -5: a turn is 0 (the deal) or later" in capsys.readouterr().err
    assert not list((tmp_path / "cases").rglob("*.yaml"))


@pytest.mark.parametrize("timeout", ["1e-9", "0", "-1", "nan", "3601"])
def test_a_timeout_no_engine_could_meet_is_refused(
    timeout: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["conform", "--timeout", timeout, "--", "true"])
    assert "--timeout" in capsys.readouterr().err


def test_a_ruse_is_named_by_a_whole_word() -> None:
    def nothing(stone: int, theirs: bool) -> list[int]:
        return []

    assert isinstance(read_move("banshee: red 5 at 3", [], nothing), Banshee)
    assert isinstance(read_move("banshee red 5 at 3", [], nothing), Banshee)
    with pytest.raises(MoveSyntaxError, match="'bansheered 5 at 3' is not a move"):
        read_move("bansheered 5 at 3", [], nothing)


@pytest.fixture(scope="module")
def look_to_write_beside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One copy of the look's cases and rules index for the six runs that write to standard
    output: each checks that the folder holds nothing else after its run."""
    look = Path(__file__).resolve().parent / "look"
    root = tmp_path_factory.mktemp("dash")
    for name in ("cases", "rules"):
        shutil.copytree(look / name, root / name)
    return root


@pytest.mark.parametrize(
    ("command", "starts"),
    [
        (["export", "-o", "-"], '{\n "format": "schotten-totten-oracle-catalogue"'),
        (["export", "--format", "jsonl", "-o", "-"], '{"format": "schotten-totten-oracle-cat'),
        (["drift", "-o", "-"], "drift: every answer"),
        (["drift", "--format", "json", "-o", "-"], '{\n "format": "schotten-oracle-drift"'),
        (["conform", "-q", "-k", "incomplete-side", "--json", "-"], '{\n "format": "schotten'),
        (["conform", "-q", "-k", "incomplete-side", "--junit", "-"], '<?xml version="1.0"'),
    ],
)
@pytest.mark.usefixtures("adapter_in_process")
def test_dash_is_standard_output_for_every_command_that_writes_a_file(
    command: list[str],
    starts: str,
    look_to_write_beside: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``-o -`` (and ``--json -``, ``--junit -``) means standard output for export, drift and
    conform alike: what is written goes there, and no file named ``-`` appears."""
    root = look_to_write_beside
    monkeypatch.chdir(root)
    engine = ["--", *OUR_ADAPTER]
    # The six share the run's reads and replays of the same files.
    assert run_main([*command, *(engine if command[0] == "conform" else [])]) == 0
    out = capsys.readouterr().out
    assert out.startswith(starts), out[:80]
    assert not (root / "-").exists() and sorted(p.name for p in root.iterdir()) == [
        "cases",
        "rules",
    ]
