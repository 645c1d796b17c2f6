"""The Content-Security-Policy every page carries, and the check that a built page has nothing
live the site did not write.

Escaping (:mod:`oracle.site.markup`) keeps editors' text inert; the policy is the second wall, so
that an escaping slip still cannot run script. A static site cannot send headers, so the policy
is a ``<meta>`` element placed first in each page's ``<head>``. It lets scripts run only from
the site's own files and as the theme's few inline scripts (by their hashes, learnt from the
page the theme renders without any content of ours, :data:`THEME_PROBE`), adds WebAssembly
where the engine starts, and allows nothing else: no inline handler, no ``javascript:`` link,
no plugin, no other origin. Inline style attributes are allowed only with the exact
declarations Markdown's tables write for column alignment.

:func:`live_content` is the same rule read at build time: a page holding an inline script
other than the theme's, an ``on*`` attribute, a ``javascript:`` or ``data:`` link, a frame
document, a ``<style>`` element or a style the tables did not write fails the build.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections import OrderedDict
from collections.abc import Iterable
from html.parser import HTMLParser
from typing import Any

THEME_PROBE = "404.html"
"""The theme's own page, rendered before any page of ours: its inline scripts are the theme's."""

TABLE_ALIGNMENTS = tuple(f"text-align: {side};" for side in ("left", "center", "right"))
"""The only inline styles the site's pages hold: Markdown's tables align columns with them."""

_SCRIPT_TYPES = ("", "text/javascript", "module", "application/javascript")
"""``type`` values whose inline content a browser runs (the theme's configuration is JSON)."""

_LINK_ATTRIBUTES = ("href", "src", "action", "formaction", "xlink:href", "poster", "data")
_FORBIDDEN_SCHEMES = re.compile(r"^(?:javascript|data|vbscript):", re.IGNORECASE)
_FORBIDDEN_ELEMENTS = ("style", "base", "object", "embed", "applet")


def digest(source: str) -> str:
    """A CSP hash source for an inline script's or style's exact text."""
    hashed = hashlib.sha256(source.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(hashed).decode('ascii')}'"


def policy(script_hashes: Iterable[str], *, engine: bool = False) -> str:
    """The policy of one page: ``engine`` pages also compile WebAssembly (Pyodide)."""
    scripts = ["'self'", *sorted(set(script_hashes))]
    if engine:
        scripts.append("'wasm-unsafe-eval'")
    styles = ["'self'", "'unsafe-hashes'", *(digest(style) for style in TABLE_ALIGNMENTS)]
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src {' '.join(scripts)}",
            f"style-src {' '.join(styles)}",
            "img-src 'self' data:",  # the theme's icons are data: images in its stylesheet
            "font-src 'self'",
            "connect-src 'self'",
            "worker-src 'self'",
            "frame-src 'self'",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
        ]
    )


_HEAD = re.compile(r"<head(?:\s[^>]*)?>", re.IGNORECASE)


def with_policy(page: str, content_policy: str) -> str:
    """The page with the policy as the first element of its ``<head>``, before any script."""
    match = _HEAD.search(page)
    if match is None:
        raise ValueError("the page has no <head> to carry its Content-Security-Policy")
    meta = f'<meta http-equiv="Content-Security-Policy" content="{content_policy}">'
    return f"{page[: match.end()]}\n{meta}{page[match.end() :]}"


_FINDINGS = frozenset(
    {"lineno", "offset", "lasttag", "_HTMLParser__starttag_text", "allowed", "problems", "inline"}
)
"""What a scanner holds beside its state: where it is, the last tag it read, what it found."""


