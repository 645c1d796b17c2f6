"""The renderer: the verified table from the engine's verdicts, the rulings, the page markers."""

from __future__ import annotations

import html
import random
import re
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from conftest import FIXTURE, kept_for_the_run

from engine import Formation, Game, Verdict, parse_cards, play_random_game, record_text
from engine.tools.odds import formation_counts, formation_odds
from oracle.casefile.entries import case_files
from oracle.catalogue import (
    Catalogue,
    CatalogueError,
    build_catalogue,
    topic_pages,
    verified_catalogue,
)
from oracle.site.blocks import fill_markers, generated_blocks
from oracle.site.casepages import BOARD_SLOT, CasePageSource
from oracle.site.figures import render_formation_odds
from oracle.site.markup import Markup
from oracle.site.markup import text as plain
from oracle.site.render import (
    CasePages,
    render_case_pages,
    render_rulings,
    render_verdict_table,
    render_walkthrough,
    ruling_anchor,
)
from oracle.site.searched import SEARCH_ATTRIBUTE, after_search, board_stub, for_search
from oracle.verify.questions import LONG_TURN
from oracle.verify.report import CaseReport

ROOT = Path(__file__).resolve().parent.parent
SITE_SRC = ROOT / "site_src"
TEMPLATES = SITE_SRC / "_templates"


def test_the_seed_table_comes_first_in_order_with_its_verdicts(
    seed_rows: list[tuple[str, Verdict]],
) -> None:
    # The engine's verdicts on the live seed cases, whatever other cases an editor is adding.
    catalogue = build_catalogue(FIXTURE, kept=kept_for_the_run())
    opening = catalogue.reports[: len(seed_rows)]
    assert [(report.case.id, report.checks[0].verdict.verdict) for report in opening] == seed_rows
    assert all(check.verdict.verdict is Verdict.GRANTED for check in opening[8].checks)


def test_every_case_file_is_published_a_draft_or_a_reported_problem(catalogue_copy: Path) -> None:
    cases = catalogue_copy / "cases"
    seed = (cases / "claims" / "08-three-twos-beat-a-colour.yaml").read_text()
    (cases / "claims" / "90-draft.yaml").write_text(
        seed.replace("id: three-twos-beat-a-colour", "id: a-draft").replace(
            "    expect: granted\n", ""
        )
        + "draft: true\n"
    )
    (cases / "claims" / "91-drifted.yaml").write_text(
        seed.replace("id: three-twos-beat-a-colour", "id: drifted").replace("granted", "refused")
    )
    settled = len(case_files(cases))
    (cases / "claims" / "92-invalid.yaml").write_text("id: [\n")
    catalogue = build_catalogue(catalogue_copy, kept=kept_for_the_run())
    assert len(case_files(cases)) == settled + 1
    assert len(catalogue.published) == settled - 2
    assert [report.case.id for report in catalogue.drafts] == ["a-draft"]
    located = [problem.line for problem in catalogue.problems]
    assert sorted(problem.split(":")[0] for problem in located) == [
        "cases/claims/91-drifted.yaml",
        "cases/claims/92-invalid.yaml",
    ]
    with pytest.raises(CatalogueError):
        verified_catalogue(catalogue_copy, kept=kept_for_the_run())


def test_the_table_shows_the_engines_verdict(catalogue: Catalogue) -> None:
    claim_cases = tuple(r for r in catalogue.published if r.case.asks_about_claims_only)
    table = render_verdict_table(claim_cases, TEMPLATES)
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    assert rows[0] == "| Board (you claim) | Verdict | Reason |"
    assert len(rows) == 1 + len(claim_cases)
    for row, report in zip(rows[1:], claim_cases, strict=True):
        cells = [cell.strip() for cell in row.strip("|").split(" | ")]
        situation = plain(report.case.situation)
        assert cells[0] == f"[{situation}](cases/{report.case.topic}/{report.case.id}.md)"
        assert cells[1] == f"**{plain(report.verdict_label)}**"


def test_a_drifted_case_is_never_rendered(catalogue_copy: Path) -> None:
    root = catalogue_copy
    case = root / "cases" / "claims" / "07-no-wrap-around.yaml"
    case.write_text(case.read_text().replace("expect: refused", "expect: granted"))
    with pytest.raises(CatalogueError) as caught:
        verified_catalogue(root, kept=kept_for_the_run())
    lines = case.read_text().splitlines()
    claims = lines.index("claims:")
    line = next(
        number
        for number, text in enumerate(lines, 1)
        if text.strip().startswith("- stone: 7") and number > claims
    )
    assert caught.value.problems[0].startswith(
        f"cases/claims/07-no-wrap-around.yaml:{line}: case 'no-wrap-around', stone 7:"
        " expected granted, the engine says refused"
    )


