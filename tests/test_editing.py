"""How ``pin`` and the page's case writer write a text value as a YAML scalar."""

from __future__ import annotations

import yaml
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle.casefile.editing import _PLAIN_WORDS, _YAML_WORDS, edited_text, yaml_scalar


@settings(max_examples=examples(400))
@given(st.from_regex(_PLAIN_WORDS, fullmatch=True))
def test_the_quick_plain_check_only_passes_text_yaml_reads_back(value: str) -> None:
    """The shortcut that spares the YAML parser is never wrong: what it lets through plain,
    YAML reads back as the same text."""
    if value.lower() in _YAML_WORDS:
        return
    assert yaml.safe_load(f"key: {yaml_scalar(value)}\n") == {"key": value}
    assert yaml_scalar(value) == value


PRINTABLE = st.characters(blacklist_categories=("Cc", "Cs", "Cf", "Zl", "Zp", "Co", "Cn"))
"""Text an editor can type: no control characters or line separators (the loader refuses them)."""


@settings(max_examples=examples(300))
@given(st.text(alphabet=PRINTABLE, max_size=40))
def test_every_text_is_written_as_ayaml_scalar_that_reads_back(value: str) -> None:
    written = yaml_scalar(value)
    assert yaml.safe_load(f"key: {written}\n") == {"key": value}


def test_yaml_words_and_risky_text_are_quoted() -> None:
    for value in ("yes", "No", "off", "null", "a: b", "# note", "'quoted'", "7", "x #y", " lead"):
        assert yaml_scalar(value).startswith('"'), value


def test_a_long_list_inserted_goes_below_its_key_an_item_a_line() -> None:
    """The answers a history step names can be dozens: never one line of thousands."""
    text = "rules:\n  - id: a\n    history:\n      - date: x\n"
    answers = [
        {"case": f"case-{n}", "question": "claims.5", "then": "granted", "now": "refused"}
        for n in range(30)
    ]
    written = edited_text(text, [(("rules", 0, "history", 0, "answers"), answers)])
    lines = written.splitlines()
    assert lines[4] == "        answers:"
    assert lines[5].startswith("          - {case: case-0, question: claims.5")
    assert len(lines) == 5 + 30 and max(map(len, lines)) < 100
    short = edited_text(text, [(("rules", 0, "history", 0, "moved"), ["a", "b"])])
    assert "        moved: [a, b]\n" in short
