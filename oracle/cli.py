"""``schotten-oracle``: the editors' command line. Ask the engine about a case, check them all,
or start a new one.

    schotten-oracle ask cases/claims/02-last-three-in-your-hand.yaml
    schotten-oracle check
    schotten-oracle new claims my-new-case
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

import yaml

from engine import Game
from engine.game import Phase
from engine.records import play_random_game
from oracle.casefile.loader import CaseError, case_files, load_case_file, load_rules_index
from oracle.casefile.model import Case, RulesIndex, TurnExpectation
from oracle.casefile.schema import stale_editor_schema
from oracle.casefile.source import SourceError, read_text, shown_path
from oracle.casefile.writer import case_text
from oracle.conformance.export import (
    engine_version,
    export_json,
    export_jsonl,
    is_export,
    read_export,
)
from oracle.conformance.runner import (
    CommandEngine,
    Result,
    add_arguments,
    engine_command,
    is_junit,
    junit_xml,
    report,
    run,
    select,
)
from oracle.diagram import board_text, written_board_text
from oracle.misreadings.matrix import published_records
from oracle.outputs import OutputRefused, check_output, write_output
from oracle.site.render import (
    CASES_DIR,
    RULES_INDEX,
    CatalogueError,
    build_catalogue,
    site_pages,
    topic_pages,
    unshown_topics,
    verified_catalogue,
)
from oracle.site.walkthrough import WalkthroughError, replay_walkthrough
from oracle.verify.replay import CaseReport, describe_verdict, verify_case, words

MAX_RECORD_BYTES = 1024 * 1024
"""The largest game record ``replay`` reads: a whole game takes a few kilobytes."""

MAX_EXPORT_BYTES = 64 * 1024 * 1024
"""The largest export ``conform --catalogue`` reads: the catalogue's takes about a megabyte."""

MODELINE = "# yaml-language-server: $schema=../../oracle/schema/case.schema.json"
ID_PATTERN = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


def find_root(start: Path) -> Path:
    """The project folder: the nearest parent of ``start`` holding ``rules/index.yaml``."""
    for folder in (start, *start.parents):
        if (folder / RULES_INDEX).is_file():
            return folder
    raise SystemExit(
        f"schotten-oracle: no {RULES_INDEX} in {start} or above; run it inside the project"
    )


def _rules(root: Path) -> RulesIndex:
    try:
        return load_rules_index(root / RULES_INDEX)
    except SourceError as error:
        raise SystemExit("\n".join(error.lines_from(root))) from None


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
        print(f"schotten-oracle: {args.case} is a folder; give one case file", file=sys.stderr)
        return 2
    root = find_root(path.parent)
    if not path.is_relative_to(root / CASES_DIR):
        print(
            f"schotten-oracle: {args.case} is not a case file: cases live under {CASES_DIR}/",
            file=sys.stderr,
        )
        return 2
    try:
        case = load_case_file(path, root / CASES_DIR, _rules(root))
    except CaseError as error:
        print("\n".join(error.lines_from(root)), file=sys.stderr)
        return 2
    if case.impossible is not None:
        return _ask_impossible(case, root)
    report = verify_case(case)
    their_hand = case.table.their_hand if case.table else None
    where = f"{shown_path(case.path, root)}:{case.line}"
    print(f"case {case.id!r} ({where}), {case.position.variant.name}")
    print(f"situation: {case.situation}\n")
    print(board_text(case.position, their_hand=their_hand))
    print()
    for check in report.checks:
        print("\n".join(describe_verdict(check.verdict)))
    for game_check in report.game_checks:
        if game_check.what == "the turn":
            print(f"{game_check.what}: {game_check.actual}")
            continue
        agreed = game_check.expected is not None and game_check.matches
        if game_check.what == "the log" and (agreed or game_check.expected is None):
            if agreed:  # the turn above is the log; only say that it agrees
                print("the log [log]: as expected")
            continue
        key = EXPECT_KEYS.get(game_check.what)
        label = f"{game_check.what} [{key}]" if key else game_check.what
        print(f"{label}: {game_check.actual}" + (" (as expected)" if agreed else ""))
    if case.table is not None:
        state = case.game_state()
        moves = [str(move) for move in state.legal_moves()]
        limit = len(moves) if args.all_moves else 40
        shown = ", ".join(moves[:limit])
        if len(moves) > limit:
            shown += f", ... ({len(moves)} in all; --all-moves shows them)"
        print(f"\nat the case's moment ({state.phase.value} step), your legal moves: {shown}")
    if report.engine_error is not None:
        print("\n" + report.problems(root)[0])
        return 1
    problems = report.explained_problems(root)
    if problems:
        print("\nthe case expects otherwise:")
        print("\n".join(problems))
        return 1
    expects_nothing = case.draft and (
        any(claim.expect is None for claim in case.claims)
        or any(play.legal is None for play in case.plays)
        or (case.turn is not None and case.turn.expect == TurnExpectation())
        or not (case.claims or case.plays or case.turn)
    )
    print(
        "\n"
        + (
            "draft: copy these answers into the case once you agree with them"
            if expects_nothing
            else "the case agrees with the engine"
        )
    )
    return 0


