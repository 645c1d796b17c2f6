"""The pytest plugin, seen from the outside: tiny projects run in-process with ``pytester``.

Each test builds a project with an ini file, a one-rule index and a few case files, runs pytest on
it and reads the outcome and the terminal output, as an editor of cases would.

In the YAML texts below, a comment ``#@`` marks the line an error must point at, and ``#@name``
marks another line a message mentions (it is available to the message pattern as ``{name}``).
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from case_files import (
    BAD_FILES,
    INI,
    clean,
    confirmed,
    marks,
    passing_case,
    start_project,
    write_case,
)

# Stone 2: your red 5-6-7 (a colour run) against their complete sum of 9: granted.
PASSING = passing_case(rules=True)

# The last unseen 3 is in your hand: refused, and the engine names pink 3 as the witness.
# The expected verdict is flipped to 'granted', so the case has drifted from the engine.
DRIFTED = """
id: last-three-in-your-hand
situation: Your 1-1-1 against their 3-3
why: your hand is no proof
variant: base
position:
  stones:
    - stone: 3
      you: [red 1, blue 1, green 1]
      them: [red 3, blue 3]
    - stone: 6
      you: [yellow 3, yellow 4]
      them: [purple 3]
    - stone: 8
      them: [green 3, green 8]
  hand: [pink 3, red 9, blue 7, yellow 8, purple 5]
claims:
  - stone: 3 #@
    expect: granted
    because: >-
      they could still add pink 3, making three of a kind red 3, blue 3, pink 3 (total 9), which
      beats your three of a kind red 1, blue 1, green 1 (total 3), since a total of 9 beats 3;
      pink 3 is in your hand, and your hand is out of sight too, so that proves nothing
"""

# Two stones proved at once; the case wrongly expects stone 7 to be refused.
TWO_STONES_ONE_DRIFTED = """
id: two-stones-at-once
situation: Two stones proved at the same moment
why: both are taken in the same step
variant: base
position:
  stones:
    - stone: 2
      you: [red 5, red 6, red 7]
      them: [blue 2, green 2, yellow 5]
      completed_first: you
    - stone: 7
      you: [green 7, green 8, green 9]
  hand: [blue 4, purple 6, pink 8, yellow 3, red 1]
claims:
  - stone: 2
    expect: granted
    because: >-
      your colour run red 5, red 6, red 7 (total 18) beats their sum blue 2, green 2, yellow 5
      (total 9), since a colour run outranks a sum
  - stone: 7 #@
    expect: refused
    because: >-
      no completion from the cards out of sight beats your colour run green 7, green 8, green 9
      (total 24): their best, adding blue 7, blue 8 and blue 9, makes colour run blue 7, blue 8,
      blue 9 (total 24) and would only tie, and they would complete after you
"""

DRAFT = """
id: unsettled-claim #@
situation: Not settled yet
why: to be decided
draft: true
variant: base
position:
  stones:
    - stone: 2
      you: [red 5, red 6]
claims:
  - stone: 2
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    """An empty oracle project: the ini file, a one-rule index and an empty cases directory."""
    return start_project(pytester)


class ShortInterruptTraceback:
    """A plugin for a run that a collection error stops: only the traceback's last frame is kept.

    pytest formats the whole traceback of the stop (parsing the source of each pytest and pluggy
    module it passes through) and prints only its last line, "Interrupted: 1 error during
    collection": in-process, that was about half of each such run. The output is unchanged.
    """

    @pytest.hookimpl(tryfirst=True)
    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        excinfo.traceback = excinfo.traceback[-1:]


def assert_no_traceback(result: pytest.RunResult) -> None:
    assert_no_traceback_in(result.outlines + result.errlines)


def assert_no_traceback_in(output: list[str]) -> None:
    assert not any("Traceback" in line for line in output), "\n".join(output)
    assert not any(line.startswith("E   ") for line in output), "\n".join(output)
    assert not any(
        "oracle/casefile/loader.py" in line or "oracle/casefile/source.py" in line
        for line in output
    )


# --------------------------------------------------------------------- passing and drifted cases


