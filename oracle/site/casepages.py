"""One page per published case: the board diagram, the engine's reasoning, the rules it checks
and the case file itself. The verdict tables link every row to its case's page.
"""

from __future__ import annotations

import base64
import json
import posixpath
import re
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import Reason, card_name
from oracle.casefile.model import Case, RulesIndex
from oracle.casefile.questions import DEAL, IMPOSSIBLE, MATCH, PLAYS, TURN, QuestionKind
from oracle.site.boards import board_html, written_board_html
from oracle.site.markup import HELD, HELD_LIST, HELD_PLACE, Markup, code_block, site_link
from oracle.verify.questions import LONG_TURN
from oracle.verify.report import CaseReport

if TYPE_CHECKING:  # the site's browser pages import this module without Jinja
    import jinja2

CASE_PAGES_DIR = "cases"
ASK_PAGE = "ask.html"
"""The built page that judges any board in the browser; a case page links its board there."""


@dataclass(frozen=True)
class Since:
    """Since when a case's answer stands, and what set it then (:mod:`oracle.site.history`)."""

    date: str
    cause: str


def case_page_uri(case: Case) -> str:
    """Where a case's page lives in the site: ``cases/TOPIC/ID.md``."""
    return f"{CASE_PAGES_DIR}/{case.topic}/{case.id}.md"


def link_from(page_uri: str, target_uri: str) -> Markup:
    """A relative link from one page of the site to another (both as source paths)."""
    fragment = ""
    if "#" in target_uri:
        target_uri, fragment = target_uri.split("#", 1)
        fragment = "#" + fragment
    return site_link(_relative(target_uri, posixpath.dirname(page_uri) or ".") + fragment)


@lru_cache(maxsize=4096)
def _relative(target: str, folder: str) -> str:
    """``target`` relative to ``folder``, both paths in the site (kept once worked out: the
    pages of a folder link to the same few pages)."""
    return posixpath.relpath(target, folder)


FILTER_WORDS: tuple[tuple[QuestionKind[Any], str], ...] = (
    (IMPOSSIBLE, "impossible board"),
    (TURN, "turn"),
    (PLAYS, "moves"),
    (DEAL, "deal"),
    (MATCH, "match"),
)
"""The word a table filters a case by: that of the first kind in this list the case asks (a
case that only claims stones is filtered by its verdict instead)."""


def answer_kind(report: CaseReport) -> str:
    """What a case's answer is, for filtering a table: granted, refused, or the question asked."""
    case = report.case
    if case.asks_about_claims_only:
        verdicts = {check.verdict.verdict.label for check in report.checks}
        return verdicts.pop() if len(verdicts) == 1 else "mixed"
    return next(word for kind, word in FILTER_WORDS if kind.asked_by(case))


def table_data(reports: tuple[CaseReport, ...]) -> str:
    """The rows' facts a table's script filters on, as JSON (for an HTML attribute), in row
    order."""
    rows = [
        {
            "id": report.case.id,
            "answer": answer_kind(report),
            "variant": report.case.position.variant.name,
            "topic": report.case.topic,
        }
        for report in reports
    ]
    return json.dumps(rows, separators=(",", ":"))


@dataclass(frozen=True)
class Answer:
    """One answer of the engine on a case page: a heading and its explanation lines."""

    title: str
    lines: tuple[str, ...]


def answers(report: CaseReport) -> tuple[Answer, ...]:
    """The engine's reasoning in words, question by question."""
    shown = []
    for check in report.checks:
        verdict = check.verdict
        lines = [verdict.explanation[:1].upper() + verdict.explanation[1:] + "."]
        if verdict.reason is Reason.WITNESS:
            lines.append("Witness: " + ", ".join(card_name(card) for card in verdict.witness) + ".")
        shown.append(Answer(f"Stone {verdict.stone}: {verdict.verdict.label}", tuple(lines)))
    board = report.case.impossible
    if board is not None:  # its one answer: the engine's refusal, and the line it points at
        if board.refusal is None:
            return (
                Answer("The engine accepts this board", ("It builds the board and its game.",)),
            )
        lines = [sentence_of(board.refusal)]
        if board.refusal_line is not None:
            lines.append(f"It objects to line {board.refusal_line} of the case file.")
        return (Answer("The engine refuses this board", tuple(lines)),)
    for game_check in report.game_checks:
        if not game_check.label:
            continue
        if game_check.what == "the turn":
            steps = tuple(game_check.actual.split(" → "))
            shown.append(Answer("What happens", steps))
        else:
            details = tuple(line[:1].upper() + line[1:] for line in game_check.detail)
            shown.append(Answer(game_check.label[:1].upper() + game_check.label[1:], details))
    return tuple(shown)