def _ask_impossible(case: Case, root: Path) -> int:
    """``ask`` for a board the case says the engine must refuse: the board as written (no
    position of it can be built to draw), and the engine's refusal or its acceptance."""
    assert case.impossible is not None
    board, report = case.impossible, verify_case(case)
    print(f"case {case.id!r} ({shown_path(case.path, root)}:{case.line}), {board.board.variant}")
    print(f"situation: {case.situation}\n")
    print("the board as the case writes it (the case says no game can reach it):")
    print(written_board_text(board.board))
    print()
    if board.refusal is None:
        print("the board [impossible]: the engine accepts it")
    else:
        print(f"the board [impossible]: refused: {words(board.refusal)}")
        print(f"  (the loader points at line {board.refusal_line})")
    problems = report.problems(root)
    if problems:
        print("\nthe case expects otherwise:")
        print("\n".join(problems))
        return 1
    print(
        "\n"
        + (
            "draft: copy the refusal into impossible: once you agree with it"
            if board.expected is None
            else "the case agrees with the engine"
        )
    )
    return 0


EXPECT_KEYS = {
    "the log": "log",
    "the winner": "winner",
    "the stones held": "held",
    "your hand": "hand",
    "the discards": "discards",
    "whose turn it is": "next",
}
"""The key under ``turn.expect`` that each answer of a turn goes to, printed by ``ask``."""


def _nav_pages(entry: object) -> set[str]:
    """Every page named in a mkdocs ``nav`` entry, however deeply nested."""
    if isinstance(entry, str):
        return {entry}
    if isinstance(entry, list):
        return set().union(*(_nav_pages(item) for item in entry))
    if isinstance(entry, dict):
        return set().union(*(_nav_pages(item) for item in entry.values()))
    return set()


