"""``pin`` changes the values it is asked to and nothing else of the file: not its line endings
(a file saved with CRLF, or CR alone, which ``check`` reads, keeps them). On the fixture
catalogue."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import run_main

LOOK = Path(__file__).resolve().parent / "look"


@pytest.mark.parametrize("ending", [b"\r\n", b"\r"], ids=["CRLF", "CR"])
def test_pin_keeps_a_files_line_endings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], ending: bytes
) -> None:
    for name in ("cases", "rules"):
        shutil.copytree(LOOK / name, tmp_path / name)
    case = tmp_path / "cases" / "claims" / "01-incomplete-side.yaml"
    original = case.read_bytes()
    assert b"\r" not in original and b"expect: refused" in original
    drifted = original.replace(b"expect: refused", b"expect: granted").replace(b"\n", ending)
    case.write_bytes(drifted)
    assert run_main(["check", "--root", str(tmp_path)]) == 1  # read, and found drifted
    assert run_main(["pin", "--root", str(tmp_path), str(case)]) == 0, capsys.readouterr()
    assert case.read_bytes() == original.replace(b"\n", ending)
    assert run_main(["check", "--root", str(tmp_path)]) == 0
