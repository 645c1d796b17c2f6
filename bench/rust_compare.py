"""Benchmark: positions built and judged as a whole process, against talargv/SchottenRust.

Prints figures; asserts nothing (it exits 1 only when the two engines disagree on a verdict).

Seeded random claim positions (base variant: SchottenRust has no Tactic cards) are written to a
file, one a line; then, each as a whole process timed from outside, start-up included: (a)
``bench/rust_judge.py`` reads the file, builds every ``engine.Position`` (validated constructor) and
runs ``claim_verdict``; (b) a small Rust program (``bench/rust_glue``) reads the same file, lays
each board out in SchottenRust's ``CardsOnBoard`` and asks its ``claim``, which proves a claim by
enumerating every completion of the opponent's side from the cards not on the board. Both print one
verdict a line; every disagreement is printed with its position. The in-process seconds each reports
(reading and printing excluded) are shown too.

How to run it, in the project's virtual environment:

    # 1. A checkout of SchottenRust (any way you get its source), e.g.
    git clone https://github.com/talargv/SchottenRust /tmp/schotten-rust
    # 2. Build the glue once (cargo needed; it builds in --build-dir, default
    #    $TMPDIR/schotten-rust-glue); crates come from cargo's default registry, or offline
    #    from Debian's packaged crates (apt-get install librust-rand-dev librust-itertools-dev)
    #    with --crates debian
    python bench/rust_compare.py --rust-dir /tmp/schotten-rust --build [--crates debian]
    # 3. Later runs reuse the built program
    python bench/rust_compare.py --rust-dir /tmp/schotten-rust [--positions 2000] [--seed 11]
        [--repeats 5] [--mix random|incomplete] [--profile]

The Python processes run with their bytecode cached in a directory of the run's own (an untimed
first run fills it), so that a checkout without ``__pycache__`` starts as an installed engine does.
Without ``--rust-dir`` only the Python side is timed. Nothing is downloaded unless ``--build``
is given (and then only by cargo, for SchottenRust's crates). ``--profile`` adds a cProfile of
the Python side, split into building the positions and judging them.

The line format is described in ``bench/rust_judge.py``. The glue builds SchottenRust's library
unchanged; only for ``--crates debian`` does a one-line shim (``rust_glue/itertools_shim``) stand
in for itertools 0.12 by re-exporting Debian's 0.10.3.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from rust_judge import decode, encode  # the line format, and the judging process
from sampling import random_claim_position  # bench/sampling.py, beside this script

from engine import Card, Position, claim_verdict, make_card

GLUE_DIR = Path(__file__).resolve().parent / "rust_glue"
BINARY = Path("target") / "release" / "schotten-glue"
JUDGE = Path(__file__).resolve().parent / "rust_judge.py"


def incomplete_claim_position(rng: random.Random) -> tuple[Position, int]:
    """A claim where the opponent's side is incomplete (0 to 2 cards) and, three times in four,
    the claimant holds a colour run or three of a kind: the proofs SchottenRust enumerates."""
    kind = rng.randrange(4)
    mine: list[Card] | None = None
    if kind in (0, 1):
        colour, low = rng.randrange(6), rng.randint(1, 7)
        mine = [make_card(colour, value) for value in (low, low + 1, low + 2)]
    elif kind == 2:
        value = rng.randint(1, 9)
        mine = [make_card(colour, value) for colour in rng.sample(range(6), 3)]
    return random_claim_position(
        rng, mine=mine, theirs_count=rng.randint(0, 2), table_cards=(0, 46)
    )


MIXES = {"random": random_claim_position, "incomplete": incomplete_claim_position}


def make_positions(count: int, seed: int, mix: str = "random") -> list[str]:
    """``count`` seeded random base-variant claim positions, as lines (checked to read back)."""
    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        position, stone = MIXES[mix](rng)
        line = encode(position, stone)
        if decode(line) != (position, stone):
            raise AssertionError(f"the line does not read back as its position: {line}")
        lines.append(line)
    return lines


@dataclass
class Runs:
    """Repeated runs of one process: wall and CPU seconds of each, the last stdout, each stderr."""

    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    stdout: str = ""
    stderrs: list[str] = field(default_factory=list)


def run_timed(
    command: list[str], stdin_path: Path | None, repeats: int, env: dict[str, str] | None = None
) -> Runs:
    """Run ``command`` ``repeats`` times, its stdin from ``stdin_path``, timing each whole run."""
    runs = Runs()
    for _ in range(repeats):
        with open(stdin_path or os.devnull, "rb") as stdin:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            done = subprocess.run(
                command, stdin=stdin, capture_output=True, text=True, check=False, env=env
            )
            runs.walls.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        runs.cpus.append(cpu)
        runs.stdout = done.stdout
        runs.stderrs.append(done.stderr)
    return runs


def in_process_seconds(stderr: str) -> float:
    """The ``in-process seconds`` figure a judge printed on stderr."""
    for line in stderr.splitlines():
        if line.startswith("in-process seconds"):
            return float(line.split()[2])
    raise SystemExit(f"no in-process figure in:\n{stderr}")


def fastest(stderrs: list[str]) -> tuple[float, str]:
    """The smallest in-process seconds over the runs, and that run's stderr line."""
    return min((in_process_seconds(stderr), stderr.strip()) for stderr in stderrs)


