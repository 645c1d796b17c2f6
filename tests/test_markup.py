"""The one escaping path (oracle/site/markup.py) and the page policy (oracle/site/csp.py)."""

from __future__ import annotations

from html import unescape
from pathlib import Path

import jinja2
import markdown
import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle.site.csp import (
    TABLE_ALIGNMENTS,
    PageCheck,
    digest,
    inline_scripts,
    live_content,
    policy,
    with_policy,
)
from oracle.site.markup import (
    Markup,
    UnsafeLink,
    anchor,
    code_block,
    external_link,
    site_link,
    template_environment,
    text,
)

HOSTILE = (
    '<img src=x onerror=alert(1)> [x](javascript:alert(2)) {: onclick="alert(3)" } *em* `c`'
    " <!-- c --> &amp; | cell | # heading\n\n1. list"
)


def rendered_html(source: str) -> str:
    """Markdown as the site renders it (the extensions that matter to escaping)."""
    html: str = markdown.markdown(source, extensions=["attr_list", "md_in_html", "tables", "toc"])
    return html


def test_text_is_inert_as_markdown_and_as_html() -> None:
    escaped = text(HOSTILE)
    assert isinstance(escaped, Markup)
    assert not set("<>&[](){}*`|#\n") & set(escaped.replace("&#", ""))
    html = rendered_html(f"A paragraph: {escaped}")
    assert "<img" not in html and "<a" not in html and "<em>" not in html and "<code>" not in html
    assert "onclick=" not in html.replace("onclick&#61;", "")
    # The browser shows the characters themselves, spaces aside.
    shown = html.replace("<p>", "").replace("</p>", "")
    assert unescape(shown) == "A paragraph: " + " ".join(HOSTILE.split())


def test_markup_passes_and_everything_else_is_escaped_in_a_template(tmp_path: Path) -> None:
    (tmp_path / "page.md.j2").write_text("{{ value }}|{{ trusted }}|{{ items | join(', ') }}")
    environment = template_environment(tmp_path)
    page = environment.get_template("page.md.j2").render(
        value="<b>", trusted=Markup("<i>ok</i>"), items=["<u>", Markup("<s>x</s>")]
    )
    assert page == "&#60;b&#62;|<i>ok</i>|&#60;u&#62;, <s>x</s>"


def test_a_separator_written_as_an_expression_keeps_its_spaces(tmp_path: Path) -> None:
    """Line breaks become spaces, and a space at either end of a value stays: two links joined
    by ``{{ ", " if not loop.last }}`` read "a, b", not "a,b"."""
    (tmp_path / "page.md.j2").write_text(
        '{% for item in items %}{{ item }}{{ ", " if not loop.last }}{% endfor %}|{{ broken }}'
    )
    page = (
        template_environment(tmp_path)
        .get_template("page.md.j2")
        .render(items=["a", "b", "c"], broken="one\n\n  two\r\n")
    )
    assert unescape(page) == "a, b, c|one two "


@pytest.mark.parametrize("name", ["safe", "tojson", "urlize", "xmlattr", "forceescape", "format"])
def test_no_filter_lets_a_value_skip_the_escaping(tmp_path: Path, name: str) -> None:
    (tmp_path / "page.md.j2").write_text(f"{{{{ value | {name} }}}}")
    with pytest.raises(jinja2.TemplateAssertionError, match=f"No filter named '{name}'"):
        template_environment(tmp_path).get_template("page.md.j2")


def test_links_from_data_are_http_or_inside_the_site() -> None:
    assert site_link("cases/claims/x.md#stone-3") == "cases/claims/x.md#stone-3"
    assert site_link("../ask.html#case=abc-_") == "../ask.html#case=abc-_"
    for bad in ("javascript:alert(1)", "/etc/passwd", "x.md)(y", "a b", "//evil.test/x", ""):
        with pytest.raises(UnsafeLink):
            site_link(bad)
    link = external_link("An <engine>", "https://example.org/a%20b?q=1&r=<2>")
    href = link.split('"')[1]
    assert unescape(href) == "https://example.org/a%20b?q=1&r=%3C2%3E"
    assert "An &#60;engine&#62;" in link and "<2>" not in link
    for bad in ("javascript:alert(1)", "data:text/html,x", "JaVaScRiPt:x", "ftp://x", "http:x"):
        with pytest.raises(UnsafeLink, match="http"):
            external_link("x", bad)
    with pytest.raises(UnsafeLink, match="spaces"):
        external_link("x", "java\tscript:alert(1)")


