"""The structure the code keeps (issue 20): small pieces, and one registry of question kinds that
every stage covers. The direction of imports and the absence of cycles are checked by
``lint-imports`` in ``make lint`` (the contracts are in pyproject.toml)."""

from __future__ import annotations

import ast
import copy
import importlib
import json
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path

from radon.complexity import cc_visit, cc_visit_ast
from radon.visitors import Class, Function

import engine
import oracle
from engine.game.cards_in_play import CardsInPlay
from engine.game.interface import GameState
from engine.game.play_state import PlayState
from oracle.casefile.loader import load_cases
from oracle.casefile.questions import (
    CLAIMS,
    QUESTION_KINDS,
    AnswerShape,
    case_schema,
    exported_kinds,
)
from oracle.catalogue import build_catalogue
from oracle.conformance.export import published_records
from oracle.misreadings.cache import MisreadingCache
from oracle.protocol.compare import SHAPE_COMPARISONS
from oracle.protocol.schema import PROTOCOL_SCHEMA, schema_text
from oracle.site.casepages import FILTER_WORDS
from oracle.verify.replay import VERIFIED_KINDS, verified_kinds

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


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _too_long_or_complex(path: Path) -> Iterator[str]:
    """What is wrong with a module of the engine or the oracle: over :data:`LONGEST_MODULE`
    lines, or a function above :data:`MOST_COMPLEX`."""
    source = path.read_text(encoding="utf-8")
    if source.count("\n") > LONGEST_MODULE:
        yield f"{_shown(path)} has over {LONGEST_MODULE} lines"
    for function in _functions(cc_visit(source)):
        if function.complexity > MOST_COMPLEX:
            yield (
                f"{_shown(path)}: {function.fullname} (line {function.lineno}) is above"
                f" {MOST_COMPLEX}: {function.complexity}"
            )


def test_no_function_is_too_complex_and_no_module_too_long() -> None:
    """Every module of the engine and the oracle, each one too long and each function too
    complex named at once (one test, not one a module: about 400 tests' reports less)."""
    found = [problem for path in SOURCES for problem in _too_long_or_complex(path)]
    assert SOURCES and not found, "\n".join(found)


TESTS = sorted((ROOT / "tests").rglob("*.py"))


class _AssertsAsChecks(ast.NodeTransformer):
    """An ``assert`` as the check it is: its condition kept (an ``and`` in it still counts),
    not a branch of its own, as radon counts it."""

    def visit_Assert(self, node: ast.Assert) -> ast.AST:
        return ast.copy_location(ast.Expr(node.test), node)


def _too_complex_tests(path: Path) -> Iterator[str]:
    """The functions of a test module above :data:`MOST_COMPLEX`, its asserts counted as
    checks (:class:`_AssertsAsChecks`)."""
    # radon reads the tree itself (not the tree written out as source and parsed again).
    tree = _AssertsAsChecks().visit(ast.parse(path.read_text(encoding="utf-8")))
    for function in _functions(cc_visit_ast(tree)):
        if function.complexity > MOST_COMPLEX:
            yield (
                f"{_shown(path)}: {function.fullname} is above {MOST_COMPLEX}:"
                f" {function.complexity}"
            )


def test_no_test_function_is_too_complex() -> None:
    """The tests are held to the code's bar of complexity (:data:`MOST_COMPLEX`), each of their
    checks counted once, as the condition it is, so that a long test is split into named steps
    rather than grown. Every module of tests/, each function too complex named at once."""
    found = [problem for path in TESTS for problem in _too_complex_tests(path)]
    assert TESTS and not found, "\n".join(found)


LONGEST_ENGINE_MODULE = 400
"""The most lines a module of the engine may have (a library others read: issue 46)."""

LONGEST_ENGINE_CLASS = 200
"""The most lines a class of the engine may have."""


def _too_long_in_the_engine(path: Path) -> Iterator[str]:
    """A module of the engine over :data:`LONGEST_ENGINE_MODULE` lines, and each of its classes
    over :data:`LONGEST_ENGINE_CLASS`."""
    source = path.read_text(encoding="utf-8")
    lines = source.count("\n")
    if lines > LONGEST_ENGINE_MODULE:
        yield f"{_shown(path)} has {lines} lines"
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
            length = node.end_lineno - node.lineno + 1
            if length > LONGEST_ENGINE_CLASS:
                yield f"{_shown(path)}: {node.name} is over {LONGEST_ENGINE_CLASS} lines: {length}"