def pages_missing_from_nav(root: Path, shown_topics: dict[str, str]) -> list[str]:
    """A line for each page showing a topic's table that the site's navigation leaves out."""
    try:
        config = yaml.safe_load((root / "mkdocs.yml").read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        return [f"mkdocs.yml: cannot be read to check its nav: {error}"]
    if not isinstance(config, dict) or "nav" not in config:
        return []  # without a nav, mkdocs lists every page itself
    listed = _nav_pages(config["nav"])
    return [
        f"site_src/{page}: shows the table of {topic!r} but is not in the nav of mkdocs.yml;"
        " add it there, or the strict site build stops"
        for topic, page in sorted(shown_topics.items())
        if page not in listed
    ]


def check(args: argparse.Namespace) -> int:
    """Load and replay every case; print each problem on one line; exit 1 if there is any."""
    root = find_root(Path(args.root).resolve())
    try:
        catalogue = build_catalogue(root)
    except CatalogueError as error:
        print("\n".join(error.problems), file=sys.stderr)
        return 2
    problems = list(catalogue.problems)
    shown_topics = topic_pages(site_pages(root / "site_src"))
    problems += unshown_topics(catalogue.published, shown_topics, root)
    problems += pages_missing_from_nav(root, shown_topics)
    stale = stale_editor_schema(root, catalogue.rules)
    if stale is not None:
        problems.append(stale)
    for problem in problems:
        print(problem)
    named = {line.split(":", 1)[0] for line in problems if not line.startswith(" ")}
    files = {shown_path(path, root) for path in case_files(root / CASES_DIR)}
    with_problems = named & files
    published = sum(shown_path(r.case.path, root) not in with_problems for r in catalogue.published)
    drafts = sum(shown_path(r.case.path, root) not in with_problems for r in catalogue.drafts)
    elsewhere = len(named - files)
    # Each file is counted once: a problem outweighs being verified, so the parts add up.
    print(
        f"{len(files)} case files: {published} verified, {drafts}"
        f" draft{'' if drafts == 1 else 's'}, {len(with_problems)} with problems"
        + (
            f"; {elsewhere} problem{'' if elsewhere == 1 else 's'} outside the case files"
            " (the site cannot be published until fixed)"
            if elsewhere
            else ""
        )
    )
    refused = sum(
        r.case.impossible is not None and shown_path(r.case.path, root) not in with_problems
        for r in catalogue.published
    )
    if refused:  # counted among the verified; said apart, since they ask no other question
        boards = "is a board" if refused == 1 else "are boards"
        print(
            f"of the {published} verified, {refused} {boards} the engine refuses as the case"
            " pins (impossible:)"
        )
    return 1 if problems else 0


SKELETON = """{modeline}
id: {case_id}
situation: Describe the board from your side, as the table will show it
why: Say in a few words why the engine must answer as it does
variant: {variant}
draft: true
rules: []
position:
  stones:
    - stone: 1
      you: [red 7, red 8, red 9]
      them: [blue 7, blue 8]
  hand: [green 1, green 2]
claims:
  - stone: 1
# To ask about moves and turns instead of (or beside) claims, set up the rest of the game and
# ask; cards the case does not place lie in the decks, beneath any you list:
# table:
#   their_hand: [pink 1, pink 2]
#   clan_deck: [yellow 4]          # top card first
#   tactics_played: {{you: 0, them: 0}}
# plays:
#   - move: green 1 on 2
#     expect: legal
# turn:
#   moves: [green 1 on 2, claim 1]
#   expect:
#     log: ["you: green 1 on 2", "you: claim 1", "you: draw clan"]
#     held: {{you: [1], them: []}}
"""


IMPOSSIBLE_SKELETON = """{modeline}
id: {case_id}
situation: Describe the board that cannot happen, from your side
why: Say which rule the board breaks, in a few words
variant: {variant}
draft: true
rules: []
position:
  stones:
    - stone: 1
      you: [red 6, red 7, red 8, red 9]
      them: [blue 7, blue 8]
  hand: [green 1, green 2]
# The engine must refuse this board: ask prints its refusal after "refused:". Once you agree
# with it, write it here in place of true, and remove draft: true. A table may follow, as in
# any case about turns, when the refusal is about the game around the board.
impossible: true
"""


def next_case_number(folder: Path) -> int:
    """One more than the largest number that starts a file name in ``folder`` (``100-x.yaml``
    counts as 100), so a new case sorts after every case already there."""
    numbers = [
        int(match.group(1))
        for entry in (folder.iterdir() if folder.is_dir() else ())
        if (match := re.match(r"(\d+)", entry.name))
    ]
    return max(numbers, default=0) + 1


def new(args: argparse.Namespace) -> int:
    """Write a new draft case file in ``cases/TOPIC/``, numbered after the ones already there."""
    root = find_root(Path(args.root).resolve())
    for value, what in ((args.case_id, "id"), (args.topic, "topic")):
        if not ID_PATTERN.fullmatch(value):
            print(
                f"schotten-oracle: {value!r} is not a valid {what}: use lowercase words joined"
                " by hyphens, as in 'last-three-in-your-hand'",
                file=sys.stderr,
            )
            return 2
    try:
        taken = {report.case.id: report.case for report in build_catalogue(root).reports}
    except CatalogueError as error:
        print("\n".join(error.problems), file=sys.stderr)
        return 2
    if args.case_id in taken:
        where = f"{shown_path(taken[args.case_id].path, root)}:{taken[args.case_id].line}"
        print(f"schotten-oracle: the id {args.case_id!r} is taken by {where}", file=sys.stderr)
        return 2
    written = re.compile(rf"^id:\s*['\"]?{re.escape(args.case_id)}['\"]?\s*(#.*)?$", re.MULTILINE)
    for path in case_files(root / CASES_DIR):  # files that do not load yet still hold their id
        if path.is_symlink() or not path.is_file():  # never follow a link or wait on a FIFO
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if written.search(text):
            shown = shown_path(path, root)
            print(f"schotten-oracle: the id {args.case_id!r} is taken by {shown}", file=sys.stderr)
            return 2
    folder = root / CASES_DIR / args.topic
    for place in (root / CASES_DIR, folder):
        if place.is_symlink():  # check calls a linked folder an error: never write through one
            print(
                f"schotten-oracle: {shown_path(place, root)} is a symbolic link; case folders"
                " must be real folders, so nothing was written",
                file=sys.stderr,
            )
            return 2
    if folder.exists() and not folder.is_dir():
        print(
            f"schotten-oracle: {shown_path(folder, root)} is a file, not a topic folder;"
            " choose another topic or move that file",
            file=sys.stderr,
        )
        return 2
    path = folder / f"{next_case_number(folder):02d}-{args.case_id}.yaml"
    if args.impossible and args.from_seed is not None:
        print(
            "schotten-oracle: --impossible starts a board the engine refuses, --from-seed one"
            " a real game reached; choose one",
            file=sys.stderr,
        )
        return 2
    if args.impossible:
        text = IMPOSSIBLE_SKELETON.format(
            modeline=MODELINE, case_id=args.case_id, variant=args.variant
        )
    elif args.from_seed is not None:
        game = Game.named(args.variant, seed=args.from_seed)
        finished = play_random_game(game, random.Random(args.from_seed))
        state = game.new_initial_state()
        for move in finished.moves:
            if state.turn >= args.turn and state.phase in (Phase.PLAY, Phase.CLAIM):
                break
            state.apply(move)
        if state.is_over:
            print(
                f"schotten-oracle: the game of seed {args.from_seed} ends on turn"
                f" {finished.turn}; choose an earlier --turn",
                file=sys.stderr,
            )
            return 2
        text = case_text(state, case_id=args.case_id) + "turn:\n  moves: []\n"
    else:
        text = SKELETON.format(modeline=MODELINE, case_id=args.case_id, variant=args.variant)
    shown = shown_path(path, root)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8") as created:  # never over an editor's file
            created.write(text)
    except FileExistsError:
        print(f"schotten-oracle: {shown} already exists; nothing was written", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"schotten-oracle: cannot write {shown}: {error.strerror}", file=sys.stderr)
        return 2
    print(f"wrote {shown}; edit it, then: {_command()} ask {shown}")
    if args.topic not in topic_pages(site_pages(root / "site_src")):
        print(
            f"note: no page shows the topic {args.topic!r} yet; before publishing, add"
            f" <!-- oracle:verdict-table {args.topic} --> to a page in site_src/"
        )
    return 0


def replay(args: argparse.Namespace) -> int:
    """Replay a game record (as the "Play a game" page downloads it); check its result."""
    path = Path(args.record)
    try:
        text = read_text(path, max_bytes=MAX_RECORD_BYTES, what="a game record")
    except SourceError as error:
        print(f"schotten-oracle replay: {error.located}", file=sys.stderr)
        return 2
    try:
        walkthrough = replay_walkthrough(text, path)
    except WalkthroughError as error:
        print(error, file=sys.stderr)
        return 1
    moves = sum(len(turn.events) for turn in walkthrough.turns)
    print(
        f"{args.record}: {walkthrough.variant} game, seed {walkthrough.seed}, {moves} moves"
        f" in {len(walkthrough.turns)} turns: {walkthrough.result}"
    )
    return 0


def _published(root: Path) -> tuple[CaseReport, ...]:
    try:
        return verified_catalogue(root).published
    except CatalogueError as error:
        raise SystemExit(
            "schotten-oracle: the catalogue is not verified:\n" + "\n".join(error.problems)
        ) from None


def export(args: argparse.Namespace) -> int:
    """Write every published case, with its verified answers, as JSON or JSON Lines."""
    root = find_root(Path(args.root).resolve())
    writing = args.output not in (None, "-")
    if writing:
        try:  # before the catalogue is replayed: a refused file costs nothing
            check_output(Path(args.output), is_export, force=args.force, projects=[root])
        except OutputRefused as error:
            print(f"schotten-oracle export: {error}", file=sys.stderr)
            return 2
    records = published_records(_published(root))
    writer = export_jsonl if args.format == "jsonl" else export_json
    text = writer(records, engine_version())
    if not writing:
        sys.stdout.write(text)
        return 0
    try:
        write_output(Path(args.output), text, is_export, force=args.force, projects=[root])
    except OutputRefused as error:
        print(f"schotten-oracle export: {error}", file=sys.stderr)
        return 2
    print(f"wrote {len(records)} cases to {args.output}", file=sys.stderr)
    return 0


def _here() -> list[Path]:
    """The project the working folder lies in, if any."""
    return [
        folder for folder in (Path.cwd(), *Path.cwd().parents) if (folder / RULES_INDEX).is_file()
    ][:1]


def conform(args: argparse.Namespace) -> int:
    """Run the catalogue through another engine; exit 1 if any case fails."""
    command = engine_command(args.engine)
    if not command:
        print(
            "schotten-oracle conform: give the engine after --, e.g. conform -- ./my-engine",
            file=sys.stderr,
        )
        return 2
    if args.catalogue is not None:
        try:
            records = read_export(
                read_text(args.catalogue, max_bytes=MAX_EXPORT_BYTES, what="an export")
            )
        except SourceError as error:
            print(f"schotten-oracle conform: {error.located}", file=sys.stderr)
            return 2
        except ValueError as error:
            shown = shown_path(args.catalogue, None)
            print(f"schotten-oracle conform: {shown}: {error}", file=sys.stderr)
            return 2
    else:
        records = published_records(_published(find_root(Path.cwd())))
    if args.junit is not None:
        try:  # before the run: a report that cannot be written must not cost a whole run
            check_output(args.junit, is_junit, force=args.force, projects=_here())
        except OutputRefused as error:
            print(f"schotten-oracle conform: {error}", file=sys.stderr)
            return 2
    chosen = select(records, args.keyword)
    if not chosen:
        shown = " ".join(f"-k {keyword!r}" for keyword in args.keyword)
        print(f"schotten-oracle conform: no case matches {shown}", file=sys.stderr)
        return 2
    ending = (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)  # a kill, a closed terminal
    previous = {number: signal.signal(number, _interrupted) for number in ending}
    try:
        results = run(CommandEngine(command, args.timeout), chosen)
    except KeyboardInterrupt:  # run() has stopped the engine and all it started
        print("schotten-oracle conform: interrupted; the engine was stopped", file=sys.stderr)
        return 130
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    report(results, args.quiet)
    if args.junit is not None:
        try:
            report_text = junit_xml(results, " ".join(command))
            write_output(args.junit, report_text, is_junit, force=args.force, projects=_here())
        except OutputRefused as error:
            print(f"schotten-oracle conform: {error}", file=sys.stderr)
            return 2
    if any(result.result is Result.FAIL for result in results):
        return 1
    if not any(result.result is Result.PASS for result in results):
        print("schotten-oracle conform: no case passed: the engine supports none of them")
        return 1
    return 0


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
    check_parser = commands.add_parser(
        "check",
        help="replay every case; print one line per problem",
        description="Load and replay every case under cases/; exit 1 if any is invalid or drifted.",
    )
    check_parser.add_argument("--root", default=".", help="the project folder (default: here)")
    check_parser.set_defaults(run=check)
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
    replay_parser = commands.add_parser(
        "replay",
        help="replay a recorded game and check the result it claims",
        description="Replay a game record (the notation of games/ and of the Play a game page),"
        " move by move; exit 1 if a move is illegal, the game does not end, or the result differs.",
    )
    replay_parser.add_argument("record", help="the record file, e.g. games/walkthrough.txt")
    replay_parser.set_defaults(run=replay)
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
    conform_parser = commands.add_parser(
        "conform",
        help="run the catalogue through another engine: conform -- COMMAND ...",
        description="Start COMMAND, send it every published case (a JSON line each) and compare"
        " its answers with the catalogue's; print pass, fail or unsupported per case.",
    )
    add_arguments(conform_parser)
    conform_parser.set_defaults(run=conform)
    return main


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except BrokenPipeError:  # the output went to a pager or `head` that stopped reading
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print("schotten-oracle: interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
