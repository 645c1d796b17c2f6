"""The compiled schema check (fastjsonschema) against jsonschema, the judge: the loader lets a
document skip jsonschema's walk when the compiled check says it fits, so the two must agree on
every document, the fixture catalogues' files and those files broken in every way an editor
could break them (a key dropped or added, a value of another kind, a list cut short, grown
or overgrown)."""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle.casefile.questions import case_validator
from oracle.casefile.source import read_yaml
from oracle.casefile.validation import (
    SchemaCheck,
    _validator,
    fits_where_changed,
    inlined,
    load_schema,
)

TESTS = Path(__file__).parent
CASE_FILES = tuple(
    sorted(
        path
        for folder in ("catalogue", "look", "rulings")
        for path in (TESTS / folder / "cases").rglob("*.yaml")
    )
)
RULES_FILES = tuple(sorted((TESTS / "look" / "rules").glob("*.yaml")))
STAND_INS: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    -1,
    10,
    1.5,
    "",
    "x",
    "x" * 5000,
    "red 1",
    "red 10",
    "claim nothing",
    [],
    ["red 1"],
    [1, 2],
    {},
    {"stone": 1},
    {"unknown": 1},
)
"""Values put where another was: of every kind, some near what case files hold."""


@cache
def _documents(paths: tuple[Path, ...]) -> list[Any]:
    return [read_yaml(path).data for path in paths]


def _agree(check: SchemaCheck, data: Any) -> None:
    walked = list(check.validator.iter_errors(data))
    assert check.fits(data) == (not walked), [error.message for error in walked]


def test_the_fixture_catalogues_cases_fit_both_ways() -> None:
    assert len(CASE_FILES) > 40
    for data in _documents(CASE_FILES):
        assert case_validator().fits(data)
        _agree(case_validator(), data)


def test_compiling_a_check_leaves_its_schema_as_it_was() -> None:
    schema = inlined(copy.deepcopy(load_schema("case.base")))  # none compiled from it yet
    kept = copy.deepcopy(schema)
    SchemaCheck(schema)
    assert schema == kept


def test_the_fixture_rules_indexes_fit_both_ways() -> None:
    assert RULES_FILES
    for data in _documents(RULES_FILES):
        _agree(_validator("rules"), data)