class _Scanner(HTMLParser):
    def __init__(self, allowed_scripts: frozenset[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.allowed = allowed_scripts
        self.problems: list[str] = []
        self.inline: list[str] = []
        self._script: list[str] | None = None

    def state(self) -> dict[str, Any]:
        """Everything the scanner's reading of more text depends on."""
        return {name: value for name, value in vars(self).items() if name not in _FINDINGS}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        for name, value in values.items():
            problem = _attribute_problem(tag, name, value)
            if problem is not None:
                self.problems.append(problem)
        if tag in _FORBIDDEN_ELEMENTS:
            self.problems.append(f"a <{tag}> element")
        if tag == "meta" and values.get("http-equiv", "").lower() == "refresh":
            self.problems.append("a <meta> refresh")
        if tag == "script" and "src" not in values:
            kind = values.get("type", "").lower()
            self._script = [] if kind in _SCRIPT_TYPES else None

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._script.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script is not None:
            source = "".join(self._script)
            self.inline.append(source)
            if digest(source) not in self.allowed:
                self.problems.append(f"an inline script that is not the theme's: {source[:60]!r}")
            self._script = None


def _attribute_problem(tag: str, name: str, value: str) -> str | None:
    """What an attribute could run or restyle: an inline handler, a script or data link, a
    document of its own, a style the tables did not write."""
    if name.startswith("on"):
        return f"<{tag}> has an inline handler {name}"
    if name in _LINK_ATTRIBUTES and _FORBIDDEN_SCHEMES.match(_bare(value)):
        return f"<{tag}> {name} is a {_bare(value).split(':')[0]}: link"
    if name == "srcdoc":
        return f"<{tag}> carries a document of its own (srcdoc)"
    if name == "style" and value.strip() not in TABLE_ALIGNMENTS:
        return f"<{tag}> has a style of its own: {value[:60]!r}"
    return None


def _bare(value: str) -> str:
    """A link as a browser reads its scheme: without spaces and control characters."""
    return re.sub(r"[\x00-\x20\x7f]+", "", value)


def inline_scripts(page: str) -> tuple[str, ...]:
    """The text of every inline script a browser would run on the page."""
    scanner = _Scanner(frozenset())
    scanner.feed(page)
    scanner.close()
    return tuple(scanner.inline)


def live_content(page: str, allowed_scripts: Iterable[str]) -> list[str]:
    """What on a built page could run or restyle it beyond what the site wrote: one line each."""
    scanner = _Scanner(frozenset(allowed_scripts))
    scanner.feed(page)
    scanner.close()
    return scanner.problems


def _pieces(page: str) -> list[str]:
    """The page cut after each ``>``: mostly one tag each, with the text before it."""
    pieces = page.split(">")
    last = pieces.pop()
    return [piece + ">" for piece in pieces] + ([last] if last else [])


class PageCheck:
    """:func:`live_content` for every page of a build, reading each stretch of text the pages
    share once: the theme's frame is most of every page, and the same on each, and a board is
    the same few tags over and over.

    A page is read in pieces, each up to a ``>`` (mostly a tag and the text before it).
    Wherever the reading stands between elements (nothing held back, no script or tag half
    read: the state of a scanner that has read nothing), what the next piece holds depends on
    that piece alone, so a piece read so before is not read again. Any other piece is read on
    from where the page's reading stands, as one reading of the whole page would read it: the
    problems found, and their order, are those of :func:`live_content`.
    """

    def __init__(self, allowed_scripts: Iterable[str], kept: int = 1 << 20) -> None:
        self.allowed = frozenset(allowed_scripts)
        self._kept = kept
        self._pieces: OrderedDict[str, tuple[str, ...]] = OrderedDict()
        """The problems of each piece read from the start state that ended in it, the most
        recently used last: at most ``kept`` characters of pieces, so that the pieces of a
        large site's own pages do not pile up."""
        self._kept_size = 0
        self._start = _Scanner(self.allowed).state()

    def problems(self, page: str) -> list[str]:
        """What on ``page`` could run or restyle it beyond what the site wrote: one piece each."""
        return self.parts_problems([(page, False)])

    def parts_problems(self, parts: Iterable[tuple[str, bool]]) -> list[str]:
        """:meth:`problems` of the page the ``parts`` make, each part but the last ending with a
        ``>``: a part marked shared, met between elements, is itself kept as one piece once read
        so (:mod:`oracle.site.frames` gives a case page's frame so, the same on every page of its
        kind), and is not cut into pieces again."""
        found: list[str] = []
        scanner: _Scanner | None = None  # reading on across pieces; None between elements
        for text, shared in parts:
            if shared and scanner is None:
                known = self._pieces.get(text)
                if known is not None:
                    self._pieces.move_to_end(text)
                    found += known
                    continue
                in_part: list[str] = []
                scanner = self._read(text, in_part, None)
                found += in_part
                if scanner is None:
                    self._keep(text, tuple(in_part))
                continue
            scanner = self._read(text, found, scanner)
        if scanner is not None:
            scanner.close()
            found += scanner.problems
        return found

    def _read(self, text: str, found: list[str], scanner: _Scanner | None) -> _Scanner | None:
        """Read ``text`` on from ``scanner`` (None: between elements), piece by piece, adding to
        ``found`` what each piece finished holds; the scanner reading on after it, if any."""
        for piece in _pieces(text):
            if scanner is None:
                known = self._pieces.get(piece)
                if known is not None:
                    self._pieces.move_to_end(piece)
                    found += known
                    continue
                scanner = _Scanner(self.allowed)
                scanner.feed(piece)
                if scanner.state() == self._start:
                    self._keep(piece, tuple(scanner.problems))
                    found += scanner.problems
                    scanner = None
                continue
            scanner.feed(piece)
            if scanner.state() == self._start:
                found += scanner.problems
                scanner = None
        return scanner

    def _keep(self, piece: str, problems: tuple[str, ...]) -> None:
        if len(piece) > self._kept:
            return
        self._pieces[piece] = problems
        self._kept_size += len(piece)
        while self._kept_size > self._kept:
            self._kept_size -= len(self._pieces.popitem(last=False)[0])
