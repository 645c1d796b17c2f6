"""The loader on Tactic cards: where each may lie, the two Jokers, combat mode cards; each mistake
is one located line."""

from __future__ import annotations

import contextlib
import fnmatch
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import pytest
from case_files import BAD_FILES, RULES, clean, marks, passing_case

from engine import Reason, Tactic, claim_verdict
from oracle.casefile.entries import case_entries
from oracle.casefile.errors import CaseError
from oracle.casefile.loader import ReadCases, load_case, load_cases
from oracle.casefile.rules import load_rules_index
from oracle.casefile.source import SourceError, read_yaml

HEADER = """\
id: tactic-case
situation: S
why: W
variant: {variant}
position:
  stones:
"""


def write(tmp_path: Path, body: str, variant: str = "tactics") -> Path:
    path = tmp_path / "case.yaml"
    path.write_text(HEADER.format(variant=variant) + body)
    return path


CLAIM = """\
claims:
  - stone: 3
    expect: refused
    because: a reason, pinned
"""


def test_a_tactics_case_with_elite_troops_loads_and_is_judged(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """\
    - stone: 3
      you: [red 5, green 5, pink 5]
      them: [blue 8, blue 9]
    - stone: 6
      you: [blue 7, joker]
      them: [joker]
  discards: [spy, banshee]
  hand: [shield-bearer, mud fight]
"""
        + CLAIM,
    )
    case = load_case(path)
    assert case.position.stone(6).sides == ((15, Tactic.JOKER), (Tactic.SECOND_JOKER,))
    verdict = claim_verdict(case.position, 3)
    # No Joker for them (they hold one), the Spy is discarded: only the Shield-Bearer is left,
    # and it cannot be a 7, so blue 7-8-9 is out of reach.
    assert verdict.reason is Reason.UNBEATABLE


@pytest.mark.parametrize(
    ("written", "jokers"),
    [
        ("[second joker]", (Tactic.SECOND_JOKER,)),
        ("[second  joker, joker]", (Tactic.SECOND_JOKER, Tactic.JOKER)),
        ("[joker, joker]", (Tactic.JOKER, Tactic.SECOND_JOKER)),
        ("[joker]", (Tactic.JOKER,)),
    ],
)
def test_the_second_joker_may_be_named_while_the_first_is_out_of_sight(
    tmp_path: Path, written: str, jokers: tuple[int, ...]
) -> None:
    path = write(
        tmp_path,
        f"""\
    - stone: 3
      you: [red 5, green 5, pink 5]
      them: [blue 8, blue 9]
    - stone: 6
      you: [blue 7, spy]
  hand: {written}
"""
        + CLAIM,
    )
    assert load_case(path).position.hand == jokers


def test_the_first_joker_stays_out_of_sight_behind_the_second_on_a_side(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """\
    - stone: 3
      you: [red 5, green 5, pink 5]
      them: [blue 8, blue 9]
    - stone: 6
      you: [blue 7, second joker]
      them: [yellow 2, spy]
"""
        + CLAIM,
    )
    position = load_case(path).position
    assert position.stone(6).sides[0] == (15, Tactic.SECOND_JOKER)
    assert position.out_of_sight_mask() >> Tactic.JOKER & 1
    # They have played no Joker: the first, unseen, can become their blue 7.
    assert claim_verdict(position, 3).reason is Reason.WITNESS


