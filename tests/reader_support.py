"""What a reader sees: every kind of page, brought to each state a reader meets, at three widths
and in both themes, checked for layout in the page (``tests/reader/layout.js``) and compared with
reviewed screenshots (``tests/reader/screenshots/``).

Used by ``tests/test_reader.py`` and by ``tests/review_screenshots.py`` (the command that
reviews changed screenshots). The layout checks run on the project's own site, as readers get
it; the screenshots are taken of a small fixture site (``tests/look/``: a few cases, the rules
index and a published result, frozen) built with the project's pages, templates, stylesheets
and scripts, so that an editor's new case never moves a picture, while a change to how pages
look always does.
"""

from __future__ import annotations

import functools
import html
import io
import json
import os
import random
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

try:
    from PIL import Image
    from pixelmatch.contrib.PIL import pixelmatch

    HAVE_IMAGING = True
except ImportError:  # pragma: no cover - the dev extras install both
    HAVE_IMAGING = False

from browser_support import REFUSED_SEED, moves_to_a_refused_card, play_moves, table_turn
from conftest import copy_site_sources

from oracle.casefile.source import loaded_yaml

if TYPE_CHECKING:
    from playwright.sync_api import Page

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
LAYOUT_SCRIPT = TESTS / "reader" / "layout.js"
BASELINES = TESTS / "reader" / "screenshots"
"""The reviewed screenshots, one PNG per view, width and theme."""
LOOK = TESTS / "look"
"""The fixture site's own files: its cases, rules index and published results."""

ARTEFACTS = Path(os.environ.get("ORACLE_ARTEFACTS", ROOT / "test-artefacts"))
"""Where a failing reader test leaves its screenshots and diff pages (CI keeps this folder)."""
CANDIDATES = ARTEFACTS / "screenshots"
"""Where a run leaves each screenshot that differs from its baseline, with the diff page."""

WIDTHS = {"desktop": (1280, 900), "tablet": (768, 1024), "phone": (390, 844)}
THEMES = ("light", "dark")
ENGINE_READY = 90_000  # ms: a cold start of the runtime on a loaded CI machine

COLOURS = 64
"""Screenshots are kept as palette PNGs of this many colours: small, and still every card's."""
PIXEL_THRESHOLD = 0.1
"""pixelmatch's per-pixel threshold (0-1, in its perceptual colour space)."""
CHANGED_SHARE = 0.002
"""A screenshot differs from its baseline when more than this share of its pixels differ."""


# --------------------------------------------------------------------------- the views


@dataclass(frozen=True)
class State:
    """One state of a page a reader meets: how to reach it from the state before it (or from
    the page just loaded), what to bring to the top of the window for the screenshot, and
    what text changes from run to run (painted over in the screenshot)."""

    name: str
    reach: Callable[[Page], None] | None = None
    anchor: str | None = None
    mask: tuple[str, ...] = ()


@dataclass(frozen=True)
class View:
    """A page of one kind, loaded once, and the states it is checked in, in order."""

    name: str
    path: str
    states: tuple[State, ...] = (State("page"),)
    engine: bool = False

    def state_names(self) -> list[str]:
        return [
            self.name if len(self.states) == 1 else f"{self.name}-{s.name}" for s in self.states
        ]


