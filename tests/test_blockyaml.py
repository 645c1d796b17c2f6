"""The browser's line-at-a-time reader of plain block YAML (:mod:`oracle.casefile.blockyaml`)
gives the very node tree PyYAML composes, or leaves the text to PyYAML: on the fixture
catalogue's files, on the boards the Ask page writes from them, on boards of any words, and on
all of these mangled; and the loader reads every one of them the same with it as without it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import FIXTURE, examples
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import CARDS, Tactic, card_name
from oracle.browser.forms import form_case_text, form_of
from oracle.browser.pages import Session
from oracle.casefile import source
from oracle.casefile.blockyaml import block_node_tree
from oracle.casefile.errors import CaseError
from oracle.casefile.loader import load_case_text
from oracle.casefile.rules import load_rules_index
from oracle.verify.report import CaseReport

RULES = load_rules_index(FIXTURE / "rules" / "index.yaml")
SESSION = Session(RULES)
PATH = Path("asked") / "your-case.yaml"


def shape(node: yaml.Node) -> Any:
    """Everything of a node tree the loader can see: kinds, tags, values, styles, start marks."""
    where = (node.start_mark.line, node.start_mark.column, node.start_mark.index)
    if isinstance(node, yaml.ScalarNode):
        return ("scalar", node.tag, node.value, node.style, where)
    if isinstance(node, yaml.SequenceNode):
        return ("list", node.tag, node.flow_style, where, [shape(item) for item in node.value])
    assert isinstance(node, yaml.MappingNode)
    pairs = [(shape(key), shape(value)) for key, value in node.value]
    return ("mapping", node.tag, node.flow_style, where, pairs)


def pyyaml_shape(text: str) -> Any:
    """What PyYAML (without libyaml, as in the browser) composes, or the error's kind."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as error:
        return type(error).__name__
    return None if node is None else shape(node)


def read_as_pyyaml(text: str) -> bool:
    """Whether the block reader read ``text`` (checked: as PyYAML does), or left it alone."""
    node = block_node_tree(text)
    if node is None:
        return False
    assert shape(node) == pyyaml_shape(text), text
    return True


def loaded(text: str, block: bool) -> Any:
    """The case the loader reads from ``text``, or its one-line error, with or without the
    block reader."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(source, "BLOCK_READER", block)
        try:
            return load_case_text(text, PATH, RULES)
        except CaseError as error:
            return ("error", error.line, error.problem, [other.located for other in error.others])


def texts_of(report: CaseReport) -> list[str]:
    """A fixture case's file, its board as the page writes it, and the finished case file."""
    form = form_of(report.case)
    answer = SESSION.ask_form({"form": form})
    return [report.case.text, form_case_text(form)[0], answer["case_text"]]


def test_the_catalogues_files_and_the_boards_they_make_read_as_pyyaml_reads_them(
    published: tuple[CaseReport, ...],
) -> None:
    boards = 0
    for report in published:
        if report.case.impossible is not None:
            continue
        file, board, finished = texts_of(report)
        read_as_pyyaml(file)  # a file with a comment among its keys, say, is PyYAML's
        assert read_as_pyyaml(board) and read_as_pyyaml(finished), report.case.id
        boards += 1
    assert boards >= 20


PLAIN = st.text("abcdefghijklmnopqrstuvwxyzAB0123456789 ,.;()'-/", max_size=40).filter(
    lambda words: not words.startswith("-")
)
"""Words as readers mostly type them, which the page writes plain. (A value the page writes
plain beginning with a hyphen, such as ``-;``, is left to PyYAML by the block reader, which
takes a hyphen first for a list's item: :data:`WORDS` holds them, and the tests of any board
check that the loader reads them alike either way.)"""
WORDS = (
    PLAIN
    | PLAIN
    | st.text(st.characters(codec="utf-8"), max_size=30)
    | st.sampled_from(
        [
            "",
            "yes",
            "123",
            "a: b",
            "# no",
            "x #y",
            '"q"',
            "'s'",
            "é",
            "- a",
            "[a]",
            "a,b",
            "1_0",
            "-;",
            "-1 a",
        ]
    )
)
CARD_WORDS = st.sampled_from([card_name(card) for card in CARDS] + [t.name for t in Tactic])


