"""Everything outside the engine imports it by its front door: ``engine`` and the names of
``engine.__all__``, never a module inside it, so that the engine's modules may move freely.

import-linter holds the oracle to it (pyproject.toml); it cannot see which names a module takes
from ``engine``, nor the benches and the downloadable example adapter, which are no package.
This reads their imports (those inside functions and under TYPE_CHECKING too).
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = ("oracle", "bench", "site_src/downloads")
"""The folders whose Python stands outside the engine and must use only its public names."""


def _engine_imports(path: Path) -> list[str]:
    """Each way ``path`` reaches past the front door, as ``line: what``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [
                f"{node.lineno}: import {alias.name}"
                for alias in node.names
                if alias.name.startswith("engine.")
            ]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.startswith("engine."):
                found.append(f"{node.lineno}: from {node.module} import ...")
            elif node.module == "engine":
                found += [
                    f"{node.lineno}: from engine import {alias.name} (not in engine.__all__)"
                    for alias in node.names
                    if alias.name not in engine.__all__
                ]
    return found


def test_outside_the_engine_only_public_names_are_imported() -> None:
    files = [path for folder in OUTSIDE for path in sorted((ROOT / folder).rglob("*.py"))]
    assert len(files) > 50
    reaching = [
        f"{path.relative_to(ROOT)}:{found}" for path in files for found in _engine_imports(path)
    ]
    assert not reaching, "past the engine's front door:\n" + "\n".join(reaching)


def test_the_check_sees_a_reach_past_the_front_door(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from engine import Position, echoed\n"
        "def f():\n"
        "    from engine.cards.card import mask_of\n"
        "    import engine.game.interface\n",
        encoding="utf-8",
    )
    assert _engine_imports(probe) == [
        "1: from engine import echoed (not in engine.__all__)",
        "3: from engine.cards.card import ...",
        "4: import engine.game.interface",
    ]


def test_every_public_name_is_there_and_documented() -> None:
    """Each name of ``engine.__all__`` exists; each function and class says what it is."""
    for name in engine.__all__:
        value = getattr(engine, name)
        if callable(value) and not isinstance(value, int):
            assert (value.__doc__ or "").strip(), f"engine.{name} has no docstring"


def test_the_engine_references_guide_runs() -> None:
    """The guide on the site's Engine reference page (site_src/engine-reference.md) is code a
    reader copies: its examples run, in order, with the engine as it is, and say what it does."""
    page = (ROOT / "site_src" / "engine-reference.md").read_text(encoding="utf-8")
    examples = re.findall(r"^```python\n(.*?)^```$", page, flags=re.M | re.S)
    assert len(examples) == 4, "load a position, judge a claim, play a game, replay a record"
    namespace: dict[str, object] = {}
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        for example in examples:
            exec(compile(example, "engine-reference.md", "exec"), namespace)
    assert "blue 9" in printed.getvalue() and "False" in printed.getvalue()
    assert "::: engine" in page  # the reference itself, generated from engine.__all__