def build_glue(rust_dir: Path, build_dir: Path, crates: str) -> None:
    """Write the glue crate into ``build_dir`` and ``cargo build --release`` it."""
    build_dir.mkdir(parents=True, exist_ok=True)
    template = (GLUE_DIR / "Cargo.toml.in").read_text()
    manifest = template.replace("@SCHOTTEN_RUST@", str(rust_dir)).replace(
        "@GLUE_DIR@", str(GLUE_DIR)
    )
    (build_dir / "Cargo.toml").write_text(manifest)
    config = build_dir / ".cargo" / "config.toml"
    if crates == "debian":
        config.parent.mkdir(exist_ok=True)
        text = (GLUE_DIR / "cargo-config-debian.toml.in").read_text()
        config.write_text(text.replace("@GLUE_DIR@", str(GLUE_DIR)))
    elif config.exists():
        config.unlink()
    cargo = os.environ.get("CARGO", "cargo")
    print(f"building the glue in {build_dir} ({cargo} build --release, crates from {crates})")
    done = subprocess.run(
        [cargo, "build", "--release"], cwd=build_dir, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:  # SchottenRust's own warnings are shown only when the build fails
        raise SystemExit(f"cargo build failed ({done.returncode}):\n{done.stderr}")


def profile_python(lines: list[str]) -> None:
    """cProfile of the Python side: building the positions, then judging them."""
    import cProfile
    import pstats

    built: list[tuple[Position, int]] = []
    for title, work in (
        ("building the positions", lambda: built.extend(decode(line) for line in lines)),
        ("judging them", lambda: [claim_verdict(p, s) for p, s in built]),
    ):
        profiler = cProfile.Profile()
        profiler.runcall(work)
        print(f"\n--- cProfile: {title} (top 12 by own time) ---")
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(12)


def bytecode_cached_env(cache: Path) -> dict[str, str]:
    """The Python processes' environment: their bytecode written to, and read from, ``cache``.

    Whether the engine's bytecode was cached would otherwise decide the start-up: a fresh
    checkout run with ``PYTHONDONTWRITEBYTECODE`` (as in a sandbox) compiles every module at
    every start, which doubled ``import engine`` here. An untimed first run fills the cache, so
    every timed run starts as an installed engine does, whatever the checkout holds.
    """
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def summary(times: list[float]) -> str:
    return f"best {min(times):.3f} s, median {statistics.median(times):.3f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000, help="random positions (2000)")
    parser.add_argument("--seed", type=int, default=11, help="seed of the random positions (11)")
    parser.add_argument(
        "--mix",
        choices=tuple(MIXES),
        default="random",
        help="random: sampling.random_claim_position (the default); incomplete: the"
        " opponent's side incomplete and the claimant strong, SchottenRust's enumeration cases",
    )
    parser.add_argument("--repeats", type=int, default=5, help="runs of each process (5)")
    parser.add_argument("--rust-dir", type=Path, help="a checkout of talargv/SchottenRust")
    parser.add_argument(
        "--build-dir",
        type=Path,
        default=Path(tempfile.gettempdir()) / "schotten-rust-glue",
        help="where the glue is built ($TMPDIR/schotten-rust-glue)",
    )
    parser.add_argument("--build", action="store_true", help="build the glue with cargo first")
    parser.add_argument(
        "--crates",
        choices=("default", "debian"),
        default="default",
        help="where cargo takes SchottenRust's crates from when building: its default registry"
        " (default) or Debian's packaged crate sources, offline (debian)",
    )
    parser.add_argument("--profile", action="store_true", help="cProfile the Python side")
    args = parser.parse_args()

    print(
        f"Python {platform.python_version()} on {platform.machine()}, {platform.processor() or '?'}"
    )
    if hasattr(os, "getloadavg"):
        print("load average (1, 5, 15 min): " + ", ".join(f"{v:.2f}" for v in os.getloadavg()))
    binary = args.build_dir / BINARY
    if args.rust_dir is not None:
        rust_dir = args.rust_dir.resolve()
        if not (rust_dir / "Cargo.toml").exists():
            raise SystemExit(f"{rust_dir} is not a SchottenRust checkout (no Cargo.toml)")
        if args.build:
            build_glue(rust_dir, args.build_dir, args.crates)
        manifest = args.build_dir / "Cargo.toml"
        if not binary.exists() or f'"{rust_dir}"' not in manifest.read_text():
            raise SystemExit(
                f"no glue built against {rust_dir} in {args.build_dir}: run again with --build"
                " (add --crates debian to build offline from Debian's packaged crates)"
            )

    lines = make_positions(args.positions, args.seed, args.mix)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "positions.txt"
        path.write_text("\n".join(lines) + "\n")
        env = bytecode_cached_env(Path(tmp) / "pycache")
        run_timed([sys.executable, str(JUDGE), str(path)], None, 1, env)  # fills the cache
        startup = run_timed([sys.executable, "-c", "import engine"], None, args.repeats, env)
        python = run_timed([sys.executable, str(JUDGE), str(path)], None, args.repeats, env)
        rust = run_timed([str(binary)], path, args.repeats) if args.rust_dir is not None else None

    count = len(lines)
    disagreements: list[int] = []
    runs = f"each process run {args.repeats} times (bytecode cached), best shown"
    print(f"{count} positions ({args.mix} mix, seed {args.seed}), {runs}")
    header = ("whole s", "us/pos", "cpu s", "in-proc s", "us/pos")
    print(f"{'':<34}" + "".join(f"{title:>10}" for title in header))
    python_inside, python_split = fastest(python.stderrs)

    def row(label: str, runs: Runs, inside: float | None) -> None:
        wall = min(runs.walls)
        figures = [wall, wall / count * 1e6, min(runs.cpus)]
        if inside is not None:
            figures += [inside, inside / count * 1e6]
        formats = ("10.4f", "10.1f", "10.4f", "10.4f", "10.1f")  # seconds, or us a position
        print(f"{label:<34}" + "".join(map(format, figures, formats)))

    row("python: start-up + import engine", startup, None)
    row("python: build + judge (engine)", python, python_inside)
    print(f"  fastest python run: {python_split}")
    print(f"  python whole process: {summary(python.walls)}")
    if rust is None:
        print(
            "\nSchottenRust skipped: no --rust-dir. Get it with"
            " `git clone https://github.com/talargv/SchottenRust /tmp/schotten-rust`, then run"
            " with --rust-dir /tmp/schotten-rust --build (see this script's docstring)."
        )
    else:
        rust_inside, _ = fastest(rust.stderrs)
        row("rust: build + judge (SchottenRust)", rust, rust_inside)
        print(f"  rust whole process: {summary(rust.walls)}")
        wall_ratio = min(python.walls) / min(rust.walls)
        cpu_ratio = min(python.cpus) / max(min(rust.cpus), 1e-6)
        print(
            f"ratio python / rust (best runs): whole process {wall_ratio:.1f}x wall,"
            f" {cpu_ratio:.1f}x cpu; in-process {python_inside / rust_inside:.1f}x"
        )
        ours, theirs = python.stdout.split(), rust.stdout.split()
        if len(ours) != count or len(theirs) != count:
            raise SystemExit(f"verdict counts differ: python {len(ours)}, rust {len(theirs)}")
        reasons = Counter(claim_verdict(*decode(text)).reason.value for text in lines)
        print("python's reasons: " + ", ".join(f"{n} {r}" for r, n in reasons.most_common()))
        disagreements = [i for i in range(count) if ours[i] != theirs[i]]
        print(f"disagreements: {len(disagreements)} of {count}")
        for index in disagreements:
            position, stone = decode(lines[index])
            print(
                f"  #{index}: python {'granted' if ours[index] == '1' else 'refused'},"
                f" rust {'granted' if theirs[index] == '1' else 'refused'};"
                f" {claim_verdict(position, stone)!r}\n    {position!r}\n    line: {lines[index]}"
            )
    if args.profile:
        profile_python(lines)
    if disagreements:
        sys.exit(1)


if __name__ == "__main__":
    main()