def test_anchors_and_code_blocks_hold_what_they_are_given() -> None:
    assert anchor("claim-hand-is-no-proof") == "claim-hand-is-no-proof"
    with pytest.raises(UnsafeLink):
        anchor('x" onclick="y')
    source = "a: ```` four\n<script>alert(1)</script>\n"
    block = code_block(source, "yaml")
    assert block.startswith("`````yaml\n") and block.endswith("\n`````")
    html = markdown.markdown(block, extensions=["fenced_code"])
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_the_policy_allows_only_the_sites_scripts_and_the_given_hashes() -> None:
    allowed = digest("var theme = 1")
    page_policy = policy([allowed])
    assert "script-src 'self' " + allowed + ";" in page_policy
    assert "unsafe-inline" not in page_policy and "unsafe-eval" not in page_policy
    assert "'wasm-unsafe-eval'" not in page_policy
    assert "'wasm-unsafe-eval'" in policy([allowed], engine=True)
    assert "object-src 'none'" in page_policy
    page = with_policy("<!doctype html><html><head><meta charset=utf-8></head></html>", "X")
    assert page.index('content="X"') < page.index("charset")


def test_a_built_page_with_anything_live_is_refused() -> None:
    theme = "var theme = 1"
    clean = (
        f"<html><head><script>{theme}</script><script src=a.js></script>"
        '<script type="application/json">{"x": 1}</script></head><body>'
        f'<td style="{TABLE_ALIGNMENTS[1]}">1</td><a href="x.html">x</a></body></html>'
    )
    assert inline_scripts(clean) == (theme,)
    assert live_content(clean, [digest(theme)]) == []
    for live in (
        "<img src=x onerror=alert(1)>",
        "<svg onload=alert(1)>",
        "<a href=' javascript:alert(1)'>x</a>",
        "<a href='data:text/html,x'>x</a>",
        '<iframe srcdoc="<b>x</b>"></iframe>',
        "<style>body{}</style>",
        "<b style='color:red'>x</b>",
        "<script>alert(1)</script>",
        "<meta http-equiv=refresh content='0;url=x'>",
        "<base href='http://evil.test/'>",
    ):
        assert live_content(clean.replace("</body>", live + "</body>"), [digest(theme)]), live


PAGE_PIECES = (
    "\n",
    "\r\n",
    "<p>",
    "</p>",
    "text & more",
    "&am",
    "p; ",
    "<",
    ">",
    "<script>",
    "var theme = 1",
    "alert(1)",
    "</script>",
    '<script type="application/json">',
    "<script src=a.js>",
    "<!-- ",
    " -->",
    '<a href="',
    'javascript:x">',
    "x.html'>",
    "<img src=x",
    " onerror=y>",
    "<style>",
    "</style>",
    "<b style='color:red'>",
    f'<td style="{TABLE_ALIGNMENTS[0]}">',
    "<svg onload=x>",
    "<![CDATA[",
    "]]>",
    "<!DOCTYPE html>",
    "<textarea>",
    "</textarea>",
    "<title>",
    "</title>",
)
"""Pieces of pages, whole and broken, whose lines a shared reading could get wrong."""


@settings(max_examples=examples(100))  # Hypothesis's own default count, in CI's profile
@given(
    pages=st.lists(
        st.lists(st.sampled_from(PAGE_PIECES), max_size=40).map("".join), min_size=1, max_size=4
    ),
    kept=st.integers(min_value=1, max_value=200),
)
def test_the_build_check_reads_pages_as_a_whole_reading_does(pages: list[str], kept: int) -> None:
    """The build reads each line its pages share once (:class:`PageCheck`); for any pages, in
    any order, it finds what reading each page whole finds, in the same order."""
    allowed = [digest("var theme = 1")]
    check = PageCheck(allowed, kept=kept)
    for page in [*pages, *pages]:
        assert check.problems(page) == live_content(page, allowed), page


def test_the_build_check_reads_a_shared_piece_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A piece of page (up to a ``>``) read between elements before is not read again; the
    pieces of a script are, and those met for the first time."""
    import oracle.site.csp

    check = PageCheck([digest("var theme = 1")])
    frame = "<html><head><script>var theme = 1</script><script>alert(1)</script>"
    assert check.problems(frame + "<p>one</p>") == [
        "an inline script that is not the theme's: 'alert(1)'"
    ]
    read: list[str] = []
    feed = oracle.site.csp._Scanner.feed

    def counted(scanner: oracle.site.csp._Scanner, data: str) -> None:
        read.append(data)
        feed(scanner, data)

    monkeypatch.setattr(oracle.site.csp._Scanner, "feed", counted)
    assert check.problems(frame + "<p onclick=x>two</p>") == [
        "an inline script that is not the theme's: 'alert(1)'",
        "<p> has an inline handler onclick",
    ]
    assert read == [
        "<script>",
        "var theme = 1</script>",
        "<script>",
        "alert(1)</script>",
        "<p onclick=x>",
        "two</p>",
    ]
