"""The built site in a real browser: Debian's chromium driven by playwright, served on localhost.

No browser is downloaded: playwright launches ``/usr/bin/chromium`` (or ``$ORACLE_CHROMIUM``).
Every test here is marked ``browser``, which the default run (``make test``) leaves out: run them
with ``.venv/bin/pytest -m browser`` (CI runs them with ``-m "slow or browser"``). Without
chromium or playwright they are skipped, unless ``ORACLE_REQUIRE_BROWSER=1`` (as CI sets it),
where a missing browser is a failure.
"""

from __future__ import annotations

import base64
import json
import random
import re
import shutil
import time
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from browser_support import (
    CHROMIUM,
    FLAGS,
    WATCH_POLICY,
    Visit,
    fresh_context,
    served,
    table_turn,
)
from conftest import FIXTURE
from playwright.sync_api import Browser, Page, ViewportSize
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from engine import Verdict, parse_record, replay, result_text
from oracle.browser import pages as browser_engine
from oracle.casefile.loader import load_case_file
from oracle.casefile.rules import load_rules_index
from oracle.cli import main
from oracle.site.casepages import ask_fragment, case_text_of_fragment
from oracle.verify.replay import verify_case
from oracle.verify.report import CaseReport

ROOT = Path(__file__).resolve().parent.parent
SESSION = browser_engine.Session(load_rules_index(FIXTURE / "rules" / "index.yaml"))

pytestmark = pytest.mark.browser


def visible_rows(page: Page) -> list[str]:
    rows = page.locator("article table").first.locator("tbody tr")
    return [rows.nth(i).inner_text() for i in range(rows.count()) if rows.nth(i).is_visible()]


def claims_table(published: tuple[CaseReport, ...]) -> list[CaseReport]:
    return [report for report in published if report.case.topic == "claims"]


def test_the_edge_case_table_has_the_seed_rows_and_sorts(
    visit: Visit, site_url: str, published: tuple[CaseReport, ...]
) -> None:
    page = visit.page
    page.goto(f"{site_url}/edge-cases.html")
    rows = visible_rows(page)
    assert len(rows) == len(claims_table(published))
    assert "Refused" in rows[0] and "Refused" in rows[1] and "Granted" in rows[2]
    header = page.locator("article table").first.locator("th", has_text="Verdict")
    sort = header.get_by_role("button")  # made by the page's script: waited for, then pressed
    sort.click()
    page.wait_for_function(
        "th => th.getAttribute('aria-sort') === 'ascending'", arg=header.element_handle()
    )
    verdicts = [row.split("\t")[1].strip() for row in visible_rows(page)]
    assert verdicts == sorted(verdicts)
    sort.click()
    sort.click()  # third click: back to the catalogue's order
    page.wait_for_function("th => !th.hasAttribute('aria-sort')", arg=header.element_handle())
    assert visible_rows(page) == rows
    visit.clean()


def test_the_table_filters_by_answer_and_words(
    visit: Visit, site_url: str, published: tuple[CaseReport, ...]
) -> None:
    page = visit.page
    page.goto(f"{site_url}/edge-cases.html")
    table = claims_table(published)
    refused = [r for r in table if r.checks[0].verdict.verdict is Verdict.REFUSED]
    page.locator(".oracle-filters select[data-key=answer]").first.select_option("refused")
    rows = visible_rows(page)
    assert len(rows) == len(refused) and all("Refused" in row for row in rows)
    count = page.locator(".oracle-count").first.inner_text()
    assert f"{len(refused)} of {len(table)} cases" in count
    page.locator(".oracle-filters input").first.fill("mud fight")
    assert len(visible_rows(page)) == 1
    visit.clean()


def test_the_index_filters_by_topic_and_variant(visit: Visit, site_url: str) -> None:
    page = visit.page
    page.goto(f"{site_url}/all-cases.html")
    total = len(visible_rows(page))
    assert total > 40
    page.locator(".oracle-filters select[data-key=topic]").select_option("elite-troops")
    assert 0 < len(visible_rows(page)) < total
    page.locator(".oracle-filters select[data-key=topic]").select_option("")
    page.locator(".oracle-filters select[data-key=variant]").select_option("base")
    assert all(row.rstrip().endswith("base") for row in visible_rows(page))
    visit.clean()


def test_a_case_page_is_reached_from_the_table_and_shows_its_board(
    visit: Visit, site_url: str
) -> None:
    page = visit.page
    page.goto(f"{site_url}/edge-cases.html")
    page.locator("article table").first.locator("a").nth(1).click()
    page.wait_for_url("**/cases/claims/last-three-in-your-hand.html")
    board = page.locator(".oracle-board")
    assert board.is_visible()
    assert board.locator(".oracle-stone").count() == 9  # the whole border, in order
    assert board.locator(".oracle-card--marked").count() == 1  # the witness, in your hand
    box = board.bounding_box()
    assert box is not None and box["width"] > 200 and box["height"] > 80
    assert "Witness: pink 3." in page.locator("article").inner_text()
    visit.clean()


@pytest.mark.parametrize(
    "path",
    [
        "index.html",
        "walkthrough.html",
        "formation-odds.html",
        "misreadings.html",
        "rulings.html",
        "adding-a-case.html",
        "all-cases.html",
    ],
)
def test_pages_load_without_errors_or_outside_requests(
    visit: Visit, site_url: str, path: str
) -> None:
    visit.page.goto(f"{site_url}/{path}")
    visit.page.wait_for_load_state("networkidle")
    assert visit.page.locator("h1").count() >= 1
    heavy = [url for url in visit.requested if "pyodide" in url or "oracle-engine" in url]
    assert not heavy, "only the two engine pages load the runtime"
    visit.clean()


