"""Case files and the rules index against their JSON Schemas: keys, types and choices, each
violation told in an editor's words at its line."""

from __future__ import annotations

import copy
import difflib
import json
import sys
from collections.abc import Callable, Collection, Iterator, Sequence
from functools import cache
from importlib import resources
from typing import Any
from urllib.parse import urljoin

import jsonschema

from engine import (
    CardError,
    parse_card,
)
from oracle.casefile.errors import CaseError
from oracle.casefile.source import DataPath, LocatedDocument
from oracle.casefile.vocabulary import CARD_LISTS


@cache
def load_schema(name: str) -> dict[str, Any]:
    """One of the package's JSON Schemas by its name in ``oracle/schema``: ``rules``,
    ``case.base`` (the case schema without its questions: see
    :func:`oracle.casefile.questions.case_schema`) or a question kind's part, ``kinds/claims``."""
    text = resources.files("oracle").joinpath(f"schema/{name}.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def inlined(schema: dict[str, Any], others: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """``schema`` with every ``$ref`` replaced by what it points at (which in draft 7 overrides
    the keys beside it), in ``schema`` itself or in one of ``others`` named by its ``$id``;
    a reference met again inside what it points at stays a reference. A reference names a
    document relative to the ``$id`` of the one it is in. Validating then never
    looks a reference up: looking them up made reading a catalogue twice as slow."""
    documents = {str(other["$id"]): other for other in others}
    documents[""] = schema
    return {**_inlined(schema, documents, "", ()), "definitions": schema.get("definitions", {})}


def _inlined(node: Any, documents: dict[str, Any], base: str, seen: tuple[str, ...]) -> Any:
    """``node`` of the document named ``base``, its references replaced (see :func:`inlined`)."""
    if isinstance(node, list):
        return [_inlined(item, documents, base, seen) for item in node]
    if not isinstance(node, dict):
        return node
    reference = node.get("$ref")
    if isinstance(reference, str):
        name, _, pointer = reference.partition("#")
        name = urljoin(base, name) if name else base
        target = _pointed_at(documents.get(name), pointer)
        if target is not None and f"{name}#{pointer}" not in seen:
            return _inlined(target, documents, name, (*seen, f"{name}#{pointer}"))
    return {key: _inlined(value, documents, base, seen) for key, value in node.items()}


def _pointed_at(document: Any, pointer: str) -> Any:
    """What the JSON pointer ``pointer`` names in ``document``, or None."""
    node = document
    for part in pointer.split("/")[1:]:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


COMPILED_CHECKS = sys.platform != "emscripten"
"""Whether schemas are checked by compiled code first (:class:`SchemaCheck`): not in the browser,
where reading the YAML in pure Python is most of a claim's time and the compiled code made the
pages' snapshot a third larger (8.6 -> 11.4 MB) without a measurable gain."""


class SchemaCheck:
    """A JSON Schema (draft 7) checked two ways. fastjsonschema's code, compiled from the schema
    once, says whether a document fits it, about fifteen times faster than jsonschema on a case;
    only a document it refuses is walked by jsonschema, whose errors name each violation and
    where it is, for the editor. jsonschema is the judge: the compiled check only lets a
    document that fits skip the walk (tests/test_schema_check.py holds the two to agreeing).
    Without ``compiled``, jsonschema walks every document."""

    def __init__(self, schema: dict[str, Any], compiled: bool = COMPILED_CHECKS) -> None:
        self.schema = schema
        self.validator = jsonschema.Draft7Validator(schema)
        self._fits: Callable[[Any], object] | None = None
        self._refusal: type[Exception] = ValueError
        if compiled:
            import fastjsonschema  # here: the browser's archive has none

            # A copy: compiling writes each reference's full address into the schema it is given.
            self._fits = fastjsonschema.compile(
                copy.deepcopy(schema), use_default=False, use_formats=False
            )
            self._refusal = fastjsonschema.JsonSchemaException

    def fits(self, data: Any) -> bool:
        """Whether ``data`` fits the schema (by the compiled check, when there is one)."""
        if self._fits is None:
            return bool(self.validator.is_valid(data))
        try:
            self._fits(data)
        except self._refusal:
            return False
        return True

    def errors(self, data: Any) -> Iterator[jsonschema.ValidationError]:
        """Every violation of the schema in ``data``: none, unwalked, when the compiled check
        says it fits."""
        if self._fits is None or not self.fits(data):
            yield from self.validator.iter_errors(data)


_TOP_LEVEL_KEYWORDS = frozenset(
    {"$schema", "$id", "title", "description", "definitions"}
    | {"type", "additionalProperties", "required", "properties", "if", "then"}
)
"""The keywords :func:`fits_where_changed` knows at a schema's top level: the annotations, and
the checks it makes of a document's top-level keys."""


def fits_where_changed(check: SchemaCheck, data: Any, changed: Collection[str]) -> bool:
    """Whether ``data`` fits ``check``'s schema, known to fit it before the top-level values
    ``changed`` were set or removed (no other value changed): each check of the top level
    (the type, the keys allowed and required), the schema of each changed value, and the
    ``if``/``then`` (which may look at any key), each on the few values it reads, not a walk of
    the whole document. False (let the whole document be walked, for its located errors) where
    it does not fit, or the schema's top level holds a keyword not known here."""
    schema = check.schema
    if not isinstance(data, dict) or not _TOP_LEVEL_KEYWORDS.issuperset(schema):
        return False
    if schema.get("type", "object") != "object":
        return False
    properties: dict[str, Any] = schema.get("properties", {})
    if schema.get("additionalProperties", True) is not True and not set(data) <= set(properties):
        return False
    if not set(schema.get("required", ())) <= set(data):
        return False
    values = [(properties[key], data[key]) for key in changed if key in data and key in properties]
    if not all(check.validator.evolve(schema=part).is_valid(value) for part, value in values):
        return False
    conditional = {keyword: schema[keyword] for keyword in ("if", "then") if keyword in schema}
    return bool(check.validator.evolve(schema=conditional).is_valid(data))


@cache
def _validator(schema_name: str) -> SchemaCheck:
    """The check of the named schema, its references resolved once (:func:`inlined`)."""
    return SchemaCheck(inlined(load_schema(schema_name)))


def _schema_problem(error: jsonschema.ValidationError) -> tuple[DataPath, str]:
    """A located, editor-friendly sentence for a schema violation."""
    where: DataPath = tuple(error.absolute_path)
    explain = _EXPLAIN_VIOLATION.get(str(error.validator))
    told = explain(error, where) if explain is not None else None
    return told if told is not None else (where, f"{_describe_place(where)}: {error.message}")


_Told = tuple[DataPath, str] | None


def _unknown_key(error: jsonschema.ValidationError, where: DataPath) -> _Told:
    if not isinstance(error.instance, dict) or not isinstance(error.schema, dict):
        return None
    allowed = sorted(error.schema.get("properties", {}))
    key = sorted(key for key in error.instance if key not in allowed)[0]
    close = difflib.get_close_matches(key, allowed, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return (*where, key), f"unknown key {key!r}{hint} (allowed here: {', '.join(allowed)})"


def _missing_key(error: jsonschema.ValidationError, where: DataPath) -> _Told:
    if not isinstance(error.instance, dict):
        return None
    required: list[str] = list(error.validator_value)  # type: ignore[arg-type]  # a list here
    missing = [key for key in required if key not in error.instance]
    place = f" in {_describe_place(where)}" if where else ""
    return where, f"missing key {missing[0]!r}{place}"


def _not_a_choice(error: jsonschema.ValidationError, where: DataPath) -> _Told:
    allowed: list[Any] = list(error.validator_value)  # type: ignore[arg-type]  # a list here
    choices = ", ".join(repr(choice) for choice in allowed)
    place = _describe_place(where)
    return where, f"{_shown(error.instance)} is not allowed for {place}; use one of {choices}"


_TYPE_WORDS = {
    "array": "a list",
    "object": "a mapping of keys",
    "string": "text",
    "integer": "a whole number",
    "boolean": "true or false",
}


def _wrong_type(error: jsonschema.ValidationError, where: DataPath) -> _Told:
    wanted = _TYPE_WORDS.get(str(error.validator_value), str(error.validator_value))
    hint = ""
    if "moves" in where and isinstance(error.instance, int):
        hint = '; a move with a comma needs quotes, as in "claim 3, 5"'
    return where, f"{_describe_place(where)} must be {wanted}, not {_shown(error.instance)}{hint}"


def _too_long(error: jsonschema.ValidationError, where: DataPath) -> _Told:
    if not isinstance(error.instance, str):
        return None
    return where, (
        f"{_describe_place(where)} is {len(error.instance)} characters long; keep it within"
        f" {error.validator_value}"
    )


def _too_many(error: jsonschema.ValidationError, where: DataPath) -> _Told:
    if not isinstance(error.instance, list):
        return None
    return (
        where,
        f"{_describe_place(where)} lists {len(error.instance)}; at most {error.validator_value}",
    )


def _out_of_range(error: jsonschema.ValidationError, where: DataPath) -> _Told:
    if "stone" not in map(str, where):
        return None
    return where, f"no stone {error.instance!r}: stones are numbered 1 to 9"


def _no_match(error: jsonschema.ValidationError, where: DataPath) -> _Told:
    instance = error.instance
    if isinstance(instance, str) and _is_card_list(where):
        try:
            parse_card(instance)
        except CardError as card_error:
            return where, str(card_error)
        lowercase = " ".join(instance.lower().split())
        return where, f"{instance!r}: write Tactic cards in lowercase, as in {lowercase!r}"
    schema: dict[str, Any] = error.schema if isinstance(error.schema, dict) else {}
    description = schema.get("description")
    return where, f"{_shown(instance)} is not a valid {_describe_place(where)}" + (
        f": {description}" if description else ""
    )


_EXPLAIN_VIOLATION: dict[str, Callable[[jsonschema.ValidationError, DataPath], _Told]] = {
    "additionalProperties": _unknown_key,
    "required": _missing_key,
    "enum": _not_a_choice,
    "type": _wrong_type,
    "maxLength": _too_long,
    "maxItems": _too_many,
    "minimum": _out_of_range,
    "maximum": _out_of_range,
    "pattern": _no_match,
}
"""Each kind of schema violation in an editor's words (None: JSON Schema's own words)."""


def _shown(value: Any) -> str:
    """A value as the editor wrote it; YAML reads yes/no/on/off as true or false."""
    if isinstance(value, bool):
        return f"{str(value).lower()} (YAML reads yes, no, on and off as true or false)"
    shown = repr(value)
    return shown if len(shown) <= 60 else f"{shown[:50]}... ({len(shown)} characters)"


def _is_card_list(where: DataPath) -> bool:
    return len(where) >= 2 and isinstance(where[-1], int) and where[-2] in CARD_LISTS


def _describe_place(where: DataPath) -> str:
    names = [str(part) for part in where if isinstance(part, str)]
    return f"'{names[-1]}'" if names else "the file"


def validate(document: LocatedDocument, schema: str | SchemaCheck) -> None:
    """Check ``document`` against a JSON Schema (named, or its check); raise every
    violation, located: the most telling one of each part of the file (each top-level key, each
    stone, each claim...), so that an editor fixes them all in one go."""
    problems = schema_problems(document, schema, group=2)
    if problems:
        raise CaseError.of_all(list(problems.values()))


def schema_problems(
    document: LocatedDocument, schema: str | SchemaCheck, *, group: int
) -> dict[DataPath, CaseError]:
    """The most telling violation of a JSON Schema (named, or its check) in ``document`` for
    each value at depth ``group`` (0: the whole file; 2: each rule of the rules index), by that
    value's place."""
    check = _validator(schema) if isinstance(schema, str) else schema
    # An unknown key comes first: it is usually a typo, which also explains a "missing" key.
    ranked = sorted(
        check.errors(document.data),
        key=lambda error: (
            error.validator != "additionalProperties",
            document.line_of(tuple(error.absolute_path)),
            -len(error.absolute_path),
        ),
    )
    chosen: dict[DataPath, CaseError] = {}
    for error in ranked:
        place = tuple(error.absolute_path)[:group]
        if place not in chosen:
            where, problem = _schema_problem(error)
            chosen[place] = CaseError(document.path, document.line_of(where), problem)
    return chosen
