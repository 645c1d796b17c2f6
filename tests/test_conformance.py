"""The export and the conformance runner: our engine passes, each misreading fails exactly the
cases the misreading matrix says, and a broken engine gets a clear error per case, never a stall."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import time
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import OUR_ADAPTER, run_main

from oracle.casefile.questions import exported_kinds
from oracle.catalogue import Catalogue, CatalogueError
from oracle.conformance.adapter import adapter_engine
from oracle.conformance.engines import CommandEngine, FunctionEngine
from oracle.conformance.export import (
    FORMAT,
    VERSION,
    catalogue_version,
    export_json,
    export_json_pieces,
    export_jsonl,
    export_jsonl_pieces,
    header,
    published_records,
    read_export,
)
from oracle.conformance.reports import junit_xml
from oracle.conformance.runner import GIVE_UP_AFTER, request_line, run, select
from oracle.judges.misreadings import MISREADINGS
from oracle.misreadings.matrix import Outcome, misreading_matrix
from oracle.protocol.compare import Result, compare
from oracle.protocol.schema import PROTOCOL_SCHEMA, VERSIONS, request_problem, schema_text
from oracle.site.engines import EXAMPLE_ADAPTER, conformance, misreading_runs
from oracle.site.plugin import EXPORT_SCHEMA, PROTOCOL_SCHEMA_FILE
from oracle.verify.answers import pinned_answers
from oracle.verify.report import CaseReport

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "oracle/schema/export.schema.json").read_text(encoding="utf-8"))
ADAPTER = OUR_ADAPTER

PROCESS_CONTROL = pytest.mark.slow
"""The runner against engines that misbehave as processes (signals, floods, an engine that never
reads, children left behind): seconds of real time each, and nothing a case edit can change, so
CI runs them with the soaks (``-m slow``) rather than the editor's loop."""


@pytest.fixture(scope="session")
def records(published: tuple[CaseReport, ...]) -> tuple[dict[str, Any], ...]:
    """The export's records of the publishable catalogue, made once a run."""
    return tuple(published_records(published))


def test_the_export_gives_the_answers_each_case_file_pins(
    published: tuple[CaseReport, ...], records: tuple[dict[str, Any], ...]
) -> None:
    """The export's answers are the verified ones: wherever a published case file pins an
    answer (a verdict, a move's legality, a turn's fact, a deal's hands and decks, a match's
    score), the record says the same, so an answer the export works out otherwise (every hand
    of 99 cards, say) cannot pass while verifying passes."""
    by_id = {record["id"]: record["answers"] for record in records}
    wrong = []
    for report in published:
        exported = by_id.get(report.case.id)
        for key, pins in pinned_answers(report.case).items():
            assert exported is not None, report.case.id
            given = exported[key]
            if isinstance(pins, list):
                pins = {str(index): pin for index, pin in enumerate(pins) if pin is not None}
                given = {str(index): answer for index, answer in enumerate(given)}
            wrong += [
                (report.case.id, key, name, pin, given.get(name))
                for name, pin in pins.items()
                if given.get(name) != pin
            ]
    assert not wrong
    asked = {key for answers in by_id.values() for key in answers}
    assert asked == {kind.key for kind in exported_kinds()}  # every kind of question is held to it


def test_the_export_matches_its_schema_in_both_forms(records: tuple[dict[str, Any], ...]) -> None:
    validator = jsonschema.Draft7Validator(SCHEMA)
    document = json.loads(export_json(records, "test"))
    assert not list(validator.iter_errors(document))
    assert document["format"] == FORMAT and document["version"] == VERSION
    lines = export_jsonl(records, "test").splitlines()
    head = json.loads(lines[0])
    assert head == {
        "format": FORMAT,
        "version": VERSION,
        "engine": "test",
        "count": len(records),
        "catalogue": document["catalogue"],
    }
    assert document["catalogue"] == catalogue_version(records)  # the same cases, the same version
    assert catalogue_version(records[1:]) != document["catalogue"]
    case_validator = jsonschema.Draft7Validator({**SCHEMA, "$ref": "#/definitions/case"})
    for line in lines[1:]:
        assert not list(case_validator.iter_errors(json.loads(line)))
    assert read_export("\n".join(lines)) == read_export(export_json(records, "test"))


def test_json_lines_are_read_at_their_line_feeds_only(records: tuple[dict[str, Any], ...]) -> None:
    """Another tool's export may hold a line separator or NEL unescaped inside a string."""
    record = dict(records[0], situation="one\u2028two\x85three\x0cfour")
    lines = export_jsonl([record], "test").splitlines(keepends=False)
    assert len(lines) > 2  # what str.splitlines would make of it
    assert read_export(export_jsonl([record], "test")) == [record]


def test_the_export_in_pieces_is_the_export_json_writes_whole(
    records: tuple[dict[str, Any], ...],
) -> None:
    """The site writes the export a case at a time: its pieces join to the very text of one
    ``json.dumps`` of the whole export, and of one line per case."""
    head = {**header("test", records)}
    whole = json.dumps({**head, "cases": list(records)}, indent=1, ensure_ascii=False) + "\n"
    assert export_json(records, "test") == "".join(export_json_pieces(records, "test")) == whole
    lines = [json.dumps(head, ensure_ascii=False)]
    lines += [json.dumps(record, ensure_ascii=False) for record in records]
    jsonl = "\n".join(lines) + "\n"
    assert export_jsonl(records, "test") == "".join(export_jsonl_pieces(records, "test")) == jsonl
    assert json.loads(export_json((), "test"))["cases"] == []  # no case: the header alone
    assert export_jsonl((), "test").count("\n") == 1


