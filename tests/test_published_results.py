"""A published result (``results/*.json``) meets the bar a case file meets: every string is text
for readers, no key is given twice, the submission names a real day, and every result follows from
the answers beside it and from the catalogue it was run against. Each slip is one located line from
``check`` and the build alike (they share :func:`oracle.conformance.results.published_results`),
never a traceback and never a page. The fixture catalogue is ``tests/look/`` with its report."""

from __future__ import annotations

import copy
import datetime
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import OUR_ADAPTER, kept_for_the_run, run_main
from test_hostile_text import free_text_fields

from oracle.casefile.jsontext import strings
from oracle.casefile.validation import load_schema
from oracle.catalogue import build_catalogue
from oracle.conformance.export import catalogue_version, published_records
from oracle.conformance.results import load_results, published_results, read_result
from oracle.site.markup import external_link

LOOK = Path(__file__).resolve().parent / "look"
REPORT = "example-claims-adapter.json"
TODAY = datetime.date(2026, 12, 5)


@pytest.fixture(scope="module")
def records() -> tuple[dict[str, Any], ...]:
    catalogue = build_catalogue(LOOK, kept=kept_for_the_run())
    return tuple(published_records(catalogue.published, catalogue.matrix))


@pytest.fixture
def report() -> dict[str, Any]:
    document: dict[str, Any] = json.loads((LOOK / "results" / REPORT).read_text("utf-8"))
    return document


def _published(
    tmp_path: Path, records: tuple[dict[str, Any], ...], text: str
) -> tuple[list[str], list[str]]:
    """The names published and the problems found with one report written as ``text``."""
    (tmp_path / "results").mkdir(exist_ok=True)
    (tmp_path / "results" / REPORT).write_text(text, encoding="utf-8")
    published, problems = published_results(tmp_path, list(records), catalogue_version(records))
    return [found.name for found in published], problems


def _refused(tmp_path: Path, records: tuple[dict[str, Any], ...], text: str) -> str:
    names, problems = _published(tmp_path, records, text)
    assert names == [] and len(problems) == 1, problems
    assert problems[0].startswith(f"results/{REPORT}"), problems[0]
    assert "\n" not in problems[0]
    return problems[0]


def test_the_fixture_report_is_published_as_it_is(
    tmp_path: Path, records: tuple[dict[str, Any], ...], report: dict[str, Any]
) -> None:
    names, problems = _published(tmp_path, records, json.dumps(report, indent=1))
    assert problems == [] and names == ["Example claims adapter"]


BAD_TEXT = {
    "ESC": "\x1b[31mred",
    "NUL": "a\x00b",
    "lone surrogate": "a\ud800b",
    "bidi control": "abc\u202edef",
    "zero-width only": "\u200b\u200b",
    "zero-width inside": "eng\u200bine",
    "tag characters": "ok\U000e0041\U000e0042",
    "private use": "x\ue000",
}
"""Text no string of a published report may hold, each as it once passed."""


def _string_places(report: dict[str, Any]) -> list[tuple[str | int, ...]]:
    """Where the report holds a string: one of each kind of place (the first case's, the first
    question's...), so the test covers every field without writing the same one 100 times."""
    seen: dict[tuple[str | int, ...], tuple[str | int, ...]] = {}
    for where, _ in strings(report):
        shape = tuple("#" if isinstance(step, int) else step for step in where)
        seen.setdefault(shape, where)
    return list(seen.values())


def test_every_string_of_a_report_is_held_to_the_case_files_rules_for_text(
    tmp_path: Path, records: tuple[dict[str, Any], ...], report: dict[str, Any]
) -> None:
    places = [where for where in _string_places(report) if where != ("format",)]
    assert {("submitted", "name"), ("submitted", "link"), ("engine",)} <= set(places)
    # Every field of free text the schema of a published result has is among them (a field
    # added to the schema is covered without a change here).
    schema_fields = {where for where, _ in free_text_fields(load_schema("published-result"))}
    assert schema_fields and schema_fields <= set(places)
    assert any(place[-1] == "expected" for place in places)
    for where in places:
        for trick, bad in BAD_TEXT.items():
            hostile = copy.deepcopy(report)
            parent: Any = hostile
            for step in where[:-1]:
                parent = parent[step]
            parent[where[-1]] = bad
            problem = _refused(tmp_path, records, json.dumps(hostile, indent=1))
            assert f": {'/'.join(map(str, where))}: " in problem, (trick, problem)
            assert problem.split(":")[1].isdigit(), (trick, problem)  # the line is named


def test_a_key_given_twice_is_refused_at_its_line(
    tmp_path: Path, records: tuple[dict[str, Any], ...], report: dict[str, Any]
) -> None:
    text = json.dumps(report, indent=1)
    other = '"submitted": {"name": "Someone else", "version": "9", "link": "https://x.org",'
    twice = text.replace('"submitted": {', other + ' "date": "2026-12-01"},\n "submitted": {', 1)
    problem = _refused(tmp_path, records, twice)
    line = twice[: twice.index('"submitted"', twice.index("Someone else"))].count("\n") + 1
    assert problem.startswith(f'results/{REPORT}:{line}: the key "submitted" is given twice')


