"""The real site build: strict mkdocs, the verified table in the HTML, no request leaving the site.

Each test runs ``mkdocs build`` in a subprocess on a copy of the project (about two seconds).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Verdict
from oracle.render import build_catalogue


def build(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(root / "site")],
        cwd=root,
        capture_output=True,
        text=True,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
        timeout=300,
    )


def test_the_site_builds_with_the_verified_table_and_nothing_external(
    project_copy: Path, seed_rows: list[tuple[str, Verdict]]
) -> None:
    root = project_copy
    result = build(root)
    assert result.returncode == 0, result.stderr
    page = (root / "site" / "edge-cases.html").read_text()
    table = page[page.index("<table>") : page.index("</table>")]
    verdicts = re.findall(r"<strong>(Granted|Refused)</strong>", table)
    assert verdicts[: len(seed_rows)] == [verdict.label.capitalize() for _, verdict in seed_rows]
    assert "oracle:" not in page
    for report in build_catalogue(root).published:
        case_page = root / "site" / "cases" / report.case.topic / f"{report.case.id}.html"
        text = case_page.read_text()
        board = "oracle-written-board" if report.case.impossible else "oracle-board"
        assert f'class="{board}"' in text, case_page
        assert "The engine&rsquo;s answer" in text or "The engine's answer" in text
        assert f'href="../../cases/{report.case.topic}/{report.case.id}.html"' not in text
    search_index = (root / "site" / "search" / "search_index.json").read_text()
    assert "last-three-in-your-hand" in search_index
    for html in (root / "site").rglob("*.html"):
        text = html.read_text()
        for tag in re.findall(r"<(?:script|link|img)\b[^>]*>", text):
            assert not re.search(r"(src|href)=\"(https?:)?//", tag), (html.name, tag)


def test_a_flipped_verdict_fails_the_build_naming_the_file_and_line(project_copy: Path) -> None:
    root = project_copy
    case = root / "cases" / "claims" / "02-last-three-in-your-hand.yaml"
    text = case.read_text()
    case.write_text(text.replace("expect: refused", "expect: granted"))
    line = text.splitlines().index("  - stone: 3") + 1
    result = build(root)
    assert result.returncode != 0
    assert (
        f"cases/claims/02-last-three-in-your-hand.yaml:{line}: case 'last-three-in-your-hand',"
        " stone 3: expected granted, the engine says refused"
    ) in result.stderr
    assert "Traceback" not in result.stderr


def test_a_malformed_case_fails_the_build_in_one_line(project_copy: Path) -> None:
    root = project_copy
    (root / "cases" / "claims" / "90-broken.yaml").write_text("id: broken\nsituation: [\n")
    result = build(root)
    assert result.returncode != 0
    assert "cases/claims/90-broken.yaml:3: YAML syntax error" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_case_in_no_table_fails_the_build(project_copy: Path) -> None:
    seed = project_copy / "cases" / "claims" / "08-three-twos-beat-a-colour.yaml"
    lonely = project_copy / "cases" / "new-topic" / "lonely.yaml"
    lonely.parent.mkdir()
    lonely.write_text(seed.read_text().replace("id: three-twos-beat-a-colour", "id: lonely"))
    result = build(project_copy)
    assert result.returncode != 0
    assert (
        "cases/new-topic/lonely.yaml:2: case 'lonely' (topic 'new-topic') is in no table;"
        " add <!-- oracle:verdict-table new-topic --> to a page"
    ) in result.stderr


def test_each_build_numbers_its_report_so_serve_never_hides_a_repeat(project_copy: Path) -> None:
    from types import SimpleNamespace

    from mkdocs.exceptions import PluginError

    from oracle import mkdocs_hook

    case = project_copy / "cases" / "claims" / "07-no-wrap-around.yaml"
    case.write_text(case.read_text().replace("expect: refused", "expect: granted"))
    config = SimpleNamespace(
        config_file_path=str(project_copy / "mkdocs.yml"), docs_dir=str(project_copy / "site_src")
    )
    messages = []
    for _ in range(2):
        with pytest.raises(PluginError) as caught:
            mkdocs_hook.on_pre_build(config)  # type: ignore[arg-type]
        messages.append(str(caught.value))
    assert messages[0] != messages[1]
    assert messages[0].splitlines()[1:] == messages[1].splitlines()[1:]
