"""Turn case files into the typed model, or into one-line located errors.

The order of checks: YAML that is safe and well formed, then the JSON Schema (keys, types, enums),
then the cards and the position (the engine's own checks: a card twice, a side over capacity, a
missing completion order), then what only a case can get wrong (a claim on a claimed stone, an
unknown rule id). A case is read from a file of the case folder (:func:`load_cases`,
:func:`load_case`) or from its text (:func:`load_case_text`, which the browser's pages and the
conformance adapter use): the same checks, the same messages.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from engine import Position, PositionError, variant_named
from oracle.casefile import questions
from oracle.casefile.board import read_board, read_table, written_board
from oracle.casefile.entries import case_entries, case_file_problem, plain_file_problem
from oracle.casefile.errors import CaseError, EngineObjection
from oracle.casefile.model import Case, ImpossibleBoard, RulesIndex, Table
from oracle.casefile.questions import (
    IMPOSSIBLE,
    answers_fingerprint,
    check_prose_written,
    check_reasons_pinned,
    pinned_words,
    read_guards,
    read_rules,
    read_twin,
)
from oracle.casefile.source import LocatedDocument, SourceError, parse_yaml, read_text, shown_path
from oracle.casefile.validation import fits_where_changed, validate
from oracle.casefile.vocabulary import PLAYERS


def load_case(path: Path, rules: RulesIndex | None = None) -> Case:
    """Read one case file into a :class:`Case`, or raise :class:`CaseError` with file and line.

    With ``rules``, every pinned rule id must exist in the index.
    """
    try:
        text = read_text(path)
    except SourceError as error:
        raise CaseError(error.path, error.line, error.problem, error.others) from None
    return load_case_text(text, path, rules)


def load_case_text(text: str, path: Path, rules: RulesIndex | None = None) -> Case:
    """Read a case from its text, as if from ``path`` (which names it in messages and gives its
    topic): the steps of :func:`load_case` from the YAML on. The steps: validate the YAML,
    build the position, then the claims, the table, the other questions, and check the names
    the case uses (misreadings, rule ids)."""
    return case_of_document(read_case_document(text, path), text, rules)


def case_of_document(document: LocatedDocument, text: str, rules: RulesIndex | None) -> Case:
    """The case in ``document``, read from ``text`` by :func:`read_case_document`: every step of
    :func:`load_case_text` after the YAML and its schema."""
    data = document.data
    if IMPOSSIBLE.key in data:
        return _impossible_case(document, rules, text)
    board = read_board(document)
    asking = [kind for kind in questions.QUESTION_KINDS if kind.key in data]
    # each kind in the registry's order: the first problem is told
    asked = {kind.key: kind.read(document, board) for kind in asking}
    for kind in asking:
        kind.check_table(document)
    table = read_table(document, board, any(kind.plays_moves for kind in asking))
    guards = read_guards(document)
    pinned = read_rules(document, rules)
    check_reasons_pinned(document)
    check_prose_written(document)
    return Case(
        id=data["id"],
        path=document.path,
        line=document.line_of(("id",)),
        situation=data["situation"].strip(),
        why=data["why"].strip(),
        draft=bool(data.get("draft", False)),
        reviewed=data.get("reviewed"),
        answers_fingerprint=answers_fingerprint(document, rules),
        position=board.position,
        asked=asked,
        rules=pinned,
        table=table,
        guards_against=guards,
        twin_of=read_twin(document),
        played_first=tuple(
            (raw["stone"], PLAYERS[raw["played_first"]])
            for raw in data["position"]["stones"]
            if "played_first" in raw
        ),
        text=text,
    )


def read_case_document(text: str, path: Path) -> LocatedDocument:
    """The case's YAML, validated against the case schema, that asks something."""
    try:
        document = parse_yaml(text, path)
    except SourceError as error:
        raise CaseError(error.path, error.line, error.problem, error.others) from None
    return checked_document(document)


