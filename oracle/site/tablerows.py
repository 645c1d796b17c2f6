"""The rows of a large table of cases written as HTML by the build, not converted by Markdown.

A table of cases has a row for every case of its topic (the All cases page, one for every case),
and each row is a line of the same few shapes: a cell is a link to the case's page, a word in
bold, or plain text, and every value in it is escaped (:func:`oracle.site.markup.text`), so that
Markdown converts it one way only. Converting ten thousand such rows is most of what the tables'
pages cost a build, in time and memory. So the table's Markdown keeps its first row and a
stand-in row for the rest (:func:`hold_rows`); once Markdown has converted the page, the first
row must have come out exactly as :func:`row_html` writes it (else the build stops), and the
stand-in row is replaced by the rest written so (:func:`put_rows`). A table with a row of any
other shape is left to Markdown whole.
"""

from __future__ import annotations

import itertools
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass

_PLAIN = r"(?:[A-Za-z0-9 ,]|&#[0-9]+;|[^\x00-\x7f])*"
"""Text Markdown passes through as it is: letters, digits, spaces and commas, character
references and any character beyond ASCII (the escaped values, and a template's ", ")."""
_LINK = re.compile(rf"\[({_PLAIN})\]\(([A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*\.md)\)")
_STRONG = re.compile(rf"\*\*({_PLAIN})\*\*")
_TEXT = re.compile(_PLAIN)
_ROW = re.compile(r"\|(?: [^|\n]* \|)+")
_TABLE_RULE = re.compile(r"^\|(?:---\|)+$", re.MULTILINE)

STAND_IN = "oracleheldrows7d1c"


@dataclass(frozen=True)
class Cell:
    """A cell of a row: its text, and the page it links to (a source path, relative) if any."""

    text: str
    strong: bool = False
    link: str | None = None


def _cell(source: str) -> Cell | None:
    cell = source.strip()
    if cell != source[1:-1] and source != " ":  # Markdown strips a cell: one space either side
        return None
    if (found := _LINK.fullmatch(cell)) is not None:
        text = found[1]
        return Cell(text, link=found[2]) if text and text == text.strip() else None
    if (found := _STRONG.fullmatch(cell)) is not None:
        text = found[1]
        return Cell(text, strong=True) if text and text == text.strip() else None
    return Cell(cell) if _TEXT.fullmatch(cell) else None


def parsed_row(line: str) -> tuple[Cell, ...] | None:
    """The cells of a table row of the shapes this module writes, or None for any other row."""
    if _ROW.fullmatch(line) is None:
        return None
    cells = tuple(_cell(part) for part in line[1:-1].split("|"))
    if any(cell is None for cell in cells):
        return None
    return tuple(cell for cell in cells if cell is not None)


def row_html(cells: tuple[Cell, ...]) -> str:
    """A row as Markdown's tables write it, with each link to a page as MkDocs writes it (the
    page's ``.html``; the build's check of the first row holds this to MkDocs' own)."""
    parts = ["<tr>\n"]
    for cell in cells:
        if cell.link is not None:
            content = f'<a href="{cell.link[: -len(".md")]}.html">{cell.text}</a>'
        elif cell.strong:
            content = f"<strong>{cell.text}</strong>"
        else:
            content = cell.text
        parts.append(f"<td>{content}</td>\n")
    parts.append("</tr>\n")
    return "".join(parts)


@dataclass(frozen=True)
class HeldRows:
    """The rows of a table after its first, held until Markdown has converted the page."""

    stand_in: str
    """The stand-in row's text, unique in the build."""
    columns: int
    first: tuple[Cell, ...]
    rows: tuple[tuple[Cell, ...], ...]

    @property
    def stand_in_html(self) -> str:
        """The stand-in row as Markdown converts it."""
        return row_html((Cell(self.stand_in),) + (Cell(""),) * (self.columns - 1))


_numbers = itertools.count()


def hold_rows(markdown: str, minimum: int = 3) -> tuple[str, HeldRows | None]:
    """A table's Markdown with the rows after the first held (a stand-in row in their place), and
    the rows held; the Markdown as it is, and None, unless it holds one table of ``minimum`` rows
    or more, each of the shapes this module writes."""
    rules = list(_TABLE_RULE.finditer(markdown))
    if len(rules) != 1:
        return markdown, None
    rule = rules[0]
    columns = rule[0].count("|") - 1
    body_start = rule.end() + 1
    end = markdown.find("\n\n", body_start)
    end = len(markdown) if end < 0 else end
    lines = markdown[body_start:end].split("\n")
    if len(lines) < minimum or markdown[body_start - 1] != "\n":
        return markdown, None
    rows = tuple(parsed_row(line) for line in lines)
    if any(row is None or len(row) != columns for row in rows):
        return markdown, None
    kept = tuple(row for row in rows if row is not None)
    stand_in = f"{STAND_IN}{next(_numbers)}"
    line = "| " + stand_in + " |" + " |" * (columns - 1)
    held = HeldRows(stand_in, columns, kept[0], kept[1:])
    return markdown[:body_start] + lines[0] + "\n" + line + markdown[end:], held


class RowsProblem(ValueError):
    """The first row of a table did not come out of Markdown as :func:`row_html` writes it."""


def put_rows(
    html: str, held: HeldRows, page: str, exists: Callable[[str], bool] | None = None
) -> str:
    """The converted page's HTML with the held rows in the stand-in row's place. Raises
    :class:`RowsProblem` where the first row did not come out as :func:`row_html` writes it, or
    a held row links to a page the site does not have (``exists`` says, by source path), as
    MkDocs would have warned for a link Markdown converted."""
    place = row_html(held.first) + held.stand_in_html
    if html.count(place) != 1:
        raise RowsProblem(
            f"the first row of a table of {page} did not come out of Markdown as the build writes"
            " the other rows"
        )
    if exists is not None:
        folder = posixpath.dirname(page)
        for row in held.rows:
            for cell in row:
                if cell.link is not None:
                    target = posixpath.normpath(posixpath.join(folder, cell.link))
                    if not exists(target):
                        raise RowsProblem(f"{page} links to {cell.link}, which is not in the site")
    rows = "".join(row_html(row) for row in held.rows)
    return html.replace(place, row_html(held.first) + rows, 1)
