"""``held``, the cases whose prose waits for an editor, and ``review``, every change gone through
in turn as ``cargo insta review`` does: each drifted case with its answers pinned and now in
full, to accept (pin), accept with its prose confirmed, skip or stop at; then each held case,
and each held page of the site with the rules it cites as they read now, to confirm or skip.
The answers are read a line each from standard input."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from oracle.casefile.model import Case, RulesIndex
from oracle.casefile.source import shown_path
from oracle.catalogue import Catalogue, build_catalogue
from oracle.citations import held_line
from oracle.outputs import say_failed
from oracle.review.drift import DriftedCase, drift_report, file_digest, is_held
from oracle.review.pages import confirm_pages, held_page_lines, held_pages
from oracle.review.pin import CannotPin, PinRefused, repinned, write_repinned

HELD_WHY = (
    "its answers, or the texts of the rules it pins, changed since its situation and why were"
    " last read for them (or they were never confirmed)"
)


def held_command(args: argparse.Namespace, find_root: Callable[[Path], Path]) -> int:
    """List each held case at its file and line, with why and how to confirm it; exit 1 if
    there is any."""
    root = find_root(Path(args.root).resolve())
    catalogue = build_catalogue(root, kept=args.kept)
    held = [report.case for report in catalogue.reports if is_held(report)]
    for case in held:
        print(f"{case.named_at(root)}: {HELD_WHY} (it pins {', '.join(case.rules) or 'no rule'})")
    pages = held_page_lines(catalogue) if catalogue.index_readable else []
    for line in pages:
        print(line)
    if not held and not pages:
        print("held: no case or page waits to be read again")
        return 0
    waiting = [f"{len(held)} case{'s' if len(held) != 1 else ''}"] if held else []
    waiting += [f"{len(pages)} page{'s' if len(pages) != 1 else ''}"] if pages else []
    print(
        f"held: {' and '.join(waiting)} wait to be read again; confirm one with"
        " schotten-oracle pin --reviewed FILE, all with schotten-oracle pin --reviewed"
        " --all-held, or each in turn with schotten-oracle review"
    )
    return 1


@dataclass
class Session:
    """One review: where the answers come from, and what was done."""

    answers: TextIO
    root: Path
    pinned: list[str] = field(default_factory=list)
    confirmed: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)

    def choose(self, question: str, choices: str) -> str:
        """The first letter of the editor's answer among ``choices``; ``q`` at the end of the
        input. A line that is none of them asks again."""
        while True:
            print(f"{question} [{'/'.join(choices)}] ", end="", flush=True)
            line = self.answers.readline()
            if not line:
                print()
                return "q"
            answer = line.strip().lower()[:1]
            if answer in choices:
                return answer
            print(f"  answer one of {', '.join(choices)}")


def review_command(args: argparse.Namespace, find_root: Callable[[Path], Path]) -> int:
    """Go through every drifted case, then every held case and page; exit 1 if one could not be
    pinned, 2 if the review cannot start."""
    if not args.stdin and not sys.stdin.isatty():
        return say_failed(
            " review",
            "standard input is not a terminal; run it in one, or give --stdin to read the"
            " answers from it (drift and pin do the same in one go)",
        )
    root = find_root(Path(args.root).resolve())
    catalogue = build_catalogue(root, kept=args.kept)
    if not catalogue.index_readable:
        return say_failed(" review", "the rules index cannot be read; run schotten-oracle check")
    report = drift_report(catalogue)
    session = Session(sys.stdin, root)
    stopped = _review_drifted(session, list(report.cases), catalogue.rules)
    if not stopped:
        again = build_catalogue(root, kept=args.kept)
        held = [r for r in again.reports if is_held(r)]
        stopped = _review_held(
            session, [DriftedCase(r, file_digest(r.case.path)) for r in held], again.rules
        )
        if not stopped:
            _review_pages(session, again)
    for file in report.unreadable:
        session.left.append(f"{file.located(root)}: cannot be read: {file.reason}")
    _summary(session)
    return 1 if session.left else 0


def _review_drifted(session: Session, cases: list[DriftedCase], rules: RulesIndex) -> bool:
    """Each drifted case in turn; whether the editor stopped."""
    for number, drifted in enumerate(cases, 1):
        case = drifted.report.case
        _show(case, session.root, f"[{number}/{len(cases)}] answers moved")
        for answer in drifted.answers:
            print(f"  line {answer.line}, {answer.question}:")
            print(f"    the case pins:   {answer.pinned}")
            print(f"    the engine says: {answer.now}")
        choice = session.choose(
            "a: accept the engine's answers, r: accept and confirm the situation and why above"
            " still hold, s: skip, q: quit?",
            "arsq",
        )
        if choice == "q":
            return True
        if choice == "s":
            session.skipped.append(shown_path(case.path, session.root))
            continue
        _pin(session, drifted, rules, reviewed=choice == "r")
    return False


def _review_held(session: Session, held: list[DriftedCase], rules: RulesIndex) -> bool:
    """Each case whose prose waits, to confirm or skip; whether the editor stopped."""
    for number, drifted in enumerate(held, 1):
        case = drifted.report.case
        _show(case, session.root, f"[{number}/{len(held)}] held: {HELD_WHY}")
        print(f"  rules it pins: {', '.join(case.rules) or 'none'}")
        print(f"  the engine's answers: {drifted.report.verdict_label}")
        choice = session.choose(
            "c: confirm the situation and why hold for these answers, s: skip, q: quit?", "csq"
        )
        if choice == "q":
            return True
        if choice == "s":
            session.skipped.append(shown_path(case.path, session.root))
            continue
        _pin(session, drifted, rules, reviewed=True)
    return False


def _review_pages(session: Session, catalogue: Catalogue) -> None:
    """Each page of the site whose cited rules changed since it was read (or that was never
    read for them): the rules as they read now, to confirm the page's prose or skip it."""
    pages = held_pages(catalogue)
    for number, page in enumerate(pages, 1):
        print(f"\n[{number}/{len(pages)}] held page: {held_line(page)}")
        for rule_id, line in page.cited:
            entry = catalogue.rules.entry(rule_id)
            if entry is not None:
                print(f"  line {line} cites {rule_id}, which now reads:")
                print(f"    {entry.title}. {' '.join(entry.text.split())}")
        choice = session.choose(
            "c: confirm the page's prose holds for these texts, s: skip, q: quit?", "csq"
        )
        if choice == "q":
            return
        if choice == "s":
            session.skipped.append(page.shown)
            continue
        confirmed, left = confirm_pages(catalogue, [catalogue.root / page.shown], False)
        session.confirmed += confirmed
        session.left += left
        print(f"  confirmed the prose of {page.shown}")