@pytest.mark.parametrize(
    ("body", "variant", "line", "message"),
    [
        (
            "    - stone: 3\n      you: [second joker]\n      them: [joker]\n  hand: [joker]\n",
            "tactics",
            10,
            "a third joker: the game has only two",
        ),
        (
            "    - stone: 3\n      you: [red 1]\n  hand: [Second Joker]\n",
            "tactics",
            9,
            "'Second Joker': write Tactic cards in lowercase, as in 'second joker'",
        ),
        (
            "    - stone: 3\n      you: [red 1, joker]\n",
            "base",
            8,
            "joker: Tactic cards only exist in the tactics variant",
        ),
        (
            "    - stone: 3\n      you: [red 1, mud fight]\n",
            "tactics",
            8,
            "mud fight: mud fight cannot lie on a side: only Clan cards and elite troops do"
            " (a combat mode goes in the stone's modes)",
        ),
        (
            "    - stone: 3\n      you: [joker]\n      them: [joker]\n  hand: [joker]\n",
            "tactics",
            10,
            "a third joker: the game has only two",
        ),
        (
            "    - stone: 3\n      you: [joker]\n    - stone: 4\n      you: [joker]\n",
            "tactics",
            10,
            "joker: a player may have only one Joker on their side of the border",
        ),
        (
            "    - stone: 3\n      modes: [mud fight]\n    - stone: 4\n      modes: [mud fight]\n",
            "tactics",
            10,
            "mud fight lies on stones 3 and 4; there is one such card",
        ),
        (
            "    - stone: 3\n      modes: [mud fight]\n  hand: [mud fight]\n",
            "tactics",
            9,
            "mud fight already lies on a stone; it cannot be here too",
        ),
        (
            "    - stone: 3\n      you: [red 1]\n  discards: [blind-man's bluff]\n",
            "tactics",
            9,
            "blind-man's bluff: blind-man's bluff stays on its stone; it is never discarded",
        ),
        (
            "    - stone: 3\n      you: [red 1]\n  hand: [Joker]\n",
            "tactics",
            9,
            "'Joker': write Tactic cards in lowercase, as in 'joker'",
        ),
    ],
)
def test_misplaced_tactic_cards_are_located_errors(
    tmp_path: Path, body: str, variant: str, line: int, message: str
) -> None:
    path = write(tmp_path, body + CLAIM, variant)
    with pytest.raises(CaseError) as caught:
        load_case(path)
    assert caught.value.line == line, caught.value.located
    assert caught.value.problem.startswith(message), caught.value.problem


GOOD_START = "id: x\nsituation: S\nwhy: W\nvariant: base\nposition:\n  stones:\n"


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (GOOD_START + "    - stone: 2.0\n", 7, "'2.0': numbers in these files are whole numbers"),
        (GOOD_START + "    - stone: !!int x\n", 7, "'x' cannot be read as !!int"),
        (
            GOOD_START + "    - stone: 2\n      you: [red \u00b2]\n" + CLAIM,
            8,
            "'red \u00b2': unknown value",
        ),
        (
            GOOD_START + "    - stone: 2\n      you: [red \u0663]\n" + CLAIM,
            8,
            "'red \u0663': unknown value",
        ),
        (
            GOOD_START + "    - stone: 2\n      you: [red " + "9" * 5000 + "]\n" + CLAIM,
            8,
            "'red 999",
        ),
        ("id: x\nwhy: \x00\n", 2, "character '\\x00' cannot appear in a YAML file"),
        ("id: " + "[" * 3000 + "]" * 3000 + "\n", 1, "brackets nested over 16 deep"),
        ("[1, 2]\n", 1, "the file must be a mapping of keys"),
    ],
)
def test_odd_input_is_one_located_line(
    tmp_path: Path, text: str, line: int | None, message: str
) -> None:
    path = tmp_path / "odd.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CaseError) as caught:
        load_case(path)
    assert caught.value.line == line, caught.value.located
    assert caught.value.problem.startswith(message), caught.value.problem
    assert "\n" not in caught.value.located


def test_unreadable_files_are_case_errors(tmp_path: Path) -> None:
    latin = tmp_path / "latin.yaml"
    latin.write_bytes("id: caf\u00e9\n".encode("latin-1"))
    with pytest.raises(CaseError, match=r"latin\.yaml:1: this line is not UTF-8 text"):
        load_case(latin)
    with pytest.raises(CaseError, match="cannot read the file"):
        load_case(tmp_path)


