"""Where the oracle keeps what it works out slowly: the user's cache folder, files written whole,
and names that change whenever the code an answer depends on changes.

The folder is ``$SCHOTTEN_ORACLE_CACHE``, else ``$XDG_CACHE_HOME/schotten-oracle``, else
``~/.cache/schotten-oracle``. Without a writable folder nothing is kept and answers are simply
worked out again. A cache file is named by a digest of the source of the modules its answers
depend on (:func:`code_digest`), so an edit elsewhere never throws it away, and an edit there
always does.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any


def cache_folder() -> Path:
    """The user's cache folder for the oracle's derived data."""
    folder = os.environ.get("SCHOTTEN_ORACLE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "schotten-oracle"
    )
    return Path(folder)


def code_digest(modules: Iterable[ModuleType]) -> str:
    """A digest of the source of ``modules`` (a package counts with every module in it)."""
    digest = hashlib.sha256()
    for module in modules:
        source = Path(str(module.__file__))
        files = sorted(source.parent.rglob("*.py")) if source.name == "__init__.py" else [source]
        for path in files:
            name = path.relative_to(source.parent.parent).as_posix()
            digest.update(name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def load_json(path: Path) -> dict[str, Any]:
    """A cache file's content, or nothing when it is missing or unreadable. A file read before
    in this process and not written since is not parsed again: a test run or a build makes many
    caches of one file, and the file grows with every catalogue the user builds. The caller gets
    a dictionary of its own to add to; the values in it are shared and never changed."""
    try:
        status = path.stat()
        stamp = (status.st_ino, status.st_mtime_ns, status.st_size)
        parsed = _PARSED.get(path)
        if parsed is None or parsed[0] != stamp:
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict):
                return {}
            parsed = _PARSED[path] = (stamp, data)
    except (OSError, ValueError):
        return {}
    return dict(parsed[1])


_PARSED: dict[Path, tuple[tuple[int, int, int], dict[str, Any]]] = {}
"""Each cache file's content as last parsed, with what says whether the file changed since."""


STALE_AFTER = 7 * 24 * 3600
"""Seconds after which a cache file of other code (an older digest) is removed."""


def save_json(path: Path, data: object) -> None:
    """Write ``data`` to ``path`` atomically, and remove the files of the same kind that older
    code wrote and nobody has written for a week (another checkout may still use a recent one);
    without a writable cache, do nothing."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp") as f:
            json.dump(data, f, sort_keys=True)
        os.replace(f.name, path)
        kind = path.name.rsplit("-", 1)[0]
        now = time.time()
        for other in path.parent.glob(f"{kind}-*.json"):
            if other != path and now - other.stat().st_mtime > STALE_AFTER:
                other.unlink()
    except OSError:
        pass  # no cache: the data is worked out again next time


def code_in_use(packages: Iterable[str]) -> tuple[int, ...]:
    """The identity of every name bound in the loaded modules of ``packages`` and in the
    classes they define: equal while the code is the same objects, different as soon as
    anything is replaced (a test that patches the engine, say). What is worked out from a case
    may be kept within a process for as long as this stays the same."""
    import sys

    wanted = tuple(packages)
    found: list[int] = []
    for name in sorted(sys.modules):
        if not any(name == package or name.startswith(package + ".") for package in wanted):
            continue
        module = sys.modules[name]
        for value in list(vars(module).values()):
            found.append(id(value))
            if isinstance(value, type) and value.__module__ == name:
                found.extend(id(member) for member in list(vars(value).values()))
    return tuple(found)


class ProcessMemos:
    """Dictionaries of what a process has worked out from cases, kept while the code that
    worked it out is the same objects (:func:`code_in_use` of ``packages``): :meth:`check`
    empties them all when any of it was replaced, or when one has grown to ``limit`` entries."""

    def __init__(self, packages: Iterable[str], limit: int = 20_000) -> None:
        self.packages = tuple(packages)
        self.limit = limit
        self.code: tuple[int, ...] = ()
        self.memos: list[dict[Any, Any]] = []

    def memo(self) -> dict[Any, Any]:
        """A new dictionary, emptied with the others."""
        made: dict[Any, Any] = {}
        self.memos.append(made)
        return made

    def check(self) -> None:
        """Empty every dictionary if the code changed since the last check, or one is full."""
        code = code_in_use(self.packages)
        if code != self.code or any(len(memo) >= self.limit for memo in self.memos):
            for memo in self.memos:
                memo.clear()
            self.code = code
