"""Our engine behind the conformance protocol, and each misreading behind it too.

Run as ``python -m oracle.conformance.adapter [--misreading NAME]``: it reads one request a line
on standard input and writes one answer a line (the protocol is :mod:`oracle.protocol`). A
request's ``case`` holds a case file's keys without its expectations, so the adapter reads it with
the very loader the catalogue uses (from its text: JSON is YAML), and answers with the engine;
under a misreading it answers as :mod:`oracle.misreadings` says a player reading the rules that
way would.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from oracle.casefile.errors import CaseError
from oracle.casefile.loader import load_case_text
from oracle.casefile.model import Case
from oracle.casefile.questions import exported_kinds
from oracle.conformance.engines import FunctionEngine
from oracle.judges.misreadings import MISREADINGS, RULES, Reading
from oracle.misreadings.answers import asked_questions
from oracle.misreadings.cache import MisreadingCache
from oracle.protocol.schema import VERSIONS
from oracle.verify.replay import engine_answers

ASKED = Path("asked") / "conformance-question.yaml"
"""Where a request's case is said to come from, in messages (it is never written)."""


class RequestError(ValueError):
    """A request this adapter cannot read."""


def case_from_request(case: Any) -> Case:
    """The request's case, read by the loader like any case file (JSON is YAML)."""
    if not isinstance(case, dict):
        raise RequestError("the request's case is not an object")
    document: dict[str, Any] = {
        "id": "conformance-question",
        "situation": "A question sent by the conformance runner",
        "why": "The runner compares the answer with the catalogue's",
        "draft": True,
    }
    kinds = {kind.key: kind for kind in exported_kinds()}
    for key, value in case.items():
        document[key] = kinds[key].from_request(value) if key in kinds else value
    try:
        return load_case_text(json.dumps(document), ASKED)
    except CaseError as error:
        raise RequestError(error.located) from None


def request_key(case: Any) -> str:
    """A request's case as an adapter knows it again: its JSON, keys sorted."""
    return json.dumps(case, sort_keys=True)


def exported_cases(records: Iterable[dict[str, Any]], cases: Iterable[Case]) -> dict[str, Case]:
    """Each record's request keyed to the loaded case it was exported from, for an adapter that
    answers the export of cases already read (the build's): the loader made them once, so reading
    every request through the schema again would only make the same questions on the same board.
    """
    by_id = {case.id: case for case in cases}
    return {request_key(record["request"]): by_id[record["id"]] for record in records}


class Adapter:
    """One engine behind the protocol: the rules, or a misreading; the cases it has read, by
    their request (a build asks every engine about the same cases), and the misreadings' cache."""

    def __init__(
        self,
        reading: Reading = RULES,
        cache: MisreadingCache | None = None,
        read: dict[str, Case] | None = None,
    ) -> None:
        self.reading = reading
        self.cache = cache or MisreadingCache()
        self.read: dict[str, Case] = {} if read is None else read
        """The cases read so far, by their request's case (adapters may share it)."""

    def answer(self, case: Case) -> dict[str, Any]:
        """The answers the reading gives to the case's questions, and what it does not judge."""
        if self.reading is RULES:
            return {"answers": engine_answers(case)[0]}
        response = self.cache.misread(case, self.reading)
        if response is None:  # the misreading says nothing here
            return {"unsupported": asked_questions(case)}
        return response

    def respond(self, line: str) -> dict[str, Any]:
        """The answer line to one request line."""
        try:
            request = json.loads(line)
        except json.JSONDecodeError as error:
            return {"id": None, "error": f"the request is not JSON: {error}"}
        if not isinstance(request, dict):
            return {"id": None, "error": "the request is not a JSON object"}
        identifier = request.get("id")
        if request.get("protocol") not in VERSIONS:
            spoken = " and ".join(map(str, VERSIONS))
            return {"id": identifier, "error": f"this engine speaks protocol {spoken}"}
        key = request_key(request.get("case"))
        try:
            if key not in self.read:
                self.read[key] = case_from_request(request.get("case"))
        except RequestError as error:
            return {"id": identifier, "error": str(error)}
        return {"protocol": request["protocol"], "id": identifier, **self.answer(self.read[key])}


def adapter_engine(
    reading: str | None = None,
    cache: MisreadingCache | None = None,
    read: dict[str, Case] | None = None,
) -> FunctionEngine:
    """Our adapter in this process: the engine, or the misreading named ``reading``; adapters
    given the same ``read`` read each request's case once between them."""
    adapter = Adapter(RULES if reading is None else MISREADINGS[reading], cache, read)
    return FunctionEngine(
        lambda line: json.dumps(adapter.respond(line)), on_close=adapter.cache.save
    )


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
    adapter = Adapter(MISREADINGS[args.misreading] if args.misreading else RULES)
    try:
        for line in sys.stdin:
            if line.strip():
                print(json.dumps(adapter.respond(line)), flush=True)
    finally:
        adapter.cache.save()
    return 0


if __name__ == "__main__":
    sys.exit(main())