def test_an_invalid_case_stops_the_catalogue(catalogue_copy: Path) -> None:
    root = catalogue_copy
    (root / "cases" / "claims" / "90-typo.yaml").write_text("id: typo\nsituaton: x\n")
    with pytest.raises(CatalogueError) as caught:
        verified_catalogue(root, kept=kept_for_the_run())
    assert caught.value.problems == [
        "cases/claims/90-typo.yaml:2: unknown key 'situaton'; did you mean 'situation'?"
        " (allowed here: claims, deal, draft, guards_against, id, impossible, match, plays,"
        " position, reviewed, rules, situation, table, turn, twin_of, variant, why)"
    ]


def test_rulings_render_every_rule_and_every_ruling_with_its_reason(catalogue: Catalogue) -> None:
    page = render_rulings(catalogue.rules, TEMPLATES, catalogue.published)
    rulings = catalogue.rules.rulings()
    assert rulings, "the rules index has no rulings"
    for ruling in rulings:
        assert f"### {plain(ruling.title)} {{ #{ruling_anchor(ruling)} }}" in page
        assert ruling.reason and plain(ruling.reason) in page
    for entry in catalogue.rules.entries:  # the rules too, so that a changed text is read there
        assert f"### {plain(entry.title)} {{ #{ruling_anchor(entry)} }}" in page
    assert page.count("**Our ruling. Why:**") == len(rulings)
    reopens = page[page.index("{ #tactics-mud-fight-reopens }") :]
    reopens = reopens[: reopens.index("###")]
    mud_fight_case = next(
        report.case
        for report in catalogue.published
        if report.case.id == "three-cards-under-mud-fight"
    )
    assert "*Checked by:*" in reopens
    assert f"- [{plain(mud_fight_case.situation)}](cases/" in reopens
    assert page.count("*Not yet checked by a case.*") == sum(
        not any(entry.id in report.case.rules for report in catalogue.published)
        for entry in catalogue.rules.entries
    )


def test_markers_are_filled_and_unknown_ones_refused(catalogue: Catalogue) -> None:
    blocks = generated_blocks(catalogue, TEMPLATES)
    page, used, shown = fill_markers(
        "# T\n\n<!-- oracle:verdict-table claims -->\n", blocks, "t.md"
    )
    assert used == {"verdict-table"}
    assert shown == {r.case.id for r in catalogue.published if r.case.topic == "claims"}
    with pytest.raises(CatalogueError, match=r"t\.md: no published case has the topic 'nope'"):
        fill_markers("<!-- oracle:verdict-table nope -->", blocks, "t.md")
    assert "| Board (you claim) | Verdict | Reason |" in page
    with pytest.raises(CatalogueError, match=r"t\.md: unknown marker 'oracle:verdict-tabel'"):
        fill_markers("<!-- oracle:verdict-tabel -->", blocks, "t.md")


def test_the_topics_on_pages_are_the_cases_their_tables_show(catalogue: Catalogue) -> None:
    """What the catalogue checks before rendering (which page shows each topic) is what the
    rendered tables show."""
    page = "<!-- oracle:verdict-table claims -->\n\n<!-- oracle:verdict-table early-claims -->\n"
    topics = topic_pages({"a.md": page, "b.md": "<!-- oracle:rulings -->\n"})
    assert topics == {"claims": "a.md", "early-claims": "a.md"}
    shown = {r.case.id for r in catalogue.published if r.case.topic in topics}
    assert fill_markers(page, generated_blocks(catalogue, TEMPLATES), "a.md")[2] == shown
    with pytest.raises(CatalogueError, match="a verdict table names its topic"):
        fill_markers(
            "<!-- oracle:verdict-table -->", generated_blocks(catalogue, TEMPLATES), "a.md"
        )


def test_every_topic_has_a_page_of_its_own_in_the_navigation() -> None:
    """A reader finds each topic by its own entry: no page shows two topics' tables, and every
    page that shows one is in the navigation."""
    sources = {page.name: page.read_text(encoding="utf-8") for page in SITE_SRC.glob("*.md")}
    topics = topic_pages(sources)
    shown = list(topics.values())
    assert len(shown) == len(set(shown)), sorted(shown)
    assert {folder.name for folder in (FIXTURE / "cases").iterdir() if folder.is_dir()} == set(
        topics
    )
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:\n", 1)[1]
    for page in shown:
        assert f": {page}\n" in nav, page


# ------------------------------------------------------------------------------- walkthrough


