"""``schotten-oracle pin`` as a command: which files it is asked to pin, what it pins of each,
and every path it leaves, named with why. What a file becomes is :mod:`oracle.review.pin`'s."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from oracle.casefile.source import read_text, shown_path
from oracle.casefile.vocabulary import CASES_DIR
from oracle.catalogue import Catalogue, build_catalogue
from oracle.outputs import say_failed
from oracle.review.drift import (
    DriftedCase,
    drift,
    file_digest,
    is_held,
    open_answers,
    unreadable_files,
)
from oracle.review.formats import FORMAT
from oracle.review.pages import confirm_pages, is_page
from oracle.review.pin import CannotPin, PinRefused, Repinned, repinned, write_repinned
from oracle.verify.report import CaseReport


@dataclass
class Asked:
    """What ``pin`` was asked for: the case files named (and of a report, with its digests),
    and each path it cannot take, with why."""

    files: list[Path] = field(default_factory=list)
    digests: dict[Path, str] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    pages: list[Path] = field(default_factory=list)
    """The pages of the site named, to confirm (``--reviewed``)."""


def pin_command(args: argparse.Namespace, find_root: Callable[[Path], Path]) -> int:
    """Re-pin the named (or every drifted, or with ``--reviewed --all-held`` every held) case
    file; print the diff with ``--dry-run``. Exit 0 when all asked for was done, 1 when some
    path was left (each named with why), 2 when nothing could be done."""
    root = find_root(Path(args.root).resolve())
    try:
        asked = _asked(args, root)
    except (PinRefused, ValueError) as error:
        return say_failed(" pin", str(error))
    catalogue = build_catalogue(root, kept=args.kept)
    if not catalogue.index_readable:
        return say_failed(" pin", "the rules index cannot be read; run schotten-oracle check")
    _unreadable(catalogue, args.all_drifted, asked, root)
    jobs = _jobs(catalogue, args, asked, root)
    confirmed = _confirmed_pages(catalogue, args, asked)
    if not jobs and not asked.skipped:
        if not confirmed:
            print("pin: nothing to pin: no case drifted" + (" or waits" if args.all_held else ""))
        return 0
    try:
        changed = _pinned(jobs, catalogue, args.reviewed, asked)
    except PinRefused as error:
        return say_failed(" pin", str(error))
    written = [r for r in changed if r.after != r.before]
    _finish(written, root, args.dry_run, [drifted for drifted, fill in jobs if fill])
    for line in dict.fromkeys(asked.skipped):  # each path left, for the editor to see to
        print(f"schotten-oracle pin: {line}", file=sys.stderr)
    if asked.skipped:
        return 1 if written else 2
    return 0


def _unreadable(catalogue: Catalogue, every: bool, asked: Asked, root: Path) -> None:
    """Set aside each case file that does not load: every one, or those named."""
    for file in unreadable_files(catalogue):
        if every or file.path.resolve() in asked.files:
            asked.skipped.append(f"{file.located(root)}: cannot be pinned: {file.reason}")


def _pinned(
    jobs: list[tuple[DriftedCase, bool]], catalogue: Catalogue, reviewed: bool, asked: Asked
) -> list[Repinned]:
    """Each case of ``jobs`` as pin leaves it; one that cannot be pinned is set aside, with
    why. :class:`PinRefused` when a file changed since its drift report."""
    digests = {path.resolve(): digest for path, digest in asked.digests.items()}
    changed: list[Repinned] = []
    for drifted, fill in jobs:
        digest = digests.get(drifted.report.case.path.resolve())
        try:
            changed.append(
                repinned(
                    drifted,
                    catalogue.root,
                    catalogue.rules,
                    reviewed=reviewed,
                    digest=digest,
                    fill=fill,
                )
            )
        except CannotPin as error:
            asked.skipped.append(str(error))
    return changed


def _asked(args: argparse.Namespace, root: Path) -> Asked:
    """The case files named and those of ``--report``, each path pin cannot take set aside."""
    if args.all_held and not args.reviewed:
        raise ValueError("--all-held confirms the prose of the held cases: give --reviewed too")
    asked = Asked()
    names: list[tuple[str, Path]] = [(name, Path(name)) for name in args.cases]
    if args.report is not None:
        asked.digests = _report_digests(Path(args.report), root)
        names += [(shown_path(path, root), path) for path in asked.digests]
    if not names and not (args.all_drifted or args.all_held):
        raise ValueError(
            "name the case files to re-pin, or give --all-drifted, --reviewed --all-held"
            " or --report"
        )
    cases = (root / CASES_DIR).resolve()
    for name, path in names:
        if is_page(path, root) and path.is_file():
            if args.reviewed:
                asked.pages.append(path)
            else:
                asked.skipped.append(f"{name}: skipped: a page is confirmed with --reviewed")
            continue
        why = _not_a_case_file(path, cases)
        if why is None:
            asked.files.append(path.resolve())
        else:
            asked.skipped.append(f"{name}: skipped: {why}")
    return asked


def _confirmed_pages(catalogue: Catalogue, args: argparse.Namespace, asked: Asked) -> bool:
    """Confirm the pages named (and with ``--reviewed --all-held`` every held one) as read for
    the rules they cite now; whether any was."""
    if not asked.pages and not (args.all_held and args.reviewed):
        return False
    done, left = confirm_pages(catalogue, asked.pages, args.all_held, dry_run=args.dry_run)
    asked.skipped += left
    verb = "would confirm" if args.dry_run else "confirmed"
    for shown in done:
        print(f"{verb} {shown}: read for the rules it cites as they stand")
    return bool(done)


def _not_a_case_file(path: Path, cases: Path) -> str | None:
    """Why pin will not take ``path`` (None: it will)."""
    absolute = Path(os.path.abspath(path))
    if absolute.is_symlink():
        return "a symbolic link; pin edits only the case file itself"
    if not absolute.resolve().is_relative_to(cases):  # said first, whether it exists or not
        return f"not under {CASES_DIR}/ of this project; pin edits only its case files"
    if not absolute.exists():
        return "no such file"
    if absolute.is_dir():
        return "a folder; name the case files in it"
    if absolute.suffix != ".yaml":
        return "not a case file (a .yaml file under cases/)"
    return None


def _jobs(
    catalogue: Catalogue, args: argparse.Namespace, asked: Asked, root: Path
) -> list[tuple[DriftedCase, bool]]:
    """Each case to pin, and whether it is a draft to fill: every drifted one (``--all-drifted``),
    every held one (``--all-held``), and each named one that drifted, is a draft with answers
    open, or (with ``--reviewed``) waits for its prose; a named one with nothing to do is set
    aside, with why."""
    named = set(asked.files)
    jobs: list[tuple[DriftedCase, bool]] = []
    drifted = {d.report.case.path.resolve(): d for d in drift(catalogue)}
    for report in catalogue.reports:
        path = report.case.path.resolve()
        if path in drifted and (args.all_drifted or path in named):
            jobs.append((drifted[path], False))
        elif args.all_held and args.reviewed and is_held(report):
            jobs.append((DriftedCase(report, file_digest(path)), False))
        elif path in named:
            job, why = _named_job(report, args.reviewed)
            if job is not None:
                jobs.append(job)
            else:
                asked.skipped.append(f"{shown_path(report.case.path, root)}: skipped: {why}")
    return jobs


def _named_job(report: CaseReport, reviewed: bool) -> tuple[tuple[DriftedCase, bool] | None, str]:
    """What pin does to a named case that did not drift, or why it does nothing."""
    digest = file_digest(report.case.path)
    answers = open_answers(report)
    if answers:
        return (DriftedCase(report, digest, answers), True), ""
    if reviewed and not report.case.prose_reviewed:
        return (DriftedCase(report, digest), False), ""
    if reviewed:
        return None, "its prose was already read for its answers: nothing to confirm"
    return None, "has not drifted: it agrees with the engine, nothing to pin"


def _finish(changed: list[Repinned], root: Path, dry_run: bool, filled: list[DriftedCase]) -> None:
    drafts = {drifted.report.case.path for drifted in filled}
    if dry_run:
        for repin in changed:
            print("".join(repin.diff(root)), end="")
        print(f"pin: would re-pin {len(changed)} case file{'s' if len(changed) != 1 else ''}")
        return
    write_repinned(changed)
    if not changed:
        print("pin: nothing was pinned")
        return
    for repin in changed:
        shown = shown_path(repin.path, root)
        if repin.path in drafts:
            print(
                f"filled the open answers of {shown} (a draft) with the engine's; write its"
                " situation and why, then remove draft: true"
            )
        else:
            print(f"re-pinned {shown}")
    print(f"pin: re-pinned {len(changed)} case file{'s' if len(changed) != 1 else ''}")


def _report_digests(report: Path, root: Path) -> dict[Path, str]:
    """Each case file of a JSON drift report, with its digest when the report was made."""
    try:
        document = json.loads(read_text(report, what="a drift report"))
    except (OSError, ValueError) as error:
        raise ValueError(f"{report}: not a drift report: {error}") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValueError(f"{report}: not a drift report of schotten-oracle drift --format json")
    return {
        Path(os.path.abspath(root / entry["file"])): entry["digest"]
        for entry in document.get("cases", ())
        if isinstance(entry, dict)
        and isinstance(entry.get("file"), str)
        and isinstance(entry.get("digest"), str)
    }