# --------------------------------------------------------------- readers (issue 11)

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core, installed from npm at the version package-lock.json pins (make installs it)."""
PHONE = ViewportSize(width=390, height=844)
DESKTOP = ViewportSize(width=1280, height=900)


def axe_violations(page: Page) -> list[str]:
    """The serious and critical axe-core violations of the page, one line each."""
    # Through the browser's debugging protocol, which the page's policy does not govern: a
    # script element of the test's own would be refused, as any script not of the site is.
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    # A header title fading in after a scroll would be judged half-transparent: let it finish.
    # An animation cancelled meanwhile (its promise rejects with AbortError) is over too. One on
    # an element out of sight (in a closed <details>) never runs, so it is not waited for.
    page.evaluate(
        "async () => { const running = document.getAnimations()"
        ".filter(a => !a.effect?.target || a.effect.target.checkVisibility())"
        ".map(a => a.finished);"
        " const enough = new Promise(done => setTimeout(done, 3000));"
        " await Promise.race([Promise.allSettled(running), enough]); }"
    )
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
        ".map(v => ({id: v.id, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)}))"
    )
    return [f"{item['id']}: {', '.join(item['nodes'])}" for item in found]


def axe_problems(page: Page, site_url: str, paths: list[str]) -> dict[str, list[str]]:
    """The serious and critical axe-core violations of each page that has any, and any page
    wider than the window (it would scroll sideways): one visit a page checks both."""
    problems = {}
    width = page.viewport_size["width"] if page.viewport_size else 0
    for path in paths:
        page.goto(f"{site_url}/{path}")
        page.wait_for_load_state("load")
        found = axe_violations(page)
        scrolled = page.evaluate("document.documentElement.scrollWidth")
        if scrolled > width:
            found.append(f"the page is {scrolled} px wide in a {width} px window")
        if found:
            problems[path] = found
    return problems


def site_pages_to_check() -> list[str]:
    """A page of each kind: prose, a verdict table, the matrix, rulings, odds, the index, a case
    page (every page is checked too, under -m slow)."""
    return [
        "index.html",
        "edge-cases.html",
        "misreadings.html",
        "rulings.html",
        "formation-odds.html",
        "all-cases.html",
        "cases/end-of-game/both-pass-by-choice.html",
        "impossible-boards.html",
        "cases/impossible-boards/a-full-hand-after-a-play.html",
    ]


def test_axe_finds_nothing_serious_on_a_page_of_each_kind(visit: Visit, site_url: str) -> None:
    """Each kind of page at desktop and phone widths in both themes, switched in place."""
    page = visit.page
    found: dict[str, list[str]] = {}
    for path in site_pages_to_check():
        page.goto(f"{site_url}/{path}")
        page.wait_for_load_state("load")
        axe_on_every_screen(page, found, path)
    assert len(found) == len(site_pages_to_check()) * len(SCREENS)
    assert not any(found.values()), {where: seen for where, seen in found.items() if seen}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("viewport", "scheme"),
    [(DESKTOP, "light"), (PHONE, "dark")],
    ids=["desktop-light", "phone-dark"],
)
def test_axe_finds_nothing_serious_on_any_page(
    browser: Browser, site_url: str, viewport: ViewportSize, scheme: str
) -> None:
    """Every page, for what its own content may get wrong: at the widest and the narrowest
    screen, one in each theme (each kind of page is checked at every width and in each theme
    above)."""
    context = fresh_context(browser, viewport=viewport, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{site_url}/all-cases.html")
    links = page.locator("nav.md-nav a.md-nav__link, article table a").evaluate_all(
        "els => els.map(e => e.href)"
    )
    paths = sorted({urlparse(link).path.lstrip("/") for link in links if link.endswith(".html")})
    assert len(paths) > 50
    problems = axe_problems(page, site_url, paths)
    context.close()
    assert not problems, problems


def test_a_board_reads_without_colour_and_to_a_screen_reader(visit: Visit, site_url: str) -> None:
    page = visit.page
    page.goto(f"{site_url}/cases/claims/last-three-in-your-hand.html")
    board = page.locator("figure.oracle-board")
    assert board.get_attribute("data-search-exclude") is not None
    assert board.locator(".oracle-drawing").get_attribute("aria-hidden") == "true"
    cards = board.locator('[data-stone="3"] .oracle-side--you .oracle-card')
    assert [text.split() for text in cards.all_inner_texts()] == [
        ["1", "Rd"],
        ["1", "Bl"],
        ["1", "Gn"],
    ]
    tree = board.aria_snapshot()
    assert (
        "Stone 3 (the stone claimed in this case): your side red 1, blue 1, green 1 (complete);"
        " their side red 3, blue 3 (2 of 3)." in tree
    )
    assert "Stone 1: empty." in tree and "Your hand: pink 3, red 9" in tree
    assert "Witness, the completion that beats your side: pink 3." in tree
    assert "1 Rd" not in tree and "Their side" not in tree  # the drawing is hidden from them
    legend = board.locator("figcaption").inner_text()
    assert "Rd red" in legend and "outlined stone is the one claimed" in legend
    visit.clean()


def test_tactic_cards_keep_their_full_names(visit: Visit, site_url: str) -> None:
    page = visit.page
    page.goto(f"{site_url}/cases/end-of-game/both-pass-by-choice.html")
    names = page.locator(
        ".oracle-drawing :is(.oracle-card--tactic, .oracle-mode)"
    ).all_inner_texts()
    assert {"Recruiter", "Strategist", "Shield-Bearer", "Blind-Man's Bluff", "Mud Fight"} <= set(
        names
    )
    visit.clean()


def test_the_border_is_one_row_of_nine_on_a_desktop_and_one_stone_a_row_on_a_phone(
    browser: Browser, site_url: str
) -> None:
    for viewport, rows in ((DESKTOP, 1), (PHONE, 9)):
        context = fresh_context(browser, viewport=viewport)
        page = context.new_page()
        page.goto(f"{site_url}/cases/claims/last-three-in-your-hand.html")
        tops = page.locator(".oracle-stone").evaluate_all(
            "els => els.map(e => Math.round(e.getBoundingClientRect().top))"
        )
        lefts = page.locator(".oracle-stone").evaluate_all(
            "els => els.map(e => Math.round(e.getBoundingClientRect().left))"
        )
        assert len(set(tops)) == rows, (viewport, tops)
        if rows == 1:
            assert lefts == sorted(lefts)
        else:
            assert tops == sorted(tops)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], "the page scrolls sideways"
        context.close()


def test_dark_mode_follows_the_system_and_toggles(browser: Browser, site_url: str) -> None:
    context = fresh_context(browser, color_scheme="dark")
    page = context.new_page()
    page.goto(f"{site_url}/index.html")
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"
    page.locator("label[title='Switch to the light theme']").first.click()
    assert page.locator("body").get_attribute("data-md-color-scheme") == "default"
    context.close()


def test_search_previews_read_as_text(visit: Visit, site_url: str) -> None:
    page = visit.page
    page.goto(f"{site_url}/index.html")
    field = page.locator("input.md-search__input")
    result = page.locator(".md-search-result__item").first
    for _ in range(10):  # the search index loads in a worker: type again until it answers
        field.click()
        field.fill("")
        field.type("sixth is in your hand")
        try:
            result.wait_for(timeout=3000)
            break
        except PlaywrightTimeout:
            continue
    text = result.inner_text()
    assert "The engine's answer: Refused" in text
    assert "Their side" not in text and "Rd" not in text
    visit.clean()


def search_titles(page: Page, words: str) -> list[str]:
    """The titles of the site search's results for ``words``, best first."""
    page.goto(page.url)
    field = page.locator("input.md-search__input")
    for _ in range(10):  # the search index loads in a worker: type again until it answers
        field.click()
        field.fill("")
        field.type(words)
        try:
            page.locator(".md-search-result__item").first.wait_for(timeout=3000)
            break
        except PlaywrightTimeout:
            continue
    titles: list[str] = page.locator(
        ".md-search-result__item > .md-search-result__link"
    ).evaluate_all("links => links.map(link => link.querySelector('h1, h2').textContent.trim())")
    return titles


def test_search_finds_the_edge_cases_and_rulings_by_their_words(
    visit: Visit, site_url: str, published: tuple[CaseReport, ...]
) -> None:
    """A reader's words find the edge-case table's rows first; a ruling's words find it."""
    page = visit.page
    page.goto(f"{site_url}/index.html")
    situations = {report.case.id: report.case.situation for report in published}
    tie = search_titles(page, "tie")[:5]
    assert situations["tie-you-finished-first"] in tie, tie
    assert situations["tie-they-finished-first"] in tie, tie
    mud_fight = search_titles(page, "mud fight")
    assert mud_fight[0] == situations["three-cards-under-mud-fight"], mud_fight
    traitor = search_titles(page, "traitor")[:10]
    assert "The Traitor may keep the card at the same stone" in traitor, traitor
    visit.clean()


def test_the_filter_field_has_a_border_and_a_visible_focus(visit: Visit, site_url: str) -> None:
    page = visit.page
    page.goto(f"{site_url}/edge-cases.html")
    field = page.locator(".oracle-filters input").first
    assert field.evaluate("e => getComputedStyle(e).borderTopStyle") == "solid"
    page.locator(".oracle-filters").first.locator("select").last.focus()
    page.keyboard.press("Tab")  # from the last choice to the words field, by keyboard
    assert field.evaluate("e => document.activeElement === e")
    outline = field.evaluate(
        "e => getComputedStyle(e).outlineStyle + ' ' + getComputedStyle(e).outlineWidth"
    )
    assert outline.startswith("solid") and not outline.endswith(" 0px"), outline
    visit.clean()


def test_sortable_headers_keep_table_semantics(visit: Visit, site_url: str) -> None:
    page = visit.page
    page.goto(f"{site_url}/edge-cases.html")
    header = page.locator("article table").first.locator("th", has_text="Verdict")
    assert header.get_attribute("role") is None
    button = header.locator("button")
    button.focus()
    page.keyboard.press("Enter")
    assert header.get_attribute("aria-sort") == "ascending"
    visit.clean()


def test_pages_link_to_the_previous_and_the_next(visit: Visit, site_url: str) -> None:
    page = visit.page
    page.goto(f"{site_url}/edge-cases.html")
    footer = page.locator("nav.md-footer__inner")
    assert footer.locator("a.md-footer__link--prev").get_attribute("aria-label") == "Previous: Home"
    assert footer.locator("a.md-footer__link--next").count() == 1
    visit.clean()


def test_the_rulings_link_each_case_that_checks_them(visit: Visit, site_url: str) -> None:
    page = visit.page
    page.goto(f"{site_url}/rulings.html")
    link = page.locator("#stalemate-who-can-go-on ~ ul a").first
    link.click()
    page.wait_for_url("**/cases/**")
    visit.clean()


def test_the_misreading_matrix_fits_a_desktop(browser: Browser, site_url: str) -> None:
    """No page scrolls sideways (checked with axe, page by page); the matrix fits a desktop."""
    context = fresh_context(browser, viewport=DESKTOP)
    page = context.new_page()
    page.goto(f"{site_url}/misreadings.html")
    overflow = page.locator(".oracle-matrix .md-typeset__scrollwrap").evaluate_all(
        "els => els.map(e => e.scrollWidth - e.clientWidth)"
    )
    context.close()
    assert overflow and max(overflow) <= 1, overflow


