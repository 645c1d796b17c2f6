"""A case page as the search plugin indexes it: with its board's stub in the board's place.

The theme's search plugin (``material.plugins.search``) reads each page's HTML whole, and skips
an element marked ``data-search-exclude`` with everything it holds, as a case page's board is
marked: the board's tags change nothing of what it indexes, only how long it takes, and the
board is most of a case page. So the build lets it index the page with the board's outer element
left empty (:func:`board_stub`), and puts the board in afterwards (:func:`after_search`): the
page and its entries in the index are those the board would have made. A section whose heading
is marked so (the rules a case checks, its file) is read whole, then dropped: its body is held
out of the page the plugin reads alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from oracle.site.casepages import BOARD_SLOT, CasePageSource

SEARCH_ATTRIBUTE = re.compile(r"\s?data-search-\w+=\"[^\"]+\"")
"""What the search plugin strips from a page's HTML once it has indexed it (its own pattern)."""

_SEARCH_WORD = "data-search-"


def _holds_search_attribute(html: str) -> bool:
    """Whether :data:`SEARCH_ATTRIBUTE` matches in ``html``, as its search would find: tried only
    where a match can start, at each ``data-search-`` or the character before it (its search
    tries every character of a board, most of what working out a case page's stub cost)."""
    at = html.find(_SEARCH_WORD)
    while at >= 0:
        if SEARCH_ATTRIBUTE.match(html, max(at - 1, 0)) or SEARCH_ATTRIBUTE.match(html, at):
            return True
        at = html.find(_SEARCH_WORD, at + 1)
    return False


def _without_search_attributes(html: str) -> str:
    """``html`` as the search plugin leaves it once indexed: its attributes stripped."""
    return SEARCH_ATTRIBUTE.sub("", html) if _holds_search_attribute(html) else html


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
        or _holds_search_attribute(board)
    ):
        return None
    return f"{opening[0]}</{opening[1]}>"


@dataclass(frozen=True)
class HeldFromSearch:
    """What :func:`for_search` put in place of parts of a page, for :func:`after_search`."""

    stub: str | None
    """The board's stub (None: the board itself is in its place)."""
    sections: tuple[str, ...] = ()
    """The bodies of the sections excluded from search, in order, each held as
    :func:`_held_section` marks it."""


_CUT = "oraclesearchcut7d1c"


def _held_section(number: int) -> str:
    return f"<!--{_CUT}-{number}-->"


_HEADING_TAG = re.compile(r"<h([1-6])(?:\s[^<>]*)?>")
_TAG = re.compile(r"<(/?)([a-z][a-z0-9]*)(?:\s[^<>]*)?>")
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta"})
_VOID |= {"param", "source", "track", "wbr"}
"""The elements the search plugin reads as having no end (its own list)."""
_SKIPPED = frozenset({"object", "script", "style"})


def _balanced(body: str) -> bool:
    """Whether ``body`` holds only whole tags (no comment or other markup declaration), each
    element ended in it, in order, and none that the search plugin skips for good."""
    if body.count("<") != len(_TAG.findall(body)):
        return False
    open_: list[str] = []
    for found in _TAG.finditer(body):
        closing, tag = found[1], found[2]
        if tag in _SKIPPED:
            return False
        if tag in _VOID:
            if closing:
                return False
            continue
        if not closing:
            open_.append(tag)
        elif not open_ or open_.pop() != tag:
            return False
    return not open_


def _without_excluded_sections(html: str) -> tuple[str, tuple[str, ...]]:
    """``html`` with the body of each section whose heading is excluded from search held out
    (:func:`_held_section`): the search plugin gathers such a section's text only to drop it,
    so a body that holds no heading and whose tags all end in it (the context the plugin reads
    on from is the same after it) changes nothing of what it indexes."""
    if _CUT in html:
        return html, ()
    pieces: list[str] = []
    bodies: list[str] = []
    done = 0
    for found in _HEADING_TAG.finditer(html):
        if found.start() < done or not _SEARCH_EXCLUDED.search(found[0]):
            continue
        closing = html.find(f"</h{found[1]}>", found.end())
        if closing < 0:
            break
        start = closing + len(f"</h{found[1]}>")
        after = _HEADING.search(html, start)
        end = len(html) if after is None else after.start()
        body = html[start:end]
        if body.strip() and _HEADING.search(body) is None and _balanced(body):
            pieces += [html[done:start], _held_section(len(bodies))]
            bodies.append(body)
            done = end
    if not bodies:
        return html, ()
    pieces.append(html[done:])
    marked = "".join(pieces)
    # The plugin strips its attributes from the page it indexed: from this one, that must be
    # what stripping them from the whole page makes, the bodies put back.
    if _put_back(_without_search_attributes(marked), bodies) != _without_search_attributes(html):
        return html, ()
    return marked, tuple(bodies)


def _put_back(html: str, bodies: tuple[str, ...] | list[str]) -> str:
    for number, body in enumerate(bodies):
        html = _replaced_once(html, _held_section(number), body)
    return html


def for_search(source: CasePageSource, html: str) -> tuple[str, HeldFromSearch]:
    """The page's HTML, converted from ``source.markdown``, as the search plugin is to index it:
    with its held texts in their places (:meth:`CasePageSource.converted`), the board's stub in
    the board's place, or the board itself where it has none, and the bodies of the sections
    excluded from search held out (:func:`_without_excluded_sections`); and what was held, which
    :func:`after_search` puts back without working it out again."""
    stub = board_stub(source.board)
    html = source.converted(html)
    html = _replaced_once(html, BOARD_SLOT, source.board if stub is None else stub)
    html, sections = _without_excluded_sections(html)
    return html, HeldFromSearch(stub, sections)


def after_search(source: CasePageSource, html: str, held: HeldFromSearch) -> str:
    """The page's HTML as the search plugin left it (:func:`for_search`, which gave ``held``),
    with the excluded sections' bodies and the board in their places: the page
    :meth:`CasePageSource.with_board` makes, its search attributes stripped."""
    html = _put_back(html, held.sections)
    return html if held.stub is None else _replaced_once(html, held.stub, source.board)


def _replaced_once(html: str, place: str, content: str) -> str:
    if html.count(place) != 1:
        raise ValueError("the converted case page does not hold its board's place once")
    return html.replace(place, content, 1)