@pytest.mark.parametrize(
    ("field", "value", "why"),
    [
        ("link", "https://example.org/x\n", "does not match"),
        ("name", "Two\nlines", "line break"),
        ("link", "https://example.org/\u200bx", "U\\+200B"),
        ("link", "https:///no-host", "names no host"),
        ("link", "https://[x/", "is not an address"),
        ("date", "0000-00-00", "not a day of the calendar"),
        ("date", "2026-02-30", "not a day of the calendar"),
        ("date", "2099-01-01", "after today"),
        ("date", "2026-12-05\n", "does not match"),
    ],
)
def test_the_submission_is_one_line_each_and_a_real_past_day(
    tmp_path: Path, report: dict[str, Any], field: str, value: str, why: str
) -> None:
    report["submitted"][field] = value
    path = tmp_path / REPORT
    path.write_text(json.dumps(report, indent=1), encoding="utf-8")
    with pytest.raises(ValueError, match=why) as refused:
        read_result(path, tmp_path, today=TODAY)
    assert str(refused.value).startswith(f"{REPORT}:") and f"submitted/{field}" in str(
        refused.value
    )


ODD_LINKS = (
    "https://example.org/x",
    "HTTPS://EXAMPLE.ORG",
    "https:///no-host",
    "https://[x/",
    "http://?q",
    "https://:80/",
    "https://user@/x",
    'https://example.org/"><img/src=x/onerror=pwn(1)>',
    "https://example.org/caf\u00e9",
)


@pytest.mark.parametrize("link", ODD_LINKS)
def test_a_link_check_accepts_is_one_the_build_can_link_to(
    tmp_path: Path, report: dict[str, Any], link: str
) -> None:
    """A file ``check`` accepts must build: a link the schema lets through but the conformance
    page cannot link to (no host, not an address) is refused by ``check`` at its line, never an
    ``UnsafeLink`` traceback in the build."""
    report["submitted"]["link"] = link
    path = tmp_path / REPORT
    path.write_text(json.dumps(report, indent=1), encoding="utf-8")
    try:
        found = read_result(path, tmp_path, today=TODAY)
    except ValueError as refused:
        assert str(refused).startswith(f"{REPORT}:") and "submitted/link" in str(refused)
        assert "\n" not in str(refused)
        return
    assert external_link(found.name, found.link).startswith("<a href=")


def test_a_result_must_follow_from_its_answers(
    tmp_path: Path, records: tuple[dict[str, Any], ...], report: dict[str, Any]
) -> None:
    """A hand-edited result is not published: a pass whose answers differ, a case result its
    questions do not give, a summary its cases do not count."""
    flipped = copy.deepcopy(report)
    question = flipped["cases"][0]["questions"][0]
    question["actual"] = "granted" if question["expected"] == "refused" else "refused"
    problem = _refused(tmp_path, records, json.dumps(flipped, indent=1))
    assert "cases/0/questions/0/result: says 'pass', but its answers make it 'fail'" in problem

    case_flipped = copy.deepcopy(report)
    unsupported = next(i for i, c in enumerate(report["cases"]) if c["result"] == "unsupported")
    case_flipped["cases"][unsupported]["result"] = "pass"
    problem = _refused(tmp_path, records, json.dumps(case_flipped, indent=1))
    assert f"cases/{unsupported}/result: says 'pass', but its questions make it" in problem

    counted = copy.deepcopy(report)
    counted["summary"]["pass"] += 8
    counted["summary"]["unsupported"] -= 8
    assert "summary: says" in _refused(tmp_path, records, json.dumps(counted, indent=1))


def _questions_an_object(report: dict[str, Any]) -> None:
    report["cases"][0]["questions"] = {"claims.5": "pass"}


def _a_question_without_result(report: dict[str, Any]) -> None:
    del report["cases"][0]["questions"][0]["result"]


def _a_case_given_twice(report: dict[str, Any]) -> None:
    report["cases"].append(copy.deepcopy(report["cases"][0]))
    report["summary"]["cases"] += 1
    report["summary"][report["cases"][0]["result"]] += 1


def _a_problem_that_is_a_number(report: dict[str, Any]) -> None:
    report["cases"][0]["problem"] = 5


def _a_case_not_in_the_catalogue(report: dict[str, Any]) -> None:
    report["cases"][0]["id"] = "no-such-case"


@pytest.mark.parametrize(
    ("edit", "place", "why"),
    [
        (_questions_an_object, "cases/0/questions", "is not of type 'array'"),
        (_a_question_without_result, "cases/0/questions/0", "'result' is a required property"),
        (_a_case_given_twice, "cases/20/id", "is given twice (as cases/0 too)"),
        (_a_problem_that_is_a_number, "cases/0/problem", "is not of type 'string', 'null'"),
        (_a_case_not_in_the_catalogue, "cases/0/id", "is not in the catalogue of version"),
    ],
)
def test_a_report_of_the_wrong_shape_is_one_located_line_never_a_traceback(
    tmp_path: Path,
    records: tuple[dict[str, Any], ...],
    report: dict[str, Any],
    edit: Any,
    place: str,
    why: str,
) -> None:
    """Each raised a TypeError or a KeyError in check and the build, or was published with a
    case counted twice, or was named without a line."""
    edit(report)
    problem = _refused(tmp_path, records, json.dumps(report, indent=1))
    assert problem.split(":")[1].isdigit(), problem  # the line is named
    assert f": {place}: " in problem and why in problem, problem


