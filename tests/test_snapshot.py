"""The engine pages' snapshot, made by the build in Node (``oracle.site.snapshot``): kept between
builds under the names of what it is made from, and a clear one-line error when Node is missing
or fails. Restoring it in the browser is tested in ``tests/test_browser.py``."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest

from oracle.site import snapshot as snapshots
from oracle.site.bundle import Bundle, BundleError

ARCHIVE = Bundle(b"PK not really an archive", "0123456789ab")


def test_the_snapshots_name_says_the_runtime_and_the_archive_it_holds() -> None:
    name = snapshots.snapshot_name("9.9.9", ARCHIVE)
    assert name == "oracle-engine-0123456789ab.pyodide-9.9.9.snapshot"


def test_a_kept_snapshot_is_used_without_starting_node(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCHOTTEN_ORACLE_CACHE", str(tmp_path / "cache"))
    made: list[Path] = []

    def make(runtime: Path, archive: Bundle) -> bytes:
        made.append(runtime)
        return b"python's memory"

    monkeypatch.setattr(snapshots, "_made_snapshot", make)
    first = snapshots.engine_snapshot(tmp_path, "9.9.9", ARCHIVE)
    assert gzip.decompress(first) == b"python's memory" and made == [tmp_path]
    assert snapshots.engine_snapshot(tmp_path, "9.9.9", ARCHIVE) == first
    assert made == [tmp_path]  # the second build found it kept
    snapshots.engine_snapshot(tmp_path, "9.9.10", ARCHIVE)  # another runtime: made again
    assert len(made) == 2


def test_without_node_the_build_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCHOTTEN_ORACLE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(BundleError, match=r"^Node is needed .*npm") as error:
        snapshots.engine_snapshot(tmp_path, "9.9.9", ARCHIVE)
    assert "\n" not in str(error.value)


def test_node_failing_gives_its_error_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A runtime folder without Pyodide: Node's own error, not its stack (make test installs
    Node with the browser runtime)."""
    monkeypatch.setenv("SCHOTTEN_ORACLE_CACHE", str(tmp_path / "cache"))
    with pytest.raises(BundleError, match=r"^Node could not make the engine's snapshot: ") as e:
        snapshots.engine_snapshot(tmp_path / "no-runtime", "9.9.9", ARCHIVE)
    message = str(e.value)
    assert "\n" not in message and "Cannot find module" in message and " at " not in message
