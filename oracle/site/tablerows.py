"""The rows of a large table of cases written as HTML by the build, not converted by Markdown.

A table of cases has a row for every case of its topic (the All cases page, one for every case;
the Misreadings page's matrix, one for every case that catches a misreading), and each row is a
line of the same few shapes: a cell is a link to the case's page, a word in bold, or plain text
with the odd ``<span>`` the build wrote (the matrix's symbols), and every value in it is escaped
(:func:`oracle.site.markup.text`), so that Markdown converts it one way only. Converting ten
thousand such rows is most of what the tables' pages cost a build, in time and memory (the
matrix's rows were the build's peak of memory). So each table's Markdown keeps its first row and
a stand-in row for the rest (:func:`hold_rows`); once Markdown has converted the page, the first
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

_CHARACTER = r"[A-Za-z0-9 ,]|&#[0-9]+;|[^\x00-\x7f]"
_PLAIN = rf"(?:{_CHARACTER})*"
"""Text Markdown passes through as it is: letters, digits, spaces and commas, character
references and any character beyond ASCII (the escaped values, and a template's ", ")."""
_LINK = re.compile(rf"\[({_PLAIN})\]\(([A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*\.md)\)")
_STRONG = re.compile(rf"\*\*({_PLAIN})\*\*")
_SPAN = rf'<span(?: (?:class|title|aria-hidden)="(?:{_CHARACTER}|-)*")*>|</span>'
"""A ``<span>`` tag with only a class, a title or ``aria-hidden``, each of plain text: Markdown
passes an inline tag through as written."""
_TEXT = re.compile(rf"(?:{_CHARACTER}|{_SPAN})*")
_ROW = re.compile(r"\|(?: [^|\n]* \|)+")
_TABLE_RULE = re.compile(r"^\|(?::?-+:?\|)+$", re.MULTILINE)
_ALIGNMENTS = {(True, True): "center", (True, False): "left", (False, True): "right"}

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


def row_html(cells: tuple[Cell, ...], aligns: tuple[str | None, ...] = ()) -> str:
    """A row as Markdown's tables write it, each cell aligned as ``aligns`` says (none where it
    says nothing), with each link to a page as MkDocs writes it (the page's ``.html``; the
    build's check of the first row holds this to MkDocs' own)."""
    parts = ["<tr>\n"]
    for index, cell in enumerate(cells):
        align = aligns[index] if index < len(aligns) else None
        if cell.link is not None:
            content = f'<a href="{cell.link[: -len(".md")]}.html">{cell.text}</a>'
        elif cell.strong:
            content = f"<strong>{cell.text}</strong>"
        else:
            content = cell.text
        style = "" if align is None else f' style="text-align: {align};"'
        parts.append(f"<td{style}>{content}</td>\n")
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
    aligns: tuple[str | None, ...] = ()
    """Each column's alignment, as its rule marks it (``:-:``), or None."""

    @property
    def stand_in_html(self) -> str:
        """The stand-in row as Markdown converts it."""
        cells = (Cell(self.stand_in),) + (Cell(""),) * (self.columns - 1)
        return row_html(cells, self.aligns)

    def html(self, row: tuple[Cell, ...]) -> str:
        """A row of this table as Markdown converts it."""
        return row_html(row, self.aligns)


_numbers = itertools.count()


def hold_rows(markdown: str, minimum: int = 3) -> tuple[str, list[HeldRows]]:
    """The Markdown with the rows after the first of each table held (a stand-in row in their
    place), and the rows held, table by table; a table is left as it is unless it has
    ``minimum`` rows or more, each of the shapes this module writes."""
    pieces: list[str] = []
    held: list[HeldRows] = []
    done = 0
    for rule in _TABLE_RULE.finditer(markdown):
        body_start = rule.end() + 1
        if body_start < done or markdown[body_start - 1 : body_start] != "\n":
            continue
        end = markdown.find("\n\n", body_start)
        end = len(markdown) if end < 0 else end
        table = _held_table(markdown[body_start:end], rule[0], minimum)
        if table is None:
            continue
        kept, rows = table
        pieces += [markdown[done:body_start], kept]
        held.append(rows)
        done = end
    if not held:
        return markdown, held
    pieces.append(markdown[done:])
    return "".join(pieces), held


def _held_table(body: str, rule: str, minimum: int) -> tuple[str, HeldRows] | None:
    """A table's rows (``body``, under its ``rule``) with those after the first held, and the
    rows held; None where it has fewer than ``minimum`` rows or one of another shape."""
    marks = rule[1:-1].split("|")
    columns = len(marks)
    lines = body.split("\n")
    if len(lines) < minimum:
        return None
    rows = tuple(parsed_row(line) for line in lines)
    if any(row is None or len(row) != columns for row in rows):
        return None
    kept = tuple(row for row in rows if row is not None)
    aligns = tuple(_ALIGNMENTS.get((mark[0] == ":", mark[-1] == ":")) for mark in marks)
    stand_in = f"{STAND_IN}{next(_numbers)}"
    line = "| " + stand_in + " |" + " |" * (columns - 1)
    return lines[0] + "\n" + line, HeldRows(stand_in, columns, kept[0], kept[1:], aligns)


class RowsProblem(ValueError):
    """The first row of a table did not come out of Markdown as :func:`row_html` writes it."""


def put_rows(
    html: str, held: HeldRows, page: str, exists: Callable[[str], bool] | None = None
) -> str:
    """The converted page's HTML with the held rows in the stand-in row's place. Raises
    :class:`RowsProblem` where the first row did not come out as :func:`row_html` writes it, or
    a held row links to a page the site does not have (``exists`` says, by source path), as
    MkDocs would have warned for a link Markdown converted."""
    place = held.html(held.first) + held.stand_in_html
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
    rows = "".join(held.html(row) for row in held.rows)
    return html.replace(place, held.html(held.first) + rows, 1)
