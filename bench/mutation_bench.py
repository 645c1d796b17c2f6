"""How many small rule changes the tests notice: a mutation run over the engine's rule code.

A small AST mutator changes one thing at a time in the rule modules of ``engine/`` (claims,
formations, position, the game's state, move rules, legal moves, turn flow and table, game,
moves, tactic_cards, tactics, match): a comparison flipped, a
constant off by one, ``and`` swapped for ``or``, a ``not`` dropped, a statement deleted. Reprs,
``__all__`` and a function's final ``return None`` are left alone: they are not rules, or
deleting them changes nothing. For a seeded sample of those mutants (or ``--all``), in copies of
the project, it runs the catalogue alone (``pytest cases``) and then, for the mutants the
catalogue misses, the whole default suite, and prints the share of the non-equivalent mutants
each one catches and every mutant that survives, for a reader to judge: a rule nothing checks,
or a mutant equivalent to the original. Those are listed with their reasons in
``bench/equivalent_mutants.yaml`` and left out of the rates (the run says which it met, and
flags an entry the tests do catch, which would be a wrong entry). The ledger also lists, as
``out-of-reach``, mutants only a caller of the engine's functions can see: no case file reaches
them, so the catalogue's rate leaves them out and the suite's counts them.

    .venv/bin/python bench/mutation_bench.py [--mutants 40] [--seed 1] [--files claims formations]
    .venv/bin/python bench/mutation_bench.py --catalogue-only --mutants 300 --jobs 2
    .venv/bin/python bench/mutation_bench.py --coverage --mutants 0
    .venv/bin/python bench/mutation_bench.py --hand --jobs 2

``--hand`` judges, by the catalogue alone, the mutants written by hand in
``bench/hand_mutants.yaml``: slips of bit positions (a colour's shift, a value's end) that the
AST mutator cannot make. Each one was once missed, and a case now catches it; the run fails when
one survives or no longer applies to the code, so the list is a regression record.

``--catalogue-only`` runs the catalogue alone (about three seconds a mutant on two cores) and
lists every mutant it misses, the list an editor works from when writing cases that guard a
rule (``make mutation-bench``). ``--coverage`` first prints each engine module's branch coverage
by the catalogue alone (``coverage run --branch -m pytest cases``), the references the tests
check the engine by left out; ``--mutants 0`` prints only that (``make bench``).

It is slow by nature (a test run per mutant, stopping at the first failure, about half a minute
for a mutant the catalogue misses on this machine): opt-in, never part of ``make test``. A mutant
whose test run outlasts ``--timeout`` counts as caught, since it made something loop.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import difflib
import json
import os
import queue
import random
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
RULE_FILES = (
    "proof/claims",
    "proof/reasons",
    "cards/formations",
    "cards/ranks",
    "cards/search",
    "cards/tables",
    "cards/empty_side",
    "cards/placed_side",
    "proof/position",
    "proof/position_checks",
    "proof/variants",
    "proof/pieces",
    "game/play_state",
    "game/cards_in_play",
    "game/stone_in_play",
    "game/provable",
    "game/values",
    "game/move_rules",
    "game/legality",
    "game/turn_flow",
    "game/table",
    "game/invariants",
    "game/interface",
    "game/moves",
    "game/tactic_cards",
    "cards/tactics",
    "match/rounds",
)
SUITE = ("tests", "cases", "-m", "not slow and not browser", "-n", "auto")
"""The whole default suite, as ``make test`` runs it, without the browser."""
LedgerKey = tuple[str, str, str, str, int]
"""file, function, line of code, change, occurrence: one mutant, wherever its line moves."""
LEDGER = Path(__file__).resolve().parent / "equivalent_mutants.yaml"
HAND_MUTANTS = Path(__file__).resolve().parent / "hand_mutants.yaml"
EQUIVALENT, OUT_OF_REACH = "equivalent", "out-of-reach"
"""The ledger's two kinds: a mutant nobody can tell apart, and one only a caller of the engine's
own functions can (no case file reaches it: an argument no loader passes, a message the oracle
words itself)."""
NOT_COPIED = (
    ".git",
    ".venv",
    "node_modules",
    "site",
    "dist",
    "build",
    "test-artefacts",
    ".hypothesis",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
)
"""What a copy of the project leaves out: git's store, what is installed, built or kept between
runs. Everything else is copied, since the suite reads more than the code (the CI scripts, the
README, the lock file, the published results): a copy short of one fails the suite with every
mutant, and the suite's rate and the ledger's checks read nothing."""
FLIPS = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}


@dataclass(frozen=True)
class Mutant:
    """One change: which file, which node (by its order in a walk), what is done to it."""

    module: str
    index: int
    kind: str
    line: int
    description: str
    where: str
    code: str
    occurrence: int = 1


@dataclass(frozen=True)
class HandMutant:
    """A mutant written by hand: ``before`` replaced by ``after`` in the one line of ``where``
    that reads ``code``; ``slip`` says what mistake it stands for."""

    module: str
    where: str
    code: str
    before: str
    after: str
    slip: str


@dataclass(frozen=True)
class LedgerEntry:
    """Why a mutant is left out of a rate, and of which (``kind``)."""

    why: str
    kind: str


NOT_RULES = ("__repr__", "__str__")
"""Functions that print rather than decide: their mutants are not rule changes (tests pin reprs)."""


def _presentation(tree: ast.AST) -> set[int]:
    """The ids of the nodes that are not rule code (reprs and the ``__all__`` export list), and
    of the final ``return None`` statements, whose deletion is no change at all."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        is_repr = isinstance(node, ast.FunctionDef) and node.name in NOT_RULES
        is_export = isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets
        )
        if is_repr or is_export:
            skipped.update(id(inner) for inner in ast.walk(node))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            last = node.body[-1]
            bare = isinstance(last, ast.Return) and (
                last.value is None
                or (isinstance(last.value, ast.Constant) and last.value.value is None)
            )
            if bare:  # deleting it changes nothing: a function ends by returning None anyway
                skipped.add(id(last))
    return skipped


