"""What the catalogue as a whole must cover (``coverage.yaml``): the rows of a table the pages'
text refers to by their place, every misreading caught, every cell of the grid of early claims,
every rule pinned, the facts of a turn, the pairs of formations, the combat modes, the Tactic
cards, prose that agrees with its board, and the catalogue's size.
Each is a check of the catalogue's own gate (``check``, ``pytest cases``, the site build), in
the editor's words; these tests run it on copies of the developers' fixture catalogue."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import FIXTURE, ROOT, copy_site_sources, kept_for_the_run, run_main

from engine import Formation
from oracle.catalogue import COVERAGE, CatalogueError, build_catalogue, verified_catalogue
from oracle.coverage import KEYS
from oracle.judges.misreadings import MISREADINGS
from oracle.misreadings.matrix import Outcome
from oracle.site.figures import render_opening_grid
from oracle.verify.openings import Opening, early_claims_by_opening, opening_ceiling

SEED_ROWS = """\
table-rows:
  claims:
    - incomplete-side: refused
    - last-three-in-your-hand: refused
    - last-three-on-the-table: granted
    - tie-you-finished-first: granted
    - tie-they-finished-first: refused
"""


def project(tmp_path: Path, coverage: str | None) -> Path:
    """The fixture catalogue with the project's Markdown pages (what the catalogue reads of
    ``site_src/``), asking ``coverage`` of it."""
    root = tmp_path / "project"
    for name in ("cases", "rules"):
        shutil.copytree(FIXTURE / name, root / name)
    copy_site_sources(root / "site_src", pages_only=True)
    if coverage is not None:
        (root / COVERAGE).write_text(coverage, encoding="utf-8")
    return root


def coverage_lines(root: Path) -> list[str]:
    return [p.line for p in build_catalogue(root, kept=kept_for_the_run()).coverage_problems]


def test_a_project_without_the_file_asks_for_nothing(tmp_path: Path) -> None:
    root = project(tmp_path, None)
    catalogue = build_catalogue(root, kept=kept_for_the_run())
    assert not catalogue.expects_coverage and catalogue.coverage_problems == []


def test_the_rows_the_pages_refer_to_stand_in_their_place_with_their_verdicts(
    tmp_path: Path,
) -> None:
    root = project(tmp_path, SEED_ROWS)
    assert coverage_lines(root) == []
    # A row whose case gives another verdict now: the case is named, and the row's line.
    (root / COVERAGE).write_text(
        SEED_ROWS.replace("tie-they-finished-first: refused", "tie-they-finished-first: granted")
    )
    [line] = coverage_lines(root)
    assert line.startswith("cases/claims/05-tie-they-finished-first.yaml:2: case ")
    assert "row 5 of the 'claims' table, which the pages' text reads as granted" in line
    assert f"({COVERAGE}:7), is now refused; rewrite what site_src/ says of that row" in line
    # A case moved out of its place: the rows from there on name the case that stands there.
    (root / COVERAGE).write_text(SEED_ROWS)
    claims = root / "cases" / "claims"
    (claims / "04-tie-you-finished-first.yaml").rename(claims / "99-tie-you-finished-first.yaml")
    lines = coverage_lines(root)
    assert lines[0] == (
        f"{COVERAGE}:6: row 4 of the 'claims' table should be case 'tie-you-finished-first'"
        " (granted), which the pages' text refers to by its place, but it is"
        " cases/claims/05-tie-they-finished-first.yaml:2: case 'tie-they-finished-first'; name"
        " the case files so that they sort in this order, or rewrite what site_src/ says of"
        " that row and change it here"
    )
    assert len(lines) == 2
    # A table shorter than its rows.
    shutil.rmtree(claims)
    claims.mkdir()
    shutil.copy(FIXTURE / "cases" / "claims" / "01-incomplete-side.yaml", claims)
    lines = coverage_lines(root)
    assert len(lines) == 4  # one line a row whose case is not published, no more
    assert lines[0] == (
        f"{COVERAGE}:4: row 2 of the 'claims' table should be case 'last-three-in-your-hand'"
        " (refused), which the pages' text refers to by its place, but no published case in"
        " cases/claims/ has that id (check names what stops a case that is there); add it, or"
        " rewrite what site_src/ says of that row and remove it here"
    )
    # A case that stops loading is one line; the rows after it are read as moved up.
    shutil.rmtree(claims)
    shutil.copytree(FIXTURE / "cases" / "claims", claims)
    broken = claims / "02-last-three-in-your-hand.yaml"
    broken.write_text(broken.read_text().replace("expect: refused", "expect: perhaps"))
    assert [line.split(": row ")[1][:1] for line in coverage_lines(root)] == ["2"]


def test_every_misreading_is_caught_by_a_case_that_names_it(tmp_path: Path) -> None:
    root = project(tmp_path, "every-misreading-caught: true\n")
    assert coverage_lines(root) == []
    # The only case that catches a misreading goes: the misreading is named, with what to do.
    (root / "cases" / "more-claims" / "05-a-pair-and-its-neighbour.yaml").unlink()
    [line] = coverage_lines(root)
    assert line.startswith(
        f"{COVERAGE}:1: no published case catches the misreading 'pair-with-neighbour-is-run'"
    )
    assert line.endswith("with guards_against: [pair-with-neighbour-is-run]")
    # A case that catches one without naming it: it is named, and what to add.
    shutil.copy(
        FIXTURE / "cases" / "more-claims" / "05-a-pair-and-its-neighbour.yaml",
        root / "cases" / "more-claims",
    )
    case = root / "cases" / "more-claims" / "05-a-pair-and-its-neighbour.yaml"
    text = case.read_text(encoding="utf-8")
    case.write_text(
        "\n".join(line for line in text.splitlines() if not line.startswith("guards_against"))
        + "\n",
        encoding="utf-8",
    )
    [line] = coverage_lines(root)
    assert line.startswith("cases/more-claims/05-a-pair-and-its-neighbour.yaml:")
    assert "catches the misreading 'pair-with-neighbour-is-run', but no case says" in line
    assert "add pair-with-neighbour-is-run to the guards_against of this case" in line


def test_every_cell_of_the_grid_of_early_claims_has_its_cases(tmp_path: Path) -> None:
    """Each formation against each opening, granted, and refused wherever a completion of the
    opening can beat it: each cell the catalogue lacks is one line; a cell no opening can
    refuse is never asked to be refused."""
    root = project(tmp_path, "# the grid\nevery-opening-grid-cell: true\n")
    catalogue = build_catalogue(root, kept=kept_for_the_run())
    seen = {(c.mine, c.opening, c.verdict) for c in early_claims_by_opening(catalogue.published)}
    wanted = {
        (formation, opening, verdict)
        for formation in Formation
        for opening in Opening
        for verdict in ("granted", "refused")
        if verdict == "granted" or formation <= opening_ceiling(opening)
    }
    lines = [problem.line for problem in catalogue.coverage_problems]
    assert len(lines) == len(wanted - seen) > 0
    assert (
        f"{COVERAGE}:2: no published case claims a complete colour run of Clan cards, with no"
        " combat mode, against an empty side and is refused (the grid on"
        " site_src/early-claims.md); add such a claim to a case, e.g. in cases/early-claims/"
    ) in lines
    assert not any("colour run" in line and "a pair of one colour" in line for line in lines)
    assert not any(
        "three of a kind" in line and "refused" in line and "a pair of two" in line
        for line in lines
    )
    assert opening_ceiling(Opening.PAIR_TWO_COLOURS) is Formation.RUN
    assert opening_ceiling(Opening.PAIR_EQUAL_VALUES) is Formation.SAME_VALUE
    grid = render_opening_grid(catalogue, ROOT / "site_src" / "_templates", "early-claims.md")
    assert grid.count("never refused") == 4


def test_an_unreadable_file_is_a_located_problem(tmp_path: Path) -> None:
    root = project(
        tmp_path, "table-rows:\n  claims:\n    - incomplete-side: maybe\nsurprise: true\n"
    )
    assert coverage_lines(root) == [
        f"{COVERAGE}:3: table-rows maps a topic to its first rows, each written"
        " - case-id: granted|refused",
        f"{COVERAGE}:4: unknown key 'surprise'; known: {', '.join(KEYS)}",
    ]


def test_check_the_plugin_and_the_build_each_report_what_is_not_covered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], pytester: pytest.Pytester
) -> None:
    coverage = SEED_ROWS.replace(
        "last-three-on-the-table: granted", "last-three-on-the-table: refused"
    )
    root = project(tmp_path, coverage)
    expected = (
        "cases/claims/03-last-three-on-the-table.yaml:2: case 'last-three-on-the-table': row 3"
    )
    assert run_main(["check", "--root", str(root)]) == 1
    assert expected in capsys.readouterr().out
    with pytest.raises(CatalogueError) as raised:
        verified_catalogue(root, kept=kept_for_the_run())  # what the site build stops with
    assert any(line.startswith(expected) for line in raised.value.problems)
    for name in ("cases", "rules", "site_src", COVERAGE):
        source = root / name
        copy = shutil.copytree if source.is_dir() else shutil.copy
        copy(source, pytester.path / name)
    pytester.makeini("[pytest]\noracle_case_dirs = cases\n")
    result = pytester.runpytest("cases", "-p", "no:cacheprovider", "-k", "coverage")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"{expected}*"])


def test_unknown_values_are_located(tmp_path: Path) -> None:
    root = project(tmp_path, "every-rule-pinned: yes please\nat-least-cases: many\n")
    assert coverage_lines(root) == [
        f"{COVERAGE}:1: every-rule-pinned is true or false",
        f"{COVERAGE}:2: at-least-cases is a whole number",
    ]


def test_every_rule_is_pinned_in_each_version_it_holds_in(tmp_path: Path) -> None:
    """A rule of both versions needs a case in each (an engine may break it in one only),
    unless its entry says why one version cannot have one; the line names the rule's own."""
    root = project(tmp_path, "every-rule-pinned: true\n")
    catalogue = build_catalogue(root, kept=kept_for_the_run())
    lines = [problem.line for problem in catalogue.coverage_problems]
    wanted = {
        (entry.id, variant)
        for entry in catalogue.rules.entries
        for variant in entry.must_be_pinned_in()
    }
    pinned = {(rule, r.case.variant) for r in catalogue.published for rule in r.case.rules}
    assert len(lines) == len(wanted - pinned) > 0
    entry = catalogue.rules.entry("turn.victory")
    assert entry is not None and ("turn.victory", "base") not in pinned
    line = (
        f"rules/index.yaml:{entry.line}: no published base case pins turn.victory"
        f" ({COVERAGE}:1); add turn.victory to the rules: of a base case that relies on it, or"
        " write one"
    )
    assert line in lines
    case = root / "cases" / "turns" / "01-play-claim-draw.yaml"
    text = case.read_text(encoding="utf-8")
    assert "variant: base" in text and "\nrules: [" in text
    case.write_text(text.replace("\nrules: [", "\nrules: [turn.victory, "), encoding="utf-8")
    assert line not in coverage_lines(root)


