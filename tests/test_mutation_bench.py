"""The mutation benchmark's own parts: what it mutates, and its ledger of equivalent mutants."""

from __future__ import annotations

import ast
import importlib.util
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "mutation_bench", ROOT / "bench/mutation_bench.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutation_bench"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


SOURCE = textwrap.dedent(
    """
    class Side:
        def __repr__(self) -> str:
            return "Side(" + str(1 + 1) + ")"

        def larger(self, a: int, b: int) -> bool:
            if a > b:
                return True
            if a > b:
                return True
            return None


    __all__ = ["Side"]
    """
)


def test_every_ledger_entry_still_names_a_mutant_of_the_engine(bench: ModuleType) -> None:
    every = {bench._key(mutant) for mutant in bench.mutants(list(bench.RULE_FILES))}
    stale = [key for key in bench.read_ledger() if key not in every]
    assert not stale, f"{bench.LEDGER.name} names mutants the code no longer has: {stale}"


def test_reprs_the_export_list_and_a_final_return_none_are_not_mutated(
    bench: ModuleType, tmp_path: Path
) -> None:
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine/claims.py").write_text(SOURCE, encoding="utf-8")
    found = bench.mutants(["claims"], tmp_path)
    assert {mutant.where for mutant in found} == {"Side.larger"}
    assert [(m.code, m.description, m.occurrence) for m in found] == [
        ("if a > b:", "Gt -> GtE", 1),
        ("return True", "delete return", 1),
        ("if a > b:", "Gt -> GtE", 2),
        ("return True", "delete return", 2),
    ]


def test_each_mutant_changes_exactly_its_line(bench: ModuleType, tmp_path: Path) -> None:
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine/claims.py").write_text(SOURCE, encoding="utf-8")
    for mutant in bench.mutants(["claims"], tmp_path):
        mutated = bench.mutate(SOURCE, mutant.index, mutant.kind)
        ast.parse(mutated)
        lines = bench.changed_lines(SOURCE, mutated)
        assert len(lines) == 2 and lines[0][1:].strip() == mutant.code, lines


def test_a_ledger_entry_without_a_reason_is_refused(bench: ModuleType, tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.yaml"
    ledger.write_text(
        "- {file: game, in: GameState.changed, line: x, change: 1 -> 2, why: ''}\n",
        encoding="utf-8",
    )
    with pytest.raises(SystemExit, match="says no why"):
        bench.read_ledger(ledger)


def test_every_kind_of_tactic_card_overrides_the_base_class_as_the_ledger_says() -> None:
    from engine.tactic_cards import KINDS, TacticKind

    for kind in KINDS:
        for name in ("uses", "check", "carry_out"):
            assert getattr(type(kind), name) is not getattr(TacticKind, name), (kind, name)
