"""A problem that stands in the way of publishing, as every front end reports it (``check``,
the pytest plugin, the site build): one located line, in the editor's words."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Problem:
    """One thing that stands in the way of publishing, as every front end reports it: its
    located line, the lines that explain it, and the case file or topic it is about (so that a
    test item of that case can report it)."""

    line: str
    detail: tuple[str, ...] = ()
    file: Path | None = None
    topic: str | None = None

    @property
    def lines(self) -> list[str]:
        """The problem as printed: its line, then its explanation, indented."""
        return [self.line, *self.detail]


__all__ = ["Problem"]