def test_the_walkthrough_replays_the_recorded_game() -> None:
    page = render_walkthrough(ROOT / "games" / "walkthrough.txt", TEMPLATES, ROOT)
    assert f"Result: **{plain('A wins (three adjacent stones)')}**" in page
    assert page.count("### Turn ") == 45
    assert '??? note "The border after turn 45"' in page


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (("45. A blue 4 on 8", "45. A blue 4 on 7"), "games/walkthrough.txt:{line}: 'blue 4 on 7'"),
        (("result: A wins", "result: B wins"), "games/walkthrough.txt: the record says"),
        (("seed: 44", "seed: 45"), "games/walkthrough.txt:"),
    ],
)
def test_a_walkthrough_that_no_longer_replays_stops_the_build(
    tmp_path: Path, change: tuple[str, str], problem: str
) -> None:
    text = (ROOT / "games" / "walkthrough.txt").read_text()
    assert change[0] in text
    changed = text.replace(change[0], change[1])
    (tmp_path / "games").mkdir()
    record = tmp_path / "games" / "walkthrough.txt"
    record.write_text(changed)
    line = next(n for n, t in enumerate(changed.splitlines(), 1) if t.startswith(change[1]))
    with pytest.raises(CatalogueError) as caught:
        render_walkthrough(record, TEMPLATES, tmp_path)
    assert caught.value.problems[0].startswith(problem.format(line=line))


def test_the_odds_page_is_computed_exactly() -> None:
    three = formation_counts(size=3)
    assert sum(three.values()) == 24804
    assert three[Formation.COLOUR_RUN] == 6 * 7 and three[Formation.SAME_VALUE] == 9 * 20
    assert formation_odds(parse_cards("red 5, blue 5"))[Formation.SAME_VALUE] == Fraction(4, 52)
    assert sum(formation_odds(parse_cards("red 5")).values()) == 1
    page = render_formation_odds(TEMPLATES)

    def row(*cells: str) -> str:  # as the page writes it: every value through the one escape
        return "| " + " | ".join(plain(cell) for cell in cells) + " |"

    assert row("colour run", "42", "0.17 %", "1 in 591") in page
    assert row("a pair of 5s", "0", "7.69 %", "0", "0", "92.31 %") in page
    with pytest.raises(ValueError):
        formation_counts(parse_cards("red 5, red 5"))


def test_a_case_page_opens_with_a_short_answer_and_folds_a_long_log(catalogue: Catalogue) -> None:
    """A whole game's page says in a line how long it was and who won; its steps, numbered, are
    folded away below the board; a short turn is still shown step by step in that line."""
    pages = render_case_pages(catalogue, TEMPLATES, {})
    whole = pages["cases/turns/a-whole-game-from-the-deal.md"].split("\n---\n", 1)[1]
    answer = html.unescape(whole.split("\n\n")[1]).split(" Why: ")[0]
    assert re.fullmatch(r"The engine's answer: \d+ moves, then you win \([a-z ]+\)\.", answer)
    folded = re.search(r'\?\?\? note "What happens, step by step \((\d+) steps\)"', whole)
    assert folded is not None
    steps = re.findall(r"^    1\. ", whole, flags=re.MULTILINE)
    assert len(steps) == int(folded.group(1)) > LONG_TURN
    short = next(
        report
        for report in catalogue.published
        if any(check.what == "the turn" for check in report.game_checks)
        and len(next(c for c in report.game_checks if c.what == "the turn").actual.split(" → "))
        <= LONG_TURN
    )
    assert " → " in short.verdict_label


def test_editor_text_is_shown_exactly_as_written(catalogue_copy: Path) -> None:
    case = catalogue_copy / "cases" / "more-claims" / "01-order-of-play.yaml"
    text = case.read_text().replace(
        "situation: You played", "situation: <b>You</b> [really] played \\\\ *then*"
    )
    case.write_text(text.rstrip("\n"))  # no final newline either
    catalogue = verified_catalogue(catalogue_copy, kept=kept_for_the_run())
    pages = render_case_pages(catalogue, TEMPLATES, {}, catalogue_copy)
    page = pages["cases/more-claims/order-of-play-does-not-matter.md"]
    assert page.startswith("---\n")  # the front matter: how search weighs the page
    body = page.split("\n---\n", 1)[1].lstrip()
    assert body.startswith(
        "# &#60;b&#62;You&#60;&#47;b&#62; &#91;really&#93; played &#92;&#92; &#42;then&#42;"
    )
    assert page.rstrip().endswith("```") and page.count("```") == 2
    shown = tuple(r for r in catalogue.published if r.case.id == "order-of-play-does-not-matter")
    table = render_verdict_table(shown, TEMPLATES)
    assert "&#60;b&#62;You&#60;&#47;b&#62;" in table and "<b>" not in table