def test_every_fact_of_a_turn_and_each_ending_is_pinned_in_both_versions(tmp_path: Path) -> None:
    root = project(tmp_path, "every-turn-fact-pinned: true\n")
    lines = coverage_lines(root)
    assert (
        f"{COVERAGE}:1: no published base case's turn pins ending: three adjacent stones; pin it"
        " under the expect: of a turn in a base case"
    ) in lines
    assert not any("tactics case's turn pins winner;" in line for line in lines)
    # A tactics turn pinning the winner goes: that version's winner is asked for.
    for case in (root / "cases").rglob("*.yaml"):
        text = case.read_text(encoding="utf-8")
        if "variant: tactics" in text and "    winner:" in text:
            case.unlink()
    assert any("tactics case's turn pins winner;" in line for line in coverage_lines(root))


def test_every_pair_of_formations_is_judged(tmp_path: Path) -> None:
    root = project(tmp_path, "every-formation-pair: true\n")
    lines = coverage_lines(root)
    pair = (
        f"{COVERAGE}:1: no published case claims a complete sum against a complete colour of"
        " Clan cards, with no combat mode; add such a claim, e.g. in cases/formations/"
    )
    assert pair in lines
    assert not any("complete colour run against a complete three of a kind" in x for x in lines)
    assert len(lines) == len(Formation) ** 2 - 6  # the fixture judges six pairs
    for folder in (root / "cases").iterdir():
        if folder.name != "formations":
            shutil.rmtree(folder)
    lines = coverage_lines(root)
    kept = "complete colour run against a complete three of a kind"
    assert not any(kept in line for line in lines)
    shutil.rmtree(root / "cases" / "formations")
    assert any(kept in line for line in coverage_lines(root))


