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

A link to a place on a page (``misreadings.md#name``, the Conformance page's tables) is checked by
MkDocs only where Markdown converted it: so a row linking to a place no row before it in the text
links to stays in the Markdown (with the row before it), and only rows whose places are all
linked from such kept rows are held. A table is then kept as several rows, each followed by a
stand-in for the rows held after it.
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
_TARGET = r"[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*\.md(?:#[A-Za-z0-9_-]+)?"
"""A page of the site by its source path, relative, and a place on it."""
_LINK = re.compile(rf"\[({_PLAIN})\]\(({_TARGET})\)")
_LINKED = re.compile(rf"(?:\[(?:{_PLAIN})\]\((?:{_TARGET})\)|{_CHARACTER})*")
"""Links among plain text (the Conformance page's misreadings of a case, ", " between)."""
_PART = re.compile(rf"\[({_PLAIN})\]\(({_TARGET})\)|((?:{_CHARACTER})+)")
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
    parts: tuple[tuple[str, str | None], ...] = ()
    """For a cell of links among text: each link's text and page, and each text between
    (its page None); its :attr:`text` is then empty."""

    @property
    def links(self) -> tuple[str, ...]:
        """The pages the cell links to (source paths, relative, each with its place if any)."""
        if self.link is not None:
            return (self.link,)
        return tuple(link for _, link in self.parts if link is not None)


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
    if _TEXT.fullmatch(cell):
        return Cell(cell)
    return _linked_cell(cell)


def _linked_cell(cell: str) -> Cell | None:
    """A cell of links among plain text, or None for any other."""
    if _LINKED.fullmatch(cell) is None:
        return None
    parts = tuple(
        (found[1], found[2]) if found[2] is not None else (found[3], None)
        for found in _PART.finditer(cell)
    )
    if any(link is not None and (not text or text != text.strip()) for text, link in parts):
        return None
    return Cell("", parts=parts)


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
            content = _link_html(cell.text, cell.link)
        elif cell.parts:
            content = "".join(
                text if link is None else _link_html(text, link) for text, link in cell.parts
            )
        elif cell.strong:
            content = f"<strong>{cell.text}</strong>"
        else:
            content = cell.text
        style = "" if align is None else f' style="text-align: {align};"'
        parts.append(f"<td{style}>{content}</td>\n")
    parts.append("</tr>\n")
    return "".join(parts)


def _link_html(text: str, link: str) -> str:
    """A link to a page (and a place on it) as MkDocs writes it: to the page's ``.html``."""
    page, mark, place = link.partition("#")
    return f'<a href="{page[: -len(".md")]}.html{mark}{place}">{text}</a>'


def _places(row: tuple[Cell, ...]) -> set[str]:
    """The links of a row to a place on a page."""
    return {link for cell in row for link in cell.links if "#" in link}


@dataclass(frozen=True)
class HeldRows:
    """Rows of a table held until Markdown has converted the page: those after ``first``, a row
    Markdown converts, up to the next such row."""

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
    ``minimum`` rows or more, each of the shapes this module writes. A row linking to a place
    on a page that no row kept before it in ``markdown`` links to is kept too, so that MkDocs
    checks each place linked (the rows after it held in a stand-in row of their own)."""
    pieces: list[str] = []
    held: list[HeldRows] = []
    places: set[str] = set()
    done = 0
    for rule in _TABLE_RULE.finditer(markdown):
        body_start = rule.end() + 1
        if body_start < done or markdown[body_start - 1 : body_start] != "\n":
            continue
        end = markdown.find("\n\n", body_start)
        end = len(markdown) if end < 0 else end
        table = _held_table(markdown[body_start:end], rule[0], minimum, places)
        if table is None:
            continue
        kept, rows = table
        pieces += [markdown[done:body_start], kept]
        held += rows
        done = end
    if not held:
        return markdown, held
    pieces.append(markdown[done:])
    return "".join(pieces), held


def _held_table(
    body: str, rule: str, minimum: int, places: set[str]
) -> tuple[str, list[HeldRows]] | None:
    """A table's rows (``body``, under its ``rule``) with those after the first held, and the
    rows held; None where it has fewer than ``minimum`` rows or one of another shape. A row
    linking to a place not in ``places`` (those linked from the rows kept so far) is kept, and
    its places added."""
    marks = rule[1:-1].split("|")
    columns = len(marks)
    lines = body.split("\n")
    if len(lines) < minimum:
        return None
    rows = tuple(parsed_row(line) for line in lines)
    if any(row is None or len(row) != columns for row in rows):
        return None
    aligns = tuple(_ALIGNMENTS.get((mark[0] == ":", mark[-1] == ":")) for mark in marks)
    kept: list[str] = []
    held: list[HeldRows] = []
    first: tuple[Cell, ...] = ()
    run: list[tuple[Cell, ...]] = []

    def stand_in_for_run() -> None:
        if run:
            stand_in = f"{STAND_IN}{next(_numbers)}"
            kept.append("| " + stand_in + " |" + " |" * (columns - 1))
            held.append(HeldRows(stand_in, columns, first, tuple(run), aligns))
            run.clear()

    for number, (line, row) in enumerate(zip(lines, rows, strict=True)):
        assert row is not None
        new_places = _places(row) - places
        if number == 0 or new_places:
            stand_in_for_run()
            kept.append(line)
            first = row
            places |= new_places
        else:
            run.append(row)
    stand_in_for_run()
    return "\n".join(kept), held


@dataclass(frozen=True)
class HeldItems(HeldRows):
    """Items of a list of links held until Markdown has converted the page: those after
    ``first``, each a row of one cell, a link to a page."""

    @property
    def stand_in_html(self) -> str:
        """The stand-in item as Markdown converts it."""
        return f"<li>{self.stand_in}</li>\n"

    def html(self, row: tuple[Cell, ...]) -> str:
        """An item of this list as Markdown converts it."""
        [cell] = row
        assert cell.link is not None
        return f"<li>{_link_html(cell.text, cell.link)}</li>\n"


_ITEMS = re.compile(rf"(?:^- \[{_PLAIN}\]\({_TARGET}\)\n)+", re.MULTILINE)
"""A list whose every item is a link to a page, each on one line."""


def hold_items(markdown: str, minimum: int = 3) -> tuple[str, list[HeldRows]]:
    """The Markdown with the items after the first of each list of links held (a stand-in item
    in their place), and the items held, list by list (:class:`HeldItems`); a list is left as it
    is unless it has ``minimum`` items or more, each a link to a page (without a place on it),
    and stands apart from the text before it and after it by a blank line (the Rulings page's
    cases that check each rule)."""
    pieces: list[str] = []
    held: list[HeldRows] = []
    done = 0
    for found in _ITEMS.finditer(markdown):
        start, end = found.span()
        apart = markdown.endswith("\n\n", 0, start) or not markdown[:start].strip()
        if not apart or markdown[end : end + 1] not in ("", "\n"):
            continue
        lines = found[0].splitlines()
        if len(lines) < minimum:
            continue
        items = [_LINK.fullmatch(line[2:]) for line in lines]
        if any(item is None or "#" in item[2] or item[1] != item[1].strip() for item in items):
            continue
        rows = tuple((Cell(item[1], link=item[2]),) for item in items if item is not None)
        stand_in = f"{STAND_IN}{next(_numbers)}"
        pieces += [markdown[done:start], f"{lines[0]}\n- {stand_in}\n"]
        held.append(HeldItems(stand_in, 1, rows[0], rows[1:]))
        done = end
    if not held:
        return markdown, held
    pieces.append(markdown[done:])
    return "".join(pieces), held


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
                for link in cell.links:
                    target = posixpath.normpath(posixpath.join(folder, link.partition("#")[0]))
                    if not exists(target):
                        raise RowsProblem(f"{page} links to {link}, which is not in the site")
    rows = "".join(held.html(row) for row in held.rows)
    return html.replace(place, held.html(held.first) + rows, 1)
