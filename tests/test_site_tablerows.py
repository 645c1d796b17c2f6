"""The rows of the tables of cases, held from Markdown and written by the build
(:mod:`oracle.site.tablerows`): the page comes out as Markdown makes it of the whole table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from oracle.catalogue import Catalogue
from oracle.site.blocks import generated_blocks
from oracle.site.tablerows import Cell, HeldRows, RowsProblem, hold_rows, parsed_row, put_rows

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "site_src" / "_templates"
SITE_MARKDOWN = ["toc", "tables", "fenced_code", "attr_list", "md_in_html", "admonition"]
_MD_LINK = re.compile(r'href="([^"#]+)\.md"')


def _converted(markdown_text: str) -> str:
    """The page's HTML as the build's Markdown makes it, each link to a page's ``.md`` written
    to its ``.html`` as MkDocs writes it (``use_directory_urls: false``)."""
    import markdown

    converter = markdown.Markdown(
        extensions=[*SITE_MARKDOWN, "pymdownx.details"],
        extension_configs={"toc": {"permalink": True}},
    )
    return _MD_LINK.sub(r'href="\1.html"', converter.convert(markdown_text))


def test_every_table_of_cases_with_its_rows_written_by_the_build_is_the_page_markdown_makes(
    catalogue: Catalogue,
) -> None:
    """Each table of the fixture catalogue, its rows after the first held and written after the
    conversion, comes out as Markdown converts the whole table; tables of a few rows are left
    whole, and the others are held (the index of all cases and the misreadings' matrix among
    them)."""
    whole = generated_blocks(catalogue, TEMPLATES, catalogue.root)
    held_rows: dict[str, list[HeldRows]] = {}
    held = generated_blocks(catalogue, TEMPLATES, catalogue.root, held_rows=held_rows)
    topics = sorted({report.case.topic for report in catalogue.published})
    shown: list[tuple[str, str | None, str]] = [
        ("verdict-table", topic, f"sub/{topic}.md") for topic in topics
    ]
    shown.append(("case-index", None, "all-cases.md"))
    shown.append(("misreading-matrix", None, "misreadings.md"))
    written = 0
    matrix = 0
    for name, argument, page in shown:
        expected = _converted(whole[name](argument, page)[0])
        kept = held[name](argument, page)[0]
        rows = held_rows.pop(page, [])
        html = _converted(kept)
        for row in rows:
            assert row.stand_in in kept
            html = put_rows(html, row, page, lambda target: True)
            written += len(row.rows)
            matrix += len(row.rows) if page == "misreadings.md" else 0
        assert html == expected, page
    assert written >= len(catalogue.published) - 1  # the index of all cases was held
    assert matrix > 0  # a topic's table of the matrix was held


def test_a_row_of_another_shape_leaves_its_table_to_markdown() -> None:
    """Only links to a page, words in bold and plain text of escaped values are written by the
    build; a table with any other row is left whole."""
    rows = [
        "| [Two &#58; one](cases/a/x.md) | **Granted** | why, so |",
        "| [B](cases/a/y.md) | **Refused** | é |",
        "| [C](cases/a/z.md) | **Refused** |  |",
    ]
    table = "| A | B | C |\n|---|---|---|\n" + "\n".join(rows) + "\n\nafter\n"
    kept, tables = hold_rows(table)
    assert len(tables) == 1 and len(tables[0].rows) == 2 and tables[0].stand_in in kept
    assert parsed_row(rows[0]) == (
        Cell("Two &#58; one", link="cases/a/x.md"),
        Cell("Granted", strong=True),
        Cell("why, so"),
    )
    for odd in (
        "| [B](#part) | **Refused** | x |",  # a link to a place on this page
        "| [B](https://x.org/y.md) | **Refused** | x |",  # a link out of the site
        "| B | *Refused* | x |",  # emphasis
        "| B | **Refused** |  x |",  # a space more
        "| B | **Refused** | a < b |",  # a character Markdown reads
        "| B | **Refused** | x | y |",  # a cell more
        "| B | ** Refused** | x |",  # not bold for Markdown
        '| B | **Refused** | <span id="x">x</span> |',  # a tag with an id (an anchor)
        '| B | **Refused** | <span title="x">a-b</span> |',  # a hyphen outside a tag
        "| B | **Refused** | <em>x</em> |",  # a tag other than a span
    ):
        assert parsed_row(odd) is None or len(parsed_row(odd) or ()) != 3, odd
        odd_table = table.replace(rows[1], odd)
        assert hold_rows(odd_table) == (odd_table, []), odd
    assert hold_rows("| A |\n|---|\n| [B](b.md) |\n| [C](c.md) |\n") == (
        "| A |\n|---|\n| [B](b.md) |\n| [C](c.md) |\n",
        [],
    )  # fewer rows than are worth holding


def test_rows_are_refused_where_the_first_did_not_come_out_as_the_build_writes_them() -> None:
    """The first row, converted by Markdown, must be the build's own writing of it; a held row
    linking to a page the site does not have fails as MkDocs' link check would."""
    rows = "\n".join(f"| [C{n}](cases/a/{n}.md) | **Refused** | w |" for n in range(4))
    kept, tables = hold_rows(f"| A | B | C |\n|---|---|---|\n{rows}\n\n")
    [held] = tables
    html = _converted(kept)
    assert re.findall(r'href="cases/a/(\d)\.html"', put_rows(html, held, "x.md")) == [
        "0",
        "1",
        "2",
        "3",
    ]
    assert (
        put_rows(html, held, "x.md", lambda target: target.startswith("cases/a/")).count("<tr>")
        == 5
    )
    with pytest.raises(RowsProblem, match="not in the site"):
        put_rows(html, held, "x.md", lambda target: target != "cases/a/2.md")
    with pytest.raises(RowsProblem, match="first row"):
        put_rows(html.replace("0.html", "0/"), held, "x.md")


def test_each_table_of_a_text_is_held_with_its_columns_aligned_and_its_spans_as_written() -> None:
    """Several tables in one text (the matrix: one a topic), their columns aligned by their
    rules and their cells holding spans the build wrote, come out as Markdown makes them whole;
    a table of a few rows among them is left whole."""
    cell = (
        '<span aria-hidden="true" title="a &#59; b">·</span><span class="oracle-sr-only">c</span>'
    )
    empty = '<span aria-hidden="true" title="none"></span><span class="oracle-sr-only">d</span>'

    def table(name: str, count: int) -> str:
        rows = "\n".join(
            f"| [{name} {n}](cases/{name}/{n}.md) | {cell if n % 2 else empty} | x{n} | {n} |"
            for n in range(count)
        )
        return f"### {name}\n\n| Case | 1 | 2 | 3 |\n|---|:-:|:--|--:|\n{rows}\n\n"

    text = table("a", 5) + table("b", 2) + "<div markdown>\n\n" + table("c", 4) + "</div>\n"
    kept, tables = hold_rows(text)
    assert [len(held.rows) for held in tables] == [4, 3]
    html = _converted(kept)
    for held in tables:
        html = put_rows(html, held, "x.md", lambda target: True)
    assert html == _converted(text)
