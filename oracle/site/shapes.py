"""A case page's Markdown converted once for each shape of page, then filled for each page.

Thousands of case pages are written from one template, and most of them share their Markdown
but for their title, the link that opens the case on the Ask page, and the case file shown: the
texts the template printed are held out of Markdown already, each in a numbered placeholder
(:func:`oracle.site.markup.held_text`). So a page's *shape* is its Markdown with those three put
in stand-ins (:func:`shape_of`); the build converts a shape once (the skeleton), and each page of
that shape is the skeleton's HTML with its own title heading (converted on its own, with the
same Markdown), link and case file put in the stand-ins' places. Converting the title alone is
about a tenth of converting the page.

The three are inert in Markdown wherever the template puts them: the title heading is a line of
escaped text alone (nothing in it reaches another line); the link's fragment is letters, digits,
``-`` and ``_`` inside a raw HTML tag, which Markdown passes through as written; the case file is
a fenced code block, whose HTML is its text escaped (:func:`_code_html`), where the text holds
nothing Markdown changes before the block is read (tabs, carriage returns, blank lines of
spaces, its own control characters). A page where any of these does not hold is converted
whole, and so is a page whose title's anchor is taken by another element of its skeleton. The
first pages of each shape are converted whole as well and must come out the same as filled
(:data:`CHECKED`): a shape that does not is converted whole for every page.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

import markdown as markdown_
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import (
    _ExtractAnchorsTreeprocessor,
    _ExtractTitleTreeprocessor,
    _RawHTMLPreprocessor,
    _RelativePathTreeprocessor,
)

TITLE = "oracleshapetitle7d1c"
ASK = "oracleshapeask7d1c"
CODE = "oracleshapecode7d1c"
_MARKS = (TITLE, ASK, CODE)

CHECKED = 2
"""How many pages of each shape are converted whole too, and compared with the filled skeleton."""

_TITLE_LINE = re.compile(r"# [^\n{}<>`\\]+\n")
_ASK_FRAGMENT = re.compile(r'(?<=ask\.html#)v\d+=[A-Za-z0-9_-]*(?=")')
_CODE_BLOCK = re.compile(
    r"^(?P<fence>`{3,})yaml\n(?P<code>.*?\n)(?P=fence)$", re.MULTILINE | re.DOTALL
)
_CHANGED_BY_MARKDOWN = re.compile(r"[\t\r\x02\x03]|^ +$", re.MULTILINE)
"""What Markdown's first pass changes in a text (tabs, line endings, its own markers, lines of
spaces): a case file holding any is not put into a skeleton as written."""


@dataclass(frozen=True)
class Converted:
    """A page's Markdown as MkDocs converts it (:meth:`mkdocs.structure.pages.Page.render`):
    what the page keeps of the conversion."""

    content: str
    toc_tokens: list[Any]
    title: str | None
    anchor_ids: frozenset[str]
    links_to_anchors: dict[File, dict[str, str]]


def converted(
    markdown: str, file: File, files: Files, config: MkDocsConfig, converter: markdown_.Markdown
) -> Converted:
    """``markdown`` converted with ``converter``, reset, as MkDocs converts a page of ``file``."""
    converter.reset()
    raw_html = _RawHTMLPreprocessor()
    raw_html._register(converter)
    anchors = _ExtractAnchorsTreeprocessor(file, files, config)
    anchors._register(converter)
    relative_paths = _RelativePathTreeprocessor(file, files, config)
    relative_paths._register(converter)
    title = _ExtractTitleTreeprocessor()
    title._register(converter)
    content = converter.convert(markdown)
    return Converted(
        content,
        list(getattr(converter, "toc_tokens", [])),
        title.title,
        frozenset(anchors.present_anchor_ids | raw_html.present_anchor_ids),
        relative_paths.links_to_anchors,
    )


@dataclass(frozen=True)
class Shape:
    """A page's Markdown with its title, Ask link and case file in stand-ins, and those three."""

    markdown: str
    title: str
    """The title heading's line."""
    ask: str
    code: str


def shape_of(markdown: str) -> Shape | None:
    """The shape of a case page's Markdown, or None where the page is to be converted whole."""
    if any(mark in markdown for mark in _MARKS):
        return None
    title = _TITLE_LINE.match(markdown)
    asks = _ASK_FRAGMENT.findall(markdown)
    codes = list(_CODE_BLOCK.finditer(markdown))
    if title is None or len(asks) != 1 or len(codes) != 1:
        return None
    block = codes[0]
    code = block["code"]
    if _CHANGED_BY_MARKDOWN.search(code):
        return None
    skeleton = (
        f"# {TITLE}\n"
        + markdown[title.end() : block.start("code")]
        + f"{CODE}\n"
        + markdown[block.end("code") :]
    )
    skeleton = _ASK_FRAGMENT.sub(ASK, skeleton)
    return Shape(skeleton, title[0], asks[0], code)


