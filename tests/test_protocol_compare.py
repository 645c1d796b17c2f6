"""The protocol's comparison on answers written here (no catalogue): what the case asks is what
its expected answers ask, whatever shape the engine's answer takes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from oracle.protocol.compare import Result, compare
from oracle.protocol.schema import CATALOGUE_SCHEMA, PROTOCOL_SCHEMA, schema_text

ROOT = Path(__file__).resolve().parent.parent

TURN = {
    "turn": {
        "log": ["you: red 9 on 4", "you: claim 4", "you: draw clan"],
        "winner": "nobody",
        "ending": "none",
        "next": "them",
    }
}


def test_a_refused_turn_with_facts_declared_unsupported_fails_once_and_truly() -> None:
    """An engine that refuses the turn and declares two of its facts unsupported: the refusal
    is its (wrong) answer; the declared facts are asked by the case, so they are no misspelling."""
    response = {"answers": {"turn": {"refused": "no such move"}}, "unsupported": ["turn.log"]}
    results = compare(TURN, response)
    assert [(r.name, r.result) for r in results] == [("turn", Result.FAIL)]
    declared_both = dict(response, unsupported=["turn.log", "turn.ending"])
    assert [r.name for r in compare(TURN, declared_both)] == ["turn"]


def test_a_fact_the_case_does_not_ask_declared_unsupported_is_a_failure() -> None:
    response = {"answers": {"turn": TURN["turn"]}, "unsupported": ["turn.hand", "claims.9"]}
    failed = [r.name for r in compare(TURN, response) if r.result is Result.FAIL]
    assert failed == ["unsupported.claims.9", "unsupported.turn.hand"]


def test_a_declared_fact_the_case_asks_is_unsupported_not_failed() -> None:
    answers = {key: value for key, value in TURN["turn"].items() if key != "log"}
    results = compare(TURN, {"answers": {"turn": answers}, "unsupported": ["turn.log"]})
    assert {r.name: r.result for r in results} == {
        "turn.log": Result.UNSUPPORTED,
        "turn.winner": Result.PASS,
        "turn.ending": Result.PASS,
        "turn.next": Result.PASS,
    }


def test_the_conformance_pages_schema_check_works_as_written(tmp_path: Path) -> None:
    """The script the Conformance page shows checks answer lines against the two published
    schemas, side by side: a good line passes, a wrong one is named by its line and place."""
    page = (ROOT / "site_src" / "conformance.md").read_text(encoding="utf-8")
    marker = "<!-- checked by tests/test_protocol_compare.py -->\n```python\n"
    script = page[page.index(marker) + len(marker) :].split("\n```", 1)[0]
    (tmp_path / "check_answers.py").write_text(script, encoding="utf-8")
    for published, source in (
        ("schotten-totten-protocol.schema.json", PROTOCOL_SCHEMA),
        ("schotten-totten-catalogue.schema.json", CATALOGUE_SCHEMA),
    ):
        (tmp_path / published).write_text(schema_text(source), encoding="utf-8")
    lines = [
        {"id": "a-case", "answers": {"claims": {"3": "refused"}}, "unsupported": []},
        {"id": "a-case", "answers": {"claims": {"3": "maybe"}}},
    ]
    checked = subprocess.run(
        [sys.executable, "check_answers.py"],
        cwd=tmp_path,
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        check=True,
    )
    assert checked.stdout.startswith("line 2: $.answers.claims['3']: 'maybe' is not one of")
    assert "line 1" not in checked.stdout


def test_a_turn_expected_refused_passes_any_refusal_and_fails_a_turn_carried_out() -> None:
    """Each engine gives its reason in its own words, so a refusal passes whatever it says;
    the facts of a turn carried out, or no answer, fail."""
    expected = {"turn": {"refused": "stone 4 is claimed"}}
    refusal = {"answers": {"turn": {"refused": "that stone is taken"}}}
    assert [(r.name, r.result) for r in compare(expected, refusal)] == [("turn", Result.PASS)]
    carried_out = {"answers": {"turn": TURN["turn"]}}
    assert [(r.name, r.result) for r in compare(expected, carried_out)] == [("turn", Result.FAIL)]
    assert [r.result for r in compare(expected, {"answers": {}})] == [Result.FAIL]
    declared = {"answers": {}, "unsupported": ["turn"]}
    assert [r.result for r in compare(expected, declared)] == [Result.UNSUPPORTED]
