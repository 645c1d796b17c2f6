"""How the editor's loop and the site build grow with the catalogue: CPU for N cases.

Copies the project to a scratch folder, adds generated claims cases (each the board of its own
random game, answered as the engine answers it) until there are ``--cases``, then measures the
CPU time (children included) of replaying the catalogue with pytest and of the strict site build.
It also prints the peak memory of each process and of the larger, and the built site's size,
split into the case pages and everything else. The goal (issue 21): 10,000 cases replayed and
built within 2 minutes of CPU and 500 MB, with a site whose size per case does not grow with the
catalogue.

    .venv/bin/python bench/build_bench.py --cases 1000

The misreadings' answers of the copy are kept in a cache folder of its own (not the user's), so
the build works them out afresh, as a first build of such a catalogue would. ``--keep DIR`` keeps
the built site there (DIR must not exist), to compare the builds of two versions of the code
(``diff -r``): the generated catalogue is the same at every run.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from engine import CLAIM_RULES, Game, Phase, claim_verdict, play_random_game
from oracle.casefile.editing import yaml_scalar
from oracle.casefile.loader import load_case_text
from oracle.casefile.model import RulesIndex
from oracle.casefile.rules import load_rules_index
from oracle.casefile.vocabulary import RULES_INDEX
from oracle.casefile.writer import case_text

ROOT = Path(__file__).resolve().parent.parent


class Measure(NamedTuple):
    """What one process of the benchmark took."""

    cpu: float
    """CPU seconds, user and system, its children's included."""
    wall: float
    peak: float
    """Its peak memory in MB with its children's (a site build's Node, which makes the engine
    pages' snapshot, peaks at about 220 MB)."""
    alone: float
    """Its own peak memory in MB (``VmHWM``, read while it runs; 0 where there is none)."""
    status: int


def cpu_of(command: list[str], cwd: Path) -> tuple[float, float, int]:
    """CPU seconds (user + system, children included), wall seconds and exit status."""
    measure = measured(command, cwd)
    return measure.cpu, measure.wall, measure.status


def measured(command: list[str], cwd: Path) -> Measure:
    """Run ``command`` in ``cwd`` and measure it (:class:`Measure`): its own use of the
    machine, from ``wait4``, so that the replay's and the build's peaks come apart."""
    started = time.perf_counter()
    alone = 0
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(
            command, cwd=cwd, stdout=out, stderr=err, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        )
        status_file = Path(f"/proc/{process.pid}/status")
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            try:
                high = status_file.read_text().split("VmHWM:")[1].split()[0]
                alone = max(alone, int(high))
            except (OSError, IndexError, ValueError):
                pass  # not Linux, or the process is ending
            time.sleep(0.2)
        process.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - started
        if process.returncode != 0:
            for stream in (out, err):
                stream.seek(0)
                print(stream.read().decode(errors="replace")[-2000:], file=sys.stderr)
    cpu = usage.ru_utime + usage.ru_stime
    return Measure(cpu, wall, usage.ru_maxrss / 1024, alone / 1024, process.returncode)  # KiB


GENERATED_TOPICS = ("claims", "more-claims", "early-claims", "formations")
"""The topics the generated cases are spread over (each shown in a table of the site)."""