# --------------------------------------------------------------- the engine in the page
# Issue 8: the "Ask the engine" and "Play a game" pages run engine/ in Pyodide. They must
# answer as the Python engine does, through the page's own paste, link and controls, with
# every request staying on localhost.

ENGINE_READY = 90_000  # ms: a cold start of the runtime on a loaded CI machine


def engine_page(page: Page, url: str) -> None:
    """Open an engine page and wait until the engine in it is ready and, on the Ask page, its
    opening question is answered: that answer rewrites the case text, and landing between a
    ``fill``'s select-all and its typing it would leave the opening case in front of the new."""
    page.goto(url)
    page.wait_for_selector(
        "#oracle-loading[data-ready=true]", state="attached", timeout=ENGINE_READY
    )
    page.wait_for_selector(
        "#oracle-app:not([data-app=ask]), #oracle-app[data-opened=true]", state="attached"
    )


def shown_verdicts(page: Page) -> list[tuple[int, str]]:
    raw = page.get_attribute("#ask-answer", "data-verdicts")
    assert raw is not None
    return [(int(stone), str(verdict)) for stone, verdict in json.loads(raw)]


def python_verdicts(report: CaseReport) -> list[tuple[int, str]]:
    return [(check.verdict.stone, check.verdict.verdict.label) for check in report.checks]


def wait_for_answer(page: Page, previous: str | None = None) -> None:
    page.wait_for_function(
        "previous => { const answer = document.getElementById('ask-answer');"
        " const problem = document.getElementById('ask-problem-box');"
        " return (!answer.hidden && answer.dataset.verdicts !== previous) || !problem.hidden; }",
        arg=previous,
    )


@pytest.mark.slow  # the runtime's start costs seconds of CPU: CI runs these, editors opt in
def test_the_ask_page_judges_a_case_opened_from_its_page_and_a_typed_board(
    visit: Visit, site_url: str, published: tuple[CaseReport, ...]
) -> None:
    page = visit.page
    report = next(r for r in published if r.case.id == "last-three-in-your-hand")
    page.goto(f"{site_url}/cases/claims/last-three-in-your-hand.html")
    page.get_by_role("link", name="Open this board on the Ask the engine page").click()
    page.wait_for_selector(
        "#oracle-loading[data-ready=true]", state="attached", timeout=ENGINE_READY
    )
    wait_for_answer(page)
    assert shown_verdicts(page) == python_verdicts(report)
    assert "pink 3" in page.inner_text("#answer-lines")
    assert page.input_value("#stone-3-you") == "red 1, blue 1, green 1"
    assert "agrees with every answer" in page.inner_text("#answer-agreement")
    assert page.get_by_role("checkbox", name="Claim stone 3").is_checked()
    # An impossible board: the loader's message, on the box it comes from.
    page.fill("#stone-8-them", "green 3, green 8, red 1")
    page.get_by_role("button", name="Ask the engine").click()
    page.wait_for_selector("#ask-problem-box:not([hidden])")
    assert page.inner_text("#ask-problem").startswith(
        "Your board: Stone 8, their cards: red 1 appears"
    )
    beside = page.locator("#stone-8-them-error")
    assert beside.is_visible() and "red 1 appears twice" in beside.inner_text()
    assert page.get_attribute("#stone-8-them", "aria-describedby") == "stone-8-them-error"
    assert "them: [green 3, green 8, red 1]" in (page.text_content("#ask-problem-case") or "")
    assert page.get_attribute("#stone-8-them", "aria-invalid") == "true"
    # Fixed by clicking: the box takes the palette's cards, and the claim is asked again.
    page.fill("#stone-8-them", "")
    page.get_by_label("Cards go to").select_option(label="Stone 8, their cards")
    page.get_by_role("button", name="green 3", exact=True).click()
    page.get_by_role("button", name="green 8", exact=True).click()
    assert page.input_value("#stone-8-them") == "green 3, green 8"
    page.get_by_role("button", name="Ask the engine").click()
    page.wait_for_selector("#ask-problem-box[hidden]", state="attached")
    wait_for_answer(page)
    assert shown_verdicts(page) == python_verdicts(report)
    text = page.input_value("#case-text")
    assert "expect: refused" in text and "because: " in text
    assert "situation: Three 1s facing their pair of 3s" in text  # the case's own words
    assert page.get_attribute("#stone-8-them", "aria-invalid") is None
    assert not axe_violations(page)
    visit.clean()


@pytest.mark.slow
def test_a_case_pasted_as_the_engine_becomes_ready_is_the_one_answered(
    visit: Visit, site_url: str, published: tuple[CaseReport, ...]
) -> None:
    """A case pasted the moment the engine is ready is answered, not the opening board: the
    page's own first question, asked just after, once cancelled the pasted text's question
    still waiting out its typing delay (or dropped its answer), so the answer never came."""
    page = visit.page
    report = next(r for r in published if r.case.id == "last-three-in-your-hand")
    page.goto(f"{site_url}/ask.html")
    # Paste as the loading line says ready, before the page's script hears of it.
    page.evaluate(
        """text => {
            const loading = document.getElementById("oracle-loading");
            new MutationObserver((_, observer) => {
                if (loading.dataset.ready !== "true") return;
                observer.disconnect();
                const area = document.getElementById("case-text");
                area.value = text;
                area.dispatchEvent(new Event("input", { bubbles: true }));
            }).observe(loading, { attributes: true, attributeFilter: ["data-ready"] });
        }""",
        report.case.path.read_text(encoding="utf-8"),
    )
    page.wait_for_selector(
        "#oracle-loading[data-ready=true]", state="attached", timeout=ENGINE_READY
    )
    wait_for_answer(page)
    assert page.is_hidden("#ask-problem-box"), page.inner_text("#ask-problem")
    assert shown_verdicts(page) == python_verdicts(report)
    assert page.input_value("#stone-3-you") == "red 1, blue 1, green 1"
    visit.clean()


@pytest.mark.slow
def test_the_play_page_deals_a_seeded_game_and_takes_a_move_at_the_table(
    browser: Browser, site_url: str
) -> None:
    context = fresh_context(browser, viewport=PHONE)
    visit = Visit(context.new_page())
    page = visit.page
    engine_page(page, f"{site_url}/play.html")
    # A new game gets a random seed, shown and editable.
    first_seed = page.input_value("#game-seed")
    page.get_by_role("button", name="New seed").click()
    assert first_seed.isdigit() and page.input_value("#game-seed") != first_seed
    page.fill("#game-seed", "12")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#game:not([hidden])")
    state = SESSION.new_game({"variant": "base", "seed": 12, "you_first": True})
    hand = page.locator("#game-hand button").evaluate_all("cards => cards.map(c => c.dataset.card)")
    names = [card["name"] for card in state["hand_cards"]]
    assert hand == names
    page.locator("#game-hand button").first.click()
    assert page.get_attribute("#game-hand button >> nth=0", "aria-pressed") == "true"
    page.get_by_role("button", name=f"Stone 1: {names[0]} on 1").click()
    page.wait_for_function("() => document.querySelectorAll('#game-log li').length >= 2")
    log = page.locator("#game-log li").all_inner_texts()
    assert log[0].startswith(f"Turn 1, you: {names[0]} on 1 (then claim nothing")
    assert any("the computer" in line for line in log)
    # The computer's move is on the table, outlined, and in the status a screen reader hears.
    assert "The computer: " in page.inner_text("#game-status")
    assert page.get_attribute("#game-status", "aria-live") == "polite"
    assert page.locator("#game-table .oracle-touched").count() >= 1
    assert page.evaluate("document.activeElement.closest('#game') !== null")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not axe_violations(page)
    visit.clean()
    context.close()


