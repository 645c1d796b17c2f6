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

import datetime
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jsonschema

from oracle.casefile.jsontext import JSONProblem, parse_json, strings
from oracle.casefile.source import DataPath, SourceError, read_text, shown_path, text_problem
from oracle.casefile.validation import inlined
from oracle.conformance.reports import JSON_FORMAT
from oracle.conformance.runner import CaseResult
from oracle.protocol.compare import QuestionResult, Result, compare, shown

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
    protocol: int | None = None
    """The protocol version the run spoke, when the report says."""

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


def read_result(
    path: Path, root: Path | None = None, today: datetime.date | None = None
) -> PublishedResult:
    """One file of ``results/``, or :class:`ValueError` in one line naming it (and the line of
    the file, where the problem is a value written on one): the case files' rules for text hold
    for every string, no key is given twice, the ``submitted`` block names a real day not after
    ``today``, and every result follows from the answers beside it."""
    shown = shown_path(path, root)
    try:
        text = read_text(path, max_bytes=MAX_RESULT_BYTES, what="a conformance report")
    except SourceError as error:
        raise ValueError(error.located_from(root)) from None
    try:
        located = parse_json(text)
    except JSONProblem as problem:
        raise ValueError(f"{shown}:{problem.line}: {problem.problem}") from None
    document = located.data

    def refuse(where: DataPath, problem: str) -> ValueError:
        line = located.line_of(where)
        place = "/".join(str(part) for part in where) or "the report"
        return ValueError(
            f"{shown}:{line}: {place}: {problem}" if line else f"{shown}: {place}: {problem}"
        )

    if not isinstance(document, dict) or document.get("format") != JSON_FORMAT:
        raise ValueError(f"{shown}: not a report of schotten-oracle conform --json")
    wrong = _report_problem(document, today or datetime.date.today())
    if wrong is not None:
        raise refuse(*wrong)
    submitted = document["submitted"]
    results = tuple(
        CaseResult(
            case["id"],
            case["topic"],
            Result(case["result"]),
            tuple(
                QuestionResult(q["name"], Result(q["result"]), q.get("expected"), q.get("actual"))
                for q in case.get("questions") or ()
            ),
            case.get("problem"),
        )
        for case in document["cases"]
    )
    return PublishedResult(
        path,
        submitted["name"],
        submitted["version"],
        submitted["link"],
        submitted["date"],
        document["catalogue"],
        results,
        document.get("protocol"),
    )


def _report_problem(document: dict[str, Any], today: datetime.date) -> tuple[DataPath, str] | None:
    """The first thing wrong with a report, where it is and what, or None: text that is not
    text, the schema, the submission, a result that does not follow from its answers."""
    for where, value in strings(document):
        not_text = text_problem(value)
        if not_text is not None:
            return where, not_text
    wrong = jsonschema.exceptions.best_match(_validator().iter_errors(document))
    if wrong is not None:
        return (
            tuple(wrong.absolute_path),
            f"{wrong.message[:160]} (a published result is a report of conform --json with"
            " --engine-name, --engine-version and --engine-link)",
        )
    wrong_fact = _submission_facts(document["submitted"], today)
    if wrong_fact is not None:
        return ("submitted", wrong_fact[0]), wrong_fact[1]
    first_given: dict[str, int] = {}
    for index, case in enumerate(document["cases"]):
        if case["id"] in first_given:
            return (
                ("cases", index, "id"),
                f"case {case['id']!r} is given twice (as cases/{first_given[case['id']]} too);"
                " a report gives each case once",
            )
        first_given[case["id"]] = index
        unfollowed = _unfollowed(case)
        if unfollowed is not None:
            return ("cases", index, *unfollowed[0]), unfollowed[1]
    counted = _counted(document["cases"])
    if document["summary"] != counted:
        return (
            ("summary",),
            f"says {json.dumps(document['summary'])}, but its cases count {json.dumps(counted)}",
        )
    return None


def _submission_facts(submitted: dict[str, str], today: datetime.date) -> tuple[str, str] | None:
    """What is wrong with a ``submitted`` block the schema allows, as (field, why), or None:
    a name, version or link on more than one line, or a date that is no real day or is later
    than ``today``."""
    for field in ("name", "version", "link"):
        if any(character in submitted[field] for character in "\n\t"):
            return field, "holds a line break or a tab; it is shown on one line"
    no_page = _link_problem(submitted["link"])
    if no_page is not None:
        return "link", no_page
    try:
        day = datetime.date.fromisoformat(submitted["date"])
    except ValueError:
        return "date", f"{submitted['date']!r} is not a day of the calendar"
    if day > today:
        return "date", f"{day.isoformat()} is after today ({today.isoformat()}): a run has a past"
    return None


def _link_problem(link: str) -> str | None:
    """Why ``link`` (which the schema let through) is no address of a page the conformance page
    can link to, or None: it must name a host, as the site's links out do."""
    try:
        parts = urlsplit(link)
    except ValueError as error:  # an unclosed [ of an IPv6 host, say
        return f"{link[:80]!r} is not an address: {error}"
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return f"{link[:80]!r} names no host; give the address of the engine's page"
    return None


