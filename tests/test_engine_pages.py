"""What the site's "Ask the engine" and "Play a game" pages run, tested in CPython.

The pages run :mod:`oracle.browser.pages` in Pyodide with the archive :mod:`oracle.site.bundle`
builds; the browser tests (``test_browser.py``) drive the pages themselves.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import zipfile
from collections.abc import Sequence
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURE, needs_the_runtime, run_main
from loader_answers import loaded_or_refused

from engine import (
    Game,
    GameState,
    Move,
    Phase,
    Player,
    card_name,
    parse_card,
    parse_record,
    replay,
    stones_named,
)
from engine.cards.tactics import CARD_RULES, Tactic
from engine.game.moves import Deck
from engine.tools.opponent import choose_move
from oracle.browser import pages as browser
from oracle.casefile.loader import load_case_file
from oracle.casefile.rules import load_rules_index
from oracle.site.bundle import RULES_INDEX_IN_ARCHIVE, BundleError, bundle, pyodide_folder
from oracle.site.casepages import ask_fragment, case_text_of_fragment
from oracle.verify.replay import verify_case
from oracle.verify.report import CaseReport

ROOT = Path(__file__).resolve().parent.parent
RULES = FIXTURE / "rules" / "index.yaml"


SESSION = browser.Session(load_rules_index(RULES))
"""A page's session, as the pages make one: the rules index the catalogue pins."""


def verdicts(report: CaseReport) -> list[tuple[int, str]]:
    return [(check.verdict.stone, check.verdict.verdict.label) for check in report.checks]


def empty_form(variant: str = "base") -> dict[str, Any]:
    return {"variant": variant, "stones": [{} for _ in range(9)], "hand": "", "discards": ""}


def test_every_published_claim_case_pasted_gets_the_engines_verdicts_and_its_form_agrees(
    published: tuple[CaseReport, ...],
) -> None:
    """Pasted, each case gets verify_case's answer; its board in the form asks the same claims."""
    claim_cases = [report for report in published if report.checks]
    assert len(claim_cases) >= 20
    for report in claim_cases:
        answer = SESSION.ask_text({"text": report.case.path.read_text(encoding="utf-8")})
        assert answer["ok"], report.case.id
        shown = [(v["stone"], v["verdict"]) for v in answer["report"]["verdicts"]]
        assert shown == verdicts(report), report.case.id
        assert answer["report"]["verified"]
        again = SESSION.ask_form({"form": answer["form"]})
        assert again["ok"], (report.case.id, again)
        form_verdicts = [(v["stone"], v["verdict"]) for v in again["report"]["verdicts"]]
        assert sorted(form_verdicts) == sorted(verdicts(report)), report.case.id


