"""The export's records kept packed (:class:`PackedRecords`), as a build holds them until it
writes the export: the same records, the same files, byte for byte."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from oracle.conformance.export import (
    PACKED_LINES,
    PackedRecords,
    catalogue_version,
    export_json,
    export_json_pieces,
    export_jsonl,
    export_jsonl_pieces,
    header,
    shown_records,
)
from oracle.site.engines import Conformance, render_conformance

ROOT = Path(__file__).resolve().parent.parent


def _record(number: int, topic: str) -> dict[str, Any]:
    return {
        "id": f"case-{number}",
        "topic": topic,
        "variant": "base",
        "situation": f'A line\nbreak, a quote " and é, 🂡, \u2028 \x85 \x0c {number}',
        "why": "",
        "rules": ["claim.prove", "claim.tie"][: number % 3],
        "guards_against": [],
        "catches": ["runs-wrap-around"] if number % 2 else [],
        "request": {"id": f"case-{number}", "board": {"nested": [[1, 2], {"a": None}]}},
        "answers": {"claims": {"5": "granted"}, "flag": True, "empty": {}, "none": []},
        "detail": {"number": number, "ratio": 0.5},
    }


RECORDS = tuple(_record(number, ("claims", "turns")[number % 2]) for number in range(7))
MANY = tuple(_record(number, "claims") for number in range(PACKED_LINES * 2 + 1))


def test_packed_records_read_back_as_they_were_given() -> None:
    many = PackedRecords(MANY)
    assert len(many) == len(MANY) and list(many) == list(MANY)
    for index in (0, PACKED_LINES - 1, PACKED_LINES, -1, -len(MANY)):
        assert many[index] == MANY[index]
    middle = slice(PACKED_LINES - 2, PACKED_LINES + 3)
    assert many[middle] == list(MANY[middle])
    assert export_jsonl(many, "x") == export_jsonl(MANY, "x")
    assert export_json(many, "x") == export_json(MANY, "x")
    for beyond in (len(MANY), -len(MANY) - 1):
        with pytest.raises(IndexError):
            many[beyond]
    packed = PackedRecords(RECORDS)
    assert len(packed) == len(RECORDS)
    assert list(packed) == list(RECORDS)
    assert packed[3] == RECORDS[3] and packed[-1] == RECORDS[-1]
    assert packed[1:3] == list(RECORDS[1:3])
    assert catalogue_version(packed) == catalogue_version(RECORDS)
    assert shown_records(packed) == [
        {
            key: tuple(record[key]) if isinstance(record[key], list) else record[key]
            for key in ("id", "topic", "rules", "catches")
        }
        for record in RECORDS
    ]


def test_packed_records_export_the_very_text_of_json_dumps() -> None:
    """Both files of the export, from packed records and from dicts, are the text of one
    ``json.dumps`` of the whole export (indented) and of one line per case."""
    for records in (RECORDS, PackedRecords(RECORDS), RECORDS[:1], PackedRecords(RECORDS[:1])):
        head = header("test", records)
        whole = (
            json.dumps(
                {**head, "cases": list(RECORDS[: len(records)])}, indent=1, ensure_ascii=False
            )
            + "\n"
        )
        assert export_json(records, "test") == "".join(export_json_pieces(records, "test"))
        assert export_json(records, "test") == whole
        lines = [json.dumps(head, ensure_ascii=False)]
        lines += [json.dumps(record, ensure_ascii=False) for record in RECORDS[: len(records)]]
        assert export_jsonl(records, "test") == "".join(export_jsonl_pieces(records, "test"))
        assert export_jsonl(records, "test") == "\n".join(lines) + "\n"
    empty = PackedRecords(())
    assert (
        export_json(empty, "test")
        == json.dumps({**header("test", ()), "cases": []}, indent=1, ensure_ascii=False) + "\n"
    )
    assert export_jsonl(empty, "test") == json.dumps(header("test", ()), ensure_ascii=False) + "\n"


def test_the_conformance_page_is_the_same_from_packed_records() -> None:
    templates = ROOT / "site_src" / "_templates"
    version = catalogue_version(RECORDS)
    pages = [
        render_conformance(Conformance(records, (), "test", version), templates, "conformance.md")
        for records in (RECORDS, PackedRecords(RECORDS))
    ]
    assert pages[0] == pages[1] and "case&#45;6" in pages[0]
