"""One catalogue, three front ends (issue 20): ``schotten-oracle check``, the pytest plugin and the
site build are fed the same broken project and report the same problems in the same words, since
each asks :class:`oracle.catalogue.Catalogue` for them."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest
from case_files import passing_case
from conftest import kept_for_the_run

from oracle.catalogue import build_catalogue
from oracle.cli import main

LONELY = passing_case("lonely", "A case in a topic no page shows", "Its table is on no page")


@pytest.fixture(scope="module")
def broken(
    tmp_path_factory: pytest.TempPathFactory, project_copier: Callable[[Path], Path]
) -> Path:
    """A project with a problem of each kind: a drifted case, a file that does not load, a
    misreading a case names but does not catch, a topic no page shows."""
    root = project_copier(tmp_path_factory.mktemp("broken"))
    claims = root / "cases" / "claims"
    drifted = claims / "07-no-wrap-around.yaml"
    drifted.write_text(drifted.read_text().replace("expect: refused", "expect: granted"))
    (claims / "90-broken.yaml").write_text("id: [\n")
    guarded = claims / "08-three-twos-beat-a-colour.yaml"
    guarded.write_text(
        guarded.read_text().replace(
            "guards_against: [colour-beats-three-of-a-kind, colour-and-run-above-three-of-a-kind]",
            "guards_against: [hand-is-proof]",
        )
    )
    (root / "cases" / "lonely-topic").mkdir()
    (root / "cases" / "lonely-topic" / "01-lonely.yaml").write_text(LONELY)
    (root / "pytest.ini").write_text(  # as the project configures it
        "[pytest]\noracle_case_dirs = cases\naddopts = --continue-on-collection-errors\n"
    )
    return root


def _run(root: Path, *command: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", *command], cwd=root, capture_output=True, text=True, timeout=300
    )
    assert result.returncode != 0, result.stdout + result.stderr
    return result.stdout + result.stderr


def _build_report(root: Path) -> str:
    """What the site build stops with: the plugin's report before any page is rendered (as
    ``mkdocs build`` prints it, without a whole build's cost)."""
    from mkdocs.exceptions import PluginError

    from oracle.site.plugin import OraclePlugin

    config = SimpleNamespace(
        config_file_path=str(root / "mkdocs.yml"), docs_dir=str(root / "site_src")
    )
    with pytest.raises(PluginError) as stopped:
        OraclePlugin().on_pre_build(config=config)  # type: ignore[arg-type]
    return str(stopped.value)


@pytest.mark.slow  # pytest and a site build in subprocesses: CI runs it
def test_check_pytest_and_the_build_report_the_same_problems(
    broken: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = build_catalogue(broken, kept=kept_for_the_run()).problem_lines
    located = [line for line in lines if not line.startswith(" ")]
    assert len(located) >= 4, lines
    assert any("no page shows the topic 'lonely-topic'" in line for line in located)
    assert any("guards against 'hand-is-proof'" in line for line in located)
    assert any("90-broken.yaml:2: YAML syntax error" in line for line in located)
    assert any("07-no-wrap-around.yaml" in line for line in located)

    assert main(["check", "--root", str(broken)]) == 1
    checked = capsys.readouterr().out
    tested = _run(broken, "pytest", "cases", "-q", "-p", "no:cacheprovider", "-p", "no:xdist")
    built = _build_report(broken)
    for name, output in (("check", checked), ("pytest", tested), ("mkdocs build", built)):
        missing = [line for line in lines if line not in output]
        assert not missing, f"{name} does not report: {missing}"