def test_no_engine_module_or_class_is_too_long() -> None:
    """Every module of the engine, each one too long and each class too long named at once."""
    modules = sorted((ROOT / "engine").rglob("*.py"))
    found = [problem for path in modules for problem in _too_long_in_the_engine(path)]
    assert modules and not found, "\n".join(found)


STATE_CLASSES = (CardsInPlay, PlayState, GameState)
"""The game state's classes: the only code that may use their private names."""

CORRUPTING_ON_PURPOSE = {
    ("tests/test_game.py", "test_the_consistency_checks_name_each_counter_that_cannot_be_true"),
}
"""The one exception, named in full: a test that breaks a state's private counters by hand to
see the oracle's consistency checks name each."""


def _private_names() -> set[str]:
    """The private fields and methods of the game state's classes (not the dunder ones)."""
    names: set[str] = set()
    for kind in STATE_CLASSES:
        for name in [*vars(kind), *vars(kind).get("__slots__", ())]:
            if name.startswith("_") and not name.startswith("__"):
                names.add(name)
    return names


def _private_uses(tree: ast.AST, names: set[str]) -> Iterator[tuple[int, str, str]]:
    """Each ``something._name`` of ``names`` outside the state's classes: its line, the name,
    and the function it is in."""
    inside = {kind.__name__ for kind in STATE_CLASSES}

    def visit(node: ast.AST, in_state: bool, function: str) -> Iterator[tuple[int, str, str]]:
        if isinstance(node, ast.ClassDef):
            in_state = in_state or node.name in inside
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not function:
            function = node.name
        if isinstance(node, ast.Attribute) and node.attr in names and not in_state:
            yield node.lineno, node.attr, function
        for child in ast.iter_child_nodes(node):
            yield from visit(child, in_state, function)

    yield from visit(tree, False, "")


