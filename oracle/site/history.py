"""What changed and since when: the history of the rules index, by date, and for each case the
date since which its answer stands (the last ruling change that moved it, or the day its file
was added, which git knows when the site is built from a clone)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path

from oracle.casefile.model import Case, RuleChange, RuleEntry, RulesIndex
from oracle.casefile.vocabulary import CASES_DIR
from oracle.site.casepages import Since


def files_added(root: Path) -> dict[Path, str]:
    """The day each case file was added, by its path, from the project's git history (empty
    when the project is no git checkout, or git is missing: the site then says less)."""
    git = shutil.which("git")
    if git is None or not (root / ".git").exists():
        return {}
    try:
        done = subprocess.run(
            [
                git,
                "-C",
                str(root),
                "log",
                "--diff-filter=A",
                "--format=%x00%cs",
                "--name-only",
                "--",
                CASES_DIR,
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return {}
    if done.returncode != 0:
        return {}
    added: dict[Path, str] = {}
    for block in done.stdout.split("\0")[1:]:
        date, _, names = block.partition("\n")
        for name in names.split("\n"):
            if name.strip():
                added.setdefault((root / name.strip()).resolve(), date.strip())  # oldest wins
    return added


def answer_since(case: Case, rules: RulesIndex, added: Mapping[Path, str]) -> Since | None:
    """The last change of a rule the case pins that moved its answer, or else the day its file
    was added; None when neither is known."""
    moves = [
        (step, entry)
        for entry in rules.entries
        if entry.id in case.rules
        for step in entry.history
        if case.id in step.moved
    ]
    if moves:
        step, entry = max(moves, key=lambda move: move[0].date)
        kind = "ruling" if entry.is_ruling else "rule"
        done = "was added" if step.change == "added" else "changed"
        return Since(step.date, f"when the {kind} “{entry.title}” {done}")
    day = added.get(case.path.resolve())
    return None if day is None else Since(day, "when the case was added")


def changes_by_date(rules: RulesIndex) -> list[tuple[str, list[tuple[RuleEntry, RuleChange]]]]:
    """Every step of every entry's history, grouped by date, newest first."""
    by_date: dict[str, list[tuple[RuleEntry, RuleChange]]] = {}
    for entry in rules.entries:
        for step in entry.history:
            by_date.setdefault(step.date, []).append((entry, step))
    return sorted(by_date.items(), key=lambda item: item[0], reverse=True)


def moved_cases(step: RuleChange, cases: Iterable[Case]) -> list[tuple[str, Case | None]]:
    """The cases a change moved, each with the published case of that id (None: none now)."""
    by_id = {case.id: case for case in cases}
    return [(case_id, by_id.get(case_id)) for case_id in step.moved]
