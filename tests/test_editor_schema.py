"""The editors' schema: generated from the engine and the rules index, current, and strict."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import FIXTURE

from oracle.casefile.entries import case_files
from oracle.casefile.rules import load_rules_index
from oracle.casefile.schema import EDITOR_SCHEMA, editor_case_schema, stale_editor_schema
from oracle.casefile.schema import main as schema_main
from oracle.casefile.source import read_yaml


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft7Validator:
    rules = load_rules_index(FIXTURE / "rules" / "index.yaml")
    return jsonschema.Draft7Validator(editor_case_schema(rules))


def test_make_schema_writes_what_check_expects_and_a_new_rule_makes_it_stale(
    tmp_path: Path,
) -> None:
    """Whether the project's committed schema is current is for its own gate (``check``
    reports it): here, the schema made for a fixture's rules index, then that index grown."""
    (tmp_path / "rules").mkdir()
    index = tmp_path / "rules" / "index.yaml"
    shutil.copy(FIXTURE / "rules" / "index.yaml", index)
    (tmp_path / EDITOR_SCHEMA).parent.mkdir(parents=True)
    assert schema_main([str(tmp_path)]) == 0
    assert stale_editor_schema(tmp_path, load_rules_index(index)) is None
    text = index.read_text(encoding="utf-8")
    anchor = "  - id: turn.play-card\n"
    added = "  - id: turn.new-rule\n    kind: rule\n    section: A turn\n    title: New\n"
    added += "    applies: both\n    text: A new rule.\n\n"
    index.write_text(text.replace(anchor, added + anchor, 1), encoding="utf-8")
    assert stale_editor_schema(tmp_path, load_rules_index(index)) == (
        f"{EDITOR_SCHEMA}: out of date with the cards, rules/index.yaml or the misreadings;"
        " run make schema (python -m oracle.casefile.schema) and commit it"
    )


def test_check_writes_nothing_and_says_in_one_line_when_the_schema_is_stale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m oracle.casefile.schema --check`` (the pre-commit hook) exits 0 on a current
    schema and 1 on a stale or missing one, with one line, leaving the file as it was."""
    (tmp_path / "rules").mkdir()
    shutil.copy(FIXTURE / "rules" / "index.yaml", tmp_path / "rules" / "index.yaml")
    schema = tmp_path / EDITOR_SCHEMA
    schema.parent.mkdir(parents=True)
    assert schema_main([str(tmp_path), "--check"]) == 1
    assert not schema.exists()
    assert schema_main([str(tmp_path)]) == 0
    capsys.readouterr()
    assert schema_main(["--check", str(tmp_path)]) == 0
    assert capsys.readouterr() == ("", "")
    schema.write_text("{}\n", encoding="utf-8")
    assert schema_main([str(tmp_path), "--check"]) == 1
    assert schema.read_text(encoding="utf-8") == "{}\n"
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert error.startswith(f"{EDITOR_SCHEMA}: out of date")


def test_every_case_of_the_catalogue_fits_it(validator: jsonschema.Draft7Validator) -> None:
    for path in case_files(FIXTURE / "cases"):
        errors = [error.message for error in validator.iter_errors(read_yaml(path).data)]
        assert not errors, (path, errors[:3])


def case(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": "x",
        "situation": "S",
        "why": "W",
        "variant": "base",
        "rules": ["claim.hand-is-no-proof"],
        "position": {"stones": [{"stone": 2, "you": ["red 5", "Red  6", "red 7"]}]},
        "claims": [{"stone": 2, "expect": "refused"}],
    }
    data.update(changes)
    return data


@pytest.mark.parametrize(
    "changes",
    [
        {"position": {"stones": [{"stone": 2, "you": ["rde 5"]}]}},
        {"position": {"stones": [{"stone": 2, "you": ["red 0"]}]}},
        {"position": {"stones": [{"stone": 2, "you": ["red 10"]}]}},
        {"position": {"stones": [{"stone": 2, "you": ["jocker"]}]}},
        {"rules": ["claim.hand-is-no-prof"]},
        {"guards_against": ["hand-is-prof"]},
    ],
    ids=["misspelt-colour", "value-0", "value-10", "misspelt-tactic", "rule-id", "misreading"],
)
def test_what_editors_get_wrong_most_is_underlined(
    validator: jsonschema.Draft7Validator, changes: dict[str, Any]
) -> None:
    assert validator.is_valid(case())
    assert not validator.is_valid(case(**changes))
