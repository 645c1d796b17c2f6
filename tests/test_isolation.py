"""``check`` green means ``make test`` green (issue 41): the developers' tests read a fixture
catalogue of their own (``tests/catalogue/``), never the editors' ``cases/`` or ``rules/``,
which only the catalogue's own gate judges (``schotten-oracle check``, ``pytest cases``, the site
build, with what ``coverage.yaml`` asks of the catalogue as a whole).

Two tests hold that rule: a fast one reads the tests' source for the ways a test reaches the
project's own catalogue, and a slow one makes changes to ``cases/`` and ``rules/`` alone that
``check`` accepts in a copy of the project, then runs the fast suite there.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

TESTS = ROOT / "tests"

REACHES_THE_CATALOGUE = re.compile(
    r"""ROOT\s*/\s*["'](?:cases|rules|coverage\.yaml)"""
    r"""|parent\.parent\s*/\s*["'](?:cases|rules)"""
    r"""|(?:build|verified)_catalogue\(\s*ROOT\b"""
    r"""|load_cases\(\s*ROOT\b"""
    r"""|chdir\(\s*ROOT\s*\)"""
    r"""|["']--root["'],\s*str\(ROOT\)"""
    r"""|cwd\s*=\s*ROOT\b"""
)
"""How a test would reach the project's own cases, rules index or coverage file."""

ALLOWED = {
    # The misreadings' answers of the editors' catalogue, worked out once before the workers of
    # make test start (it also runs pytest cases): a warm cache, which asserts nothing.
    ("conftest.py", "build_catalogue(ROOT, cache).matrix"),
}
"""The lines that may reach the project's catalogue, each with why, by file and text."""


def test_no_test_reads_the_projects_own_catalogue() -> None:
    """Slow tests included: what must hold of the editors' catalogue is a check of its own
    gate (coverage.yaml), reported by check, pytest cases and the build in the editor's words."""
    found = []
    for path in sorted(TESTS.glob("*.py")):
        if path.name == "test_isolation.py":
            continue  # its patterns, and its slow test's copy of the whole project
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if REACHES_THE_CATALOGUE.search(line) and not any(
                path.name == name and text in line for name, text in ALLOWED
            ):
                found.append(f"tests/{path.name}:{number}: {line.strip()}")
    assert not found, (
        "a test reads the editors' cases/ or rules/: read the fixture catalogue (conftest's"
        " FIXTURE, project_copy, catalogue) instead, or make the property a check in"
        " coverage.yaml\n" + "\n".join(found)
    )


CATALOGUE_ONLY_CHANGES = "cases/ and rules/ changed alone"


def _turn_case(board_from: Path, target: Path, case_id: str, moves: str) -> None:
    """A new turn case on the board of ``board_from`` (its expected answers left open, for pin
    to fill), written as a draft to ``target``."""
    lines = board_from.read_text(encoding="utf-8").splitlines()
    kept = []
    for line in lines:
        if line.startswith(("id:", "situation:", "why:", "reviewed:", "guards_against:")):
            continue
        if line.startswith("turn:"):
            break
        kept.append(line)
    header = [
        f"id: {case_id}",
        "situation: You play one card and draw, a case an editor added",
        "why: a turn is play, claim, draw",
        "draft: true",
    ]
    body = [line for line in kept if not line.startswith("#")]
    target.write_text(
        "\n".join([*header, *body, "turn:", f"  moves: [{moves}]", ""]), encoding="utf-8"
    )


