"""``make serve`` as an editor uses it, in chromium: on the fixture project (``tests/look/``)
served by ``mkdocs serve``, a page reloads by itself when a case file is saved, with no
Content-Security-Policy error; while a case file is broken every page names the problem, file and
line, and it is the page again once the file is fixed; a change to the oracle's code starts the
server again, and the open page follows.

Marked ``browser`` and ``slow`` (a served build takes seconds each): CI runs them.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_support import WATCH_POLICY, fresh_context, skip_without_a_browser
from reader_support import copy_look_project

from oracle.site.csp import digest
from oracle.site.serving import allow_live_reload, code_fingerprint, problems_page

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CASE = Path("cases") / "claims" / "01-incomplete-side.yaml"
CASE_PAGE = "cases/claims/incomplete-side.html"
SERVED_WITHIN = 180_000
"""Milliseconds a (re)build of the fixture site may take on a busy CI machine."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_until_served(url: str, log: Path) -> None:
    deadline = time.monotonic() + SERVED_WITHIN / 1000
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(1)
    pytest.fail(f"mkdocs serve did not serve {url}:\n{log.read_text()[-3000:]}")


@pytest.fixture
def served_project(tmp_path: Path) -> Iterator[tuple[Path, str, Path]]:
    """The fixture project served by ``mkdocs serve``: its folder, its address, its log."""
    skip_without_a_browser()
    project = copy_look_project(tmp_path / "project")
    (project / "oracle").mkdir()
    (project / "oracle" / "marker.py").write_text('"""Touched to change the code."""\n')
    port = _free_port()
    log = tmp_path / "serve.log"
    command = [sys.executable, "-m", "mkdocs", "serve", "--strict"]
    with log.open("w") as output:
        server = subprocess.Popen(
            [*command, "--dev-addr", f"127.0.0.1:{port}"],
            cwd=project,
            stdout=output,
            stderr=subprocess.STDOUT,
            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_served(f"{url}/index.html", log)
        yield project, url, log
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def _heading_holds(page: Page, words: str) -> None:
    page.wait_for_function(
        "words => { const h = document.querySelector('h1');"
        " return h !== null && h.innerText.includes(words); }",
        arg=words,
        timeout=SERVED_WITHIN,
    )


@pytest.mark.browser
@pytest.mark.slow
def test_an_editor_sees_each_save_served(
    browser: Browser, served_project: tuple[Path, str, Path]
) -> None:
    project, url, log = served_project
    context = fresh_context(browser)
    context.add_init_script(WATCH_POLICY)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    page.goto(f"{url}/{CASE_PAGE}")
    _heading_holds(page, "Only two of your cards")
    page.wait_for_timeout(1000)
    assert page.evaluate("window.__policyViolations") == []
    assert "Enabled live reload" in console
    case = project / CASE
    written = case.read_text(encoding="utf-8")

    # A saved case is served: the open page reloads by itself.
    case.write_text(written.replace("Only two of", "Just two of"), encoding="utf-8")
    _heading_holds(page, "Just two of your cards")

    # A broken case: the open page shows the problem, file and line, until it is fixed.
    case.write_text(written.replace("variant: base", "variant: [base"), encoding="utf-8")
    page.wait_for_function(
        "() => document.title.includes('cannot be built')", timeout=SERVED_WITHIN
    )
    assert f"{CASE}:" in page.inner_text("main")
    assert "YAML syntax error" in page.inner_text("main")
    case.write_text(written, encoding="utf-8")
    _heading_holds(page, "Only two of your cards")
    assert page.evaluate("window.__policyViolations") == []

    # A change to the code starts the server again, and the open page follows it.
    page.evaluate("window.__beforeTheRestart = true")
    marker = project / "oracle" / "marker.py"
    marker.write_text(marker.read_text() + "# changed\n")
    page.wait_for_function("() => window.__beforeTheRestart === undefined", timeout=SERVED_WITHIN)
    _heading_holds(page, "Only two of your cards")
    assert "code changed: starting the server again" in log.read_text()
    context.close()


def test_the_served_policy_allows_only_the_live_reload_script_written_into_the_page() -> None:
    policy = (
        '<meta http-equiv="Content-Security-Policy"'
        " content=\"default-src 'self'; script-src 'self'\">"
    )
    script = "\nvar livereload = function(epoch, requestId) {};\nlivereload(1, 2);\n"
    page = f"<html><head>{policy}</head><body><p>x</p><script>{script}</script></body></html>"
    served = allow_live_reload(page.encode()).decode()
    assert f"script-src {digest(script)} 'self'" in served
    other = page.replace("var livereload", "var somethingElse")
    assert allow_live_reload(other.encode()).decode() == other


def test_the_problems_page_shows_each_problem_as_text() -> None:
    shown = problems_page("cases/a.yaml:3: <script>alert(1)</script>\nsecond line").decode()
    assert "<script>" not in shown and "&#60;script&#62;" in shown
    assert shown.count("<li>") == 2 and "default-src 'none'" in shown


def test_a_change_to_the_engine_or_the_oracle_changes_the_code_fingerprint(
    tmp_path: Path,
) -> None:
    """What makes ``make serve`` start again (the browser test changes oracle/; a rule lives in
    engine/): a saved, added or removed Python file of either folder, and nothing else."""
    for folder in ("engine", "oracle"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "rules.py").write_text("RULE = 1\n")
    started = code_fingerprint(tmp_path)
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "a.yaml").write_text("id: a\n")
    (tmp_path / "engine" / "notes.txt").write_text("not code\n")
    assert code_fingerprint(tmp_path) == started
    for change in (
        lambda: (tmp_path / "engine" / "rules.py").write_text("RULE = 22\n"),
        lambda: (tmp_path / "engine" / "more.py").write_text(""),
        lambda: (tmp_path / "oracle" / "rules.py").unlink(),
    ):
        before = code_fingerprint(tmp_path)
        change()
        assert code_fingerprint(tmp_path) != before