def _code_html(code: str) -> str:
    """A fenced code block's text as Markdown writes it in the block's HTML."""
    return (
        code.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


@dataclass(frozen=True)
class Skeleton:
    """A shape converted, with its stand-ins in its HTML."""

    converted: Converted
    file: File
    """The page the shape was converted as."""
    title_element: str
    """The title heading's element as the skeleton's HTML holds it."""

    def filled(self, shape: Shape, file: File, title: Converted) -> Converted | None:
        """The page of ``file`` of ``shape`` whose title heading converts to ``title``, or None
        where that heading would not come out alone as it does in the page (its anchor taken)."""
        skeleton = self.converted
        tokens = title.toc_tokens
        if (
            len(tokens) != 1
            or tokens[0].get("children")
            or title.anchor_ids & (skeleton.anchor_ids - {TITLE})
            or set(title.links_to_anchors) - {file}
        ):
            return None
        content = (
            skeleton.content.replace(self.title_element, title.content, 1)
            .replace(ASK, shape.ask, 1)
            .replace(f"{CODE}\n", _code_html(shape.code), 1)
        )
        return Converted(
            content,
            [{**tokens[0], "children": skeleton.toc_tokens[0]["children"]}],
            title.title,
            (skeleton.anchor_ids - {TITLE}) | title.anchor_ids,
            self._links_to_anchors(file, title),
        )

    def _links_to_anchors(self, file: File, title: Converted) -> dict[File, dict[str, str]]:
        """The page's links to anchors: the skeleton's, those to its own page (its headings'
        permalinks) as the page's, the title's first."""
        links: dict[File, dict[str, str]] = {}
        for target, anchors in self.converted.links_to_anchors.items():
            if target == self.file:
                links[file] = {**title.links_to_anchors.get(file, {})}
                links[file].update((a, link) for a, link in anchors.items() if a != TITLE)
            else:
                links[target] = anchors
        if file not in links and file in title.links_to_anchors:
            links[file] = title.links_to_anchors[file]
        return links


def skeleton_of(converted_: Converted, file: File) -> Skeleton | None:
    """The skeleton a shape converts to, or None where its stand-ins do not come out once each,
    as the filling expects."""
    content = converted_.content
    start = content.find(f'<h1 id="{TITLE}"')
    end = content.find("</h1>", start) + len("</h1>")
    tokens = converted_.toc_tokens
    if (
        start < 0
        or content.count(TITLE) != 3  # its id, its text, its permalink
        or content.count(ASK) != 1
        or content.count(f'<code class="language-yaml">{CODE}\n</code>') != 1
        or content.count(CODE) != 1
        or len(tokens) != 1
        or tokens[0].get("id") != TITLE
        or converted_.title != TITLE
    ):
        return None
    return Skeleton(converted_, file, content[start:end])


@dataclass
class CaseShapes:
    """The skeletons of a build's case pages by shape, and how many pages of each were checked.

    A shape seen once is converted whole (most shapes of a small catalogue have one page), and
    only its digest is kept; from its second page on it has a skeleton."""

    seen: set[bytes] = field(default_factory=set)
    skeletons: dict[bytes, Skeleton | None] = field(default_factory=dict)
    """None: the shape's skeleton did not come out as its pages, which are converted whole."""
    checked: dict[bytes, int] = field(default_factory=dict)

    def converted(
        self,
        markdown: str,
        file: File,
        files: Files,
        config: MkDocsConfig,
        converter: markdown_.Markdown,
    ) -> Converted:
        """``markdown``, the Markdown of the case page of ``file``, converted as :func:`converted`
        converts it: from its shape's skeleton where it has one that has come out as its first
        pages converted whole."""
        shape = shape_of(markdown)
        if shape is None:
            return converted(markdown, file, files, config, converter)
        folder = file.src_uri.rpartition("/")[0]
        key = hashlib.sha256(f"{folder}\0{shape.markdown}".encode()).digest()
        if key not in self.seen:
            self.seen.add(key)
            return converted(markdown, file, files, config, converter)
        if key not in self.skeletons:
            made = converted(shape.markdown, file, files, config, converter)
            self.skeletons[key] = skeleton_of(made, file)
        skeleton = self.skeletons[key]
        if skeleton is None:
            return converted(markdown, file, files, config, converter)
        title = converted(shape.title, file, files, config, converter)
        filled = skeleton.filled(shape, file, title)
        if filled is None:
            return converted(markdown, file, files, config, converter)
        if self.checked.get(key, 0) < CHECKED:
            self.checked[key] = self.checked.get(key, 0) + 1
            whole = converted(markdown, file, files, config, converter)
            if whole != filled:
                self.skeletons[key] = None
            return whole
        return filled
