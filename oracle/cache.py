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
    """A cache file's content, or nothing when it is missing or unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


STALE_AFTER = 7 * 24 * 3600
"""Seconds after which a cache file of other code (an older digest) is removed."""


def save_json(path: Path, data: object) -> None:
    """Write ``data`` to ``path`` atomically, and remove the files of the same kind that older
    code wrote and nobody has written for a week (another checkout may still use a recent one);
    without a writable cache, do nothing."""
    save_bytes(path, json.dumps(data, sort_keys=True).encode())


def save_bytes(path: Path, content: bytes) -> None:
    """:func:`save_json` for any content: written whole, the stale files of its kind (the name up
    to its last ``-``, with the same suffix) removed, nothing done without a writable cache."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, delete=False, suffix=".tmp") as f:
            f.write(content)
        os.replace(f.name, path)
    except OSError:
        return  # no cache: the data is worked out again next time
    remove_stale(path)


def remove_stale(path: Path, suffixes: tuple[str, ...] | None = None) -> None:
    """Remove the cache files of ``path``'s kind (the name up to its last ``-``, with its
    suffix or one of ``suffixes``: a kind whose format changed names its older files too) that
    nobody has written for :data:`STALE_AFTER`; nothing done without a writable cache."""
    kind = path.name.rsplit("-", 1)[0]
    now = time.time()
    try:
        for suffix in suffixes or (path.suffix,):
            for other in path.parent.glob(f"{kind}-*{suffix}"):
                if other != path and now - other.stat().st_mtime > STALE_AFTER:
                    other.unlink()
    except OSError:
        pass  # another process removed it first, or the folder is not ours to change
