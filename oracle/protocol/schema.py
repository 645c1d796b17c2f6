"""The protocol's JSON Schema (``oracle/schema/protocol.schema.json``): what a request and an
answer line may hold, checked here for every line the runner writes and every answer it reads.

The schema names the catalogue's own definitions of a case's request and of its answers
(``schotten-totten-catalogue.schema.json``), so a question's shape is written once."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import jsonschema
from jsonschema.exceptions import best_match

from oracle.casefile.validation import inlined
from oracle.protocol.compare import shown

PROTOCOL_SCHEMA = "protocol.schema.json"
"""The protocol's schema, in ``oracle/schema``."""

CATALOGUE_SCHEMA = "export.schema.json"
"""The export's schema, which the protocol's names for a case's request and answers."""

VERSIONS = (1, 2)
"""The protocol versions the runner speaks; the newest is the default."""


def schema_text(name: str) -> str:
    """One of the package's JSON Schemas, as published."""
    return resources.files("oracle").joinpath(f"schema/{name}").read_text("utf-8")


@cache
def _validator(definition: str) -> jsonschema.Draft7Validator:
    """A validator of one definition of the protocol's schema, its references into it and into
    the catalogue's schema resolved once (:func:`oracle.casefile.validation.inlined`)."""
    schemas = [json.loads(schema_text(name)) for name in (PROTOCOL_SCHEMA, CATALOGUE_SCHEMA)]
    return jsonschema.Draft7Validator(
        inlined({"$ref": f"{schemas[0]['$id']}#/definitions/{definition}"}, schemas)
    )


def _problem(definition: str, line: dict[str, Any]) -> str | None:
    error = best_match(_validator(definition).iter_errors(line))
    if error is None:
        return None
    place = ".".join(str(part) for part in error.absolute_path) or "the line"
    schema: dict[str, Any] = error.schema if isinstance(error.schema, dict) else {}
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = sorted(schema.get("properties", {}))
        unknown = sorted(str(key) for key in error.instance if key not in allowed)
        return f"{place}: {shown(unknown[0], 60)} is no key here (the keys: {', '.join(allowed)})"
    if error.validator == "pattern" and "description" in schema:
        return f"{place}: {shown(error.instance, 60)} is not {schema['description']}"
    if error.validator == "oneOf" and error.absolute_path and error.absolute_path[-1] == "turn":
        return f"{place}: {shown(error.instance, 80)} is neither the facts asked nor a refusal"
    message = error.message if len(error.message) <= 200 else f"{error.message[:180]}..."
    return f"{place}: {message}"


def answer_problem(answer: dict[str, Any]) -> str | None:
    """What makes ``answer`` no answer line of the protocol, in one line naming where, or None."""
    return _problem("answer", answer)


def request_problem(request: dict[str, Any]) -> str | None:
    """What makes ``request`` no request line of the protocol, or None (the runner's own lines
    are checked by the tests, never at run time)."""
    return _problem("request", request)
