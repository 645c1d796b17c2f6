"""What the published catalogue as a whole must cover, besides each case being right.

``coverage.yaml`` says it, one line an ask: the rows of a topic's table that the pages' text
refers to by their place, every misreading caught, every cell of the grid of early claims, every
rule pinned in each version it holds in, every fact of a turn pinned, every pair of formations
judged, the combat modes claimed both ways and tied, every Tactic card used, played wrongly and
weighed in a proof, prose that agrees with its board, and how many cases at least the catalogue
has, refused boards among them and changed by each misreading. ``check``, the pytest plugin's
``coverage`` item and the site build report what the catalogue lacks through
:attr:`oracle.catalogue.Catalogue.coverage_problems`, each on a line that says where and what to
do: a property of the editors' catalogue is for its own gate to report, never a developer's test
(which would fail ``make test`` on a change to ``cases/`` that ``check`` accepts).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Protocol

import yaml

from engine import CombatMode, Formation, Termination
from oracle.casefile.model import RulesIndex
from oracle.casefile.source import shown_path
from oracle.casefile.vocabulary import CASES_DIR
from oracle.judges.misreadings import MISREADINGS
from oracle.misreadings.matrix import MatrixRow, Outcome
from oracle.problems import Problem
from oracle.sitepages import site_pages
from oracle.verify.dimensions import (
    TACTIC_USES,
    TURN_FACTS,
    mode_claims,
    rank_pairs,
    tactic_card_cases,
    turn_facts,
)
from oracle.verify.openings import Opening, early_claims_by_opening, opening_ceiling
from oracle.verify.prose import prose_contradictions
from oracle.verify.report import CaseReport

COVERAGE = "coverage.yaml"
"""What the published catalogue as a whole must cover (:func:`coverage_problems`). A project
without it (a fixture, a new project) asks for none of it."""

PAGES_DIR = "site_src"
"""The site's pages, whose text refers to rows and grids."""


class Covered(Protocol):
    """What the checks read of a catalogue (:class:`oracle.catalogue.Catalogue` is one)."""

    @property
    def root(self) -> Path: ...

    @property
    def rules(self) -> RulesIndex: ...

    @property
    def published(self) -> tuple[CaseReport, ...]: ...

    @property
    def matrix(self) -> tuple[MatrixRow, ...]: ...


Check = Callable[[Covered], list[Problem]]
"""One ask of :data:`COVERAGE`, bound to its line and value: what it finds missing."""


def coverage_problems(catalogue: Covered) -> list[Problem]:
    """A located line for each thing :data:`COVERAGE` asks of the published catalogue that it
    does not have, or for each entry of that file that cannot be read."""
    try:
        checks = coverage_asked(catalogue.root / COVERAGE)
    except ValueError as error:
        return [Problem(f"{COVERAGE}:{line}: {problem}") for line, problem in error.args]
    return [problem for check in checks for problem in check(catalogue)]


# ------------------------------------------------------------------------ reading coverage.yaml