def test_the_combat_modes_are_claimed_both_ways_and_tied(tmp_path: Path) -> None:
    root = project(tmp_path, "combat-modes-claimed: true\n")
    lines = coverage_lines(root)
    assert lines == [
        f"{COVERAGE}:1: no published case claims a complete side under {mode} before the other"
        f" side is complete and is {verdict}; add such a claim to a case"
        if verdict
        else f"{COVERAGE}:1: no published claim under {mode} is decided by a tie; add one whose"
        " reason weighs a tie"
        for mode in ("mud fight", "blind-man's bluff")
        for verdict in ("granted", "refused", None)
    ]


def test_every_tactic_card_is_played_refused_and_weighed(tmp_path: Path) -> None:
    root = project(tmp_path, "every-tactic-card-used: true\n")
    lines = coverage_lines(root)
    assert f"{COVERAGE}:1: no published case refuses a move of spy; add such a case" in lines
    assert not any("plays recruiter legally" in line for line in lines)
    for folder in (root / "cases").iterdir():
        shutil.rmtree(folder)
    assert any("plays recruiter legally" in line for line in coverage_lines(root))


def test_prose_that_contradicts_its_board_names_the_case(tmp_path: Path) -> None:
    root = project(tmp_path, "prose-agrees-with-board: true\n")
    assert coverage_lines(root) == []
    case = root / "cases" / "claims" / "01-incomplete-side.yaml"
    text = case.read_text(encoding="utf-8")
    case.write_text(
        text.replace("situation: Only two", "situation: Your blue 9 waits; only two"),
        encoding="utf-8",
    )
    assert coverage_lines(root) == [
        "cases/claims/01-incomplete-side.yaml:2: case 'incomplete-side': the situation or why"
        " contradicts the board: it says your blue 9, but blue 9 is not on your side or in your"
        f" hand ({COVERAGE}:1); correct the words or the board"
    ]


