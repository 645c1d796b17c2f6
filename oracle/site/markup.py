"""The one path from data to the site's pages: every string is inert at both layers it crosses.

The site's templates write Markdown, which Python-Markdown turns into HTML, so a string from a
case file, the rules index, a recorded game or another engine's answer must be inert twice: no
HTML tag, entity or attribute, and no Markdown link, emphasis, attribute list, table cell, list
or heading. :func:`text` does both at once, by writing every ASCII punctuation character as a
numeric character reference (``<`` as ``&#60;``): Markdown passes those through untouched, and
the browser shows them as the characters themselves, in text and in attribute values alike.

Templates never call it: :func:`template_environment` applies it to every value a template prints
that is not already :class:`~markupsafe.Markup`. Markup is made only here and by code that builds
HTML from values it passed through :func:`text` (the board drawings): :func:`site_link` and
:func:`external_link` for links (only relative links inside the site, or http(s) addresses),
:func:`anchor` for heading ids, :func:`code_block` for a file shown as it is written, and
:func:`rendered` for a template's own output. The filters that could let a value skip the path
(``safe``, ``tojson``, ``urlize``...) do not exist in the environment.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote, urlsplit

from markupsafe import Markup

if TYPE_CHECKING:  # the browser's pages escape with this module, and have no Jinja
    import jinja2
    from jinja2.runtime import Context

__all__ = [
    "Markup",
    "UnsafeLink",
    "anchor",
    "code_block",
    "external_link",
    "rendered",
    "sentence",
    "site_link",
    "template_environment",
    "text",
]

_PUNCTUATION = re.compile(r"[!-/:-@\[-`{-~]")
"""Every ASCII punctuation character: each can start HTML, an entity, Markdown or an attribute."""


class UnsafeLink(ValueError):
    """A link target that may not reach a page: a scheme other than http(s), or a path that
    leaves the site."""

    def __init__(self, target: str, problem: str) -> None:
        shown = target if len(target) <= 80 else f"{target[:70]}... ({len(target)} characters)"
        super().__init__(f"link {shown!r}: {problem}")
        self.target = target


_WHITESPACE = re.compile(r"\s+")


def text(value: object) -> Markup:
    """``value`` as inert text for a page: shown exactly as written, each run of spaces and line
    breaks as one space (a line break in Markdown could start a new block; a space at either end
    stays, as in the ", " between two links). Markup passes as is."""
    if isinstance(value, Markup):
        return value
    words = _WHITESPACE.sub(" ", str(value))
    return Markup(_PUNCTUATION.sub(lambda match: f"&#{ord(match[0])};", words))


def sentence(value: object) -> str:
    """A phrase as a sentence: a capital first, one full stop at the end (still to be escaped)."""
    words = " ".join(str(value).split()).rstrip(".")
    return words[:1].upper() + words[1:] + "."


_SITE_PATH = re.compile(
    r"(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_.-]+(?:#[A-Za-z0-9_=-]+)?|#[A-Za-z0-9_=-]+"
)


def site_link(target: str) -> Markup:
    """A relative link to another page of the site (``cases/claims/x.md#part``), for a Markdown
    link or an ``href``: letters, digits, ``._-`` and slashes only, so it cannot carry a scheme,
    leave the site from its root, or break out of the link."""
    if not _SITE_PATH.fullmatch(target) or target.startswith("/"):
        raise UnsafeLink(target, "a link inside the site is a relative path of plain names")
    return Markup(target)


_URL_SAFE = "/:@!$&'()*+,;=?#%~-._"
"""Characters kept as they are in an external address (the rest are percent-encoded)."""


def external_link(label: object, url: str) -> Markup:
    """A link out of the site, as HTML: only an absolute ``http`` or ``https`` address is
    accepted; it is percent-encoded, then escaped for the attribute like any text."""
    if any(ord(character) < 33 or ord(character) == 127 for character in url):
        raise UnsafeLink(url, "an address holds no spaces or control characters")
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise UnsafeLink(url, "links from data may only be http:// or https:// addresses")
    href = text(quote(url, safe=_URL_SAFE))
    return Markup(f'<a href="{href}" rel="nofollow noopener">{text(label)}</a>')


_ANCHOR = re.compile(r"[a-z0-9][a-z0-9_-]*")


def anchor(name: str) -> Markup:
    """A heading's id for an attribute list (``{ #name }``): lowercase words and hyphens."""
    if not _ANCHOR.fullmatch(name):
        raise UnsafeLink(name, "an anchor is lowercase words joined by hyphens")
    return Markup(name)


def code_block(source: str, language: str) -> Markup:
    """``source`` shown exactly as written, as a fenced code block: its fence is longer than any
    run of backticks inside, so nothing in the source can close it, and Markdown escapes the
    block's HTML itself."""
    if not re.fullmatch(r"[a-z]+", language):
        raise ValueError(f"not a language name: {language!r}")
    if not source.endswith("\n"):
        source += "\n"
    longest = max((len(run) for run in re.findall(r"`+", source)), default=0)
    fence = "`" * max(3, longest + 1)
    return Markup(f"{fence}{language}\n{source}{fence}")


def _join(items: Iterable[object], separator: str = "") -> Markup:
    """Jinja's ``join``, each item through :func:`text`; the separator is the template's own."""
    return Markup(separator).join(text(item) for item in items)


_KEPT_FILTERS = (
    "capitalize",
    "default",
    "first",
    "last",
    "length",
    "list",
    "lower",
    "reject",
    "rejectattr",
    "select",
    "selectattr",
    "sort",
    "string",
    "sum",
    "upper",
)
"""Jinja's own filters that templates may use: each gives plain data, escaped when printed."""


HELD = "oracleheld7d1c"
"""How a placeholder of held text starts (:func:`held_text`)."""
HELD_PLACE = re.compile(HELD + r"(\d{6})z")
HELD_LIST = "oracle_held_text"
"""The name under which a template's context holds the list that takes its held text."""


def held_text(held: list[str], value: object) -> Markup:
    """``value`` as :func:`text` makes it, or, where it holds a character reference, a
    placeholder for it, the text put in ``held``: inert text is the same HTML before and after
    Markdown, but Markdown reads each reference as an inline element of its own, most of what
    converting a case page costs. A text starting or ending with a space is not held (a space
    at a line's start or end can mean something to Markdown), nor one holding :data:`HELD`."""
    escaped = text(value)
    if isinstance(value, Markup) or "&#" not in escaped:
        return escaped
    if escaped[:1].isspace() or escaped[-1:].isspace() or HELD in escaped:
        return escaped
    held.append(str(escaped))
    return Markup(f"{HELD}{len(held) - 1:06d}z")


def _printed(context: Context, value: object) -> Markup:
    held = context.get(HELD_LIST)
    return text(value) if held is None else held_text(held, value)


def template_environment(templates: Path) -> jinja2.Environment:
    """The Jinja environment of the site's templates. Every value printed goes through
    :func:`text` unless it is Markup (or :func:`held_text`, where the context gives a list
    as :data:`HELD_LIST`); an undefined name is an error."""
    import jinja2

    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates),
        undefined=jinja2.StrictUndefined,
        autoescape=True,
        finalize=jinja2.pass_context(_printed),
        keep_trailing_newline=True,
    )
    kept = {name: environment.filters[name] for name in _KEPT_FILTERS}
    environment.filters.clear()
    environment.filters.update(kept)
    environment.filters["join"] = _join
    environment.filters["e"] = environment.filters["escape"] = text
    environment.filters["sentence"] = sentence
    environment.filters["anchor"] = anchor
    return environment


def rendered(environment: jinja2.Environment, template: str, **context: object) -> Markup:
    """A template of ``environment`` rendered: Markup, since everything it printed was escaped."""
    return Markup(environment.get_template(template).render(**context))
