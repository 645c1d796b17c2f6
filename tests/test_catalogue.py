"""The catalogue as a whole, on the developers' fixture catalogue (what the editors' catalogue
must cover is its own gate's: ``coverage.yaml``, tests/test_coverage.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FIXTURE, kept_for_the_run

from engine import Tactic, Verdict, card_name
from oracle.casefile.model import Case
from oracle.casefile.source import SourceError
from oracle.catalogue import Catalogue, Kept, build_catalogue
from oracle.site.render import catalogue_summary

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    """The developers' fixture catalogue (tests/catalogue/)."""
    return build_catalogue(FIXTURE, kept=kept_for_the_run())


def cards_named(case: Case) -> set[str]:
    """Every card the case lays out or moves, by name."""
    position = case.position
    cards = [*position.placed_cards(), *position.discards, *position.hand]
    if case.table is not None:
        cards += [*case.table.their_hand]
    names = {card_name(card) for card in cards}
    names |= {mode.label for stone in position.stones for mode in stone.modes}
    moves = [play.move for play in case.plays]
    moves += [text for text, _ in case.turn.moves] if case.turn else []
    return names | {text.split(":")[0].split(" on ")[0].strip() for text in moves}


@pytest.mark.parametrize("tactic", sorted({t.label for t in Tactic}))
def test_every_tactic_card_has_cases(catalogue: Catalogue, tactic: str) -> None:
    with_it = [r.case.id for r in catalogue.published if tactic in cards_named(r.case)]
    assert len(with_it) >= 2, f"{tactic}: only {with_it}"


def test_the_home_page_says_how_many_cases_are_published(catalogue: Catalogue) -> None:
    assert f"**{len(catalogue.published)} cases**" in catalogue_summary(catalogue)


def test_the_claims_table_opens_with_the_seed_page(
    catalogue: Catalogue, seed_rows: list[tuple[str, Verdict]]
) -> None:
    claims = [report for report in catalogue.published if report.case.topic == "claims"]
    assert [report.case.id for report in claims[: len(seed_rows)]] == [i for i, _ in seed_rows]
    assert all(report.case.asks_about_claims_only for report in claims)


