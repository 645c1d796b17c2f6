"""A case page written into its kind's frame: the theme's page rendered once, then filled.

The theme renders every case page of a folder alike but for four values of the page: its title
(in ``<title>`` and the header), the first heading's anchor (the skip link), its content and,
where the site has an address, its canonical address. So the theme renders the page once for
each kind (:func:`frame_kind`) with a stand-in for each of those values (the frame), and every
other page of that kind is the frame with its own values put in the stand-ins' places, in one
pass (:meth:`Frame.filled`). The first pages of each kind are rendered whole as well and must
come out as their frame filled (:class:`CaseFrames`): a kind whose frame does not is rendered
whole for every page.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink, TableOfContents

TITLE = "oracleframetitle7d1c"
SKIP = "oracleframeskip7d1c"
BODY = "<h1 oracleframebody7d1c>"
"""The content's stand-in: the theme adds a heading of its own to a content holding no ``<h1``,
and a case page's content always holds its own."""
CANONICAL = "oracleframecanonical7d1c"
_STAND_INS = re.compile("|".join(re.escape(mark) for mark in (TITLE, "#" + SKIP, BODY, CANONICAL)))

CHECKED = 2
"""How many pages of each kind are rendered whole too, and compared with their frame filled."""


def _entries(items: list[AnchorLink]) -> tuple[Hashable, ...]:
    return tuple(
        (item.title, item.id, item.level, getattr(item, "typeset", None), _entries(item.children))
        for item in items
    )


def frame_kind(page: Page) -> Hashable | None:
    """What the theme reads of a case page besides the four values a frame leaves open: its
    folder, its front matter but the title, the entries of its table of contents under the title
    and whether it has an address. None for a page no frame can stand for: one without a title
    heading first, without its own ``<h1`` or with a neighbour in the navigation."""
    toc = list(page.toc or [])
    content = page.content or ""
    if (
        len(toc) != 1
        or toc[0].level != 1
        or "<h1" not in content
        or "title" not in page.meta
        or page.previous_page is not None
        or page.next_page is not None
        or page.edit_url
    ):
        return None
    meta = {name: value for name, value in page.meta.items() if name != "title"}
    return (
        posixpath.dirname(page.url),
        json.dumps(meta, sort_keys=True, default=repr),
        toc[0].level,
        _entries(toc[0].children),
        page.canonical_url is None,
    )


Part = tuple[str, bool]
"""A stretch of a filled page, and whether it is the frame's own (the same on every page of the
kind), as :meth:`oracle.site.csp.PageCheck.parts_problems` reads it."""


@dataclass(frozen=True)
class Frame:
    """The theme's page for one kind of case page, with stand-ins for its four open values."""

    text: str
    shared: tuple[str, ...] = field(init=False, compare=False)
    """The frame cut around its stand-ins: what lies between them, each stretch starting and
    ending after a ``>`` (or at an end of the frame); the stretches holding stand-ins, as
    ``open``, go between them."""
    open: tuple[str, ...] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        spans: list[list[int]] = []
        for found in _STAND_INS.finditer(self.text):
            start = self.text.rfind(">", 0, found.start()) + 1
            end = self.text.find(">", found.end())
            end = len(self.text) if end < 0 else end + 1
            if spans and start <= spans[-1][1]:
                spans[-1][1] = max(spans[-1][1], end)
            else:
                spans.append([start, end])
        shared, open_ = [], []
        done = 0
        for start, end in spans:
            shared.append(self.text[done:start])
            open_.append(self.text[start:end])
            done = end
        shared.append(self.text[done:])
        object.__setattr__(self, "shared", tuple(shared))
        object.__setattr__(self, "open", tuple(open_))

    def parts(self, page: Page) -> list[Part]:
        """The page of ``page`` (:meth:`filled`) in parts: the frame's own stretches, shared
        with every page of its kind, and those holding the page's own values."""
        toc = list(page.toc or [])
        values = {
            TITLE: str(page.meta["title"]),
            "#" + SKIP: toc[0].url,
            BODY: page.content or "",
            CANONICAL: page.canonical_url or "",
        }
        parts: list[Part] = [(self.shared[0], True)]
        for open_part, shared in zip(self.open, self.shared[1:], strict=True):
            parts.append((_STAND_INS.sub(lambda found: values[found[0]], open_part), False))
            parts.append((shared, True))
        return parts

    def filled(self, page: Page) -> str:
        """The page of ``page``: the frame with the page's own values in the stand-ins' places."""
        return "".join(text for text, _ in self.parts(page))


def frame_of(page: Page, render: Callable[[], str]) -> Frame:
    """The frame of ``page``'s kind, as ``render`` renders the theme's page for ``page`` while its
    four open values are stand-ins (they are the page's own again afterwards)."""
    title, content, toc, canonical = (
        page.meta["title"],
        page.content,
        page.toc,
        page.canonical_url,
    )
    first = next(iter(toc))
    stand_in = AnchorLink(TITLE, SKIP, first.level)
    stand_in.children = first.children
    try:
        page.meta["title"] = TITLE
        page.content = BODY
        page.toc = TableOfContents([stand_in])
        if canonical is not None:
            page.canonical_url = CANONICAL
        return Frame(render())
    finally:
        page.meta["title"] = title
        page.content = content
        page.toc = toc
        page.canonical_url = canonical


@dataclass
class CaseFrames:
    """The frames of a build's case pages by kind, and how many pages of each were checked."""

    frames: dict[Hashable, Frame | None] = field(default_factory=dict)
    """None: the frame of this kind did not come out as its page, which is rendered whole."""
    checked: dict[Hashable, int] = field(default_factory=dict)
    last: tuple[str, list[Part]] | None = None
    """The last page written from a frame, and its parts, until :meth:`parts_of` takes them."""

    def parts_of(self, output: str) -> list[Part] | None:
        """The parts of ``output`` where it is the last page written from a frame, else None;
        either way that page is let go."""
        last, self.last = self.last, None
        if last is None or last[0] != output:
            return None
        return last[1]

    def page(self, page: Page, render: Callable[[], str]) -> str:
        """``page`` as the theme renders it (``render``), from its kind's frame where it has one
        that has come out as its first pages rendered whole."""
        kind = frame_kind(page)
        if kind is None:
            return render()
        if kind not in self.frames:
            self.frames[kind] = frame_of(page, render)
        frame = self.frames[kind]
        if frame is None:
            return render()
        if self.checked.get(kind, 0) < CHECKED:
            whole = render()
            self.checked[kind] = self.checked.get(kind, 0) + 1
            if frame.filled(page) != whole:
                self.frames[kind] = None
            return whole
        parts = frame.parts(page)
        filled = "".join(text for text, _ in parts)
        self.last = (filled, parts)
        return filled