def test_only_the_state_uses_its_private_fields() -> None:
    """One writer of the game state: no module but the state's own classes reads or writes its
    private fields or calls its private methods, so what the state keeps worked out cannot go
    stale behind its back (issue 46)."""
    names = _private_names()
    assert {"_version", "_derived", "_played_this_turn", "_steps"} <= names
    # An attribute used is written out after its dot (an identifier is read as written, but for
    # the NFKC normalization of one that is not ASCII), with at most blanks, line continuations
    # and comments between: only a file holding such a text is worth parsing.
    written = re.compile(
        r"\.(?:[\s\\]|#[^\n]*)*(?:" + "|".join(sorted(map(re.escape, names))) + r")\b"
    )
    found = []
    for folder in ("engine", "oracle", "bench", "tests"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = str(path.relative_to(ROOT))
            source = path.read_text(encoding="utf-8")
            if source.isascii() and not written.search(source):
                continue
            tree = ast.parse(source)
            found += [
                f"{relative}:{line} {name} (in {function or 'the module'})"
                for line, name, function in _private_uses(tree, names)
                if (relative, function) not in CORRUPTING_ON_PURPOSE
            ]
    assert not found, found


def test_every_stage_covers_every_kind_of_question() -> None:
    """A question kind added to the registry must be given to each stage, not found missing
    later: the verifier answers and judges every kind (once), each shape of answer is compared,
    the case schema is composed of every kind's part, and the protocol's schema names every
    exported one."""
    assert [entry.kind for entry in verified_kinds()] == list(QUESTION_KINDS)
    assert len(VERIFIED_KINDS) == len(QUESTION_KINDS)
    assert set(SHAPE_COMPARISONS) == set(AnswerShape)
    filtered = {kind for kind, _ in FILTER_WORDS}
    assert filtered == set(QUESTION_KINDS) - {CLAIMS}  # a table filters claims by verdict
    asked = [key for key in case_schema()["properties"] if key in {k.key for k in QUESTION_KINDS}]
    assert asked == [kind.key for kind in QUESTION_KINDS]  # each kind's part, in its order
    parts = {path.name for path in (ROOT / "oracle" / "schema" / "kinds").iterdir()}
    assert parts == {f"{kind.key}.schema.json" for kind in QUESTION_KINDS}  # and no other
    protocol = json.loads(schema_text(PROTOCOL_SCHEMA))["definitions"]
    keys = [kind.key for kind in exported_kinds()]
    assert set(protocol["answers"]["properties"]) == set(keys)
    names = protocol["answer"]["properties"]["unsupported"]["items"]["pattern"]
    assert names.startswith(f"^({'|'.join(keys)})")


def _module_values() -> dict[str, tuple[int, object]]:
    """Every value bound at module level in the engine and the oracle, by its full name: its
    identity, and for a list, dict, set or bytearray a copy of what it holds, and for a function
    that memoises its answers (``functools.cache``, ``lru_cache``) how many it holds."""
    modules = [
        importlib.import_module(found.name)
        for package in (engine, oracle)
        for found in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
    ]
    values: dict[str, tuple[int, object]] = {}
    for module in modules:  # once all are imported: a package holds its modules
        for name, value in list(vars(module).items()):
            if not name.startswith("__"):
                values[f"{module.__name__}.{name}"] = (id(value), _held(value))
    return values


MUTABLE = (list, dict, set, bytearray)


def _held(value: object) -> object:
    """What a module-level value holds that using it could change (None: nothing)."""
    if isinstance(value, MUTABLE):
        return copy.copy(value)
    info = getattr(value, "cache_info", None)
    return ("memoised", info().currsize) if callable(info) else None


PURE_MEMOS = {
    "oracle.casefile.validation.load_schema",
    "oracle.casefile.validation._validator",
    "oracle.casefile.questions._composed",
    "oracle.casefile.questions._case_validator",
    "oracle.protocol.schema._validator",
    "oracle.conformance.export._record_validator",
    "oracle.conformance.results._schema",
    "oracle.conformance.results._validator",
    "oracle.misreadings.cache.answers_digest",
    "oracle.site.odds.counts_digest",
    "oracle.judges.reference_rules.troop_identities",
    "oracle.judges.enumeration._standing_of_set",
    "oracle.judges.enumeration._best_standing_of_set",
    "oracle.verify.openings.opening_ceiling",
    "engine.cards.tables._coverings_of",
    "engine.cards.tables._first_coverings",
    "engine.cards.tables._troop_facts",
    "engine.cards.tables._colour_tops",
    "engine.cards.tables._highest_runs",
    "engine.cards.formations._side_strength",
    "engine.cards.formations._wild_choices",
    "engine.proof.variants._card_mask",
}
"""Functions allowed to fill a memo as a catalogue is used, named in full: each the same answer
for the same arguments whoever asks, for the life of the process (the package's own schema
files and their validators, a card table, the digest of the code running), never what a run
worked out about its cases, which belongs to an object its caller makes and lets go of."""


def test_using_a_catalogue_changes_no_module(project_to_read: Path, tmp_path: Path) -> None:
    """State lives in objects that a build, a test or a page makes (the catalogue, what it is
    given to keep, the misreadings' cache and its judge's memos): building a catalogue and using
    it (its problems, its matrix worked out afresh, its export, a case read again) leaves every
    module's values as they were, whatever their names, so nothing a run works out is kept by
    the process behind its owner's back; a memoised function may fill only if it is a pure
    memo of :data:`PURE_MEMOS`."""
    before = _module_values()
    catalogue = build_catalogue(project_to_read, MisreadingCache(tmp_path / "cold"))
    assert not catalogue.problems
    published_records(catalogue.published, catalogue.matrix)
    load_cases(project_to_read / "cases")
    after = _module_values()
    changed = sorted(
        name
        for name, (identity, held) in after.items()
        if name not in before or before[name][0] != identity or held != before[name][1]
    )
    changed = [name for name in changed if name not in PURE_MEMOS]
    assert not changed, f"module-level state: {changed}"


def test_the_lock_file_installs_anywhere() -> None:
    """The lock pins only registry releases: the project's own extras name the project, and a
    pin of it to one machine's folder makes the install fail on every other clone."""
    lock = (ROOT / "requirements-dev.lock").read_text(encoding="utf-8")
    pinned = [line for line in lock.splitlines() if line and not line.startswith((" ", "#"))]
    assert pinned, "the lock file pins nothing"
    assert all("==" in line and "@" not in line for line in pinned), pinned
    assert not any(line.startswith("schotten-totten-oracle") for line in pinned)


def test_judging_a_position_imports_neither_typing_nor_dataclasses() -> None:
    """``import engine`` loads what judging needs and nothing heavy: typing, dataclasses and the
    inspect module they bring would triple its start-up (bench/claim_bench.py measures it)."""
    import subprocess
    import sys

    probe = (
        "import sys; import engine; engine.claim_verdict(engine.Position(), 1);"
        " print(' '.join(sorted(m for m in ('typing', 'dataclasses', 'inspect', 're')"
        " if m in sys.modules)))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    assert loaded == []