# ------------------------------------------------------- every file a case or an error (issue 12)

GOOD_CASE = passing_case("good", "S", "W")


def test_every_entry_under_the_case_folder_is_a_case_or_an_error(tmp_path: Path) -> None:
    cases = tmp_path / "cases"
    topic = cases / "topic"
    topic.mkdir(parents=True)
    (topic / "01-good.yaml").write_text(GOOD_CASE)
    (topic / "02-upper.YAML").write_text(GOOD_CASE.replace("good", "upper"))
    (topic / "03-self.yaml").symlink_to(topic / "03-self.yaml")
    (topic / "04-dangling.yaml").symlink_to(tmp_path / "nowhere.yaml")
    (tmp_path / "outside.txt").write_text("secret: " + "x" * 500)
    (topic / "05-outside.yaml").symlink_to(tmp_path / "outside.txt")
    os.mkfifo(topic / "06-fifo.yaml")
    (cases / "07-at-the-root.yaml").write_text(GOOD_CASE.replace("good", "root"))
    (topic / "deeper").mkdir()
    (topic / "deeper" / "08-nested.yaml").write_text(GOOD_CASE.replace("good", "nested"))
    (topic / "09-Bad_Name.yaml").write_text(GOOD_CASE.replace("good", "bad-name"))
    (topic / "notes.txt").write_text("remember")
    (topic / ".hidden.yaml").write_text("ignored: editors' dotfiles")
    problems = {entry.path.name: entry.problem for entry in case_entries(cases)}
    assert problems.pop("01-good.yaml") is None
    expected = {
        "02-upper.YAML": "case files end in .yaml (lowercase)",
        "03-self.yaml": "a symbolic link",
        "04-dangling.yaml": "a symbolic link",
        "05-outside.yaml": "a symbolic link",
        "06-fifo.yaml": "not a regular file",
        "07-at-the-root.yaml": "a case lives in a topic folder",
        "deeper": "a folder inside the topic folder topic/: cases live one level down",
        "09-Bad_Name.yaml": "must be lowercase words joined by hyphens",
        "notes.txt": "not a case file",
    }
    assert set(problems) == set(expected)
    for name, start in expected.items():
        assert start in (problems[name] or ""), name
    collection = load_cases(cases)
    assert [case.id for case in collection.cases] == ["good"]
    assert len(collection.errors) == len(expected)
    assert not any("secret" in str(error) for error in collection.errors)


def test_files_sort_by_their_leading_number(tmp_path: Path) -> None:
    topic = tmp_path / "cases" / "topic"
    topic.mkdir(parents=True)
    for name in ("100-c", "99-b", "9-a"):
        (topic / f"{name}.yaml").write_text(GOOD_CASE.replace("good", name[-1]))
    assert [case.id for case in load_cases(tmp_path / "cases").cases] == ["a", "b", "c"]


def test_a_duplicate_id_is_reported_on_every_file_that_uses_it(tmp_path: Path) -> None:
    topic = tmp_path / "cases" / "topic"
    topic.mkdir(parents=True)
    (topic / "01-original.yaml").write_text(GOOD_CASE)
    (topic / "02-copy.yaml").write_text(GOOD_CASE)
    errors = [str(error) for error in load_cases(tmp_path / "cases").errors]
    assert len(errors) == 2
    assert "01-original.yaml:1: case id 'good' is also used by" in errors[0]
    assert errors[0].endswith("02-copy.yaml:1; each case needs its own id")


READ_PROBLEMS = [
    pytest.param(b"id: x\nsituation: caf\xe9\n", 2, "this line is not UTF-8 text", id="not-utf8"),
    pytest.param(
        "id: x\nsituation: a\u2028b\nwhy: [\n".encode(),
        2,
        "the line break U+2028 is not allowed here",
        id="line-separator",
    ),
    pytest.param(b"id: x\nwhy: " + b"[" * 40 + b"]" * 40 + b"\n", 2, "nested over 16", id="deep"),
    pytest.param(b"id: x\nwhy: " + b"a" * 70_000 + b"\n", None, "over 64 KiB", id="huge"),
]