def test_the_export_carries_every_published_case_and_its_misreadings(
    published: tuple[CaseReport, ...], records: tuple[dict[str, Any], ...]
) -> None:
    asked = [report.case.id for report in published if report.case.impossible is None]
    assert [record["id"] for record in records] == asked  # an impossible board asks nothing
    rows = {row.report.case.id: row for row in misreading_matrix(published)}
    for record in records:
        assert record["catches"] == list(rows[record["id"]].caught)
        assert set(record["guards_against"]) <= set(record["catches"])
    kinds = {key for record in records for key in record["answers"]}
    assert kinds == {"claims", "plays", "turn", "deal", "match"}


def test_our_engine_passes_every_case_through_the_protocol_as_a_subprocess(
    records: tuple[dict[str, Any], ...], tmp_path: Path
) -> None:
    results = run(CommandEngine(ADAPTER, timeout=30), records)
    assert all(result.result is Result.PASS for result in results), [
        result.describe() for result in results if result.result is not Result.PASS
    ]
    report = ElementTree.fromstring(junit_xml(results, "reference"))
    questions = sum(len(result.questions) for result in results)
    assert report.get("tests") == str(questions) and report.get("failures") == "0"
    assert len(report.findall("testcase")) == questions > len(records)


def test_junit_has_a_test_case_per_question_and_each_request_names_the_catalogue(
    records: tuple[dict[str, Any], ...],
) -> None:
    """A case answered in part shows in JUnit what passed, what failed and what was left out;
    every request carries the catalogue's version."""
    [record] = [record for record in records if record["id"] == "two-stones-at-once"]
    expected = record["answers"]["claims"]
    first, second = sorted(expected)
    seen: list[object] = []

    def partly(wrong: bool) -> FunctionEngine:
        def answer(line: str) -> str:
            request = json.loads(line)
            seen.append(request.get("catalogue"))
            flipped = "refused" if expected[first] == "granted" else "granted"
            claims = {first: flipped if wrong else expected[first]}
            response = {"id": request["id"], "answers": {"claims": claims}}
            return json.dumps({**response, "unsupported": [f"claims.{second}"]})

        return FunctionEngine(answer)

    for wrong, kinds in ((False, ["pass", "skipped"]), (True, ["failure", "skipped"])):
        results = run(partly(wrong), [record], "sha256:0123456789abcdef")
        report = ElementTree.fromstring(junit_xml(results, "partly"))
        cases = report.findall("testcase")
        assert [(case.get("classname"), case.get("name")) for case in cases] == [
            (f"{record['topic']}.two-stones-at-once", f"claims.{first}"),
            (f"{record['topic']}.two-stones-at-once", f"claims.{second}"),
        ]
        found = [next((child.tag for child in case), "pass") for case in cases]
        assert found == kinds
        assert report.get("tests") == "2" and report.get("skipped") == "1"
        assert report.get("failures") == str(kinds.count("failure"))
    failure = report.find("testcase/failure")
    assert failure is not None and f'expected "{expected[first]}"' in (failure.text or ""), (
        failure.text if failure is not None else None
    )
    assert seen == ["sha256:0123456789abcdef"] * 2


def test_each_misreading_fails_exactly_the_cases_the_matrix_says(
    catalogue: Catalogue,
) -> None:
    result = conformance(catalogue)
    runs = misreading_runs(catalogue, result.records)
    rows = misreading_matrix(catalogue.published)
    assert [engine_run.name for engine_run in runs] == list(MISREADINGS)
    for engine_run in runs:
        failed = {r.case_id for r in engine_run.results if r.result is Result.FAIL}
        flips = {
            row.report.case.id for row in rows if row.outcomes[engine_run.name] is Outcome.FLIPS
        }
        assert failed == flips and failed, engine_run.name
        shown = {r["id"] for r in result.records if engine_run.name in r["catches"]}
        assert failed == shown  # as the page shows them
        unsupported = {r.case_id for r in engine_run.results if r.result is Result.UNSUPPORTED}
        not_applicable = {
            row.report.case.id
            for row in rows
            if row.outcomes[engine_run.name] is Outcome.NOT_APPLICABLE
        }
        assert not_applicable <= unsupported, engine_run.name


def test_the_build_refuses_an_export_our_engine_does_not_replay(
    catalogue: Catalogue, monkeypatch: pytest.MonkeyPatch
) -> None:
    import oracle.site.engines

    def tampered(reports: Any, matrix: Any = None) -> Iterator[dict[str, Any]]:
        records = published_records(reports, matrix)
        first = next(r for r in records if "claims" in r["answers"])
        stone, verdict = next(iter(first["answers"]["claims"].items()))
        first["answers"]["claims"][stone] = "granted" if verdict == "refused" else "refused"
        return iter(records)

    monkeypatch.setattr(oracle.site.engines, "published_record_stream", tampered)
    with pytest.raises(CatalogueError, match="does not replay"):
        conformance(catalogue)


def test_a_misreading_through_the_subprocess_fails_with_both_answers(
    records: tuple[dict[str, Any], ...],
) -> None:
    chosen = select(records, "last-three-in-your-hand")
    [result] = run(CommandEngine([*ADAPTER, "--misreading", "hand-is-proof"]), chosen)
    assert result.result is Result.FAIL
    assert result.describe() == (
        'last-three-in-your-hand: fail: claims.3: expected "refused", the engine said "granted"'
    )


