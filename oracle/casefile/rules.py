"""The rules index: every rule and ruling the engine implements, which cases pin by id."""

from __future__ import annotations

import datetime
import difflib
from pathlib import Path
from typing import Any

from oracle.casefile.errors import CaseError
from oracle.casefile.model import RuleChange, RuleEntry, RulesIndex
from oracle.casefile.source import LocatedDocument, SourceError, parse_yaml, read_text
from oracle.casefile.validation import schema_problems


def _history(raw: dict[str, Any], document: LocatedDocument, index: int) -> tuple[RuleChange, ...]:
    """An entry's history as written, its texts' spaces as one, with the line of each moved id."""
    return tuple(
        RuleChange(
            step["date"],
            step["change"],
            " ".join(step["why"].split()),
            " ".join(step["source"].split()),
            tuple(step.get("moved", ())),
            tuple(
                document.line_of(("rules", index, "history", number, "moved", place))
                for place in range(len(step.get("moved", ())))
            ),
            tuple(
                (str(a["case"]), str(a["question"]), str(a["then"]), str(a["now"]))
                for a in step.get("answers", ())
            ),
        )
        for number, step in enumerate(raw.get("history", ()))
    )


def unknown_moved(rules: RulesIndex, case_ids: frozenset[str]) -> list[CaseError]:
    """A located error for each id a history's ``moved`` names that no case file has: a
    history names the cases whose answers moved, and a mistyped id would drop one silently."""
    found = []
    for entry in rules.entries:
        for step in entry.history:
            for case_id, line in zip(step.moved, step.moved_lines, strict=False):
                if case_id in case_ids:
                    continue
                close = difflib.get_close_matches(case_id, sorted(case_ids), n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                found.append(
                    CaseError(
                        rules.path,
                        line,
                        f"the history of {entry.id!r} ({step.date}) says the answers of case"
                        f" {case_id!r} moved, but no case file has that id{hint}; write the"
                        " case's id as it is now, or let schotten-oracle history write the list",
                    )
                )
    return found


MAX_RULES_INDEX_BYTES = 1024 * 1024
"""The largest rules index read: today's is about 40 KB, and it grows by a ruling or a history
entry at a time."""


def _history_dates(
    raw: dict[str, Any], document: LocatedDocument, index: int, today: datetime.date
) -> list[CaseError]:
    """Each date of an entry's history is a day of the calendar, and not after ``today``."""
    found: list[CaseError] = []
    for step, change in enumerate(raw.get("history", ())):
        line = document.line_of(("rules", index, "history", step, "date"))
        try:
            day = datetime.date.fromisoformat(change["date"])
        except ValueError:
            found.append(
                CaseError(document.path, line, f"{change['date']!r} is not a day of the calendar")
            )
            continue
        if day > today:
            found.append(
                CaseError(
                    document.path,
                    line,
                    f"{day.isoformat()} is after today ({today.isoformat()}): write the day the"
                    " change was made",
                )
            )
    return found


def _history_order(raw: dict[str, Any], path: Path, line: int) -> list[CaseError]:
    """A history goes oldest first."""
    dates = [step["date"] for step in raw.get("history", ())]
    if dates == sorted(dates):
        return []
    return [
        CaseError(path, line, f"the history of {raw['id']!r} goes oldest first: {', '.join(dates)}")
    ]


def _unpinned_in_problems(
    raw: dict[str, Any], document: LocatedDocument, index: int
) -> list[CaseError]:
    """``unpinned_in`` names a version left unpinned, which only a rule of both versions has."""
    if raw.get("unpinned_in") is None or raw["applies"] == "both":
        return []
    return [
        CaseError(
            document.path,
            document.line_of(("rules", index, "unpinned_in")),
            f"rule {raw['id']!r} applies to the {raw['applies']} game only, so no"
            " version is left unpinned: remove unpinned_in",
        )
    ]


def _entry(raw: dict[str, Any], line: int, document: LocatedDocument, index: int) -> RuleEntry:
    unpinned = raw.get("unpinned_in")
    return RuleEntry(
        id=raw["id"],
        kind=raw["kind"],
        section=raw["section"],
        title=raw["title"].strip(),
        text=raw["text"].strip(),
        reason=raw["reason"].strip() if "reason" in raw else None,
        line=line,
        applies=raw["applies"],
        unpinned_in=(
            None if unpinned is None else (unpinned["variant"], unpinned["because"].strip())
        ),
        history=_history(raw, document, index),
    )


def load_rules_index(path: Path, today: datetime.date | None = None) -> RulesIndex:
    """Read the rules index, or raise :class:`CaseError` with its file and line, carrying every
    problem found (:meth:`SourceError.every`): one per rule at most. A history's dates are real
    days up to ``today`` (the machine's date, unless given)."""
    return rules_index_of_text(rules_index_text(path), path, today)


def rules_index_text(path: Path) -> str:
    """The text of the rules index at ``path``, or :class:`CaseError` saying why it cannot be
    read (as :func:`load_rules_index` would)."""
    try:
        return read_text(path, max_bytes=MAX_RULES_INDEX_BYTES, what="the rules index")
    except SourceError as error:
        raise CaseError(error.path, error.line, error.problem, error.others) from None


def rules_index_of_text(text: str, path: Path, today: datetime.date | None = None) -> RulesIndex:
    """The rules index of ``text``, read from ``path``, as :func:`load_rules_index` reads it."""
    texts: list[SourceError] = []
    try:
        document = parse_yaml(text, path, texts=texts)
    except SourceError as error:
        raise CaseError(error.path, error.line, error.problem, error.others) from None
    found = schema_problems(document, "rules", group=2)
    problems = [*(CaseError(e.path, e.line, e.problem) for e in texts), *found.values()]
    if not (isinstance(document.data, dict) and isinstance(document.data.get("rules"), list)):
        raise CaseError.of_all(problems)  # the file's shape is wrong: nothing more to read
    broken = {place[1] for place in found if len(place) == 2}
    entries: list[RuleEntry] = []
    seen: dict[str, int] = {}
    for index, raw in enumerate(document.data["rules"]):
        if index in broken:
            continue
        line = document.line_of(("rules", index))
        if raw["id"] in seen:
            problems.append(
                CaseError(
                    path,
                    line,
                    f"rule id {raw['id']!r} is used twice (first at line {seen[raw['id']]})",
                )
            )
        seen[raw["id"]] = line
        problems += _unpinned_in_problems(raw, document, index)
        problems += _history_order(raw, path, document.line_of(("rules", index)))
        problems += _history_dates(raw, document, index, today or datetime.date.today())
        entries.append(_entry(raw, line, document, index))
    if problems:
        raise CaseError.of_all(problems)
    return RulesIndex(path, tuple(entries))