def checked_document(
    document: LocatedDocument, changed: Collection[str] | None = None
) -> LocatedDocument:
    """``document`` against the case schema, asking something, its position filled in (no
    stones, where it names none): :func:`read_case_document` once the YAML is read. With
    ``changed``, ``document`` is one that passed this check with only those top-level values
    set or removed since, and the schema looks at them alone while they fit
    (:func:`~oracle.casefile.validation.fits_where_changed`)."""
    schema = questions.case_validator()
    if changed is None or not fits_where_changed(schema, document.data, changed):
        validate(document, schema)
    data = document.data
    if not any(kind.key in data for kind in questions.QUESTION_KINDS):
        *others, last = [kind.key for kind in questions.exported_kinds()]
        raise CaseError(
            document.path,
            document.line_of(("id",)),
            f"the case asks nothing: add {', '.join(others)} or {last}",
        )
    data.setdefault("position", {"stones": []})
    data["position"].setdefault("stones", [])
    return document


def _impossible_case(document: LocatedDocument, rules: RulesIndex | None, text: str) -> Case:
    """A case whose board cannot happen (``impossible:``): the board and its table are built as
    for any case, and the engine's refusal (or its acceptance) is kept for
    :func:`oracle.verify.replay.verify_case` to compare with the refusal pinned.

    Only the engine's own checks count as a refusal (:class:`EngineObjection`: the position,
    its reachability, the table's game). A mistake in the file itself, such as YAML that does
    not parse, an unknown card or key, or a check of the loader's own (a card written twice in
    the table, the Tactic count), still fails loudly at its line, as in any case.
    """
    data = document.data
    others = [kind.key for kind in questions.QUESTION_KINDS if kind.key in data]
    others.remove(IMPOSSIBLE.key)
    if others:
        raise CaseError(
            document.path,
            document.line_of((others[0],)),
            f"a board the engine must refuse asks nothing else: the refusal comes before any"
            f" question, so remove {others[0]} (or impossible)",
        )
    written = written_board(document)
    position = Position(variant=variant_named(data["variant"]))
    table: Table | None = None
    refusal: EngineObjection | None = None
    try:
        board = read_board(document)
        table = read_table(document, board)
        position = board.position
    except EngineObjection as objection:
        refusal, table = objection, None
    pinned = data[IMPOSSIBLE.key]
    check_prose_written(document)
    return Case(
        id=data["id"],
        path=document.path,
        line=document.line_of(("id",)),
        situation=data["situation"].strip(),
        why=data["why"].strip(),
        draft=bool(data.get("draft", False)),
        reviewed=data.get("reviewed"),
        answers_fingerprint=answers_fingerprint(document, rules),
        position=position,
        asked={
            IMPOSSIBLE.key: ImpossibleBoard(
                expected=pinned_words(pinned) if isinstance(pinned, str) else None,
                line=document.line_of((IMPOSSIBLE.key,)),
                refusal=None if refusal is None else str(refusal.objection),
                refusal_line=None if refusal is None else refusal.line,
                board=written,
            )
        },
        rules=read_rules(document, rules),
        table=table,
        guards_against=read_guards(document),
        text=text,
    )


@dataclass(frozen=True)
class CaseCollection:
    """All case files of a directory: those that loaded, and an error for each one that did not."""

    cases: tuple[Case, ...]
    errors: tuple[CaseError, ...]
    entries: tuple[tuple[Path, Case | CaseError], ...] = ()
    """Every entry in table order, with its case or its error."""


def load_cases(
    directory: Path,
    rules: RulesIndex | None = None,
    root: Path | None = None,
    read: ReadCases | None = None,
) -> CaseCollection:
    """Load every case under ``directory``; nothing is skipped: each entry is a case or an error.
    A file whose text ``read`` has read before is not read again (without it, every file is).

    An id used by several files is an error on each of them, naming the others.
    """
    read = read or ReadCases()
    read.check()
    results = [
        (entry.path, entry.error or read.case_or_error(entry.path, rules))
        for entry in case_entries(directory)
    ]
    by_id: dict[str, list[Case]] = {}
    for _, result in results:
        if isinstance(result, Case):
            by_id.setdefault(result.id, []).append(result)
    entries: list[tuple[Path, Case | CaseError]] = []
    for path, result in results:
        if isinstance(result, Case) and len(by_id[result.id]) > 1:
            others = [other for other in by_id[result.id] if other is not result]
            result = duplicate_id_error(result, others, root)
        entries.append((path, result))
    return CaseCollection(
        tuple(result for _, result in entries if isinstance(result, Case)),
        tuple(result for _, result in entries if isinstance(result, CaseError)),
        tuple(entries),
    )


