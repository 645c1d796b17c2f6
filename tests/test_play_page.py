"""The "Play a game" page as issue 44 asks it: a refused Tactic card says why, in the engine's
words; the table comes first once dealt, the how-to folded into a help; a greyed card stays
readable in both themes; a whole game is dealt and played with the keyboard alone, and its end
says who won and how, with the record and a new deal at hand.

Browser tests (``-m browser``), marked slow as the other engine-page tests: each starts the engine.
"""

from __future__ import annotations

import re
import time

import pytest
from browser_support import APP, REFUSED_SEED, Visit, moves_to_a_refused_card, play_moves
from playwright.sync_api import Page
from test_browser import DESKTOP, PHONE, axe_violations, engine_page, use_theme

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG's relative luminance of a colour given as 0-255 channels."""

    def channel(value: float) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: tuple[float, float, float], two: tuple[float, float, float]) -> float:
    high, low = sorted((luminance(one), luminance(two)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def grey(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """What CSS's ``grayscale(1)`` makes of a colour (the filter's matrix)."""
    r, g, b = rgb
    value = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return (value, value, value)


COLOURS = """card => {
  const parse = (text) => {
    const [r, g, b, a = 1] = text.match(/[\\d.]+/g).map(Number);
    return [r, g, b, a];
  };
  const face = card.querySelector('.oracle-card');
  let ground = null;
  for (let node = card.parentElement; node; node = node.parentElement) {
    const colour = parse(getComputedStyle(node).backgroundColor);
    if (colour[3] > 0) { ground = colour; break; }
  }
  ground = ground || [255, 255, 255, 1];
  return {
    text: parse(getComputedStyle(face).color),
    face: parse(getComputedStyle(face).backgroundColor),
    frame: parse(getComputedStyle(card).outlineColor),
    ground,
  };
}"""


def blend(colour: list[float], ground: list[float]) -> tuple[float, float, float]:
    """A colour with an alpha over an opaque ground."""
    alpha = colour[3]
    r, g, b = (colour[i] * alpha + ground[i] * (1 - alpha) for i in range(3))
    return (r, g, b)


def test_the_refused_tactic_card_says_why_and_stays_readable(visit: Visit, site_url: str) -> None:
    moves, refused = moves_to_a_refused_card(REFUSED_SEED)
    page = visit.page
    page.set_viewport_size(DESKTOP)
    engine_page(page, f"{site_url}/play.html")
    page.check("input[name=variant][value=tactics]")
    page.fill("#game-seed", str(REFUSED_SEED))
    started = time.perf_counter()
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#game:not([hidden])")
    play_moves(page, moves)
    card = page.locator(f"#game-hand [data-card='{refused['name']}']").first
    assert card.get_attribute("aria-disabled") == "true"
    said = f"{refused['name'].capitalize()} cannot be played now: {refused['refused']}."
    # Pointed at, focused, picked: each shows the engine's reason under the hand.
    card.hover()
    assert page.inner_text("#game-card-note") == said
    page.mouse.move(0, 0)
    assert page.is_hidden("#game-card-note")
    card.focus()
    assert page.inner_text("#game-card-note") == said
    page.keyboard.press("Enter")
    card = page.locator(f"#game-hand [data-card='{refused['name']}']").first
    assert card.get_attribute("aria-pressed") == "true"
    assert page.inner_text("#game-card-note") == said
    assert refused["refused"] in (card.get_attribute("title") or "")
    shown = time.perf_counter() - started
    print(f"refused card: {said!r} shown {shown:.1f} s after the deal ({len(moves)} moves)")
    page.focus("#game-status")  # the picked reason stays; the focus ring is not the frame
    assert page.inner_text("#game-card-note") == said
    # Readable in both themes: its text on its (greyed) face, its frame on the page.
    for viewport in (DESKTOP, PHONE):
        page.set_viewport_size(viewport)
        for scheme in ("light", "dark"):
            use_theme(page, scheme)
            colours = card.evaluate(COLOURS)
            ground = blend(colours["ground"], [255, 255, 255, 1])
            face = grey(blend(colours["face"], [*ground, 1]))
            text = grey(blend(colours["text"], [*face, 1]))
            frame = blend(colours["frame"], [*ground, 1])
            assert contrast(text, face) >= 4.5, (scheme, text, face)
            assert contrast(frame, ground) >= 3, (scheme, frame, ground)
            assert not axe_violations(page), scheme
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"]
    visit.clean()


def press(page: Page, key: str, count: list[int]) -> None:
    page.keyboard.press(key)
    count[0] += 1


def tab_to(page: Page, test: str, count: list[int], limit: int = 80) -> None:
    """Press Tab until the focused element passes ``test`` (a JS function of it)."""
    for _ in range(limit):
        if page.evaluate(f"({test})(document.activeElement)"):
            return
        press(page, "Tab", count)
    raise AssertionError(f"Tab never reached {test}")


PLAYABLE = """el => !!el && !!el.closest('#game-table, #game-hand, #game-actions')
  && el.tagName === 'BUTTON' && !el.disabled && el.getAttribute('aria-disabled') !== 'true'
  && !(el.classList.contains('oracle-play-label') && el.hasAttribute('aria-pressed'))"""
"""A control that makes or picks a move (a stone marked to claim is left as the page marked it)."""


def test_a_whole_game_is_dealt_and_played_with_the_keyboard_alone(
    visit: Visit, site_url: str
) -> None:
    page = visit.page
    page.set_viewport_size(DESKTOP)
    engine_page(page, f"{site_url}/play.html")
    count = [0]
    started = time.perf_counter()
    page.locator("body").focus()
    # The variant by its radio buttons' arrows, the seed typed, then Deal.
    tab_to(page, "el => el.name === 'variant'", count)
    press(page, "ArrowRight", count)
    assert page.is_checked("input[name=variant][value=tactics]")
    tab_to(page, "el => el.id === 'game-seed'", count)
    press(page, "Control+A", count)
    for digit in "8":
        press(page, digit, count)
    tab_to(page, "el => el.id === 'deal-button'", count)
    press(page, "Enter", count)
    page.wait_for_selector("#game:not([hidden])")
    # The table comes first: the how-to is folded, the form for a new deal below the game.
    assert page.evaluate("!document.getElementById('play-help').open")
    assert page.evaluate(
        "document.getElementById('game').compareDocumentPosition("
        "document.getElementById('game-form')) & Node.DOCUMENT_POSITION_FOLLOWING"
    )
    top = page.evaluate("document.getElementById('game-table').getBoundingClientRect().top")
    assert 0 <= top < DESKTOP["height"] / 2
    help_open = "document.getElementById('play-help').open"
    page.focus("#play-help summary")  # the help opens and folds from the keyboard
    page.keyboard.press("Enter")
    assert page.evaluate(help_open)
    page.keyboard.press("Enter")
    assert not page.evaluate(help_open)
    page.focus("#game-title")  # where the deal left the focus
    for _ in range(3000):
        page.wait_for_function(f"() => {APP}.busy !== 'true'")
        if page.get_attribute("#oracle-app", "data-over") == "true":
            break
        if page.evaluate(f"({PLAYABLE})(document.activeElement)"):
            press(page, "Enter", count)
        else:
            press(page, "Tab", count)
    assert page.get_attribute("#oracle-app", "data-over") == "true"
    assert page.is_hidden("#game-problem")
    played = time.perf_counter() - started
    result = page.inner_text("#game-result")
    assert re.fullmatch(r"(You win|The computer wins|Nobody wins)[:,] .+\.", result), result
    assert re.fullmatch(r"\d+ moves in \d+ turns; .+", page.inner_text("#game-length"))
    # The end holds the focus, and the record and a new deal are the next stops.
    assert page.evaluate("document.activeElement.id") == "game-over-title"
    press(page, "Tab", count)
    assert page.evaluate("document.activeElement.id") == "game-again"
    press(page, "Tab", count)
    assert page.evaluate("document.activeElement.id") == "game-download-end"
    with page.expect_download() as downloading:
        press(page, "Enter", count)
    assert downloading.value.suggested_filename.endswith("-seed-8.txt")
    press(page, "Shift+Tab", count)
    press(page, "Enter", count)
    page.wait_for_function(f"() => {APP}.over === 'false'")
    moves = page.get_attribute("#oracle-app", "data-moves-made")
    print(
        f"keyboard alone: a whole tactics game (seed 8, {result}) in {count[0]} key presses,"
        f" {played:.1f} s from the first key to the end"
    )
    assert moves is not None
    visit.clean()
