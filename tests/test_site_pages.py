"""The case pages' shortcuts through the page policy's check and Markdown: each gives the page,
and the problems found on it, that the long way gives (oracle/site/frames.py, oracle/site/csp.py,
oracle/site/casepages.py)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import markdown
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from test_markup import PAGE_PIECES

from oracle.site.casepages import BOARD_SLOT, CasePageSource, rendered_holding
from oracle.site.csp import PageCheck, digest, live_content
from oracle.site.frames import BODY, CANONICAL, SKIP, TITLE, Frame
from oracle.site.markup import HELD, Markup, template_environment


@settings(max_examples=examples(100))
@given(
    pages=st.lists(
        st.lists(
            st.tuples(
                st.lists(st.sampled_from(PAGE_PIECES), max_size=12).map("".join), st.booleans()
            ),
            min_size=1,
            max_size=6,
        ),
        min_size=1,
        max_size=3,
    ),
    kept=st.integers(min_value=1, max_value=400),
)
def test_a_page_read_in_parts_finds_what_a_whole_reading_finds(
    pages: list[list[tuple[str, bool]]], kept: int
) -> None:
    """A page given in parts, some marked shared (kept whole once read between elements), is
    read as one reading of the whole page reads it, the same problems in the same order."""
    allowed = [digest("var theme = 1")]
    check = PageCheck(allowed, kept=kept)
    for parts in [*pages, *pages]:
        # A part ends after a ">" (but the last): cut each where a piece ends.
        cut = [(text if text.endswith(">") else text + ">", shared) for text, shared in parts]
        page = "".join(text for text, _ in cut)
        assert check.parts_problems(cut) == live_content(page, allowed), cut


def test_a_frame_s_parts_make_its_filled_page_and_share_its_own_stretches() -> None:
    """A frame is cut around its stand-ins after a ">" each time: the parts of a page are its
    filled page, the frame's own stretches shared, the ones with a stand-in the page's own."""
    frame = Frame(
        f"<html><head><title>{TITLE} - x</title><link href='{CANONICAL}'></head>"
        f'<body><a href="#{SKIP}">skip</a><h2>{TITLE}</h2><main>{BODY}</main></body></html>'
    )
    page = cast(
        Any,
        SimpleNamespace(
            meta={"title": "A &#58; b"},
            toc=[SimpleNamespace(url="#a-b")],
            content="<h1 id='a-b'>A &#58; b</h1><p>1 &gt; 0</p>",
            canonical_url="https://example.org/a.html",
        ),
    )
    parts = frame.parts(page)
    filled = "".join(text for text, _ in parts)
    assert filled == frame.filled(page)
    assert filled == (
        "<html><head><title>A &#58; b - x</title><link href='https://example.org/a.html'></head>"
        "<body><a href=\"#a-b\">skip</a><h2>A &#58; b</h2><main><h1 id='a-b'>A &#58; b</h1>"
        "<p>1 &gt; 0</p></main></body></html>"
    )
    shared = [text for text, is_shared in parts if is_shared]
    assert all(text.endswith(">") for text in shared[:-1])
    assert not any(mark in text for text in shared for mark in (TITLE, SKIP, BODY, CANONICAL))
    assert "<html><head><title>" in shared


PAGE_TEMPLATE = """---
search:
  boost: {{ boost }}
---
# {{ title }}

{{ summary }}

Case <code>{{ case_id }}</code> · [back]({{ link }}) · {{ plain }}
{: .oracle-meta }

**{{ heading }}**

{{ line }}
{{ line }}

Setext below
{{ title }}
------------

??? note "{{ title }} ({{ count }} steps)"

    1. {{ line }}
    1. {{ line }}