@pytest.mark.parametrize(("content", "line", "message"), READ_PROBLEMS)
def test_what_no_case_needs_is_refused_before_parsing(
    tmp_path: Path, content: bytes, line: int | None, message: str
) -> None:
    path = tmp_path / "case.yaml"
    path.write_bytes(content)
    with pytest.raises(SourceError) as raised:
        read_yaml(path)
    assert raised.value.line == line
    assert message in raised.value.problem


def test_deeply_nested_brackets_are_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "case.yaml"
    path.write_text("id: " + "[" * 30_000)  # PyYAML alone takes minutes over this
    with pytest.raises(SourceError, match="nested over 16"):
        read_yaml(path)


def test_brackets_in_comments_and_strings_are_not_nesting(tmp_path: Path) -> None:
    path = tmp_path / "case.yaml"
    path.write_text("id: x\n" + "# note [3\n" * 20 + "why: '[[[[[[[[[[[[[[[[[['\n")
    assert read_yaml(path).data["why"] == "[" * 18


def test_a_non_utf8_line_is_counted_with_old_mac_line_ends(tmp_path: Path) -> None:
    path = tmp_path / "case.yaml"
    path.write_bytes(b"id: x\rwhy: a\r\rsituation: caf\xe9\r")
    with pytest.raises(SourceError) as raised:
        read_yaml(path)
    assert raised.value.line == 4


# ------------------------------------------------------------- text that is not text (issue 19)

TEXT_START = "id: text\nvariant: base\nwhy: W\n"


@pytest.mark.parametrize(
    ("situation", "message"),
    [
        pytest.param('"a\\ud800b"', "holds U+D800, a lone surrogate", id="lone-surrogate"),
        pytest.param('"a\\e[2Jb"', "the control character U+001B ESCAPE", id="escape"),
        pytest.param('"a\\0b"', "the control character U+0000 NUL", id="nul"),
        pytest.param('"a\\x9bb"', "the control character U+009B", id="c1"),
        pytest.param('"a\\rb"', "U+000D CARRIAGE RETURN", id="carriage-return"),
        pytest.param("a\u202eb", "U+202E RIGHT-TO-LEFT OVERRIDE", id="bidi-override"),
        pytest.param("a\u2066b", "U+2066 LEFT-TO-RIGHT ISOLATE", id="bidi-isolate"),
        pytest.param('"\u200b\u00a0\u3000"', "holds nothing a reader can see", id="blank"),
        pytest.param('"\\u2060\\ufeff "', "U+2060 WORD JOINER", id="invisible"),
        pytest.param("a wo\u200brd", "U+200B ZERO WIDTH SPACE, which is drawn", id="zero-width"),
        pytest.param("ok\U000e0041\U000e0042", "a tag character", id="ascii-smuggling"),
        pytest.param("a\ufe0fb", "a variation selector with no symbol", id="variation"),
        pytest.param("see \ue000 here", "a private-use character", id="private-use"),
    ],
)
def test_text_that_is_not_text_is_refused_at_its_line(
    tmp_path: Path, situation: str, message: str
) -> None:
    path = tmp_path / "text.yaml"
    path.write_text(TEXT_START + f"situation: {situation}\n", encoding="utf-8")
    with pytest.raises(CaseError) as caught:
        load_case(path)
    assert caught.value.line == 4, caught.value.located
    assert message in caught.value.problem, caught.value.problem
    assert caught.value.located.isprintable()


def test_a_reordering_character_is_refused_even_in_a_comment(tmp_path: Path) -> None:
    path = tmp_path / "text.yaml"
    path.write_text(TEXT_START + "# a note \u202e\nsituation: S\n", encoding="utf-8")
    with pytest.raises(CaseError, match=r":4: this line holds U\+202E"):
        load_case(path)


