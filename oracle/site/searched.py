"""A case page as the search plugin indexes it: with its board's stub in the board's place.

The theme's search plugin (``material.plugins.search``) reads each page's HTML whole, and skips
an element marked ``data-search-exclude`` with everything it holds, as a case page's board is
marked: the board's tags change nothing of what it indexes, only how long it takes, and the
board is most of a case page. So the build lets it index the page with the board's outer element
left empty (:func:`board_stub`), and puts the board in afterwards (:func:`after_search`): the
page and its entries in the index are those the board would have made.
"""

from __future__ import annotations

import re

from oracle.site.casepages import BOARD_SLOT, CasePageSource

SEARCH_ATTRIBUTE = re.compile(r"\s?data-search-\w+=\"[^\"]+\"")
"""What the search plugin strips from a page's HTML once it has indexed it (its own pattern)."""

_OPENING_TAG = re.compile(r"<([a-z]+)(?:\s[^<>]*)?>")
_SEARCH_EXCLUDED = re.compile(r"\sdata-search-exclude[\s>]")
_HEADING = re.compile(r"<h[1-6][\s>]", re.IGNORECASE)


def board_stub(board: str) -> str | None:
    """The board's outer element, empty, or None where it could not stand for the board exactly.

    The search plugin reads the stub as it reads the board wherever the board's element is the
    one it opens first and closes last and is excluded from search, and the board holds no
    heading (which starts a section of the index even while skipped) and nothing the plugin
    strips from the page once indexed (:data:`SEARCH_ATTRIBUTE`)."""
    opening = _OPENING_TAG.match(board)
    if (
        opening is None
        or not _SEARCH_EXCLUDED.search(opening[0])
        or not board.endswith(f"</{opening[1]}>")
        or _HEADING.search(board)
        or SEARCH_ATTRIBUTE.search(board)
    ):
        return None
    return f"{opening[0]}</{opening[1]}>"


def for_search(source: CasePageSource, html: str) -> tuple[str, str | None]:
    """The page's HTML, converted from ``source.markdown``, as the search plugin is to index it:
    with its held texts in their places (:meth:`CasePageSource.converted`), and the board's
    stub in the board's place, or the board itself where it has none; and the stub (None for
    the board), which :func:`after_search` replaces without working it out again.
    """
    stub = board_stub(source.board)
    html = source.converted(html)
    return _replaced_once(html, BOARD_SLOT, source.board if stub is None else stub), stub


def after_search(source: CasePageSource, html: str, stub: str | None) -> str:
    """The page's HTML as the search plugin left it (:func:`for_search`, which gave ``stub``),
    with the board in its place: the page :meth:`CasePageSource.with_board` makes."""
    return html if stub is None else _replaced_once(html, stub, source.board)


def _replaced_once(html: str, place: str, content: str) -> str:
    if html.count(place) != 1:
        raise ValueError("the converted case page does not hold its board's place once")
    return html.replace(place, content, 1)