- **{{ heading }}** ([our ruling]({{ link }})): {{ summary }}
- {{ odd }}
"""


def _page(tmp_path: Path, **values: object) -> tuple[str, CasePageSource]:
    (tmp_path / "page.md.j2").write_text(PAGE_TEMPLATE, encoding="utf-8")
    environment = template_environment(tmp_path)
    template = environment.get_template("page.md.j2")
    whole = template.render(**values)
    markdown_text, kept = rendered_holding(template, **values)
    return whole, CasePageSource(markdown_text, cast(Any, ""), kept)


def _converted(source: str) -> str:
    converter = markdown.Markdown(
        extensions=["toc", "tables", "fenced_code", "attr_list", "md_in_html", "admonition"],
        extension_configs={"toc": {"permalink": True}},
    )
    return converter.convert(source)


def test_texts_held_apart_from_markdown_come_out_as_markdown_makes_them(tmp_path: Path) -> None:
    """The texts a case page's template prints are held apart from Markdown, but in headings,
    notes' titles, indented lines and the front matter: the page converted and the texts put in
    is the page Markdown makes of the whole, and the whole is the template's own output."""
    values = {
        "boost": 2,
        "title": "Red 7-8-9: *not* a [link](x) # 1",
        "summary": "The engine's answer: granted. Why: <b>a</b> & `c` | d |",
        "case_id": "red-7-8-9",
        "link": cast(Any, template_environment(tmp_path).filters["anchor"])("edge-cases"),
        "plain": "plain words",
        "heading": "Stone 5: granted",
        "line": "1. Not a list; _not_ emphasis __either__ ~~ {: #x }",
        "count": 12,
        "odd": "é → ü, 'quoted' \"twice\"",
    }
    whole, source = _page(tmp_path, **values)
    assert source.whole == whole
    assert len(source.held) == 8  # summary, heading and line twice each, case id, odd
    assert source.markdown.count(HELD) == len(source.held)
    first_line_of_title = next(line for line in source.markdown.splitlines() if line[:2] == "# ")
    assert HELD not in first_line_of_title
    assert source.converted(_converted(source.markdown)) == _converted(whole)


def test_a_text_that_holds_the_placeholder_s_name_holds_nothing_apart(tmp_path: Path) -> None:
    """Where a printed text holds what a placeholder starts with, nothing is held apart."""
    values = {
        "boost": 2,
        "title": "t",
        "summary": f"{HELD}000000z: x",
        "case_id": f"a{HELD}000001z-b",
        "link": "x",
        "plain": "p",
        "heading": "h: i",
        "line": "l, m",
        "count": 1,
        "odd": "o.",
    }
    whole, source = _page(tmp_path, **values)
    assert source.held == () and source.markdown == whole == source.whole


def _index(page: str) -> list[tuple[str, str | None, str, str]]:
    from material.plugins.search.plugin import Parser  # type: ignore[import-untyped]

    parser = Parser()
    parser.feed(page)
    parser.close()
    return [
        (str(s.el), s.id, "".join(s.title), "".join(s.text))
        for s in parser.data
        if not s.is_excluded()
    ]


def test_an_excluded_section_s_body_is_held_from_search_only_where_it_changes_nothing() -> None:
    """The body of a section whose heading is excluded from search is held out of the page the
    search plugin reads where its tags all end in it and it holds no heading; the sections
    indexed, and the page once its attributes are stripped and the bodies put back, are those
    of the whole page."""
    from oracle.site.searched import SEARCH_ATTRIBUTE, HeldFromSearch, after_search, for_search

    board = "<figure data-search-exclude><p>2</p></figure>"
    source = CasePageSource("", Markup(board))
    rest = "<p>more</p><h2 id='b'>B</h2><p>b</p>"  # the body runs to the next heading
    for body, held in (
        ("<ul><li><strong>x</strong>: y<br></li></ul>", True),
        ("<p>unended<p>", False),
        ("<p>a</p></div><p>b</p>", False),
        ("<p>a</p><script>var x</script>", False),
        ("<p>a</p><!-- c -->", False),
        ('<p data-search-x="y">a</p>', False),
    ):
        page = f"<h1 id='a'>A</h1>{{}}<h2 data-search-exclude id='x'>X</h2>{body}{rest}"
        searched, what = for_search(source, page.format(BOARD_SLOT))
        page = page.format(board)
        assert what.sections == ((body + "<p>more</p>",) if held else ()), body
        assert (body in searched) != held
        assert _index(searched) == _index(page), body
        left = SEARCH_ATTRIBUTE.sub("", searched)
        assert after_search(source, left, what) == SEARCH_ATTRIBUTE.sub("", page), body
    assert for_search(source, f"<p>1</p>{BOARD_SLOT}") == (
        "<p>1</p><figure data-search-exclude></figure>",
        HeldFromSearch("<figure data-search-exclude></figure>"),
    )