BROKEN = {
    "crashes": "import sys\nsys.stdin.readline()\nraise SystemExit('engine fell over')\n",
    "garbage": "import sys\nfor line in sys.stdin:\n    print('hello there', flush=True)\n",
    "hangs": "import sys, time\nfor line in sys.stdin:\n    time.sleep(60)\n",
    "wrong-id": (
        "import json, sys\nfor line in sys.stdin:\n"
        "    print(json.dumps({'id': 'someone-else', 'answers': {}}), flush=True)\n"
    ),
    "silent-exit": "import sys\nsys.stdin.readline()\n",
}


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        ("crashes", "exited without answering (it said: engine fell over)"),
        ("garbage", "not JSON: 'hello there'"),
        ("hangs", "no answer within 0.5 s"),
        ("wrong-id", "answered for 'someone-else'"),
        ("silent-exit", "exited without answering"),
    ],
)
def test_a_broken_engine_gets_a_clear_error_per_case_and_never_stalls(
    kind: str, words: str, records: tuple[dict[str, Any], ...], tmp_path: Path
) -> None:
    script = tmp_path / f"{kind}.py"
    script.write_text(BROKEN[kind], encoding="utf-8")
    chosen = list(records[:3])
    started = time.monotonic()
    timeout = 0.5 if kind == "hangs" else 20  # a loaded machine is slow to start Python
    results = run(CommandEngine([sys.executable, str(script)], timeout=timeout), chosen)
    assert time.monotonic() - started < 30
    assert [result.result for result in results] == [Result.FAIL] * 3
    for result in results:
        assert result.problem is not None and words in result.problem, result.problem


def test_an_engine_that_cannot_start_is_a_failure_not_a_traceback(
    records: tuple[dict[str, Any], ...],
) -> None:
    [result] = run(CommandEngine(["/nonexistent/engine"]), records[:1])
    assert result.result is Result.FAIL and "cannot start '/nonexistent/engine'" in str(
        result.problem
    )


def test_unsupported_questions_are_reported_apart_from_failures() -> None:
    expected = {"claims": {"3": "refused"}, "turn": {"winner": "you", "log": ["you: pass"]}}
    response = {"answers": {"claims": {"3": "refused"}}, "unsupported": ["turn"]}
    results = {q.name: q.result for q in compare(expected, response)}
    assert results == {
        "claims.3": Result.PASS,
        "turn.winner": Result.UNSUPPORTED,
        "turn.log": Result.UNSUPPORTED,
    }
    partial = {"answers": {"turn": {"winner": "you"}}, "unsupported": ["turn.log"]}
    results = {q.name: q.result for q in compare(expected, partial)}
    assert results["turn.winner"] is Result.PASS and results["turn.log"] is Result.UNSUPPORTED
    assert results["claims.3"] is Result.FAIL  # neither answered nor declared unsupported


def test_the_example_adapter_on_the_page_speaks_protocol_2_answers_claims_and_leaves_the_rest_out(
    records: tuple[dict[str, Any], ...],
) -> None:
    adapter = [sys.executable, str(ROOT / "site_src" / EXAMPLE_ADAPTER)]
    results = run(CommandEngine(adapter, timeout=30), records, catalogue_version(records))
    assert not [result.describe() for result in results if result.result is Result.FAIL]
    claims_only = [r for r in records if set(r["answers"]) == {"claims"}]
    assert sum(result.result is Result.PASS for result in results) == len(claims_only)
    [refused] = run(CommandEngine(adapter, timeout=30), records[:1], protocol=1)
    assert refused.describe().endswith("could not read the case: this adapter speaks protocol 2")


def test_every_request_the_runner_writes_is_one_the_protocol_schema_allows(
    records: tuple[dict[str, Any], ...],
) -> None:
    version = catalogue_version(records)
    for record in records:
        for protocol in VERSIONS:
            assert request_problem(request_line(record, version, protocol)) is None, record["id"]
    assert request_problem({"protocol": 3, "id": "a", "case": records[0]["request"]})
    assert request_problem({"protocol": 2, "id": "a", "case": {"variant": "base"}})


def test_an_engine_of_protocol_1_runs_unchanged(records: tuple[dict[str, Any], ...]) -> None:
    """An engine written for version 1 answers without naming a version and may insist on
    being sent version 1: ``conform --protocol 1`` sends it that, and its answers are judged as
    before."""
    reference = adapter_engine()

    def version_1(line: str) -> str:
        if json.loads(line)["protocol"] != 1:
            return json.dumps({"id": json.loads(line)["id"], "error": "protocol 1 only"})
        answer = json.loads(reference.answer_line(line))
        del answer["protocol"]
        return json.dumps(answer)

    results = run(FunctionEngine(version_1), records, catalogue_version(records), protocol=1)
    assert {result.result for result in results} == {Result.PASS}


