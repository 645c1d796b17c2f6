"""The wheel holds everything the command line, the pytest plugin and the site build need.

Built with ``python -m build`` (as ``make dist`` builds it: the wheel from the source archive),
installed with the site's packages at the lock's versions into a new virtual environment outside
the repository, it checks, tests (the pytest plugin collects the cases) and builds, for a
published address (``SITE_URL``), a copy of a project (the fixture catalogue, the site's sources
and the browser runtime) with no file of the repository's ``engine/`` or ``oracle/`` in reach.
Marked ``slow``: it builds a wheel and installs a dozen packages (CI runs it); 35 to 75 s here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, copy_project

pytestmark = pytest.mark.slow


def _run(command: list[str | Path], cwd: Path, site_url: str = "") -> str:
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "VIRTUAL_ENV", "SITE_URL"}
    }
    environment["NO_MKDOCS_2_WARNING"] = "1"
    if site_url:
        environment["SITE_URL"] = site_url
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
    # Built for a published address (mkdocs.yml's site_url, from SITE_URL, as the workflow
    # builds main): canonical links and a filled sitemap, and still strict.
    published = "https://example.github.io/schotten-totten-oracle/"
    _run([venv / "bin" / "mkdocs", "build", "--strict", "--quiet"], project, published)
    page = (project / "site" / "edge-cases.html").read_text(encoding="utf-8")
    assert f'<link rel="canonical" href="{published}edge-cases.html">' in page
    sitemap = (project / "site" / "sitemap.xml").read_text(encoding="utf-8")
    assert f"<loc>{published}edge-cases.html</loc>" in sitemap
    assert (project / "site" / "downloads" / "schotten-totten-catalogue.schema.json").is_file()
