"""The reader tests' layout checks (``tests/reader/layout.js``) find what they are meant to find.

Each check is shown a small page with exactly one fault a reader would meet (a table squeezed
into a narrow grid cell, as the case tables were by the Play board's grid; a page wider than its
window; text cut off by its box or under another box; a card outside its stone; two small
buttons side by side) and must name that fault and only it; a page without faults gives none.
A fault is reported with the page, the width, the theme and the element, and a screenshot.

Marked ``browser`` (one page in chromium, a few seconds): CI runs them with the reader tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_support import fresh_context
from reader_support import layout_problems, layout_report

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>faults</title>
<style>body {{ margin: 0; font: 16px/1.4 sans-serif; }}
article {{ width: 800px; padding: 0 20px; }}</style></head>
<body><article class="md-content__inner">{body}</article></body></html>"""

WORDS = "a cell of several words that would like a line of its own"

FAULTS = {
    "table-squeezed": (
        '<div style="display: grid; grid-template-columns: repeat(9, minmax(0, 1fr))">'
        f"<table><tr><td>{WORDS}</td><td>{WORDS}</td></tr></table></div>"
    ),
    "page-scrolls-sideways": '<div style="width: 2000px">a line wider than any window</div>',
    "text-clipped": (
        '<div style="width: 60px; overflow: hidden; white-space: nowrap">'
        "a sentence far too long for the box it is in</div>"
    ),
    "text-covered": (
        "<p>words a reader cannot see</p>"
        '<div style="position: absolute; top: 0; left: 0; width: 900px; height: 120px;'
        ' background: white"></div>'
    ),
    "card-outside-its-box": (
        '<div class="oracle-stone" style="position: relative; width: 50px; height: 50px">'
        '<span class="oracle-card" style="position: absolute; display: block; left: 80px;'
        ' top: 0; width: 30px; height: 30px">5</span></div>'
    ),
    "target-too-small": (
        '<p><button style="width: 14px; height: 14px; padding: 0">+</button>'
        '<button style="width: 14px; height: 14px; padding: 0">-</button></p>'
    ),
}

CLEAN = (
    f"<p>{WORDS}.</p><table><tr><th>Case</th><th>Answer</th></tr>"
    f"<tr><td>{WORDS}</td><td>yes</td></tr></table>"
    '<div style="overflow-x: auto" tabindex="0"><div style="width: 2000px">a wide line in a frame'
    " that scrolls</div></div>"
    '<div class="oracle-stone" style="width: 60px"><span class="oracle-card">5</span></div>'
    '<p><button style="width: 30px; height: 30px">+</button>'
    '<button style="width: 30px; height: 30px">-</button></p>'
)


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = fresh_context(browser, viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


@pytest.mark.browser
@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_each_check_finds_its_fault_and_no_other(page: Page, fault: str) -> None:
    page.set_content(PAGE.format(body=FAULTS[fault]))
    found = layout_problems(page)
    assert {problem["check"] for problem in found} == {fault}, found


@pytest.mark.browser
def test_a_page_without_faults_passes(page: Page) -> None:
    page.set_content(PAGE.format(body=CLEAN))
    assert layout_problems(page) == []


@pytest.mark.browser
def test_a_control_cut_by_its_frame_is_judged_by_its_whole_box(page: Page) -> None:
    """Two small links 27 px apart, centre to centre, the second cut by the foot of the frame
    that scrolls them (as a long table of contents is): far enough apart. Their distance is
    taken between the centres of their boxes (WCAG 2.5.8), not of the parts in view, which
    made 18 px of the second link look 20 px from the first."""
    link = '<a href="#{0}" style="display: block; height: 18px; margin-top: 9px">{0}</a>'
    frame = '<nav style="height: 40px; overflow-y: auto">{}</nav>'
    page.set_content(PAGE.format(body=frame.format(link.format("one") + link.format("two"))))
    assert layout_problems(page) == []


@pytest.mark.browser
def test_a_fault_names_the_page_width_theme_and_element_with_a_screenshot(
    page: Page, tmp_path: Path
) -> None:
    picture = tmp_path / "layout" / "site-edge-cases-desktop-dark.png"
    page.set_content(PAGE.format(body=FAULTS["table-squeezed"]))
    lines = layout_report(page, "the site's edge-cases page at 1280 px, dark", picture)
    assert len(lines) == 1, lines
    assert lines[0].startswith("the site's edge-cases page at 1280 px, dark: table-squeezed: table")
    assert "its column is 800 px" in lines[0] and str(picture) in lines[0]
    assert picture.read_bytes().startswith(b"\x89PNG")
    page.set_content(PAGE.format(body=CLEAN))
    clean = tmp_path / "clean.png"
    assert layout_report(page, "anywhere", clean) == [] and not clean.exists()
