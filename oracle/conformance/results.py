"""Published results: other engines' runs through the catalogue, kept in the project's
``results/`` folder, as test262's results pages keep theirs.

An engine's author runs ``schotten-oracle conform --json FILE --engine-name NAME
--engine-version V --engine-link URL -- COMMAND``, which writes a JSON report with a
``submitted`` block (the name, version, link and the date of the run), and adds the file to
``results/`` by a pull request. The conformance page then shows the run beside our engine and the
misreadings, if it was made against the catalogue being published; a report of another version of
the catalogue is listed as stale, never mixed in. A file that is not such a report fails the
build and ``check`` with one located line: nothing in the folder is skipped.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from oracle.casefile.source import SourceError, read_text, shown_path
from oracle.casefile.validation import inlined
from oracle.conformance.reports import JSON_FORMAT
from oracle.conformance.runner import CaseResult
from oracle.protocol.compare import Result

RESULTS_DIR = "results"
"""The project's folder of published results, one JSON report a file."""

MAX_RESULT_BYTES = 20 * 1024 * 1024
"""The largest report read: a whole run's report of today's catalogue is about 300 KB."""


@dataclass(frozen=True)
class PublishedResult:
    """One engine's submitted run: who it is, the catalogue it ran, and each case's result."""

    path: Path
    name: str
    version: str
    link: str
    date: str
    catalogue: str
    results: tuple[CaseResult, ...]

    def is_current(self, catalogue: str) -> bool:
        """Whether the run was made against ``catalogue`` (a version), so can be shown."""
        return self.catalogue == catalogue


def submission(name: str, version: str, link: str, date: str) -> dict[str, str]:
    """The ``submitted`` block of a report (checked against the schema by :func:`read_result`)."""
    return {"name": name, "version": version, "link": link, "date": date}


@cache
def _schema() -> dict[str, Any]:
    text = resources.files("oracle").joinpath("schema/published-result.schema.json")
    return inlined(json.loads(text.read_text("utf-8")))


@cache
def _validator(part: str | None = None) -> jsonschema.Draft7Validator:
    """A validator of a published result, or of its property ``part``."""
    schema = _schema()
    return jsonschema.Draft7Validator(schema if part is None else schema["properties"][part])


def submission_problem(block: dict[str, str]) -> str | None:
    """Why a ``submitted`` block cannot be published, or None."""
    wrong = jsonschema.exceptions.best_match(_validator("submitted").iter_errors(block))
    if wrong is None:
        return None
    where = "/".join(str(part) for part in wrong.absolute_path) or "submitted"
    return f"{where}: {wrong.message[:160]}"


def read_result(path: Path, root: Path | None = None) -> PublishedResult:
    """One file of ``results/``, or :class:`ValueError` in one line naming it."""
    shown = shown_path(path, root)
    try:
        text = read_text(path, max_bytes=MAX_RESULT_BYTES, what="a conformance report")
    except SourceError as error:
        raise ValueError(error.located_from(root)) from None
    try:
        document = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise ValueError(f"{shown}: not JSON: {str(error)[:120]}") from None
    if not isinstance(document, dict) or document.get("format") != JSON_FORMAT:
        raise ValueError(f"{shown}: not a report of schotten-oracle conform --json")
    wrong = jsonschema.exceptions.best_match(_validator().iter_errors(document))
    if wrong is not None:
        where = "/".join(str(part) for part in wrong.absolute_path) or "the report"
        raise ValueError(
            f"{shown}: {where}: {wrong.message[:160]} (a published result is a report of"
            " conform --json with --engine-name, --engine-version and --engine-link)"
        )
    submitted = document["submitted"]
    results = tuple(
        CaseResult(case["id"], case["topic"], Result(case["result"])) for case in document["cases"]
    )
    return PublishedResult(
        path,
        submitted["name"],
        submitted["version"],
        submitted["link"],
        submitted["date"],
        document["catalogue"],
        results,
    )


def load_results(root: Path) -> tuple[list[PublishedResult], list[str]]:
    """Every published result of the project at ``root``, in file order, and a located line
    for each file of ``results/`` that is not one (anything but a ``.json`` report included)."""
    folder = root / RESULTS_DIR
    found: list[PublishedResult] = []
    problems: list[str] = []
    if not folder.is_dir():
        return found, problems
    for path in sorted(folder.iterdir()):
        if path.name.startswith(".") or path.name == "README.md":
            continue
        if path.suffix != ".json" or not path.is_file() or path.is_symlink():
            problems.append(
                f"{shown_path(path, root)}: results/ holds only conform --json reports (.json)"
            )
            continue
        try:
            found.append(read_result(path, root))
        except ValueError as error:
            problems.append(str(error))
    return found, problems


def published_results(
    root: Path, records: Sequence[dict[str, Any]], version: str
) -> tuple[list[PublishedResult], list[str]]:
    """The published results of the project at ``root``, and a located line for each file of
    ``results/`` that is not one, or that names a case the catalogue of its own version (the
    export ``records`` of ``version``) does not hold: what ``check`` and the build both report."""
    published, problems = load_results(root)
    known = {record["id"]: record["topic"] for record in records}
    for found in published:
        if found.is_current(version):
            problems += [
                f"{shown_path(found.path, root)}: case {r.case_id!r} of topic {r.topic!r} is not"
                f" in the catalogue of version {version}"
                for r in found.results
                if known.get(r.case_id) != r.topic
            ][:1]
    return published, problems