def test_a_turn_report_says_whose_turn_and_diffs_the_log(catalogue_copy: Path) -> None:
    case = catalogue_copy / "cases" / "turns" / "01-play-claim-draw.yaml"
    text = case.read_text()
    case.write_text(text.replace('"you: draw clan"]', '"you: draw tactics"]'))
    problems = build_catalogue(catalogue_copy, kept=kept_for_the_run()).problem_lines
    assert "log, expected (-) against the engine's (+):" in "\n".join(problems)
    assert "  - you: draw tactics" in problems and "  + you: draw clan" in problems
    case.write_text(
        text.replace("moves: [red 9 on 4, claim 4]", "moves: [red 9 on 4, claim 4, green 5 on 1]")
    )
    problems = build_catalogue(catalogue_copy, kept=kept_for_the_run()).problem_lines
    assert "move 'green 5 on 1' is illegal (it is their turn now)" in problems[0]


def test_the_walkthrough_shows_its_record_as_text(tmp_path: Path) -> None:
    """Review: a seed written in the record reached the page as live HTML."""
    seed = '<b onmouseover="alert(1)">x</b>'
    played = play_random_game(Game.named("base", seed=seed), random.Random(3))
    record = tmp_path / "hostile.txt"
    record.write_text(record_text(played))
    page = render_walkthrough(record, TEMPLATES, tmp_path)
    assert "<b" not in page and "&#60;b onmouseover" in page


def test_formation_counts_are_cached_per_engine_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from oracle.site import odds as odds_cache

    placed = parse_cards("red 5, red 6")
    counted = odds_cache.FormationCounts(tmp_path).counts(placed)
    assert counted == formation_counts(placed)
    assert odds_cache.FormationCounts(tmp_path).store.exists()

    def no_counting(*args: object) -> None:
        raise AssertionError("counted again")

    monkeypatch.setattr(odds_cache, "formation_counts", no_counting)
    assert odds_cache.FormationCounts(tmp_path).counts(placed) == counted  # a new build
    monkeypatch.setattr(odds_cache, "counts_digest", lambda: "another-engine")
    with pytest.raises(AssertionError, match="counted again"):
        odds_cache.FormationCounts(tmp_path).counts(placed)


SITE_MARKDOWN = ["toc", "tables", "fenced_code", "attr_list", "md_in_html", "admonition"]
"""MkDocs' own Markdown extensions and the site's (mkdocs.yml), but pymdownx.details."""


class HeldApart(NamedTuple):
    """The fixture catalogue's case pages, and each page's Markdown converted with its board
    held apart, as the build converts it (by the page's source path)."""

    pages: CasePages
    converted: dict[str, str]
    converter: Any


@pytest.fixture(scope="module")
def held_apart(catalogue: Catalogue) -> HeldApart:
    """:class:`HeldApart`, converted once for the two tests that compare it with the whole
    page (each of them for every case)."""
    import markdown

    pages = render_case_pages(catalogue, TEMPLATES, {})
    converter = markdown.Markdown(
        extensions=[*SITE_MARKDOWN, "pymdownx.details"],
        extension_configs={"toc": {"permalink": True}},
    )
    converted = {uri: converter.reset().convert(pages.source(uri).markdown) for uri in pages}
    return HeldApart(pages, converted, converter)


def test_a_case_page_with_its_board_put_in_after_conversion_is_the_same_page(
    held_apart: HeldApart,
) -> None:
    """The build converts a case page's Markdown with its board held apart and puts the board
    in afterwards: the page is the one Markdown makes of the whole Markdown, for every case."""
    pages, converter = held_apart.pages, held_apart.converter
    assert list(held_apart.converted) == list(pages)
    for uri in pages:
        source = pages.source(uri)
        assert source.markdown.count(BOARD_SLOT) == 1 and BOARD_SLOT not in source.board
        whole = converter.reset().convert(pages[uri])
        assert source.with_board(held_apart.converted[uri]) == whole, uri
    with pytest.raises(ValueError, match="board"):
        CasePageSource("no slot", BOARD_SLOT).with_board("<p>no slot</p>")