@pytest.mark.slow
def test_the_ask_page_judges_every_published_claim_case_as_python_does(
    visit: Visit, site_url: str, published: tuple[CaseReport, ...]
) -> None:
    page = visit.page
    engine_page(page, f"{site_url}/ask.html")
    judged = 0
    for report in published:
        if not report.checks:
            continue
        page.evaluate("document.getElementById('ask-answer').dataset.verdicts = 'waiting'")
        page.fill("#case-text", report.case.path.read_text(encoding="utf-8"))
        wait_for_answer(page, "waiting")
        assert page.is_hidden("#ask-problem-box"), (report.case.id, page.inner_text("#ask-problem"))
        assert shown_verdicts(page) == python_verdicts(report), report.case.id
        # The board as the form now holds it gives the same verdicts again.
        page.evaluate("document.getElementById('ask-answer').dataset.verdicts = 'waiting'")
        page.get_by_role("button", name="Ask the engine").click()
        wait_for_answer(page, "waiting")
        assert sorted(shown_verdicts(page)) == sorted(python_verdicts(report)), report.case.id
        judged += 1
    assert judged == sum(1 for report in published if report.checks)
    visit.clean()


@pytest.mark.slow
def test_a_copied_board_round_trips_through_the_clipboard_and_check(
    browser: Browser,
    site_url: str,
    project_copy: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A board set up as a reader would, described in their words and copied, is a finished
    case: once an editor confirms its prose (pin --reviewed), check publishes it."""
    context = fresh_context(browser, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    engine_page(page, f"{site_url}/ask.html")
    page.check("input[name=variant][value=tactics]")
    page.fill("#stone-4-you", "red 5, red 6, red 7")
    page.fill("#stone-4-them", "blue 1, joker")
    page.get_by_role("checkbox", name="Mud Fight").nth(3).check()
    page.fill("#stone-4-you", "red 5, red 6, red 7, red 8")
    page.fill("#hand", "spy")
    page.check("#stone-4-claim")
    page.fill("#situation", "Four reds in the mud against blue 1 and a Joker")
    page.fill(
        "#why", "their Joker and three more cards cannot make a colour run of 4 that beats it"
    )
    page.wait_for_function(
        "() => document.getElementById('case-text').value.includes('id: four-reds-in-the-mud')"
    )
    assert page.is_hidden("#ask-problem-box"), page.inner_text("#ask-problem")
    page.get_by_role("button", name="Copy as a case file").click()
    page.wait_for_function("() => document.getElementById('copy-status').textContent === 'Copied.'")
    copied = page.evaluate("navigator.clipboard.readText()")
    context.close()
    assert 'modes: ["mud fight"]' in copied and "draft: true" not in copied
    assert "because: " in copied and "tactics.mud-fight" in copied
    case_file = project_copy / "cases" / "claims" / "99-four-reds-in-the-mud.yaml"
    case_file.write_text(copied, encoding="utf-8")
    rules = load_rules_index(FIXTURE / "rules" / "index.yaml")
    case = load_case_file(case_file, project_copy / "cases", rules)
    assert verify_case(case).verified and not case.draft
    monkeypatch.chdir(project_copy)
    # Published only once an editor has read its prose for its answers (reviewed:).
    assert main(["check"]) == 1 and "no reviewed:" in capsys.readouterr().out
    assert main(["pin", "--reviewed", str(case_file)]) == 0
    assert main(["check"]) == 0, capsys.readouterr().out


@pytest.mark.browser
def test_copying_at_once_after_typing_copies_what_the_page_then_shows(
    browser: Browser, site_url: str
) -> None:
    """No pause between the last keystroke and the click: the copy waits for the engine's
    answer to what was typed, and says so, and the confirmation stays in sight."""
    context = fresh_context(browser, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    engine_page(page, f"{site_url}/ask.html")
    page.fill("#stone-3-you", "red 1, blue 1, green 1")
    page.fill("#stone-3-them", "red 3, blue 3")
    page.check("#stone-3-claim")
    page.fill("#situation", "Three ones against two threes")
    page.fill("#why", "a three out of sight completes their side")
    page.get_by_role("button", name="Copy as a case file").click()
    page.wait_for_function("() => document.getElementById('copy-status').textContent === 'Copied.'")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert "id: three-ones-against-two-threes" in copied and "expect: refused" in copied
    assert copied == page.input_value("#case-text")
    page.wait_for_timeout(1500)  # the field's change on leaving it must not take it away
    assert page.inner_text("#copy-status") == "Copied."
    page.fill("#why", "a three out of sight completes their side, so it is refused")
    page.get_by_role("button", name="Copy a link to this board").click()
    page.wait_for_function(
        "() => document.getElementById('copy-status').textContent === 'Link copied.'"
    )
    link = page.evaluate("navigator.clipboard.readText()")
    fragment = link.split("#", 1)[1]
    assert "so it is refused" in case_text_of_fragment(fragment)
    context.close()


@pytest.mark.browser
def test_a_lone_surrogate_in_the_situation_is_the_loaders_problem_not_an_exception(
    visit: Visit, site_url: str
) -> None:
    """A page's text can hold what no file can: a lone surrogate typed (here pasted by a script)
    into the situation. Asking and "Copy as a case file" show the loader's located problem on
    that field, in Pyodide as in Python, and nothing is thrown."""
    page = visit.page
    engine_page(page, f"{site_url}/ask.html")
    page.fill("#stone-3-you", "red 1, blue 1, green 1")
    page.fill("#stone-3-them", "red 3, blue 3")
    page.check("#stone-3-claim")
    page.fill("#why", "a three out of sight completes their side")
    page.evaluate(
        "() => { const box = document.getElementById('situation');"
        " box.value = 'a \\ud800 b'; box.dispatchEvent(new Event('input', { bubbles: true }));"
        " box.dispatchEvent(new Event('change', { bubbles: true })); }"
    )
    page.get_by_role("button", name="Copy as a case file").click()
    page.wait_for_function("() => !document.getElementById('ask-problem-box').hidden")
    assert "U+D800, a lone surrogate" in page.inner_text("#ask-problem")
    assert page.get_attribute("#situation", "aria-invalid") == "true"
    assert not visit.errors, visit.errors


@pytest.mark.browser
def test_an_answer_on_its_way_never_rewrites_what_was_typed_after_it(
    visit: Visit, site_url: str
) -> None:
    """The board is asked at once, and a case file is typed while its answer is on its way:
    the answer arrives inside the typing delay and must not put the board's draft back over
    the typed text (a race CI met: the pasted case was judged as the empty draft)."""
    page = visit.page
    engine_page(page, f"{site_url}/ask.html")
    look = ROOT / "tests" / "look" / "cases" / "claims"  # a fixture case: never drifts
    case = (look / "01-incomplete-side.yaml").read_text(encoding="utf-8")
    page.fill("#stone-3-you", "red 1, blue 1, green 1")
    page.check("#stone-3-claim")
    page.evaluate(
        "text => { document.getElementById('ask-button').click();"
        " const area = document.getElementById('case-text'); area.value = text;"
        " area.dispatchEvent(new Event('input', { bubbles: true })); }",
        case,
    )
    page.wait_for_function(
        "() => document.getElementById('answer-situation').textContent.includes('incomplete-side')"
        " || !document.getElementById('ask-problem-box').hidden"
    )
    assert page.input_value("#case-text") == case
    assert page.is_hidden("#ask-problem-box"), page.inner_text("#ask-problem")


@pytest.mark.browser
def test_the_line_numbers_stay_beside_their_lines_when_the_case_file_scrolls(
    visit: Visit, site_url: str
) -> None:
    """At desktop width the case file's box is capped to the window and scrolls: its line
    numbers are in a box as tall, scrolled as far (they once took the height of every line and
    stayed at 1 while the text scrolled, so a line named in a problem was marked off its line)."""
    page = visit.page
    page.set_viewport_size(DESKTOP)
    engine_page(page, f"{site_url}/ask.html")
    look = ROOT / "tests" / "look" / "cases" / "claims"  # a fixture case: never drifts
    case = (look / "01-incomplete-side.yaml").read_text(encoding="utf-8")
    page.fill("#case-text", case + "".join(f"# a note, line {n}\n" for n in range(40)))
    page.wait_for_selector("#case-gutter span:nth-child(50)", state="attached")
    read = (
        "() => { const t = document.getElementById('case-text'),"
        " g = document.getElementById('case-gutter');"
        " return [[t.clientHeight, t.scrollTop], [g.clientHeight, g.scrollTop],"
        " t.scrollHeight > t.clientHeight]; }"
    )
    page.evaluate("document.getElementById('case-text').scrollTop = 300")
    page.evaluate(
        "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )
    (text_height, text_top), (gutter_height, gutter_top), scrolls = page.evaluate(read)
    assert scrolls and text_top == 300
    assert gutter_top == text_top and abs(gutter_height - text_height) <= 1
    visit.clean()


@pytest.mark.browser
def test_a_board_that_is_published_already_says_so_and_links_it(
    visit: Visit, site_url: str, published: tuple[CaseReport, ...]
) -> None:
    page = visit.page
    engine_page(page, f"{site_url}/ask.html")
    report = next(r for r in published if r.case.id == "incomplete-side")
    text = report.case.path.read_text(encoding="utf-8")
    note = page.locator("#answer-published")
    page.fill("#case-text", text)
    note.wait_for(state="visible")
    assert note.inner_text() == "This is the published case incomplete-side."
    href = note.locator("a").get_attribute("href", timeout=1000)
    assert href is not None and href.endswith("/cases/claims/incomplete-side.html")
    page.fill("#case-text", text.replace("id: incomplete-side", "id: my-own-copy"))
    page.wait_for_function(
        "() => document.getElementById('answer-published').textContent.startsWith('A published')"
    )
    assert "check refuses it as a duplicate" in note.inner_text()
    page.fill("#case-text", text.replace("[red 4, red 5]", "[red 4, red 5, red 6]"))
    page.wait_for_function("() => document.getElementById('answer-published').hidden")


@pytest.mark.browser
def test_a_link_pasted_into_an_open_ask_page_opens_its_board(visit: Visit, site_url: str) -> None:
    page = visit.page
    engine_page(page, f"{site_url}/ask.html")
    look = ROOT / "tests" / "look" / "cases" / "claims"  # a fixture case: never drifts
    case = (look / "01-incomplete-side.yaml").read_text(encoding="utf-8")
    page.evaluate("fragment => { location.hash = fragment; }", ask_fragment(case))
    page.wait_for_function("text => document.getElementById('case-text').value === text", arg=case)
    page.wait_for_function("() => !document.getElementById('ask-answer').hidden")
    page.evaluate("() => { location.hash = 'v2=A'; }")
    page.locator("#ask-problem").wait_for(state="visible")
    assert "cut short or damaged" in page.inner_text("#ask-problem")


# Issue 24: Ask is a live editor. The board and the case file are two views of one thing,
# answered as they change; the address holds the board; cards go on by click, drag or keyboard.


def verdict_lines(page: Page) -> list[str]:
    return page.locator("#verdict-list li").all_inner_texts()


def drag(page: Page, source: str, target: str) -> None:
    """Drag as a hand does: press on the card, move in steps, let go over the box, both in
    sight (the palette lies between the drawn board and the boxes to type in)."""
    page.locator(source).first.evaluate("card => card.scrollIntoView({block: 'start'})")
    page.evaluate("() => window.scrollBy(0, -120)")
    end = page.locator(target).first.bounding_box()
    height = page.viewport_size["height"] if page.viewport_size else 0
    if end is None or end["y"] < 0 or end["y"] + end["height"] > height:
        page.locator(target).first.evaluate("box => box.scrollIntoView({block: 'center'})")
    start = page.locator(source).first.bounding_box()
    end = page.locator(target).first.bounding_box()
    assert start is not None and end is not None
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(start["x"] + 12, start["y"] + 12, steps=4)
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=12)
    page.mouse.up()


def wait_for_value(page: Page, selector: str, value: str) -> None:
    """Wait for a box to hold ``value`` (a drop arrives a moment after the mouse is let go)."""
    page.wait_for_function(
        "([selector, value]) => document.querySelector(selector).value === value",
        arg=[selector, value],
    )


def wait_for_verdict(page: Page, words: str) -> None:
    page.wait_for_function(
        "words => [...document.querySelectorAll('#verdict-list li')]"
        ".some(item => item.textContent.includes(words))",
        arg=words,
    )


@pytest.mark.slow
def test_ask_answers_as_the_board_or_its_text_changes_and_the_address_shares_it(
    visit: Visit, site_url: str, browser: Browser
) -> None:
    page = visit.page
    engine_page(page, f"{site_url}/ask.html")
    page.wait_for_function(
        "() => document.getElementById('case-text').value.includes('stones: []')"
    )
    # Typed key by key, with no button pressed: the engine answers once the typing stops.
    page.locator("#stone-3-you").press_sequentially("red 1, blue 1, green 1")
    page.locator("#stone-3-them").press_sequentially("red 3, blue 3")
    page.check("#stone-3-claim")
    wait_for_verdict(page, "Stone 3: refused")
    text = page.input_value("#case-text")
    assert "you: [red 1, blue 1, green 1]" in text and "expect: refused" in text
    assert "because: " in text and "rules: [claim.prove-incomplete-side" in text
    # Edited as text, the board follows.
    page.fill("#case-text", text.replace("them: [red 3, blue 3]", "them: [red 3]"))
    page.wait_for_function("() => document.getElementById('stone-3-them').value === 'red 3'")
    assert page.input_value("#stone-3-them") == "red 3"
    # A text the loader refuses: the message names the line, which the gutter marks; the board
    # keeps its last readable state.
    broken = page.input_value("#case-text").replace("hand: []", "hand: [red 1]")
    if "hand: [red 1]" not in broken:
        broken = broken.replace("claims:", "  hand: [red 1]\nclaims:")
    page.fill("#case-text", broken)
    page.wait_for_selector("#ask-problem-box:not([hidden])")
    problem = page.inner_text("#ask-problem")
    assert problem.startswith("The case file: line ") and "red 1 appears twice" in problem
    line = int(problem.split("line ", 1)[1].split(":", 1)[0])
    assert page.inner_text("#case-gutter .oracle-error-line").endswith(f" {line}")
    assert page.get_attribute("#case-text", "aria-invalid") == "true"
    assert page.input_value("#stone-3-you") == "red 1, blue 1, green 1"
    page.fill("#case-text", text)
    wait_for_verdict(page, "Stone 3: refused")
    page.wait_for_selector("#ask-problem-box[hidden]", state="attached")
    # The address holds the board (version 2); opened elsewhere, it shows the same board.
    page.wait_for_function("() => location.hash.startsWith('#v2=')")
    shared = page.url
    other = Visit(fresh_context(browser).new_page())
    engine_page(other.page, shared)
    wait_for_verdict(other.page, "Stone 3: refused")
    assert other.page.input_value("#case-text") == page.input_value("#case-text")
    assert other.page.input_value("#stone-3-them") == "red 3, blue 3"
    # A link of the first version, as older pages wrote it, still opens.
    version_1 = base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")
    other.page.goto("about:blank")
    engine_page(other.page, f"{site_url}/ask.html#case={version_1}")
    wait_for_verdict(other.page, "Stone 3: refused")
    assert other.page.input_value("#case-text") == text
    other.clean()
    other.page.context.close()
    visit.clean()


@pytest.mark.slow
def test_cards_go_on_the_board_by_click_drag_and_keyboard_and_each_move_is_announced(
    visit: Visit, site_url: str
) -> None:
    page = visit.page
    page.set_viewport_size(DESKTOP)
    engine_page(page, f"{site_url}/ask.html")
    announce = page.locator("#ask-announce")
    # Click: a stone's name chooses where cards go, a card clicked goes there.
    page.get_by_role("button", name="Stone 2: put palette cards on your side").click()
    page.get_by_role("button", name="red 5", exact=True).click()
    assert page.input_value("#stone-2-you") == "red 5"
    assert announce.inner_text() == "Red 5 put on Stone 2, your cards."
    assert announce.get_attribute("aria-live") == "polite"
    # The verdicts and the case file stay beside the board while the boxes scroll by.
    page.locator("#stone-9").scroll_into_view_if_needed()
    for beside in ("#verdicts-title", "#case-text"):
        box = page.locator(beside).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] < DESKTOP["height"], beside
        assert box["x"] > page.locator("#stone-9").bounding_box()["x"]  # type: ignore[index]
    # Drag: onto a box, and from there onto another, where it moves.
    drag(page, "#palette-cards [data-card='red 6']", "#stone-4-them")
    wait_for_value(page, "#stone-4-them", "red 6")
    assert announce.inner_text() == "Red 6 put on Stone 4, their cards."
    drag(page, "#palette-cards [data-card='red 5']", "#stone-4-them")
    wait_for_value(page, "#stone-4-them", "red 6, red 5")
    assert page.input_value("#stone-2-you") == ""
    assert announce.inner_text() == "Red 5 moved from Stone 2, your cards to Stone 4, their cards."
    # Keyboard: choose the place, then press cards; a card pressed again comes back.
    page.focus("#palette-target")
    page.keyboard.press("ArrowDown")  # from their side of stone 4, where the drop went, to yours
    assert announce.inner_text() == "Cards now go to Stone 4, your cards."
    for name, key in (
        ("red 7", "Enter"),
        ("red 8", "Enter"),
        ("red 9", "Enter"),
        ("red 9", "Space"),
    ):
        page.locator(f"#palette-cards [data-card='{name}']").focus()
        page.keyboard.press(key)
    assert page.input_value("#stone-4-you") == "red 7, red 8"
    assert announce.inner_text() == "Red 9 taken back from Stone 4, your cards."
    assert page.get_attribute("#palette-cards [data-card='red 7']", "aria-pressed") == "true"
    page.keyboard.press("Enter")
    assert page.input_value("#stone-4-you") == "red 7, red 8, red 9"
    page.check("#stone-4-claim")
    wait_for_verdict(page, "Stone 4: granted")
    assert "them: [red 6, red 5]" in page.input_value("#case-text")
    visit.clean()


@pytest.mark.browser
def test_the_drawn_board_is_the_editor_beside_its_verdicts_and_its_case_file(
    visit: Visit, site_url: str
) -> None:
    """At 1280 px the drawn board, the verdicts and the case text are on the screen together;
    a side of a stone pressed on the drawing takes the palette's cards, a card dragged onto it
    lands there, the arrow keys move over the drawing from one Tab stop, and the stone's own
    button claims it. The drawing is read from the boxes, which stay the one record."""
    page = visit.page
    page.set_viewport_size(DESKTOP)
    engine_page(page, f"{site_url}/ask.html")
    page.wait_for_selector("#palette-cards [data-card='red 1']")
    drawn = page.locator("#ask-drawn")
    their_3 = drawn.locator("button[data-stone='3'][data-side='them']")
    their_3.click()
    assert their_3.get_attribute("aria-pressed") == "true"
    assert page.locator("#ask-announce").inner_text() == "Cards now go to Stone 3, their cards."
    page.locator("#palette-cards [data-card='blue 8']").click()
    assert page.input_value("#stone-3-them") == "blue 8"
    assert drawn.get_by_role("button", name="Stone 3, their side: blue 8", exact=True).count() == 1
    assert drawn.get_by_role("button", name="Stone 3, your side: empty", exact=True).count() == 1
    drag(
        page,
        "#palette-cards [data-card='red 1']",
        "#ask-drawn button[data-stone='5'][data-side='you']",
    )
    wait_for_value(page, "#stone-5-you", "red 1")
    # One Tab stop; the arrows move over the stones and up and down within one.
    stops = page.eval_on_selector_all("#ask-drawn button", "bs => bs.filter(b => b.tabIndex >= 0)")
    assert len(stops) == 1
    focused = "() => [document.activeElement.dataset.stone, document.activeElement.dataset.side]"
    drawn.locator("button[data-stone='5'][data-side='you']").focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == ["6", "you"]
    page.keyboard.press("ArrowUp")
    assert page.evaluate(focused) == ["6", "stone"]
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowDown")
    assert page.evaluate(focused) == ["4", "you"]
    page.keyboard.press("Enter")
    for name in ("red 7", "red 8", "red 9"):
        page.locator(f"#palette-cards [data-card='{name}']").click()
    assert page.input_value("#stone-4-you") == "red 7, red 8, red 9"
    chips = drawn.locator("button[data-stone='4'][data-side='you'] .oracle-card")
    assert chips.count() == 3
    claim = drawn.get_by_role("button", name="Stone 4 claim", exact=True)
    claim.click()
    assert page.is_checked("#stone-4-claim") and claim.get_attribute("aria-pressed") == "true"
    wait_for_verdict(page, "Stone 4: granted")
    for shown in ("#ask-drawn", "#verdict-list", "#case-text"):
        box = page.locator(shown).bounding_box()
        assert box is not None and box["y"] < DESKTOP["height"] and box["y"] + 40 > 0, shown
    assert "you: [red 7, red 8, red 9]" in page.input_value("#case-text")
    page.uncheck("#stone-4-claim")
    assert claim.get_attribute("aria-pressed") == "false"
    visit.clean()


@pytest.mark.browser
def test_the_palette_is_one_tab_stop_and_the_arrow_keys_move_within_it(
    visit: Visit, site_url: str
) -> None:
    page = visit.page
    page.set_viewport_size(DESKTOP)
    engine_page(page, f"{site_url}/ask.html")
    page.wait_for_selector("#palette-cards [data-card='red 1']")
    stops = page.eval_on_selector_all(
        "#palette-cards .oracle-palette-card", "cards => cards.filter(c => c.tabIndex >= 0).length"
    )
    assert stops == 1
    focused = "() => document.activeElement.dataset.card"
    page.focus("#palette-target")
    page.keyboard.press("Tab")
    assert page.evaluate(focused) == "red 1"
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == "red 2"
    page.keyboard.press("End")
    assert page.evaluate(focused) == "red 9"
    page.keyboard.press("ArrowDown")
    below = page.evaluate(focused)
    assert below != "red 9" and not below.startswith("red")
    page.keyboard.press("ArrowUp")
    assert page.evaluate(focused) == "red 9"
    page.keyboard.press("Control+End")
    last = page.evaluate(focused)
    page.keyboard.press("Control+Home")
    assert page.evaluate(focused) == "red 1" and last != "red 1"
    page.keyboard.press("Enter")  # a card pressed goes where the palette sends it
    assert "red 1" in page.input_value("#stone-1-you")
    # Tab leaves the palette at once; coming back lands on the card last moved to.
    page.keyboard.press("Tab")
    assert page.evaluate("() => !document.activeElement.matches('.oracle-palette-card')")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(focused) == "red 1"
    visit.clean()


@pytest.mark.slow
def test_an_impossible_board_opens_in_ask_with_its_refusal_at_its_line(
    visit: Visit, site_url: str, published: tuple[CaseReport, ...]
) -> None:
    report = next(r for r in published if r.case.impossible is not None)
    page = visit.page
    page.goto(f"{site_url}/cases/impossible-boards/{report.case.id}.html")
    page.get_by_role("link", name="Open this board on the Ask the engine page").click()
    page.wait_for_selector(
        "#oracle-loading[data-ready=true]", state="attached", timeout=ENGINE_READY
    )
    page.wait_for_selector("#ask-problem-box:not([hidden])")
    problem = page.inner_text("#ask-problem")
    assert problem.startswith("The case file: line ") and "the engine refuses this board" in problem
    assert page.locator("#case-gutter .oracle-error-line").count() == 1
    assert page.input_value("#case-text") == report.case.path.read_text(encoding="utf-8")
    visit.clean()


# Issue 25: Play is a table. A whole game is played through it as a reader would, by clicks,
# by the keyboard alone, or by dragging cards, in both variants and in expert timing.


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "expert", "how", "seed"),
    [
        ("base", False, "click", 21),
        ("tactics", False, "keyboard", 8),
        ("tactics", True, "drag", 5),
        ("base", True, "keyboard", 13),
    ],
)
def test_a_whole_game_is_played_at_the_table_and_its_record_replays(
    visit: Visit,
    site_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    variant: str,
    expert: bool,
    how: str,
    seed: int,
) -> None:
    page = visit.page
    page.set_viewport_size(DESKTOP)
    engine_page(page, f"{site_url}/play.html")
    page.check(f"input[name=variant][value={variant}]")
    if expert:
        page.check("#game-expert")
    page.fill("#game-seed", str(seed))
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#game:not([hidden])")
    rng = random.Random(seed)
    app = "document.getElementById('oracle-app').dataset"
    for turn in range(700):
        if page.get_attribute("#oracle-app", "data-over") == "true":
            break
        page.wait_for_function(f"() => {app}.busy !== 'true'")
        before = page.get_attribute("#oracle-app", "data-moves-made")
        log_before = page.locator("#game-log li").count()
        phase = page.get_attribute("#oracle-app", "data-phase")
        table_turn(page, how, rng, double_click=how == "click" and turn == 0)
        try:
            page.wait_for_function(
                f"before => {app}.movesMade !== before || {app}.over === 'true'", arg=before
            )
        except PlaywrightTimeout:
            picked = page.locator("#game-hand [aria-pressed=true]").all_inner_texts()
            pytest.fail(f"turn {turn}, {phase} step: no move made ({picked} picked)")
        assert page.is_hidden("#game-problem"), page.inner_text("#game-problem")
        if turn == 0 and how == "click":  # the double click made one move, not two
            mine = [line for line in page.locator("#game-log li").all_inner_texts()[log_before:]]
            assert sum(", you: " in line and " on " in line for line in mine) == 1, mine
    assert page.get_attribute("#oracle-app", "data-over") == "true"
    result = page.inner_text("#game-result")
    # Stepping back through the whole game, and forward to now again.
    total = int(page.get_attribute("#oracle-app", "data-moves-made") or 0)
    for _ in range(3):
        page.get_by_role("button", name="Back a move").click()
    page.wait_for_function(
        "total => document.getElementById('game-review-note').textContent"
        ".includes(`after move ${total - 3} of ${total}`)",
        arg=total,
    )
    # The log marks the turn the table shows; the status, which tells the game now, steps aside.
    shown_turn = re.search(r"\(turn (\d+)\)", page.inner_text("#game-review-note"))
    current = page.locator("#game-log li[aria-current=step]")
    assert shown_turn and current.count() == 1
    assert current.get_attribute("data-turn") == shown_turn.group(1)
    assert page.is_hidden("#game-status")
    assert page.locator("#game-table .oracle-play-label:not([disabled])").count() == 0
    page.get_by_role("button", name="Start", exact=True).click()
    page.wait_for_function(
        "() => document.getElementById('game-review-note').textContent.includes('the deal')"
    )
    page.get_by_role("button", name="Now", exact=True).click()
    page.wait_for_selector("#game-review-note", state="hidden")
    # The downloaded record names the game, and the command line replays it to the same end.
    with page.expect_download() as downloading:
        page.click("#game-download")
    download = downloading.value
    timing = "expert" if expert else "standard"
    assert download.suggested_filename == (
        f"schotten-totten-{variant}-{timing}-you-first-seed-{seed}.txt"
    )
    record_file = tmp_path / download.suggested_filename
    download.save_as(record_file)
    # A new game is one press away from the result, with a seed of its own.
    page.get_by_role("button", name="Deal a new game").click()
    page.wait_for_function("() => document.getElementById('oracle-app').dataset.over === 'false'")
    assert page.input_value("#game-seed") != str(seed)
    visit.clean()
    record = parse_record(record_file.read_text(encoding="utf-8"))
    state = replay(record.game, record.moves)
    assert state.is_over
    winner = {"A": "You win: ", "B": "The computer wins: "}
    assert result.startswith(winner.get(getattr(state.winner, "name", ""), "Nobody wins"))
    assert main(["replay", str(record_file)]) == 0
    assert f"{result_text(state)}\n" in capsys.readouterr().out


SCREENS = [(viewport, scheme) for viewport in (DESKTOP, PHONE) for scheme in ("light", "dark")]
"""Every width and theme a page is checked at."""


def use_theme(page: Page, scheme: str) -> None:
    """Show ``page`` in the light or the dark theme, as the system asks or by its toggle."""
    wanted = "slate" if scheme == "dark" else "default"
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    body = page.locator("body")
    if body.get_attribute("data-md-color-scheme") != wanted:
        page.locator(f"label[title='Switch to the {scheme} theme']").first.click()
    assert body.get_attribute("data-md-color-scheme") == wanted


def axe_on_every_screen(page: Page, found: dict[str, list[str]], what: str) -> None:
    """axe over the page as it stands, at each width and in each theme; and it must fit."""
    for viewport, scheme in SCREENS:
        page.set_viewport_size(viewport)
        use_theme(page, scheme)
        where = f"{what} at {viewport['width']} px, {scheme}"
        found[where] = axe_violations(page)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > viewport["width"]:
            found[where].append(f"{width} px wide")


@pytest.mark.slow
def test_the_engine_pages_in_use_pass_axe_and_fit_the_screen(visit: Visit, site_url: str) -> None:
    """axe over the pages with an answer, a refusal and a game shown, at desktop and phone
    widths in both themes (the engine starts once per page: a start costs seconds of CPU)."""
    page = visit.page
    found: dict[str, list[str]] = {}
    engine_page(page, f"{site_url}/ask.html")
    page.check("input[name=variant][value=tactics]")
    page.fill("#stone-3-you", "red 1, blue 1, green 1")
    page.fill("#stone-3-them", "red 3, blue 3")
    page.check("#stone-3-claim")
    page.get_by_role("button", name="Ask the engine").click()
    wait_for_answer(page)
    axe_on_every_screen(page, found, "an answer")
    page.fill("#stone-3-them", "red 1")
    page.get_by_role("button", name="Ask the engine").click()
    page.wait_for_selector("#ask-problem-box:not([hidden])")
    axe_on_every_screen(page, found, "a refusal")
    engine_page(page, f"{site_url}/play.html")
    page.check("input[name=variant][value=tactics]")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#game:not([hidden])")
    page.locator("#game-hand button:not([disabled]):not([aria-disabled=true])").first.click()
    axe_on_every_screen(page, found, "a game")
    visit.clean()
    assert len(found) == 3 * len(SCREENS)
    assert not any(found.values()), {where: seen for where, seen in found.items() if seen}


# --------------------------------------------------------------- the page policy (issue 19)

SLIPPED = (
    '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>'
    '<a id="slipped-link" href="javascript:window.pwned=3">a</a>'
    '<button id="slipped-button" onclick="window.pwned=4">b</button>'
    "<style>body { display: none }</style>"
)


def test_an_inline_handler_slipped_into_a_built_page_is_blocked(
    visit: Visit, built_site: Path, site_url: str
) -> None:
    """Should escaping ever slip, the policy still runs nothing and restyles nothing."""
    page_text = (built_site / "edge-cases.html").read_text(encoding="utf-8")
    slipped = page_text.replace("<article", SLIPPED + "<article", 1)
    (built_site / "slipped.html").write_text(slipped, encoding="utf-8")
    page = visit.page
    page.goto(f"{site_url}/slipped.html")
    page.wait_for_load_state("load")
    page.click("#slipped-button")
    page.click("#slipped-link")
    assert page.evaluate("() => window.pwned") is None
    assert page.locator("article").is_visible()  # the slipped stylesheet did not apply
    blocked = " ".join(visit.violations())
    assert "script-src-attr" in blocked and "script-src-elem" in blocked
    assert "style-src-elem" in blocked


def test_search_works_under_the_policy_from_a_copy_opened_from_disk(
    browser: Browser, built_site: Path
) -> None:
    context = fresh_context(browser)
    context.add_init_script(WATCH_POLICY)
    page = context.new_page()
    page.goto((built_site / "index.html").as_uri())
    field = page.locator("input.md-search__input")
    result = page.locator(".md-search-result__item").first
    for _ in range(10):  # the search index loads in a frame standing in for a worker
        field.click()
        field.fill("")
        field.type("mud fight")
        try:
            result.wait_for(timeout=3000)
            break
        except PlaywrightTimeout:
            continue
    assert "Mud Fight" in result.inner_text()
    assert page.evaluate("() => window.__policyViolations") == []
    context.close()


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("%25%25", "characters a case link never has"),
        ("", "no case after it"),
        ("A", "cut short or damaged"),
        ("_w", "not the text of a case file"),
    ],
    ids=["bad-characters", "empty", "cut-short", "not-utf8"],
)
def test_a_damaged_case_link_is_said_on_the_ask_page(
    visit: Visit, site_url: str, code: str, words: str
) -> None:
    page = visit.page
    page.goto(f"{site_url}/ask.html#case={code}")
    problem = page.locator("#ask-problem")
    problem.wait_for(state="visible")  # at once: the engine need not be ready
    assert problem.inner_text().startswith("The link to this page: ")
    assert words in problem.inner_text()
    assert not visit.errors


def _deflated_link(size: int) -> str:
    """A version 2 link whose text inflates to ``size`` bytes of spaces."""
    squeezer = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = squeezer.compress(b" " * size) + squeezer.flush()
    return "v2=" + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def test_a_link_that_inflates_past_a_case_file_is_refused_at_once(
    visit: Visit, site_url: str
) -> None:
    """A short link may inflate to hundreds of megabytes: the page stops at what a case file
    may hold (64 KiB, as the command line) and says so, within a second or two."""
    page = visit.page
    started = time.monotonic()
    page.goto(f"{site_url}/ask.html#{_deflated_link(200 * 1024 * 1024)}")
    problem = page.locator("#ask-problem")
    problem.wait_for(state="visible", timeout=10_000)
    assert "more than a case file may hold (64 KiB)" in problem.inner_text()
    assert time.monotonic() - started < 10
    assert not visit.errors


@pytest.mark.browser
def test_the_engine_starts_once_and_its_files_stay_in_the_browser(
    browser: Browser, site_url: str
) -> None:
    """Served over http, any page caches the runtime (the service worker); Ask starts the
    engine, and Play, a reload and a second tab find it running, each with a game of its own;
    the first paint never waits for the engine."""
    context = browser.new_context()  # the service worker allowed, unlike fresh_context's
    visit = Visit(context.new_page())
    page = visit.page
    page.goto(f"{site_url}/index.html")
    page.wait_for_function(
        "async () => (await navigator.serviceWorker.ready).active.state === 'activated'"
    )
    cached = page.evaluate(
        """async () => {
            const names = await caches.keys();
            const cache = await caches.open(names.find((n) => n.startsWith('oracle-engine-')));
            return (await cache.keys()).map((request) => new URL(request.url).pathname);
        }"""
    )
    assert any(path.endswith("/pyodide.asm.wasm") for path in cached), cached
    assert any("/assets/engine/oracle-engine-" in path for path in cached), cached
    engine_page(page, f"{site_url}/ask.html")
    assert page.get_attribute("#oracle-loading", "data-kept") == "false"
    paint = page.evaluate(
        "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null"
    )
    assert paint is not None and paint < 1000 * float(
        page.get_attribute("#oracle-loading", "data-seconds") or 0
    )
    for url in (f"{site_url}/play.html", f"{site_url}/ask.html"):
        engine_page(page, url)
        assert page.get_attribute("#oracle-loading", "data-kept") == "true", url
        assert "already running" in page.inner_text("#oracle-loading-text")
    # Two Play pages share the engine, not their games.
    other = Visit(context.new_page())
    for tab in (page, other.page):
        engine_page(tab, f"{site_url}/play.html")
    page.fill("#game-seed", "11")
    page.select_option("#game-first", "them")  # the computer's first move: a step to go back to
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#game:not([hidden])")
    hand = page.locator("#game-hand button").all_inner_texts()
    other.page.fill("#game-seed", "12")
    other.page.get_by_role("button", name="Deal").click()
    other.page.wait_for_selector("#game:not([hidden])")
    assert other.page.locator("#game-hand button").all_inner_texts() != hand
    # The first page's game, asked of the engine after the second page dealt, is still its own.
    page.get_by_role("button", name="Start", exact=True).click()
    page.wait_for_function(
        "() => document.getElementById('game-review-note').textContent.includes('the deal')"
    )
    assert page.locator("#game-hand button").all_inner_texts() == hand
    visit.clean()
    other.clean()
    context.close()


KEPT_SNAPSHOTS = (
    "async () => { const held = [];"
    " for (const n of await caches.keys()) {"
    " if (n.startsWith('oracle-snapshot-') && (await (await caches.open(n)).keys()).length)"
    " held.push(n); }"
    " return held; }"
)
"""The browser's inflated copies of a site's snapshot: a cache is named as soon as it is opened,
before its entry is written, so only caches that hold one count."""


def _wait_until_kept(page: Page, site: Path) -> None:
    """Wait until the browser keeps the inflated snapshot of ``site``, and no other (the copy is
    put in the cache after the engine is ready, the other builds' copies dropped first). Polled
    here: a promise is not a predicate for ``wait_for_function``, which returns at once with
    whatever it resolves to."""
    [snapshot] = (site / "assets" / "engine").glob("*.snapshot")
    wanted = [f"oracle-snapshot-{snapshot.name}"]
    deadline = time.monotonic() + 60
    while (held := page.evaluate(f"({KEPT_SNAPSHOTS})()")) != wanted:
        assert time.monotonic() < deadline, f"the browser keeps {held}, not {wanted}"
        time.sleep(0.1)


def _judges_as_python_does(page: Page, reports: Iterable[CaseReport], start: str) -> None:
    for report in reports:
        page.evaluate("document.getElementById('ask-answer').dataset.verdicts = 'waiting'")
        page.fill("#case-text", report.case.path.read_text(encoding="utf-8"))
        wait_for_answer(page, "waiting")
        problem = page.inner_text("#ask-problem")
        assert page.is_hidden("#ask-problem-box"), (start, report.case.id, problem)
        assert shown_verdicts(page) == python_verdicts(report), (start, report.case.id)


def _another_build(site: Path, target: Path) -> None:
    """``site`` copied to ``target`` as a build with another runtime would be: its runtime's
    folder and its snapshot renamed, and the module naming them rewritten."""
    shutil.copytree(site, target, symlinks=True)
    [runtime] = [path.name for path in (target / "assets").glob("pyodide-*")]
    (target / "assets" / runtime).rename(target / "assets" / f"{runtime}-next")
    [snapshot] = (target / "assets" / "engine").glob("*.snapshot")
    snapshot.rename(snapshot.with_name(snapshot.name.replace(runtime, f"{runtime}-next")))
    files = target / "assets" / "javascripts" / "engine-files.js"
    files.write_text(files.read_text().replace(runtime, f"{runtime}-next"))


@pytest.mark.browser
def test_a_snapshot_of_another_build_or_a_damaged_one_is_never_restored(
    browser: Browser, built_site: Path, tmp_path: Path, published: tuple[CaseReport, ...]
) -> None:
    """The browser keeps its inflated copy of the site's snapshot under the snapshot's name,
    which names the runtime and the engine archive: a site with another runtime restores its
    own snapshot, never the old one's copy (which it drops). A snapshot that cannot be restored
    (here cut short) starts Python the ordinary way, with the same verdicts."""
    old = tmp_path / "old"
    shutil.copytree(built_site, old, symlinks=True)
    new = tmp_path / "new"
    _another_build(old, new)
    damaged = tmp_path / "damaged"
    _another_build(new, damaged)
    [snapshot] = (damaged / "assets" / "engine").glob("*.snapshot")
    snapshot.write_bytes(snapshot.read_bytes()[: snapshot.stat().st_size // 2])
    current = tmp_path / "current"
    current.symlink_to(old)
    sample = [report for report in published if report.case.topic == "claims"][:3]
    steps = (
        (old, "site"),
        (old, "browser"),
        (new, "site"),
        (new, "browser"),
        (damaged, None),
        (damaged, None),
    )
    for url in served(current):  # one address, so one browser cache, for every site
        for site, restored in steps:
            current.unlink()
            current.symlink_to(site)
            context = browser.browser_type.launch_persistent_context(
                str(tmp_path / "profile"), executable_path=CHROMIUM, args=FLAGS
            )  # a browser started again: the engine is not running any more
            page = context.pages[0] if context.pages else context.new_page()
            # The same addresses now hold the other site's files: not the HTTP cache's copies.
            context.new_cdp_session(page).send("Network.clearBrowserCache")
            engine_page(page, f"{url}/ask.html")
            assert page.get_attribute("#oracle-loading", "data-kept") == "false"
            shown = page.get_attribute("#oracle-loading", "data-restored-from")
            assert shown == restored, (site.name, shown)
            if restored is None:
                unused = page.get_attribute("#oracle-loading", "data-snapshot-unused")
                assert unused, site.name  # says why Python started afresh
                _judges_as_python_does(page, sample, site.name)
            else:
                _wait_until_kept(page, site)  # the other site's copy dropped
            context.close()


@pytest.mark.browser
def test_a_browser_started_again_restores_the_engine_and_it_judges_as_python_does(
    browser: Browser,
    built_site: Path,
    site_url: str,
    tmp_path: Path,
    published: tuple[CaseReport, ...],
) -> None:
    """A first start restores Python's memory from the snapshot the site publishes and keeps it
    inflated; a browser started again restores that copy; either way the engine gives the
    catalogue's verdicts (the edge-case table's cases, and every tenth of the others)."""
    judged = [report for report in published if report.checks]
    sample = [r for i, r in enumerate(judged) if r.case.topic == "claims" or i % 10 == 0]
    for start in ("site", "browser"):
        context = browser.browser_type.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, args=FLAGS
        )
        visit = Visit(context.pages[0] if context.pages else context.new_page())
        page = visit.page
        engine_page(page, f"{site_url}/ask.html")
        assert page.get_attribute("#oracle-loading", "data-kept") == "false"
        assert page.get_attribute("#oracle-loading", "data-restored-from") == start
        _judges_as_python_does(page, sample, start)
        if start == "site":
            _wait_until_kept(page, built_site)  # written before the browser closes
        visit.clean()
        context.close()