def test_a_current_report_pins_the_catalogues_own_answers(
    tmp_path: Path, records: tuple[dict[str, Any], ...], report: dict[str, Any]
) -> None:
    """Both answers of a question changed alike still pass by themselves; against the catalogue
    the report was run on, the expected answer is not the catalogue's, and it is refused."""
    edited = copy.deepcopy(report)
    question = edited["cases"][0]["questions"][0]
    other = "granted" if question["expected"] == "refused" else "refused"
    question["expected"] = question["actual"] = other
    problem = _refused(tmp_path, records, json.dumps(edited, indent=1))
    assert "is not the catalogue's" in problem and edited["cases"][0]["id"] in problem
    left_out = copy.deepcopy(report)
    case = next(c for c in left_out["cases"] if len(c["questions"]) > 1)
    case["questions"].pop()
    assert "leaves out" in _refused(tmp_path, records, json.dumps(left_out, indent=1))


def test_the_schema_of_a_published_result_ends_a_link_at_its_end() -> None:
    """JSON Schema's ``$`` lets a final line break through in Python's regular expressions: the
    link's pattern ends where the text ends."""
    link = load_schema("published-result")["properties"]["submitted"]["properties"]["link"]
    assert link["pattern"].endswith("(?![\\s\\S])")


@pytest.mark.usefixtures("adapter_in_process")
def test_conform_replaces_only_the_same_engines_published_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A published run is replaced by a run of the same engine; another engine's report asks
    for ``--force`` (and is left as it was)."""
    project = tmp_path / "project"
    for name in ("cases", "rules", "results"):
        shutil.copytree(LOOK / name, project / name)
    monkeypatch.chdir(project)
    published = Path("results") / REPORT
    before = published.read_text("utf-8")
    adapter = OUR_ADAPTER

    def conform(name: str, *force: str) -> int:
        who = ["--engine-name", name, "--engine-version", "3", "--engine-link", "https://x.org"]
        arguments = ["conform", "-q", "-k", "incomplete-side", "--json", str(published)]
        return run_main([*arguments, *who, *force, "--", *adapter])

    assert conform("Another engine") == 2
    assert "holds the published run of 'Example claims adapter'" in capsys.readouterr().err
    assert published.read_text("utf-8") == before
    assert conform("Example claims adapter") == 0
    document = json.loads(published.read_text("utf-8"))
    assert document["submitted"]["version"] == "3"
    # The report names the engine as its author chose, not by the command that ran it here.
    assert document["engine"] == "Example claims adapter"
    assert sys.executable not in published.read_text("utf-8")
    assert conform("Another engine", "--force") == 0
    assert json.loads(published.read_text("utf-8"))["submitted"]["name"] == "Another engine"


def test_a_published_result_stays_current_through_a_change_of_prose(
    records: tuple[dict[str, Any], ...],
) -> None:
    """The catalogue's version follows what a result depends on: a case's request and expected
    answers, not its situation, why, rules or explanations."""
    before = catalogue_version(records)
    reworded = [dict(record, why=record["why"] + " (reworded)") for record in records]
    assert catalogue_version(reworded) == before
    explained = [dict(record, detail={}) for record in records]
    assert catalogue_version(explained) == before
    first = dict(records[0], answers={"claims": {"9": "granted"}})
    assert catalogue_version([first, *records[1:]]) != before


@pytest.mark.usefixtures("adapter_in_process")
def test_conform_writes_a_report_to_standard_output_for_dash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--json -`` means standard output, as ``-o -`` does for export and drift: the report
    goes there whole, the run's lines to standard error, and no file named ``-`` appears."""
    project = tmp_path / "project"
    for name in ("cases", "rules"):
        shutil.copytree(LOOK / name, project / name)
    monkeypatch.chdir(project)
    adapter = OUR_ADAPTER
    assert run_main(["conform", "-k", "incomplete-side", "--json", "-", "--", *adapter]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["summary"]["pass"] == 1
    assert "1 pass" in err and not (project / "-").exists()


def test_a_linked_report_is_named_a_link(tmp_path: Path, report: dict[str, Any]) -> None:
    """A symbolic link in ``results/`` is named as one, in the words every command uses, not
    as a file that is no ``.json`` report (which it was called, although its name ends so)."""
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(json.dumps(report, indent=1), encoding="utf-8")
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / REPORT).symlink_to(elsewhere)
    (tmp_path / "results" / "gone.json").symlink_to(tmp_path / "nowhere.json")
    published, problems = load_results(tmp_path)
    assert published == []
    assert problems == [
        f"results/{name}: a symbolic link: links are never followed; give the file itself"
        for name in (REPORT, "gone.json")
    ]