def _indexed(page: str) -> tuple[list[tuple[str, str | None, str, str]], str]:
    """What the search plugin keeps of a page's HTML: each section's tag, id, title and text,
    but for the sections it excludes, and the page as it leaves it (its own parser and
    pattern)."""
    from material.plugins.search.plugin import Parser  # type: ignore[import-untyped]

    parser = Parser()
    parser.feed(page)
    parser.close()
    sections = [
        (str(s.el), s.id, "".join(s.title), "".join(s.text).strip())
        for s in parser.data
        if not s.is_excluded()  # the plugin indexes no section whose heading is excluded
    ]
    return sections, SEARCH_ATTRIBUTE.sub("", page)


def test_a_case_page_is_indexed_with_its_board_stub_as_with_its_board(
    held_apart: HeldApart,
) -> None:
    """The build lets the search plugin index a case page with its board's empty outer element
    in the board's place, then puts the board in: the sections indexed and the page written are
    those of the page with its board, for every case (boards drawn and boards written out)."""
    pages = held_apart.pages
    assert list(held_apart.converted) == list(pages)
    stubs = set()
    cut_sections = 0
    for uri in pages:
        source = pages.source(uri)
        converted = held_apart.converted[uri]
        stub = board_stub(source.board)
        assert stub is not None and len(stub) < len(source.board), uri
        stubs.add(stub)
        searched, held = for_search(source, converted)
        assert held.stub == stub, uri
        cut_sections += len(held.sections)
        sections, left = _indexed(searched)
        whole_sections, whole_left = _indexed(source.with_board(converted))
        assert sections == whole_sections, uri
        assert after_search(source, left, held) == whole_left, uri
    assert len(stubs) == 2  # a board drawn, a board written out
    assert cut_sections >= len(pages)  # each page's file, excluded from search, is held out


def test_a_board_the_search_plugin_would_not_skip_whole_is_indexed_as_it_is() -> None:
    """Where a stub could not stand for the board exactly, the board itself is indexed."""
    drawn = '<figure class="oracle-board" data-search-exclude><p>2</p></figure>'
    assert board_stub(drawn) == '<figure class="oracle-board" data-search-exclude></figure>'
    for board in (
        '<figure class="oracle-board"><p>2</p></figure>',  # indexed: not excluded
        '<figure class="oracle-board" data-search-exclude><h3 id="a">A</h3></figure>',
        '<figure data-search-exclude><span data-search-exclude="x"></span></figure>',
        "<figure data-search-exclude><p>2</p></figure><p>3</p>",
    ):
        assert board_stub(board) is None, board
        source = CasePageSource(f"<p>1</p>{BOARD_SLOT}", Markup(board))
        page, held = for_search(source, f"<p>1</p>{BOARD_SLOT}")
        assert page == f"<p>1</p>{board}" and held.stub is None
        assert after_search(source, page, held) == page


def test_case_pages_are_rendered_one_at_a_time_when_asked_for(
    catalogue: Catalogue, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The site's build holds one case page at a time: listing the pages or asking whether a
    page is a case's renders none; asking for a page renders that one."""
    import oracle.site.casepages
    import oracle.site.render

    rendered: list[str] = []
    real = oracle.site.casepages.render_case_page_source

    def counted(report: CaseReport, *rest: Any) -> CasePageSource:
        rendered.append(report.case.id)
        return real(report, *rest)

    monkeypatch.setattr(oracle.site.render, "render_case_page_source", counted)
    pages = render_case_pages(catalogue, TEMPLATES, {})
    uri = "cases/more-claims/order-of-play-does-not-matter.md"
    assert uri in pages and "index.md" not in pages
    assert len(pages) == len(list(pages)) == len(catalogue.published)
    assert pages.situation(uri) is not None and pages.situation("index.md") is None
    assert rendered == []
    assert pages[uri] == pages[uri]
    assert rendered == ["order-of-play-does-not-matter"] * 2


def test_a_case_page_shows_its_file_as_verified_even_when_saved_meanwhile(
    catalogue_copy: Path,
) -> None:
    """Case pages are written one at a time, long after the catalogue read the files: a file
    saved in between (before the pages are made, or before this one is written) does not reach
    the page unverified; the page shows the text that was read and verified, kept with the case
    (the next build verifies the new one)."""
    catalogue = verified_catalogue(catalogue_copy, kept=kept_for_the_run())
    case = catalogue_copy / "cases" / "more-claims" / "01-order-of-play.yaml"
    verified = case.read_text()
    case.write_text(verified.replace("situation: You played", "situation: Unverified words"))
    pages = render_case_pages(catalogue, TEMPLATES, {}, catalogue_copy)
    case.write_text(verified.replace("situation: You played", "situation: Other words"))
    page = pages["cases/more-claims/order-of-play-does-not-matter.md"]
    assert "Other words" not in page
    assert "Unverified words" not in page and "situation: You played" in page