def test_passing_case_passes(project: pytest.Pytester) -> None:
    write_case(project, "01-run.yaml", PASSING)
    result = project.runpytest()
    result.assert_outcomes(passed=2)  # its one claimed stone, and that it can be published
    assert result.ret == pytest.ExitCode.OK


def test_an_item_per_question_named_by_case_id_and_question(project: pytest.Pytester) -> None:
    write_case(project, "01-run.yaml", PASSING)
    write_case(project, "02-hand.yaml", DRIFTED)
    write_case(project, "03-joker.yaml", GAME_DRIFTED)
    result = project.runpytest("--collect-only", "-q")
    result.stdout.fnmatch_lines(
        [
            "cases/t/01-run.yaml::run-beats-sum[[]stone-*[]]",
            "cases/t/01-run.yaml::run-beats-sum[[]catalogue[]]",
            "cases/t/02-hand.yaml::last-three-in-your-hand[[]stone-3[]]",
            "cases/t/02-hand.yaml::last-three-in-your-hand[[]catalogue[]]",
            "cases/t/03-joker.yaml::joker-twice[[]play-1[]]",
            "cases/t/03-joker.yaml::joker-twice[[]play-2[]]",
            "cases/t/03-joker.yaml::joker-twice[[]turn[]]",
            "cases/t/03-joker.yaml::joker-twice[[]catalogue[]]",
        ],
        consecutive=True,
    )

    result = project.runpytest("-k", "run-beats-sum")
    result.assert_outcomes(passed=2, deselected=6)
    result = project.runpytest("-k", "turn or play")
    result.assert_outcomes(failed=2, passed=1, deselected=5)


def test_drifted_case_fails_at_its_claim(project: pytest.Pytester) -> None:
    line = write_case(project, "02-hand.yaml", DRIFTED)["line"]
    result = project.runpytest()
    result.assert_outcomes(failed=1, skipped=1)  # the catalogue item waits for agreement
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            f"cases/t/02-hand.yaml:{line}: case 'last-three-in-your-hand', stone 3:"
            " expected granted, the engine says refused",
            "  reason: they could still add pink 3, *",
            "  witness: pink 3",
        ],
        consecutive=True,
    )
    assert_no_traceback(result)


# The verdict is right but the pinned reason is not the engine's: pink 3 is the witness, not red 9.
DRIFTED_CLAIM = DRIFTED[DRIFTED.index("  - stone: 3 #@") :]

REASON_DRIFTED = DRIFTED.replace(
    DRIFTED_CLAIM,
    "  - stone: 3 #@\n    expect: refused\n    because: >-\n"
    "      they could still add red 9, and nothing in sight stops them\n",
)

# The right reason, folded over lines as an editor writes a long one.
REASON_PINNED = DRIFTED.replace(
    DRIFTED_CLAIM,
    "  - stone: 3 #@\n    expect: refused\n    because: >-\n"
    "      they could still add pink 3, making three of a kind red 3, blue 3, pink 3 (total 9),\n"
    "      which beats your three of a kind red 1, blue 1, green 1 (total 3), since a total of 9\n"
    "      beats 3; pink 3 is in your hand, and your hand is out of sight too, so that proves\n"
    "      nothing\n",
)


def test_a_pinned_reason_passes_and_a_changed_one_fails_naming_both(
    project: pytest.Pytester,
) -> None:
    write_case(project, "02-hand.yaml", confirmed(REASON_PINNED))
    project.runpytest().assert_outcomes(passed=2)

    line = write_case(project, "02-hand.yaml", REASON_DRIFTED)["line"]
    result = project.runpytest()
    result.assert_outcomes(failed=1, skipped=1)
    result.stdout.fnmatch_lines(
        [
            f"cases/t/02-hand.yaml:{line}: case 'last-three-in-your-hand', stone 3: refused as"
            " expected, but the reason has changed (the case's words [[]-so-], the engine's"
            " {+so+}): they could still add {+pink 3, making three of a kind+} red [[]-9,-] *",
        ]
    )
    assert_no_traceback(result)


