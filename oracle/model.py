"""The typed model of a case, made by the loader and used by the plugin, the renderer and the CLI.

No YAML dict travels past the loader: everything downstream sees these objects and the engine's
own :class:`engine.Position`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine import Position, Verdict


@dataclass(frozen=True)
class Claim:
    """One stone claimed in the case, with the verdict the engine must give (None in a draft)."""

    stone: int
    expect: Verdict | None
    line: int


@dataclass(frozen=True)
class Case:
    """One case file: a position, the stones claimed on it, the expected verdicts, the prose."""

    id: str
    path: Path
    line: int
    situation: str
    why: str
    draft: bool
    position: Position
    claims: tuple[Claim, ...]
    rules: tuple[str, ...] = ()

    @property
    def topic(self) -> str:
        """The folder the case file sits in (``claims`` for ``cases/claims/...``): its table."""
        return self.path.parent.name

    @property
    def location(self) -> str:
        """``path:line`` of the case, for messages."""
        return f"{self.path}:{self.line}"

    @property
    def claimed_stones(self) -> tuple[int, ...]:
        """The stones claimed, in the order the case lists them."""
        return tuple(claim.stone for claim in self.claims)


@dataclass(frozen=True)
class RuleEntry:
    """One rule or ruling of the rules index."""

    id: str
    kind: str
    section: str
    title: str
    text: str
    reason: str | None
    line: int

    @property
    def is_ruling(self) -> bool:
        """Whether this is one of our rulings (a point the rulebook leaves open)."""
        return self.kind == "ruling"


@dataclass(frozen=True)
class RulesIndex:
    """Every rule and ruling the engine implements, in the order of the rules."""

    path: Path
    entries: tuple[RuleEntry, ...]

    def ids(self) -> frozenset[str]:
        """The ids cases may pin."""
        return frozenset(entry.id for entry in self.entries)

    def rulings(self) -> tuple[RuleEntry, ...]:
        """The rulings, in order."""
        return tuple(entry for entry in self.entries if entry.is_ruling)

    def sections(self) -> tuple[str, ...]:
        """The section titles, in order of first appearance."""
        return tuple(dict.fromkeys(entry.section for entry in self.entries))
