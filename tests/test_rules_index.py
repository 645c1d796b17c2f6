"""The rules index is read with the care a case file is: each history date is a real day and not
in the future, and the index has a bound of its own, named in its own words."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

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