def test_a_pinned_refusal_of_a_move_is_compared_word_for_word(project: pytest.Pytester) -> None:
    text = (
        GAME_DRIFTED.replace(
            "  - move: joker on 5 #@\n    expect: legal\n",
            "  - move: joker on 5 #@\n    expect: illegal\n"
            "    because: you have played a Joker already\n",
        )
        .replace("\nturn:", "\nturn_:")
        .split("\nturn_:")[0]
    )
    line = write_case(project, "03-joker.yaml", text + "\n")["line"]
    result = project.runpytest("-k", "play-1")
    result.assert_outcomes(failed=1, deselected=2)
    result.stdout.fnmatch_lines(
        [
            f"cases/t/03-joker.yaml:{line}: case 'joker-twice', move 'joker on 5': expected"
            " illegal: you have played a Joker already, the engine says illegal: you have"
            " already played a Joker",
        ]
    )
    assert_no_traceback(result)


def test_a_move_after_earlier_moves_is_judged_once_they_are_made(
    project: pytest.Pytester,
) -> None:
    """``after`` makes moves first (here your whole turn, then theirs begins), and an earlier
    move the engine refuses is named, with its reason, at the play's line."""
    text = GAME_DRIFTED.replace(
        "  - move: joker on 5 #@\n    expect: legal\n",
        "  - move: blue 5 on 6\n    after: [green 3 on 5, draw clan]\n    expect: legal\n"
        "  - move: green 3 on 6 #@\n    after: [joker on 5]\n    expect: legal\n",
    ).split("\nturn:")[0]
    line = write_case(project, "03-joker.yaml", text + "\n")["line"]
    result = project.runpytest("-k", "play-1 or play-2")
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines(
        [
            f"cases/t/03-joker.yaml:{line}: case 'joker-twice': the engine cannot judge it:"
            " cannot reach move 'green 3 on 6' after 'joker on 5': move 'joker on 5' is illegal:"
            " you have already played a Joker (tactics.one-joker-per-player)",
        ]
    )
    assert_no_traceback(result)


def test_two_stones_one_drifted_names_only_that_stone(project: pytest.Pytester) -> None:
    line = write_case(project, "09-two.yaml", TWO_STONES_ONE_DRIFTED)["line"]
    result = project.runpytest()
    result.assert_outcomes(failed=1, passed=1, skipped=1)
    result.stdout.fnmatch_lines(
        [
            f"cases/t/09-two.yaml:{line}: case 'two-stones-at-once', stone 7:"
            " expected refused, the engine says granted",
            "  reason: *",
        ],
        consecutive=True,
    )
    assert "stone 2: expected" not in result.stdout.str()
    assert_no_traceback(result)


# A move the engine refuses, with the rule it breaks; the case expects it to be legal.
GAME_DRIFTED = """
id: joker-twice
situation: S
why: W
variant: tactics
position:
  stones:
    - stone: 2
      you: [joker, red 8]
  discards: [recruiter]
  hand: [joker, green 3]
table:
  their_hand: [blue 5]
  tactics_played: {you: 1, them: 1}
  idle_turns: 0
plays:
  - move: joker on 5 #@
    expect: legal
  - move: green 3 on 5
    expect: legal
turn:
  moves: [green 3 on 5, draw clan]
  expect:
    hand: [joker, red 2] #@hand
"""


def test_drifted_game_case_names_the_move_the_rule_and_the_turn(
    project: pytest.Pytester,
) -> None:
    lines = write_case(project, "03-joker.yaml", GAME_DRIFTED)
    result = project.runpytest()
    result.assert_outcomes(failed=2, passed=1, skipped=1)
    result.stdout.fnmatch_lines(
        [
            f"cases/t/03-joker.yaml:{lines['line']}: case 'joker-twice', move 'joker on 5':"
            " expected legal, the engine says illegal under tactics.one-joker-per-player: you have"
            " already played a Joker",
            "  refused: you have already played a Joker (tactics.one-joker-per-player)",
        ],
        consecutive=True,
    )
    result.stdout.fnmatch_lines(
        [
            f"cases/t/03-joker.yaml:{lines['hand']}: case 'joker-twice', your hand:"
            " expected joker, red 2, the engine says joker, red 1",
            "  log: you: green 3 on 5; you: claim nothing; you: draw clan",
        ],
        consecutive=True,
    )
    assert_no_traceback(result)