def _case_pages_by_kind(project: Path) -> dict[str, str]:
    """A published case page of each question kind, found in the project's case files (the
    first in file order): claim, move, turn, deal, match, refused board, and the whole game
    (the turn that makes the most moves)."""
    found: dict[str, str] = {}
    longest = -1
    for path in sorted((project / "cases").glob("*/*.yaml")):
        data = loaded_yaml(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("draft"):
            continue
        uri = f"cases/{path.parent.name}/{data['id']}.html"
        for key, kind in (
            ("impossible", "refused-board"),
            ("deal", "deal"),
            ("match", "match"),
            ("turn", "turn"),
            ("plays", "move"),
            ("claims", "claim"),
        ):
            if data.get(key):
                found.setdefault(kind, uri)
                break
        moves = len((data.get("turn") or {}).get("moves") or [])
        if moves > longest:
            longest, found["whole-game"] = moves, uri
    return found


def _ask_board(page: Page) -> None:
    page.check("input[name=variant][value=base]")
    page.fill("#stone-3-you", "red 1, blue 1, green 1")
    page.fill("#stone-3-them", "red 3, blue 3")
    page.fill("#stone-6-you", "yellow 3, yellow 4")
    page.fill("#stone-6-them", "purple 3")
    page.fill("#hand", "pink 3, red 9, blue 7, yellow 8, purple 5")
    page.check("#stone-3-claim")
    page.get_by_role("button", name="Ask the engine").click()
    page.wait_for_function(
        "() => { const a = document.getElementById('ask-answer');"
        " return !a.hidden && a.dataset.verdicts; }"
    )


def _ask_problem(page: Page) -> None:
    page.fill("#stone-3-them", "red 1")
    page.get_by_role("button", name="Ask the engine").click()
    page.wait_for_selector("#ask-problem-box:not([hidden])")


PLAY_SEED = 3
"""A base game in which the reader, making the moves a generator seeded alike picks, meets a
claim step with a stone to claim at turn 33 and the game ends at turn 38: the table in each state
a player sees (dealt, a claim step, over), about 3 s of play in chromium."""

_APP = "document.getElementById('oracle-app').dataset"


def _play_dealt(page: Page) -> None:
    page.check("input[name=variant][value=base]")
    page.fill("#game-seed", str(PLAY_SEED))
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_function(f"() => {_APP}.busy !== 'true'")


def _play_until(page: Page, moves: random.Random, done: Callable[[Page], bool]) -> None:
    """Make the reader's moves, as the whole-game browser test makes them, picked by ``moves``
    (one generator for the view's states, seeded with the game's seed), until ``done`` holds."""
    for _ in range(200):
        page.wait_for_function(f"() => {_APP}.busy !== 'true'")
        if done(page):
            return
        before = page.get_attribute("#oracle-app", "data-moves-made")
        table_turn(page, "click", moves, double_click=False)
        page.wait_for_function(
            f"before => {_APP}.movesMade !== before || {_APP}.over === 'true'", arg=before
        )
    raise AssertionError("the Play page's game did not reach the state the reader tests need")


def _play_claim_step(moves: random.Random, page: Page) -> None:
    _play_until(
        page,
        moves,
        lambda p: (
            p.get_attribute("#oracle-app", "data-phase") == "claim"
            and p.locator(".oracle-claimable").count() > 0
        ),
    )


def _play_finished(moves: random.Random, page: Page) -> None:
    _play_until(page, moves, lambda p: p.get_attribute("#oracle-app", "data-over") == "true")


def _play_refused_card(page: Page) -> None:
    """A tactics game dealt anew, to the reader's step where a Tactic card is refused, picked
    so its reason shows: how a refused card looks in each theme."""
    moves, refused = moves_to_a_refused_card(REFUSED_SEED)
    page.check("input[name=variant][value=tactics]")
    page.fill("#game-seed", str(REFUSED_SEED))
    page.click("#deal-button")
    page.wait_for_function(f"() => {_APP}.over === 'false' && {_APP}.busy !== 'true'")
    play_moves(page, moves)
    page.locator("#game-legal-box summary").click()  # folded again, as a reader leaves it
    page.locator(f"#game-hand [data-card='{refused['name']}']").first.focus()
    page.keyboard.press("Enter")  # picked: its reason stays under the hand
    page.locator("#game-status").focus()


LOADING = ("#oracle-loading",)
"""The engine pages' loading line says how long the start took: painted over."""
LOG_PANEL = ".oracle-log-panel"
"""Play's move log beside the table, painted over at the claim step only. There its text came out
a fraction of a pixel apart from run to run at desktop width (0.23% of the screen against the
0.20% limit, in 7 of 20 runs of ``bench/screenshot_flake.py``, most under load), while the same
panel at the end of the game never moved: the finished state's picture checks how the log looks,
and the layout checks still read the panel at every step."""


TOPIC_PAGES = (
    "edge-cases",
    "more-claims",
    "formations",
    "early-claims",
    "elite-troops",
    "tactic-cards",
    "turns",
    "end-of-game",
    "setup",
    "matches",
    "impossible-boards",
)
"""The topic pages, each with a case table, in the order of the site's navigation."""


def views(project: Path) -> list[View]:
    """Every kind of page, in the states a reader meets them."""
    cases = _case_pages_by_kind(project)
    table = ".oracle-filters"
    moves = random.Random(PLAY_SEED)
    found = [View("home", "index.html")]
    found += [View(topic, f"{topic}.html", (State("page", anchor=table),)) for topic in TOPIC_PAGES]
    found.append(View("all-cases", "all-cases.html", (State("page", anchor=table),)))
    found += [View(f"case-{kind}", uri) for kind, uri in sorted(cases.items())]
    found += [
        View("rulings", "rulings.html"),
        View("what-changed", "changes.html"),
        View("misreadings", "misreadings.html", (State("page", anchor=".oracle-matrix"),)),
        View("conformance", "conformance.html", (State("page", anchor=".oracle-matrix"),)),
        View("formation-odds", "formation-odds.html"),
        View("engine-reference", "engine-reference.html"),
        View("walkthrough", "walkthrough.html"),
        View("adding-a-case", "adding-a-case.html"),
        View("contributing", "contributing.html"),
        View(
            "ask",
            "ask.html",
            (
                State("empty", mask=LOADING),
                State("board", _ask_board, anchor="#ask-answer", mask=LOADING),
                State("problem", _ask_problem, anchor="#ask-problem-box", mask=LOADING),
            ),
            engine=True,
        ),
        View(
            "play",
            "play.html",
            (
                State("dealt", _play_dealt, anchor="#game", mask=LOADING),
                State(
                    "claim-step",
                    functools.partial(_play_claim_step, moves),
                    anchor="#game",
                    mask=(*LOADING, LOG_PANEL),
                ),
                State(
                    "finished",
                    functools.partial(_play_finished, moves),
                    anchor="#game",
                    mask=LOADING,
                ),
                State("refused-card", _play_refused_card, anchor="#game-hand-area", mask=LOADING),
            ),
            engine=True,
        ),
        View("not-found", "404.html"),
    ]
    return found


VIEW_NAMES = [
    "home",
    *TOPIC_PAGES,
    "all-cases",
    "case-claim",
    "case-deal",
    "case-match",
    "case-move",
    "case-refused-board",
    "case-turn",
    "case-whole-game",
    "rulings",
    "what-changed",
    "misreadings",
    "conformance",
    "formation-odds",
    "engine-reference",
    "walkthrough",
    "adding-a-case",
    "contributing",
    "ask",
    "play",
    "not-found",
]
"""The views' names, known before any site is built (the tests are parametrized by them; a
test checks that :func:`views` gives exactly these)."""


# --------------------------------------------------------------------------- the fixture site


def copy_look_project(target: Path) -> Path:
    """The fixture site's project: the project's pages, templates, stylesheets, scripts and
    recorded games, with the frozen cases, rules index and results of ``tests/look/``."""
    copy_look_catalogue(target, pages_only=False)
    shutil.copytree(ROOT / "games", target / "games")
    for name in ("package.json", "package-lock.json"):
        shutil.copy(ROOT / name, target / name)
    (target / "node_modules").symlink_to(ROOT / "node_modules")
    return target


def copy_look_catalogue(target: Path, *, pages_only: bool = True) -> Path:
    """What the catalogue and the editors' commands read of the fixture site's project: the
    cases, rules index and results of ``tests/look/``, ``mkdocs.yml`` and the project's
    Markdown pages (with ``pages_only``, the default, none of ``site_src/``'s other files,
    which only a build reads: see conftest's :func:`copy_catalogue_project`)."""
    for name in ("cases", "rules", "results"):
        shutil.copytree(LOOK / name, target / name)
    copy_site_sources(target / "site_src", pages_only=pages_only)
    shutil.copy(ROOT / "mkdocs.yml", target / "mkdocs.yml")
    return target


# --------------------------------------------------------------------------- in the browser


def use_screen(page: Page, width: str, theme: str) -> None:
    """Show ``page`` at a width of :data:`WIDTHS` in a theme, as the system asks or by the
    theme's toggle (a reader's choice, once made, outlives the system's)."""
    w, h = WIDTHS[width]
    page.set_viewport_size({"width": w, "height": h})
    wanted = "slate" if theme == "dark" else "default"
    page.emulate_media(color_scheme=theme)  # type: ignore[arg-type]
    body = page.locator("body")
    if body.get_attribute("data-md-color-scheme") != wanted:
        page.locator(f"label[title='Switch to the {theme} theme']").first.click()
    page.wait_for_function(
        "wanted => document.body.getAttribute('data-md-color-scheme') === wanted", arg=wanted
    )
    settle(page)


def settle(page: Page) -> None:
    """Wait until nothing moves: the fonts loaded, the theme's transitions and the page's own
    animations over, and the layout done for the current size. A face limited to a few
    characters (``unicode-range``) is fetched only once a layout asks for it, which can be after
    ``document.fonts.ready`` has resolved, so the fonts are asked again after the layout."""
    page.evaluate(
        "async () => { await document.fonts.ready;"
        " const running = document.getAnimations().map(a => a.finished);"
        " const enough = new Promise(done => setTimeout(done, 2000));"
        " await Promise.race([Promise.allSettled(running), enough]);"
        " const frames = () => new Promise(done =>"
        " requestAnimationFrame(() => requestAnimationFrame(done)));"
        " await frames();"
        " while (document.fonts.status !== 'loaded') {"
        " await document.fonts.ready; await frames(); } }"
    )


def layout_report(page: Page, where: str, picture: Path) -> list[str]:
    """The layout problems of ``page`` as it stands, one line each: ``where`` (the page, the
    width and the theme), the check, the element and what is wrong, and the screenshot of the
    whole page left at ``picture`` (taken only when something is wrong)."""
    found = layout_problems(page)
    if not found:
        return []
    picture.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(picture), full_page=True)
    return [f"{where}: {p['check']}: {p['element']}: {p['detail']} ({picture})" for p in found]


