"""Writing a file a command produces (an export, a JUnit report), never over an editor's file.

A command may write only where nothing of an editor's would be lost: never inside a project's
``cases/`` or ``rules/``, never over a file it did not write itself (it knows its own files by
their first lines; ``--force`` replaces any other file), never through a link or into a FIFO or
device. The text goes to a temporary file beside the target, then takes its place in one step,
so an interrupted run leaves the old file whole. Every refusal is one line, given before any
work is done.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

EDITORS_FOLDERS = ("cases", "rules")
"""The folders of a project that hold editors' files: no command writes there."""

PROJECT_MARK = Path("rules") / "index.yaml"

SIGNATURE_BYTES = 4096
"""How much of an existing file is read to tell whether the command wrote it."""


class OutputRefused(ValueError):
    """A file a command will not write, with the reason in one line."""


STANDARD_OUTPUT = "-"
"""The output name that means standard output, for every command that writes a file."""


def _editors_folder(target: Path, projects: Iterable[Path]) -> Path | None:
    """The editors' folder that ``target`` lies in, if any: of a project above it, or of one
    of ``projects`` (the one a command works on), compared as written and as the links lead."""
    roots = [folder for folder in target.parents if (folder / PROJECT_MARK).is_file()]
    real_target = target.parent.resolve() / target.name
    for root in [*roots, *projects]:
        for name in EDITORS_FOLDERS:
            folder = root / name
            if target.is_relative_to(folder) or real_target.is_relative_to(folder.resolve()):
                return folder
    return None


def check_output(
    path: Path,
    ours: Callable[[str], bool],
    *,
    force: bool = False,
    projects: Iterable[Path] = (),
) -> Path:
    """Refuse (:class:`OutputRefused`) a path the command may not write; return it absolute.

    ``ours`` tells from an existing file's first characters whether the command wrote it;
    ``projects`` are the projects the command works on, whose editors' folders are refused
    wherever their links lead.
    """
    target = Path(os.path.abspath(path))
    folder = _editors_folder(target, projects)
    if folder is not None:
        raise OutputRefused(
            f"{path}: inside {folder.name}/, which holds the editors' files; write the"
            " output elsewhere"
        )
    parent = target.parent
    if not parent.is_dir():
        raise OutputRefused(f"{path}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputRefused(f"{path}: cannot write in the folder {parent}")
    try:
        status = target.lstat()
    except FileNotFoundError:
        return target
    except OSError as error:
        raise OutputRefused(f"{path}: {error.strerror}") from None
    if stat.S_ISDIR(status.st_mode):
        raise OutputRefused(f"{path}: is a folder; give a file name")
    if stat.S_ISLNK(status.st_mode):
        raise OutputRefused(f"{path}: is a symbolic link; give the file itself")
    if not stat.S_ISREG(status.st_mode):
        raise OutputRefused(f"{path}: is not a regular file (a FIFO, socket or device)")
    if not force and not ours(_head(target)):
        raise OutputRefused(
            f"{path}: exists and was not written by this command; give another name, or"
            " --force to replace it"
        )
    return target


def _head(target: Path) -> str:
    try:
        descriptor = os.open(target, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return ""
    with os.fdopen(descriptor, "rb") as file:
        return file.read(SIGNATURE_BYTES).decode("utf-8", errors="replace")


def replace_whole(path: Path, text: str) -> None:
    """Write ``text`` as the existing file ``path``, its line endings as given and its mode
    kept, replaced whole at once: an interrupted write leaves the file as it was or as
    written, never half written (what ``pin`` and ``history`` write into an editor's files)."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        os.chmod(temporary, path.stat().st_mode & 0o777)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_output(
    path: Path,
    text: str,
    ours: Callable[[str], bool],
    *,
    force: bool = False,
    projects: Iterable[Path] = (),
) -> Path:
    """Write ``text`` to ``path`` after :func:`check_output`, atomically; return the path."""
    target = check_output(path, ours, force=force, projects=projects)
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    temporary: str | None = None
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        os.fchmod(handle, mode)
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except OSError as error:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        raise OutputRefused(f"{path}: cannot be written: {error.strerror}") from None
    return target


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def say_failed(command: str, problem: str, status: int = 2) -> int:
    """Print a command's one-line failure on standard error (``command`` with its leading space,
    as in ``" conform"``; empty for the command line itself) and return its exit status."""
    print(f"schotten-oracle{command}: {problem}", file=sys.stderr)
    return status