def test_a_move_that_breaks_the_game_fails_its_question_not_silently(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An engine that carried a move out wrongly (here: a Strategist that leaves the card where
    it was, so it lies in two places) cannot pass a case, even one whose expected answers it
    still gives."""
    from engine.game.tactic_cards import StrategistCard
    from oracle.casefile.loader import load_case
    from oracle.verify.replay import verify_case

    case = load_case(FIXTURE / "cases" / "tactic-cards" / "07-strategist.yaml")
    assert verify_case(case).verified

    def leave_it_there(self: object, state: object, move: object) -> None:
        state.discards.append(move.card)  # type: ignore[attr-defined]
        state.discards.append(Tactic.STRATEGIST)  # type: ignore[attr-defined]

    monkeypatch.setattr(StrategistCard, "carry_out", leave_it_there)
    report = verify_case(case)
    assert not report.verified
    assert report.engine_error is not None
    assert "after move 'strategist: red 7 from 3 to discards' the game is broken" in (
        report.engine_error
    )
    assert "red 7 is in 2 places" in report.engine_error


def test_an_engine_whose_list_and_explanations_disagree_cannot_pass_a_case(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The list of legal moves and the explanation of refusals are two views of one rule: a move
    carried out that the engine would explain away, or a refusal with no reason, fails."""
    from engine import GameState, IllegalMove
    from oracle.casefile.loader import load_case
    from oracle.verify.replay import verify_case

    case = load_case(FIXTURE / "cases" / "tactic-cards" / "07-strategist.yaml")
    original = GameState.why_illegal

    def explains_away(self: GameState, move: object) -> IllegalMove | None:
        return original(self, move) or IllegalMove(move, "made up", "turn.order")  # type: ignore[arg-type]

    monkeypatch.setattr(GameState, "why_illegal", explains_away)
    report = verify_case(case)
    assert report.engine_error is not None and not report.verified
    assert "the engine carries out move 'strategist: red 7 from 3 to discards' yet explains it" in (
        report.engine_error
    )

    monkeypatch.setattr(GameState, "why_illegal", lambda self, move: None)
    report = verify_case(case)
    assert report.engine_error is not None
    assert "refuses move 'strategist: red 7 from 3 to 3' but finds no rule against it" in (
        report.engine_error
    )


def test_an_engine_whose_copies_or_notation_drift_cannot_pass_a_case(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each question plays on a copy of the case's moment, and cases, records and other engines
    name moves in the notation: a copy that is not the moment, or a listed move that does not
    read back as itself, fails the case."""
    from engine import GameState, Play
    from oracle.casefile.loader import load_case
    from oracle.verify.replay import verify_case

    case = load_case(FIXTURE / "cases" / "turns" / "02-where-a-card-may-go.yaml")
    assert verify_case(case).verified
    cloned = GameState.clone

    def forgetful_clone(self: GameState) -> GameState:
        other = cloned(self)
        other.turn += 1
        return other

    monkeypatch.setattr(GameState, "clone", forgetful_clone)
    report = verify_case(case)
    assert report.engine_error is not None and not report.verified
    assert "the engine's copy of the case's moment differs in turn" in report.engine_error

    monkeypatch.setattr(GameState, "clone", cloned)
    monkeypatch.setattr(Play, "__str__", lambda self: f"{self.stone} on {self.stone}")
    report = verify_case(case)
    assert report.engine_error is not None and not report.verified
    assert "at the case's moment the engine lists " in report.engine_error


def test_a_verdict_that_names_a_witness_it_does_not_rest_on_cannot_pass_a_case(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The site marks witness cards; a granted claim, or a refusal for another reason, that
    names some would show readers a refutation that is not there."""
    from engine import ClaimVerdict
    from oracle.casefile.loader import load_case
    from oracle.verify.replay import verify_case

    case = load_case(FIXTURE / "cases" / "more-claims" / "28-one-card-left-for-their-side.yaml")
    assert verify_case(case).verified
    monkeypatch.setattr(ClaimVerdict, "witness", property(lambda self: (self.stone,)))
    report = verify_case(case)
    assert not report.verified
    assert report.engine_error == (
        "stone 9: the engine names witness cards for no completion out of sight beats it"
    )


def test_a_rule_left_unpinned_in_a_version_has_no_case_there_to_pin_it(
    catalogue: Catalogue,
) -> None:
    """``unpinned_in`` says no case of that version can pin the rule; a case that does shows
    the reason wrong."""
    for entry in catalogue.rules.entries:
        if entry.unpinned_in is None:
            continue
        variant = entry.unpinned_in[0]
        pinning = [
            report.case.id
            for report in catalogue.published
            if entry.id in report.case.rules and report.case.variant == variant
        ]
        assert not pinning, f"{entry.id} says no {variant} case can pin it, but {pinning} do"


def test_catalogues_share_their_replays_only_through_what_they_are_given_to_keep(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cases and reports are kept by their owner, never by the process: catalogues built with
    the same :class:`Kept` share them, and one built without it after a patch of the engine
    replays its cases with the patch."""
    from engine import ClaimVerdict

    def witnessed(catalogue_case: str, kept: Kept | None = None) -> bool:
        catalogue = build_catalogue(FIXTURE, kept=kept)
        [report] = [r for r in catalogue.reports if r.case.id == catalogue_case]
        return report.verified

    # The run's own keeper: every fixture case is replayed into it (if no test has yet) before
    # the patch, so the patched engine never replays into it.
    kept = kept_for_the_run()
    assert witnessed("one-card-left-for-their-side", kept)
    assert (
        build_catalogue(FIXTURE, kept=kept).reports[0]
        is build_catalogue(FIXTURE, kept=kept).reports[0]
    )
    alone = build_catalogue(FIXTURE)
    with monkeypatch.context() as patched:
        patched.setattr(ClaimVerdict, "witness", property(lambda self: (self.stone,)))
        assert not witnessed("one-card-left-for-their-side")
        assert witnessed("one-card-left-for-their-side", kept)  # what the owner kept, it keeps
    again = build_catalogue(FIXTURE)
    assert again.reports[0] is not alone.reports[0]
    [report] = [r for r in again.reports if r.case.id == "one-card-left-for-their-side"]
    assert report.verified


def test_a_kept_rules_index_read_again_elsewhere_names_its_own_path(tmp_path: Path) -> None:
    """A copy of an index already read is the same index at its own path, not read again;
    a copy that cannot be read says so at its own path, every time it is asked for."""
    kept = Kept()
    first = kept.rules_index(FIXTURE / "rules" / "index.yaml")
    copy = tmp_path / "index.yaml"
    copy.write_text((FIXTURE / "rules" / "index.yaml").read_text(encoding="utf-8"))
    moved = kept.rules_index(copy)
    assert moved.path == copy and moved.entries is first.entries
    assert kept.rules_index(FIXTURE / "rules" / "index.yaml") is first
    copy.write_text("rules: [", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(SourceError) as raised:
            kept.rules_index(copy)
        assert raised.value.path == copy
