"""Formation counts for the odds page, worked out by the engine and kept between builds.

Counting every four-card side takes seconds, and the answer changes only when the engine's cards
or formations change. A :class:`FormationCounts` reads the counts kept in the user's cache folder
(:mod:`oracle.cache`), in a file named by a digest of the engine they come from, so any change
to the engine starts a new file; without a writable cache folder the counts are simply
worked out again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import engine
from engine import Card, Formation, formation_counts
from oracle.cache import cache_folder, code_digest, load_json, save_json


@cache
def counts_digest() -> str:
    """A digest of the engine's source, which the counts come from (its cards, formations and
    odds; the oracle names only the engine's front door, so any change to it counts again)."""
    return code_digest([engine])


class FormationCounts:
    """The counts of one build: those kept from earlier builds, and those worked out now."""

    def __init__(self, folder: Path | None = None) -> None:
        self.store = (folder or cache_folder()) / f"formation-counts-{counts_digest()}.json"
        self.kept: dict[str, dict[str, int]] = load_json(self.store)

    def counts(self, placed: Sequence[Card] = (), size: int = 3) -> Counter[Formation]:
        """:func:`engine.formation_counts`, from the cache when this engine has them."""
        key = f"{size}:{','.join(map(str, placed))}"
        if key in self.kept:
            return Counter({Formation[name]: count for name, count in self.kept[key].items()})
        counted = formation_counts(placed, size)
        self.kept[key] = {formation.name: count for formation, count in counted.items()}
        save_json(self.store, self.kept)
        return counted