def test_tab_new_line_and_real_letters_are_text(tmp_path: Path) -> None:
    path = tmp_path / "text.yaml"
    why = 'why: "tab\\there, new\\nline, caf\u00e9, \u0442\u0435\u043a"'
    path.write_text(GOOD_CASE.replace("why: W", why), encoding="utf-8")
    assert load_case(path).why == "tab\there, new\nline, caf\u00e9, \u0442\u0435\u043a"


def test_what_scripts_and_emoji_need_is_text(tmp_path: Path) -> None:
    """The joiners a script or an emoji needs, and an emoji's variation selector, are kept."""
    path = tmp_path / "text.yaml"
    persian = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # a non-joiner inside
    why = f"why: \u2764\ufe0f, \U0001f468\u200d\U0001f469, {persian}"
    path.write_text(GOOD_CASE.replace("why: W", why), encoding="utf-8")
    assert "\u200d" in load_case(path).why


def test_a_look_alike_letter_in_a_card_is_named(tmp_path: Path) -> None:
    path = tmp_path / "case.yaml"
    path.write_text(GOOD_CASE.replace("[red 5,", "[r\u0435d 5,"), encoding="utf-8")
    with pytest.raises(CaseError) as caught:
        load_case(path)
    assert "U+0435 CYRILLIC SMALL LETTER IE" in caught.value.problem


def test_what_a_message_echoes_is_clipped(tmp_path: Path) -> None:
    path = tmp_path / "case.yaml"
    path.write_text("id: x\nsituation: " + "9" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(CaseError) as caught:
        load_case(path)
    assert "(5,000 characters)" in caught.value.problem and len(caught.value.located) < 300


def test_odd_folders_are_each_one_error_and_hide_no_case(tmp_path: Path) -> None:
    cases = tmp_path / "cases"
    (cases / "topic").mkdir(parents=True)
    (cases / "topic" / "01-good.yaml").write_text(GOOD_CASE)
    (cases / "empty").mkdir()
    (cases / "x.yaml").mkdir()
    with deep_folder(cases / "deep", 200), recursion_limit(150):  # deeper than the limit
        problems = {entry.path.name: entry.problem for entry in case_entries(cases)}
        collection = load_cases(cases)
    assert problems.pop("01-good.yaml") is None
    assert problems == {
        "empty": "an empty topic folder: add a case to it, or remove it",
        "x.yaml": "the topic folder 'x.yaml' must be lowercase words joined by hyphens; rename it",
        "d": "a folder inside the topic folder deep/: cases live one level down, as"
        " cases/TOPIC/NAME.yaml; move its files up",
    }
    assert [case.id for case in collection.cases] == ["good"] and len(collection.errors) == 3


@contextlib.contextmanager
def recursion_limit(frames: int) -> Iterator[None]:
    """Python's recursion limit set ``frames`` above the caller's depth, then put back: a
    folder tree a couple of hundred deep is then deeper than any recursive walk can go (reading
    the cases takes about 50 frames), and costs a fifth of the thousand folders that would
    exceed Python's own limit (0.4 s of CPU to make and remove)."""
    frame: FrameType | None = sys._getframe()
    depth = 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + frames)
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


@contextlib.contextmanager
def deep_folder(top: Path, depth: int) -> Iterator[None]:
    """Folders ``top/d/d/...`` ``depth`` deep, made and removed without recursion (Python's
    own tree removal, which pytest cleans up with, would overflow on them)."""
    here = os.getcwd()
    top.mkdir()
    try:
        os.chdir(top)
        for _ in range(depth):
            os.mkdir("d")
            os.chdir("d")
        os.chdir(here)
        yield
    finally:
        os.chdir(top)
        for _ in range(depth):
            os.chdir("d")
        for _ in range(depth):
            os.chdir("..")
            os.rmdir("d")
        os.chdir(here)