def coverage_asked(path: Path) -> list[Check]:
    """``coverage.yaml`` read into its checks, each bound to its line, or a ValueError whose
    args are its (line, problem) pairs."""
    try:
        node = yaml.compose(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise ValueError((1, f"cannot be read: {error}")) from None
    if node is None:
        return []
    if not isinstance(node, yaml.MappingNode):
        raise ValueError((node.start_mark.line + 1, "must be a mapping of what is asked"))
    problems: list[tuple[int, str]] = []
    checks: list[Check] = []
    for key, value in node.value:
        line = key.start_mark.line + 1
        if key.value == "table-rows":
            checks += [
                partial(table_row_problems, topic=topic, rows=rows)
                for topic, rows in _table_rows(value, problems).items()
            ]
        elif key.value in FLAGS:
            if not (isinstance(value, yaml.ScalarNode) and value.value in ("true", "false")):
                problems.append((line, f"{key.value} is true or false"))
            elif value.value == "true":
                checks.append(partial(FLAGS[key.value], line=line))
        elif key.value in COUNTS:
            if not (isinstance(value, yaml.ScalarNode) and value.value.isdigit()):
                problems.append((line, f"{key.value} is a whole number"))
            else:
                checks.append(partial(COUNTS[key.value], line=line, least=int(value.value)))
        else:
            problems.append((line, f"unknown key {key.value!r}; known: {', '.join(KEYS)}"))
    if problems:
        raise ValueError(*problems)
    return checks


@dataclass(frozen=True)
class TableRow:
    """A row of a topic's table that the pages' text refers to by its place: the case that
    must stand there, the verdict of its (first) claim, and the line of ``coverage.yaml``."""

    place: int
    case_id: str
    verdict: str
    line: int


def _table_rows(
    node: yaml.Node, problems: list[tuple[int, str]]
) -> dict[str, tuple[TableRow, ...]]:
    """``table-rows:``: for each topic, the list of its first rows, each ``{case id: verdict}``."""
    shape = "table-rows maps a topic to its first rows, each written - case-id: granted|refused"
    if not isinstance(node, yaml.MappingNode):
        problems.append((node.start_mark.line + 1, shape))
        return {}
    found: dict[str, tuple[TableRow, ...]] = {}
    for topic, listed in node.value:
        if not isinstance(listed, yaml.SequenceNode):
            problems.append((topic.start_mark.line + 1, shape))
            continue
        rows = []
        for place, row in enumerate(listed.value, start=1):
            entry = (
                row.value[0] if isinstance(row, yaml.MappingNode) and len(row.value) == 1 else None
            )
            if entry is None or entry[1].value not in ("granted", "refused"):
                problems.append((row.start_mark.line + 1, shape))
                continue
            rows.append(TableRow(place, entry[0].value, entry[1].value, row.start_mark.line + 1))
        found[str(topic.value)] = tuple(rows)
    return found


# ------------------------------------------------------------------------ the checks


def table_row_problems(catalogue: Covered, topic: str, rows: Sequence[TableRow]) -> list[Problem]:
    """A located line for each row of ``topic``'s table that is not the case, or not the
    verdict, that ``coverage.yaml`` says the pages' text refers to by its place. A row whose
    case is not published at all (it does not load, is a draft, or was removed) is one line,
    and the rows after it are compared as moved up by one: one slip, one line."""
    table = [report for report in catalogue.published if report.case.topic == topic]
    published = {report.case.id for report in table}
    found, missing = [], 0
    for row in rows:
        if row.case_id not in published:
            missing += 1
            found.append(_row_not_published(row, topic))
            continue
        report = table[row.place - missing - 1] if row.place - missing <= len(table) else None
        if report is None or report.case.id != row.case_id:
            found.append(_row_out_of_place(catalogue, row, topic, report))
            continue
        checks = report.checks
        verdict = checks[0].verdict.verdict.label if checks else "no claim"
        if verdict != row.verdict:
            found.append(
                Problem(
                    f"{report.case.named_at(catalogue.root)}: row {row.place} of the {topic!r}"
                    f" table, which the pages' text reads as {row.verdict}"
                    f" ({COVERAGE}:{row.line}), is now {verdict}; rewrite what {PAGES_DIR}/ says"
                    f" of that row, then change it in {COVERAGE}",
                    file=report.case.path,
                    topic=topic,
                )
            )
    return found


def _row_not_published(row: TableRow, topic: str) -> Problem:
    return Problem(
        f"{COVERAGE}:{row.line}: row {row.place} of the {topic!r} table should be case"
        f" {row.case_id!r} ({row.verdict}), which the pages' text refers to by its place, but"
        f" no published case in {CASES_DIR}/{topic}/ has that id (check names what stops a"
        f" case that is there); add it, or rewrite what {PAGES_DIR}/ says of that row and"
        f" remove it here",
        topic=topic,
    )


def _row_out_of_place(
    catalogue: Covered, row: TableRow, topic: str, there: CaseReport | None
) -> Problem:
    stands = (
        f"it is {there.case.named_at(catalogue.root)}"
        if there is not None
        else "the table ends before it"
    )
    return Problem(
        f"{COVERAGE}:{row.line}: row {row.place} of the {topic!r} table should be case"
        f" {row.case_id!r} ({row.verdict}), which the pages' text refers to by its place, but"
        f" {stands}; name the case files so that they sort in this order, or rewrite what"
        f" {PAGES_DIR}/ says of that row and change it here",
        topic=topic,
    )


def uncaught_misreadings(rows: Sequence[MatrixRow], line: int, root: Path) -> list[Problem]:
    """A located line for each misreading no published case catches, or that no case that
    catches it names in its ``guards_against``."""
    found = []
    for name, reading in MISREADINGS.items():
        caught = [row.report.case for row in rows if row.outcomes[name] is Outcome.FLIPS]
        if not caught:
            found.append(
                Problem(
                    f"{COVERAGE}:{line}: no published case catches the misreading {name!r}"
                    f" ({reading.title}); write a case whose answers it would change, with"
                    f" guards_against: [{name}]"
                )
            )
        elif not any(name in case.guards_against for case in caught):
            first = caught[0]
            found.append(
                Problem.about(
                    first,
                    f"{first.named_at(root)} catches the misreading {name!r}, but no case says"
                    f" it guards against it ({COVERAGE}:{line}); add {name} to the"
                    f" guards_against of this case or of another that catches it",
                )
            )
    return found


def empty_opening_cells(catalogue: Covered, line: int) -> list[Problem]:
    """A located line for each cell of the grid of early claims (your formation against each
    opening of their side) without a published case granted, or refused where some completion
    of that opening can beat the formation."""
    seen: dict[tuple[Formation, Opening], set[str]] = defaultdict(set)
    for claim in early_claims_by_opening(catalogue.published):
        seen[claim.mine, claim.opening].add(claim.verdict)
    page = next(
        (
            uri
            for uri, text in site_pages(catalogue.root / PAGES_DIR).items()
            if "oracle:opening-grid" in text
        ),
        None,
    )
    shown = f" (the grid on {PAGES_DIR}/{page})" if page else ""
    found = []
    for formation in sorted(Formation, reverse=True):
        for opening in Opening:
            wanted = ["granted"]
            if formation <= opening_ceiling(opening):
                wanted.append("refused")
            for verdict in wanted:
                if verdict not in seen[formation, opening]:
                    found.append(
                        Problem(
                            f"{COVERAGE}:{line}: no published case claims a complete"
                            f" {formation.label()} of Clan cards, with no combat mode, against"
                            f" {opening.value} and is {verdict}{shown}; add such a claim to a"
                            f" case, e.g. in {CASES_DIR}/early-claims/"
                        )
                    )
    return found


def unpinned_rules(catalogue: Covered, line: int) -> list[Problem]:
    """A line for each rule or ruling no published case pins in a version of the game it holds
    in (an entry may say why one version cannot have such a case: ``unpinned_in``)."""
    pinned: defaultdict[str, set[str]] = defaultdict(set)
    for report in catalogue.published:
        for rule in report.case.rules:
            pinned[rule].add(report.case.variant)
    index = shown_path(catalogue.rules.path, catalogue.root)
    return [
        Problem(
            f"{index}:{entry.line}: no published {variant} case pins {entry.id} ({COVERAGE}:"
            f"{line}); add {entry.id} to the rules: of a {variant} case that relies on it, or"
            f" write one"
        )
        for entry in catalogue.rules.entries
        for variant in entry.must_be_pinned_in()
        if variant not in pinned[entry.id]
    ]


ENDINGS_OF_BOTH = ("none", Termination.FIVE_STONES.value, Termination.THREE_ADJACENT_STONES.value)
"""The endings a turn can reach in both versions (a blocked game never arises in the base game:
see the ruling on it)."""


def unpinned_turn_facts(catalogue: Covered, line: int) -> list[Problem]:
    """A line for each fact of a turn (who won, the ending, the stones held, who is next) and
    each ending of both versions that no published turn pins, in each version."""
    seen = {
        (report.case.variant, fact) for report in catalogue.published for fact in turn_facts(report)
    }
    found = []
    wanted = [*TURN_FACTS, *(f"ending: {ending}" for ending in ENDINGS_OF_BOTH)]
    for variant in ("base", "tactics"):
        for fact in wanted:
            if (variant, fact) not in seen:
                found.append(
                    Problem(
                        f"{COVERAGE}:{line}: no published {variant} case's turn pins {fact};"
                        f" pin it under the expect: of a turn in a {variant} case"
                    )
                )
    return found


def unjudged_formation_pairs(catalogue: Covered, line: int) -> list[Problem]:
    """A line for each ordered pair of formations of Clan cards that no published claim pits
    against each other, and for equal formations not both granted and refused (the total
    decides them)."""
    seen: defaultdict[tuple[Formation, Formation], set[str]] = defaultdict(set)
    for pair in rank_pairs(catalogue.published):
        seen[pair.mine, pair.theirs].add(pair.verdict)
    order = sorted(Formation, reverse=True)
    found = [
        Problem(
            f"{COVERAGE}:{line}: no published case claims a complete {mine.label()} against a"
            f" complete {theirs.label()} of Clan cards, with no combat mode; add such a claim,"
            f" e.g. in {CASES_DIR}/formations/"
        )
        for mine in order
        for theirs in order
        if not seen[mine, theirs]
    ]
    equal = set().union(*(seen[formation, formation] for formation in Formation))
    found += [
        Problem(
            f"{COVERAGE}:{line}: no published claim between equal formations is {verdict};"
            f" add one where the totals decide it that way"
        )
        for verdict in ("granted", "refused")
        if verdict not in equal
    ]
    return found


def unclaimed_combat_modes(catalogue: Covered, line: int) -> list[Problem]:
    """A line for each combat mode not claimed early (before the other side is complete) both
    granted and refused, or never weighed as a tie."""
    claims = mode_claims(catalogue.published)
    found = []
    for mode in CombatMode:
        verdicts = {claim.verdict for claim in claims if claim.mode is mode and claim.early}
        for verdict in ("granted", "refused"):
            if verdict not in verdicts:
                found.append(
                    Problem(
                        f"{COVERAGE}:{line}: no published case claims a complete side under"
                        f" {mode.label} before the other side is complete and is {verdict};"
                        f" add such a claim to a case"
                    )
                )
        if not any(claim.tie for claim in claims if claim.mode is mode):
            found.append(
                Problem(
                    f"{COVERAGE}:{line}: no published claim under {mode.label} is decided by"
                    f" a tie; add one whose reason weighs a tie"
                )
            )
    return found


TACTIC_USE_WORDS = {
    "legal": "plays {} legally",
    "illegal": "refuses a move of {}",
    "proof": "weighs {} in a claim's proof",
}
"""Each use of :data:`TACTIC_USES` as a problem line says it."""


def unused_tactic_cards(catalogue: Covered, line: int) -> list[Problem]:
    """A line for each Tactic card no published case plays legally, refuses, or weighs in a
    proof."""
    return [
        Problem(
            f"{COVERAGE}:{line}: no published case {TACTIC_USE_WORDS[use].format(name)}; add"
            f" such a case"
        )
        for name, uses in tactic_card_cases(catalogue.published).items()
        for use in TACTIC_USES
        if not uses[use]
    ]


def contradicting_prose(catalogue: Covered, line: int) -> list[Problem]:
    """A line for each thing a published case's situation or why says of its board that the
    board contradicts."""
    return [
        Problem.about(
            report.case,
            f"{report.case.named_at(catalogue.root)}: the situation or why contradicts the"
            f" board: {phrase} ({COVERAGE}:{line}); correct the words or the board",
        )
        for report in catalogue.published
        for phrase in prose_contradictions(report.case)
    ]


def too_few_cases(catalogue: Covered, line: int, least: int) -> list[Problem]:
    """A line when the catalogue publishes fewer cases than asked."""
    published = len(catalogue.published)
    if published >= least:
        return []
    return [
        Problem(
            f"{COVERAGE}:{line}: the catalogue publishes {published} cases, fewer than the"
            f" {least} asked; write more, or lower the number here"
        )
    ]


def misreadings_caught_too_rarely(catalogue: Covered, line: int, least: int) -> list[Problem]:
    """A line for each misreading that changes the answers of fewer published cases than asked:
    a misreading pinned by one case alone is lost the day that case is rewritten."""
    found = []
    for name, reading in MISREADINGS.items():
        caught = sum(row.outcomes[name] is Outcome.FLIPS for row in catalogue.matrix)
        if 0 < caught < least:  # none at all is every-misreading-caught's to say
            found.append(
                Problem(
                    f"{COVERAGE}:{line}: the misreading {name!r} ({reading.title}) changes the"
                    f" answers of {caught} published case{'s' if caught != 1 else ''}, fewer than"
                    f" the {least} asked; write another whose answers it would change, with"
                    f" guards_against: [{name}]"
                )
            )
    return found


def too_few_refused_boards(catalogue: Covered, line: int, least: int) -> list[Problem]:
    """A line when fewer boards the engine refuses are published than asked, and one for each
    that refuses with the words of an earlier one at the same moment of a turn (it guards
    nothing of its own)."""
    refused = [r for r in catalogue.published if r.case.impossible is not None]
    found = []
    if len(refused) < least:
        found.append(
            Problem(
                f"{COVERAGE}:{line}: the catalogue publishes {len(refused)} boards the engine"
                f" refuses, fewer than the {least} asked; write more in"
                f" {CASES_DIR}/impossible-boards/, or lower the number here"
            )
        )
    first: dict[object, CaseReport] = {}
    for report in refused:
        board = report.case.impossible
        assert board is not None
        earlier = first.setdefault((board.refusal, board.board.table), report)
        if earlier is not report:
            found.append(
                Problem.about(
                    report.case,
                    f"{report.case.named_at(catalogue.root)}: refused in the same words, at"
                    f" the same moment of a turn, as case {earlier.case.id!r} ({COVERAGE}:"
                    f"{line}); make it guard a refusal of its own, or remove it",
                )
            )
    return found


FLAGS: dict[str, Callable[..., list[Problem]]] = {
    "every-misreading-caught": lambda catalogue, line: uncaught_misreadings(
        catalogue.matrix, line, catalogue.root
    ),
    "every-opening-grid-cell": empty_opening_cells,
    "every-rule-pinned": unpinned_rules,
    "every-turn-fact-pinned": unpinned_turn_facts,
    "every-formation-pair": unjudged_formation_pairs,
    "combat-modes-claimed": unclaimed_combat_modes,
    "every-tactic-card-used": unused_tactic_cards,
    "prose-agrees-with-board": contradicting_prose,
}
"""The asks written ``key: true``, each a check of ``(catalogue, line)``."""

COUNTS: dict[str, Callable[..., list[Problem]]] = {
    "at-least-cases": too_few_cases,
    "at-least-refused-boards": too_few_refused_boards,
    "cases-per-misreading": misreadings_caught_too_rarely,
}
"""The asks written ``key: N``, each a check of ``(catalogue, line, least)``."""

KEYS = ("table-rows", *FLAGS, *COUNTS)
"""Every key :data:`COVERAGE` knows."""


__all__ = [
    "COVERAGE",
    "KEYS",
    "Covered",
    "TableRow",
    "coverage_asked",
    "coverage_problems",
]
