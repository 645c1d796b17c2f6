"""The site's pages as the catalogue reads them: which Markdown files MkDocs builds, the markers
by which a page asks for generated content, and which page shows each topic's table."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

MARKER = re.compile(
    r"^[ \t]*<!--\s*oracle:([a-z0-9-]+)(?:\s+([a-z0-9.-]+))?\s*-->[ \t]*$", re.MULTILINE
)
"""Where a page asks for generated content, on a line of its own (only in the pages of
``site_src/``, never in a case page): ``<!-- oracle:verdict-table claims -->`` renders the
table of the cases in ``cases/claims/`` (a page showing a topic's table is what places the topic
on the site: :func:`topic_pages`); ``<!-- oracle:rulings -->`` the rulings;
``<!-- oracle:walkthrough NAME -->`` the recorded game ``games/NAME.txt``, replayed turn by turn;
``<!-- oracle:rule ID -->`` a rule's title and text, cited (:mod:`oracle.citations`)."""


MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdown", ".mkdn", ".mkd")
"""The suffixes MkDocs builds as pages."""


def site_pages(pages_dir: Path) -> dict[str, str]:
    """The site's Markdown pages, by path under ``pages_dir`` (``site_src/``), as MkDocs takes
    them: hidden files and folders are left out, and so are ``_templates/`` and ``_overrides/``
    (named in ``exclude_docs``)."""
    pages = {}
    for path in sorted(pages_dir.rglob("*")):
        parts = path.relative_to(pages_dir).parts
        if path.suffix not in MARKDOWN_SUFFIXES or not path.is_file():
            continue
        if any(part.startswith((".", "_")) for part in parts):
            continue
        pages[path.relative_to(pages_dir).as_posix()] = path.read_text(encoding="utf-8")
    return pages


def topic_pages(pages: Mapping[str, str]) -> dict[str, str]:
    """Which page shows each topic's table, from the pages' text by source path."""
    found: dict[str, str] = {}
    for uri, page_text in sorted(pages.items()):
        for match in MARKER.finditer(page_text):
            if match.group(1) == "verdict-table" and match.group(2):
                found.setdefault(match.group(2), uri)
    return found


def nav_pages(entry: object) -> set[str]:
    """Every page named in a MkDocs ``nav`` entry, however deeply nested."""
    if isinstance(entry, str):
        return {entry}
    if isinstance(entry, list):
        return set().union(*(nav_pages(item) for item in entry))
    if isinstance(entry, dict):
        return set().union(*(nav_pages(item) for item in entry.values()))
    return set()
