"""Every public name of the engine shows how it is used, and every example the engine shows is true.

The examples are the docstrings' ``>>>`` lines, run here as doctests: a name's own docstring holds
its example, and the constants and aliases, whose docstrings doctest cannot reach, are shown in a
module's docstring (the front door's, :mod:`engine`).
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
import re
from types import ModuleType

import engine

MODULES: list[ModuleType] = [
    engine,
    *(
        importlib.import_module(info.name)
        for info in pkgutil.walk_packages(engine.__path__, prefix="engine.")
    ),
]
"""The engine and every module inside it."""

EXAMPLES: list[doctest.DocTest] = [
    test
    for module in MODULES
    for test in doctest.DocTestFinder(recurse=True).find(module, module.__name__)
    if test.examples
]
"""Every docstring of the engine that holds an example."""


def _failures(test: doctest.DocTest) -> list[str]:
    """Each failing example of ``test``, with where it is and what it gave instead."""
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS, verbose=False)
    runner.run(test, out=report.append, clear_globs=True)
    return report


def test_every_example_of_the_engine_holds() -> None:
    assert len(EXAMPLES) > 50, "the engine's examples were not found"
    failures = {test.name: _failures(test) for test in EXAMPLES}
    failing = {name: report for name, report in failures.items() if report}
    assert not failing, "examples that fail:\n" + "\n".join(
        f"--- {name}\n{''.join(report)}" for name, report in failing.items()
    )


def _own_docstring(value: object) -> str:
    """The docstring written for ``value`` itself: a class's or a function's from the engine."""
    is_ours = inspect.isclass(value) or inspect.isfunction(value)
    if not is_ours or not getattr(value, "__module__", "").startswith("engine"):
        return ""
    return inspect.getdoc(value) or ""


def _shown_in_a_module() -> str:
    """The ``>>>`` and ``...`` lines of every module's docstring but their imports, together."""
    lines = (line.strip() for module in MODULES for line in (module.__doc__ or "").splitlines())
    shown = (line for line in lines if line.startswith((">>>", "...")))
    return "\n".join(line for line in shown if not line.startswith(">>> from "))


def test_every_public_name_has_an_example() -> None:
    shown = _shown_in_a_module()
    lacking = [
        name
        for name in engine.__all__
        if ">>>" not in _own_docstring(getattr(engine, name))
        and not re.search(rf"\b{name}\b", shown)
    ]
    assert not lacking, f"public names without an example in their docstring: {lacking}"


def test_every_example_is_shown_as_code() -> None:
    """The Engine reference page renders docstrings as Markdown, which shows an indented block as
    code but reads a ``>>>`` line at the docstring's margin as three nested block quotes."""
    at_the_margin = [
        test.name
        for test in EXAMPLES
        if re.search(r"^>>>", inspect.cleandoc(test.docstring or ""), flags=re.MULTILINE)
    ]
    assert not at_the_margin, f"examples to indent under a line of prose: {at_the_margin}"