def sentence_of(text: str) -> str:
    """The engine's words as a sentence: a capital first, one full stop at the end."""
    text = " ".join(text.split()).rstrip(".")
    return text[:1].upper() + text[1:] + "."


@dataclass(frozen=True)
class RuleShown:
    """A rule or ruling a case checks, with a link when the rulings page explains it."""

    title: str
    text: str
    link: Markup | None


BOARD_SLOT = Markup('<div class="oracle-board-slot"></div>')
"""Where a case page's Markdown holds its board until the page is converted: the board is raw
HTML, which Markdown passes through as written, so it is put in after the conversion
(:meth:`CasePageSource.with_board`). Markdown then never parses the board, the largest part of
the page (twice: its raw HTML block and MkDocs' anchor scan), and the page comes out the same."""


@dataclass(frozen=True)
class CasePageSource:
    """A case page's Markdown with its board held apart (:data:`BOARD_SLOT`), and the board; and
    with the texts its template printed held apart too, each in a placeholder
    (:func:`oracle.site.markup.held_text`), and those texts in order."""

    markdown: str
    board: Markup
    held: tuple[str, ...] = ()

    @property
    def whole(self) -> str:
        """The page's Markdown with the board and texts in their places, as another site
        generator takes it."""
        return self._unheld(self.markdown).replace(BOARD_SLOT, self.board, 1)

    def converted(self, html: str) -> str:
        """The page's HTML, converted from :attr:`markdown`, with its texts in their places
        (each placeholder is once in the page: Markdown copies no paragraph or list item)."""
        return self._unheld(html)

    def with_board(self, html: str) -> str:
        """The page's HTML, converted from :attr:`markdown`, with the board and the texts in
        their places."""
        html = self.converted(html)
        if html.count(BOARD_SLOT) != 1:
            raise ValueError("the converted case page does not hold its board's place once")
        return html.replace(BOARD_SLOT, self.board, 1)

    def _unheld(self, page: str) -> str:
        if not self.held:
            return page
        seen: set[int] = set()

        def put(found: re.Match[str]) -> str:
            seen.add(int(found[1]))
            return self.held[int(found[1])]

        page, count = HELD_PLACE.subn(put, page)
        if count != len(self.held) or len(seen) != len(self.held):
            raise ValueError("the case page does not hold each of its held texts' places once")
        return page


_NOT_HELD_LINE = re.compile(r"^(?:[ \t]*(?:#|\?\?\?|!!!|[=-]+[ \t]*$)|    |\t)")
"""A line whose text Markdown may read otherwise than as a paragraph's or a list item's: a
heading (its id, the page's title and table of contents are made of its text), a note's title,
a line under which another makes it a heading, an indented line (which may be code)."""


