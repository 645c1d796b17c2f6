"""What the benches share to count instructions: a script of theirs run under callgrind, and
the copy of the engine being measured (for an A/B run, each bench is run against each copy)."""

from __future__ import annotations

import os
import re
import subprocess
import sys


def callgrind_instructions(script: str, arguments: list[str]) -> int:
    """Instructions callgrind counts in ``python script *arguments``, start-up included (a bench
    subtracts a run that does none of the work). The hash seed is fixed, so that the sets and
    dicts the work touches lay out alike in every run."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        script,
        *arguments,
    ]
    environment = {**os.environ, "PYTHONHASHSEED": "0"}
    result = subprocess.run(command, capture_output=True, text=True, check=True, env=environment)
    found = re.search(r"Collected : (\d+)", result.stderr)
    assert found, result.stderr
    return int(found.group(1))


def engine_home() -> str:
    """The folder of the engine this process imports (the tree a run measures)."""
    import engine

    return os.path.dirname(os.path.dirname(engine.__file__))
