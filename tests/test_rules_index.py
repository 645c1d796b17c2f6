"""The rules index is read with the care a case file is: each history date is a real day and not
in the future, and the index has a bound of its own, named in its own words."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_hostile_text import RULE_FIELDS, Path_
from test_published_results import BAD_TEXT

from oracle.casefile.errors import CaseError
from oracle.casefile.rules import MAX_RULES_INDEX_BYTES, load_rules_index
from oracle.casefile.source import MAX_FILE_BYTES

INDEX = Path(__file__).resolve().parent / "look" / "rules" / "index.yaml"
TODAY = datetime.date(2026, 12, 5)


def _with_date(tmp_path: Path, date: str) -> tuple[Path, int]:
    text = INDEX.read_text("utf-8")
    first = text.rindex("date: ")  # the newest change of its history
    end = text.index("\n", first)
    edited = f'{text[:first]}date: "{date}"{text[end:]}'
    path = tmp_path / "index.yaml"
    path.write_text(edited, encoding="utf-8")
    return path, text[:first].count("\n") + 1


@pytest.mark.parametrize(
    ("date", "why"),
    [
        ("0000-00-00", "'0000-00-00' is not a day of the calendar"),
        ("2026-02-30", "'2026-02-30' is not a day of the calendar"),
        ("2099-01-01", "2099-01-01 is after today (2026-12-05)"),
    ],
)
def test_a_history_date_is_a_real_day_not_in_the_future(
    tmp_path: Path, date: str, why: str
) -> None:
    path, line = _with_date(tmp_path, date)
    with pytest.raises(CaseError) as refused:
        load_rules_index(path, today=TODAY)
    assert str(refused.value) == f"{path}:{line}: {why}" + (
        ": write the day the change was made" if "after" in why else ""
    )


def test_todays_date_is_taken(tmp_path: Path) -> None:
    path, _ = _with_date(tmp_path, TODAY.isoformat())
    assert load_rules_index(path, today=TODAY).entries


def test_the_index_has_its_own_bound_in_its_own_words(tmp_path: Path) -> None:
    assert MAX_RULES_INDEX_BYTES > 4 * MAX_FILE_BYTES
    grown = INDEX.read_text("utf-8") + "# a long comment\n" * (MAX_FILE_BYTES // 16)
    path = tmp_path / "index.yaml"
    path.write_text(grown, encoding="utf-8")
    assert len(grown) > MAX_FILE_BYTES and load_rules_index(path, today=TODAY).entries
    path.write_text("#" * (MAX_RULES_INDEX_BYTES + 1), encoding="utf-8")
    with pytest.raises(CaseError, match="far more than the rules index needs"):
        load_rules_index(path, today=TODAY)


# ----------------------------------------------- text that is not text, in every field (issue 43)


def _every_field_entry() -> tuple[dict[str, Any], dict[Path_, str]]:
    """A ruling with every free-text field of the schema of the rules index filled, each with a
    word of its own to find it by: the schema's fields, so that a new one is covered too."""
    entry: dict[str, Any] = {
        "id": "hostile.every-field",
        "kind": "ruling",
        "applies": "both",
        "unpinned_in": {"variant": "tactics"},
        "history": [
            {
                "date": "2026-12-02",
                "change": "changed",
                "moved": ["incomplete-side"],
                "answers": [{"case": "incomplete-side"}],
            }
        ],
    }
    words: dict[Path_, str] = {}
    for number, (where, _) in enumerate(RULE_FIELDS):
        *parents, name = where[2:]  # below ("rules", "[]")
        place: Any = entry
        for parent in parents:
            place = place[0] if parent == "[]" else place.setdefault(parent, {})
        place[name] = words[where] = f"placeholder{number}x"
    return entry, words


def _index_with(entry: dict[str, Any], index: str) -> str:
    """``index`` (the text of a rules index) with ``entry`` added as its last rule."""
    rule = yaml.safe_dump([entry], sort_keys=False, allow_unicode=True)
    return index + "\n" + "".join(f"  {line}\n" for line in rule.split("\n") if line)


def _quoted(text: str) -> str:
    """``text`` as a YAML double-quoted scalar (JSON's escapes are YAML's)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate can only be written as an escape
        return json.dumps(text)
    return json.dumps(text, ensure_ascii=False)


def test_every_field_of_the_rules_index_is_held_to_the_case_files_rules_for_text(
    tmp_path: Path,
) -> None:
    """Every string field the schema of the rules index has, with each kind of text a case file
    may not hold, is refused by the loader at that field's line in one printable line."""
    entry, words = _every_field_entry()
    assert set(words) == {where for where, _ in RULE_FIELDS} and len(words) >= 9
    path = tmp_path / "index.yaml"
    path.write_text(_index_with(entry, INDEX.read_text("utf-8")), encoding="utf-8")
    assert "hostile.every-field" in {
        rule.id for rule in load_rules_index(path, today=TODAY).entries
    }
    # Each hostile text is tried in an index of that ruling alone: the field is read as it is
    # in the whole index, without reading the whole index again for each of the ~80 tries.
    plain = _index_with(entry, "rules:")
    path.write_text(plain, encoding="utf-8")
    assert [rule.id for rule in load_rules_index(path, today=TODAY).entries] == [
        "hostile.every-field"
    ]
    for where, word in words.items():
        line = plain[: plain.index(word)].count("\n") + 1
        for trick, bad in BAD_TEXT.items():
            path.write_text(plain.replace(word, _quoted(bad)), encoding="utf-8")
            with pytest.raises(CaseError) as refused:
                load_rules_index(path, today=TODAY)
            located = str(refused.value)
            assert located.startswith(f"{path}:{line}: "), (where, trick, located)
            assert located.isprintable() and "\n" not in located, (where, trick)
            assert "U+" in located or "nothing a reader can see" in located, (where, trick)