def _unfollowed(case: dict[str, Any]) -> tuple[DataPath, str] | None:
    """Where a case's results do not follow from its answers, and why, or None: a question
    passes exactly when the engine's answer is the catalogue's, and a case passes when every
    question does (it is unsupported when one is and none failed), as the runner judges."""
    questions = case.get("questions") or []
    for index, question in enumerate(questions):
        judged = _judged_again(question)
        if judged != question["result"]:
            return (
                ("questions", index, "result"),
                f"says {question['result']!r}, but its answers make it {judged!r}:"
                f" expected {shown(question.get('expected'))},"
                f" the engine's {shown(question.get('actual'))}",
            )
    results = {question["result"] for question in questions}
    if case.get("problem") is not None or "fail" in results:
        judged = "fail"
    elif "unsupported" in results:
        judged = "unsupported"
    else:
        judged = "pass"
    if case["result"] != judged:
        return ("result",), f"says {case['result']!r}, but its questions make it {judged!r}"
    return None


def _judged_again(question: dict[str, Any]) -> str:
    """A question's result from its two answers, as :func:`oracle.protocol.compare` judges."""
    if question["result"] == "unsupported" and question.get("actual") is None:
        return "unsupported"
    if question.get("note") is not None:
        return "fail"  # no answer, or an answer to a question not asked: nothing to compare
    return "pass" if question.get("expected") == question.get("actual") else "fail"


def _counted(cases: list[dict[str, Any]]) -> dict[str, int]:
    counts = {
        result.value: sum(case["result"] == result.value for case in cases) for result in Result
    }
    return {"cases": len(cases), **counts}


def submitted_name(path: Path) -> str | None:
    """The engine's name in the ``submitted`` block of the report at ``path``, or None (no such
    file, no block, not a report): whose published run a new report would replace."""
    try:
        document = parse_json(read_text(path, max_bytes=MAX_RESULT_BYTES)).data
    except (SourceError, ValueError):
        return None
    submitted = document.get("submitted") if isinstance(document, dict) else None
    name = submitted.get("name") if isinstance(submitted, dict) else None
    return name if isinstance(name, str) else None


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
        if path.is_symlink():  # as wherever a file is read, and whatever it points to
            problems.append(
                f"{shown_path(path, root)}: a symbolic link: links are never followed;"
                " give the file itself"
            )
            continue
        if path.suffix != ".json" or not path.is_file():
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
    ``results/`` that is not one, or, made against the catalogue of ``version`` (the export
    ``records``), names a case it does not hold or pins other answers than it does: what
    ``check`` and the build both report. A refused report is not published."""
    loaded, problems = load_results(root)
    if not loaded:  # nothing to hold to the records: not read back (a build keeps them packed)
        return [], problems
    by_id = {record["id"]: record for record in records}
    published: list[PublishedResult] = []
    for found in loaded:
        wrong = _not_of_catalogue(found, by_id, version) if found.is_current(version) else None
        if wrong is None:
            published.append(found)
        else:
            problems.append(_located(found.path, root, *wrong))
    return published, problems


def _located(path: Path, root: Path, where: DataPath, problem: str) -> str:
    """``problem`` with ``path`` as shown, the line ``where`` starts on and ``where`` itself,
    as :func:`read_result` names a problem (the file, read again only for a message)."""
    place = "/".join(str(part) for part in where)
    try:
        line = parse_json(path.read_text("utf-8")).line_of(where)
    except (OSError, ValueError):  # changed since it was read: the file and place still say
        line = None
    shown = shown_path(path, root)
    return f"{shown}:{line}: {place}: {problem}" if line else f"{shown}: {place}: {problem}"


def _not_of_catalogue(
    found: PublishedResult, records: dict[str, dict[str, Any]], version: str
) -> tuple[DataPath, str] | None:
    """Where and why a report made against the catalogue of ``version`` does not match it, or
    None: a case it does not hold, a question it does not ask, an expected answer it does not
    give."""
    for index, result in enumerate(found.results):
        record = records.get(result.case_id)
        if record is None or record["topic"] != result.topic:
            return ("cases", index, "id"), (
                f"case {result.case_id!r} of topic {result.topic!r} is not in the catalogue of"
                f" version {version}"
            )
        if result.problem is not None:
            continue
        asked = {q.name: q.expected for q in compare(record["answers"], {})}
        for number, question in enumerate(result.questions):
            if question.name not in asked:
                if question.result is Result.FAIL and question.expected is None:
                    continue  # an answer to a question not asked, or a misspelt unsupported
                return ("cases", index, "questions", number, "name"), (
                    f"case {result.case_id!r}: the catalogue asks no question {question.name!r}"
                )
            if question.expected != asked[question.name]:
                return ("cases", index, "questions", number, "expected"), (
                    f"case {result.case_id!r}, {question.name}: the report's expected answer"
                    f" {shown(question.expected)} is not the catalogue's"
                    f" {shown(asked[question.name])}"
                )
        missing = sorted(set(asked) - {question.name for question in result.questions})
        if missing:
            return ("cases", index), (
                f"case {result.case_id!r}: the report leaves out {', '.join(missing[:3])}"
            )
    return None
