"""What the case loader answers for a folder of cases, in a module light enough for a Python
process of its own to import: tests/test_engine_pages.py runs it there with the browser's
stand-in for rpds, and in its own process with the installed one."""

from __future__ import annotations

from pathlib import Path

from oracle.casefile.errors import CaseError
from oracle.casefile.loader import load_case
from oracle.casefile.rules import load_rules_index


def loaded_or_refused(project: Path, more: Path) -> list[str]:
    """The id of each case of ``project`` and each case file of ``more``, or why the loader
    refused it (read against the rules index of ``project``)."""
    rules = load_rules_index(project / "rules" / "index.yaml")
    out = []
    for path in sorted((project / "cases").glob("*/*.yaml")) + sorted(more.glob("*.yaml")):
        try:
            out.append(load_case(path, rules).id)
        except CaseError as error:
            out.append(error.problem)
    return out