DEAL_PINNED = """
id: seed-seven
situation: A base game dealt from seed 7, you to start
why: the same seed deals the same hand
variant: base
rules: [claim.hand-is-no-proof]
deal:
  seed: 7
  first: you
  expect:
    hands: {you: 6, them: 6}
    hand: [green 3, green 8, red 4, yellow 8, green 6, %s]
"""


def test_a_pinned_dealt_hand_is_the_shuffle_itself(project: pytest.Pytester) -> None:
    """A deal case may pin your hand: the engine's shuffle, card for card."""
    write_case(project, "04-deal.yaml", confirmed(DEAL_PINNED % "pink 5"))
    project.runpytest().assert_outcomes(passed=2)

    write_case(project, "04-deal.yaml", DEAL_PINNED % "pink 6")
    result = project.runpytest()
    result.assert_outcomes(failed=1, skipped=1)
    result.stdout.fnmatch_lines(
        [
            "cases/t/04-deal.yaml:*: case 'seed-seven', the deal: the case and the engine differ"
            " ([[]-case-] {+engine+}): hands 6 and 6; decks 42 and 0; you to move; your hand"
            " green 3, green 6, green 8, pink [[]-6,-] {+5,+} red 4, yellow 8",
        ]
    )
    assert_no_traceback(result)


MATCH_MISTOLD = """
id: a-mistold-match
situation: Two rounds; you win the first, then they start the second
why: the winner of a round starts the next
variant: base
rules: [claim.hand-is-no-proof]
match:
  rounds:
    - {started: you, winner: you, stones: {you: 3, them: 1}}
    - {started: them, winner: them, stones: {you: 2, them: 5}} #@
  expect:
    points: {you: 7, them: 6}
"""


def test_a_match_whose_rounds_cannot_follow_each_other_cannot_be_judged(
    project: pytest.Pytester,
) -> None:
    """The error points at the round that cannot follow, not at the match."""
    line = write_case(project, "05-match.yaml", MATCH_MISTOLD)["line"]
    result = project.runpytest()
    result.assert_outcomes(failed=1, skipped=1)
    result.stdout.fnmatch_lines(
        [
            f"cases/t/05-match.yaml:{line}: case 'a-mistold-match': the engine cannot judge it:"
            " round 2 is started by you, not them: the winner of a round starts the next (after a"
            " draw, the player who did not start it)",
        ]
    )
    assert_no_traceback(result)


def test_a_move_pinned_as_unreadable_must_be_text_the_engine_cannot_read(
    project: pytest.Pytester,
) -> None:
    """``expect: unreadable`` pins notation the engine must refuse to read, and ``because:``
    its words; text the engine does read fails the case with what it read."""
    text = GAME_DRIFTED.split("\nplays:")[0] + (
        "\nplays:\n"
        "  - move: green 3 at 5\n"
        "    expect: unreadable\n"
        "    because: >-\n"
        "      'green 3 at 5' is not a move: write 'red 5 on 3', 'claim 3', 'draw clan', 'pass',\n"
        "      'recruiter', 'return red 5', 'strategist: red 5 from 3 to 4', 'banshee: red 5 at\n"
        "      3' or 'traitor: red 5 from 3 to 4'\n"
        "  - move: green 3 on five\n"
        "    expect: unreadable\n"
        "    because: \"'green 3 on five': 'five' is not a stone number\"\n"
        "  - move: green 3 on 5 #@\n"
        "    expect: unreadable\n"
        "    because: it is no move\n"
    )
    line = write_case(project, "06-notation.yaml", text)["line"]
    result = project.runpytest()
    result.assert_outcomes(passed=2, failed=1, skipped=1)
    result.stdout.fnmatch_lines(
        [
            f"cases/t/06-notation.yaml:{line}: case 'joker-twice', move 'green 3 on 5': expected"
            " unreadable: it is no move, the engine says legal",
        ]
    )
    assert_no_traceback(result)