def _sites(tree: ast.AST) -> Iterator[tuple[int, ast.AST, str, str]]:
    """Every place a mutation of rule code applies, with what it would do."""
    skipped = _presentation(tree)
    for index, node in enumerate(ast.walk(tree)):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Compare) and type(node.ops[0]) in FLIPS:
            before = type(node.ops[0]).__name__
            yield index, node, "compare", f"{before} -> {FLIPS[type(node.ops[0])].__name__}"
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, int)
            and not isinstance(node.value, bool)
        ):
            yield index, node, "constant", f"{node.value} -> {node.value + 1}"
        elif isinstance(node, ast.BoolOp):
            after = "or" if isinstance(node.op, ast.And) else "and"
            yield index, node, "boolop", f"{'and' if after == 'or' else 'or'} -> {after}"
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield index, node, "not", "not x -> x"
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.Expr, ast.Return, ast.Raise)):
            is_docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            if not is_docstring:
                yield index, node, "delete", f"delete {type(node).__name__.lower()}"


def mutate(source: str, index: int, kind: str) -> str:
    """The source with the mutation at the ``index``-th node of a walk applied."""
    tree = ast.parse(source)
    target = next(node for i, node in enumerate(ast.walk(tree)) if i == index)
    if kind == "compare" and isinstance(target, ast.Compare):
        target.ops[0] = FLIPS[type(target.ops[0])]()
    elif kind == "constant" and isinstance(target, ast.Constant):
        assert isinstance(target.value, int)
        target.value = target.value + 1
    elif kind == "boolop" and isinstance(target, ast.BoolOp):
        target.op = ast.Or() if isinstance(target.op, ast.And) else ast.And()
    elif kind == "not" and isinstance(target, ast.UnaryOp):
        replacement = target.operand
        for parent in ast.walk(tree):
            for field, value in ast.iter_fields(parent):
                if value is target:
                    setattr(parent, field, replacement)
                elif isinstance(value, list) and target in value:
                    value[value.index(target)] = replacement
    elif kind == "delete":
        for parent in ast.walk(tree):
            for _field, value in ast.iter_fields(parent):
                if isinstance(value, list) and target in value:
                    value[value.index(target)] = ast.Pass()
    return ast.unparse(ast.fix_missing_locations(tree))


def read_hand_mutants(path: Path | None = None) -> list[HandMutant]:
    """The mutants of ``bench/hand_mutants.yaml``: file, function (``in``), the line as written,
    the text replaced (``from``) and its replacement (``to``), and the slip it stands for."""
    entries = yaml.safe_load((path or HAND_MUTANTS).read_text(encoding="utf-8")) or []
    return [
        HandMutant(
            entry["file"],
            entry["in"],
            entry["line"],
            entry["from"],
            entry["to"],
            " ".join(str(entry["slip"]).split()),
        )
        for entry in entries
    ]


