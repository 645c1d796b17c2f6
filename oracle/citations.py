"""Pages that state a rule by citing it, and the record of what each page was last read for.

A page of the site states a rule or ruling with a line ``<!-- oracle:rule ID -->``, which the
build renders from the rules index (its title, its text and a link to it on the Rulings page),
so that no page types a rule again. Prose around a citation may still lean on the rule's
words, so a page citing rules is read again whenever a cited text changes, as a case is: the
record :data:`REVIEWED_PAGES`, kept beside the rules index and written only by ``schotten-oracle
pin --reviewed PAGE`` (or ``--all-held``), holds for each such page a fingerprint of the texts it
was last read for. ``check``, the tests and the build refuse a page whose cited texts changed
since, or that was never read for them.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from oracle.casefile.model import RulesIndex
from oracle.casefile.source import SourceError, parse_yaml, read_text

REVIEWED_PAGES = "rules/reviewed-pages.yaml"
"""The record of the pages citing rules: each page's path under the site's folder, and the
fingerprint of the cited texts it was last read for."""

PAGES_FOLDER = "site_src"
"""The site's pages (as :data:`oracle.catalogue.PAGES_DIR`)."""

CITATION = re.compile(r"^[ \t]*<!--\s*oracle:rule(?:\s+(\S+?))?\s*-->[ \t]*$", re.MULTILINE)
"""A citation of a rule, on a line of its own: ``<!-- oracle:rule formations.tie-break -->``."""

HEADER = (
    "# The pages of the site that cite rules (<!-- oracle:rule ID -->), each with the\n"
    "# fingerprint of the cited titles and texts an editor last read the page for. Written by\n"
    "# schotten-oracle pin --reviewed PAGE (or --reviewed --all-held); do not edit by hand.\n"
)


@dataclass(frozen=True)
class CitingPage:
    """A page that cites rules: its path under the site's folder, each rule id cited with its
    line, and the fingerprint its editor last confirmed (None: never)."""

    page: str
    cited: tuple[tuple[str, int], ...]
    reviewed: str | None

    @property
    def shown(self) -> str:
        """The page's path as the editor types it, from the project's folder."""
        return f"{PAGES_FOLDER}/{self.page}"

    @property
    def ids(self) -> tuple[str, ...]:
        """The rule ids cited, each once, in page order."""
        return tuple(dict.fromkeys(rule_id for rule_id, _ in self.cited))

    def fingerprint(self, rules: RulesIndex) -> str:
        """The fingerprint of the cited rules' titles and texts as the index words them now."""
        return cited_fingerprint(self.ids, rules)

    def held(self, rules: RulesIndex) -> bool:
        """Whether the page waits for an editor: never confirmed, or a cited text changed."""
        return self.reviewed != self.fingerprint(rules)


def cited_fingerprint(ids: tuple[str, ...], rules: RulesIndex) -> str:
    """A short fingerprint of the titles and texts of the rules ``ids``, as in ``rules``."""
    entries = [rules.entry(rule_id) for rule_id in sorted(set(ids))]
    read = [[" ".join(e.title.split()), " ".join(e.text.split())] for e in entries if e]
    canonical = json.dumps(read, ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:8]


def citations(page_text: str) -> tuple[tuple[str, int], ...]:
    """Each rule id a page cites, with its line (an empty id as the empty text)."""
    return tuple(
        ((match.group(1) or ""), page_text.count("\n", 0, match.start()) + 1)
        for match in CITATION.finditer(page_text)
    )


def reviewed_record(root: Path) -> dict[str, str]:
    """The record of :data:`REVIEWED_PAGES` (empty when there is none); :class:`SourceError`
    when it cannot be read, or is not a mapping of page paths to fingerprints."""
    path = root / REVIEWED_PAGES
    if not path.exists():
        return {}
    text = read_text(path, what="the record of reviewed pages")
    if all(not line.strip() or line.lstrip().startswith("#") for line in text.splitlines()):
        return {}  # no page cites a rule yet: the record is its comments only
    data = parse_yaml(text, path).data
    if not isinstance(data, dict) or not all(
        isinstance(key, str) and isinstance(value, str) for key, value in data.items()
    ):
        raise SourceError(
            path,
            1,
            "each line names a page and its fingerprint (page.md: 1a2b3c4d); write it again with"
            " schotten-oracle pin --reviewed --all-held",
        )
    return dict(data)


def citing_pages(pages: Mapping[str, str], record: Mapping[str, str]) -> tuple[CitingPage, ...]:
    """Each page (text by its path under the site's folder) that cites a rule."""
    found = []
    for page, text in sorted(pages.items()):
        cited = citations(text)
        if cited:
            found.append(CitingPage(page, cited, record.get(page)))
    return tuple(found)


def citation_problems(
    pages: Mapping[str, str], rules: RulesIndex, root: Path
) -> list[tuple[str, str | None]]:
    """One located line for each citation of a rule the index does not have, each page held
    (never read for the texts it cites, or read for other texts), and each recorded page that
    cites nothing now; with the path of the page each is about (None: the record's)."""
    try:
        record = reviewed_record(root)
    except SourceError as error:
        return [(line, None) for line in error.lines_from(root)]
    found: list[tuple[str, str | None]] = []
    known = rules.ids()
    citing = citing_pages(pages, record)
    for page in citing:
        for rule_id, line in page.cited:
            if rule_id not in known:
                close = difflib.get_close_matches(rule_id, sorted(known), n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                found.append(
                    (
                        f"{page.shown}:{line}: cites rule {rule_id!r}, which is not in the rules"
                        f" index{hint} (write <!-- oracle:rule ID --> with an id of"
                        " rules/index.yaml)",
                        page.page,
                    )
                )
        if not any(rule_id not in known for rule_id in page.ids) and page.held(rules):
            found.append((held_line(page), page.page))
    listed = {page.page for page in citing}
    for stale in sorted(set(record) - listed):
        found.append(
            (
                f"{REVIEWED_PAGES}: {PAGES_FOLDER}/{stale} cites no rule now; run"
                " schotten-oracle pin --reviewed --all-held to write the record again",
                None,
            )
        )
    return found


def held_line(page: CitingPage) -> str:
    """The located line of a held page: what it cites, and what to do."""
    first = page.cited[0][1]
    cited = ", ".join(page.ids)
    why = (
        f"was never read for the texts of the rules it cites ({cited})"
        if page.reviewed is None
        else f"cites rules ({cited}) of which a title or text changed since the page was last"
        " read for them"
    )
    return (
        f"{page.shown}:{first}: {why}; read the page again, then run"
        f" schotten-oracle pin --reviewed {page.shown}"
    )


def record_text(record: Mapping[str, str]) -> str:
    """The record's file: its header, then a line per page, in page order."""
    lines = [f"{page}: {json.dumps(fingerprint)}" for page, fingerprint in sorted(record.items())]
    return HEADER + "".join(f"{line}\n" for line in lines)
