"""The rows of the Conformance page's tables and the items of the Rulings page's lists of cases,
held from Markdown and written by the build (:mod:`oracle.site.tablerows`): the pages come out
as Markdown makes them whole, and every place on a page they link to is still checked by
MkDocs."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from test_site import build
from test_site_tablerows import SITE_MARKDOWN, TEMPLATES

from oracle.catalogue import Catalogue
from oracle.site.blocks import generated_blocks
from oracle.site.tablerows import (
    Cell,
    HeldItems,
    HeldRows,
    RowsProblem,
    hold_items,
    hold_rows,
    put_rows,
)

_PLACE = re.compile(r"\]\(([^)]*#[^)]*)\)")
_MD_LINK = re.compile(r'href="([^"#]+)\.md(#[^"]*)?"')


def _converted(markdown_text: str) -> str:
    """The page's HTML as the build's Markdown makes it, each link to a page's ``.md`` (and a
    place on it) written to its ``.html`` as MkDocs writes it (``use_directory_urls: false``)."""
    import markdown

    converter = markdown.Markdown(
        extensions=[*SITE_MARKDOWN, "pymdownx.details"],
        extension_configs={"toc": {"permalink": True}},
    )
    return _MD_LINK.sub(
        lambda found: f'href="{found[1]}.html{found[2] or ""}"', converter.convert(markdown_text)
    )


def test_the_conformance_and_rulings_pages_with_rows_and_items_held_are_what_markdown_makes(
    catalogue: Catalogue,
) -> None:
    """The Conformance page's tables (links to places on the Misreadings page among them) and
    the Rulings page's lists of cases, held and written after the conversion, come out as
    Markdown converts them whole; rows and items are held on both, and each place linked from
    the page is linked from what Markdown converts."""
    whole = generated_blocks(catalogue, TEMPLATES, catalogue.root)
    held_rows: dict[str, list[HeldRows]] = {}
    held = generated_blocks(catalogue, TEMPLATES, catalogue.root, held_rows=held_rows)
    for name, page in (("conformance-matrix", "conformance.md"), ("rulings", "rulings.md")):
        text = whole[name](None, page)[0]
        kept = held[name](None, page)[0]
        rows = held_rows.pop(page)
        assert sum(len(row.rows) for row in rows) > 10, page
        assert set(_PLACE.findall(kept)) == set(_PLACE.findall(text)), page
        html = _converted(kept)
        for row in rows:
            html = put_rows(html, row, page, lambda target: True)
        assert html == _converted(text), page
    assert not held_rows


def test_a_row_linking_to_a_place_no_row_before_it_links_to_stays_in_the_markdown() -> None:
    """MkDocs checks a place on a page only where Markdown converted its link: the first row
    linking to each place is kept (the rows after it held behind a stand-in of their own)."""
    places = ["a", "b", "a", "", "c", "b", "", "a"]
    lines = [
        f"| [C{n}](cases/x/{n}.md) | "
        + (f"[R {place}](readings.md#{place})&#44; [S](other.md)" if place else "none")
        + " |"
        for n, place in enumerate(places)
    ]
    text = "| Case | Readings |\n|---|---|\n" + "\n".join(lines) + "\n\nafter\n"
    kept, tables = hold_rows(text)
    kept_rows = [line for line in kept.splitlines() if line.startswith("| [C")]
    assert kept_rows == [lines[0], lines[1], lines[4]]
    assert [len(held.rows) for held in tables] == [2, 3]
    assert tables[1].first == (
        Cell("C4", link="cases/x/4.md"),
        Cell("", parts=(("R c", "readings.md#c"), ("&#44; ", None), ("S", "other.md"))),
    )
    html = _converted(kept)
    for held in tables:
        html = put_rows(html, held, "p.md", lambda target: True)
    assert html == _converted(text)
    assert 'href="readings.html#b">R b</a>&#44; <a href="other.html">S</a>' in html
    with pytest.raises(RowsProblem, match=r"other\.md, which is not in the site"):
        put_rows(_converted(kept), tables[1], "p.md", lambda target: target != "other.md")
    # A place linked from an earlier table of the same text is not linked again.
    again = text + "\n" + text.replace("C", "D")
    kept_again, _ = hold_rows(again)
    assert len([line for line in kept_again.splitlines() if line.startswith("| [D")]) == 1


def test_lists_of_links_to_pages_are_held_after_their_first_item() -> None:
    items = [f"- [Case {n} &#44; é](cases/x/{n}.md)" for n in range(5)]
    text = "*Checked by:*\n\n" + "\n".join(items) + "\n\n### Next\n\n" + "\n".join(items[:2])
    kept, held = hold_items(text + "\n")
    [only] = held
    assert isinstance(only, HeldItems) and len(only.rows) == 4 and only.stand_in in kept
    html = put_rows(_converted(kept), only, "rulings.md", lambda target: True)
    assert html == _converted(text + "\n")
    for odd in (
        "- [Case 9](cases/x/9.md#place)",  # a place on a page: left to MkDocs to check
        "- [Case 9](https://example.org/9.md)",  # out of the site
        "- [Case 9](cases/x/9.md) and more",  # text after the link
        "  - [Case 9](cases/x/9.md)",  # nested
    ):
        odd_text = text.replace(items[2], odd)
        assert hold_items(odd_text) == (odd_text, []) or all(
            len(h.rows) < 4 for h in hold_items(odd_text)[1]
        ), odd
    glued = "Text right before\n" + "\n".join(items) + "\n"
    assert hold_items(glued) == (glued, [])  # not a list apart: left to Markdown


@pytest.mark.slow  # a whole build, several seconds of CPU
def test_a_broken_place_linked_only_from_held_rows_fails_the_strict_build(
    tmp_path: Path, project_copier: Callable[[Path], Path]
) -> None:
    """The Conformance page's tables of cases link each case's misreadings to their places on
    the Misreadings page; with those links made wrong in the rows of the tables only, every
    such row but the first of each place held, the strict build still fails, naming them."""
    root = project_copier(tmp_path)
    template = root / "site_src" / "_templates" / "conformance_matrix.md.j2"
    source = template.read_text(encoding="utf-8")
    row_link = "[{{ title }}]({{ reading_link }})"
    assert source.count(row_link) == 1
    template.write_text(source.replace(row_link, "[{{ title }}]({{ reading_link }}-gone)"))
    result = build(root)
    assert result.returncode != 0
    assert "conformance.md" in result.stderr and "-gone" in result.stderr, result.stderr
