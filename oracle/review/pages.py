"""The pages of the site that cite rules, held until an editor reads them again: which wait
(``held``), and confirming them (``pin --reviewed PAGE``, ``pin --reviewed --all-held``), which
writes the record of :data:`oracle.citations.REVIEWED_PAGES` and nothing else."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from oracle.casefile.source import SourceError
from oracle.catalogue import PAGES_DIR, Catalogue, site_pages
from oracle.citations import (
    REVIEWED_PAGES,
    CitingPage,
    citing_pages,
    held_line,
    record_text,
    reviewed_record,
)


def is_page(path: Path, root: Path) -> bool:
    """Whether ``path`` names a page of the project's site (``site_src/*.md``)."""
    absolute = Path(os.path.abspath(path))
    return absolute.suffix == ".md" and absolute.is_relative_to(root / PAGES_DIR)


def _pages(catalogue: Catalogue) -> tuple[CitingPage, ...]:
    folder = catalogue.root / PAGES_DIR
    pages = site_pages(folder) if folder.is_dir() else {}
    try:
        record = reviewed_record(catalogue.root)
    except SourceError:
        record = {}  # check names the broken record; confirming writes it again
    return citing_pages(pages, record)


def held_pages(catalogue: Catalogue) -> list[CitingPage]:
    """Each page that cites rules and waits to be read again (citing only known ids)."""
    known = catalogue.rules.ids()
    return [
        page for page in _pages(catalogue) if set(page.ids) <= known and page.held(catalogue.rules)
    ]


def held_page_lines(catalogue: Catalogue) -> list[str]:
    """The located line of each held page, as ``check`` prints it."""
    return [held_line(page) for page in held_pages(catalogue)]


def confirm_pages(
    catalogue: Catalogue, named: Sequence[Path], every_held: bool, *, dry_run: bool = False
) -> tuple[list[str], list[str]]:
    """Record the pages ``named`` (and with ``every_held`` each held page) as read for the texts
    they cite now, and forget pages that cite nothing now. Returns what was confirmed (each page
    as shown) and each named page left, with why."""
    root = catalogue.root
    citing = {page.page: page for page in _pages(catalogue)}
    left: list[str] = []
    chosen: list[CitingPage] = []
    for path in named:
        key = Path(os.path.abspath(path)).relative_to(root / PAGES_DIR).as_posix()
        why = _not_to_confirm(citing.get(key), catalogue)
        if why is None:
            chosen.append(citing[key])
        else:
            left.append(f"{PAGES_DIR}/{key}: skipped: {why}")
    if every_held:
        chosen += [page for page in held_pages(catalogue) if page not in chosen]
    try:
        record = reviewed_record(root)
    except SourceError:
        record = {}
    record = {page: value for page, value in record.items() if page in citing}
    record.update({page.page: page.fingerprint(catalogue.rules) for page in chosen})
    text = record_text(record)
    path = root / REVIEWED_PAGES
    old = path.read_text(encoding="utf-8") if path.exists() else None
    if text != old and not dry_run:
        path.write_text(text, encoding="utf-8")
    return [page.shown for page in chosen], left


def _not_to_confirm(page: CitingPage | None, catalogue: Catalogue) -> str | None:
    """Why a page named is not confirmed (None: it is)."""
    if page is None:
        return "it cites no rule, so there is nothing to confirm"
    if not set(page.ids) <= catalogue.rules.ids():
        return "it cites a rule the index does not have; run schotten-oracle check"
    if not page.held(catalogue.rules):
        return "already read for the texts it cites"
    return None