def test_unreadable_move_is_one_located_line(project: pytest.Pytester) -> None:
    text = GAME_DRIFTED.replace("joker on 5 #@", "joker onto 5 #@")
    lines = write_case(project, "03-joker.yaml", text)
    result = project.runpytest()
    result.assert_outcomes(failed=3, skipped=1)  # no question of it can be judged
    result.stdout.fnmatch_lines(
        [
            f"cases/t/03-joker.yaml:{lines['line']}: case 'joker-twice': the engine cannot judge"
            " it: 'joker onto 5' is not a move: *"
        ]
    )
    assert_no_traceback(result)


# --------------------------------------------------------------------------------- draft cases


def test_draft_case_is_skipped_and_listed(project: pytest.Pytester) -> None:
    line = write_case(project, "05-draft.yaml", DRAFT)["line"]
    result = project.runpytest()
    result.assert_outcomes(skipped=1)
    assert result.ret == pytest.ExitCode.OK
    # The listed location is the case file, relative to the project, and the line of its id.
    result.stdout.fnmatch_lines(
        [
            "*= draft cases (checked, not published) =*",
            f"unsettled-claim (*cases/t/05-draft.yaml:{line})",
        ]
    )
    assert sum(out.startswith("unsettled-claim (") for out in result.outlines) == 1


def test_draft_skip_is_reported_at_the_case_file(project: pytest.Pytester) -> None:
    write_case(project, "05-draft.yaml", DRAFT)
    result = project.runpytest("-rs")
    result.stdout.fnmatch_lines(
        ["SKIPPED [[]1[]] cases/t/05-draft.yaml:*: draft case 'unsettled-claim'*"]
    )
    assert "pytest_plugin.py" not in result.stdout.str()


# ----------------------------------------------------------------------------------- bad files

INNER_RUN = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:xdist")
"""A pytest run started by a test: none of these plugins is needed there."""


@dataclass(frozen=True)
class BadFilesRun:
    """One collection of every file of :data:`BAD_FILES`, each in a topic of its own."""

    path: Path
    status: int
    output: list[str]
    errors: dict[str, list[str]]  # each error block's lines, by the file it names


_BAD_FILES_RUNS: list[BadFilesRun] = []
"""The one run of :func:`bad_files_run`, made by the first test that asks for it."""


@pytest.fixture
def bad_files_run(pytester: pytest.Pytester) -> BadFilesRun:
    """The files of :data:`BAD_FILES` collected together by one pytest run, in-process, made
    once for every test of this module: one run instead of one each (they cost about 6 s of
    CPU one at a time), and in this process rather than a new one (a pytest process cost about
    0.8 s of CPU to start and collect them). Each file is in its own topic folder, so that two
    files of the same name never meet."""
    if not _BAD_FILES_RUNS:
        _BAD_FILES_RUNS.append(_collect_bad_files(pytester))
    return _BAD_FILES_RUNS[0]


def _collect_bad_files(pytester: pytest.Pytester) -> BadFilesRun:
    """Every file of :data:`BAD_FILES` in an oracle project of ``pytester``, collected."""
    root = start_project(pytester).path
    for number, parameters in enumerate(BAD_FILES):
        name, text = parameters.values[:2]
        folder = root / "cases" / f"t{number:02}"
        folder.mkdir(parents=True)
        folder.joinpath(str(name)).write_text(clean(str(text)), encoding="utf-8")
    completed = pytester.runpytest(*INNER_RUN, "--continue-on-collection-errors", "-rN")
    output = [*completed.outlines, *completed.errlines]
    errors: dict[str, list[str]] = {}
    block: list[str] | None = None
    for line in output:
        header = re.fullmatch(r"_+ ERROR collecting (.+?) _+", line)
        if header:
            block = errors.setdefault(header.group(1), [])
        elif line.startswith("=") and line.endswith("="):
            block = None
        elif block is not None:
            block.append(line)
    return BadFilesRun(root, completed.ret, output, errors)