def forms(words: st.SearchStrategy[str]) -> st.SearchStrategy[dict[str, Any]]:
    """Boards of the page, with ``words`` in the boxes besides the cards' names."""
    box = st.lists(CARD_WORDS | words, max_size=4).map(", ".join)
    stone = st.fixed_dictionaries(
        {
            "you": box,
            "them": box,
            "completed_first": st.sampled_from(["", "you", "them"]) | words,
            "claimed_by": st.sampled_from(["", "", "you"]) | words,
            "modes": st.lists(st.sampled_from(["fog", "mud"]) | words, max_size=2),
            "claim": st.booleans(),
        }
    )
    return st.fixed_dictionaries(
        {
            "situation": words,
            "why": words,
            "variant": st.sampled_from(["base", "tactics"]) | words,
            "stones": st.lists(stone | st.just({}) | st.just({}), min_size=9, max_size=9),
            "hand": box,
            "discards": box,
            "jokers_played": st.lists(st.sampled_from(["you", "them"]) | words, max_size=2),
        }
    )


@settings(max_examples=examples(400))
@given(form=forms(PLAIN))
def test_a_board_of_plain_words_is_read_here_as_pyyaml_reads_it_and_loads_the_same(
    form: dict[str, Any],
) -> None:
    text, _ = form_case_text(form)
    assert read_as_pyyaml(text), text
    assert loaded(text, True) == loaded(text, False)


@settings(max_examples=examples(400))
@given(form=forms(WORDS))
def test_any_board_of_the_page_reads_as_pyyaml_reads_it_and_loads_the_same(
    form: dict[str, Any],
) -> None:
    text, _ = form_case_text(form)
    read_as_pyyaml(text)
    assert loaded(text, True) == loaded(text, False)


MANGLING = st.sampled_from(
    [*" \n-:#[]{},'\"\\>|&*!%?.0aé\t\r/", "\\u00e9", "\\ud83d", ">-", "\n  ", "- ", ": "]
) | st.characters(codec="utf-8")


@pytest.fixture(scope="module")
def finished(published: tuple[CaseReport, ...]) -> list[str]:
    """The finished case files the page writes for the fixture catalogue's boards."""
    return [texts_of(report)[2] for report in published if report.case.impossible is None]


@settings(max_examples=examples(1200))
@given(data=st.data())
def test_a_mangled_board_reads_as_pyyaml_reads_it_or_is_left_to_pyyaml(
    data: st.DataObject, finished: list[str]
) -> None:
    # A board of any words one time in len(finished) + 1, as often as each finished file; its
    # form is drawn only then (nine stones' boxes cost more to draw than the rest of a check).
    chosen = data.draw(st.integers(0, len(finished)))
    text = finished[chosen - 1] if chosen else form_case_text(data.draw(forms(WORDS)))[0]
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 3))
        text = text[:at] + "".join(data.draw(st.lists(MANGLING, max_size=3))) + text[at + cut :]
    read_as_pyyaml(text)
    assert loaded(text, True) == loaded(text, False)


@pytest.mark.parametrize(
    "text",
    [
        "id: a\nwhy: >-\n  one\n  two\n",  # folded, on two lines
        'id: a\nl:\n  - [x, "y\\u00e9\\n"]\n  - 3\n',  # a list of a flow list and a number
        "# a comment\nk:\n  - a: 1\n    b: true\n  - a: null\n",  # mappings in a list
        'k: "tab\\tquote\\"back\\\\"\n',  # JSON's escapes
        "k: /a, b [c] d?e 'f' \"g\" &h *i\n",  # indicators inside a plain value in a block
        "k: [a'b, c\"d, e&f, ~, 1_0]\n",
    ],
)
def test_the_forms_the_page_writes_are_read_here(text: str) -> None:
    assert read_as_pyyaml(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "# only a comment\n",
        "k: v\n\nl: w\n",  # a blank line
        "k: v\n  w\n",  # a plain value on two lines
        "k:\n- a\n",  # a list as deep as its key
        "k: [a,b]\n",
        "k: [a , b]\n",
        "k: [a?b]\n",  # a ? ends a plain value in brackets
        "k: [a{b]\n",
        "k: [-a]\n",
        "k: ?a\n",
        "k: 'single'\n",
        "k: &a v\n",
        "k: v # comment\n",
        "k: >-\n  a\n\n  b\n",
        "k: >-\n  a\n    b\n",
        "k: >-\nl: v\n",  # an empty folded value, then a key
        "k:\n  - >-\n  a\n",  # a folded item's lines no deeper than its dash
        "k: >\n  a\n",
        'k: "\\ud83d\\ude00"\n',  # a surrogate pair: JSON would pair it, YAML does not
        'k: "\\x41"\n',
        "k:\n",
        "k: v\n l: w\n",
        "- a\n",
        "k: {a: 1}\n",
        "k: v\r\n",
        "k:\tv\n",
        "k: a\tb\n",
        "k: [a\tb]\n",
        "\ufeffk: v\n",
        "k:v\n",
        "k: v\n# a comment after a key\n",
    ],
)
def test_anything_else_is_left_to_pyyaml(text: str) -> None:
    assert block_node_tree(text) is None
