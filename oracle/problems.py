"""A problem that stands in the way of publishing, as every front end reports it (``check``,
the pytest plugin, the site build): one located line, in the editor's words."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol


class AboutACase(Protocol):
    """What a problem reads of the case it is about (:class:`oracle.casefile.model.Case`)."""

    @property
    def path(self) -> Path: ...

    @property
    def topic(self) -> str: ...


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

    @classmethod
    def about(cls, case: AboutACase, line: str, detail: tuple[str, ...] = ()) -> Problem:
        """A problem with one case file, reported by that case's own test item as well."""
        return cls(line, detail, file=case.path, topic=case.topic)


__all__ = ["Problem"]
