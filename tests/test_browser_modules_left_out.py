"""The default run does not import the browser tests' modules it would only deselect
(``conftest.pytest_ignore_collect``), and never leaves out a module a run's ``-m`` selects."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import pytest_ignore_collect

BROWSER_ONLY = "\n".join(
    [
        "import pytest",
        "pytestmark = pytest.mark.browser",
        "@pytest.mark.slow",
        "def test_a_long_look() -> None:",
        "    pass",
        "",
    ]
)
"""A module of browser tests, one of them slow too (written line by line: as this module's own
lines, its text would make the rule take this module for one of them)."""


def _left_out(tmp_path: Path, pytestconfig: pytest.Config, expression: str) -> bool | None:
    module = tmp_path / "test_pages.py"
    module.write_text(BROWSER_ONLY, encoding="utf-8")
    config = pytestconfig
    original = config.option.markexpr
    config.option.markexpr = expression
    try:
        return pytest_ignore_collect(module, config)
    finally:
        config.option.markexpr = original


@pytest.mark.parametrize(
    ("expression", "left_out"),
    [
        ("not slow and not browser", True),
        ("not browser", True),
        ("browser", None),
        ("slow", None),
        ("slow or browser", None),
        ("browser and slow", None),
        ("browser and not slow", None),
    ],
)
def test_a_browser_module_is_left_out_only_when_nothing_in_it_is_selected(
    tmp_path: Path, pytestconfig: pytest.Config, expression: str, left_out: bool | None
) -> None:
    assert _left_out(tmp_path, pytestconfig, expression) is left_out


def test_without_pytests_private_parser_every_module_is_collected(
    tmp_path: Path, pytestconfig: pytest.Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "_pytest.mark.expression", None)
    assert _left_out(tmp_path, pytestconfig, "not slow and not browser") is None
