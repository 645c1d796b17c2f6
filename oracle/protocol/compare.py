"""Judging an engine's answers against the catalogue's, question by question: pass, fail (both
answers kept) or unsupported."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from typing import Any

from oracle.casefile.questions import EXPORTED_KINDS

QUESTION_KEYS = tuple(kind.key for kind in EXPORTED_KINDS)
"""The questions another engine is asked, by their keys in a request and in its answers."""

NO_ANSWER = object()


UNKNOWN_KEY = object()


NOT_ASKED = object()


class Result(Enum):
    """A question's or a case's result."""

    PASS = "pass"
    FAIL = "fail"
    UNSUPPORTED = "unsupported"


def printable(text: str) -> str:
    """An engine's text as a terminal may show it: every character that is not printable
    written as its escape, so that nothing it wrote can move the cursor or forge a line."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def shown(value: Any, limit: int = 200) -> str:
    """A value from an engine's answer as JSON for a message, clipped to ``limit`` characters."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (ValueError, RecursionError):
        return "(a value too deep to show)"
    return text if len(text) <= limit else f"{text[: limit - 20]}... ({len(text):,} characters)"


@dataclass(frozen=True)
class QuestionResult:
    """One question of a case: what the catalogue says, what the engine said."""

    name: str
    result: Result
    expected: Any = None
    actual: Any = None


def _unsupported(name: str, declared: set[str]) -> bool:
    return name in declared or name.split(".")[0] in declared or name.split("/")[0] in declared


def compare(expected: dict[str, Any], response: dict[str, Any]) -> tuple[QuestionResult, ...]:
    """Each expected answer against the engine's response, question by question."""
    answers = response.get("answers") or {}
    declared = {str(item) for item in response.get("unsupported") or ()}
    results: list[QuestionResult] = []

    def judge(name: str, want: Any, got: Any, present: bool) -> None:
        if _unsupported(name, declared):
            results.append(QuestionResult(name, Result.UNSUPPORTED, want))
        elif not present:
            results.append(QuestionResult(name, Result.FAIL, want, NO_ANSWER))
        else:
            result = Result.PASS if got == want else Result.FAIL
            results.append(QuestionResult(name, result, want, got))

    for key in sorted(set(answers) if isinstance(answers, dict) else set()):
        if key not in QUESTION_KEYS:
            results.append(
                QuestionResult(f"answers.{printable(key[:60])}", Result.FAIL, None, UNKNOWN_KEY)
            )
    for name in sorted(declared):
        if name.split(".")[0] not in QUESTION_KEYS:
            results.append(
                QuestionResult(
                    f"unsupported.{printable(name[:60])}", Result.FAIL, None, UNKNOWN_KEY
                )
            )
    for key, want in expected.items():
        got = answers.get(key) if isinstance(answers, dict) else None
        if key == "claims":
            verdicts = got if isinstance(got, dict) else {}
            for stone, verdict in want.items():
                judge(f"claims.{stone}", verdict, verdicts.get(stone), stone in verdicts)
            for stone in sorted(set(verdicts) - set(want), key=str)[:3]:  # an answer to all
                results.append(
                    QuestionResult(
                        f"claims.{printable(str(stone)[:20])}", Result.FAIL, None, NOT_ASKED
                    )
                )
        elif key == "plays":
            legal = got if isinstance(got, list) else []
            for index, legality in enumerate(want):
                present = index < len(legal)
                judge(f"plays.{index + 1}", legality, legal[index] if present else None, present)
            if len(legal) > len(want):
                results.append(
                    QuestionResult(f"plays.{len(want) + 1}", Result.FAIL, None, NOT_ASKED)
                )
        elif key == "turn" and isinstance(want, dict) and "refused" not in want:
            facts = got if isinstance(got, dict) else {}
            for fact, value in want.items():
                judge(f"turn.{fact}", value, facts.get(fact), fact in facts)
        else:
            judge(key, want, got, got is not None)
    return tuple(results)
