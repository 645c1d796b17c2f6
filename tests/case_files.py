"""The case files the tests write, from one place: the project a plugin test runs in, the case
every test that needs one case that passes writes (:func:`passing_case`), a builder of small
cases (:func:`case_yaml`), and the broken files whose one located line the loader, the plugin and
the build must each give (:data:`BAD_FILES`).

In the YAML texts, a comment ``#@`` marks the line an error must point at, and ``#@name`` marks
another line a message mentions (available to the message pattern as ``{name}``).
"""

from __future__ import annotations

import tempfile
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml

from oracle.casefile.editing import edited_text
from oracle.casefile.questions import answers_fingerprint
from oracle.casefile.rules import load_rules_index
from oracle.casefile.source import parse_yaml

INI = """
[pytest]
oracle_case_dirs = cases
"""

RULES = """
rules:
  - {id: claim.hand-is-no-proof, kind: rule, section: Claiming a stone, title: T, applies: both,
     text: X}
"""
"""A one-rule index, the rule the passing case pins."""


def marks(text: str) -> dict[str, int]:
    """The 1-based lines of the ``#@`` markers in ``text``: ``line`` for a bare ``#@``."""
    found = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if "#@" in line:
            found[line.split("#@", 1)[1].strip() or "line"] = number
    return found


def clean(text: str) -> str:
    """A YAML text as it is written to disk: dedented, without its leading blank line."""
    return textwrap.dedent(text).lstrip("\n")


def start_project(pytester: pytest.Pytester, rules: str = RULES) -> pytest.Pytester:
    """An empty oracle project in ``pytester``: the ini file, the rules index ``rules`` and an
    empty cases directory."""
    pytester.makeini(INI)
    pytester.mkdir("rules")
    pytester.path.joinpath("rules", "index.yaml").write_text(clean(rules), encoding="utf-8")
    pytester.mkdir("cases")
    return pytester


def write_case(pytester: pytest.Pytester, name: str, text: str) -> dict[str, int]:
    """Write ``cases/t/<name>`` from a YAML string; return the lines of its ``#@`` markers."""
    text = clean(text)
    folder = pytester.path / "cases" / "t"
    folder.mkdir(exist_ok=True)
    folder.joinpath(name).write_text(text, encoding="utf-8")
    return marks(text)


def confirmed(text: str, rules: str = RULES) -> str:
    """``text`` (cleaned) with the ``reviewed:`` fingerprint that ``schotten-oracle pin
    --reviewed`` writes: its answers and the texts of the rules it pins in the index ``rules``,
    as a published case carries it once an editor has read its prose."""
    with tempfile.TemporaryDirectory() as folder:
        index = Path(folder, "index.yaml")
        index.write_text(clean(rules), encoding="utf-8")
        loaded = load_rules_index(index)
    text = clean(text)
    fingerprint = answers_fingerprint(parse_yaml(text, Path("case.yaml")), loaded)
    return edited_text(text, [(("reviewed",), fingerprint)], after={"reviewed": "why"})


def passing_case(
    id: str = "run-beats-sum",
    situation: str = "Your colour run against their sum",
    why: str = "a run beats a sum",
    *,
    rules: bool = False,
) -> str:
    """A case the engine verifies: at stone 2, your red 5-6-7 (a colour run) against their
    complete sum of 9, granted, with the proof's words pinned (and with ``rules``, the one rule
    of :data:`RULES`), its prose confirmed (:func:`confirmed`)."""
    pinned = "rules: [claim.hand-is-no-proof]\n" if rules else ""
    return confirmed(f"""id: {id}
situation: {situation}
why: {why}
variant: base
{pinned}position:
  stones:
    - stone: 2
      you: [red 5, red 6, red 7]
      them: [blue 2, green 2, yellow 5]
      completed_first: you
claims:
  - stone: 2
    expect: granted
    because: >-
      your colour run red 5, red 6, red 7 (total 18) beats their sum blue 2, green 2, yellow 5
      (total 9), since a colour run outranks a sum
""")


