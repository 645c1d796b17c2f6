"""Case files and the rules index against their JSON Schemas: keys, types and choices, each
violation told in an editor's words at its line."""

from __future__ import annotations

import difflib
import json
from functools import cache
from importlib import resources
from typing import Any

import jsonschema

from engine import (
    CardError,
    card_name,
    parse_card,
)
from oracle.casefile.errors import CaseError
from oracle.casefile.source import DataPath, LocatedDocument
from oracle.casefile.vocabulary import CARD_LISTS


@cache
def load_schema(name: str) -> dict[str, Any]:
    """One of the package's JSON Schemas: ``case`` or ``rules``."""
    text = resources.files("oracle").joinpath(f"schema/{name}.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def _inlined(node: Any, definitions: dict[str, Any], seen: tuple[str, ...] = ()) -> Any:
    """``node`` with each ``$ref`` to a definition replaced by the definition itself (which in
    draft 7 overrides the keys beside it), except where a definition refers to itself."""
    if isinstance(node, list):
        return [_inlined(item, definitions, seen) for item in node]
    if not isinstance(node, dict):
        return node
    reference = node.get("$ref")
    if isinstance(reference, str) and reference.startswith("#/definitions/"):
        name = reference.removeprefix("#/definitions/")
        if name in definitions and name not in seen:
            return _inlined(definitions[name], definitions, (*seen, name))
    return {key: _inlined(value, definitions, seen) for key, value in node.items()}


@cache
def _validator(schema_name: str) -> jsonschema.Draft7Validator:
    """A validator of the named schema, its references resolved once: validating a case then
    never looks a reference up, which made reading a catalogue twice as slow."""
    schema = load_schema(schema_name)
    return jsonschema.Draft7Validator(_inlined(schema, schema.get("definitions", {})))


def _schema_problem(error: jsonschema.ValidationError) -> tuple[DataPath, str]:
    """A located, editor-friendly sentence for a schema violation."""
    where: DataPath = tuple(error.absolute_path)
    instance = error.instance
    schema: dict[str, Any] = error.schema if isinstance(error.schema, dict) else {}
    expected_value: Any = error.validator_value
    if error.validator == "additionalProperties" and isinstance(instance, dict):
        allowed = sorted(schema.get("properties", {}))
        unknown = sorted(key for key in instance if key not in allowed)
        key = unknown[0]
        close = difflib.get_close_matches(key, allowed, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        return (*where, key), f"unknown key {key!r}{hint} (allowed here: {', '.join(allowed)})"
    if error.validator == "required" and isinstance(instance, dict):
        missing = [key for key in expected_value if key not in instance]
        place = f" in {_describe_place(where)}" if where else ""
        return where, f"missing key {missing[0]!r}{place}"
    if error.validator == "enum":
        choices = ", ".join(repr(choice) for choice in expected_value)
        shown = _shown(instance)
        return (
            where,
            f"{shown} is not allowed for {_describe_place(where)}; use one of {choices}",
        )
    if error.validator == "type":
        expected = {
            "array": "a list",
            "object": "a mapping of keys",
            "string": "text",
            "integer": "a whole number",
            "boolean": "true or false",
        }
        wanted = expected.get(str(expected_value), str(expected_value))
        hint = ""
        if "moves" in where and isinstance(instance, int):
            hint = '; a move with a comma needs quotes, as in "claim 3, 5"'
        return where, f"{_describe_place(where)} must be {wanted}, not {_shown(instance)}{hint}"
    if error.validator == "maxLength" and isinstance(instance, str):
        return where, (
            f"{_describe_place(where)} is {len(instance)} characters long; keep it within"
            f" {expected_value}"
        )
    if error.validator == "maxItems" and isinstance(instance, list):
        return where, f"{_describe_place(where)} lists {len(instance)}; at most {expected_value}"
    if error.validator in ("minimum", "maximum") and "stone" in map(str, where):
        return where, f"no stone {instance!r}: stones are numbered 1 to 9"
    if error.validator == "pattern" and isinstance(instance, str) and _is_card_list(where):
        try:
            card = parse_card(instance)
        except CardError as card_error:
            return where, str(card_error)
        return where, f"{instance!r}: write Tactic cards in lowercase, as in {card_name(card)!r}"
    if error.validator == "pattern" and schema.get("$ref") is None:
        description = schema.get("description")
        return where, f"{_shown(instance)} is not a valid {_describe_place(where)}" + (
            f": {description}" if description else ""
        )
    return where, f"{_describe_place(where)}: {error.message}"


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


def validate(document: LocatedDocument, schema_name: str) -> None:
    """Check ``document`` against a JSON Schema; raise the most telling violation, located."""
    problems = schema_problems(document, schema_name, group=0)
    if problems:
        raise problems[()]


def schema_problems(
    document: LocatedDocument, schema_name: str, *, group: int
) -> dict[DataPath, CaseError]:
    """The most telling violation of a JSON Schema in ``document`` for each value at depth
    ``group`` (0: the whole file; 2: each rule of the rules index), by that value's place."""
    validator = _validator(schema_name)
    # An unknown key comes first: it is usually a typo, which also explains a "missing" key.
    ranked = sorted(
        validator.iter_errors(document.data),
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
