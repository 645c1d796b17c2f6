"""What goes wrong in a case file: one located line each."""

from __future__ import annotations

from engine import (
    PositionError,
)
from oracle.casefile.source import SourceError


class CaseError(SourceError):
    """A case file that cannot be used: malformed, impossible or unsafe."""


class EngineObjection(CaseError):
    """The engine's refusal of a case's board or table, located at the line at fault.

    ``problem`` is what the editor reads (for a card written twice, with both lines);
    ``objection`` keeps the engine's own error, whose message an impossible case pins.
    """

    def __init__(self, located: CaseError, objection: PositionError) -> None:
        super().__init__(located.path, located.line, located.problem)
        self.objection = objection