def layout_problems(page: Page) -> list[dict[str, str]]:
    """What :file:`reader/layout.js` finds wrong with the page as it stands, and every glyph
    drawn with a font the site does not serve (:func:`machine_font_problems`)."""
    found: list[dict[str, str]] = page.evaluate(LAYOUT_SCRIPT.read_text(encoding="utf-8"))
    return found + machine_font_problems(page)


_MARK_FONT_CHECKS = """() => {
  const marked = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    if (/[^\\x00-\\x7f]/.test(text.data) && text.parentElement) marked.add(text.parentElement);
  }
  for (const element of marked) element.setAttribute("data-font-check", "");
  return marked.size;
}"""


def machine_font_problems(page: Page) -> list[dict[str, str]]:
    """Each element whose text the browser drew, even in part, with a font of the machine's own
    rather than one the site serves (``site_src/assets/stylesheets/fonts.css``): a glyph the
    site's fonts lack looks different on every reader's machine, and moves the screenshots with
    the fonts CI happens to have. Asked of Chromium itself (DevTools'
    ``CSS.getPlatformFontsForNode``) for each element with text beyond ASCII, which the site's
    Latin fonts cover whole."""
    if not page.evaluate(_MARK_FONT_CHECKS):
        return []
    found: list[dict[str, str]] = []
    session = page.context.new_cdp_session(page)
    try:
        session.send("DOM.enable")
        session.send("CSS.enable")
        document = session.send("DOM.getDocument", {"depth": 0})
        marked = session.send(
            "DOM.querySelectorAll",
            {"nodeId": document["root"]["nodeId"], "selector": "[data-font-check]"},
        )
        for node in marked["nodeIds"]:
            fonts = session.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
            machine = [f["familyName"] for f in fonts if not f["isCustomFont"]]
            if machine:
                markup = session.send("DOM.getOuterHTML", {"nodeId": node})["outerHTML"]
                markup = " ".join(markup.replace(' data-font-check=""', "").split())
                beyond = sorted({c for c in html.unescape(markup) if ord(c) > 0xFF})
                found.append(
                    {
                        "check": "glyph-from-the-machine",
                        "element": markup[:90],
                        "detail": "drawn in part with the machine's "
                        + ", ".join(sorted(set(machine)))
                        + f" (one of {' '.join(beyond)}); add a font that has it to fonts.css",
                    }
                )
    finally:
        session.detach()
        page.evaluate(
            "() => document.querySelectorAll('[data-font-check]')"
            ".forEach(e => e.removeAttribute('data-font-check'))"
        )
    return found


