"""What every browser test shares: one chromium per test process, each site built once for the
whole run (however many processes pytest-xdist spreads it over) and served on localhost, and a
page that records errors, requests leaving localhost and policy violations.

No browser is downloaded: playwright launches ``/usr/bin/chromium`` (or ``$ORACLE_CHROMIUM``).
The tests that use these fixtures are marked ``browser``, which the default run (``make test``)
leaves out. Without chromium or playwright they are skipped, unless ``ORACLE_REQUIRE_BROWSER=1``
(as CI sets it), where a missing browser is a failure. Loaded by ``tests/conftest.py``.
"""

from __future__ import annotations

import fcntl
import functools
import importlib.util
import os
import random
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

import pytest

from oracle.browser.pages import Session

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

HAVE_PLAYWRIGHT = importlib.util.find_spec("playwright") is not None
"""Whether playwright is installed. It is imported by the browser fixture alone, not by every
test process that loads this module (about 40 ms of CPU each, for tests the default run leaves
out)."""

CHROMIUM = os.environ.get("ORACLE_CHROMIUM", "/usr/bin/chromium")
REQUIRED = os.environ.get("ORACLE_REQUIRE_BROWSER") == "1"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

WATCH_POLICY = """
window.__policyViolations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.__policyViolations.push(event.violatedDirective + ' ' + (event.blockedURI || 'inline')
    + ' ' + (event.sample || ''));
});
"""
"""Recorded from the first script of every page: what the Content-Security-Policy blocked."""


def _missing() -> str | None:
    if not HAVE_PLAYWRIGHT:
        return "playwright is not installed (pip install -e '.[dev]')"
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"no chromium at {CHROMIUM} (Debian: apt-get install chromium)"
    return None


def skip_without_a_browser() -> None:
    """Skip when chromium or playwright is missing, unless the browser tests are required."""
    missing = _missing()
    if missing:
        if REQUIRED:
            pytest.fail(f"browser tests are required here but {missing}")
        pytest.skip(missing)


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a page left before its last file arrived: nothing to report


def build_site(root: Path, what: str) -> Path:
    """Build the project at ``root`` strictly into ``root/site``; fail the test if it does not."""
    site = root / "site"
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=900,
    )
    if built.returncode != 0:
        pytest.fail(f"{what} does not build:\n{built.stderr[-3000:]}", pytrace=False)
    return site


def shared_build(
    tmp_path_factory: pytest.TempPathFactory, name: str, prepare: Callable[[Path], Path]
) -> Path:
    """The site of the project that ``prepare`` lays out in the folder it is given, built once
    for the whole run: the first process to ask builds it under a lock, and every other process
    of a run spread by pytest-xdist waits for it and shares it (a failed build fails them all
    with its message, and is not tried again)."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, above each worker's own
    folder = base / f"shared-{name}"
    with open(base / f"shared-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        built, failed = folder / "built", folder / "failed"
        if failed.exists():
            pytest.fail(failed.read_text(encoding="utf-8"), pytrace=False)
        if not built.exists():
            folder.mkdir(exist_ok=True)
            try:
                (folder / "project").mkdir(exist_ok=True)
                root = prepare(folder / "project")
                site = build_site(root, name)
            except BaseException as error:
                failed.write_text(f"{name} does not build: {error}", encoding="utf-8")
                raise
            built.write_text(str(site), encoding="utf-8")
        return Path(built.read_text(encoding="utf-8"))


def served(site: Path) -> Iterator[str]:
    """Serve a built site on a free localhost port for as long as the generator lives."""
    handler = functools.partial(_Quiet, directory=str(site))
    server = _Server(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


class Visit:
    """A page under test, with every console error, every request that left localhost, and
    everything the Content-Security-Policy blocked."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.errors: list[str] = []
        self.external: list[str] = []
        self.requested: list[str] = []
        page.add_init_script(WATCH_POLICY)
        page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )
        page.on("pageerror", lambda error: self.errors.append(str(error)))

        def route(route: Any) -> None:
            self.requested.append(route.request.url)
            host = urlparse(route.request.url).hostname
            if host in ("127.0.0.1", "localhost"):
                route.continue_()
            else:
                self.external.append(route.request.url)
                route.abort()

        page.route("**/*", route)

    def violations(self) -> list[str]:
        """What the page's policy has blocked so far."""
        found: list[str] = self.page.evaluate("() => window.__policyViolations || []")
        return found

    def clean(self) -> None:
        assert not self.errors, self.errors
        assert not self.external, self.external
        assert not self.violations()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One chromium for the whole run of a test process (each test opens its own context)."""
    skip_without_a_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def built_site(
    tmp_path_factory: pytest.TempPathFactory, project_copier: Callable[[Path], Path]
) -> Path:
    """The project's site, built once for the run (a test may add files of its own to it,
    under a name no other test uses)."""
    skip_without_a_browser()
    # The publishable cases only: a case still being edited fails its own test, not these.
    return shared_build(tmp_path_factory, "the site", project_copier)


@pytest.fixture(scope="session")
def site_url(built_site: Path) -> Iterator[str]:
    """The project's site, served on a free localhost port."""
    yield from served(built_site)


