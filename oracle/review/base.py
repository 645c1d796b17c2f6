"""The published catalogue of an earlier version, and what changed since: answers that moved,
cases added, removed and renamed. The earlier version is a git revision (exported with its own
code, in a scratch copy) or an export file made from it."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oracle.casefile.source import SourceError, read_text
from oracle.catalogue import Catalogue
from oracle.conformance.export import catalogue_records, read_export

MAX_BASE_EXPORT_BYTES = 64 * 1024 * 1024
"""The largest export file ``--base`` reads."""

EXPORT_SECONDS = 600
"""How long an earlier version has to export its catalogue."""


class BaseUnavailable(Exception):
    """The earlier version cannot be read; one line says why."""


@dataclass(frozen=True)
class Changes:
    """What changed between the published catalogue of ``base`` and the catalogue now."""

    base: str
    moved: tuple[tuple[str, str, Any, Any], ...] = ()
    """Each answer that moved: the case id, the question, the answer then and now."""
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    renamed: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = field(default=())
    unreadable: tuple[tuple[str, str], ...] = ()
    """Each case of ``base`` whose file is still there but cannot be read now: its id, and
    where and why (not counted as removed)."""

    def lines(self) -> list[str]:
        """The changes for a terminal."""
        lines = [f"since {self.base}:", *(f"  note: {note}" for note in self.notes)]
        lines += [
            f"  {case_id}, {question}: {_shown(then)} -> {_shown(now)}"
            for case_id, question, then, now in self.moved
        ]
        lines += [f"  added: {case_id}" for case_id in self.added]
        lines += [f"  removed: {case_id}" for case_id in self.removed]
        lines += [f"  cannot be read now: {case_id} ({why})" for case_id, why in self.unreadable]
        lines += [f"  renamed: {old} -> {new}" for old, new in self.renamed]
        counts = (
            f"{len(self.moved)} answers moved, {len(self.added)} cases added,"
            f" {len(self.removed)} removed, {len(self.renamed)} renamed"
        )
        if self.unreadable:
            counts += f", {len(self.unreadable)} cannot be read now"
        return [*lines, f"  {counts}"]

    def data(self) -> dict[str, Any]:
        """The changes for a JSON report."""
        return {
            "base": self.base,
            "notes": list(self.notes),
            "moved": [
                {"id": case_id, "question": question, "then": then, "now": now}
                for case_id, question, then, now in self.moved
            ],
            "added": list(self.added),
            "removed": list(self.removed),
            "renamed": [{"from": old, "to": new} for old, new in self.renamed],
            "unreadable": [{"id": case_id, "why": why} for case_id, why in self.unreadable],
        }


def _shown(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def current_records(catalogue: Catalogue) -> list[dict[str, Any]]:
    """The catalogue as it would be published with the engine's answers now: every case that
    is no draft and that the engine can judge, drifted or not."""
    reports = [
        report
        for report in catalogue.reports
        if not report.case.draft and report.engine_error is None
    ]
    return catalogue_records(reports, {})


def compare(
    base: str,
    then: Sequence[dict[str, Any]],
    now: Sequence[dict[str, Any]],
    notes: Sequence[str] = (),
    unreadable: Sequence[tuple[str, str]] = (),
) -> Changes:
    """The answers moved between two exports' records, and the cases added, removed, renamed
    (a case gone under one id and come under another with the same request); ``notes`` say
    how the earlier records were read; ``unreadable`` names the cases (id, where and why)
    whose files are there but cannot be read now, which are not removed."""
    before = {record["id"]: record for record in then}
    after = {record["id"]: record for record in now}
    unread = [(case_id, why) for case_id, why in unreadable if case_id in before]
    unread_ids = {case_id for case_id, _ in unread}
    gone = [case_id for case_id in before if case_id not in after and case_id not in unread_ids]
    new = [case_id for case_id in after if case_id not in before]
    renamed = _renamed(before, after, gone, new)
    moved = []
    pairs = [(i, i) for i in before if i in after] + renamed
    for old, current in pairs:
        for question, was, is_now in _leaves(before[old]["answers"], after[current]["answers"]):
            moved.append((current, question, was, is_now))
    return Changes(
        base, tuple(moved), tuple(new), tuple(gone), tuple(renamed), tuple(notes), tuple(unread)
    )


def _renamed(
    before: dict[str, Any], after: dict[str, Any], gone: list[str], new: list[str]
) -> list[tuple[str, str]]:
    """Each case gone under one id and come under another with the same request, taken out
    of ``gone`` and ``new``."""
    renamed = []
    for old in list(gone):
        match = next((n for n in new if after[n]["request"] == before[old]["request"]), None)
        if match is not None:
            renamed.append((old, match))
            gone.remove(old)
            new.remove(match)
    return renamed


def _leaves(then: Any, now: Any, where: str = "") -> list[tuple[str, Any, Any]]:
    """Each answer that differs, by its question (``claims.3``, ``turn.winner``)."""
    if isinstance(then, dict) and isinstance(now, dict):
        found = []
        for key in dict.fromkeys([*then, *now]):
            name = f"{where}.{key}" if where else str(key)
            found += _leaves(then.get(key), now.get(key), name)
        return found
    lists = isinstance(then, list) and isinstance(now, list) and where != "turn.log"
    if lists and len(then) == len(now):
        return [
            change
            for index, (a, b) in enumerate(zip(then, now, strict=True))
            for change in _leaves(a, b, f"{where}.{index + 1}")
        ]
    return [] if then == now else [(where, then, now)]


def base_records(root: Path, base: str) -> tuple[list[dict[str, Any]], list[str]]:
    """The published records of ``base`` (an export file, or a git revision of the project at
    ``root``), and notes on how they were read."""
    as_file = Path(base)
    if as_file.is_file():
        try:
            return read_export(read_text(as_file, max_bytes=MAX_BASE_EXPORT_BYTES)), []
        except (SourceError, ValueError) as error:
            raise BaseUnavailable(f"{base}: not an export of the catalogue: {error}") from None
    return _revision_records(root, base)


def _git(root: Path, *arguments: str) -> subprocess.CompletedProcess[bytes]:
    git = shutil.which("git")
    if git is None:
        raise BaseUnavailable("git is not installed here; give an export file made from the base")
    return subprocess.run(
        [git, "-C", str(root), *arguments], capture_output=True, timeout=120, check=False
    )


def _revision_records(root: Path, revision: str) -> tuple[list[dict[str, Any]], list[str]]:
    if revision.startswith("-"):
        raise BaseUnavailable(f"{revision!r} is not a revision")
    inside = _git(root, "rev-parse", "--is-inside-work-tree")
    if inside.returncode != 0 or inside.stdout.strip() != b"true":
        raise BaseUnavailable(
            f"{root} is not a git checkout; give an export file made from {revision} instead"
        )
    found = _git(root, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    if found.returncode != 0:
        shallow = _git(root, "rev-parse", "--is-shallow-repository").stdout.strip() == b"true"
        if shallow:
            raise BaseUnavailable(
                f"no revision {revision!r} in this clone, which is shallow: fetch its history"
                " (git fetch --unshallow) or give an export file made from it"
            )
        raise BaseUnavailable(f"no revision {revision!r} in this checkout")
    commit = found.stdout.decode().strip()
    notes = []
    if _git(root, "status", "--porcelain", "--", "cases", "rules", "engine", "oracle").stdout:
        notes.append("the checkout has uncommitted changes: they are compared as they are")
    if _git(root, "symbolic-ref", "--quiet", "HEAD").returncode != 0:
        notes.append("the checkout is on a detached HEAD: compared as it is")
    archive = _git(root, "archive", "--format=tar", commit)
    if archive.returncode != 0:
        raise BaseUnavailable(f"cannot read revision {revision}: {_last_line(archive.stderr)}")
    with tempfile.TemporaryDirectory(prefix="schotten-base-") as scratch:
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as bundle:
            bundle.extractall(scratch, filter="data")
        exported = Path(scratch) / "base-export.json"
        environment = {**os.environ, "PYTHONPATH": scratch}
        command = [sys.executable, "-m", "oracle.cli", "export", "-o", str(exported)]
        try:
            result = subprocess.run(
                command,
                cwd=scratch,
                env=environment,
                capture_output=True,
                timeout=EXPORT_SECONDS,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise BaseUnavailable(
                f"revision {revision} did not export its catalogue within {EXPORT_SECONDS} s"
            ) from None
        if result.returncode != 0 or not exported.is_file():
            raise BaseUnavailable(
                f"revision {revision} cannot export its catalogue: {_last_line(result.stderr)}"
            )
        try:
            return read_export(exported.read_text(encoding="utf-8")), notes
        except ValueError as error:  # a newer catalogue than this code reads
            raise BaseUnavailable(
                f"revision {revision} exports a catalogue this version cannot read ({error});"
                " compare from the newer revision instead"
            ) from None


def _last_line(output: bytes) -> str:
    lines = [line for line in output.decode("utf-8", "replace").splitlines() if line.strip()]
    return lines[-1][:300] if lines else "no reason given"
