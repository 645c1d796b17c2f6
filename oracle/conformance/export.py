"""The catalogue as plain data, for other engines: one versioned JSON file, or JSON Lines.

Each published case becomes a record: its id, topic, variant, prose, rule ids, the misreadings it
catches, the request another engine is sent (:func:`oracle.protocol.answers.request_of`) and the
verified answers it must give; how this engine explains them is kept apart, under ``detail``, and
never compared."""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, overload

import jsonschema

import engine
from oracle.casefile.validation import inlined
from oracle.misreadings.matrix import MatrixRow, misreading_matrix
from oracle.protocol.answers import expected_answers, request_of
from oracle.protocol.schema import CATALOGUE_SCHEMA, schema_text
from oracle.verify.report import CaseReport

FORMAT = "schotten-totten-oracle-catalogue"


VERSION = 1
"""The export's version: it changes whenever a record or question changes shape."""


def case_record(report: CaseReport, caught: Sequence[str]) -> dict[str, Any]:
    """One published case as plain data: what it is, the request, the verified answers."""
    case = report.case
    answers, detail = expected_answers(report)
    return {
        "id": case.id,
        "topic": case.topic,
        "variant": case.position.variant.name,
        "situation": case.situation,
        "why": case.why,
        "rules": list(case.rules),
        "guards_against": list(case.guards_against),
        "catches": list(caught),
        "request": request_of(case),
        "answers": answers,
        "detail": detail,
    }


def catalogue_records(
    reports: Sequence[CaseReport], caught: Mapping[str, Sequence[str]]
) -> list[dict[str, Any]]:
    """Every published case as a record, in catalogue order, except the boards the engine
    must refuse (``impossible:``): the protocol asks an engine for verdicts and moves on a board,
    and the words of a refusal are this engine's own, so they are left out on purpose (the
    Conformance page says so)."""
    return list(_records(reports, caught))


def _records(
    reports: Sequence[CaseReport], caught: Mapping[str, Sequence[str]]
) -> Iterator[dict[str, Any]]:
    """:func:`catalogue_records`, a record at a time as each is taken."""
    for report in reports:
        if report.case.impossible is None:
            yield case_record(report, caught.get(report.case.id, ()))