def test_the_catalogue_has_the_cases_and_refused_boards_asked(tmp_path: Path) -> None:
    root = project(tmp_path, "at-least-cases: 44\nat-least-refused-boards: 4\n")
    assert coverage_lines(root) == []
    (root / COVERAGE).write_text("at-least-cases: 45\nat-least-refused-boards: 5\n")
    assert coverage_lines(root) == [
        f"{COVERAGE}:1: the catalogue publishes 44 cases, fewer than the 45 asked; write more,"
        " or lower the number here",
        f"{COVERAGE}:2: the catalogue publishes 4 boards the engine refuses, fewer than the 5"
        " asked; write more in cases/impossible-boards/, or lower the number here",
    ]
    # A refused board that guards the refusal of another, in its words at its moment: named.
    boards = root / "cases" / "impossible-boards"
    twin = (boards / "08-four-cards-on-a-side.yaml").read_text(encoding="utf-8")
    twin = twin.replace("id: four-cards-on-a-side", "id: four-cards-again")
    twin = twin.replace("situation: ", "situation: Again, ")
    (boards / "09-four-cards-again.yaml").write_text(twin, encoding="utf-8")
    lines = coverage_lines(root)
    assert lines[-1].startswith("cases/impossible-boards/09-four-cards-again.yaml:")
    assert lines[-1].endswith(
        "refused in the same words, at the same moment of a turn, as case"
        f" 'four-cards-on-a-side' ({COVERAGE}:2); make it guard a refusal of its own, or"
        " remove it"
    )


def test_a_misreading_caught_by_too_few_cases_is_named(tmp_path: Path) -> None:
    """Asking one case more than the rarest misreading has names that misreading, and only the
    misreadings short of the number; one the catalogue never catches is left to
    every-misreading-caught."""
    root = project(tmp_path, "cases-per-misreading: 1\n")
    assert coverage_lines(root) == []
    catalogue = build_catalogue(root, kept=kept_for_the_run())
    counts = {
        name: sum(row.outcomes[name] is Outcome.FLIPS for row in catalogue.matrix)
        for name in MISREADINGS
    }
    rarest = min(count for count in counts.values() if count > 0)
    (root / COVERAGE).write_text(f"cases-per-misreading: {rarest + 1}\n", encoding="utf-8")
    short = sorted(name for name, count in counts.items() if 0 < count <= rarest)
    lines = coverage_lines(root)
    named = [line.split("'")[1] for line in lines]
    assert sorted(named) == short
    assert lines[0].startswith(f"{COVERAGE}:1: the misreading '{named[0]}' (")
    assert lines[0].endswith(
        f" changes the answers of {rarest} published case{'s' if rarest != 1 else ''}, fewer"
        f" than the {rarest + 1} asked; write another whose answers it would change, with"
        f" guards_against: [{named[0]}]"
    )
