"""``bench/browser_bench.py --trace FILE`` writes new files and replaces none: given a file that
is already there (the trace's own or its ``-pressed`` twin), it stops before building anything,
in one line naming the file, and leaves the file as it was."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import bench_module


@pytest.mark.parametrize("taken", ["trace.json", "trace-pressed.json"])
def test_a_trace_never_replaces_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], taken: str
) -> None:
    bench = bench_module("browser_bench")
    (tmp_path / taken).write_text("kept: yes\n", encoding="utf-8")
    monkeypatch.setattr(bench, "build", lambda site: pytest.fail("built before refusing"))
    monkeypatch.setattr(sys, "argv", ["browser_bench.py", "--trace", str(tmp_path / "trace.json")])
    with pytest.raises(SystemExit) as stopped:
        bench.main()
    assert stopped.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error == (
        f"browser_bench.py: error: {tmp_path / taken}: already exists;"
        " --trace writes new files and replaces none"
    )
    assert (tmp_path / taken).read_text(encoding="utf-8") == "kept: yes\n"
