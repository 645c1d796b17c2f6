"""The cache folder's files: written whole, read back, and parsed once while unchanged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from oracle.cache import load_json, save_json


def test_a_cache_file_is_parsed_again_only_once_written_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Many caches of one file in a process parse it once; each caller gets a dictionary of its
    own; a file written again (even to the same size) is read afresh."""
    parsed: list[str] = []
    real = json.loads

    def counted(text: str, **options: Any) -> Any:
        parsed.append(text)
        return real(text, **options)

    monkeypatch.setattr(json, "loads", counted)
    path = tmp_path / "answers-0123.json"
    save_json(path, {"a": {"x": 1}})
    mine = load_json(path)
    mine["b"] = {"x": 3}
    assert load_json(path) == {"a": {"x": 1}} and len(parsed) == 1
    save_json(path, {"a": {"x": 2}})
    assert load_json(path) == {"a": {"x": 2}} and len(parsed) == 2
    path.write_text("[1, 2]")
    assert load_json(path) == {}
    path.write_text("{not json")
    assert load_json(path) == {}
    path.unlink()
    assert load_json(path) == {}