def generated_case(number: int, index: RulesIndex) -> str | None:
    """A claims case of its own: the board a random base game of seed ``number`` reaches at a
    random turn, every stone the player to move can claim asked, each answer and reason the
    engine's, its prose marked as reviewed for these answers (as ``schotten-oracle pin
    --reviewed`` marks it). None when no stone of that board can be claimed."""
    rng = random.Random(number)
    game = Game.named("base", seed=number)
    moves = play_random_game(game, random.Random(number)).moves
    state = game.new_initial_state()
    for move in moves[: rng.randrange(20, max(21, len(moves)))]:
        state.apply(move)
    if state.is_over or state.phase is not Phase.PLAY:
        return None
    me = state.current_player
    position = state.position(me)
    asked = [
        n
        for n in range(1, 10)
        if position.stone(n).claimed_by is None and position.stone(n).is_complete(me)
    ]
    if not asked:
        return None
    verdicts = [claim_verdict(position, n) for n in asked]
    rules = sorted({CLAIM_RULES.get(v.reason, "claim.prove-incomplete-side") for v in verdicts})
    text = case_text(
        state,
        case_id=f"generated-board-{number}",
        situation=f"Generated board {number}: the board of a random game of seed {number}",
        why="The build benchmark's own case: each claim answered as the engine answers it",
        rules=rules,
        draft=False,
    )
    lines = ["claims:"]
    for verdict in verdicts:
        lines += [
            f"  - stone: {verdict.stone}",
            f"    expect: {'granted' if verdict.granted else 'refused'}",
            f"    because: {yaml_scalar(' '.join(verdict.explanation.split()))}",
        ]
    text += "\n".join(lines) + "\n"
    case = load_case_text(text, Path(f"cases/claims/{number}.yaml"), index)
    why_line = next(line for line in text.splitlines() if line.startswith("why: "))
    return text.replace(
        why_line, f"{why_line}\nreviewed: {yaml_scalar(case.answers_fingerprint)}", 1
    )


def grow(project: Path, wanted: int) -> int:
    """Add generated cases, each a board of its own (:func:`generated_case`), until the
    catalogue holds ``wanted``. Copies of the published cases would not do: the catalogue
    refuses a case that asks and catches exactly what another does."""
    count = len(list((project / "cases").glob("*/*.yaml")))
    rules = load_rules_index(project / RULES_INDEX)
    seed = 0
    while count < wanted:
        seed += 1
        text = generated_case(seed, rules)
        if text is None:
            continue
        topic = GENERATED_TOPICS[count % len(GENERATED_TOPICS)]
        (project / "cases" / topic / f"{100000 + seed}-generated.yaml").write_text(text)
        count += 1
    return count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--keep", type=Path, help="keep the built site in this new folder")
    args = parser.parse_args()
    if args.keep is not None and args.keep.exists():
        parser.error(f"{args.keep} exists; --keep makes a new folder")
    sys.path.insert(0, str(ROOT / "tests"))
    from conftest import copy_project  # the project as the site tests copy it

    with tempfile.TemporaryDirectory() as scratch:
        project = copy_project(Path(scratch))
        shutil.copy(ROOT / "pyproject.toml", project / "pyproject.toml")
        # The misreadings' answers of the generated cases are kept apart from the user's cache,
        # which every later run would otherwise read whole: the build works them out afresh.
        os.environ["SCHOTTEN_ORACLE_CACHE"] = str(Path(scratch) / "cache")
        total = grow(project, args.cases)
        print(f"{total} cases")
        replay = measured([sys.executable, "-m", "pytest", "-q", "cases"], project)
        build = measured([sys.executable, "-m", "mkdocs", "build", "--strict", "-q"], project)
        for name, measure in (("replayed by pytest:  ", replay), ("strict site build:   ", build)):
            print(
                f"  {name} {measure.cpu:6.1f} s CPU, {measure.wall:6.1f} s wall, peak"
                f" {measure.peak:.0f} MB, {measure.alone:.0f} MB alone (exit {measure.status})"
            )
        cpu, peak = replay.cpu + build.cpu, max(replay.peak, build.peak)
        site = project / "site"
        size = sum(path.stat().st_size for path in site.rglob("*") if path.is_file())
        pages = sum(path.stat().st_size for path in (site / "cases").rglob("*") if path.is_file())
        print(f"  both:                 {cpu:6.1f} s CPU, peak {peak:.0f} MB")
        print(
            f"  the site:             {size / 1e6:6.1f} MB: case pages {pages / 1e6:.1f} MB"
            f" ({pages / total / 1e3:.1f} KB a case), the rest {(size - pages) / 1e6:.1f} MB"
        )
        for name in ("search/search_index.json", "sitemap.xml", "all-cases.html"):
            if (site / name).exists():
                print(f"    {name}: {(site / name).stat().st_size / 1e6:.1f} MB")
        if args.keep is not None:
            shutil.move(site, args.keep)
            print(f"  the built site kept in {args.keep}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
