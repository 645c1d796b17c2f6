"""Formation counts for the odds page, computed by the engine once per engine version.

Counting every four-card side takes seconds, and the answer changes only when the engine's cards
or formations change. The counts are kept in a small JSON file in the user's cache folder
(``$SCHOTTEN_ORACLE_CACHE``, else ``$XDG_CACHE_HOME/schotten-oracle``, else
``~/.cache/schotten-oracle``), named by a hash of the engine modules they come from; any change to
those modules starts a new file. Without a writable cache folder the counts are simply computed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections import Counter
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import engine.cards
import engine.formations
import engine.odds
from engine.cards import Card
from engine.formations import Formation
from engine.odds import formation_counts


@cache
def engine_version() -> str:
    """A hash of the source of the modules the counts depend on."""
    digest = hashlib.sha256()
    for module in (engine.cards, engine.formations, engine.odds):
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()[:16]


def cache_folder() -> Path:
    """The user's cache folder for the oracle's derived data."""
    folder = os.environ.get("SCHOTTEN_ORACLE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "schotten-oracle"
    )
    return Path(folder)


def cache_file() -> Path:
    """Where the counts of this engine version are kept."""
    return cache_folder() / f"formation-counts-{engine_version()}.json"


def save_json(path: Path, data: object) -> None:
    """Write ``data`` to ``path`` atomically; without a writable cache, do nothing."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp") as f:
            json.dump(data, f, sort_keys=True)
        os.replace(f.name, path)
    except OSError:
        pass  # no cache: the data is worked out again next time


_loaded: dict[str, dict[str, int]] = {}


def _key(placed: Sequence[Card], size: int) -> str:
    return f"{size}:{','.join(map(str, placed))}"


def cached_formation_counts(placed: Sequence[Card] = (), size: int = 3) -> Counter[Formation]:
    """:func:`engine.odds.formation_counts`, from the cache when this engine version has it."""
    if not _loaded:
        with contextlib.suppress(OSError, ValueError):
            _loaded.update(json.loads(cache_file().read_text(encoding="utf-8")))
    key = _key(placed, size)
    if key in _loaded:
        return Counter({Formation[name]: count for name, count in _loaded[key].items()})
    counts = formation_counts(placed, size)
    _loaded[key] = {formation.name: count for formation, count in counts.items()}
    _save()
    return counts


def _save() -> None:
    save_json(cache_file(), _loaded)