def test_every_bad_file_is_one_collection_error(bad_files_run: BadFilesRun) -> None:
    assert bad_files_run.status == pytest.ExitCode.TESTS_FAILED, bad_files_run.output
    assert len(bad_files_run.errors) == len(BAD_FILES), bad_files_run.output
    assert any(f"{len(BAD_FILES)} errors" in line for line in bad_files_run.output[-1:])
    # Loading a case must never run anything it names (the python tag would create this file).
    assert not (bad_files_run.path / "pwned").exists()


@pytest.mark.parametrize(("name", "text", "message"), BAD_FILES)
def test_bad_file_fails_collection_with_one_located_line(
    bad_files_run: BadFilesRun, name: str, text: str, message: str, request: pytest.FixtureRequest
) -> None:
    number = [parameters.id for parameters in BAD_FILES].index(request.node.callspec.id)
    path = f"cases/t{number:02}/{name}"
    lines = marks(clean(text))
    # A problem with the whole file (its suffix) has no line.
    # An empty file has no marker: it is reported at line 1.
    where = path if name.endswith(".yml") else f"{path}:{lines.get('line', 1)}"
    located = f"{where}: {message.format(**lines)}"
    # The error block is exactly one line: the located message, and nothing else.
    block = bad_files_run.errors.get(path)
    assert block is not None, bad_files_run.output
    assert len(block) == 1 and fnmatch.fnmatchcase(block[0], located), block
    assert_no_traceback_in(bad_files_run.output)


def test_a_bad_file_alone_interrupts_the_run_with_its_one_line(project: pytest.Pytester) -> None:
    """Without --continue-on-collection-errors, a bad file stops the run (as pytest does for
    any collection error), still with its one located line and no traceback."""
    write_case(project, "broken.yaml", "id: [unclosed\n")
    result = project.runpytest(plugins=[ShortInterruptTraceback()])
    result.assert_outcomes(errors=1)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(
        [
            "*_ ERROR collecting cases/t/broken.yaml _*",
            "cases/t/broken.yaml:2: YAML syntax error: *",
        ],
        consecutive=True,
    )
    assert_no_traceback(result)


def test_bad_file_does_not_stop_the_good_ones(project: pytest.Pytester) -> None:
    write_case(project, "01-run.yaml", PASSING)
    write_case(project, "02-empty.yaml", "")
    result = project.runpytest("--continue-on-collection-errors")
    result.assert_outcomes(passed=2, errors=1)


def test_odd_folders_and_names_are_each_one_error_and_hide_no_case(
    project: pytest.Pytester,
) -> None:
    write_case(project, "01-run.yaml", PASSING)
    (project.path / "cases" / "empty").mkdir()
    (project.path / "cases" / "x.yaml").mkdir()
    (project.path / "cases" / "t" / "nested").mkdir()
    (project.path / "cases" / "t" / "bad\nname\x1b[2J.yaml").write_text("id: x\n")
    result = project.runpytest("--continue-on-collection-errors")
    result.assert_outcomes(passed=2, errors=4)
    result.stdout.fnmatch_lines(
        [
            "cases/empty: an empty topic folder: add a case to it, or remove it",
            "'cases/t/bad\\nname\\x1b[2J.yaml': the file name*",
            "cases/t/nested: a folder inside the topic folder t/*",
            "cases/x.yaml: the topic folder 'x.yaml' must be lowercase words joined by hyphens*",
        ],
    )
    assert not any("\x1b" in line for line in result.outlines)
    assert_no_traceback(result)


# --------------------------------------------------------------------- ids, index, other files


