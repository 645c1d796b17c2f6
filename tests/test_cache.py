"""The cache folder's files: written whole and read back, each reader with a copy of its own."""

from __future__ import annotations

from pathlib import Path

from oracle.cache import load_json, save_json


def test_a_cache_file_reads_back_as_last_written(tmp_path: Path) -> None:
    """Each caller gets a dictionary of its own; a file written again (even to the same size)
    reads as written; a file that is not a JSON object, or is missing, reads as nothing."""
    path = tmp_path / "answers-0123.json"
    save_json(path, {"a": {"x": 1}})
    mine = load_json(path)
    mine["b"] = {"x": 3}
    assert load_json(path) == {"a": {"x": 1}}
    save_json(path, {"a": {"x": 2}})
    assert load_json(path) == {"a": {"x": 2}}
    path.write_text("[1, 2]")
    assert load_json(path) == {}
    path.write_text("{not json")
    assert load_json(path) == {}
    path.unlink()
    assert load_json(path) == {}
