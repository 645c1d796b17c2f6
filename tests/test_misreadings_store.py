"""The misreadings' store: answers read and written a case at a time, kept between runs, and a
store of another format (or none usable) never read, never a wrong answer."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from oracle.conformance.export import VERSIONED, catalogue_version
from oracle.judges.misreadings import MISREADINGS
from oracle.misreadings import cache as cache_module
from oracle.misreadings.cache import MisreadingCache, answers_digest
from oracle.verify.report import CaseReport


@pytest.fixture(scope="module")
def few(published: tuple[CaseReport, ...]) -> tuple[CaseReport, ...]:
    """A few claim cases, each asked by several misreadings."""
    return tuple(report for report in published if report.case.claims)[:4]


def every_answer(cache: MisreadingCache, reports: tuple[CaseReport, ...]) -> list[object]:
    return [
        cache.misread(report.case, reading, report)
        for report in reports
        for reading in MISREADINGS.values()
    ]


def refuse_to_work_out(monkeypatch: pytest.MonkeyPatch) -> None:
    def misread(*args: object) -> None:
        raise AssertionError("worked out again")

    monkeypatch.setattr(cache_module, "misread", misread)


def test_answers_saved_are_read_back_a_case_at_a_time_not_worked_out_again(
    few: tuple[CaseReport, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cache saved gives a later one the same answers without the judge; that one holds
    only the answers of the case it was last asked about."""
    first = MisreadingCache(tmp_path)
    answers = every_answer(first, few)
    assert first.unsaved
    first.save()
    assert not first.unsaved and first.store.is_file()
    refuse_to_work_out(monkeypatch)
    again = MisreadingCache(tmp_path)
    assert every_answer(again, few) == answers
    assert again._asked is not None and len(again._asked[1]) == len(MISREADINGS)


def test_answers_are_written_as_they_pile_up_not_held_until_saved(
    few: tuple[CaseReport, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache_module, "WRITTEN_EVERY", 5)
    cache = MisreadingCache(tmp_path)
    every_answer(cache, few)
    with sqlite3.connect(cache.store) as store:
        written = store.execute("SELECT count(*) FROM answers").fetchone()[0]
    assert written >= len(few) * len(MISREADINGS) - 5
    assert cache._unwritten_count < 5


def test_the_old_json_store_is_never_read(few: tuple[CaseReport, ...], tmp_path: Path) -> None:
    """The JSON file of the answers as they were once kept, even holding wrong answers under
    this code's digest, is not read: the answers are worked out."""
    right = every_answer(MisreadingCache(tmp_path / "right"), few)
    old = tmp_path / "old" / f"misreadings-{answers_digest()}.json"
    old.parent.mkdir()
    old.write_text(json.dumps({"0" * 64: {"response": {"answers": {}}}}))
    assert every_answer(MisreadingCache(old.parent), few) == right


@pytest.mark.parametrize(
    "store",
    [
        pytest.param(b"not a database at all", id="garbage"),
        pytest.param("another format", id="another-version"),
        pytest.param(b"", id="empty"),
    ],
)
def test_a_store_that_cannot_be_read_gives_the_right_answers(
    few: tuple[CaseReport, ...], tmp_path: Path, store: bytes | str
) -> None:
    """A store of another format (its ``user_version``), or not a store at all, is neither
    read nor written over: the answers are worked out, the same as without it."""
    right = every_answer(MisreadingCache(tmp_path / "right"), few)
    cache = MisreadingCache(tmp_path / "odd")
    cache.store.parent.mkdir()
    if isinstance(store, bytes):
        cache.store.write_bytes(store)
    else:
        with sqlite3.connect(cache.store) as connection:
            connection.execute("CREATE TABLE answers (request, reading, response)")
            connection.execute("INSERT INTO answers VALUES ('x', 'y', 'null')")
            connection.execute("PRAGMA user_version = 1")
        connection.close()
    before = cache.store.read_bytes()
    assert every_answer(cache, few) == right
    cache.save()
    if store:
        assert cache.store.read_bytes() == before
    assert every_answer(cache, few) == right


def test_without_a_writable_folder_the_answers_are_worked_out(
    few: tuple[CaseReport, ...], tmp_path: Path
) -> None:
    right = every_answer(MisreadingCache(tmp_path / "right"), few)
    (tmp_path / "file").write_text("a file, not a folder")
    cache = MisreadingCache(tmp_path / "file")
    assert every_answer(cache, few) == right
    cache.save()
    assert every_answer(cache, few) == right


def test_the_catalogue_version_is_the_digest_of_the_whole_text_hashed_in_pieces() -> None:
    """Hashed a record at a time, the version is still that of ``json.dumps`` of every
    record's versioned part as one list (sorted keys, text beyond ASCII as it is)."""
    import hashlib

    def whole(records: list[dict[str, object]]) -> str:
        asked = [{key: record.get(key) for key in VERSIONED} for record in records]
        text = json.dumps(asked, sort_keys=True, ensure_ascii=False)
        return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    records: list[dict[str, object]] = [
        {"id": "a", "topic": "claims", "variant": "base", "request": {"z": 1, "a": [1, 2]}},
        {"id": "b", "topic": "é", "answers": {"claims": {"3": "granted"}}, "why": "left out"},
        {"id": "c"},
    ]
    for count in range(len(records) + 1):
        assert catalogue_version(records[:count]) == whole(records[:count])