def rendered_holding(template: jinja2.Template, **values: object) -> tuple[str, tuple[str, ...]]:
    """The page's Markdown ``template`` renders with ``values``, its texts held apart but on the
    lines that are not a paragraph's or list item's, and the texts held, in order. Where the
    Markdown holds a placeholder's name the template did not print, nothing is held."""
    held: list[str] = []
    markdown = template.render({HELD_LIST: held}, **values)
    numbers = [int(found[1]) for found in HELD_PLACE.finditer(markdown)]
    if markdown.count(HELD) != len(held) or numbers != list(range(len(held))):
        return template.render(**values), ()
    lines = markdown.split("\n")
    kept: list[str] = []

    def place(found: re.Match[str]) -> str:
        kept.append(held[int(found[1])])
        return f"{HELD}{len(kept) - 1:06d}z"

    def put_back(found: re.Match[str]) -> str:
        return held[int(found[1])]

    front_matter = lines.index("---", 1) if lines[0] == "---" and "---" in lines[1:] else -1
    for number, line in enumerate(lines):
        if HELD not in line:
            continue
        following = lines[number + 1] if number + 1 < len(lines) else ""
        if number <= front_matter or _NOT_HELD_LINE.match(line) or _NOT_HELD_LINE.match(following):
            lines[number] = HELD_PLACE.sub(put_back, line)
        else:
            lines[number] = HELD_PLACE.sub(place, line)
    return "\n".join(lines), tuple(kept)


def render_case_page_source(
    report: CaseReport,
    source: str,
    rules: RulesIndex,
    template: jinja2.Template,
    topic_pages: dict[str, str],
    root: Path | None = None,
    since: Since | None = None,
) -> CasePageSource:
    """The Markdown of a case's page, rendered with the ``case_page.md.j2`` ``template``, with
    its board held apart until the page is converted; ``source`` is the case file's text as the
    catalogue read it; ``since`` says since when its answer stands, where that is known."""
    case = report.case
    page = case_page_uri(case)
    witness = frozenset(card for check in report.checks for card in check.verdict.witness)
    board = (
        board_html(
            case.position,
            claimed=case.claimed_stones,
            witness=witness,
            their_hand=case.table.their_hand if case.table else None,
        )
        if case.impossible is None
        else written_board_html(case.impossible.board)  # no position of it can be built
    )
    entries = {entry.id: entry for entry in rules.entries}
    checked = tuple(
        RuleShown(
            entries[rule_id].title,
            entries[rule_id].text,
            link_from(page, f"rulings.md#{rule_id.replace('.', '-')}")
            if entries[rule_id].is_ruling
            else None,
        )
        for rule_id in case.rules
        if rule_id in entries
    )
    topic_page = topic_pages.get(case.topic)
    summary = f"The engine's answer: {report.verdict_label}. Why: {case.why.rstrip('.')}."
    ask_link = site_link(
        _relative(ASK_PAGE, posixpath.dirname(page) or ".") + "#" + ask_fragment(source)
    )
    markdown, held = rendered_holding(
        template,
        case=case,
        summary=summary,
        board=BOARD_SLOT,
        answers=answers(report),
        rules=checked,
        topic_link=link_from(page, topic_page) if topic_page else None,
        source=code_block(source, "yaml"),
        file=str(case.path.relative_to(root)) if root else case.path.name,
        ask_link=ask_link,
        since=since,
        long_turn=LONG_TURN,
    )
    return CasePageSource(markdown, board, held)


ASK_LINK_VERSION = 2
"""The version of the links that carry a case to the "Ask the engine" page, named by the key
after ``#``: ``#v2=`` holds the text raw-deflated (as the browser's ``DecompressionStream``
reads it), then in base64url, so a link is about half as long; version 1, ``#case=`` and the
text in base64url, still opens."""


def ask_fragment(text: str) -> str:
    """The part after ``#`` of a link that opens a case file's text on the Ask page."""
    squeezer = zlib.compressobj(9, zlib.DEFLATED, -15)
    squeezed = squeezer.compress(text.encode("utf-8")) + squeezer.flush()
    code = base64.urlsafe_b64encode(squeezed).decode("ascii").rstrip("=")
    return f"v{ASK_LINK_VERSION}={code}"


def case_text_of_fragment(fragment: str) -> str:
    """The case file's text a link's fragment carries, in either version (for tests and tools;
    the Ask page reads it in its own script). Raises ``ValueError`` on a damaged fragment."""
    key, _, code = fragment.removeprefix("#").partition("=")
    raw = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    if key == "case":
        return raw.decode("utf-8")
    if key == f"v{ASK_LINK_VERSION}":
        return zlib.decompress(raw, -15).decode("utf-8")
    raise ValueError(f"a link of version {key!r}; this site reads case= (1) and v2=")
