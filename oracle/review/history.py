"""History written by the tools: ``schotten-oracle history RULE --base REV`` writes the ``moved``
ids and the ``answers`` (before and after) of a rule's newest history step from the answers that
moved since a base, and ``check --base REV`` refuses answers that moved since the base with no
new history step naming them."""

from __future__ import annotations

import argparse
import difflib
import json
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import yaml

from oracle.casefile.editing import EditError, as_lf, edited_text, line_ending, with_ending
from oracle.casefile.model import RulesIndex
from oracle.casefile.source import SourceError, parse_yaml
from oracle.casefile.vocabulary import RULES_INDEX
from oracle.catalogue import Catalogue, build_catalogue
from oracle.outputs import replace_whole, say_failed
from oracle.review.base import BaseUnavailable, Changes, base_records, compare, current_records
from oracle.review.drift import unreadable_files

Step = tuple[str, str, str]
"""A history step as both versions can name it: the entry's id, its date and its change."""


def changes_since(catalogue: Catalogue, base: str) -> Changes:
    """What moved in the published catalogue since ``base`` (a revision or an export file); a
    case whose file is there but cannot be read now is said so, not counted as removed."""
    then, notes = base_records(catalogue.root, base)
    unread = [
        (file.case_id, f"{file.located(catalogue.root)}: {file.reason}")
        for file in unreadable_files(catalogue)
        if file.case_id is not None
    ]
    return compare(base, then, current_records(catalogue), notes, unread)


def base_steps(root: Path, base: str) -> set[Step] | None:
    """The history steps the rules index of revision ``base`` has (None when ``base`` is no
    revision of this checkout, or its index cannot be read)."""
    try:
        shown = subprocess.run(
            ["git", "-C", str(root), "show", f"{base}:{RULES_INDEX}"],
            capture_output=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if shown.returncode != 0 or base.startswith("-"):
        return None
    try:
        data = yaml.safe_load(shown.stdout.decode("utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError):
        return None
    return {
        (str(entry.get("id")), str(step.get("date")), str(step.get("change")))
        for entry in (data or {}).get("rules", ())
        if isinstance(entry, dict)
        for step in entry.get("history", ()) or ()
        if isinstance(step, dict)
    }


def unrecorded_moves(catalogue: Catalogue, changes: Changes, old: set[Step] | None) -> list[str]:
    """A located line for each case whose answers moved since the base that no history step
    new since then names (any step, when the base's steps are not known)."""
    named = {
        case_id
        for entry in catalogue.rules.entries
        for step in entry.history
        if old is None or (entry.id, step.date, step.change) not in old
        for case_id in step.moved
    }
    by_id = {case.id: case for case in catalogue.collection.cases}
    moved: dict[str, list[str]] = {}
    for case_id, question, then, now in changes.moved:
        moved.setdefault(case_id, []).append(f"{question}: {_text(then)} -> {_text(now)}")
    lines = []
    for case_id, answers in moved.items():
        if case_id in named:
            continue
        case = by_id.get(case_id)
        where = case.named_at(catalogue.root) if case else f"case {case_id!r}"
        rules = ", ".join(case.rules) if case and case.rules else "RULE"
        lines.append(
            f"{where}: its answers moved since {changes.base} ({'; '.join(answers)}), but no"
            f" history step of {RULES_INDEX} added since names it; add a step to the rule that"
            f" moved it ({rules}) and run schotten-oracle history RULE --base {changes.base}"
        )
    return lines


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def history_command(args: argparse.Namespace, find_root: Callable[[Path], Path]) -> int:
    """Write the newest history step of a rule: the cases whose answers moved since the base,
    and each answer before and after. Exit 0 when written, 2 when it cannot be."""
    root = find_root(Path(args.root).resolve())
    catalogue = build_catalogue(root, kept=args.kept)
    if not catalogue.index_readable:
        return say_failed(" history", "the rules index cannot be read; run schotten-oracle check")
    index = _entry_index(catalogue.rules, args.rule)
    if index is None:
        return say_failed(" history", f"no rule or ruling {args.rule!r} in {RULES_INDEX}")
    entry = catalogue.rules.entries[index]
    if not entry.history:
        return say_failed(
            " history",
            f"{RULES_INDEX}:{entry.line}: {args.rule!r} has no history step to write; add one"
            " (date, change, why, source) first",
        )
    try:
        changes = changes_since(catalogue, args.base)
    except BaseUnavailable as error:
        return say_failed(" history", str(error))
    path = root / RULES_INDEX
    before, ending = _read_as_lf(path)
    pinning = {case.id for case in catalogue.collection.cases if args.rule in case.rules}
    moved = [change for change in changes.moved if change[0] in pinning]
    try:
        after = _written(before, path, args.rule, moved)
    except (EditError, SourceError) as error:
        return say_failed(" history", f"{RULES_INDEX}: cannot write the step in place: {error}")
    ids = list(dict.fromkeys(case_id for case_id, *_ in moved))
    if args.dry_run:
        print(_diff(before, after, RULES_INDEX) or "history: nothing would change")
    elif after != before:
        replace_whole(path, with_ending(after, ending))
    for line in changes.lines():
        print(line)
    _say_written(args.rule, entry.history[-1].date, ids, changes, pinning)
    return 0


def _read_as_lf(path: Path) -> tuple[str, str]:
    """The text of ``path`` with its lines ended by LF, and the line ending the file is written
    with (:func:`line_ending`: ``check`` reads CRLF and CR as well)."""
    with path.open(encoding="utf-8", newline="") as stream:
        written = stream.read()
    ending = line_ending(written)
    return as_lf(written, ending), ending


def _say_written(
    rule: str, date: str, ids: Sequence[str], changes: Changes, pinning: set[str]
) -> None:
    """What the step names, and the moved cases left to the steps of the rules they pin."""
    others = sorted({case_id for case_id, *_ in changes.moved} - pinning)
    if others:
        print(
            f"history: {len(others)} moved case{' does' if len(others) == 1 else 's do'} not pin"
            f" {rule!r} and are left to the steps of the rules they pin: {', '.join(others)}"
        )
    print(
        f"history: the {date} step of {rule!r} names {len(ids)} moved case"
        f"{'' if len(ids) == 1 else 's'} in {RULES_INDEX}"
    )


def _diff(before: str, after: str, name: str) -> str:
    """What writing the step changes, as a unified diff (empty when nothing)."""
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), name, name
    )
    return "".join(lines)


def _entry_index(rules: RulesIndex, rule_id: str) -> int | None:
    return next((i for i, entry in enumerate(rules.entries) if entry.id == rule_id), None)


def _written(
    text: str, path: Path, rule_id: str, moved: Sequence[tuple[str, str, Any, Any]]
) -> str:
    """The rules index with the newest step of ``rule_id`` naming the moved cases and answers."""
    data = parse_yaml(text, path).data
    index = next(i for i, raw in enumerate(data["rules"]) if raw.get("id") == rule_id)
    step = len(data["rules"][index]["history"]) - 1
    where = ("rules", index, "history", step)
    ids = list(dict.fromkeys(case_id for case_id, *_ in moved))
    answers = [
        {"case": case_id, "question": question, "then": _text(then), "now": _text(now)}
        for case_id, question, then, now in moved
    ]
    text = edited_text(text, [((*where, "moved"), ids or None)])
    return edited_text(text, [((*where, "answers"), answers or None)], after={"answers": "moved"})