def test_duplicate_id_names_the_other_file_on_both(project: pytest.Pytester) -> None:
    first = write_case(project, "a.yaml", PASSING.replace("id: run-beats-sum", "id: same-id #@"))
    second = write_case(project, "b.yaml", PASSING.replace("id: run-beats-sum", "id: same-id #@"))
    result = project.runpytest("--continue-on-collection-errors")
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(
        [
            "*_ ERROR collecting cases/t/b.yaml _*",
            f"cases/t/b.yaml:{second['line']}: case id 'same-id' is also used by"
            f" cases/t/a.yaml:{first['line']}; each case needs its own id",
        ],
        consecutive=True,
    )
    result.stdout.fnmatch_lines(
        [
            "*_ ERROR collecting cases/t/a.yaml _*",
            f"cases/t/a.yaml:{first['line']}: case id 'same-id' is also used by"
            f" cases/t/b.yaml:{second['line']}; each case needs its own id",
        ],
        consecutive=True,
    )
    assert_no_traceback(result)


BROKEN_INDEXES = [
    pytest.param(
        "rules:\n  - {id: claim.x, kind: rule\n",
        "rules/index.yaml:3: the rules index cannot be used:"
        " YAML syntax error: expected ',' or '}', *",
        id="syntax-error",
    ),
    pytest.param(
        "rules:\n  - id: claim.x\n    kind: law\n    section: S\n    title: T\n    applies: both\n"
        "    text: X\n",
        "rules/index.yaml:3: the rules index cannot be used:"
        " 'law' is not allowed for 'kind'; use one of 'rule', 'ruling'",
        id="schema-violation",
    ),
    pytest.param(
        None,
        "rules/index.yaml: the rules index cannot be used: cannot read the file: *No such file*",
        id="missing",
    ),
]


@pytest.mark.parametrize(("index", "message"), BROKEN_INDEXES)
def test_broken_rules_index_fails_every_case(
    project: pytest.Pytester, index: str | None, message: str
) -> None:
    path = project.path / "rules" / "index.yaml"
    if index is None:
        path.unlink()
    else:
        path.write_text(index, encoding="utf-8")
    write_case(project, "01-run.yaml", PASSING)
    write_case(project, "02-hand.yaml", DRIFTED)
    result = project.runpytest("--continue-on-collection-errors")
    result.assert_outcomes(errors=1)  # the case folder, once: no case can be read without it
    result.stdout.fnmatch_lines(["*_ ERROR collecting cases _*", message], consecutive=True)
    assert sum(line.startswith("rules/index.yaml") for line in result.outlines) == 1
    assert_no_traceback(result)


def test_yaml_outside_the_case_dirs_is_ignored(project: pytest.Pytester) -> None:
    write_case(project, "01-run.yaml", PASSING)
    project.makefile(".yaml", config="not: [a, case")
    project.mkdir("docs")
    project.path.joinpath("docs", "cases.yaml").write_text("hnad: 1\n", encoding="utf-8")
    result = project.runpytest()
    result.assert_outcomes(passed=2)
    assert result.ret == pytest.ExitCode.OK

    result = project.runpytest("--collect-only", "-q")
    assert [line.split("[")[0] for line in result.outlines if "::" in line] == [
        "cases/t/01-run.yaml::run-beats-sum"
    ] * 2


def test_nothing_is_collected_until_a_project_names_its_case_dirs(
    pytester: pytest.Pytester,
) -> None:
    # The plugin is installed for every pytest run in the environment; another project's
    # cases/ folder must not be read as Schotten Totten cases.
    pytester.makeini("[pytest]\n")
    pytester.mkdir("cases")
    pytester.path.joinpath("cases", "other.yaml").write_text("not: [a, case\n", encoding="utf-8")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_a_case_in_a_topic_no_page_shows_fails_once_with_the_message_of_check(
    project: pytest.Pytester,
) -> None:
    project.makeini(INI)
    project.mkdir("site_src")
    project.path.joinpath("site_src", "t.md").write_text("# T\n\n<!-- oracle:verdict-table t -->\n")
    write_case(project, "01-run.yaml", PASSING)
    lonely = project.path / "cases" / "elsewhere"
    lonely.mkdir()
    lonely_case = (
        clean(PASSING)
        .replace("run-beats-sum", "lonely")
        .replace("yellow 5", "yellow 4")
        .replace("(total 9)", "(total 8)")
    )
    lonely.joinpath("01-lonely.yaml").write_text(lonely_case)  # not a duplicate: another sum
    result = project.runpytest()
    result.assert_outcomes(passed=3, failed=1)  # the lonely case's catalogue item fails
    result.stdout.fnmatch_lines(
        [
            "cases/elsewhere/01-lonely.yaml:1: case 'lonely': no page shows the topic 'elsewhere';"
            " add <!-- oracle:verdict-table elsewhere --> to a page in site_src/"
        ]
    )
    assert_no_traceback(result)


