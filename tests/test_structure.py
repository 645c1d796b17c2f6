"""The structure the code keeps (issue 20): small pieces, and one registry of question kinds that
every stage covers. The direction of imports and the absence of cycles are checked by
``lint-imports`` in ``make lint`` (the contracts are in pyproject.toml)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from radon.complexity import cc_visit
from radon.visitors import Class, Function

from oracle.casefile.questions import EXPORTED_KINDS, AnswerShape, QuestionKind
from oracle.protocol.answers import PROTOCOL_QUESTIONS
from oracle.protocol.compare import SHAPE_COMPARISONS
from oracle.verify.replay import GAME_QUESTIONS

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted([*(ROOT / "engine").rglob("*.py"), *(ROOT / "oracle").rglob("*.py")])

MOST_COMPLEX = 15
"""The highest cyclomatic complexity a function may have."""

LONGEST_MODULE = 700
"""The most lines a module may have."""


def _functions(blocks: list[Function | Class]) -> Iterator[Function]:
    """Every function, method and closure among ``blocks``, however deeply nested."""
    for block in blocks:
        if isinstance(block, Class):
            yield from _functions([*block.methods, *block.inner_classes])
        else:
            yield block
            yield from _functions([*block.closures])


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_function_is_too_complex_and_no_module_too_long(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert source.count("\n") <= LONGEST_MODULE, f"{path.name} has over {LONGEST_MODULE} lines"
    complex_ones = [
        f"{function.fullname} (line {function.lineno}): {function.complexity}"
        for function in _functions(cc_visit(source))
        if function.complexity > MOST_COMPLEX
    ]
    assert not complex_ones, f"above {MOST_COMPLEX}: {complex_ones}"


def test_every_stage_covers_every_kind_of_question() -> None:
    """A question kind added to the registry must be given to each stage, not found missing
    later: the protocol asks every exported kind, the verifier judges every kind about a game
    (the claims and a refused board are judged apart), and each shape of answer is compared."""
    assert set(PROTOCOL_QUESTIONS) == set(EXPORTED_KINDS)
    apart = {QuestionKind.CLAIMS, QuestionKind.BOARD}
    assert set(GAME_QUESTIONS) == set(QuestionKind) - apart
    assert set(SHAPE_COMPARISONS) == set(AnswerShape)
    assert list(PROTOCOL_QUESTIONS) == list(EXPORTED_KINDS)  # the order of a request