def _places(node: Any, where: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a document: each mapping's and list's own place and their items'."""
    places = [where]
    items: Any = node.items() if isinstance(node, dict) else ()
    if isinstance(node, list):
        items = enumerate(node)
    for key, value in items:
        places += _places(value, (*where, key))
    return places


def _at(document: Any, where: tuple[Any, ...]) -> Any:
    for part in where:
        document = document[part]
    return document


def _edits(node: Any) -> list[Any]:
    """What an editor's slip could put in ``node``'s place: a mapping without one of its keys,
    with one of them empty or with a key too many; a list emptied, cut short, grown or
    overgrown; anything replaced by a value of another kind."""
    edits: list[Any] = []
    if isinstance(node, dict):
        edits += [{k: v for k, v in node.items() if k != key} for key in node]
        edits += [{**node, key: None} for key in node]
        edits += [{**node, "extra": 1}]
    elif isinstance(node, list):
        edits += [[], [*node, *node[:1] * 60], [*node, *node[:1]], [*node, "red 1"], node[1:]]
    if isinstance(node, (dict, list)):
        return [*edits, None, "x"]
    return [stand_in for stand_in in STAND_INS if stand_in != node]


def _put(document: Any, where: tuple[Any, ...], edit: Any) -> Any:
    """A copy of ``document`` with ``edit`` in the place ``where``."""
    if not where:
        return copy.deepcopy(edit)
    broken = copy.deepcopy(document)
    _at(broken, where[:-1])[where[-1]] = copy.deepcopy(edit)
    return broken


def _broken(document: Any, draw: st.DataObject) -> Any:
    """``document`` with one slip at one place (a mapping or a list half the time, while the
    document, perhaps replaced whole by an earlier slip, has one)."""
    places = _places(document)
    containers = [place for place in places if isinstance(_at(document, place), (dict, list))]
    into_a_container = draw.draw(st.booleans())
    where = draw.draw(st.sampled_from(containers if containers and into_a_container else places))
    return _put(document, where, draw.draw(st.sampled_from(_edits(_at(document, where)))))


@settings(max_examples=examples(400))
@given(st.data())
def test_a_case_broken_anywhere_is_judged_alike_both_ways(data: st.DataObject) -> None:
    document = data.draw(st.sampled_from(_documents(CASE_FILES)))
    for _ in range(data.draw(st.integers(1, 3))):
        document = _broken(document, data)
    _agree(case_validator(), document)


def _changed_keys(before: dict[str, Any], after: Any) -> set[str]:
    """The top-level keys whose values differ (or that one of the two lacks)."""
    if not isinstance(after, dict):
        return set(before)
    missing = object()
    return {k for k in {*before, *after} if before.get(k, missing) != after.get(k, missing)}


@settings(max_examples=examples(400))
@given(st.data())
def test_a_case_changed_in_some_top_level_values_is_judged_by_those_as_by_the_whole(
    data: st.DataObject,
) -> None:
    """What the Ask page's finished case relies on: a case that fits, with some of its
    top-level values changed (set, removed, broken), fits exactly when those values fit."""
    check = case_validator()
    before = data.draw(st.sampled_from(_documents(CASE_FILES)))
    assert check.validator.is_valid(before)
    after = before
    for _ in range(data.draw(st.integers(1, 3))):
        after = _broken(after, data)
    changed = _changed_keys(before, after)
    assert fits_where_changed(check, after, changed) == check.validator.is_valid(after)


@pytest.mark.parametrize("drop", ["draft", "claims"])
def test_a_case_no_longer_a_draft_is_held_to_what_a_published_one_gives(drop: str) -> None:
    """Without draft: true, each claim needs its expect (the schema's then), though the
    claims themselves did not change."""
    check = case_validator()
    document = {
        "id": "a-draft",
        "situation": "s",
        "why": "w",
        "variant": "base",
        "draft": True,
        "claims": [{"stone": 1}],
    }
    assert fits_where_changed(check, document, ("claims",))
    published = {key: value for key, value in document.items() if key != "draft"}
    assert not fits_where_changed(check, published, ("draft",))
    assert not check.validator.is_valid(published)
    fewer = {key: value for key, value in document.items() if key != drop}
    assert fits_where_changed(check, fewer, (drop,)) == check.validator.is_valid(fewer)


@settings(max_examples=examples(80))
@given(st.data())
def test_a_rules_index_broken_anywhere_is_judged_alike_both_ways(data: st.DataObject) -> None:
    document = data.draw(st.sampled_from(_documents(RULES_FILES)))
    _agree(_validator("rules"), _broken(document, data))


@pytest.mark.parametrize("document", [None, [], "text", 1, {}])
def test_a_document_that_is_no_case_at_all_is_refused_both_ways(document: Any) -> None:
    assert not case_validator().fits(document)
    _agree(case_validator(), document)


def _every_slip(document: Any) -> list[Any]:
    """``document`` with each slip of :func:`_edits` at each place, one at a time."""
    return [
        _put(document, where, edit)
        for where in _places(document)
        for edit in _edits(_at(document, where))
    ]


@pytest.mark.slow
@pytest.mark.parametrize("path", CASE_FILES, ids=lambda path: path.stem)
def test_every_slip_in_every_fixture_case_is_judged_alike_both_ways(path: Path) -> None:
    for broken in _every_slip(_documents((path,))[0]):
        _agree(case_validator(), broken)


def test_without_compiled_code_the_check_finds_the_same_problems() -> None:
    compiled = case_validator()
    walked = SchemaCheck(compiled.schema, compiled=False)
    slipped = _every_slip(_documents(CASE_FILES)[0])
    assert any(not compiled.fits(document) for document in slipped)
    for document in slipped[:: max(1, len(slipped) // 60)]:
        assert walked.fits(document) == compiled.fits(document)
        shown = [error.message for error in walked.errors(document)]
        assert shown == [error.message for error in compiled.errors(document)]