def test_a_turn_without_their_hand_says_so(project: pytest.Pytester) -> None:
    text = GAME_DRIFTED.replace("  their_hand: [blue 5]\n", "")
    lines = write_case(project, "03-joker.yaml", text)
    result = project.runpytest()
    result.assert_outcomes(errors=1)
    table_line = clean(text).splitlines().index("table:") + 1
    result.stdout.fnmatch_lines(
        [
            f"cases/t/03-joker.yaml:{table_line}: a turn may go on into their turn, so the table"
            " must give their_hand (write their_hand: [] if their hand is empty)"
        ]
    )
    assert lines


@pytest.mark.slow  # three more Python processes: CI runs it, an editor opts in
def test_the_drafts_are_listed_when_the_run_is_spread_over_workers(
    project: pytest.Pytester,
) -> None:
    write_case(project, "01-run.yaml", PASSING)
    write_case(project, "05-draft.yaml", DRAFT)
    write_case(project, "06-draft.yaml", DRAFT.replace("unsettled-claim", "second-draft"))
    result = project.runpytest_subprocess("-n", "2", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, skipped=2)
    result.stdout.fnmatch_lines(["*draft cases (checked, not published)*"])
    result.stdout.fnmatch_lines(["unsettled-claim (cases/t/05-draft.yaml:1)"])
    result.stdout.fnmatch_lines(["second-draft (cases/t/06-draft.yaml:1)"])


def test_a_move_the_engine_cannot_read_in_the_turn_leaves_the_plays_judged(
    project: pytest.Pytester,
) -> None:
    text = GAME_DRIFTED.replace("moves: [green 3 on 5, draw clan]", "moves: [green 3 onto 5]")
    write_case(project, "03-joker.yaml", text)
    result = project.runpytest("-rA")
    result.assert_outcomes(failed=2, passed=1, skipped=1)
    result.stdout.fnmatch_lines(["PASSED cases/t/03-joker.yaml::joker-twice[[]play-2[]]"])
    result.stdout.fnmatch_lines(["FAILED cases/t/03-joker.yaml::joker-twice[[]turn[]]*"])
    assert_no_traceback(result)


def test_a_topic_or_a_case_file_can_be_run_alone_with_the_whole_catalogue_read(
    project: pytest.Pytester,
) -> None:
    """``pytest cases/t`` runs that topic and ``pytest cases/t/a.yaml`` that case, as pytest does
    for other files; an id another topic uses too is still found, since the catalogue is read
    whole."""
    write_case(project, "a.yaml", PASSING)
    write_case(project, "b.yaml", DRIFTED)
    other = project.path / "cases" / "u"
    other.mkdir()
    other.joinpath("c.yaml").write_text(
        clean(PASSING).replace("id: run-beats-sum", "id: last-three-in-your-hand"),
        encoding="utf-8",
    )
    topic = project.runpytest("cases/t", "-v", "--continue-on-collection-errors")
    topic.assert_outcomes(passed=2, errors=1)  # a's claim and its [catalogue] item
    topic.stdout.fnmatch_lines(["*run-beats-sum?stone-2? PASSED*"])
    topic.stdout.fnmatch_lines(
        ["cases/t/b.yaml:1: case id 'last-three-in-your-hand' is also used by cases/u/c.yaml:1*"]
    )
    assert "cases/u" not in "\n".join(line for line in topic.outlines if "PASSED" in line)
    one = project.runpytest("cases/t/a.yaml", "-v")
    one.assert_outcomes(passed=2)
    one.stdout.fnmatch_lines(["cases/t/a.yaml::run-beats-sum?stone-2? PASSED*"])
    assert_no_traceback(one)