def _show(case: Case, root: Path, what: str) -> None:
    draft = " (draft)" if case.draft else ""
    print(f"\n{what}: {case.named_at(root)}{draft}")
    print(f"  situation: {' '.join(case.situation.split())}")
    print(f"  why: {' '.join(case.why.split())}")


def _pin(session: Session, drifted: DriftedCase, rules: RulesIndex, *, reviewed: bool) -> None:
    """Pin one case at once (or confirm its prose), and say so."""
    shown = shown_path(drifted.report.case.path, session.root)
    try:
        repin = repinned(drifted, session.root, rules, reviewed=reviewed)
    except (CannotPin, PinRefused) as error:
        session.left.append(str(error))
        print(f"  not pinned: {error}")
        return
    write_repinned([repin])
    if drifted.answers:
        session.pinned.append(shown)
        print(f"  pinned {shown}" + ("; its prose confirmed" if reviewed else ""))
    else:
        session.confirmed.append(shown)
        print(f"  confirmed the prose of {shown}")
    if reviewed and drifted.answers:
        session.confirmed.append(shown)


def _summary(session: Session) -> None:
    print(
        f"\nreview: {len(session.pinned)} pinned, {len(session.confirmed)} with their prose"
        f" confirmed, {len(session.skipped)} skipped"
    )
    for line in session.left:
        print(f"  left for you: {line}")
    if session.skipped:
        print("  the skipped ones wait: schotten-oracle drift, held and review list them again")
