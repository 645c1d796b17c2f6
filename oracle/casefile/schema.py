"""The JSON Schema editors' tools check case files against, made from the engine and the index.

``oracle/schema/case.base.schema.json`` is the structure of a case, written by hand, and each kind
of question adds its part (``oracle/schema/kinds/``): together, the case schema
(:func:`oracle.casefile.questions.case_schema`) the loader uses for any project. The editors'
schema, ``oracle/schema/case.schema.json`` (named by the modeline of every case and by
``.vscode/settings.json``), adds what only this project knows: every card by name, every rule id of
``rules/index.yaml`` and every misreading, as enums, so that an editor completes them and
underlines a misspelt one while typing. It is generated, committed, and checked to be current by
the tests and ``schotten-oracle check``, and written again by every site build and by
``make schema`` (``python -m oracle.casefile.schema``); ``--check`` only says whether it is
current.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

from engine import CARDS, COLOUR_NAMES, SECOND_JOKER_NAME, Tactic, card_name
from oracle.casefile.model import RulesIndex
from oracle.casefile.questions import case_schema
from oracle.casefile.rules import load_rules_index
from oracle.judges.misreadings import MISREADINGS

EDITOR_SCHEMA = Path("oracle") / "schema" / "case.schema.json"
"""Where the editors' schema lies, below the project folder."""


def _any_case(word: str) -> str:
    return "".join(f"[{letter.upper()}{letter}]" for letter in word)


def editor_case_schema(rules: RulesIndex) -> dict[str, Any]:
    """The case schema with the cards, this index's rule ids and the misreadings as enums."""
    schema = copy.deepcopy(case_schema())
    definitions = schema["definitions"]
    names = [card_name(card) for card in CARDS] + sorted(
        {card_name(int(tactic)) for tactic in Tactic} | {SECOND_JOKER_NAME}
    )
    colours = "|".join(_any_case(colour) for colour in COLOUR_NAMES)
    definitions["card"] = {
        "description": definitions["card"]["description"],
        "anyOf": [
            {"enum": names},
            {"type": "string", "pattern": f"^\\s*({colours})\\s+[1-9]\\s*$"},
        ],
    }
    definitions["rule_id"] = {
        "description": f"A rule id from {rules.path.parent.name}/{rules.path.name}.",
        "enum": [entry.id for entry in rules.entries],
    }
    schema["properties"]["rules"]["items"] = {"$ref": "#/definitions/rule_id"}
    guards = schema["properties"]["guards_against"]
    guards["items"] = {"enum": list(MISREADINGS)}
    schema["title"] = schema.get("title", "Schotten Totten case") + " (for editors)"
    return schema


def editor_schema_text(rules: RulesIndex) -> str:
    """The editors' schema as its file holds it."""
    return json.dumps(editor_case_schema(rules), indent=2, ensure_ascii=False) + "\n"


def stale_editor_schema(root: Path, rules: RulesIndex) -> str | None:
    """A one-line problem when the committed editors' schema is not what the project makes."""
    path = root / EDITOR_SCHEMA
    try:
        current = path.read_text(encoding="utf-8")
    except OSError:
        current = ""
    if current == editor_schema_text(rules):
        return None
    return (
        f"{EDITOR_SCHEMA}: out of date with the cards, rules/index.yaml or the misreadings;"
        " run make schema (python -m oracle.casefile.schema) and commit it"
    )


def main(argv: list[str] | None = None) -> int:
    """Write the editors' schema of the project in the current folder (or the one given); with
    ``--check``, write nothing and exit 1 with a one-line message when it is not current (the
    pre-commit hook of a catalogue repository, ``.pre-commit-hooks.yaml``)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in arguments
    folders = [argument for argument in arguments if argument != "--check"]
    root = Path((folders or ["."])[0])
    rules = load_rules_index(root / "rules" / "index.yaml")
    if check:
        problem = stale_editor_schema(root, rules)
        if problem is not None:
            print(problem, file=sys.stderr)
            return 1
        return 0
    (root / EDITOR_SCHEMA).write_text(editor_schema_text(rules), encoding="utf-8")
    print(f"wrote {EDITOR_SCHEMA}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
