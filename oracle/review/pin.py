"""``schotten-oracle pin``: after review, the engine's answers written into the case files that
drifted, value by value, and the prose confirmed for them when the editor says so. The one
command that edits an editor's files, and only when asked."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oracle.casefile.editing import (
    EditError,
    as_lf,
    edited_text,
    fitted_scalar,
    keyed,
    line_ending,
    with_ending,
)
from oracle.casefile.loader import load_case_text
from oracle.casefile.model import RulesIndex
from oracle.casefile.questions import answers_fingerprint
from oracle.casefile.source import DataPath, SourceError, loaded_yaml, parse_yaml, shown_path
from oracle.outputs import replace_whole
from oracle.review.drift import DriftedCase, file_digest
from oracle.verify.replay import verify_case

AFTER = {"reviewed": "why", "rule": "expect"}
"""Where pin writes a key a file does not have yet: ``reviewed`` beside the prose it confirms,
the ``rule`` a refused move breaks under its ``expect``."""


class PinRefused(Exception):
    """Pinning cannot go on; one line says why, and no file was written."""


class CannotPin(Exception):
    """One case file cannot be re-pinned in place (the others still can); one line says why."""


@dataclass(frozen=True)
class Repinned:
    """One case file as ``pin`` would leave it."""

    path: Path
    before: str
    after: str

    def diff(self, root: Path) -> list[str]:
        """The change as a unified diff, paths shown from ``root``."""
        shown = shown_path(self.path, root)
        return list(
            difflib.unified_diff(
                self.before.splitlines(keepends=True),
                self.after.splitlines(keepends=True),
                f"a/{shown}",
                f"b/{shown}",
            )
        )


def repinned(
    drifted: DriftedCase,
    root: Path,
    rules: RulesIndex | None,
    *,
    reviewed: bool = False,
    digest: str | None = None,
    fill: bool = False,
) -> Repinned:
    """The file of ``drifted`` with the engine's answers pinned (and, with ``reviewed``, its
    prose confirmed for them; with ``fill``, a draft's open answers written where it has none);
    refused if the file changed since ``digest``, if an answer cannot be written in place, or
    if the file would still not verify."""
    case = drifted.report.case
    shown = shown_path(case.path, root)
    if digest is not None and file_digest(case.path) != digest:
        raise PinRefused(f"{shown}: changed since the drift report; make the report again")
    with case.path.open(encoding="utf-8", newline="") as stream:
        written = stream.read()
    ending = line_ending(written)
    before = as_lf(written, ending)
    document = parse_yaml(before, case.path)
    changes = _changes(drifted, document.data, shown, fill)
    if changes and not reviewed and not fill and case.reviewed is None:
        # The prose was written for the answers before: say so, so that it waits for review.
        changes.append((("reviewed",), answers_fingerprint(document, rules)))
    try:
        after = _edited(before, changes, fill)
        if reviewed:
            fingerprint = answers_fingerprint(parse_yaml(after, case.path), rules)
            after = edited_text(after, [(("reviewed",), fingerprint)], after=AFTER)
    except (EditError, SourceError) as error:
        raise CannotPin(f"{shown}: cannot be re-pinned in place: {error}") from None
    _still_verifies(after, case.path, rules, shown)
    # Written with the file's own line endings, as everything else of it is kept.
    return Repinned(case.path, written, with_ending(after, ending))


def _changes(
    drifted: DriftedCase, data: dict[str, Any], shown: str, fill: bool
) -> list[tuple[DataPath, Any]]:
    """The values pin writes: each answer's, once, where the file pins it (with ``fill``, also
    where a draft leaves it open)."""
    changes: list[tuple[DataPath, Any]] = []
    for answer in drifted.answers:
        if not answer.repin:
            raise CannotPin(
                f"{shown}:{answer.line}: {answer.question}: pin cannot write this answer"
                f" ({answer.now}); edit the case by hand"
            )
        changes += answer.repin
    unique = dict(changes)  # a claim's verdict and reason carry the same values
    if fill:
        return _grouped(data, list(unique.items()))
    return [change for change in unique.items() if _belongs(data, *change)]


def _edited(before: str, changes: list[tuple[DataPath, Any]], fill: bool) -> str:
    """``before`` with ``changes`` written, in the order case files give them (a draft's
    mapping it lacked laid out as a block)."""
    after = before
    for group in _in_order(changes):
        after = edited_text(after, group, after=AFTER) if group else after
    for where, value in changes if fill else ():
        after = _as_block(after, where, value)
    return after


def _belongs(data: dict[str, Any], where: DataPath, value: Any) -> bool:
    """Whether pin writes this value: one the file pins already, the reason of a claim or a
    refused move, which every published one must pin, or the rule a refused move breaks."""
    node: Any = data
    for part in where[:-1]:
        node = node[part]
    return where[-1] in node or (where[-1] in ("because", "rule") and value is not None)


def _grouped(
    data: dict[str, Any], changes: list[tuple[DataPath, Any]]
) -> list[tuple[DataPath, Any]]:
    """``changes`` with those whose mapping the file does not have yet (a draft's ``turn``
    without ``expect:``) written as that one mapping."""
    kept: list[tuple[DataPath, Any]] = []
    missing: dict[DataPath, dict[str, Any]] = {}
    for where, value in changes:
        node: Any = data
        for part in where[:-1]:
            if isinstance(node, list) and isinstance(part, int) and part < len(node):
                node = node[part]
            else:
                node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, dict):
            kept.append((where, value))
        elif value is not None:
            missing.setdefault(where[:-1], {})[str(where[-1])] = value
    return kept + list(missing.items())


def _in_order(changes: list[tuple[DataPath, Any]]) -> list[list[tuple[DataPath, Any]]]:
    """Answers in the passes that write them in the order case files give them: each
    question's ``expect``, then the ``rule`` a refusal names, then its ``because``, then the
    rest (each pass writes after the keys already there)."""
    order = ("expect", "rule", "because")
    passes: list[list[tuple[DataPath, Any]]] = [[] for _ in range(len(order) + 1)]
    for where, value in changes:
        key = str(where[-1])
        passes[order.index(key) if key in order else len(order)].append((where, value))
    return passes


def _as_block(text: str, where: DataPath, value: Any) -> str:
    """A mapping pin wrote on one line in flow style (a draft's ``expect:``), laid out as a
    block instead, as case files are written; the text as it was if it would read otherwise."""
    if not isinstance(value, dict):
        return text
    written = f"{where[-1]}: {fitted_scalar(value, 0, 0)}\n"
    for line in text.splitlines(keepends=True):
        if line.lstrip(" ") != written:
            continue
        indent = len(line) - len(written)
        rows = (
            keyed(key, fitted_scalar(item, indent + 2, len(str(key)) + 2))
            for key, item in value.items()
        )
        block = "".join(" " * (indent + 2) + row + "\n" for row in rows)
        candidate = text.replace(line, f"{' ' * indent}{where[-1]}:\n{block}", 1)
        return candidate if loaded_yaml(candidate) == loaded_yaml(text) else text
    return text


def _still_verifies(text: str, path: Path, rules: RulesIndex | None, shown: str) -> None:
    try:
        report = verify_case(load_case_text(text, path, rules))
    except SourceError as error:
        raise CannotPin(f"{shown}: re-pinned, it would not load: {error}") from None
    if not report.verified:
        problem = report.problems()[0] if report.problems() else "it does not verify"
        raise CannotPin(f"{shown}: re-pinned, it would still not verify: {problem}")


def write_repinned(changed: Sequence[Repinned]) -> None:
    """Write every re-pinned file, each replaced whole at once (an interrupted pin leaves
    each file as it was or as pinned, never half written)."""
    for repin in changed:
        replace_whole(repin.path, repin.after)
