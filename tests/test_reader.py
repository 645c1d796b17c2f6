"""What a reader sees, checked as a reader would look: every kind of page, in each state a reader
meets it, at 1280, 768 and 390 px wide, in the light and the dark theme.

- On the project's own site (what readers get) and on the fixture site (``tests/look/``), the
  layout checks of ``tests/reader/layout.js`` hold: no table squeezed, no sideways scroll, no
  text clipped or covered, every card inside its box, every control big enough. A failure names
  the page, the width, the theme and the element, and leaves a screenshot in the artefacts
  folder (``test-artefacts/``, or ``$ORACLE_ARTEFACTS``).
- On the fixture site, whose cases never change with the catalogue, each screen is compared with
  its reviewed screenshot (``tests/reader/screenshots/``). A changed look fails with a page
  showing the old, the new and their difference; ``make screenshots`` makes the new pictures
  and ``make screenshots-review`` accepts or keeps them, page by page.

Marked ``browser`` and ``slow``: CI runs them; an editor opts in (``-m browser``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import yaml
from browser_support import Visit, fresh_context, served, shared_build, skip_without_a_browser
from conftest import FIXTURE
from reader_support import (
    ARTEFACTS,
    BASELINES,
    ENGINE_READY,
    HAVE_IMAGING,
    THEMES,
    VIEW_NAMES,
    WIDTHS,
    View,
    compare,
    copy_look_project,
    layout_report,
    screenshot,
    settle,
    use_screen,
    views,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser

ROOT = Path(__file__).resolve().parent.parent
RECORDING = os.environ.get("ORACLE_SCREENSHOTS") == "record"
"""Set by ``make screenshots``: leave every changed picture for review and do not fail."""


def test_the_views_are_every_kind_of_page(tmp_path: Path) -> None:
    """The views the reader tests walk are the names they are parametrized by, and both fixture
    sites (the look's and the tests' catalogue's) hold a case page of every question kind."""
    look = copy_look_project(tmp_path / "look")
    assert [view.name for view in views(look)] == VIEW_NAMES
    assert [view.name for view in views(FIXTURE)] == VIEW_NAMES


def _nav_pages(entries: object) -> Iterator[str]:
    if isinstance(entries, str):
        yield entries.removesuffix(".md") + ".html"
    elif isinstance(entries, list):
        for entry in entries:
            yield from _nav_pages(entry)
    elif isinstance(entries, dict):
        for value in entries.values():
            yield from _nav_pages(value)


def test_every_page_of_the_navigation_is_a_view() -> None:
    """A page added to the site's navigation is walked by the reader tests (and so needs its
    reviewed screenshots) from the day it is added."""

    class Loader(yaml.SafeLoader):
        """mkdocs.yml's own tag (``!ENV``) read as nothing."""

    Loader.add_constructor("!ENV", lambda _loader, _node: "")
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
    walked = {view.path for view in views(FIXTURE)}
    assert sorted(set(_nav_pages(config["nav"])) - walked) == []


def test_every_reviewed_screenshot_is_of_a_screen_the_tests_take(tmp_path: Path) -> None:
    """One reviewed picture for each state of each view, at each width and in each theme, and
    none left over from a view or state that is gone (its review would never come)."""
    look = copy_look_project(tmp_path / "look")
    screens = {
        f"{name}-{width}-{theme}"
        for view in views(look)
        for name in view.state_names()
        for width in WIDTHS
        for theme in THEMES
    }
    reviewed = {picture.stem for picture in BASELINES.glob("*.png")}
    assert sorted(reviewed - screens) == [], "pictures of no screen: delete them"
    assert sorted(screens - reviewed) == [], "screens without a picture: run make screenshots"


def test_the_readme_says_how_to_make_and_review_the_pictures() -> None:
    """The README gives the two commands (and the one that lands the result) in three lines,
    and the Makefile has both targets."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()
    commands = ("make screenshots", "make screenshots-review", "git add tests/reader/screenshots")
    lines = [line for line in readme if line.split("#")[0].strip() in commands]
    assert [line.split("#")[0].strip() for line in lines] == list(commands), lines
    assert all("#" in line for line in lines), "each command says what it does"
    for target in ("screenshots", "screenshots-review"):
        assert any(line.startswith(f"{target}:") for line in makefile), target


@pytest.fixture(scope="session")
def look_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The fixture site (``tests/look/``), built once for the run and served."""
    skip_without_a_browser()
    site = shared_build(tmp_path_factory, "the look", copy_look_project)
    yield from served(site)


def _view(project: Path, name: str) -> View:
    return next(view for view in views(project) if view.name == name)


def _walk(
    browser: Browser, url: str, view: View, site: str, shots: bool
) -> tuple[list[str], list[str]]:
    """Load the view once, bring it to each of its states, and check each state at every width
    and theme: the layout problems, one line each, and the screenshots that differ."""
    context = fresh_context(browser, viewport={"width": 1280, "height": 900})
    visit = Visit(context.new_page())
    page = visit.page
    response = page.goto(f"{url}/{view.path}")
    assert response is not None and response.ok, f"{view.path}: not served"
    if view.engine:
        page.wait_for_selector(
            "#oracle-loading[data-ready=true]", state="attached", timeout=ENGINE_READY
        )
    settle(page)
    problems: list[str] = []
    differences: list[str] = []
    try:
        for state, name in zip(view.states, view.state_names(), strict=True):
            if state.reach is not None:
                use_screen(page, "desktop", "light")
                state.reach(page)
            for width in WIDTHS:
                for theme in THEMES:
                    use_screen(page, width, theme)
                    where = f"the {site}'s {name} page at {WIDTHS[width][0]} px, {theme}"
                    picture = ARTEFACTS / "layout" / f"{site}-{name}-{width}-{theme}.png"
                    problems += layout_report(page, where, picture)
                    if shots:
                        difference = compare(f"{name}-{width}-{theme}", screenshot(page, state))
                        if difference is not None:
                            differences.append(difference.line())
        visit.clean()
    finally:
        context.close()
    return problems, differences


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("name", VIEW_NAMES)
def test_a_reader_can_read_every_page_of_the_site(
    browser: Browser, site_url: str, name: str
) -> None:
    """The site as readers get it (the project's pages, templates and scripts, with the tests'
    catalogue: a case an editor adds never fails a developer test) passes every layout check."""
    problems, _ = _walk(browser, site_url, _view(FIXTURE, name), "site", shots=False)
    assert not problems, "\n".join(problems)


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("name", VIEW_NAMES)
def test_every_page_looks_as_reviewed(browser: Browser, look_site: str, name: str) -> None:
    """The fixture site passes every layout check and looks as its reviewed screenshots do."""
    if not HAVE_IMAGING:
        pytest.fail("Pillow and pixelmatch are needed (pip install -e '.[dev]')")
    look = ROOT / "tests" / "look"
    problems, differences = _walk(browser, look_site, _view(look, name), "fixture", True)
    assert not problems, "\n".join(problems)
    if RECORDING:
        return
    assert not differences, (
        "\n".join(differences)
        + "\nIf the change is meant, make the new pictures with `make screenshots` and accept"
        " them with `make screenshots-review`."
    )