@pytest.mark.usefixtures("adapter_in_process")
def test_the_command_line_exports_and_runs_an_engine_with_a_selection(
    tmp_path: Path,
    project_to_read: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(project_to_read)
    exported = tmp_path / "catalogue.jsonl"
    assert run_main(["export", "--format", "jsonl", "-o", str(exported)]) == 0
    capsys.readouterr()
    junit = tmp_path / "results.xml"
    status = run_main(
        [
            "conform",
            "--catalogue",
            str(exported),
            "-k",
            "claims",
            "--junit",
            str(junit),
            "--",
            *ADAPTER,
        ]
    )
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.splitlines()[-1].startswith("conformance: ")
    assert " 0 fail" in out.splitlines()[-1]
    assert ElementTree.parse(junit).getroot().get("failures") == "0"
    status = run_main(
        ["conform", "-q", "-k", "claims", "--", *ADAPTER, "--misreading", "runs-wrap-around"]
    )
    out = capsys.readouterr().out
    assert status == 1 and "fail: claims." in out
    assert run_main(["conform", "--", ""][:2]) == 2
    assert "give the engine after --" in capsys.readouterr().err


def test_a_broken_export_file_is_refused_with_its_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(textwrap.dedent('{"format": "something else", "cases": []}'), encoding="utf-8")
    assert run_main(["conform", "--catalogue", str(bad), "--", *ADAPTER]) == 2
    assert "not a schotten-totten-oracle-catalogue export" in capsys.readouterr().err


def test_k_selects_whole_words_of_the_topic_or_id_whatever_the_case(
    records: tuple[dict[str, Any], ...],
) -> None:
    early = select(records, "EARLY")
    assert early and all(r["topic"] == "early-claims" or "early" in r["id"] for r in early)
    assert {r["topic"] for r in select(records, "early-claims")} == {"early-claims"}
    turns = select(records, "turns")
    assert "recruiter-draws-three-returns-two" not in {r["id"] for r in turns}
    both = select(records, ["three-of-a-kind", "deal or match"])
    kinds = {key for r in both for key in r["answers"]}
    assert {"deal", "match", "claims"} <= kinds


REFUSED_BY_THE_SCHEMA = {
    '"answers": {"claimz": {"3": "refused"}}': (
        'answers: "claimz" is no key here (the keys: claims, deal, match, plays, turn)'
    ),
    '"unsupported": ["claim"]': 'unsupported.0: "claim" is not a question of the protocol',
    '"unsupported": 5': "unsupported: 5 is not of type 'array'",
    '"answers": {"claims": {"3": "maybe"}}': (
        "answers.claims.3: 'maybe' is not one of ['granted', 'refused']"
    ),
    '"answers": {"claims": {"3": "refused"}}, "protocol": 3': "protocol: 3 is not one of [1, 2]",
    '"answers": {"turn": {"refused": "no", "winner": "you"}}': (
        'answers.turn: {"refused": "no", "winner": "you"} is neither the facts asked nor a refusal'
    ),
    '"error": {"why": 1}': "error: {'why': 1} is not of type 'string'",
}


@pytest.mark.parametrize("answer", sorted(REFUSED_BY_THE_SCHEMA))
def test_an_answer_the_protocol_schema_refuses_fails_its_case_saying_where(
    answer: str, records: tuple[dict[str, Any], ...]
) -> None:
    def engine(line: str) -> str:
        return f'{{"id": {json.dumps(json.loads(line)["id"])}, {answer}}}'

    [case] = run(FunctionEngine(engine), select(records, "last-three-in-your-hand"))
    assert case.result is Result.FAIL
    prefix = "last-three-in-your-hand: fail: an answer the protocol does not allow: "
    assert case.describe().startswith(prefix + REFUSED_BY_THE_SCHEMA[answer]), case.describe()


def test_a_question_the_case_does_not_ask_cannot_be_declared_unsupported(
    records: tuple[dict[str, Any], ...],
) -> None:
    response = {"answers": {"claims": {"3": "refused"}}, "unsupported": ["claims.9", "claims.3"]}
    results = {q.name: q.result for q in compare({"claims": {"3": "refused"}}, response)}
    assert results["unsupported.claims.9"] is Result.FAIL
    assert results["claims.3"] is Result.UNSUPPORTED and "unsupported.claims.3" not in results
    response = {"answers": {}, "unsupported": ["claims", "turn.log"]}
    results = {q.name: q.result for q in compare({"claims": {"3": "refused"}}, response)}
    assert results == {"claims.3": Result.UNSUPPORTED, "unsupported.turn.log": Result.FAIL}
    [case] = run(
        FunctionEngine(lambda line: json.dumps({"id": json.loads(line)["id"], "answers": {}})),
        select(records, "last-three-in-your-hand"),
    )
    assert case.describe().endswith('claims.3: expected "refused", the engine gave no answer')


@PROCESS_CONTROL
def test_an_engine_that_keeps_failing_is_given_up_on_and_its_children_do_not_outlive_it(
    records: tuple[dict[str, Any], ...], tmp_path: Path
) -> None:
    marker = tmp_path / "child.pid"
    script = tmp_path / "spawns.sh"
    script.write_text(f"sleep 300 & echo $! > {marker}\nread line\nexit 3\n", encoding="utf-8")
    started = time.monotonic()
    results = run(CommandEngine(["bash", str(script)], timeout=20), list(records[:8]))
    assert time.monotonic() - started < 30
    assert [r.result for r in results] == [Result.FAIL] * 8
    assert all("not asked" in str(r.problem) for r in results[GIVE_UP_AFTER:])
    child = int(marker.read_text())
    time.sleep(0.2)
    assert not Path(f"/proc/{child}").exists() or "Z" in Path(f"/proc/{child}/stat").read_text()


def test_conform_fails_a_run_in_which_no_case_passes(
    tmp_path: Path,
    project_to_read: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(project_to_read)
    nothing = tmp_path / "nothing.py"
    nothing.write_text(
        "import json, sys\nfor line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    asked = [k for k in r['case'] if k in ('claims', 'plays', 'turn', 'deal', 'match')]\n"
        "    print(json.dumps({'id': r['id'], 'unsupported': asked}), flush=True)\n",
        encoding="utf-8",
    )
    assert run_main(["conform", "-k", "deal", "--", sys.executable, str(nothing)]) == 1
    assert "no case passed" in capsys.readouterr().out


def test_the_in_process_adapter_removes_its_scratch_folder_when_closed(
    records: tuple[dict[str, Any], ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    results = run(adapter_engine(), list(records[:3]))
    assert [r.result for r in results] == [Result.PASS] * 3
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------- bounded whatever the engine does

FLOODS = {
    "newlines-without-end": (
        "import sys\nsys.stdin.readline()\nwhile True:\n    print(flush=True)\n"
    ),
    "bytes-without-newline": (
        "import sys\nsys.stdin.readline()\nwhile True:\n    sys.stdout.write('x' * 65536)\n"
    ),
    "stderr-without-end": (
        "import sys\nsys.stdin.readline()\nwhile True:\n    sys.stderr.write('y' * 65536)\n"
    ),
}


@PROCESS_CONTROL
@pytest.mark.parametrize("kind", sorted(FLOODS))
def test_an_engine_that_writes_without_end_fails_within_the_timeout_in_bounded_memory(
    kind: str, records: tuple[dict[str, Any], ...], tmp_path: Path
) -> None:
    import resource

    script = tmp_path / f"{kind}.py"
    script.write_text(FLOODS[kind], encoding="utf-8")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    # A flood of the answer's line ends at its size limit, whatever the timeout; the others run
    # to the timeout, both processes busy all along, so it is short.
    timeout = 10 if kind == "bytes-without-newline" else 0.5
    results = run(CommandEngine([sys.executable, str(script)], timeout=timeout), list(records[:1]))
    assert time.monotonic() - started < 20
    assert [r.result for r in results] == [Result.FAIL]
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before  # KiB on Linux
    assert grown < 100_000, f"the run grew by {grown} KiB"
    problem = str(results[0].problem)
    if kind == "bytes-without-newline":
        assert "wrote a line over 1,048,576 bytes" in problem
    else:
        assert "no answer within 0.5 s" in problem


ONE_LONG_LINE = (
    "import sys\nsys.stdin.readline()\nout = sys.stdout.buffer\n"
    "for _ in range(1600):\n    out.write(b'x' * 65536)\nout.write(b'\\n')\nout.flush()\n"
)
"""An engine that answers with one line of 100 MiB, written in pieces (so that the engine's own
memory stays small) and ended."""

ANSWERS_NOTHING = (
    "import json, sys\nfor line in sys.stdin:\n"
    "    print(json.dumps({'id': json.loads(line)['id'], 'error': 'no'}), flush=True)\n"
)

MEASURED_RUN = """
import resource, sys
from oracle.conformance.engines import CommandEngine
from oracle.conformance.export import read_export
from oracle.conformance.runner import run
records = read_export(open(sys.argv[1], encoding="utf-8").read())[:1]
[result] = run(CommandEngine([sys.executable, sys.argv[2]], timeout=60), records)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, result.problem)
"""
"""A run of one case in a process of its own, printing the runner's own peak memory (KiB, not
the engine's, which is a process apart) and why the case failed."""


@PROCESS_CONTROL
def test_one_100_mib_line_does_not_raise_the_runners_memory(
    records: tuple[dict[str, Any], ...], tmp_path: Path
) -> None:
    """The line is refused at 1 MiB and the rest of it is read and dropped as it comes: the
    runner's peak memory is that of a run whose engine answers in a few bytes (issue 43 measured
    170 MB more when the whole line was kept)."""
    export = tmp_path / "export.json"
    export.write_text(export_json(records[:1], "test"), encoding="utf-8")
    peaks: dict[str, int] = {}
    problems: dict[str, str] = {}
    for name, engine in (("short", ANSWERS_NOTHING), ("long", ONE_LONG_LINE)):
        script = tmp_path / f"{name}.py"
        script.write_text(engine, encoding="utf-8")
        ran = subprocess.run(
            [sys.executable, "-c", MEASURED_RUN, str(export), str(script)],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        peak, problems[name] = ran.stdout.strip().split(" ", 1)
        peaks[name] = int(peak)
    assert peaks["long"] - peaks["short"] < 20_000, peaks
    assert "wrote a line over 1,048,576 bytes" in problems["long"]


MALFORMED = {
    "unsupported-a-number": '{"id": ID, "unsupported": 5}',
    "answers-a-list": '{"id": ID, "answers": [1, 2]}',
    "error-an-object": '{"id": ID, "error": {"why": 1}}',
    "nested-deeply": '{"id": ID, "answers": ' + "[" * 100_000 + "]" * 100_000 + "}",
    "a-5000-digit-number": '{"id": ID, "answers": {"claims": {"3": ' + "9" * 5000 + "}}}",
    "a-huge-id": '{"id": "' + "z" * 10_000 + '"}',
}


@pytest.mark.parametrize("kind", sorted(MALFORMED))
def test_a_malformed_answer_line_fails_its_case_with_a_reason_and_the_run_goes_on(
    kind: str, records: tuple[dict[str, Any], ...]
) -> None:
    def answer(line: str) -> str:
        return MALFORMED[kind].replace("ID", json.dumps(json.loads(line)["id"]))

    results = run(FunctionEngine(answer), list(records[:3]))
    assert [r.result for r in results] == [Result.FAIL] * 3
    for result in results:
        line = result.describe()
        assert len(line) < 600 and "\n" not in line, line


def test_an_answer_line_giving_a_key_twice_fails_its_case(
    records: tuple[dict[str, Any], ...],
) -> None:
    """JSON readers disagree on which of two equal keys counts (Python's keeps the last): an
    answer line with a key given twice fails its case, even when the last copy is right."""
    adapter = adapter_engine()

    def answer(line: str) -> str:
        right = adapter.ask(json.loads(line))
        wrong = {"claims": {stone: "?" for stone in right.get("answers", {}).get("claims", {})}}
        head = json.dumps({"id": right["id"], "answers": wrong})[:-1]
        return f'{head}, "answers": {json.dumps(right.get("answers", {}))}}}'

    [result] = run(FunctionEngine(answer), list(records[:1]))
    assert result.result is Result.FAIL
    assert 'the key "answers" is given twice in one object' in str(result.problem)


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e308", "0", "-1", "soon"])
def test_a_timeout_that_can_never_fire_is_refused(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        run_main(["conform", "--timeout", value, "--", "true"])
    assert exited.value.code == 2
    assert "--timeout" in capsys.readouterr().err


def test_a_malformed_or_endless_catalogue_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text(
        json.dumps({**header("x", [{}]), "cases": [{"id": "a", "topic": "t", "request": {}}]}),
        encoding="utf-8",
    )
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    for path, words in ((broken, "case record 1"), (fifo, "not a regular file")):
        started = time.monotonic()
        assert run_main(["conform", "--catalogue", str(path), "--", "true"]) == 2
        assert time.monotonic() - started < 5
        err = capsys.readouterr().err.strip()
        assert words in err and len(err.splitlines()) == 1, err


def _alive(marker: str) -> list[int]:
    """Processes whose command line holds ``marker``."""
    found = []
    for entry in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if (
                marker.encode() in entry.read_bytes()
                and "Z" not in (entry.parent / "stat").read_text().rsplit(")", 1)[1].split()[0]
            ):
                found.append(int(entry.parent.name))
        except OSError:
            continue
    return found


def _described(pids: list[int], runner: subprocess.Popen[str]) -> str:
    """The processes found, each with its state and command line, and whether the runner ended."""
    lines = [f"runner exit status: {runner.poll()}"]
    for pid in pids:
        try:
            stat = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[:3]
            cmdline = (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        lines.append(f"{pid} {' '.join(stat)} {cmdline.decode(errors='replace')[:160]}")
    return "\n".join(lines)


@PROCESS_CONTROL
@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_an_interrupted_run_leaves_nothing_the_engine_started(
    signal_name: str, tmp_path: Path, records: tuple[dict[str, Any], ...]
) -> None:
    import signal
    import subprocess

    marker = f"oracle-engine-{os.getpid()}-{time.monotonic_ns()}-{signal_name}"
    catalogue = tmp_path / "catalogue.json"
    catalogue.write_text(export_json(list(records[:2]), "test"), encoding="utf-8")
    script = tmp_path / "engine.sh"
    # A child in a group of its own, and one in a session of its own, both holding the pipes.
    script.write_text(
        f"python3 -c 'import os, time; os.setpgid(0, 0); time.sleep(302)' {marker} &\n"
        f"python3 -c 'import os, time; os.setsid(); time.sleep(304)' {marker} &\n"
        "read line\nsleep 303\n",
        encoding="utf-8",
    )
    command = [sys.executable, "-m", "oracle.cli", "conform", "--catalogue", str(catalogue)]
    # As from a terminal: a run started in the background of a shell script inherits SIGINT
    # ignored, and Python then never turns it into KeyboardInterrupt.
    runner = subprocess.Popen(
        [*command, "--timeout", "600", "--", "bash", str(script), marker],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    # The runner, the engine and its two children. On a machine busy with browsers, starting
    # three Pythons can take seconds: wait long, and on failure say who is missing.
    deadline = time.monotonic() + 60
    while len(_alive(marker)) < 4 and time.monotonic() < deadline and runner.poll() is None:
        time.sleep(0.1)
    assert len(_alive(marker)) >= 4, _described(_alive(marker), runner)
    time.sleep(0.2)  # well into the run
    runner.send_signal(getattr(signal, signal_name))
    _, err = runner.communicate(timeout=30)
    assert runner.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    time.sleep(0.2)
    assert _alive(marker) == []


@PROCESS_CONTROL
def test_an_engine_that_never_reads_its_requests_cannot_hold_the_run(
    records: tuple[dict[str, Any], ...], tmp_path: Path
) -> None:
    """It answers every case at once, right, without reading one: the requests fill its pipe."""
    answers = "\n".join(
        json.dumps({"id": record["id"], "answers": record["answers"]}) for record in records
    )
    script = tmp_path / "deaf.py"
    script.write_text(
        f"import sys, time\nsys.stdout.write({answers!r} + '\\n')\nsys.stdout.flush()\n"
        "time.sleep(300)\n",
        encoding="utf-8",
    )
    many = [
        dict(record, request={**record["request"], "padding": "x" * 20_000}) for record in records
    ]
    started = time.monotonic()
    results = run(CommandEngine([sys.executable, str(script)], timeout=2), many)
    assert time.monotonic() - started < 120
    assert any("read no request within 2 s" in str(r.problem) for r in results)


def test_answers_to_questions_not_asked_fail_the_case(records: tuple[dict[str, Any], ...]) -> None:
    [claims_case] = select(records, "last-three-in-your-hand")

    def everything(line: str) -> str:
        return json.dumps(
            {
                "id": json.loads(line)["id"],
                "answers": {"claims": {str(stone): "refused" for stone in range(1, 10)}},
            }
        )

    [result] = run(FunctionEngine(everything), [claims_case])
    assert result.result is Result.FAIL
    assert "an answer to a question the case does not ask" in result.describe()


@pytest.mark.usefixtures("adapter_in_process")
def test_the_json_report_names_the_catalogue_and_gives_every_question_both_answers(
    tmp_path: Path,
    project_to_read: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(project_to_read)
    exported = tmp_path / "catalogue.json"
    assert run_main(["export", "-o", str(exported)]) == 0
    version = json.loads(exported.read_text())["catalogue"]
    assert re.fullmatch(r"sha256:[0-9a-f]{16}", version)
    report = tmp_path / "results.json"
    arguments = ["conform", "-q", "--catalogue", str(exported), "-k", "two-stones-at-once"]
    misread = [*ADAPTER, "--misreading", "hand-is-proof"]
    assert run_main([*arguments, "--json", str(report), "--", *misread]) in (0, 1)
    capsys.readouterr()
    document = json.loads(report.read_text())
    assert document["catalogue"] == version and document["summary"]["cases"] == 1
    [case] = document["cases"]
    assert case["id"] == "two-stones-at-once"
    by_name = {question["name"]: question for question in case["questions"]}
    assert set(by_name) == {"claims.2", "claims.7"}
    for question in by_name.values():
        assert question["expected"] in ("granted", "refused") and "actual" in question
    # Written again over its own report; never over a file it did not write.
    assert run_main([*arguments, "--json", str(report), "--", *ADAPTER]) == 0
    assert json.loads(report.read_text())["cases"][0]["result"] == "pass"
    foreign = tmp_path / "notes.json"
    foreign.write_text('{"mine": true}\n')
    assert run_main([*arguments, "--json", str(foreign), "--", *ADAPTER]) == 2
    assert foreign.read_text() == '{"mine": true}\n'
    assert "notes.json" in capsys.readouterr().err


def _page_shows_the_run(
    page: str, document: dict[str, Any], records: tuple[dict[str, Any], ...]
) -> None:
    """The conformance page shows the published run: its engine's name escaped, its link, its
    failures by topic and the cases it did not run."""
    header = next(line for line in page.splitlines() if line.startswith("| Topic | "))
    assert "<script>" not in page and "&#60;script&#62;" in header
    assert 'href="https&#58;&#47;&#47;example&#46;org&#47;engine&#63;a&#61;1&#38;b&#61;2"' in header
    [claims] = [line for line in page.splitlines() if line.startswith("| claims | ")]
    assert "**1 fail**" in claims  # wrapping runs fail a claims case, in the engine's column
    [turns] = [line for line in page.splitlines() if line.startswith("| turns | ")]
    ran = sum(case["topic"] == "turns" for case in document["cases"])
    total = sum(record["topic"] == "turns" for record in records)
    assert f"{total - ran} not run |" in turns  # only the cases about claims were run
    _page_says_why_and_lists_the_stale_apart(page)


def _page_says_why_and_lists_the_stale_apart(page: str) -> None:
    """A failed case links its page and says why below its topic's table; the stale run is
    listed apart, once."""
    header = next(line for line in page.splitlines() if line.startswith("| Topic | "))
    wrap_case = "| [no&#45;wrap&#45;around]("  # ids reach the page escaped, as all text does
    wrapped, why = [line for line in page.splitlines() if line.startswith(wrap_case)]
    assert "| **fail** (why: below) |" in wrapped  # a case links its page; its cell says fail
    # Below the topic's table, why: the engine (its column's title) and both answers.
    assert "&#60;script&#62;" in why and "expected &#34;refused&#34;" in why
    assert "protocol" not in header or "protocol 2" in header
    stale_line = next(line for line in page.splitlines() if "Old engine" in line)
    assert "(stale)" in stale_line and "sha256&#58;0000000000000000" in stale_line
    assert page.count("Old engine") == 1  # never a row of the table


def _results_that_are_no_reports_are_said(
    tmp_path: Path, document: dict[str, Any], records: tuple[dict[str, Any], ...], version: str
) -> None:
    """A file of results/ that names a case the catalogue lacks, or is no report, is said."""
    results = tmp_path / "results"
    from oracle.conformance.results import load_results, published_results

    first = dict(document["cases"][0], id="no-such-case")
    counts = {result: int(first["result"] == result) for result in ("pass", "fail", "unsupported")}
    bogus = dict(document, cases=[first], summary={"cases": 1, **counts})
    (results / "bogus.json").write_text(json.dumps(bogus))
    [problem] = published_results(tmp_path, records, version)[1]
    assert problem.startswith("results/bogus.json:1: cases/0/id: case 'no-such-case' of topic")
    (results / "bogus.json").unlink()
    (results / "notes.txt").write_text("hello\n")
    (results / "broken.json").write_text('{"format": "something else"}\n')
    _, unreadable = load_results(tmp_path)
    assert len(unreadable) == 2 and all(line.startswith("results/") for line in unreadable)
    assert "results/broken.json: not a report of schotten-oracle conform --json" in unreadable
    document["cases"][0]["result"] = "maybe"
    (results / "broken.json").write_text(json.dumps(document))
    _, unreadable = load_results(tmp_path)
    assert any(
        re.search(r"broken\.json:\d+: cases/0/result: 'maybe' is not one of", line)
        for line in unreadable
    )


@pytest.mark.usefixtures("adapter_in_process")
def test_a_published_result_is_shown_beside_ours_and_a_stale_one_apart(
    tmp_path: Path,
    project_to_read: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    records: tuple[dict[str, Any], ...],
) -> None:
    """An engine's author publishes a run with conform --json and the engine's name, version
    and link; the conformance page shows it when it ran this catalogue, lists it as stale when
    it ran another, and a file of results/ that is no such report stops the build."""
    from oracle.conformance.results import load_results
    from oracle.site.engines import Conformance, render_conformance

    monkeypatch.chdir(project_to_read)
    results = tmp_path / "results"
    results.mkdir()
    hostile = "<script>alert(1)</script> <img src=x onerror=alert(1)> | **engine**"
    submit = ["--engine-name", hostile, "--engine-version", "2.0", "--engine-link"]
    misread = [*ADAPTER, "--misreading", "runs-wrap-around"]
    report = results / "wrapping-engine.json"
    arguments = ["conform", "-q", "-k", "claims", "--json", str(report)]
    address = "https://example.org/engine?a=1&b=2"
    assert run_main([*arguments, *submit, address, "--", *misread]) == 1
    document = json.loads(report.read_text())
    assert document["submitted"]["name"] == hostile and document["submitted"]["version"] == "2.0"
    stale = dict(document, catalogue="sha256:0000000000000000")
    stale["submitted"] = dict(document["submitted"], name="Old engine")
    (results / "old-engine.json").write_text(json.dumps(stale))
    capsys.readouterr()
    # All three flags or none, with --json; a link goes to http(s) only.
    assert run_main([*arguments, "--engine-name", "x", "--", *ADAPTER]) == 2
    assert "go together" in capsys.readouterr().err
    assert run_main([*arguments, *submit, "javascript:alert(1)", "--", *ADAPTER]) == 2
    assert "link" in capsys.readouterr().err

    published, unreadable = load_results(tmp_path)
    assert unreadable == [] and [found.name for found in published] == ["Old engine", hostile]
    version = catalogue_version(records)
    page = render_conformance(
        Conformance(records, (), "test", version, tuple(published)),
        ROOT / "site_src" / "_templates",
        "conformance.md",
    )
    _page_shows_the_run(page, document, records)
    _results_that_are_no_reports_are_said(tmp_path, document, records, version)


def test_a_refused_turn_is_reported_as_a_refusal_not_as_no_answer(
    records: tuple[dict[str, Any], ...],
) -> None:
    """An engine that refuses a move the case carries out has answered, wrongly: the report
    gives its reason, not "no answer"; declared unsupported, the turn is left out as usual."""
    carried = next(r for r in records if "turn" in r["answers"])

    def refuses(unsupported: list[str]) -> FunctionEngine:
        def answer(line: str) -> str:
            request = json.loads(line)
            answers = dict(carried["answers"], turn={"refused": "no <such> move here"})
            return json.dumps({"id": request["id"], "answers": answers, "unsupported": unsupported})

        return FunctionEngine(answer)

    [wrong] = run(refuses([]), [carried])
    assert wrong.result is Result.FAIL
    assert "turn: the case carries every move out, the engine refused one:" in wrong.describe()
    assert '"no <such> move here"' in wrong.describe() and "no answer" not in wrong.describe()
    [turn] = [q for q in wrong.questions if q.name.startswith("turn")]
    assert turn.name == "turn" and turn.actual == {"refused": "no <such> move here"}
    [left_out] = run(refuses(["turn"]), [carried])
    assert left_out.result is Result.UNSUPPORTED


def test_the_published_protocol_schema_finds_the_catalogue_schema_beside_it() -> None:
    """The protocol's schema names the catalogue's for a case and its answers: by the file name
    the site publishes it under, resolved against the same base."""
    protocol = json.loads(schema_text(PROTOCOL_SCHEMA))
    references: list[str] = re.findall(r'"\$ref": "([^"#][^"]*)"', schema_text(PROTOCOL_SCHEMA))
    assert references and {ref.split("#")[0] for ref in references} == {EXPORT_SCHEMA}
    base = protocol["$id"].rsplit("/", 1)[0]
    assert SCHEMA["$id"] == f"{base}/{EXPORT_SCHEMA}"
    assert PROTOCOL_SCHEMA_FILE != EXPORT_SCHEMA and protocol["$id"].endswith(PROTOCOL_SCHEMA_FILE)


def test_reports_of_our_adapter_and_of_a_misreading_become_columns_of_the_page(
    tmp_path: Path, records: tuple[dict[str, Any], ...]
) -> None:
    """Published as engines' authors would: the reference adapter's report passes every case in
    its column; a misreading's fails exactly the cases it changes, each marked in its column."""
    from oracle.conformance.reports import json_report
    from oracle.conformance.results import published_results
    from oracle.site.engines import Conformance, render_conformance

    records = tuple(select(records, "claims"))  # the three topics of claims: enough, and quick
    version = catalogue_version(records)
    (tmp_path / "results").mkdir()
    for name, reading in (("Reference", None), ("Wrapping", "runs-wrap-around")):
        results = run(adapter_engine(reading), records, version)
        submitted = {
            "name": name,
            "version": "1",
            "link": "https://example.org",
            "date": "2026-12-02",
        }
        text = json_report(results, "adapter", version, submitted, protocol=2)
        (tmp_path / "results" / f"{name.lower()}.json").write_text(text, encoding="utf-8")
    published, problems = published_results(tmp_path, records, version)
    assert problems == [] and [found.name for found in published] == ["Reference", "Wrapping"]
    page = render_conformance(
        Conformance(records, (), "test", version, tuple(published)),
        ROOT / "site_src" / "_templates",
        "conformance.md",
    )
    header = next(line for line in page.splitlines() if line.startswith("| Topic | "))
    assert header.count("example&#46;org") == 2
    every = len(records)
    [total] = [line for line in page.splitlines() if line.startswith("| **All** | ")]
    assert total.startswith(f"| **All** | {every} pass | ")
    flipped = {
        r.case_id
        for r in run(adapter_engine("runs-wrap-around"), records)
        if r.result is Result.FAIL
    }
    assert flipped and f"**{len(flipped)} fail**" in total
    case_rows = [
        line for line in page.splitlines() if line.startswith("| [") and "| pass |" in line
    ]
    assert len(case_rows) == every
    assert sum("| pass | **fail** (why: below) |" in line for line in case_rows) == len(flipped)
