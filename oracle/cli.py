"""``schotten-oracle``: the editors' command line. Ask the engine about a case, check them all,
or start a new one.

    schotten-oracle ask cases/claims/02-last-three-in-your-hand.yaml
    schotten-oracle check
    schotten-oracle new claims my-new-case
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path

from engine import Game
from engine.game import Phase, play_random_game
from oracle.casewriter import case_text
from oracle.diagram import board_text
from oracle.loader import CaseError, load_case_file, load_rules_index
from oracle.model import RulesIndex
from oracle.render import CASES_DIR, RULES_INDEX, CatalogueError, build_catalogue
from oracle.verify import describe_verdict, verify_case
from oracle.yamlsource import SourceError, shown_path

MODELINE = "# yaml-language-server: $schema=../../oracle/schema/case.schema.json"


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
        raise SystemExit(error.located_from(root)) from None


def ask(args: argparse.Namespace) -> int:
    """Print a case's board and the engine's answers, whether or not the case expects any."""
    path = Path(args.case).resolve()
    root = find_root(path.parent)
    try:
        case = load_case_file(path, _rules(root))
    except CaseError as error:
        print(error.located_from(root), file=sys.stderr)
        return 2
    report = verify_case(case)
    their_hand = case.table.their_hand if case.table else None
    where = f"{shown_path(case.path, root)}:{case.line}"
    print(f"case {case.id!r} ({where}), {case.position.variant.name}")
    print(f"situation: {case.situation}\n")
    print(board_text(case.position, their_hand=their_hand))
    print()
    if report.engine_error is not None:
        print(report.problems(root)[0])
        return 1
    for check in report.checks:
        print("\n".join(describe_verdict(check.verdict)))
    for game_check in report.game_checks:
        print(f"{game_check.what}: {game_check.actual}")
        for line in game_check.detail:
            print(f"  {line}")
    if case.table is not None:
        state = case.game_state()
        moves = [str(move) for move in state.legal_moves()]
        shown = ", ".join(moves[:40]) + (f", ... ({len(moves)} in all)" if len(moves) > 40 else "")
        print(f"\nat the case's moment ({state.phase.value} step), your legal moves: {shown}")
    problems = report.explained_problems(root)
    if problems:
        print("\nthe case expects otherwise:")
        print("\n".join(problems))
        return 1
    expects_nothing = case.draft and any(claim.expect is None for claim in case.claims)
    print(
        "\n"
        + (
            "draft: copy these answers into the case once you agree with them"
            if expects_nothing
            else "the case agrees with the engine"
        )
    )
    return 0


def check(args: argparse.Namespace) -> int:
    """Load and replay every case; print each problem on one line; exit 1 if there is any."""
    root = find_root(Path(args.root).resolve())
    try:
        catalogue = build_catalogue(root)
    except CatalogueError as error:
        print("\n".join(error.problems), file=sys.stderr)
        return 2
    for problem in catalogue.problems:
        print(problem)
    published, drafts = len(catalogue.published), len(catalogue.drafts)
    print(
        f"{len(catalogue.reports)} cases: {published} verified and published, {drafts} drafts,"
        f" {len(catalogue.problems)} problem lines"
    )
    return 1 if catalogue.problems else 0


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
"""


def new(args: argparse.Namespace) -> int:
    """Write a new draft case file in ``cases/TOPIC/``, numbered after the ones already there."""
    root = find_root(Path(args.root).resolve())
    folder = root / CASES_DIR / args.topic
    folder.mkdir(parents=True, exist_ok=True)
    numbers = [int(p.name[:2]) for p in folder.glob("*.yaml") if p.name[:2].isdigit()]
    path = folder / f"{max(numbers, default=0) + 1:02d}-{args.case_id}.yaml"
    if args.from_seed is not None:
        game = Game.named(args.variant, seed=args.from_seed)
        finished = play_random_game(game, random.Random(args.from_seed))
        state = game.new_initial_state()
        for move in finished.moves:
            if state.turn >= args.turn and state.phase in (Phase.PLAY, Phase.CLAIM):
                break
            state.apply(move)
        text = case_text(state, case_id=args.case_id) + "turn:\n  moves: []\n"
    else:
        text = SKELETON.format(modeline=MODELINE, case_id=args.case_id, variant=args.variant)
    path.write_text(text, encoding="utf-8")
    shown = shown_path(path, root)
    print(f"wrote {shown}; edit it, then: schotten-oracle ask {shown}")
    return 0


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
    new_parser.add_argument("--root", default=".", help="the project folder (default: here)")
    new_parser.set_defaults(run=new)
    return main


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = parser().parse_args(argv)
    status: int = args.run(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
