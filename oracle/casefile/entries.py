"""Which files under the case folder are cases: the one decision pytest, ``check``, ``ask`` and
the site build all take about files."""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from oracle.casefile.errors import CaseError
from oracle.casefile.source import echoed
from oracle.casefile.vocabulary import CASE_SUFFIX, NAME_PATTERN


@dataclass(frozen=True)
class CaseEntry:
    """One entry under the case folder: a file to load as a case, or why it cannot be one."""

    path: Path
    problem: str | None = None

    @property
    def error(self) -> CaseError | None:
        """The problem as a located error (a whole file: no line), or None for a case."""
        return None if self.problem is None else CaseError(self.path, None, self.problem)


def case_entries(directory: Path) -> list[CaseEntry]:
    """Every entry under ``directory`` except hidden ones, in table order; nothing is skipped.

    The one decision that pytest, ``check``, ``ask`` and the site build all take about files:
    a case is a regular file ``TOPIC/NAME.yaml`` one folder below ``directory``. Anything else,
    a symbolic link (never followed), a FIFO or device, a file at the top, a folder inside a
    topic folder (never walked into, however deep it goes), an empty topic folder, another
    suffix, a name that is not lowercase words and hyphens, is an entry with a problem.
    Files of a topic sort by their leading number (``9-a`` before ``10-b``), then by name.
    """
    entries: list[CaseEntry] = []
    if directory.is_symlink():  # never followed, as no link under it is
        return [
            CaseEntry(
                directory,
                "a symbolic link: the case folder must be a real folder (links are never followed)",
            )
        ]
    for child in _visible(directory, entries):
        path = Path(child.path)
        if child.is_dir(follow_symlinks=False):
            entries += _topic_entries(path, directory)
        else:
            entries.append(CaseEntry(path, case_file_problem(path, directory)))
    return entries


def _visible(folder: Path, entries: list[CaseEntry]) -> list[os.DirEntry[str]]:
    """The folder's entries in table order, without hidden files and editors' backups; a folder
    that cannot be read is an entry with its problem."""
    try:
        with os.scandir(folder) as listing:
            children = sorted(listing, key=lambda entry: _table_order(entry.name))
    except OSError as error:
        entries.append(CaseEntry(folder, f"cannot read this folder: {error.strerror}"))
        return []
    return [c for c in children if not (c.name.startswith(".") or c.name.endswith("~"))]


def _topic_entries(folder: Path, directory: Path) -> list[CaseEntry]:
    """The entries of one topic folder: its files, and what no topic folder may hold."""
    entries: list[CaseEntry] = []
    children = _visible(folder, entries)
    if not children and not entries:
        problem = "an empty topic folder: add a case to it, or remove it"
        if not NAME_PATTERN.fullmatch(folder.name):
            problem = _name_problem(folder.name, "topic folder")
        entries.append(CaseEntry(folder, problem))
    for child in children:
        path = Path(child.path)
        if child.is_dir(follow_symlinks=False):
            entries.append(
                CaseEntry(
                    path,
                    f"a folder inside the topic folder {folder.name}/: cases live one level"
                    f" down, as {directory.name}/TOPIC/NAME.yaml; move its files up",
                )
            )
        else:
            entries.append(CaseEntry(path, case_file_problem(path, directory)))
    return entries


def _table_order(name: str) -> tuple[int, str]:
    match = re.match(r"\d+", name)
    return (int(match.group()) if match else -1, name)


def case_file_problem(path: Path, directory: Path) -> str | None:
    """Why ``path`` (under the case folder ``directory``) cannot be a case, or None if it can."""
    problem = plain_file_problem(path)
    if problem is not None:
        return problem
    parts = path.relative_to(directory).parts
    if path.suffix != CASE_SUFFIX:
        if path.suffix.lower() in (".yaml", ".yml"):
            return f"case files end in {CASE_SUFFIX} (lowercase); rename this file so it is checked"
        return f"not a case file: everything under {directory.name}/ must be a {CASE_SUFFIX} case"
    if len(parts) != 2:
        return (
            f"a case lives in a topic folder, {directory.name}/TOPIC/{path.name}: move it there"
            f" (its folder is its table)"
        )
    for name, what in ((parts[0], "topic folder"), (path.stem, "file name")):
        if not NAME_PATTERN.fullmatch(name):
            return _name_problem(name, what)
    return None


def plain_file_problem(path: Path) -> str | None:
    """Why ``path`` cannot be read as a case file wherever it lies (a link, a FIFO, a file that
    cannot be read), or None."""
    try:
        status = path.lstat()
    except OSError as error:
        return f"cannot read this file: {error.strerror}"
    if stat.S_ISLNK(status.st_mode):
        return "a symbolic link: case files must be real files (links are never followed)"
    if not stat.S_ISREG(status.st_mode):
        return "not a regular file (a FIFO, socket or device): case files are plain text files"
    return None


def _name_problem(name: str, what: str) -> str:
    return f"the {what} {echoed(name)} must be lowercase words joined by hyphens; rename it"


def case_files(directory: Path) -> list[Path]:
    """Every entry under ``directory`` that is, or looks meant to be, a case, in table order."""
    return [entry.path for entry in case_entries(directory)]