def fresh_context(browser: Browser, **options: Any) -> BrowserContext:
    """A context of its own, with the site's service worker blocked: it would fetch the 13 MB
    runtime again for every context (the test of the worker itself allows it)."""
    return browser.new_context(service_workers="block", **options)


@pytest.fixture
def visit(browser: Browser) -> Iterator[Visit]:
    """A fresh page in a context of its own."""
    context = fresh_context(browser)
    page = context.new_page()
    yield Visit(page)
    context.close()


# --------------------------------------------------------------- playing at the Play page's table


def activate(page: Page, target: Any, how: str) -> None:
    """Press a control as the reader does: a click, or the keyboard alone."""
    if how == "keyboard":
        target.focus()
        page.keyboard.press("Enter")
    else:
        target.click()


def table_turn(page: Page, how: str, rng: random.Random, double_click: bool) -> None:
    """Make the reader's move for the step the table shows."""
    phase = page.get_attribute("#oracle-app", "data-phase")
    actions = page.locator("#game-actions button")
    enabled_hand = page.locator("#game-hand button:not([disabled]):not([aria-disabled=true])")
    if phase == "claim":
        for label in page.locator(".oracle-claimable .oracle-play-label").all():
            if label.get_attribute("aria-pressed") == "false":
                activate(page, label, how)
        activate(page, actions.first, how)  # "Claim stones ..." or "Claim nothing"
    elif phase in ("draw", "recruiter draw"):
        activate(page, actions.nth(rng.randrange(actions.count())), how)
    elif phase == "recruiter return":
        activate(page, enabled_hand.first, how)
    elif enabled_hand.count() == 0:
        activate(page, page.get_by_role("button", name="Pass (play no card)"), how)
    else:
        card = enabled_hand.nth(rng.randrange(enabled_hand.count()))
        name = card.get_attribute("data-card")
        activate(page, card, how)
        picks = page.locator("#game-table .oracle-play-pick")
        if name == "recruiter":
            activate(page, page.get_by_role("button", name="Play the Recruiter"), how)
            return
        picked = picks.count() > 0  # a ruse picks its target on the board first
        if picked:
            activate(page, picks.nth(rng.randrange(picks.count())), how)
            if name == "banshee":
                return
        stones = page.locator("#game-table .oracle-play-label:not([disabled])")
        if stones.count() == 0:
            activate(page, page.get_by_role("button", name=re.compile("^Discard ")), how)
            return
        stone = stones.nth(rng.randrange(stones.count()))
        if how == "drag" and not picked:
            number = stone.evaluate("label => label.closest('[data-stone]').dataset.stone")
            page.keyboard.press("Escape")  # start again, and drag the card there instead
            card = page.locator(f"#game-hand [data-card='{name}']").first
            assert card.get_attribute("aria-pressed") == "false"
            card.drag_to(page.locator(f"#game-table [data-stone='{number}']"))
        elif double_click:
            stone.dblclick()
        else:
            activate(page, stone, how)


PLAY_SESSION = Session()
"""The Play page's calls, run here to find the moves a test makes at the table."""
APP = "document.getElementById('oracle-app').dataset"
TACTICS = (
    *("joker", "spy", "shield-bearer", "mud fight", "blind-man's bluff"),
    *("recruiter", "banshee", "traitor", "strategist"),
)
REFUSED_SEED = 15
"""A tactics game where, playing Tactic cards first, the reader soon holds a Joker they may not
play: they have already played one."""


def moves_to_a_refused_card(seed: int) -> tuple[list[str], dict[str, Any]]:
    """The reader's moves, by the page's own calls, until a Tactic card in hand is refused
    (Tactic cards played first, to meet the limits); and that card as the page gets it."""
    view = PLAY_SESSION.new_game({"variant": "tactics", "seed": seed, "you_first": True})
    chosen: list[str] = []
    for _ in range(200):
        refused = [c for c in view["hand_cards"] if c["refused"] and c["name"] in TACTICS]
        if refused and view["phase"] == "play":
            return chosen, refused[0]
        assert not view["over"]
        moves = view["moves"]
        move = next((m for m in moves if m.get("hand") in TACTICS), moves[0])
        chosen.append(move["text"])
        request = {"claim": move["stones"]} if move["kind"] == "claim" else {"move": move["text"]}
        view = PLAY_SESSION.game_move({"game": view["game"], **request})
    raise AssertionError(f"seed {seed}: no Tactic card was refused")


def play_moves(page: Page, moves: list[str]) -> None:
    """Make the reader's moves through "Every legal move, in the notation"."""
    if not page.evaluate("document.getElementById('game-legal-box').open"):
        page.locator("#game-legal-box summary").click()
    for text in moves:
        page.wait_for_function(f"() => {APP}.busy !== 'true'")
        before = page.get_attribute("#oracle-app", "data-moves-made")
        page.select_option("#game-legal", text)
        page.click("#legal-button")
        page.wait_for_function(f"before => {APP}.movesMade !== before", arg=before)
    page.wait_for_function(f"() => {APP}.busy !== 'true'")
