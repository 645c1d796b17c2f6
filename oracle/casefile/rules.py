"""The rules index: every rule and ruling the engine implements, which cases pin by id."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from oracle.casefile.errors import CaseError
from oracle.casefile.model import RuleChange, RuleEntry, RulesIndex
from oracle.casefile.source import SourceError, read_yaml
from oracle.casefile.validation import schema_problems


def _history(raw: dict[str, Any]) -> tuple[RuleChange, ...]:
    """An entry's history as written, its texts' spaces as one."""
    return tuple(
        RuleChange(
            step["date"],
            step["change"],
            " ".join(step["why"].split()),
            " ".join(step["source"].split()),
            tuple(step.get("moved", ())),
        )
        for step in raw.get("history", ())
    )


def _history_order(raw: dict[str, Any], path: Path, line: int) -> list[CaseError]:
    """A history goes oldest first."""
    dates = [step["date"] for step in raw.get("history", ())]
    if dates == sorted(dates):
        return []
    return [
        CaseError(path, line, f"the history of {raw['id']!r} goes oldest first: {', '.join(dates)}")
    ]


def load_rules_index(path: Path) -> RulesIndex:
    """Read the rules index, or raise :class:`CaseError` with its file and line, carrying every
    problem found (:meth:`SourceError.every`): one per rule at most."""
    texts: list[SourceError] = []
    try:
        document = read_yaml(path, texts=texts)
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
        unpinned = raw.get("unpinned_in")
        if unpinned is not None and raw["applies"] != "both":
            problems.append(
                CaseError(
                    path,
                    document.line_of(("rules", index, "unpinned_in")),
                    f"rule {raw['id']!r} applies to the {raw['applies']} game only, so no"
                    " version is left unpinned: remove unpinned_in",
                )
            )
        problems += _history_order(raw, path, document.line_of(("rules", index)))
        entries.append(
            RuleEntry(
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
                history=_history(raw),
            )
        )
    if problems:
        raise CaseError.of_all(problems)
    return RulesIndex(path, tuple(entries))