def case_yaml(
    id: str,
    *,
    variant: str = "base",
    stones: list[dict[str, Any]] | None = None,
    hand: list[str] | None = None,
    claims: list[dict[str, Any]] | None = None,
    more: dict[str, Any] | None = None,
) -> str:
    """A small case file's text: the prose given, the board of ``stones`` and ``hand``, the
    ``claims`` (none by default) and any other keys (``more``: a table, plays, a turn...)."""
    data: dict[str, Any] = {
        "id": id,
        "situation": f"The situation of {id}",
        "why": f"Why {id} answers as it does",
        "draft": True,
        "variant": variant,
        "position": {"stones": stones or [], **({"hand": hand} if hand else {})},
    }
    if claims:
        data["claims"] = claims
    data.update(more or {})
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


MODES_IN_BASE = """
id: mode-in-base
situation: S
why: W
variant: base
position:
  stones:
    - stone: 2
      you: [red 5, red 6]
      modes: [mud fight] #@
claims:
  - stone: 2
    expect: refused
"""

BAD_FILES = [
    pytest.param(
        "because-on-a-legal-move.yaml",
        """
        id: because-legal
        situation: S
        why: W
        variant: base
        position:
          stones: []
          hand: [red 2, red 3, red 4, red 5, red 6, red 7]
        table:
          their_hand: [blue 1, blue 2, blue 3, blue 4, blue 5, blue 6]
          idle_turns: 0
        plays:
          - move: red 2 on 3
            expect: legal
            because: it fits #@
        """,
        "because pins why a move is refused: it needs expect: illegal",
        id="because-on-a-legal-move",
    ),
    pytest.param(
        "rule-on-an-unreadable-move.yaml",
        """
        id: rule-unreadable
        situation: S
        why: W
        variant: base
        position:
          stones: []
          hand: [red 2, red 3, red 4, red 5, red 6, red 7]
        table:
          their_hand: [blue 1, blue 2, blue 3, blue 4, blue 5, blue 6]
          idle_turns: 0
        plays:
          - move: red 2 at 3
            expect: unreadable
            rule: turn.play-card #@
        """,
        "an unreadable move breaks no rule of the game: leave rule out (because: may pin why it"
        " cannot be read)",
        id="rule-on-an-unreadable-move",
    ),
    pytest.param(
        "mode.yaml",
        """
        id: mode-twice
        situation: S
        why: W
        variant: tactics
        position:
          stones:
            - stone: 2
              modes: [mud fight]
        table:
          their_hand: [mud fight] #@
          tactics_played: {you: 1, them: 0}
        plays:
          - move: red 2 on 3
            expect: legal
        """,
        "mud fight already lies on a stone; it cannot be here too",
        id="combat-mode-on-a-stone-and-in-a-hand",
    ),
    pytest.param(
        "jokers.yaml",
        """
        id: three-jokers
        situation: S
        why: W
        variant: tactics
        position:
          stones: []
          hand: [joker, joker]
        table:
          their_hand: [joker] #@
        plays:
          - move: red 2 on 3
            expect: legal
        """,
        "a third joker: the game has only two",
        id="third-joker-in-their-hand",
    ),
    pytest.param(
        "comma.yaml",
        """
        id: comma
        situation: S
        why: W
        variant: base
        turn:
          moves: [claim 3, 5] #@
          expect: {winner: nobody}
        """,
        "'moves' must be text, not 5; a move with a comma needs quotes, as in \"claim 3, 5\"",
        id="unquoted-move-with-a-comma",
    ),
    pytest.param(
        "guard.yaml",
        """
        id: guard
        situation: S
        why: W
        variant: base
        guards_against: [hand-as-proof] #@
        claims:
          - stone: 1
            expect: refused
        """,
        "unknown misreading 'hand-as-proof'; did you mean 'hand-is-proof'? (the misreadings:"
        " hand-is-proof, runs-wrap-around, colour-beats-three-of-a-kind, tie-to-first-player,"
        " tie-to-claimant, tie-to-second-player, runs-in-rising-order,"
        " pair-with-neighbour-is-run, colour-and-run-above-three-of-a-kind, joker-only-nine,"
        " second-joker-for-a-joker-player, no-early-claim, taken-stones-stay-open,"
        " blocked-games-never-end,"
        " tie-against-open-side-refused, unplayed-tactics-ignored, three-cards-under-mud-fight,"
        " formations-under-bluff, claims-before-playing)",
        id="unknown-misreading",
    ),
    pytest.param(
        "nothing.yaml",
        """
        id: asks-nothing #@
        situation: S
        why: W
        variant: base
        position:
          stones: []
        """,
        "the case asks nothing: add claims, plays, turn, deal or match",
        id="no-question",
    ),
    pytest.param(
        "deck.yaml",
        """
        id: wrong-deck
        situation: S
        why: W
        variant: tactics
        table:
          clan_deck: [red 1, spy] #@
        plays:
          - move: red 2 on 1
            expect: legal
        """,
        "spy belongs in the tactic deck",
        id="tactic-card-in-the-clan-deck",
    ),
    pytest.param(
        "limit.yaml",
        """
        id: limit
        situation: S
        why: W
        variant: tactics
        table:
          tactics_played: {you: 3, them: 1} #@
        plays:
          - move: red 2 on 1
            expect: legal
        """,
        "3 Tactic cards against 1: the tactic limit keeps the two counts at most one apart",
        id="tactic-counts-too-far-apart",
    ),
    pytest.param(
        "twice.yaml",
        """
        id: twice
        situation: S
        why: W
        variant: base
        position:
          stones: []
          hand: [red 1] #@first
        table:
          their_hand: [red 1] #@
        plays:
          - move: red 1 on 1
            expect: legal
        """,
        "red 1 appears twice (lines {first} and {line}); every card exists once",
        id="card-in-both-hands",
    ),
    pytest.param(
        "syntax.yaml",
        """
        id: bad-syntax
        situation: S
        why: W: x #@
        variant: base
        """,
        "YAML syntax error: mapping values are not allowed here"
        " (a value holding ': ' needs quotes, or the indentation is off)",
        id="syntax-error",
    ),
    pytest.param(
        "typo.yaml",
        """
        id: typo
        situation: S
        why: W
        variant: base
        position:
          stones: []
          hnad: [red 1] #@
        claims:
          - stone: 2
            expect: refused
        """,
        "unknown key 'hnad'; did you mean 'hand'?"
        " (allowed here: discards, hand, jokers_played, stones)",
        id="unknown-key",
    ),
    pytest.param(
        "red10.yaml",
        """
        id: red-ten
        situation: S
        why: W
        variant: base
        position:
          stones:
            - stone: 2
              you: [red 5, red 10] #@
        claims:
          - stone: 2
            expect: refused
        """,
        "'red 10': unknown value '10'; values run from 1 to 9",
        id="unknown-card",
    ),
    pytest.param(
        "orange.yaml",
        """
        id: orange
        situation: S
        why: W
        variant: base
        position:
          stones:
            - stone: 2
              you: [red 5]
              them: [orange 3] #@
        claims:
          - stone: 2
            expect: refused
        """,
        "'orange 3': unknown colour 'orange';"
        " the colours are red, blue, green, yellow, purple, pink",
        id="unknown-colour",
    ),
    pytest.param(
        "twice.yaml",
        """
        id: card-twice
        situation: S
        why: W
        variant: base
        position:
          stones:
            - stone: 2
              you: [red 5, red 6] #@first
            - stone: 4
              them: [blue 1, red 5] #@
        claims:
          - stone: 2
            expect: refused
        """,
        "red 5 appears twice (lines {first} and {line}); every card exists once",
        id="card-twice",
    ),
    pytest.param(
        "four.yaml",
        """
        id: four-cards
        situation: S
        why: W
        variant: base
        position:
          stones:
            - stone: 2
              them: [blue 1]
              you: [red 1, red 2, red 3, red 4] #@
        claims:
          - stone: 2
            expect: refused
        """,
        "stone 2: 4 cards on your side, but a side holds 3 here",
        id="side-over-capacity",
    ),
    pytest.param(
        "claimed.yaml",
        """
        id: already-claimed
        situation: S
        why: W
        variant: base
        position:
          stones:
            - stone: 2
              you: [blue 2, green 2, yellow 5]
              them: [red 5, red 6, red 7]
              completed_first: them
              claimed_by: them
        claims:
          - stone: 2 #@
            expect: granted
        """,
        "stone 2 is already claimed (they hold it); it cannot be claimed again",
        id="claim-on-claimed-stone",
    ),
    pytest.param(
        "tie.yaml",
        """
        id: tie-without-order
        situation: S
        why: W
        variant: base
        position:
          stones:
            - stone: 2
              you: [red 5, red 6, red 7]
              them: [blue 2, green 2, yellow 5]
              completed_first: you
            - stone: 4 #@
              you: [pink 1, pink 2, pink 3]
              them: [purple 1, purple 2, purple 3]
        claims:
          - stone: 2
            expect: granted
        """,
        "stone 4: both sides are complete and tie, so it must say who completed first",
        id="missing-completion-order",
    ),
    pytest.param(
        "order.yaml",
        """
        id: misplaced-order
        situation: S
        why: W
        variant: base
        position:
          stones:
            - stone: 4
              you: [red 1, red 2, red 3]
              them: [blue 1, blue 2]
              completed_first: you #@
        claims:
          - stone: 4
            expect: granted
        """,
        "stone 4: who completed first only applies when both sides are complete",
        id="misplaced-completion-order",
    ),
    pytest.param(
        "python.yaml",
        """
        id: python-object
        situation: !!python/object/apply:os.system ["touch pwned"] #@
        why: W
        variant: base
        position:
          stones: []
        claims:
          - stone: 2
            expect: refused
        """,
        "YAML tag '!!python/object/apply:os.system' is not allowed:"
        " a case file holds plain data only",
        id="python-object-tag",
    ),
    pytest.param(
        "alias.yaml",
        """
        id: alias
        situation: &text S #@
        why: *text
        variant: base
        position:
          stones: []
        claims:
          - stone: 2
            expect: refused
        """,
        "YAML anchors and aliases ('&name', '*name') are not allowed: write each value out",
        id="alias",
    ),
    pytest.param(
        "modes.yaml",
        MODES_IN_BASE,
        "stone 2: combat modes only exist in the tactics variant",
        id="combat-mode-in-base-variant",
    ),
    pytest.param(
        "dupkey.yaml",
        """
        id: duplicate-key
        situation: S
        why: W
        variant: base
        why: again #@
        position:
          stones: []
        claims:
          - stone: 2
            expect: refused
        """,
        "key 'why' appears twice",
        id="duplicate-key",
    ),
    pytest.param(
        "rule.yaml",
        """
        id: unknown-rule
        situation: S
        why: W
        variant: base
        rules:
          - claim.hand-is-no-proof
          - claim.hand-is-no-prof #@
        position:
          stones: []
        claims:
          - stone: 2
            expect: refused
        """,
        "unknown rule id 'claim.hand-is-no-prof'; did you mean 'claim.hand-is-no-proof'?"
        " (the ids are in rules/index.yaml)",
        id="unknown-rule-id",
    ),
    pytest.param(
        "wrong-suffix.yml",
        """
        id: yml-suffix
        situation: S
        why: W
        variant: base
        position:
          stones: []
        claims:
          - stone: 2
            expect: refused
        """,
        "case files end in .yaml (lowercase); rename this file so it is checked",
        id="yml-suffix",
    ),
    pytest.param("empty.yaml", "", "the file is empty", id="empty-file"),
    pytest.param("comments.yaml", "# nothing yet #@\n", "the file is empty", id="only-comments"),
    pytest.param(
        "nowhy.yaml",
        """
        id: no-why #@
        situation: S
        variant: base
        position:
          stones: []
        claims:
          - stone: 2
            expect: refused
        """,
        "missing key 'why'",
        id="missing-required-key",
    ),
    pytest.param(
        "noexpect.yaml",
        """
        id: no-expect
        situation: S
        why: W
        variant: base
        position:
          stones:
            - stone: 2
              you: [red 5, red 6]
        claims:
          - stone: 2 #@
        """,
        "missing key 'expect' in 'claims'",
        id="claim-without-expect",
    ),
    # Boards no game still going on can reach (issue 12, item 10).
    pytest.param(
        "incomplete-holder.yaml",
        """
        id: incomplete-holder
        situation: S
        why: W
        variant: base
        position:
          stones:
            - stone: 2
              you: [red 5, red 6]
              claimed_by: you #@
        claims:
          - stone: 3
            expect: refused
        """,
        "stone 2 is claimed by you, who could never have proved it: your side of stone 2 has*",
        id="claimed-by-an-incomplete-side",
    ),
    pytest.param(
        "weaker-holder.yaml",
        """
        id: weaker-holder
        situation: S
        why: W
        variant: base
        position:
          stones:
            - stone: 2
              you: [red 5, green 6, blue 7]
              them: [pink 1, pink 2, pink 3]
              claimed_by: you #@
        claims:
          - stone: 3
            expect: refused
        """,
        "stone 2 is claimed by you, who could never have proved it: *",
        id="claimed-by-the-weaker-side",
    ),
    pytest.param(
        "mud-claimed.yaml",
        """
        id: mud-claimed
        situation: S
        why: W
        variant: tactics
        position:
          stones:
            - stone: 2
              you: [red 7, red 8, red 9]
              them: [pink 1, blue 2, green 4]
              modes: [mud fight]
              claimed_by: you #@
        claims:
          - stone: 3
            expect: refused
        """,
        "stone 2 is claimed by you, who could never have proved it: your side of stone 2 has*",
        id="mud-fight-stone-claimed-with-three-cards",
    ),
    pytest.param(
        "three-adjacent.yaml",
        """
        id: three-adjacent
        situation: S
        why: W
        variant: base
        position:
          stones:
            - stone: 1
              you: [red 7, red 8, red 9]
              claimed_by: you
            - stone: 2
              you: [blue 7, blue 8, blue 9]
              claimed_by: you
            - stone: 3
              you: [green 7, green 8, green 9]
              claimed_by: you #@
        claims:
          - stone: 5
            expect: refused
        """,
        "you already hold three adjacent stones (1, 2, 3): that game is over*",
        id="a-player-has-already-won",
    ),
    pytest.param(
        "big-hand.yaml",
        """
        id: big-hand
        situation: S
        why: W
        variant: tactics
        position:
          stones: []
          hand: #@
            [red 1, red 2, red 3, red 4, red 5, red 6, red 7, red 8]
        claims:
          - stone: 3
            expect: refused
        """,
        "a hand of 8 cards, but a hand in the tactics game holds at most 7",
        id="tactics-hand-of-eight",
    ),
    pytest.param(
        "tactics-count.yaml",
        """
        id: tactics-count
        situation: S
        why: W
        variant: tactics
        position:
          stones: []
        table:
          tactics_played: {you: 3, them: 3} #@
        plays:
          - move: red 1 on 2
            expect: legal
        """,
        "0 Tactic cards lie face up, but 6 are counted as played: *",
        id="tactics-played-with-none-face-up",
    ),
    pytest.param(
        "joker-owners.yaml",
        """
        id: joker-owners
        situation: S
        why: W
        variant: tactics
        position:
          stones:
            - stone: 2
              them: [joker]
          discards: [joker]
          jokers_played: [them] #@
        claims:
          - stone: 3
            expect: refused
        """,
        "1 Joker lies in the discards, but jokers_played names they*",
        id="a-discarded-joker-nobody-can-have-played",
    ),
    # Facts of the turn a table must state (issue 12, items 1 to 4).
    pytest.param(
        "order-on-open-stone.yaml",
        """
        id: order-on-open-stone
        situation: S
        why: W
        variant: base
        position:
          stones:
            - stone: 4 #@
              you: [red 1, red 2, red 3]
              them: [blue 1, green 2, yellow 3]
        table:
          their_hand: [pink 9]
        plays:
          - move: pink 1 on 2
            expect: legal
        """,
        "stone 4: both sides are complete, so the game needs to know who completed first*",
        id="table-without-completion-order",
    ),
    pytest.param(
        "idle-unknown.yaml",
        """
        id: idle-unknown
        situation: S
        why: W
        variant: tactics
        position:
          stones: []
          hand: [red 1, red 2, red 3, red 4, red 5, red 6, red 7]
        table: #@
          their_hand: [pink 9, joker, spy, shield-bearer, mud fight, recruiter, strategist]
        plays:
          - move: red 1 on 2
            expect: legal
        """,
        "they may have passed on their last turn, and the board does not show it: add idle_turns*",
        id="table-without-idle-turns",
    ),
    pytest.param(
        "false-pass.yaml",
        """
        id: false-pass
        situation: S
        why: W
        variant: base
        position:
          stones: []
          hand: [red 1]
        table:
          step: claim
          passed: true #@
        plays:
          - move: claim nothing
            expect: legal
        """,
        "you cannot have passed: you hold a Clan card that has room on your side",
        id="a-pass-that-was-not-allowed",
    ),
    pytest.param(
        "expert-unknown.yaml",
        """
        id: expert-unknown
        situation: S
        why: W
        variant: base
        position:
          stones:
            - stone: 5
              you: [red 7, red 8, red 9]
              them: [blue 1, blue 2, green 4]
              completed_first: you
              claimed_by: you
          hand: [red 1, red 2, red 3, red 4, red 5, red 6]
        table: #@
          their_hand: [pink 1, pink 2, pink 3, pink 4, pink 5, pink 6]
          expert: true
          step: play
        plays:
          - move: red 1 on 2
            expect: legal
        """,
        "this turn's claim step is over and the board does not show whether you could prove*",
        id="expert-play-step-without-could-claim",
    ),
    pytest.param(
        "long-situation.yaml",
        f"""
        id: long-situation
        situation: {"a" * 301} #@
        why: W
        variant: base
        position:
          stones: []
        claims:
          - stone: 3
            expect: refused
        """,
        "'situation' is 301 characters long; keep it within 300",
        id="a-situation-too-long",
    ),
    *(
        pytest.param(
            f"{name}.yaml",
            f"""
            id: {name}
            situation: {situation} #@
            why: W
            variant: base
            position:
              stones: []
            claims:
              - stone: 3
                expect: refused
            """,
            message,
            id=name,
        )
        for name, situation, message in (
            ("lone-surrogate", '"\\ud800"', "this text holds U+D800, a lone surrogate*"),
            ("escape-sequence", '"\\e[2J"', "this text holds the control character U+001B*"),
            ("bidi-override", "a\u202eb", "this line holds U+202E RIGHT-TO-LEFT OVERRIDE*"),
            ("blank-text", '"\u200b\u3000"', "this text holds nothing a reader can see*"),
        )
    ),
    pytest.param(
        "look-alike.yaml",
        """
        id: look-alike
        situation: S
        why: W
        variant: base
        position:
          stones:
            - stone: 3
              you: [r\u0435d 1] #@
        claims:
          - stone: 3
            expect: refused
        """,
        "*unknown colour 'r\u0435d' (it holds U+0435 CYRILLIC SMALL LETTER IE*",
        id="a-look-alike-letter",
    ),
    pytest.param(
        "placeholder.yaml",
        """
        id: placeholder-situation
        situation: Describe the board from your   side, as the table will show it #@
        why: W
        variant: base
        position:
          stones:
            - stone: 3
              you: [red 1, red 2, red 3]
        claims:
          - stone: 3
            expect: granted
            because: x
        """,
        "situation is still the text a new case starts with: write the case's own words in its"
        " place, or mark the case draft: true",
        id="a-published-case-with-the-placeholder-situation",
    ),
    pytest.param(
        "placeholder-why.yaml",
        """
        id: placeholder-why
        situation: Four cards on a side without Mud Fight
        why: Say which rule the board breaks, in a few words #@
        variant: base
        position:
          stones:
            - stone: 1
              you: [red 6, red 7, red 8, red 9]
        impossible: a side of stone 1 holds four cards
        """,
        "why is still the text a new case starts with: write the case's own words in its"
        " place, or mark the case draft: true",
        id="an-impossible-board-with-the-placeholder-why",
    ),
]
