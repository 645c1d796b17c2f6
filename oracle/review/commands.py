"""The review commands of ``schotten-oracle``: ``drift`` (what moved, all at once) and ``pin``
(write the engine's answers into the files that drifted, after review)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from oracle.casefile.source import read_text, shown_path
from oracle.catalogue import Catalogue, build_catalogue
from oracle.outputs import OutputRefused, say_failed, write_output
from oracle.review.base import BaseUnavailable, Changes, base_records, compare, current_records
from oracle.review.drift import (
    FORMAT,
    DriftedCase,
    drift,
    dumped,
    file_digest,
    is_drift_report,
    json_report,
    markdown_report,
    text_report,
)
from oracle.review.pin import CannotPin, PinRefused, Repinned, repinned, write_repinned

Fail = Callable[[str], int]
"""How a command says it cannot go on: the one line, and the exit status it returns."""


def add_parsers(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    find_root: Callable[[Path], Path],
) -> None:
    """The ``drift`` and ``pin`` sub-commands."""
    drift_parser = commands.add_parser(
        "drift",
        help="every answer the case files pin that the engine now gives otherwise",
        description="Replay every case and list, all at once, each answer (verdict, reason,"
        " move, turn fact, deal, match) where the engine disagrees with the case file, by case"
        " and by rule; with --base, also what changed in the published catalogue since then."
        " Exit 1 when anything drifted.",
    )
    drift_parser.add_argument("--format", choices=["text", "markdown", "json"], default="text")
    drift_parser.add_argument("-o", "--output", help="write the report here (default: stdout)")
    drift_parser.add_argument(
        "--base",
        help="a git revision (or an export file made from one) to compare the catalogue with",
    )
    drift_parser.add_argument("--root", default=".", help="the project folder (default: here)")
    drift_parser.set_defaults(run=lambda args: drift_command(args, find_root))
    pin_parser = commands.add_parser(
        "pin",
        help="after review, write the engine's answers into the drifted case files",
        description="Rewrite the expected answers and reasons of the named case files (or of"
        " every drifted one) to the engine's, changing nothing else of each file; --reviewed"
        " also confirms that the situation and why were read again for those answers.",
    )
    pin_parser.add_argument("cases", nargs="*", help="case files to re-pin")
    pin_parser.add_argument("--all-drifted", action="store_true", help="every drifted case")
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
    """Print (or write) the drift report; exit 1 if any answer drifted, 2 if it cannot run."""
    root = find_root(Path(args.root).resolve())
    catalogue = build_catalogue(root, kept=args.kept)
    if not catalogue.index_readable:
        return say_failed(" drift", "the rules index cannot be read; run schotten-oracle check")
    drifted = drift(catalogue)
    changes = None
    if args.base is not None:
        try:
            then, notes = base_records(root, args.base)
        except BaseUnavailable as error:
            return say_failed(" drift", str(error))
        changes = compare(args.base, then, current_records(catalogue), notes)
    text = _rendered(args.format, drifted, changes, root, catalogue)
    if args.output is None:
        print(text, end="")
    else:
        try:
            write_output(Path(args.output), text, is_drift_report, projects=[root])
        except OutputRefused as error:
            return say_failed(" drift", str(error))
    return 1 if drifted else 0


def _rendered(
    form: str,
    drifted: list[DriftedCase],
    changes: Changes | None,
    root: Path,
    catalogue: Catalogue,
) -> str:
    unreadable = len(catalogue.collection.errors)
    note = (
        f"{unreadable} case file{'s' if unreadable != 1 else ''} cannot be read (see"
        " schotten-oracle check)"
        if unreadable
        else None
    )
    if form == "json":
        document: dict[str, Any] = json_report(drifted, root)
        if changes is not None:
            document["changes"] = changes.data()
        if note:
            document["unreadable"] = unreadable
        return dumped(document)
    lines = markdown_report(drifted, root) if form == "markdown" else text_report(drifted, root)
    if changes is not None:
        block = changes.lines() if form == "text" else ["```", *changes.lines(), "```"]
        lines += ["", *block]
    if note:
        lines.append(note)
    return "\n".join(lines) + "\n"


def pin_command(args: argparse.Namespace, find_root: Callable[[Path], Path]) -> int:
    """Re-pin the named (or every drifted) case file; print the diff with --dry-run."""
    root = find_root(Path(args.root).resolve())
    try:
        chosen, digests = _chosen(args, root)
        catalogue = build_catalogue(root, kept=args.kept)
        unreadable = [e for e in catalogue.collection.errors if not chosen or e.path in chosen]
        if unreadable:
            raise PinRefused(f"cannot re-pin a file that does not load: {unreadable[0].located}")
        changed: list[Repinned] = []
        left: list[str] = []
        for drifted in _to_pin(catalogue, chosen, args.reviewed):
            digest = digests.get(drifted.report.case.path.resolve())
            try:
                changed.append(
                    repinned(drifted, root, catalogue.rules, reviewed=args.reviewed, digest=digest)
                )
            except CannotPin as error:
                left.append(str(error))
    except (PinRefused, ValueError) as error:
        return say_failed(" pin", str(error))
    _finish([r for r in changed if r.after != r.before], root, args.dry_run)
    for line in left:  # each file pin could not rewrite, for the editor to edit by hand
        print(f"schotten-oracle pin: {line}", file=sys.stderr)
    return 1 if left else 0


def _chosen(args: argparse.Namespace, root: Path) -> tuple[list[Path], dict[Path, str]]:
    """The files named (and those of ``--report``, with their digests then)."""
    chosen = [Path(name).resolve() for name in args.cases]
    digests = _report_digests(Path(args.report), root) if args.report is not None else {}
    chosen += list(digests)
    if not chosen and not args.all_drifted:
        raise ValueError("name the case files to re-pin, or give --all-drifted or --report")
    missing = [path for path in chosen if not path.is_file()]
    if missing:
        raise ValueError(f"no case file {shown_path(missing[0], root)}")
    return chosen, digests


def _to_pin(catalogue: Catalogue, chosen: list[Path], reviewed: bool) -> list[DriftedCase]:
    """The drifted cases among ``chosen`` (all of them if none is named), and with
    ``reviewed`` the chosen ones that did not drift too, to confirm their prose."""
    found = drift(catalogue, chosen)
    if chosen and reviewed:
        drifted_paths = {d.report.case.path.resolve() for d in found}
        found += [
            DriftedCase(report, file_digest(report.case.path))
            for report in catalogue.reports
            if report.case.path.resolve() in set(chosen) - drifted_paths
        ]
    return found


def _finish(changed: list[Repinned], root: Path, dry_run: bool) -> None:
    if dry_run:
        for repin in changed:
            print("".join(repin.diff(root)), end="")
        print(f"pin: would re-pin {len(changed)} case file{'s' if len(changed) != 1 else ''}")
        return
    write_repinned(changed)
    for repin in changed:
        print(f"re-pinned {shown_path(repin.path, root)}")
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
        (root / entry["file"]).resolve(): entry["digest"]
        for entry in document.get("cases", ())
        if isinstance(entry, dict) and isinstance(entry.get("file"), str)
    }