@pytest.mark.slow
def test_a_change_to_cases_or_rules_alone_that_check_accepts_never_fails_make_test(
    tmp_path: Path,
) -> None:
    """Two cases added to a topic, a new ruling one of them pins (and the editors' schema made
    again, as check asks), a few cases dropped, rule texts reworded and the cases they hold
    confirmed (pin --reviewed --all-held): check accepts it, and the fast suite, run in that
    copy against its own code, passes."""
    copy = tmp_path / "project"
    built = {".git", ".venv", "node_modules", "site", "test-artefacts"}  # at the top only

    def left_out(folder: str, names: list[str]) -> set[str]:
        top = Path(folder) == ROOT
        return {n for n in names if (top and n in built) or n in ("__pycache__", ".mypy_cache")}

    shutil.copytree(ROOT, copy, ignore=left_out, symlinks=True)
    (copy / "node_modules").symlink_to(ROOT / "node_modules")
    environment = {**os.environ, "PYTHONPATH": str(copy)}
    environment.pop("PYTEST_ADDOPTS", None)
    environment.pop("PYTEST_XDIST_WORKER", None)

    def oracle(*argv: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "oracle.cli", *argv, "--root", str(copy)]
        return subprocess.run(
            command, cwd=copy, env=environment, capture_output=True, text=True, timeout=600
        )

    # Two new cases in turns, their answers pinned by the engine, then published.
    turns = copy / "cases" / "turns"
    first = sorted(turns.glob("*.yaml"))
    added = []
    for number, (source, moves) in enumerate(
        [(first[0], "green 5 on 6"), (first[0], "pink 3 on 6")], start=90
    ):
        target = turns / f"{number}-an-editors-turn-{number}.yaml"
        _turn_case(source, target, f"an-editors-turn-{number}", moves)
        added.append(target)
    # A new ruling, pinned by the first of them; the editors' schema made again (make schema).
    index = copy / "rules" / "index.yaml"
    anchor = "  - id: turn.play-card\n"
    ruling = (
        "  - id: turn.an-editors-ruling\n    kind: ruling\n    section: A turn\n"
        "    title: An editor's ruling\n    applies: base\n    text: A ruling an editor added.\n"
        "    reason: To see that a new ruling changes nothing a developer's test reads.\n\n"
    )
    index.write_text(index.read_text(encoding="utf-8").replace(anchor, ruling + anchor, 1))
    case = added[0].read_text(encoding="utf-8")
    added[0].write_text(case.replace("\nrules: [", "\nrules: [turn.an-editors-ruling, ", 1))
    assert "turn.an-editors-ruling" in added[0].read_text(encoding="utf-8")
    schema = [sys.executable, "-m", "oracle.casefile.schema", str(copy)]
    subprocess.run(schema, cwd=copy, env=environment, check=True, capture_output=True)
    pinned = oracle("pin", *map(str, added))
    assert pinned.returncode == 0, pinned.stdout + pinned.stderr
    for target in added:
        target.write_text(target.read_text().replace("draft: true\n", ""), encoding="utf-8")
    # Cases no page and no coverage asks for dropped; the texts of rules reworded.
    for name in (
        "more-claims/07-a-colour-run-laid-out-of-order.yaml",
        "tactic-cards/21-only-tactic-cards-in-hand.yaml",
        "end-of-game/05-both-pass-by-choice.yaml",
    ):
        (copy / "cases" / name).unlink(missing_ok=True)
    text = index.read_text(encoding="utf-8")
    for old, new in (
        ("exists exactly once", "exists once, and once only"),
        ("We call the six colours", "This site calls the six colours"),
    ):
        text = text.replace(old, new)
    index.write_text(text, encoding="utf-8")
    # The editor reads again what the reworded rules and the new cases hold, and confirms it.
    confirmed = oracle("pin", "--reviewed", "--all-held")
    assert confirmed.returncode == 0, confirmed.stdout + confirmed.stderr
    checked = oracle("check")
    assert checked.returncode == 0, f"check refuses the change this test makes:\n{checked.stdout}"

    suite = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests",
            "-q",
            "-x",
            "-p",
            "no:cacheprovider",
            "-n",
            "2",
            "-m",
            "not slow and not browser",
        ],
        cwd=copy,
        env=environment,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert suite.returncode == 0, f"{CATALOGUE_ONLY_CHANGES}:\n{suite.stdout[-6000:]}"
