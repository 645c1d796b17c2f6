"""Shared fixtures: pytester for the plugin tests, the seed table, a scratch copy of the project."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine import Verdict

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def seed_rows() -> list[tuple[str, Verdict]]:
    """The seed page's eleven rows, in order, with its verdicts: the table opens with them."""
    refused, granted = Verdict.REFUSED, Verdict.GRANTED
    return [
        ("incomplete-side", refused),
        ("last-three-in-your-hand", refused),
        ("last-three-on-the-table", granted),
        ("tie-you-finished-first", granted),
        ("tie-they-finished-first", refused),
        ("colour-run-against-blue-7-8", granted),
        ("no-wrap-around", refused),
        ("three-twos-beat-a-colour", granted),
        ("two-stones-at-once", granted),
        ("three-cards-under-mud-fight", refused),
        ("colour-run-under-blind-mans-bluff", refused),
    ]


@pytest.fixture
def project_copy(tmp_path: Path) -> Path:
    """The parts of the project a site build reads, copied so that a test may break them."""
    for name in ("cases", "rules", "site_src"):
        shutil.copytree(ROOT / name, tmp_path / name)
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    shutil.copytree(
        ROOT / "oracle", tmp_path / "oracle", ignore=shutil.ignore_patterns("__pycache__")
    )
    return tmp_path