def screenshot(page: Page, state: State) -> bytes:
    """The window's picture, as a palette PNG of :data:`COLOURS` colours: from the top of the
    page, or with the state's anchor at the top of the window; animations stopped, the caret
    hidden, the text that changes from run to run painted over."""
    page.mouse.move(0, 0)
    if state.anchor and page.locator(state.anchor).count():
        page.evaluate(
            "selector => { const el = document.querySelector(selector);"
            " const header = document.querySelector('.md-header');"
            " const top = el.getBoundingClientRect().top + window.scrollY"
            " - (header ? header.offsetHeight : 0) - 16;"
            " window.scrollTo(0, Math.max(0, Math.round(top))); }",
            state.anchor,
        )
    else:
        page.evaluate("window.scrollTo(0, 0)")
    settle(page)
    raw = page.screenshot(
        animations="disabled",
        caret="hide",
        mask=[page.locator(selector) for selector in state.mask],
        mask_color="#808080",
    )
    return compress(raw)


def compress(png: bytes) -> bytes:
    """A screenshot as a small palette PNG (the form baselines are kept and compared in)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    quantized = image.quantize(
        colors=COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    out = io.BytesIO()
    quantized.save(out, "PNG", optimize=True)
    return out.getvalue()


# --------------------------------------------------------------------------- comparing


@dataclass
class Difference:
    """A screenshot that differs from its baseline (or has none), with where its pictures are."""

    name: str
    share: float | None
    """The share of pixels that differ; None when there is no baseline yet."""
    page: Path = field(default_factory=Path)
    """The HTML page showing the old, the new and the difference side by side."""

    def line(self) -> str:
        what = (
            "has no reviewed screenshot yet"
            if self.share is None
            else f"differs from its reviewed screenshot in {self.share:.2%} of its pixels"
        )
        return f"{self.name} {what}: see {self.page}"


def baseline_path(name: str) -> Path:
    return BASELINES / f"{name}.png"


def compare(name: str, new: bytes) -> Difference | None:
    """Compare a screenshot with its baseline; when it differs, leave the new picture, the
    diff image and a page showing old, new and diff side by side in :data:`CANDIDATES`."""
    old_path = baseline_path(name)
    if old_path.is_file():
        old_bytes = old_path.read_bytes()
        if old_bytes == new:
            _logged(name, 0.0)
            return None
        old = Image.open(io.BytesIO(old_bytes)).convert("RGBA")
        current = Image.open(io.BytesIO(new)).convert("RGBA")
        if old.size == current.size:
            diff = Image.new("RGBA", old.size)
            mismatched = pixelmatch(old, current, diff, threshold=PIXEL_THRESHOLD, includeAA=False)
            share = mismatched / (old.size[0] * old.size[1])
            _logged(name, share)
            if share <= CHANGED_SHARE:
                return None
        else:
            share = 1.0
            _logged(name, share)
            diff = current.copy()
    else:
        share, diff = None, None
    CANDIDATES.mkdir(parents=True, exist_ok=True)
    (CANDIDATES / f"{name}.new.png").write_bytes(new)
    if old_path.is_file():
        shutil.copy(old_path, CANDIDATES / f"{name}.old.png")
    if diff is not None:
        diff.save(CANDIDATES / f"{name}.diff.png")
    page = CANDIDATES / f"{name}.html"
    page.write_text(diff_page(name, share), encoding="utf-8")
    return Difference(name, share, page)


def _logged(name: str, share: float) -> None:
    """Note a comparison's share of changed pixels in ``$ORACLE_SCREENSHOT_LOG`` (a JSON line
    each), when it is set: how :file:`bench/screenshot_flake.py` measures how near runs come to
    the tolerance."""
    log = os.environ.get("ORACLE_SCREENSHOT_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as lines:
            lines.write(json.dumps({"screen": name, "share": share}) + "\n")


def diff_page(name: str, share: float | None) -> str:
    """One HTML page: the reviewed screenshot, the new one and their difference side by side."""
    title = html.escape(name)
    cells = []
    for label, suffix in (("reviewed", "old"), ("now", "new"), ("difference", "diff")):
        if suffix == "new" or share is not None:
            cells.append(
                f'<figure><figcaption>{label}</figcaption><img src="{title}.{suffix}.png"'
                f' alt="{label}: {title}"></figure>'
            )
    said = "no reviewed screenshot yet" if share is None else f"{share:.2%} of the pixels differ"
    return (
        '<!doctype html><html lang="en"><meta charset="utf-8">'
        f"<title>{title}: {said}</title>"
        "<style>body{font-family:sans-serif;margin:1em} .row{display:flex;gap:1em;"
        "align-items:flex-start;overflow-x:auto} figure{margin:0} img{border:1px solid #888;"
        "max-width:none}</style>"
        f"<h1>{title}</h1><p>{said}. Accept it with"
        " <code>make screenshots-review</code>.</p>"
        f'<div class="row">{"".join(cells)}</div></html>\n'
    )


def pending() -> Iterator[tuple[str, Path]]:
    """The screenshots a run left as differing from their baselines, by name."""
    for new in sorted(CANDIDATES.glob("*.new.png")):
        yield new.name.removesuffix(".new.png"), new


def write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
