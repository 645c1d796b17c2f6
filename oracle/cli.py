"""``schotten-oracle``: the editors' command line. Ask the engine about a case, check them all,
start a new one, replay a recorded game, export the catalogue or run it through another engine.

    schotten-oracle ask cases/claims/02-last-three-in-your-hand.yaml
    schotten-oracle check
    schotten-oracle new claims my-new-case

A thin front end: each command reads its arguments, calls the stage that does the work (the
loader, the verifier, the catalogue, the conformance runner) and prints what it says.
"""

from __future__ import annotations

import argparse
import datetime
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from oracle.casefile.drafts import DraftRefused, draft_path, draft_text, seeded_draft_text
from oracle.casefile.entries import case_files
from oracle.casefile.loader import load_case_file
from oracle.casefile.source import SourceError, read_text, shown_path
from oracle.casefile.vocabulary import CASES_DIR, RULES_INDEX
from oracle.catalogue import (
    PAGES_DIR,
    Catalogue,
    CatalogueError,
    Kept,
    build_catalogue,
    site_pages,
    topic_pages,
    verified_catalogue,
)
from oracle.conformance.engines import CommandEngine, adopting_orphans
from oracle.conformance.export import (
    catalogue_version,
    engine_version,
    export_json,
    export_jsonl,
    is_export,
    published_records,
    read_export,
)
from oracle.conformance.reports import is_json_report, is_junit, json_report, junit_xml, report
from oracle.conformance.results import (
    RESULTS_DIR,
    PublishedResult,
    published_results,
    submission,
    submission_problem,
    submitted_name,
)
from oracle.conformance.runner import CaseResult, add_arguments, engine_command, run, select
from oracle.diagram import answer_lines, ask_status, refusal_lines
from oracle.outputs import STANDARD_OUTPUT, OutputRefused, check_output, write_output
from oracle.outputs import say_failed as _fail
from oracle.protocol.compare import Result, printable
from oracle.review.base import BaseUnavailable
from oracle.review.commands import add_parsers as add_review_parsers
from oracle.review.history import base_steps, changes_since, unrecorded_moves
from oracle.verify.replay import verify_case
from oracle.verify.walkthrough import WalkthroughError, replay_walkthrough

MAX_RECORD_BYTES = 1024 * 1024
"""The largest game record ``replay`` reads: a whole game takes a few kilobytes."""

MAX_EXPORT_BYTES = 64 * 1024 * 1024
"""The largest export ``conform --catalogue`` reads: the catalogue's takes about a megabyte."""


class CommandFailed(Exception):
    """A command cannot go on: :func:`main` prints the one line and exits with ``status``."""

    def __init__(self, command: str, problem: str, status: int = 2) -> None:
        super().__init__(problem)
        self.command = command
        self.problem = problem
        self.status = status


def find_root(start: Path) -> Path:
    """The project folder: the nearest parent of ``start`` holding ``rules/index.yaml``."""
    for folder in (start, *start.parents):
        if (folder / RULES_INDEX).is_file():
            return folder
    raise CommandFailed("", f"no {RULES_INDEX} in {start} or above; run it inside the project")


def _project_of(case: Path) -> Path:
    """The project a case file is asked in: the one it lies in, or else the one the working
    folder lies in (a case kept outside any project is judged by the rules of that one)."""
    try:
        return find_root(case.parent)
    except CommandFailed:
        pass
    try:
        return find_root(Path.cwd())
    except CommandFailed:
        raise CommandFailed(
            "",
            f"no {RULES_INDEX} in {case.parent} or above, nor in the working folder or above;"
            " run it inside the project",
        ) from None


