"""The review commands of ``schotten-oracle``: ``drift`` (what moved, all at once), ``pin``
(write the engine's answers into the files that drifted, after review), ``held`` (the cases
whose prose waits for an editor) and ``review`` (each change in turn: accept, skip or stop)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from oracle.catalogue import build_catalogue
from oracle.outputs import STANDARD_OUTPUT, OutputRefused, say_failed, write_output
from oracle.review.base import BaseUnavailable, Changes, base_records, compare, current_records
from oracle.review.drift import DriftReport, drift_report
from oracle.review.formats import (
    dumped,
    is_drift_report,
    json_report,
    markdown_report,
    text_report,
)
from oracle.review.history import history_command
from oracle.review.interactive import held_command, review_command
from oracle.review.pinning import pin_command

"""The output name that means standard output, as for ``export``."""


def add_parsers(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    find_root: Callable[[Path], Path],
) -> None:
    """The ``drift``, ``pin``, ``held`` and ``review`` sub-commands."""
    _drift_parser(commands, find_root)
    _pin_parser(commands, find_root)
    _history_parser(commands, find_root)
    held_parser = commands.add_parser(
        "held",
        help="list the cases whose situation and why wait to be read again",
        description="List each published case whose answers changed since its prose was last"
        " read for them, at its file and line; exit 1 if there is any. Confirm one with"
        " pin --reviewed FILE, all with pin --reviewed --all-held, or each in turn with review.",
    )
    held_parser.add_argument("--root", default=".", help="the project folder (default: here)")
    held_parser.set_defaults(run=lambda args: held_command(args, find_root))
    review_parser = commands.add_parser(
        "review",
        help="go through each drifted case and each held one: accept, skip or stop",
        description="Show each case whose answers drifted, every changed answer pinned and now in"
        " full, and ask: accept (pin it), accept and confirm its prose, skip, or quit; then each"
        " case whose prose waits for review: confirm, skip or quit. Reads the answers from the"
        " terminal.",
    )
    review_parser.add_argument(
        "--stdin",
        action="store_true",
        help="read the answers from standard input even when it is not a terminal",
    )
    review_parser.add_argument("--root", default=".", help="the project folder (default: here)")
    review_parser.set_defaults(run=lambda args: review_command(args, find_root))


def _drift_parser(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    find_root: Callable[[Path], Path],
) -> None:
    drift_parser = commands.add_parser(
        "drift",
        help="every answer the case files pin that the engine now gives otherwise",
        description="Replay every case and list, all at once, each answer (verdict, reason,"
        " move, turn fact, deal, match) where the engine disagrees with the case file, by case"
        " and by rule; each case file that cannot be read, with why; and the cases to read"
        " again although their answers stand. With --base, also what changed in the published"
        " catalogue since then. Exit 1 when there is anything to do.",
    )
    drift_parser.add_argument("--format", choices=["text", "markdown", "json"], default="text")
    drift_parser.add_argument(
        "-o", "--output", help="write the report here (default, or -: standard output)"
    )
    drift_parser.add_argument(
        "--force",
        action="store_true",
        help="replace the output file even if drift did not write it",
    )
    drift_parser.add_argument(
        "--base",
        help="a git revision (or an export file made from one) to compare the catalogue with",
    )
    drift_parser.add_argument("--root", default=".", help="the project folder (default: here)")
    drift_parser.set_defaults(run=lambda args: drift_command(args, find_root))


def _history_parser(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    find_root: Callable[[Path], Path],
) -> None:
    history_parser = commands.add_parser(
        "history",
        help="write a rule's newest history step: the answers that moved since a base",
        description="Compare the published catalogue with that of --base (a git revision, or an"
        " export file made from one) and write into the newest history step of RULE in"
        " rules/index.yaml the ids of the cases whose answers moved (moved:) and each answer"
        " before and after (answers:), changing nothing else of the file.",
    )
    history_parser.add_argument("rule", help="the id of the rule or ruling that changed")
    history_parser.add_argument("--base", required=True, help="the revision before the change")
    history_parser.add_argument("--dry-run", action="store_true", help="show it, write nothing")
    history_parser.add_argument("--root", default=".", help="the project folder (default: here)")
    history_parser.set_defaults(run=lambda args: history_command(args, find_root))


def _pin_parser(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    find_root: Callable[[Path], Path],
) -> None:
    pin_parser = commands.add_parser(
        "pin",
        help="after review, write the engine's answers into the drifted case files",
        description="Rewrite the expected answers and reasons of the named case files (or of"
        " every drifted one) to the engine's, changing nothing else of each file; a named draft"
        " gets the answers it leaves open filled in; --reviewed also confirms that the"
        " situation and why were read again for those answers. Each path not pinned is named"
        " with why; exit 1 if any, 2 if nothing could be done.",
    )
    pin_parser.add_argument("cases", nargs="*", help="case files to re-pin")
    pin_parser.add_argument("--all-drifted", action="store_true", help="every drifted case")
    pin_parser.add_argument(
        "--all-held",
        action="store_true",
        help="with --reviewed: every case whose prose waits for review (see held)",
    )
    pin_parser.add_argument(
        "--reviewed",
        action="store_true",
        help="also confirm the prose: the situation and why were read for the answers",
    )
    pin_parser.add_argument("--dry-run", action="store_true", help="show the diff, write nothing")
    pin_parser.add_argument(
        "--report", help="a JSON drift report: pin its cases, refused if a file changed since"
    )
    pin_parser.add_argument("--root", default=".", help="the project folder (default: here)")
    pin_parser.set_defaults(run=lambda args: pin_command(args, find_root))


def drift_command(args: argparse.Namespace, find_root: Callable[[Path], Path]) -> int:
    """Print (or write) the drift report; exit 1 if anything drifted, cannot be read or wants
    reading again, 2 if it cannot run."""
    root = find_root(Path(args.root).resolve())
    catalogue = build_catalogue(root, kept=args.kept)
    if not catalogue.index_readable:
        return say_failed(" drift", "the rules index cannot be read; run schotten-oracle check")
    report = drift_report(catalogue)
    changes = None
    if args.base is not None:
        try:
            then, notes = base_records(root, args.base)
        except BaseUnavailable as error:
            return say_failed(" drift", str(error))
        unread = [
            (file.case_id, f"{file.located(root)}: {file.reason}")
            for file in report.unreadable
            if file.case_id is not None
        ]
        changes = compare(args.base, then, current_records(catalogue), notes, unread)
    text = _rendered(args.format, report, changes, root)
    if args.output in (None, STANDARD_OUTPUT):
        sys.stdout.write(text)
    else:
        try:
            write_output(
                Path(args.output), text, is_drift_report, force=args.force, projects=[root]
            )
        except OutputRefused as error:
            return say_failed(" drift", str(error))
    return 1 if report.anything else 0


def _rendered(
    form: str,
    report: DriftReport,
    changes: Changes | None,
    root: Path,
) -> str:
    if form == "json":
        document: dict[str, Any] = json_report(report, root)
        if changes is not None:
            document["changes"] = changes.data()
        return dumped(document)
    lines = markdown_report(report, root) if form == "markdown" else text_report(report, root)
    if changes is not None:
        block = changes.lines() if form == "text" else ["```", *changes.lines(), "```"]
        lines += ["", *block]
    return "\n".join(lines) + "\n"