Statements = frozenset[tuple[str, str, str]]
"""Each rule's id, title and text (:meth:`RulesIndex.statements`)."""


class ReadCases:
    """The cases read so far, by their text and the rules they were checked against (each
    rule's id, title and text: a case's fingerprint holds the texts of the rules it pins), kept by
    whoever owns this (a catalogue, and whoever builds catalogues again: a test session, say).
    A case depends on nothing else but its path, which only names it, so a catalogue built
    again with the same owner reads again only the files that changed. Whoever patches the
    engine reads with a new one."""

    LIMIT = 20_000
    """Cases beyond which everything kept is forgotten (a long session of edits)."""

    def __init__(self) -> None:
        self.by_text: dict[tuple[str, Statements | None], Case] = {}
        self.placed: dict[tuple[str, Statements | None, Path], Case] = {}
        """The same cases by their path too, so that a file read again is the very same case."""
        self.first: dict[int, Case] = {}
        """For a case read from a copy of a file read before elsewhere: the case first read."""
        self._known_statements: tuple[RulesIndex, Statements] | None = None

    def check(self) -> None:
        """Forget everything once too much is kept."""
        if len(self.placed) >= self.LIMIT:
            self.by_text.clear()
            self.placed.clear()
            self.first.clear()

    def _statements(self, rules: RulesIndex) -> Statements:
        """``rules.statements()``, made once for the index the cases are read against: every
        case's key holds the same one, not a copy of its own (some 7 KB a case)."""
        known = self._known_statements
        if known is None or known[0] is not rules:
            known = self._known_statements = (rules, rules.statements())
        return known[1]

    def case_or_error(self, path: Path, rules: RulesIndex | None) -> Case | CaseError:
        """The case in the file at ``path``, or why it cannot be read, located."""
        try:
            text = read_text(path)
            key = (text, self._statements(rules) if rules else None)
            case = self.placed.get((*key, path))
            if case is None:
                case = self.by_text.get(key)
                if case is None:
                    case = self.by_text[key] = load_case_text(text, path, rules)
                elif case.path != path:
                    first = case
                    case = replace(case, path=path)
                    self.first[id(case)] = first
                self.placed[(*key, path)] = case
            return case
        except PositionError as error:  # an engine objection the loader did not locate
            return CaseError(path, None, str(error))
        except SourceError as error:
            if isinstance(error, CaseError):
                return error
            return CaseError(error.path, error.line, error.problem, error.others)

    def first_read(self, case: Case) -> Case:
        """The case this one was read as before, from another path (the same text, so the same
        case but for its path), or ``case`` itself: what is worked out from the one holds for
        the other, once its path is put in."""
        return self.first.get(id(case), case)


def load_case_file(path: Path, directory: Path | None, rules: RulesIndex | None = None) -> Case:
    """One file of the case folder ``directory`` as :func:`load_cases` would take it; with no
    folder (a case kept elsewhere), any plain file."""
    problem = plain_file_problem(path) if directory is None else case_file_problem(path, directory)
    if problem is not None:
        raise CaseError(path, None, problem)
    return load_case(path, rules)


def duplicate_id_error(case: Case, others: Sequence[Case], root: Path | None = None) -> CaseError:
    """The error for a case whose id other cases use too (paths shown below ``root``)."""
    where = ", ".join(f"{shown_path(other.path, root)}:{other.line}" for other in others)
    return CaseError(
        case.path,
        case.line,
        f"case id {case.id!r} is also used by {where}; each case needs its own id",
    )
