"""Our engine behind the conformance protocol, and each misreading behind it too.

Run as ``python -m oracle.conformance.adapter [--misreading NAME]``: it reads one request a line on
standard input and writes one answer a line (see :mod:`oracle.conformance.runner` for the protocol).
A request's ``case`` holds a case file's keys without its expectations, so the adapter reads it with
the very loader the catalogue uses, and answers with the engine; under a misreading it answers as
:mod:`oracle.misreadings.matrix` says a player reading the rules that way would.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from engine.misreadings import MISREADINGS, RULES, Reading
from oracle.casefile.loader import CaseError, load_case
from oracle.casefile.model import Case
from oracle.conformance.export import engine_answers
from oracle.misreadings.matrix import asked_questions, remembered_misread, save_remembered


class RequestError(ValueError):
    """A request this adapter cannot read."""


def case_from_request(case: Any, folder: Path) -> Case:
    """The request's case, read by the loader like any case file (JSON is YAML)."""
    if not isinstance(case, dict):
        raise RequestError("the request's case is not an object")
    document: dict[str, Any] = {
        "id": "conformance-question",
        "situation": "A question sent by the conformance runner",
        "why": "The runner compares the answer with the catalogue's",
        "draft": True,
    }
    for key, value in case.items():
        if key == "turn" and isinstance(value, dict):
            value = {"moves": value.get("moves", [])}
        document[key] = value
    path = folder / "asked" / "conformance-question.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(document), encoding="utf-8")
    try:
        return load_case(path)
    except CaseError as error:
        raise RequestError(error.located) from None


def answer(case: Case, reading: Reading = RULES) -> dict[str, Any]:
    """The answers ``reading`` gives to the case's questions, and what it does not judge."""
    if reading is RULES:
        return {"answers": engine_answers(case)[0]}
    response = remembered_misread(case, reading)
    if response is None:  # the misreading says nothing here
        return {"unsupported": asked_questions(case)}
    return response


def respond(line: str, reading: Reading, folder: Path) -> dict[str, Any]:
    """The answer line to one request line."""
    try:
        request = json.loads(line)
    except json.JSONDecodeError as error:
        return {"id": None, "error": f"the request is not JSON: {error}"}
    if not isinstance(request, dict):
        return {"id": None, "error": "the request is not a JSON object"}
    identifier = request.get("id")
    key = json.dumps(request.get("case"), sort_keys=True)
    try:
        if key not in _read:
            _read[key] = case_from_request(request.get("case"), folder)
        case = _read[key]
    except RequestError as error:
        return {"id": identifier, "error": str(error)}
    return {"id": identifier, **answer(case, reading)}


_read: dict[str, Case] = {}
"""Cases already read, by their request: the build asks every engine about the same cases."""


def main(argv: list[str] | None = None) -> int:
    """Answer requests from standard input until it closes."""
    parser = argparse.ArgumentParser(
        prog="python -m oracle.conformance.adapter",
        description="Answer conformance requests with the engine, or under a misreading.",
    )
    parser.add_argument(
        "--misreading", choices=sorted(MISREADINGS), help="answer as this misreading"
    )
    args = parser.parse_args(argv)
    reading = MISREADINGS[args.misreading] if args.misreading else RULES
    with tempfile.TemporaryDirectory(prefix="oracle-conform-") as folder:
        try:
            for line in sys.stdin:
                if line.strip():
                    print(json.dumps(respond(line, reading, Path(folder))), flush=True)
        finally:
            save_remembered()
    return 0


if __name__ == "__main__":
    sys.exit(main())