@pytest.mark.parametrize("text", ['"\\u034f\\u17b5"', '"\\ufff9x\\ufffb"'], ids=["marks", "hidden"])
def test_combining_marks_alone_and_hiding_controls_are_not_text(tmp_path: Path, text: str) -> None:
    path = tmp_path / "text.yaml"
    path.write_text(TEXT_START + f"situation: {text}\n", encoding="utf-8")
    with pytest.raises(CaseError, match=":4: this text holds"):
        load_case(path)


def test_a_case_read_before_is_read_again_when_its_text_or_place_changes(tmp_path: Path) -> None:
    """What the loader is given to keep holds the cases it has read by their text: an unchanged
    file is the very same case, a changed file is read afresh, a file that turns bad is an error
    again, and the same text elsewhere names its own path."""
    read = ReadCases()
    folder = tmp_path / "cases" / "claims"
    folder.mkdir(parents=True)
    body = HEADER.format(variant="base") + "    - stone: 3\n      you: [red 1]\n" + CLAIM
    path = folder / "01-a.yaml"
    path.write_text(body)
    [first] = load_cases(tmp_path / "cases", read=read).cases
    [again] = load_cases(tmp_path / "cases", read=read).cases
    assert again is first and again.path == path
    path.write_text(body.replace("situation: S", "situation: Changed"))
    [changed] = load_cases(tmp_path / "cases", read=read).cases
    assert changed.situation == "Changed"
    path.write_text(body.replace("stone: 3\n      you", "stone: 30\n      you"))
    [error] = load_cases(tmp_path / "cases", read=read).errors
    assert error.path == path and error.line is not None
    elsewhere = tmp_path / "copy" / "cases" / "more-claims"
    elsewhere.mkdir(parents=True)
    (elsewhere / "02-b.yaml").write_text(body)
    [copied] = load_cases(tmp_path / "copy" / "cases", read=read).cases
    assert copied.path == elsewhere / "02-b.yaml" and copied.topic == "more-claims"
    assert copied.position == first.position


@pytest.mark.parametrize(("name", "text", "message"), BAD_FILES)
def test_the_loader_gives_each_bad_file_its_one_located_line(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    """Each broken file of :data:`case_files.BAD_FILES` read by the loader itself, as every
    front end reads it: one error, located at the marked line, in the words the plugin shows
    (``test_plugin`` holds the plugin to the same lines)."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "index.yaml").write_text(clean(RULES), encoding="utf-8")
    rules = load_rules_index(tmp_path / "rules" / "index.yaml")
    folder = tmp_path / "cases" / "t"
    folder.mkdir(parents=True)
    text = clean(text)
    folder.joinpath(name).write_text(text, encoding="utf-8")
    collection = load_cases(tmp_path / "cases", rules, root=tmp_path)
    assert not collection.cases
    [error] = collection.errors
    lines = marks(text)
    path = f"cases/t/{name}"
    where = path if name.endswith(".yml") else f"{path}:{lines.get('line', 1)}"
    located = error.lines_from(tmp_path)
    assert fnmatch.fnmatchcase(located[0], f"{where}: {message.format(**lines)}"), located


def test_a_published_claim_without_its_reason_says_how_pin_writes_it(tmp_path: Path) -> None:
    """pin fills the open answers of a draft only, so the message says to mark the case a draft
    first, and to take the mark off after."""
    path = write(
        tmp_path,
        "    - stone: 3\n      you: [red 5, green 5, pink 5]\n      them: [blue 8, blue 9]\n"
        "claims:\n  - stone: 3\n    expect: refused\n",
        variant="base",
    )
    with pytest.raises(CaseError) as raised:
        load_case(path)
    assert raised.value.line == 11  # the claim that leaves its reason out
    assert "draft: true (schotten-oracle pin then writes them; remove draft: after)" in str(
        raised.value
    )