def engine_version() -> str:
    """The package's version and a digest of the engine's source, which answered the export."""
    digest = hashlib.sha256()
    for path in sorted(Path(engine.__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return (
        f"{importlib.metadata.version('schotten-totten-oracle')} (engine {digest.hexdigest()[:12]})"
    )


VERSIONED = ("id", "topic", "variant", "request", "answers")
"""What of a record an outside engine's result depends on: which case, what it is asked and the
answers it is held to. A case's prose, rules and explanations may change without making every
published result stale."""


def catalogue_version(records: Sequence[dict[str, Any]]) -> str:
    """The catalogue's version: a digest of what its records ask and expect (:data:`VERSIONED`),
    the same whoever exports them and whenever, so that a report names the catalogue it was run
    against and stays current until a request or an expected answer changes."""
    digest = hashlib.sha256()
    for piece in _versioned_pieces(records):
        digest.update(piece.encode("utf-8"))
    return "sha256:" + digest.hexdigest()[:16]


def _versioned_pieces(records: Sequence[dict[str, Any]]) -> Iterator[str]:
    """The JSON text of what each record asks and expects (:data:`VERSIONED`), as one list, a
    record at a time: ``json.dumps`` of the whole list, with its sorted keys and separators,
    without holding the text of the whole catalogue at once."""
    yield "["
    for number, record in enumerate(records):
        asked = {key: record.get(key) for key in VERSIONED}
        yield (", " if number else "") + json.dumps(asked, sort_keys=True, ensure_ascii=False)
    yield "]"


def header(engine_version: str, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What the export is: its format, version, the engine that answered, how many cases and
    the catalogue's version."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "engine": engine_version,
        "count": len(records),
        "catalogue": catalogue_version(records),
    }


def export_json(records: Sequence[dict[str, Any]], engine_version: str) -> str:
    """The whole export as one JSON document."""
    return "".join(export_json_pieces(records, engine_version))


def export_json_pieces(records: Sequence[dict[str, Any]], engine_version: str) -> Iterator[str]:
    """:func:`export_json`'s text in pieces, made a case at a time as they are taken: what
    ``json.dumps`` of the whole document writes (indented by one space), each record encoded
    alone and indented to its place in the list (JSON escapes every line break in a string, so
    each line break of a record's text is one of the encoder's), so that records kept packed
    (:class:`PackedRecords`) are read back one at a time."""
    encoder = json.JSONEncoder(indent=1, ensure_ascii=False)
    if not records:
        yield encoder.encode({**header(engine_version, records), "cases": []}) + "\n"
        return
    head = encoder.encode(header(engine_version, records))
    yield head.removesuffix("\n}") + ',\n "cases": ['
    for number, record in enumerate(records):
        yield ("," if number else "") + "\n  " + encoder.encode(record).replace("\n", "\n  ")
    yield "\n ]\n}\n"


def export_jsonl(records: Sequence[dict[str, Any]], engine_version: str) -> str:
    """The export as JSON Lines: a header line, then one case a line."""
    return "".join(export_jsonl_pieces(records, engine_version))


def export_jsonl_pieces(records: Sequence[dict[str, Any]], engine_version: str) -> Iterator[str]:
    """:func:`export_jsonl`'s text in pieces: a line at a time, each made as it is taken (or,
    for :class:`PackedRecords`, as it was kept)."""
    yield json.dumps(header(engine_version, records), ensure_ascii=False) + "\n"
    if isinstance(records, PackedRecords):
        yield from records.lines()
        return
    for record in records:
        yield json.dumps(record, ensure_ascii=False) + "\n"


class PackedRecords(Sequence[dict[str, Any]]):
    """Case records kept as their JSON Lines text, compressed a block of lines at a time
    (:data:`PACKED_LINES`), each read back as it is taken, and what the Conformance page shows of
    each (:data:`SHOWN`) kept apart, for a build to hold the export until it writes it: ten
    thousand records as dicts take about 100 MB, their text about 21 MB, compressed under 4 MB
    (compressing and reading back cost about a tenth of a second)."""

    def __init__(self, records: Iterable[dict[str, Any]]) -> None:
        blocks: list[bytes] = []
        lines: list[str] = []
        shown: list[tuple[Any, ...]] = []
        for record in records:
            lines.append(json.dumps(record, ensure_ascii=False) + "\n")
            shown.append(tuple(_frozen(record[key]) for key in SHOWN))
            if len(lines) == PACKED_LINES:
                blocks.append(zlib.compress("".join(lines).encode("utf-8"), 1))
                lines.clear()
        if lines:
            blocks.append(zlib.compress("".join(lines).encode("utf-8"), 1))
        self._blocks = tuple(blocks)
        self._shown = tuple(shown)

    def __len__(self) -> int:
        return len(self._shown)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [self[number] for number in range(len(self))[index]]
        number = range(len(self))[index]  # an IndexError beyond either end
        block, place = divmod(number, PACKED_LINES)
        return dict(json.loads(self._block_lines(block)[place]))

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for line in self.lines():
            yield json.loads(line)

    def _block_lines(self, block: int) -> list[str]:
        """The lines of a block, without their line breaks (only ``\\n`` ends a line: JSON
        escapes it in a string, not every character ``str.splitlines`` breaks at)."""
        return zlib.decompress(self._blocks[block]).decode("utf-8")[:-1].split("\n")

    def lines(self) -> Iterator[str]:
        """Each record's line of the JSON Lines export, its line break included."""
        for block in range(len(self._blocks)):
            for line in self._block_lines(block):
                yield line + "\n"

    def shown(self) -> list[dict[str, Any]]:
        """What the Conformance page shows of each record (:data:`SHOWN`), without reading the
        records back."""
        return [dict(zip(SHOWN, fields, strict=True)) for fields in self._shown]


PACKED_LINES = 64
"""How many records :class:`PackedRecords` compresses together: enough for their repeated keys
and values to compress (about a sixth of their text), few enough to read one back cheaply."""


SHOWN = ("id", "topic", "rules", "catches")
"""What of a record the Conformance page shows."""


def _frozen(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def shown_records(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the Conformance page shows of each of ``records`` (:data:`SHOWN`)."""
    if isinstance(records, PackedRecords):
        return records.shown()
    return [{key: record[key] for key in SHOWN} for record in records]


def is_export(head: str) -> bool:
    """Whether a file's first characters are those of an export (one ``export`` may replace)."""
    return head.lstrip().startswith("{") and f'"format": "{FORMAT}"' in head


def read_export(text: str) -> list[dict[str, Any]]:
    """The case records of an export, JSON or JSON Lines, checked for its format, its version
    and the shape of every record (:class:`ValueError`, in one line, for anything else)."""
    if not text.strip():
        raise ValueError("the export is empty")
    try:
        whole = json.loads(text)
    except (ValueError, RecursionError):
        whole = None
    if isinstance(whole, dict) and isinstance(whole.get("cases"), list):
        _check_header(whole)
        records: list[Any] = list(whole["cases"])
    else:
        # JSON Lines are ended by "\n" alone: a string may hold U+2028 or NEL unescaped,
        # where ``str.splitlines`` would also break.
        lines = [line for line in text.split("\n") if line.strip()]
        try:
            head, records = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
        except (ValueError, RecursionError) as error:
            raise ValueError(f"neither JSON nor JSON Lines: {str(error)[:120]}") from None
        _check_header(head)
    validator = _record_validator()
    for number, record in enumerate(records, 1):
        wrong = jsonschema.exceptions.best_match(validator.iter_errors(record))
        if wrong is not None:
            where = "/".join(str(part) for part in wrong.absolute_path) or "the record"
            raise ValueError(f"case record {number}, {where}: {wrong.message[:160]}")
    return records


@cache
def _record_validator() -> jsonschema.Draft7Validator:
    """A validator of one case record of the export's schema, its references resolved once."""
    schema: dict[str, Any] = json.loads(schema_text(CATALOGUE_SCHEMA))
    return jsonschema.Draft7Validator(inlined({**schema, "$ref": "#/definitions/case"}))


def _check_header(head: Any) -> None:
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} export")
    if head.get("version") != VERSION:
        raise ValueError(
            f"export version {str(head.get('version'))[:20]!r}; this runner reads {VERSION}"
        )


def published_records(
    reports: Sequence[CaseReport], matrix: Sequence[MatrixRow] | None = None
) -> list[dict[str, Any]]:
    """The published cases as export records, each with the misreadings it catches (from
    ``matrix``, worked out here when not given)."""
    return list(published_record_stream(reports, matrix))


def published_record_stream(
    reports: Sequence[CaseReport], matrix: Sequence[MatrixRow] | None = None
) -> Iterator[dict[str, Any]]:
    """:func:`published_records`, a record at a time as each is taken (for
    :class:`PackedRecords`, which never holds them all as dicts)."""
    if matrix is None:
        matrix = misreading_matrix(tuple(reports))
    caught: Mapping[str, Sequence[str]] = {row.report.case.id: row.caught for row in matrix}
    return _records(reports, caught)
