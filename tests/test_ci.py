"""CI runs one gate, ``.ci/gate``, wherever it runs: ``.ci/run`` (CI on a fresh machine) and the
GitHub workflow both call it, so neither can drift from the other; the workflow's actions are
pinned by commit and its jobs hold no more permissions than they use."""

from __future__ import annotations

import re
from typing import Any

import yaml
from conftest import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "site.yml"
GATE = ".ci/gate"


def _commands(script: str) -> list[str]:
    """The lines of a shell script that run something: no comments, no blank lines."""
    lines = (line.strip() for line in script.splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def _workflow() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    return loaded


def test_ci_run_installs_then_calls_the_gate() -> None:
    """.ci/run installs, runs the README's test command itself, then the rest of the gate."""
    commands = _commands((ROOT / ".ci" / "run").read_text(encoding="utf-8"))
    assert commands[-1] == f"exec bash {GATE} --after-make-test"
    assert "if ! make test; then" in commands
    assert not any("pytest" in line for line in commands)
    gate = (ROOT / GATE).read_text(encoding="utf-8")
    assert '"${1:-}" != "--after-make-test" ] && ! make test' in gate
    assert (ROOT / GATE).stat().st_mode & 0o111, f"{GATE} must be executable"


def test_the_workflow_gate_job_calls_the_same_gate() -> None:
    steps = _workflow()["jobs"]["gate"]["steps"]
    runs = [step["run"].strip() for step in steps if "run" in step]
    assert GATE in runs
    assert not any("pytest" in run or "make test" in run for run in runs)


def test_every_action_is_pinned_by_its_commit_with_the_version_beside_it() -> None:
    uses = re.findall(r"uses:\s*(\S+)(.*)", WORKFLOW.read_text(encoding="utf-8"))
    assert uses
    for action, comment in uses:
        assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", action), action
        assert re.fullmatch(r"\s*# v\d+(\.\d+)*", comment), f"{action}: {comment!r}"


def test_only_the_jobs_that_write_may_write() -> None:
    workflow = _workflow()
    assert workflow["permissions"] == {"contents": "read"}
    granted = {
        name: job["permissions"] for name, job in workflow["jobs"].items() if "permissions" in job
    }
    assert granted == {
        "comment": {"pull-requests": "write"},
        "deploy": {"pages": "write", "id-token": "write"},
        "release": {"contents": "write"},
    }
    assert "head.repo.full_name == github.repository" in workflow["jobs"]["comment"]["if"]


def test_the_pre_commit_ruff_is_the_locked_ruff() -> None:
    """``.pre-commit-config.yaml`` runs ruff at the version ``make lint`` runs, so the two never
    disagree about a file."""
    lock = (ROOT / "requirements-dev.lock").read_text(encoding="utf-8")
    (locked,) = re.findall(r"^ruff==(\S+)$", lock, re.MULTILINE)
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    pins = {
        dependency
        for repo in config["repos"]
        for hook in repo["hooks"]
        for dependency in hook.get("additional_dependencies", [])
        if dependency.startswith("ruff")
    }
    assert pins == {f"ruff=={locked}"}


def test_the_hooks_offered_to_catalogue_repositories_exist() -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    entries = {hook["id"]: hook["entry"] for hook in hooks}
    assert entries == {
        "schotten-oracle-check": "schotten-oracle check",
        "schotten-oracle-schema": "python -m oracle.casefile.schema --check",
    }


def test_the_failing_reader_tests_pictures_are_kept() -> None:
    """A failing reader test leaves its screenshots and diff pages where the gate points it
    (``ORACLE_ARTEFACTS``), the gate names that folder when the browser run fails, and the
    workflow keeps it as an artefact of a failed run."""
    gate = _commands((ROOT / GATE).read_text(encoding="utf-8"))
    assert 'export ORACLE_ARTEFACTS="$PWD/test-artefacts"' in gate
    browser_run = next(i for i, line in enumerate(gate) if '-m "slow or browser"' in line)
    assert any('find "$ORACLE_ARTEFACTS"' in line for line in gate[browser_run:])
    kept = [
        step
        for step in _workflow()["jobs"]["gate"]["steps"]
        if step.get("with", {}).get("path") == "test-artefacts/"
    ]
    assert [step["if"] for step in kept] == ["failure()"], kept
    assert kept[0]["uses"].startswith("actions/upload-artifact@")
