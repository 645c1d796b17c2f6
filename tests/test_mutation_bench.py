"""The mutation benchmark's own parts: what it mutates, and its ledger of equivalent mutants."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path
from types import ModuleType

import pytest
from conftest import bench_module

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return bench_module("mutation_bench")


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
    found = bench.mutants(list(bench.RULE_FILES))
    every = {bench._key(mutant) for mutant in found}
    every |= {bench._function_key(mutant.module, mutant.where) for mutant in found}
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
    from engine.game.tactic_cards import KINDS, TacticKind

    for kind in KINDS:
        for name in ("uses", "check", "carry_out"):
            assert getattr(type(kind), name) is not getattr(TacticKind, name), (kind, name)


def test_a_ledger_entry_may_stand_for_a_whole_function_and_say_it_is_out_of_reach(
    bench: ModuleType, tmp_path: Path
) -> None:
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine/claims.py").write_text(SOURCE, encoding="utf-8")
    ledger_file = tmp_path / "ledger.yaml"
    ledger_file.write_text(
        "- {file: claims, in: Side.larger, kind: out-of-reach, why: only callers see it}\n",
        encoding="utf-8",
    )
    ledger = bench.read_ledger(ledger_file)
    for mutant in bench.mutants(["claims"], tmp_path):
        assert bench._kind(mutant, ledger) == "out-of-reach"
    ledger_file.write_text(
        "- {file: claims, in: Side.larger, kind: unsure, why: maybe}\n", encoding="utf-8"
    )
    with pytest.raises(SystemExit, match="has kind 'unsure'"):
        bench.read_ledger(ledger_file)


def test_the_catalogue_rate_leaves_out_mutants_out_of_reach_and_the_suite_rate_counts_them(
    bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine/claims.py").write_text(SOURCE, encoding="utf-8")
    found = bench.mutants(["claims"], tmp_path)
    ledger = {bench._key(found[0]): bench.LedgerEntry("only callers see it", "out-of-reach")}
    results: list[tuple[object, bool, bool, list[str]]] = [
        (found[0], False, True, []),
        (found[1], True, True, []),
        (found[2], False, False, []),
    ]
    bench.report(results, ledger, catalogue_only=False)
    printed = capsys.readouterr().out
    assert "caught by the catalogue alone: 1/2 non-equivalent within a case file's reach" in printed
    assert "caught by the whole suite:     2/3 non-equivalent" in printed


def test_every_hand_mutant_still_applies_to_the_engine(bench: ModuleType) -> None:
    stale = [
        mutant
        for mutant in bench.read_hand_mutants()
        if bench.apply_hand_mutant(
            (ROOT / "engine" / f"{mutant.module}.py").read_text(encoding="utf-8"), mutant
        )
        is None
    ]
    assert not stale, f"{bench.HAND_MUTANTS.name} names lines the engine no longer has: {stale}"


def test_a_hand_mutant_changes_only_its_own_line_of_its_own_function(bench: ModuleType) -> None:
    source = SOURCE.replace("return True\n", "return a >> 9 > b\n")
    mutant = bench.HandMutant("claims", "Side.larger", "return a >> 9 > b", ">> 9", ">> 8", "x")
    assert bench.apply_hand_mutant(source, mutant) is None  # the line is there twice
    once = source.replace("return a >> 9 > b\n", "return True\n", 1)
    mutated = bench.apply_hand_mutant(once, mutant)
    assert mutated == once.replace(">> 9", ">> 8")
    elsewhere = bench.HandMutant("claims", "Side.__repr__", "return a >> 9 > b", ">> 9", "", "x")
    assert bench.apply_hand_mutant(once, elsewhere) is None