def test_a_board_copied_as_a_case_file_is_accepted_by_check_unchanged(
    catalogue_copy: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    form = empty_form("tactics")
    form["stones"][3] = {"you": "red 5, red 6, red 7", "them": "blue 1", "claim": True}
    form["stones"][4] = {
        "you": "joker, yellow 9, yellow 8",
        "them": "pink 1, pink 2, pink 3",
        "completed_first": "them",  # both sides complete: the order is part of the board
    }
    form["stones"][4]["claim"] = True
    form["hand"] = "mud fight, green 5"
    form["discards"] = "spy, strategist"
    answer = SESSION.ask_form({"form": form})
    assert answer["ok"], answer
    text = answer["case_text"]
    assert "expect: " in text and "draft: true" in text
    target = catalogue_copy / "cases" / "claims" / "99-your-board.yaml"
    target.write_text(text, encoding="utf-8")
    case = load_case_file(target, catalogue_copy / "cases", load_rules_index(RULES))
    report = verify_case(case)
    assert report.verified and case.draft
    shown = [(v["stone"], v["verdict"]) for v in answer["report"]["verdicts"]]
    assert verdicts(report) == shown
    monkeypatch.chdir(catalogue_copy)
    assert run_main(["check"]) == 0, capsys.readouterr().out


@pytest.mark.parametrize(
    ("situation", "case_id"),
    [
        ("yes", "yes"),
        ("123", "123"),
        ("2026-12-05", "2026-12-05"),
        ("null", "null"),
        ("x" * 100, "x" * 80),
        ("Mud " + "y" * 90, "mud"),
    ],
)
def test_any_situation_makes_an_id_the_case_file_reads_back(situation: str, case_id: str) -> None:
    """Quoted where YAML would read another type, clipped at a word to the format's length:
    the reader never gets an error about a line they did not write."""
    form = empty_form()
    form["stones"][2] = {"you": "red 1, blue 1, green 1", "them": "red 3, blue 3", "claim": True}
    form["situation"] = situation
    form["why"] = "their side can still beat yours"
    answer = SESSION.ask_form({"form": form})
    assert answer["ok"], answer
    again = SESSION.ask_text({"text": answer["case_text"]})
    assert again["ok"], again
    assert again["report"]["id"] == case_id


def test_a_board_with_its_words_is_copied_as_a_finished_case_check_publishes_once_confirmed(
    catalogue_copy: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    form = empty_form()
    form["stones"][2] = {"you": "red 1, blue 1, green 1", "them": "red 3, blue 3", "claim": True}
    form["hand"] = "pink 3, green 3"
    form["situation"] = "Your 1-1-1 against their 3-3, with the last 3s in your hand!"
    form["why"] = "your own hand proves nothing: it is out of sight too"
    answer = SESSION.ask_form({"form": form})
    assert answer["ok"], answer
    text = answer["case_text"]
    assert "id: your-1-1-1-against-their-3-3\n" in text
    assert "draft: true" not in text
    case_file = catalogue_copy / "cases" / "claims" / "99-your-1-1-1-against-their-3-3.yaml"
    case_file.write_text(text, encoding="utf-8")
    case = load_case_file(case_file, catalogue_copy / "cases", load_rules_index(RULES))
    report = verify_case(case)
    assert report.verified and not case.draft
    (check,) = report.checks
    # The reason the page showed is pinned, and only the rules this answer rests on are named.
    assert check.claim.because is not None
    assert " ".join(check.claim.because.split()) == check.verdict.explanation
    assert case.rules == check.verdict.rules
    assert "claim.hand-is-no-proof" in case.rules  # the witness, green 3, is in your hand
    assert not any(rule.startswith("tactics.") for rule in case.rules)
    monkeypatch.chdir(catalogue_copy)
    # The reader's words are read once more against the verdicts, and confirmed.
    assert run_main(["check"]) == 1
    assert "then run schotten-oracle pin --reviewed" in capsys.readouterr().out
    assert run_main(["pin", "--reviewed", str(case_file)]) == 0
    assert run_main(["check"]) == 0, capsys.readouterr().out
    # The reader's words come back into the form when the case is read again.
    again = SESSION.ask_text({"text": text})
    assert again["form"]["situation"] == form["situation"]
    assert again["form"]["why"] == form["why"]


@pytest.mark.parametrize(
    ("situation", "expected"),
    [
        ("Your 1-1-1 against their 3-3", "your-1-1-1-against-their-3-3"),
        ("  Mud Fight: a 4-card côté, à la carte  ", "mud-fight-a-4-card-cote-a-la"),
        (
            "one two three four five six seven eight nine ten",
            "one-two-three-four-five-six-seven-eight",
        ),
        ("!!! ???", "your-board"),
        ("", "your-board"),
    ],
)
def test_the_id_is_made_from_the_situation(situation: str, expected: str) -> None:
    form = empty_form()
    form["situation"] = situation
    text, _ = browser.form_case_text(form)
    assert f"\nid: {expected}\n" in text


@pytest.mark.parametrize(
    ("stone_3", "hand", "field", "words"),
    [
        ({"you": "red 1, rde 2", "claim": True}, "", "stone-3-you", "unknown colour 'rde'"),
        ({"you": "red 1", "them": "red 1", "claim": True}, "", "stone-3-them", "appears twice"),
        ({"you": "red 1, red 2, red 3, red 4", "claim": True}, "", "stone-3-you", "4 cards"),
        ({"you": "red 1, red 2, red 3"}, "", "claims", "tick at least one stone"),
        ({"you": "red 1", "claim": True}, "red 1", "hand", "appears twice"),
        ({"you": "mud fight", "claim": True}, "", "stone-3-you", ""),
    ],
)
def test_an_impossible_board_gets_the_loaders_message_on_its_own_field(
    stone_3: dict[str, Any], hand: str, field: str, words: str
) -> None:
    form = empty_form()
    form["stones"][2] = stone_3
    form["hand"] = hand
    answer = SESSION.ask_form({"form": form})
    assert not answer["ok"]
    assert answer["field"] == field, answer
    assert words in answer["message"]
    assert "\n" not in answer["message"]
    if field != "claims":
        assert answer["message"].startswith(browser.field_label(field) + ": ")


def test_a_pasted_file_gets_the_loaders_own_message_with_its_line() -> None:
    text = (FIXTURE / "cases/claims/02-last-three-in-your-hand.yaml").read_text(encoding="utf-8")
    broken = text.replace("blue 7", "red 1")
    answer = SESSION.ask_text({"text": broken})
    expected_line = broken.splitlines().index("  hand: [pink 3, red 9, red 1, yellow 8, purple 5]")
    assert not answer["ok"] and answer["line"] == expected_line + 1
    assert answer["problem"].startswith("red 1 appears twice")
    tagged = SESSION.ask_text({"text": "!!python/object:os.system\n"})
    assert not tagged["ok"] and "tag" in tagged["message"].lower()


def test_the_case_page_link_carries_the_case_file_exactly_and_old_links_still_open() -> None:
    import base64

    text = (FIXTURE / "cases/tactic-cards/08-banshee.yaml").read_text(encoding="utf-8")
    fragment = ask_fragment(text)
    version, code = fragment.split("=", 1)
    assert version == "v2"
    assert set(code) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert case_text_of_fragment(fragment) == text
    assert len(fragment) < len(base64.urlsafe_b64encode(text.encode("utf-8"))) * 0.75
    version_1 = "case=" + base64.urlsafe_b64encode(text.encode("utf-8")).decode().rstrip("=")
    assert case_text_of_fragment(version_1) == text
    with pytest.raises(ValueError, match="version 'v3'"):
        case_text_of_fragment("v3=AAAA")


def open_stones(view: dict[str, Any]) -> list[int]:
    """The stones nobody holds, as the page's table shows them."""
    return [stone["number"] for stone in view["table"] if stone["held_by"] is None]


def check_refused_cards(view: dict[str, Any]) -> None:
    """In the play step a card in hand says why it cannot be played exactly when no move the
    page offers starts from it (a Recruiter return names its card in ``card``)."""
    offered = {move.get("hand") for move in view["moves"]}
    for card in view["hand_cards"]:
        playable = card["name"] in offered
        assert bool(card["refused"]) != playable or view["phase"] != "play", card


def play_to_the_end(seed: int, variant: str, expert: bool, you_first: bool) -> dict[str, Any]:
    """A whole game through the page's calls: random legal moves, and claims of every stone."""
    rng = random.Random(seed)
    view = SESSION.new_game(
        {"variant": variant, "seed": seed, "expert": expert, "you_first": you_first}
    )
    refused = 0
    for _ in range(1000):
        if view["over"]:
            return {**view, "refused": refused}
        assert view["your_turn"]
        if view["phase"] == "claim":
            view = SESSION.game_move({"game": view["game"], "claim": open_stones(view)})
            if not view["ok"]:
                refused += 1
                assert "(the rule: claim." in view["problem"]
                view = SESSION.game_move({"game": view["game"], "claim": []})
            continue
        check_refused_cards(view)
        move = rng.choice(view["moves"])["text"]
        view = SESSION.game_move({"game": view["game"], "move": move})
        assert view["ok"], view.get("problem")
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    ("seed", "variant", "expert", "you_first"),
    [(1, "base", False, True), (2, "tactics", False, False), (3, "tactics", True, True)],
)
def test_a_game_through_the_page_ends_and_its_record_replays_to_the_same_winner(
    seed: int,
    variant: str,
    expert: bool,
    you_first: bool,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    view = play_to_the_end(seed, variant, expert, you_first)
    record = tmp_path / "game.txt"
    record.write_text(view["record"], encoding="utf-8")
    assert run_main(["replay", str(record)]) == 0
    out = capsys.readouterr().out
    result = view["result"]
    # Said in the reader's words; the moves and turns counted as replay counts them.
    assert "Record" not in result and re.fullmatch(
        r"(You win|The computer wins|Nobody wins)[:,] .+\.", result
    )
    if result.startswith("You win"):
        assert "A wins" in out
    elif result.startswith("The computer wins"):
        assert "B wins" in out
    else:
        assert result.startswith("Nobody wins") and "wins" not in out.split(":")[-1]
    assert re.fullmatch(r"\d+ moves in \d+ turns", view["length"])
    assert f", {view['length']}: " in out
    assert view["log"] and all(event["text"] for event in view["log"])


def pick_of(move: dict[str, Any]) -> tuple[Any, ...]:
    """What the reader picks on the table to make ``move``: a card in hand, a card on the board,
    a stone, a deck, the stones claimed."""
    chosen = [move.get(key) for key in ("kind", "hand", "card", "from", "stone", "deck")]
    return (*chosen, tuple(move.get("stones", ())))


def _shows_what_the_engine_says(game: Game, view: dict[str, Any]) -> None:
    """The page's view of a game offers the engine's legal moves, each reached by its own
    picks, marks the stones a claim names and those the computer's last moves touched, and
    shows your hand as the engine holds it."""
    state = replay(game, parse_record(view["record"]).moves)
    legal = [str(move) for move in state.legal_moves()]
    assert [move["text"] for move in view["moves"]] == legal
    picks = [pick_of(move) for move in view["moves"]]
    assert len(set(picks)) == len(picks), "two moves share one set of picks"
    claims = {stone for move in view["moves"] for stone in move.get("stones", ())}
    assert {s["number"] for s in view["table"] if s["claimable"]} == claims
    touched = {s["number"] for s in view["table"] if s["touched"]}
    theirs = their_last_moves(game, parse_record(view["record"]).moves)
    assert [str(move) for move in theirs] == view["their_last"]
    assert touched == {stone for move in theirs for stone in stones_named(move)}
    hand = [card["name"] for card in view["hand_cards"]]
    assert hand == [card_name(card) for card in state.hands[Player.A]]


@pytest.mark.parametrize(
    ("seed", "variant", "expert"), [(4, "base", False), (6, "tactics", False), (9, "tactics", True)]
)
def test_the_table_offers_every_legal_move_once_and_marks_what_the_engine_says(
    seed: int, variant: str, expert: bool
) -> None:
    """The page offers exactly the engine's legal moves, each reached by one distinct set of
    picks; the stones marked as claimable are the ones a claim move names; the stones outlined
    are the ones the computer's last moves touched; a move sent twice is made once."""
    game = Game.named(variant, seed=seed, expert=expert)
    view = SESSION.new_game({"variant": variant, "seed": seed, "expert": expert, "you_first": True})
    number, rng, steps = view["game"], random.Random(seed), 0
    while not view["over"]:
        _shows_what_the_engine_says(game, view)
        made = view["moves_made"]
        move = rng.choice(view["moves"])["text"]
        view = SESSION.game_move({"game": number, "move": move, "at": made})
        assert view["ok"], view.get("problem")
        if steps == 0:  # the same move sent again, as a double click would, is not made twice
            again = SESSION.game_move({"game": number, "move": move, "at": made})
            assert again["moves_made"] == view["moves_made"] and again["notice"]
        steps += 1
    assert steps >= 10


def their_last_moves(game: Game, moves: Sequence[str]) -> list[Move]:
    """The computer's moves since the reader's last one, found by replaying the game."""
    state, made = game.new_initial_state(), []
    for text in moves:
        mover = state.current_player
        made.append((mover, state.apply_text(text)))
    theirs: list[Move] = []
    for mover, move in reversed(made):
        if mover is Player.A:
            break
        theirs.insert(0, move)
    return theirs


def test_stepping_back_shows_the_game_as_it_stood_after_each_move() -> None:
    """``game_at`` replays the game to any step: the hand and the table agree with a replay of
    the record's first moves, the turn is the one the log gives the move, and the step is kept
    within the game."""
    view = play_to_the_end(11, "tactics", False, True)
    record = parse_record(view["record"])
    total = len(record.moves)
    assert view["moves_made"] == total
    for step in (0, 1, 2, total // 2, total - 1, total):
        moment = SESSION.game_at({"game": view["game"], "step": step})
        state = replay(record.game, record.moves[:step])
        assert moment["step"] == step and moment["total"] == total
        assert [card["name"] for card in moment["hand_cards"]] == [
            card_name(card) for card in state.hands[Player.A]
        ]
        for stone, then in zip(moment["table"], state.position(Player.A).stones, strict=True):
            assert [card["name"] for card in stone["you"]] == [
                card_name(card) for card in then.sides[Player.A]
            ]
            assert [card["name"] for card in stone["them"]] == [
                card_name(card) for card in then.sides[Player.B]
            ]
        assert bool(moment["move"]) == (step > 0)
        if step:  # the turn the move was made in, as the log numbers it
            made = replay(record.game, record.moves[: step - 1])
            assert moment["turn"] == made.turn
            assert any(
                event.turn == made.turn and event.text == str(record.moves[step - 1])
                for event in state.events
            ), moment
    assert SESSION.game_at({"game": view["game"], "step": total + 5})["step"] == total
    assert SESSION.game_at({"game": view["game"], "step": -3})["step"] == 0


def test_a_claim_that_cannot_be_proved_is_refused_with_the_engines_reason() -> None:
    view = SESSION.new_game({"variant": "base", "seed": 5, "you_first": True})
    rng = random.Random(5)
    for _ in range(400):
        if view["phase"] == "claim" and view["your_turn"]:
            unprovable = [n for n in open_stones(view) if n not in view["held"]["you"]]
            attempt = SESSION.game_move({"game": view["game"], "claim": unprovable})
            if not attempt["ok"]:
                assert attempt["problem"].startswith("claim ")
                assert "(the rule: claim." in attempt["problem"]
                return
            view = attempt
            continue
        if view["over"]:
            break
        view = SESSION.game_move({"game": view["game"], "move": rng.choice(view["moves"])["text"]})
    pytest.fail("no claim step with an unprovable stone came up")


def hide_differently(state: GameState, player: Player, rng: random.Random) -> GameState:
    """The same game as ``player`` sees it, with the cards out of their sight dealt anew."""
    other = state.clone()
    hand = list(other.hands[player.other])
    for deck in other.decks:
        held = [card for card in hand if Deck.of(card) is deck]
        pool = held + other.decks[deck]
        rng.shuffle(pool)
        other.decks[deck][:] = pool[len(held) :]
        hand = [card for card in hand if Deck.of(card) is not deck] + pool[: len(held)]
    other.hands[player.other][:] = hand
    other.changed()
    return other


def test_the_computer_decides_from_its_own_view_only() -> None:
    """Dealing the cards it cannot see differently never changes the computer's choice."""
    rng = random.Random(7)
    checked = 0
    for seed in range(6):
        game = Game.named("tactics" if seed % 2 else "base", seed=seed, expert=seed % 3 == 0)
        state = game.new_initial_state()
        while not state.is_over and checked < 400:
            player = state.current_player
            legal = state.legal_moves()
            chosen = choose_move(state.view(player), legal, random.Random(seed))
            assert chosen in legal
            if state.phase in (Phase.PLAY, Phase.CLAIM, Phase.DRAW):
                other = hide_differently(state, player, rng)
                assert other.view(player) == state.view(player)
                assert other.legal_moves() == legal
                again = choose_move(other.view(player), other.legal_moves(), random.Random(seed))
                assert again == chosen
                checked += 1
            state.apply(chosen)
    assert checked >= 300


def test_the_bundle_is_the_engine_that_verified_the_catalogue_and_is_reproducible() -> None:
    first, second = bundle(RULES), bundle(RULES)
    assert first.digest == second.digest and first.content == second.content
    with zipfile.ZipFile(BytesIO(first.content)) as archive:
        names = set(archive.namelist())
        sources = sorted((ROOT / "engine").rglob("*.py"))
        assert len(sources) > 20
        for source in sources:
            name = source.relative_to(ROOT).as_posix()
            if "__pycache__" not in name:
                assert archive.read(name) == source.read_bytes()
        assert (
            archive.read("oracle/browser/pages.py")
            == (ROOT / "oracle/browser/pages.py").read_bytes()
        )
        assert archive.read(RULES_INDEX_IN_ARCHIVE) == RULES.read_bytes()
    assert "oracle/schema/case.base.schema.json" in names
    assert "oracle/schema/kinds/claims.schema.json" in names  # each kind's part of it
    assert {"yaml/__init__.py", "jsonschema/__init__.py", "rpds.py"} <= names
    assert not [name for name in names if name.endswith((".so", ".pyc", ".pyd"))]
    assert not [name for name in names if name.startswith("oracle/mkdocs_hook")]


def test_the_bundled_oracle_modules_import_only_bundled_ones() -> None:
    """A module of ``oracle`` the pages import must be in the archive, or the page fails to start
    in the browser while every test in Python still passes (imports inside functions too)."""
    import ast

    bundled = {
        name.removeprefix("oracle/").removesuffix(".py").replace("/", ".").removesuffix(".__init__")
        for name in zipfile.ZipFile(BytesIO(bundle(RULES).content)).namelist()
        if name.startswith("oracle/") and name.endswith(".py")
    }
    assert {"casefile.loader", "verify.replay", "site.boards", "browser.pages"} <= bundled
    for module in sorted(bundled):
        path = ROOT / "oracle" / (module.replace(".", "/") + ".py")
        if not path.exists():
            path = ROOT / "oracle" / module.replace(".", "/") / "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("oracle."):
                imported = (node.module or "").removeprefix("oracle.")
                assert imported in bundled, f"oracle/{module} imports oracle.{imported}"


STAND_IN_CASES = {
    "unknown-key.yaml": "id: a\nsituation: s\nwhy: w\nvariant: base\nclams: []\n",
    "bad-variant.yaml": "id: a\nsituation: s\nwhy: w\nvariant: chess\nclaims: []\n",
    "bad-type.yaml": "id: a\nsituation: s\nwhy: w\nvariant: base\nclaims: 3\n",
    "bad-stone.yaml": "id: a\nsituation: s\nwhy: w\nvariant: base\nclaims: [{stone: 12}]\n",
}
"""Case files the schema refuses, each its own way, beside the fixture catalogue's cases."""


def test_the_loader_gives_the_same_messages_with_the_browsers_rpds_stand_in(
    tmp_path: Path,
) -> None:
    """In the browser, jsonschema runs on a pure-Python rpds; its answers must not change. The
    stand-in runs in a process of its own (it replaces ``rpds`` for every module), the installed
    rpds in this one."""
    script = """
import json, sys
from pathlib import Path
import pyrsistent_as_rpds.pure
sys.modules['rpds'] = pyrsistent_as_rpds.pure
sys.path.insert(0, sys.argv[3])
from loader_answers import loaded_or_refused
out = loaded_or_refused(Path(sys.argv[1]), Path(sys.argv[2]))
import rpds
assert getattr(rpds, 'is_pure_pyrsistent_as_rpds', False)
print(json.dumps(out))
"""
    for name, text in STAND_IN_CASES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    stand_in = subprocess.run(
        [sys.executable, "-c", script, str(FIXTURE), str(tmp_path), str(Path(__file__).parent)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    import rpds

    plain = loaded_or_refused(FIXTURE, tmp_path)
    assert not getattr(rpds, "is_pure_pyrsistent_as_rpds", False)
    assert plain == json.loads(stand_in)
    assert any("unknown key 'clams'" in answer for answer in plain)


def test_a_site_build_without_the_runtime_says_how_to_install_it(tmp_path: Path) -> None:
    with pytest.raises(BundleError, match="npm ci"):
        pyodide_folder(tmp_path)


@needs_the_runtime
def test_the_installed_runtime_is_found() -> None:
    assert pyodide_folder(ROOT).name == "pyodide"


def test_the_page_lists_every_card_by_the_engines_names() -> None:
    cards = browser.card_names({})
    assert [card["name"] for card in cards["clan"]][:2] == ["red 1", "red 2"]
    assert len(cards["clan"]) == 54 and len(cards["tactics"]) == 10
    assert card_name(63) in [card["name"] for card in cards["tactics"]]


def test_a_request_the_page_should_never_send_is_refused() -> None:
    with pytest.raises(browser.PageError):
        SESSION.call("delete_everything", "{}")
    with pytest.raises(browser.PageError):
        SESSION.call("ask_text", "[]")
    answer = json.loads(SESSION.call("ask_text", json.dumps({"text": "id: [\n"})))
    assert not answer["ok"] and answer["line"]


def test_a_case_asked_on_the_page_is_read_from_its_text_and_written_nowhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    answer = SESSION.ask_text(
        {"text": (FIXTURE / "cases/claims/01-incomplete-side.yaml").read_text()}
    )
    assert answer["ok"] and answer["report"]["id"] == "incomplete-side"
    assert list(tmp_path.iterdir()) == [] and not browser.CASE_PATH.exists()
    broken = SESSION.ask_text({"text": "id: [\n"})
    assert broken["problem"].startswith("YAML syntax error")


def test_every_page_the_engine_serves_has_a_session_and_a_game_of_its_own() -> None:
    """The shared worker gives each page a session over one rules index: a game dealt on one
    page never replaces another page's game."""
    make = browser.session_maker(str(RULES))
    first, second = make(), make()
    assert first is not second and first.rules is second.rules
    one = json.loads(first.call("new_game", json.dumps({"variant": "base", "seed": 1})))
    two = json.loads(second.call("new_game", json.dumps({"variant": "tactics", "seed": 2})))
    assert two["game"] == one["game"]  # numbered per session
    again = json.loads(first.call("game_at", json.dumps({"game": one["game"], "step": 0})))
    assert again["hand_cards"] == one["hand_cards"] != two["hand_cards"]


def test_the_warm_up_claims_are_answered_from_the_board_and_typed_on_both_variants() -> None:
    """The claims the worker asks itself before the reader's first are real questions the page
    could ask: each board is answered with verdicts, then its case file, typed, again."""
    session = browser.session_maker(str(RULES))()
    answers = [session.warm_up(step) for step in range(2 * len(browser.WARM_UP_BOARDS))]
    assert all(answer["ok"] for answer in answers)
    boards = len(browser.WARM_UP_BOARDS)
    assert [a["report"]["variant"] for a in answers[:boards]] == ["base", "tactics"]
    assert [a["case_text"] for a in answers[boards:]] == [a["case_text"] for a in answers[:boards]]
    assert all(answer["report"]["verdicts"] for answer in answers)
    assert session.games == {}


def test_a_tactic_card_in_the_hand_says_what_it_does_in_the_rules_words() -> None:
    """Each Tactic card of the hand carries its rule of the rules index (title and text), the
    one the engine's moves name; a Clan card carries none."""
    entries = {entry.id: entry for entry in load_rules_index(RULES).entries}
    seen: set[str] = set()
    for seed in range(1, 40):
        view = SESSION.new_game({"variant": "tactics", "seed": seed, "you_first": True})
        while not view["over"] and view["moves"]:
            for card in view["hand_cards"]:
                parsed = parse_card(card["name"])
                if parsed in CARD_RULES:
                    entry = entries[CARD_RULES[Tactic(parsed)]]
                    assert card["rule"] == f"{entry.title}: {entry.text}"
                    seen.add(card["name"])
                else:
                    assert card["rule"] == ""
            if len(view["log"]) > 30:
                break
            texts = [move["text"] for move in view["moves"]]
            move = "draw tactics" if "draw tactics" in texts else texts[0]
            view = SESSION.game_move({"game": view["game"], "move": move, "at": view["moves_made"]})
        if len(seen) >= 3:
            return
    pytest.fail(f"too few Tactic cards came to the hand: {seen}")


def test_a_lone_surrogate_typed_in_the_form_is_a_located_problem() -> None:
    """A page's string can hold what no file can (a lone surrogate): the form's case text gets
    the loader's located problem, on the situation's line and field, never an exception."""
    form = empty_form()
    form["situation"] = "a \ud800 b"
    form["stones"][2] = {"you": "red 1, blue 1, green 1", "them": "red 3, blue 3", "claim": True}
    answer = SESSION.ask_form({"form": form})
    assert not answer["ok"] and answer["field"] == "situation"
    assert "U+D800, a lone surrogate" in answer["problem"]
    pasted = SESSION.ask_text({"text": answer["case_text"]})
    assert not pasted["ok"] and "lone surrogate" in pasted["problem"]