def apply_hand_mutant(source: str, mutant: HandMutant) -> str | None:
    """``source`` with the hand mutant applied, or None when it no longer applies: the function
    holds no single line reading ``code``, or that line holds ``before`` other than once."""
    lines = source.splitlines(keepends=True)
    enclosing = _enclosing(ast.parse(source))
    found = [
        number
        for number, line in enumerate(lines, 1)
        if line.strip() == mutant.code and enclosing.get(number) == mutant.where
    ]
    if len(found) != 1 or lines[found[0] - 1].count(mutant.before) != 1:
        return None
    lines[found[0] - 1] = lines[found[0] - 1].replace(mutant.before, mutant.after)
    return "".join(lines)


def _enclosing(tree: ast.AST) -> dict[int, str]:
    """For each line, the qualified name of the innermost class or function holding it."""
    names: dict[int, str] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                for line in range(child.lineno, (child.end_lineno or child.lineno) + 1):
                    names[line] = name
                visit(child, f"{name}.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return names


def mutants(modules: list[str], root: Path = ROOT) -> list[Mutant]:
    """Every mutant of the rule files of the project at ``root``."""
    found = []
    for module in modules:
        source = (root / "engine" / f"{module}.py").read_text(encoding="utf-8")
        lines = source.splitlines()
        tree = ast.parse(source)
        enclosing = _enclosing(tree)
        seen: dict[tuple[str, str, str], int] = {}
        sites = sorted(_sites(tree), key=lambda site: (getattr(site[1], "lineno", 0), site[0]))
        for index, node, kind, description in sites:
            line = getattr(node, "lineno", 0)
            where = enclosing.get(line, "<module>")
            code = lines[line - 1].strip() if line else ""
            same = (where, code, description)
            seen[same] = seen.get(same, 0) + 1
            found.append(Mutant(module, index, kind, line, description, where, code, seen[same]))
    return found


def changed_lines(source: str, mutated: str) -> list[str]:
    """The lines a mutation changes, as ``-``/``+`` lines of the two sources written alike."""
    before = ast.unparse(ast.parse(source)).splitlines()
    after = mutated.splitlines()
    return [
        line.strip()
        for line in difflib.unified_diff(before, after, lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


def copy_project(target: Path) -> None:
    """Copy the project into ``target`` as the tests see it (all but :data:`NOT_COPIED`), with
    the browser runtime linked, not copied."""
    skipped = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for path in sorted(ROOT.iterdir()):
        if path.name in NOT_COPIED or path.name.endswith(".egg-info"):
            continue
        if path.is_dir():
            shutil.copytree(path, target / path.name, ignore=skipped, symlinks=True)
        else:
            shutil.copy2(path, target / path.name)
    (target / "node_modules").symlink_to(ROOT / "node_modules")


def caught(copy: Path, arguments: list[str], timeout: float) -> bool:
    """Whether pytest, run in ``copy`` with these arguments, fails. A run that outlasts
    ``timeout`` counts as failing: the mutant made something loop, which CI would notice."""
    environment = {**os.environ, "PYTHONPATH": str(copy), "NO_MKDOCS_2_WARNING": "1"}
    environment.pop("ORACLE_REQUIRE_BROWSER", None)
    command = [str(ROOT / ".venv" / "bin" / "pytest"), "-x", "-q", "-p", "no:cacheprovider"]
    try:
        done = subprocess.run(
            [*command, *arguments],
            cwd=copy,
            env=environment,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return True
    return done.returncode != 0


def _judge(
    copies: queue.Queue[Path], mutant: Mutant, catalogue_only: bool, timeout: float
) -> tuple[bool, bool, list[str]]:
    """Apply one mutant in a free copy, run the catalogue (and the suite if the catalogue misses
    it), restore the file: whether each caught it, and the lines it changed."""
    copy = copies.get()
    path = copy / "engine" / f"{mutant.module}.py"
    original = path.read_text(encoding="utf-8")
    mutated = mutate(original, mutant.index, mutant.kind)
    path.write_text(mutated, encoding="utf-8")
    try:
        in_catalogue = caught(copy, ["cases"], timeout)
        in_suite = in_catalogue or (
            not catalogue_only
            and caught(
                copy,
                # The bench's own test reads the (mutated) engine to check the ledger: not a rule.
                [*SUITE, "--ignore", "tests/test_mutation_bench.py"],
                10 * timeout,
            )
        )
    finally:
        path.write_text(original, encoding="utf-8")
        copies.put(copy)
    return in_catalogue, in_suite, changed_lines(original, mutated)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mutants", type=int, default=40, help="how many to sample (40; 0: none)")
    parser.add_argument("--seed", type=int, default=1, help="the sample's seed (1)")
    parser.add_argument("--files", nargs="+", default=list(RULE_FILES), choices=RULE_FILES)
    parser.add_argument(
        "--catalogue-only",
        action="store_true",
        help="run the catalogue alone and list every mutant it misses",
    )
    parser.add_argument(
        "--coverage",
        action="store_true",
        help="first print each engine module's branch coverage by the catalogue alone",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="copies judged side by side (1; the suite uses -n auto)"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=60,
        help="seconds before a catalogue run counts as hung, hence caught (60; the suite: 10x)",
    )
    parser.add_argument(
        "--all", action="store_true", help="judge every mutant rather than a sample"
    )
    parser.add_argument(
        "--hand",
        action="store_true",
        help=f"judge only the mutants of {HAND_MUTANTS.name}, by the catalogue alone",
    )
    args = parser.parse_args()
    started = time.monotonic()
    if args.hand:
        survivors = run_hand_mutants(args.jobs, args.timeout)
        print(f"time: {time.monotonic() - started:.0f} s")
        raise SystemExit(1 if survivors else 0)
    if args.coverage:
        print_coverage(catalogue_coverage())
    if args.all or args.mutants > 0:
        run_mutants(args)
    print(f"time: {time.monotonic() - started:.0f} s")


def _judge_by_hand(copies: queue.Queue[Path], mutant: HandMutant, timeout: float) -> bool | None:
    """Whether the catalogue catches the hand mutant, in a free copy; None if it no longer
    applies to the code."""
    copy = copies.get()
    path = copy / "engine" / f"{mutant.module}.py"
    original = path.read_text(encoding="utf-8")
    mutated = apply_hand_mutant(original, mutant)
    try:
        if mutated is None:
            return None
        path.write_text(mutated, encoding="utf-8")
        return caught(copy, ["cases"], timeout)
    finally:
        path.write_text(original, encoding="utf-8")
        copies.put(copy)


def run_hand_mutants(jobs: int, timeout: float) -> int:
    """Judge every hand mutant by the catalogue alone and print each; the number that survive
    or no longer apply."""
    every = read_hand_mutants()
    outcomes: dict[int, bool | None] = {}
    with tempfile.TemporaryDirectory(prefix="oracle-mutants-") as folder:
        copies: queue.Queue[Path] = queue.Queue()
        for job in range(max(1, jobs)):
            copy = Path(folder) / f"copy-{job}"
            copy.mkdir()
            copy_project(copy)
            copies.put(copy)
        with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
            futures = {
                pool.submit(_judge_by_hand, copies, mutant, timeout): number
                for number, mutant in enumerate(every)
            }
            for future in concurrent.futures.as_completed(futures):
                outcomes[futures[future]] = future.result()
    labels = {True: "caught", False: "MISSED", None: "STALE (no longer applies)"}
    for number, mutant in enumerate(every):
        print(
            f"{labels[outcomes[number]]:8s} engine/{mutant.module}.py in {mutant.where}:"
            f" {mutant.before} -> {mutant.after} ({mutant.slip})"
        )
    survivors = sum(outcome is not True for outcome in outcomes.values())
    print(f"\n{len(every) - survivors}/{len(every)} hand mutants caught by the catalogue alone")
    return survivors


def run_mutants(args: argparse.Namespace) -> None:
    """Judge the sample (or every mutant) in copies of the project and print the report."""
    ledger = read_ledger()
    results: list[tuple[Mutant, bool, bool, list[str]]] = []
    with tempfile.TemporaryDirectory(prefix="oracle-mutants-") as folder:
        # Everything is read from the copies, so editing the project meanwhile changes nothing.
        copies: queue.Queue[Path] = queue.Queue()
        for job in range(max(1, args.jobs)):
            copy = Path(folder) / f"copy-{job}"
            copy.mkdir()
            copy_project(copy)
            copies.put(copy)
        every = mutants(args.files, Path(folder) / "copy-0")
        if args.all:
            sample = every
        else:
            sample = random.Random(args.seed).sample(every, min(args.mutants, len(every)))
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            futures = {
                pool.submit(_judge, copies, mutant, args.catalogue_only, args.timeout): mutant
                for mutant in sample
            }
            for number, future in enumerate(concurrent.futures.as_completed(futures), 1):
                mutant = futures[future]
                in_catalogue, in_suite, lines = future.result()
                results.append((mutant, in_catalogue, in_suite, lines))
                state = "catalogue" if in_catalogue else "suite" if in_suite else "missed"
                print(
                    f"{number:3d}/{len(sample)} engine/{mutant.module}.py:{mutant.line}"
                    f" {mutant.description:28s} {state}",
                    flush=True,
                )
    print(
        f"\n{len(every)} mutants in {', '.join(args.files)}; {len(sample)} judged"
        + ("" if args.all else f" (a sample, seed {args.seed})")
    )
    report(results, ledger, args.catalogue_only)


def catalogue_coverage(root: Path = ROOT) -> dict[str, tuple[int, int]]:
    """How much of each engine module the catalogue alone runs (``pytest cases`` under
    coverage, with branches): per module, the lines and branches run, and all of them. The
    slow references the tests check the engine against live in ``oracle/judges``, outside what
    is measured: no case is meant to run them. This is what an outside engine's conformance run
    can vouch for, module by module."""
    with tempfile.TemporaryDirectory(prefix="oracle-coverage-") as folder:
        data, summary = Path(folder) / "coverage.data", Path(folder) / "coverage.json"
        python = str(ROOT / ".venv" / "bin" / "python")
        run = [python, "-m", "coverage", "run", "--branch", "--source=engine"]
        pytest = ["-m", "pytest", "cases", "-q", "-p", "no:cacheprovider"]
        environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        done = subprocess.run(
            [*run, f"--data-file={data}", *pytest],
            cwd=root,
            env=environment,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise SystemExit(f"pytest cases failed under coverage:\n{done.stdout[-2000:]}")
        subprocess.run(
            [python, "-m", "coverage", "json", f"--data-file={data}", "-q", "-o", str(summary)],
            cwd=root,
            check=True,
        )
        files = json.loads(summary.read_text(encoding="utf-8"))["files"]
    table: dict[str, tuple[int, int]] = {}
    for name, measured in sorted(files.items()):
        module = Path(name).with_suffix("").as_posix().split("engine/", 1)[-1]
        if module.endswith("__init__"):
            continue
        counts = measured["summary"]
        table[module] = (
            counts["covered_lines"] + counts["covered_branches"],
            counts["num_statements"] + counts["num_branches"],
        )
    return table


def print_coverage(table: dict[str, tuple[int, int]]) -> None:
    """The coverage table, a module a line, and the whole; the mutated rule modules marked *."""
    print("branch coverage of the engine by the catalogue alone (pytest cases; * = mutated):")
    for module, (run, every) in table.items():
        mark = "*" if module in RULE_FILES else " "
        print(f"  {mark} {module:22s} {run:5d}/{every:<5d} {run / (every or 1):6.1%}")
    run = sum(counts[0] for counts in table.values())
    every = sum(counts[1] for counts in table.values())
    print(f"    {'in all':22s} {run:5d}/{every:<5d} {run / (every or 1):6.1%}")
    rules = [counts for module, counts in table.items() if module in RULE_FILES]
    run, every = sum(c[0] for c in rules), sum(c[1] for c in rules)
    print(f"    {'mutated ones':22s} {run:5d}/{every:<5d} {run / (every or 1):6.1%}\n")


def report(
    results: list[tuple[Mutant, bool, bool, list[str]]],
    ledger: dict[LedgerKey, LedgerEntry],
    catalogue_only: bool,
) -> None:
    """Print the rates over the mutants not in the ledger of equivalent ones, then every
    survivor, and every ledger entry the run contradicts (a listed mutant that was caught).
    The catalogue's rate also leaves out the mutants no case file can reach (``kind:
    out-of-reach``); the suite's counts them, since its tests call the engine directly."""
    equivalent = [item for item in results if _kind(item[0], ledger) == EQUIVALENT]
    judged = [item for item in results if _kind(item[0], ledger) != EQUIVALENT]
    reachable = [item for item in judged if _kind(item[0], ledger) is None]
    print(f"in the ledger as equivalent ({LEDGER.name}): {len(equivalent)}")
    print(f"in the ledger as out of a case file's reach: {len(judged) - len(reachable)}")
    by_catalogue = sum(item[1] for item in reachable)
    print(
        f"caught by the catalogue alone: {by_catalogue}/{len(reachable)} non-equivalent within"
        f" a case file's reach ({by_catalogue / (len(reachable) or 1):.1%}; counting the others"
        f" {sum(item[1] for item in judged)}/{len(judged)})"
    )
    if not catalogue_only:
        by_suite = sum(item[2] for item in judged)
        print(
            f"caught by the whole suite:     {by_suite}/{len(judged)} non-equivalent"
            f" ({by_suite / (len(judged) or 1):.1%})"
        )
    missed = [item for item in judged if not (item[1] if catalogue_only else item[2])]
    if missed:
        what = "the catalogue misses" if catalogue_only else "survive both"
        print(f"\nmutants {what} (a rule nothing checks, or one to add to the ledger):")
        for mutant, _, _, lines in sorted(missed, key=lambda item: (item[0].module, item[0].line)):
            entry = ledger_entry(mutant, ledger)
            note = f" [out of reach: {entry.why}]" if entry is not None else ""
            print(
                f"  engine/{mutant.module}.py:{mutant.line} in {mutant.where}:"
                f" {mutant.description}{note}"
            )
            for line in lines:
                print(f"      {line}")
    _contradicted(results, ledger)


def _contradicted(
    results: list[tuple[Mutant, bool, bool, list[str]]], ledger: dict[LedgerKey, LedgerEntry]
) -> None:
    """Every ledger entry the run contradicts (an equivalent mutant caught at all, or one out of
    a case file's reach caught by the catalogue), then the equivalent mutants met."""
    wrong = [
        item
        for item in results
        if (_kind(item[0], ledger) == EQUIVALENT and (item[1] or item[2]))
        or (_kind(item[0], ledger) == OUT_OF_REACH and item[1])
    ]
    if wrong:
        print("\nin the ledger, yet caught (the ledger entry is wrong):")
        for mutant, _, _, lines in wrong:
            print(f"  engine/{mutant.module}.py:{mutant.line} in {mutant.where}: {lines}")
    shown = [
        item
        for item in results
        if _kind(item[0], ledger) == EQUIVALENT and not (item[1] or item[2])
    ]
    if shown:
        print("\nequivalent mutants met (not counted):")
        for mutant, *_ in sorted(shown, key=lambda item: (item[0].module, item[0].line)):
            entry = ledger_entry(mutant, ledger)
            why = entry.why if entry is not None else ""
            print(f"  engine/{mutant.module}.py:{mutant.line} in {mutant.where}: {why}")


def _kind(mutant: Mutant, ledger: dict[LedgerKey, LedgerEntry]) -> str | None:
    """The ledger's kind for this mutant, or None when the ledger does not list it."""
    entry = ledger_entry(mutant, ledger)
    return None if entry is None else entry.kind


def ledger_entry(mutant: Mutant, ledger: dict[LedgerKey, LedgerEntry]) -> LedgerEntry | None:
    """The ledger's entry for this mutant: its own, or its function's (an entry without a
    line stands for every mutant of the function)."""
    return ledger.get(_key(mutant)) or ledger.get(_function_key(mutant.module, mutant.where))


def _function_key(module: str, where: str) -> LedgerKey:
    return (module, where, "", "", 1)


def _key(mutant: Mutant) -> LedgerKey:
    return (mutant.module, mutant.where, mutant.code, mutant.description, mutant.occurrence)


def read_ledger(path: Path | None = None) -> dict[LedgerKey, LedgerEntry]:
    """The mutants judged equivalent to the original, or out of a case file's reach, each with
    why. An entry names the file, the function, the line of code as written, the change, and which
    of several identical lines in that function it is (``occurrence``, 1 by default), so it
    survives code moving up or down; an entry without a line and a change stands for every
    mutant of its function. ``kind`` is ``equivalent`` (the default) or ``out-of-reach``."""
    where = path or LEDGER
    entries = yaml.safe_load(where.read_text(encoding="utf-8")) or []
    ledger: dict[LedgerKey, LedgerEntry] = {}
    for entry in entries:
        key = (
            entry["file"],
            entry["in"],
            entry.get("line", ""),
            entry.get("change", ""),
            entry.get("occurrence", 1),
        )
        if not str(entry.get("why", "")).strip():
            raise SystemExit(f"{where}: the entry for {key} says no why")
        kind = entry.get("kind", EQUIVALENT)
        if kind not in (EQUIVALENT, OUT_OF_REACH):
            raise SystemExit(
                f"{where}: the entry for {key} has kind {kind!r}; write {EQUIVALENT} or"
                f" {OUT_OF_REACH}"
            )
        ledger[key] = LedgerEntry(" ".join(str(entry["why"]).split()), kind)
    return ledger


if __name__ == "__main__":
    main()
