"""JSON read as strictly as the case files' YAML: a key given twice is refused (JSON lets the last
one win silently, so a reviewer could read one value and the build publish another), and each
string, object and array keeps the line it starts on, so that a problem with it is named by
file and line. Read this way: published results (``results/*.json``) and engines' answer lines."""

from __future__ import annotations

import bisect
import functools
import json
import json.decoder
import json.scanner
import re
from collections.abc import Callable, Iterator
from typing import Any

from oracle.casefile.source import DataPath


class JSONProblem(ValueError):
    """Why a text is not JSON this project reads, with the line (1-based) it is on."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem


class RepeatedKey(JSONProblem):
    """A key given twice in one object."""


class _Repeated(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _Repeated(key)
        found[key] = value
    return found


class _Decoder(json.JSONDecoder):
    """The standard decoder's own pure-Python scanner, told to note where each string value
    starts and to refuse a repeated key at the object that repeats it."""

    def __init__(self, starts: list[int]) -> None:
        super().__init__(object_pairs_hook=_unique)
        scanstring = json.decoder.scanstring  # type: ignore[attr-defined]  # untyped, stable
        read_string: Callable[[str, int, bool], tuple[str, int]] = scanstring
        read_object = json.decoder.JSONObject  # type: ignore[attr-defined]  # untyped, stable
        read_array = json.decoder.JSONArray  # type: ignore[attr-defined]  # untyped, stable

        def parse_string(text: str, end: int, strict: bool) -> tuple[str, int]:
            starts.append(end - 1)
            return read_string(text, end, strict)

        def parse_array(at: tuple[str, int], *rest: Any) -> tuple[list[Any], int]:
            starts.append(at[1] - 1)
            found: tuple[list[Any], int] = read_array(at, *rest)
            return found

        def parse_object(at: tuple[str, int], *rest: Any) -> tuple[dict[str, Any], int]:
            starts.append(at[1] - 1)
            try:
                found: tuple[dict[str, Any], int] = read_object(at, *rest)
            except _Repeated as repeated:
                text, start = at
                raise RepeatedKey(
                    _line(text, _key_again(text, start, repeated.key)),
                    f"the key {json.dumps(repeated.key)} is given twice in one object;"
                    " keep one (JSON readers disagree on which would count)",
                ) from None
            return found

        self.parse_string = parse_string
        self.parse_object = parse_object
        self.parse_array = parse_array
        self.scan_once = json.scanner.py_make_scanner(self)  # type: ignore[attr-defined]


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _key_again(text: str, start: int, key: str) -> int:
    """Where ``key`` is written the second time in the object opened at ``start`` (or the
    object's start, when it is written in some other escaped form)."""
    written = json.dumps(key, ensure_ascii=False)
    first = text.find(written, start)
    second = text.find(written, first + 1) if first >= 0 else -1
    return second if second >= 0 else start


class LocatedJSON:
    """A JSON document and the line of each of its string values (found only when asked: the
    standard C decoder reads the document, the slower scan that notes lines runs only for a
    message)."""

    def __init__(self, text: str, data: Any) -> None:
        self.text = text
        self.data = data

    @functools.cached_property
    def _lines(self) -> dict[DataPath, int]:
        starts: list[int] = []
        _Decoder(starts).raw_decode(self.text, _first(self.text))
        breaks = [index for index, character in enumerate(self.text) if character == "\n"]
        lines: dict[DataPath, int] = {}
        positions = iter(starts)

        def walk(value: Any, where: DataPath) -> None:
            if isinstance(value, str | dict | list):  # where it starts: its quote or bracket
                lines[where] = bisect.bisect_left(breaks, next(positions)) + 1
            if isinstance(value, dict):
                for key, item in value.items():
                    walk(item, (*where, key))
            elif isinstance(value, list):
                for index, item in enumerate(value):
                    walk(item, (*where, index))

        walk(self.data, ())
        return lines

    def line_of(self, where: DataPath) -> int | None:
        """The line a value starts on: a string, object or array's own; a number's, true's,
        false's or null's is that of the object or array holding it (None: not in the
        document)."""
        while where not in self._lines and where:
            where = where[:-1]
        return self._lines.get(where)


def strings(data: Any, where: DataPath = ()) -> Iterator[tuple[DataPath, str]]:
    """Every string value of a JSON document and where it is, in document order."""
    if isinstance(data, str):
        yield where, data
    elif isinstance(data, dict):
        for key, item in data.items():
            yield from strings(item, (*where, key))
    elif isinstance(data, list):
        for index, item in enumerate(data):
            yield from strings(item, (*where, index))


_BLANKS = re.compile(r"[ \t\n\r]*")


def _first(text: str) -> int:
    """Where the value starts, past the blanks JSON allows before it."""
    match = _BLANKS.match(text)
    return match.end() if match else 0


def parse_json(text: str) -> LocatedJSON:
    """``text`` as JSON, or :class:`JSONProblem` naming the line: not JSON, a repeated key, or
    more than one value."""
    try:
        return LocatedJSON(text, json.loads(text, object_pairs_hook=_unique))
    except _Repeated:
        pass  # found again below, where the scan knows the line
    except json.JSONDecodeError as error:
        raise JSONProblem(error.lineno, f"not JSON: {error.msg}") from None
    except RecursionError:
        raise JSONProblem(1, "not JSON this project reads: nested too deeply") from None
    try:
        _Decoder([]).raw_decode(text, _first(text))
    except RecursionError:
        raise JSONProblem(1, "not JSON this project reads: nested too deeply") from None
    raise AssertionError("a repeated key the located scan did not find")  # pragma: no cover