def _command() -> str:
    """How to call this tool again, as the user did (``.venv/bin/schotten-oracle``, say)."""
    called = Path(sys.argv[0])
    try:
        return str(called.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return called.name if called.name == "schotten-oracle" else "schotten-oracle"


def ask(args: argparse.Namespace) -> int:
    """Print a case's board and the engine's answers, whether or not the case expects any."""
    path = Path(os.path.abspath(args.case))  # links are not followed: the loader refuses them
    if path.is_dir():
        return _fail("", f"{args.case} is a folder; give one case file")
    root = _project_of(path)
    inside = path.is_relative_to(root)
    if inside and not path.is_relative_to(root / CASES_DIR):
        return _fail("", f"{args.case} is not a case file: cases live under {CASES_DIR}/")
    try:
        # A case kept elsewhere (one copied from the Ask page, say) is read as it is.
        cases = root / CASES_DIR if inside else None
        case = load_case_file(path, cases, (args.kept or Kept()).rules_index(root / RULES_INDEX))
    except SourceError as error:
        print("\n".join(error.lines_from(root)), file=sys.stderr)
        return 2
    report = verify_case(case)
    if case.impossible is not None:
        lines = refusal_lines(report, root)
    else:
        lines = answer_lines(report, root, all_moves=args.all_moves)
    print("\n".join(lines))
    return ask_status(report)


def check(args: argparse.Namespace) -> int:
    """Load and replay every case; print each problem of the catalogue; exit 1 if there is
    any (2 when the rules index itself cannot be read)."""
    root = find_root(Path(args.root).resolve())
    catalogue = build_catalogue(root, kept=args.kept)
    for line in catalogue.problem_lines:
        print(line)
    unrecorded = _unrecorded(catalogue, args.base)
    for line in unrecorded:
        print(line)
    published, unreadable = _results_of(catalogue)
    for line in unreadable:
        print(line)
    print(_summary(catalogue, root))
    if published or unreadable:
        print(f"{len(published)} published results of other engines, {len(unreadable)} unreadable")
    if not catalogue.index_readable:
        return 2
    return 1 if catalogue.problems or unreadable or unrecorded else 0


def _unrecorded(catalogue: Catalogue, base: str | None) -> list[str]:
    """With ``--base``, each case whose answers moved since then that no new history step
    names (or why the base cannot be read)."""
    if base is None or not catalogue.index_readable:
        return []
    try:
        changes = changes_since(catalogue, base)
    except BaseUnavailable as error:
        return [f"--base {base}: {error}"]
    return unrecorded_moves(catalogue, changes, base_steps(catalogue.root, base))


def _results_of(catalogue: Catalogue) -> tuple[list[PublishedResult], list[str]]:
    """The published results of ``results/`` and what is wrong with them, as the build finds
    them (against the export of the published catalogue, made only when there are any)."""
    if not (catalogue.root / RESULTS_DIR).is_dir():
        return [], []
    records = published_records(catalogue.published, catalogue.matrix)
    return published_results(catalogue.root, records, catalogue_version(records))


def _summary(catalogue: Catalogue, root: Path) -> str:
    """How the case files stand, each counted once (a problem outweighs being verified)."""
    files = set(case_files(root / CASES_DIR))
    with_problems = {problem.file for problem in catalogue.problems if problem.file in files}
    elsewhere = [problem for problem in catalogue.problems if problem.file not in files]
    named = sorted({problem.line.split(":", 1)[0] for problem in elsewhere})  # the files named
    published = [r for r in catalogue.published if r.case.path not in with_problems]
    drafts = sum(r.case.path not in with_problems for r in catalogue.drafts)
    line = (
        f"{len(files)} case files: {len(published)} verified, {drafts}"
        f" draft{'' if drafts == 1 else 's'}, {len(with_problems)} with problems"
    )
    if elsewhere:
        count = len(elsewhere)
        line += (
            f"; {count} problem{'' if count == 1 else 's'} outside the case files, in"
            f" {', '.join(named)} (the site cannot be published until fixed)"
        )
    refused = sum(r.case.impossible is not None for r in published)
    if refused:  # counted among the verified; said apart, since they ask no other question
        boards = "is a board" if refused == 1 else "are boards"
        line += (
            f"\nof the {len(published)} verified, {refused} {boards} the engine refuses as the"
            " case pins (impossible:)"
        )
    return line


def new(args: argparse.Namespace) -> int:
    """Write a new draft case file in ``cases/TOPIC/``, numbered after the ones already there."""
    root = find_root(Path(args.root).resolve())
    if args.impossible and args.from_seed is not None:
        return _fail(
            "",
            "--impossible starts a board the engine refuses, --from-seed one a real game"
            " reached; choose one",
        )
    try:
        path = draft_path(root, args.topic, args.case_id)
        if args.from_seed is not None:
            text = seeded_draft_text(args.case_id, args.variant, args.from_seed, args.turn)
        else:
            text = draft_text(args.case_id, args.variant, impossible=args.impossible)
    except DraftRefused as error:
        return _fail("", str(error))
    shown = shown_path(path, root)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8") as created:  # never over an editor's file
            created.write(text)
    except FileExistsError:
        return _fail("", f"{shown} already exists; nothing was written")
    except OSError as error:
        return _fail("", f"cannot write {shown}: {error.strerror}")
    print(f"wrote {shown}; edit it, then: {_command()} ask {shown}")
    if args.topic not in topic_pages(site_pages(root / PAGES_DIR)):
        print(
            f"note: no page shows the topic {args.topic!r} yet; before publishing, add"
            f" <!-- oracle:verdict-table {args.topic} --> to a page in {PAGES_DIR}/"
        )
    return 0


def replay(args: argparse.Namespace) -> int:
    """Replay a game record (as the "Play a game" page downloads it); check its result."""
    path = Path(args.record)
    try:
        text = read_text(path, max_bytes=MAX_RECORD_BYTES, what="a game record")
    except SourceError as error:
        return _fail(" replay", error.located)
    try:
        walkthrough = replay_walkthrough(text, path)
    except WalkthroughError as error:
        print(error, file=sys.stderr)
        return 1
    print(
        f"{args.record}: {walkthrough.variant} game, seed {walkthrough.seed},"
        f" {walkthrough.length}: {walkthrough.result}"
    )
    return 0


def _published_records(root: Path, kept: Kept | None = None) -> list[dict[str, object]]:
    """The published catalogue's export records, or the end of the command with its problems."""
    try:
        catalogue = verified_catalogue(root, kept=kept)
    except CatalogueError as error:
        problems = "\n".join(error.problems)
        raise CommandFailed("", f"the catalogue is not verified:\n{problems}") from None
    return published_records(catalogue.published, catalogue.matrix)


def export(args: argparse.Namespace) -> int:
    """Write every published case, with its verified answers, as JSON or JSON Lines."""
    root = find_root(Path(args.root).resolve())
    writing = args.output not in (None, STANDARD_OUTPUT)
    try:
        if writing:  # before the catalogue is replayed: a refused file costs nothing
            check_output(Path(args.output), is_export, force=args.force, projects=[root])
        records = _published_records(root, args.kept)
        writer = export_jsonl if args.format == "jsonl" else export_json
        text = writer(records, engine_version())
        if not writing:
            sys.stdout.write(text)
            return 0
        write_output(Path(args.output), text, is_export, force=args.force, projects=[root])
    except OutputRefused as error:
        return _fail(" export", str(error))
    print(f"wrote {len(records)} cases to {args.output}", file=sys.stderr)
    return 0


def _here() -> list[Path]:
    """The project the working folder lies in, if any."""
    return [
        folder for folder in (Path.cwd(), *Path.cwd().parents) if (folder / RULES_INDEX).is_file()
    ][:1]


def _conform_records(args: argparse.Namespace) -> list[dict[str, object]]:
    """The records a run asks about: the given export, or the published catalogue here."""
    if args.catalogue is None:
        return _published_records(find_root(Path.cwd()), args.kept)
    try:
        return read_export(read_text(args.catalogue, max_bytes=MAX_EXPORT_BYTES, what="an export"))
    except SourceError as error:
        raise CommandFailed(" conform", error.located) from None
    except ValueError as error:
        shown = shown_path(args.catalogue, None)
        raise CommandFailed(" conform", f"{shown}: {error}") from None


def _run_stoppably(
    engine: CommandEngine, chosen: Sequence[dict[str, object]], catalogue: str, protocol: int
) -> list[CaseResult]:
    """The run, with a kill or a closed terminal turned into an interruption that stops it, and
    this process adopting what the engine orphans, for the run only."""
    ending = (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
    previous = {number: signal.signal(number, _interrupted) for number in ending}
    try:
        with adopting_orphans():  # a process the engine detaches is still found and stopped
            return run(engine, chosen, catalogue, protocol)
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _report_files(args: argparse.Namespace) -> list[tuple[Path, Callable[[str], bool]]]:
    """The reports a run writes (JUnit, JSON), each with the test that a file is one it wrote."""
    asked = ((args.junit, is_junit), (args.json, is_json_report))
    return [(target, written_here) for target, written_here in asked if target is not None]


def _submission(args: argparse.Namespace) -> dict[str, str] | None:
    """The ``submitted`` block the engine's flags ask for (all three, with ``--json``), or None."""
    given = (args.engine_name, args.engine_version, args.engine_link)
    if not any(value is not None for value in given):
        return None
    if any(value is None for value in given) or args.json is None:
        raise CommandFailed(
            " conform",
            "--engine-name, --engine-version and --engine-link go together, with --json FILE",
        )
    block = submission(*given, date=datetime.date.today().isoformat())
    problem = submission_problem(block)
    if problem is not None:
        raise CommandFailed(" conform", problem)
    return block


def _unwritable_report(args: argparse.Namespace, submitted: dict[str, str] | None) -> str | None:
    """Why a report the run was asked for cannot be written, or None."""
    try:
        for target, written_here in _report_files(args):
            if str(target) != STANDARD_OUTPUT:
                check_output(target, written_here, force=args.force, projects=_here())
    except OutputRefused as error:
        return str(error)
    return _anothers_run(args, submitted)


def _anothers_run(args: argparse.Namespace, submitted: dict[str, str] | None) -> str | None:
    """Why ``--json`` may not replace its file without ``--force``: it holds another engine's
    published run (a report's own engine may run again); None if it may."""
    published_by = None if args.json is None or args.force else submitted_name(args.json)
    if published_by is None or (submitted is not None and submitted["name"] == published_by):
        return None
    return (
        f"{args.json}: holds the published run of {printable(published_by)!r};"
        " give another name, or --force to replace it"
    )


def conform(args: argparse.Namespace) -> int:
    """Run the catalogue through another engine; exit 1 if any case fails."""
    command = engine_command(args.engine)
    if not command:
        return _fail(" conform", "give the engine after --, e.g. conform -- ./my-engine")
    submitted = _submission(args)
    records = _conform_records(args)
    unwritable = _unwritable_report(args, submitted)  # found before a run, not after it
    if unwritable is not None:
        return _fail(" conform", unwritable)
    chosen = select(records, args.keyword)
    if not chosen:
        shown = " ".join(f"-k {keyword!r}" for keyword in args.keyword)
        return _fail(" conform", f"no case matches {shown}")
    version = catalogue_version(records)
    try:
        results = _run_stoppably(
            CommandEngine(command, args.timeout), chosen, version, args.protocol
        )
    except KeyboardInterrupt:  # run() has stopped the engine and all it started
        return _fail(" conform", "interrupted; the engine was stopped", 130)
    piped = any(str(target) == STANDARD_OUTPUT for target, _ in _report_files(args))
    report(results, args.quiet, sys.stderr if piped else None)  # stdout carries the report
    try:
        _write_reports(args, results, command, version, submitted)
    except OutputRefused as error:
        return _fail(" conform", str(error))
    if any(result.result is Result.FAIL for result in results):
        return 1
    if not any(result.result is Result.PASS for result in results):
        print("schotten-oracle conform: no case passed: the engine supports none of them")
        return 1
    return 0


def _write_reports(
    args: argparse.Namespace,
    results: list[CaseResult],
    command: list[str],
    version: str,
    submitted: dict[str, str] | None,
) -> None:
    """The JUnit and JSON reports a run was asked for. A report to publish names the engine as
    its author chose, never by the command line that ran it here (the submitter's own paths)."""
    engine = " ".join(command) if submitted is None else submitted["name"]
    for target, written_here in _report_files(args):
        if written_here is is_junit:
            text = junit_xml(results, engine)
        else:
            text = json_report(results, engine, version, submitted, args.protocol)
        if str(target) == STANDARD_OUTPUT:
            sys.stdout.write(text)
        else:
            write_output(target, text, written_here, force=args.force, projects=_here())


def _interrupted(signum: int, frame: object) -> None:
    """SIGTERM, SIGHUP and SIGQUIT end a run as Ctrl-C does: whatever the engine started is
    stopped first."""
    raise KeyboardInterrupt


def parser() -> argparse.ArgumentParser:
    """The argument parser, with one sub-command per job."""
    main = argparse.ArgumentParser(
        prog="schotten-oracle",
        description="Ask the Schotten Totten rules engine about cases, check them, start new ones.",
    )
    commands = main.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _ask_parser(commands)
    check_parser = commands.add_parser(
        "check",
        help="replay every case; print one line per problem",
        description="Load and replay every case under cases/; exit 1 if any is invalid or drifted.",
    )
    check_parser.add_argument("--root", default=".", help="the project folder (default: here)")
    check_parser.add_argument(
        "--base",
        help="also refuse answers that moved since this git revision (or export file) with no"
        " new history step in rules/index.yaml naming them",
    )
    check_parser.set_defaults(run=check)
    _new_parser(commands)
    replay_parser = commands.add_parser(
        "replay",
        help="replay a recorded game and check the result it claims",
        description="Replay a game record (the notation of games/ and of the Play a game page),"
        " move by move; exit 1 if a move is illegal, the game does not end, or the result differs.",
    )
    replay_parser.add_argument("record", help="the record file, e.g. games/walkthrough.txt")
    replay_parser.set_defaults(run=replay)
    _export_parser(commands)
    conform_parser = commands.add_parser(
        "conform",
        help="run the catalogue through another engine: conform -- COMMAND ...",
        description="Start COMMAND, send it every published case (a JSON line each) and compare"
        " its answers with the catalogue's; print pass, fail or unsupported per case.",
    )
    add_arguments(conform_parser)
    conform_parser.set_defaults(run=conform)
    add_review_parsers(commands, find_root)
    return main


def _ask_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ask_parser = commands.add_parser(
        "ask",
        help="show the board of a case and the engine's answers (drafts included)",
        description="Load one case file, draw its board and print the engine's answer to each"
        " question: verdict, reason and witness for claims; the log for a turn.",
    )
    ask_parser.add_argument("case", help="the case file, e.g. cases/claims/01-incomplete-side.yaml")
    ask_parser.add_argument(
        "--all-moves", action="store_true", help="list every legal move, not only the first 40"
    )
    ask_parser.set_defaults(run=ask)


def _new_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    new_parser = commands.add_parser(
        "new",
        help="write a new draft case file to edit",
        description="Write cases/TOPIC/NN-ID.yaml: a small skeleton, or with --from-seed the board"
        " of a random game of that seed at --turn, every card in place.",
    )
    new_parser.add_argument("topic", help="the folder (and table) of the case, e.g. claims")
    new_parser.add_argument("case_id", metavar="id", help="the case id: lowercase-words-like-this")
    new_parser.add_argument("--variant", choices=["base", "tactics"], default="base")
    new_parser.add_argument("--from-seed", type=int, help="start from a random game of this seed")
    new_parser.add_argument("--turn", type=int, default=20, help="with --from-seed: the turn (20)")
    new_parser.add_argument(
        "--impossible",
        action="store_true",
        help="start a board the engine must refuse (impossible:), e.g. in impossible-boards",
    )
    new_parser.add_argument("--root", default=".", help="the project folder (default: here)")
    new_parser.set_defaults(run=new)


def _export_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    export_parser = commands.add_parser(
        "export",
        help="write the published catalogue as JSON (or JSON Lines) for other engines",
        description="Write every published case as plain data: its position, its questions and"
        " the verified answers, the rule ids and the misreadings it catches.",
    )
    export_parser.add_argument("--format", choices=["json", "jsonl"], default="json")
    export_parser.add_argument("-o", "--output", help="the file to write (default: stdout)")
    export_parser.add_argument(
        "--force",
        action="store_true",
        help="replace the output file even if export did not write it",
    )
    export_parser.add_argument("--root", default=".", help="the project folder (default: here)")
    export_parser.set_defaults(run=export)


def main(argv: Sequence[str] | None = None, kept: Kept | None = None) -> int:
    """Run the command line; return the exit status. The catalogues its commands build keep
    their work in ``kept`` where given (several commands in one process, a test run)."""
    args = parser().parse_args(argv)
    args.kept = kept
    try:
        status: int = args.run(args)
    except CommandFailed as failed:
        return _fail(failed.command, failed.problem, failed.status)
    except BrokenPipeError:  # the output went to a pager or `head` that stopped reading
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print("schotten-oracle: interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
