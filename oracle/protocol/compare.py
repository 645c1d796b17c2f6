"""Judging an engine's answers against the catalogue's, question by question: pass, fail (both
answers kept) or unsupported."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from oracle.casefile.questions import AnswerShape, kind_named

NO_ANSWER = object()


NOT_ASKED = object()


UNSUPPORTED_NOT_ASKED = object()


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
    """Each expected answer against the engine's response (an answer the protocol's schema
    allows: :func:`oracle.protocol.schema.answer_problem`), question by question."""
    answers = response.get("answers") or {}
    declared = {str(item) for item in response.get("unsupported") or ()}
    asked: list[QuestionResult] = []
    for key, want in expected.items():
        got = answers.get(key) if isinstance(answers, dict) else None
        compare_shape = SHAPE_COMPARISONS[kind_named(key).shape]
        asked += compare_shape(key, want, got, declared)
    return tuple(_unasked_unsupported(declared, expected, asked) + asked)


def _unasked_unsupported(
    declared: set[str], expected: dict[str, Any], asked: list[QuestionResult]
) -> list[QuestionResult]:
    """A question declared unsupported that the case does not ask (``claims.9`` when stone 9
    is not claimed): a misspelt name would otherwise hide nothing and pass unnoticed. What the
    case asks is read from its expected answers, not from the results (a refused turn is one
    result, ``turn``, though the case asks ``turn.log`` and the rest)."""
    names = {result.name for result in asked} | _asked_names(expected)
    return [
        QuestionResult(
            f"unsupported.{printable(name[:60])}", Result.FAIL, None, UNSUPPORTED_NOT_ASKED
        )
        for name in sorted(declared)
        if name not in names
        and not any(asked_name.startswith((f"{name}.", f"{name}/")) for asked_name in names)
    ]


def _asked_names(expected: dict[str, Any]) -> set[str]:
    """Every question name a case's expected answers ask: each kind's key, and each of its
    parts (``claims.3``, ``plays.2``, ``turn.log``)."""
    names = set(expected)
    for key, want in expected.items():
        compare_shape = SHAPE_COMPARISONS[kind_named(key).shape]
        names |= {result.name for result in compare_shape(key, want, None, set())}
    return names


def _judged(name: str, want: Any, got: Any, present: bool, declared: set[str]) -> QuestionResult:
    """One answer: unsupported as declared, missing, or right or wrong."""
    if _unsupported(name, declared):
        return QuestionResult(name, Result.UNSUPPORTED, want)
    if not present:
        return QuestionResult(name, Result.FAIL, want, NO_ANSWER)
    return QuestionResult(name, Result.PASS if got == want else Result.FAIL, want, got)


def _by_stone(key: str, want: Any, got: Any, declared: set[str]) -> list[QuestionResult]:
    verdicts = got if isinstance(got, dict) else {}
    results = [
        _judged(f"{key}.{stone}", verdict, verdicts.get(stone), stone in verdicts, declared)
        for stone, verdict in want.items()
    ]
    results += [  # an answer to every stone is not an answer to the ones asked
        QuestionResult(f"{key}.{printable(str(stone)[:20])}", Result.FAIL, None, NOT_ASKED)
        for stone in sorted(set(verdicts) - set(want), key=str)[:3]
    ]
    return results


def _in_order(key: str, want: Any, got: Any, declared: set[str]) -> list[QuestionResult]:
    given = got if isinstance(got, list) else []
    results = [
        _judged(
            f"{key}.{index + 1}",
            answer,
            given[index] if index < len(given) else None,
            index < len(given),
            declared,
        )
        for index, answer in enumerate(want)
    ]
    if len(given) > len(want):
        results.append(QuestionResult(f"{key}.{len(want) + 1}", Result.FAIL, None, NOT_ASKED))
    return results


def _facts(key: str, want: Any, got: Any, declared: set[str]) -> list[QuestionResult]:
    if isinstance(want, dict) and "refused" in want:
        return [_refusal(key, want, got, declared)]
    if not isinstance(want, dict):
        return _whole(key, want, got, declared)
    facts = got if isinstance(got, dict) else {}
    if "refused" in facts and not _unsupported(key, declared):  # an answer, and a wrong one
        return [QuestionResult(key, Result.FAIL, want, {"refused": facts["refused"]})]
    return [
        _judged(f"{key}.{fact}", value, facts.get(fact), fact in facts, declared)
        for fact, value in want.items()
    ]


def _refusal(key: str, want: Any, got: Any, declared: set[str]) -> QuestionResult:
    """A turn the catalogue expects refused: any refusal passes, since each engine gives its
    reason in its own words (as a play's ``illegal`` is compared without its reason)."""
    refused = isinstance(got, dict) and isinstance(got.get("refused"), str)
    if _unsupported(key, declared) or not refused:
        return _judged(key, want, got, got is not None, declared)
    return QuestionResult(key, Result.PASS, want, got)


def _whole(key: str, want: Any, got: Any, declared: set[str]) -> list[QuestionResult]:
    return [_judged(key, want, got, got is not None, declared)]


SHAPE_COMPARISONS: dict[AnswerShape, Callable[[str, Any, Any, set[str]], list[QuestionResult]]] = {
    AnswerShape.BY_STONE: _by_stone,
    AnswerShape.IN_ORDER: _in_order,
    AnswerShape.FACTS: _facts,
    AnswerShape.WHOLE: _whole,
}
"""How the answers of each shape of question are judged."""
