"""The wheel holds everything the command line, the pytest plugin and the site build need.

Built with ``python -m build`` (as ``make dist`` builds it: the wheel from the source archive),
installed with the site's packages at the lock's versions into a new virtual environment outside
the repository, it checks, tests (the pytest plugin collects the cases) and builds a copy of a
project (the fixture catalogue, the site's sources and the browser runtime) with no
file of the repository's ``engine/`` or ``oracle/`` in reach. Marked ``slow``: it builds a wheel
and installs a dozen packages (CI runs it).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, copy_project

pytestmark = pytest.mark.slow


def _run(command: list[str | Path], cwd: Path) -> str:
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "VIRTUAL_ENV", "SITE_URL"}
    }
    environment["NO_MKDOCS_2_WARNING"] = "1"
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, f"{command}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_the_installed_wheel_checks_and_builds_a_project(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    # The source archive first, then the wheel built from it, as make dist does: what the wheel
    # holds, the source archive holds too.
    _run([sys.executable, "-m", "build", "--outdir", dist, ROOT], cwd=tmp_path)
    (wheel,) = dist.glob("schotten_totten_oracle-*.whl")
    assert len(list(dist.glob("schotten_totten_oracle-*.tar.gz"))) == 1
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", venv], cwd=tmp_path)
    python = venv / "bin" / "python"
    lock = ROOT / "requirements-dev.lock"
    _run([python, "-m", "pip", "install", "--quiet", "-c", lock, f"{wheel}[site]"], cwd=tmp_path)
    project = copy_project(tmp_path / "project")
    where = _run(
        [python, "-c", "import engine, oracle; print(engine.__file__, oracle.__file__)"], project
    )
    assert all(Path(path).is_relative_to(venv) for path in where.split()), where
    _run([venv / "bin" / "schotten-oracle", "check"], cwd=project)
    # A catalogue's own project names its case folders to the plugin, as pyproject.toml does here.
    (project / "pytest.ini").write_text("[pytest]\noracle_case_dirs = cases\n", encoding="utf-8")
    tested = _run([venv / "bin" / "pytest", "-q", "-p", "no:cacheprovider", "cases"], project)
    assert " passed" in tested and " failed" not in tested, tested
    _run([venv / "bin" / "mkdocs", "build", "--strict", "--quiet"], cwd=project)
    assert (project / "site" / "edge-cases.html").is_file()
    assert (project / "site" / "downloads" / "schotten-totten-catalogue.schema.json").is_file()
