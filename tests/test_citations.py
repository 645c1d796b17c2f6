"""Nothing published may contradict a rule: a published case carries ``reviewed:`` from the
start, a changed rule text holds every case that pins it and every page that cites it, and a
page states a rule by citing it (``<!-- oracle:rule ID -->``), rendered from the rules index."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import run_main
from reader_support import copy_look_catalogue

from oracle.casefile.model import RuleEntry
from oracle.site.render import render_citation

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "site_src" / "_templates"
INCOMPLETE = Path("cases/claims/01-incomplete-side.yaml")
PROOF_TEXT = "One such completion is enough to refuse the claim"


@pytest.fixture
def look(tmp_path: Path) -> Path:
    """The fixture catalogue with the project's Markdown pages, to change."""
    return copy_look_catalogue(tmp_path / "project")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = run_main(argv)
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def _line_of(path: Path, words: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if words in line)


def test_a_published_case_needs_reviewed_and_pin_reviewed_adds_it(
    look: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = look / INCOMPLETE
    text = case.read_text(encoding="utf-8")
    case.write_text(re.sub(r"(?m)^reviewed: .*\n", "", text), encoding="utf-8")
    status, out = run(capsys, "check", "--root", str(look))
    assert status == 1
    assert (
        f"{INCOMPLETE}:2: case 'incomplete-side': its situation and why were never confirmed for"
        " its answers (no reviewed:)" in out
    )
    assert f"then run schotten-oracle pin --reviewed {INCOMPLETE}" in out
    status, out = run(capsys, "held", "--root", str(look))
    assert status == 1 and f"{INCOMPLETE}:2:" in out
    assert run(capsys, "pin", "--root", str(look), "--reviewed", str(case))[0] == 0
    assert case.read_text(encoding="utf-8") == text  # the same fingerprint, in the same place
    assert run(capsys, "check", "--root", str(look))[0] == 0


def test_a_changed_rule_text_holds_every_case_that_pins_it_and_every_page_citing_it(
    look: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The answers stand, but the rule's words changed: the prose and pages around it wait."""
    _replace(look / "rules" / "index.yaml", PROOF_TEXT, "A single such completion refuses it")
    status, out = run(capsys, "held", "--root", str(look))
    assert status == 1
    held_cases = re.findall(r"(?m)^cases/\S+\.yaml:\d+: case '[a-z0-9-]+'.*", out)
    assert len(held_cases) == 6
    assert all("claim.prove-incomplete-side" in line for line in held_cases)
    page = look / "site_src" / "early-claims.md"
    line = _line_of(page, "oracle:rule claim.prove-incomplete-side")
    assert (
        f"site_src/early-claims.md:{line}: cites rules (claim.prove-incomplete-side,"
        " claim.tie-against-incomplete) of which a title or text changed since the page was last"
        " read for them" in out
    )
    assert "edge-cases.md" not in out  # it cites other rules
    assert "then run schotten-oracle pin --reviewed site_src/early-claims.md" in out
    status, out = run(capsys, "check", "--root", str(look))
    assert status == 1 and f"site_src/early-claims.md:{line}:" in out
    # Each page and case confirmed once read again; the record holds only what was confirmed.
    assert run(capsys, "pin", "--root", str(look), "--reviewed", str(page))[0] == 0
    record = (look / "rules" / "reviewed-pages.yaml").read_text(encoding="utf-8")
    assert "edge-cases.md:" in record and "early-claims.md:" in record
    status, out = run(capsys, "pin", "--root", str(look), "--reviewed", "--all-held")
    assert status == 0 and f"re-pinned {len(held_cases)} case file" in out
    assert run(capsys, "held", "--root", str(look))[0] == 0
    assert run(capsys, "check", "--root", str(look))[0] == 0


def test_a_page_citing_an_unknown_rule_is_refused_at_its_line(
    look: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = look / "site_src" / "early-claims.md"
    _replace(page, "oracle:rule claim.tie-against-incomplete", "oracle:rule claim.tie-against")
    line = _line_of(page, "oracle:rule claim.tie-against")
    status, out = run(capsys, "check", "--root", str(look))
    assert status == 1
    assert (
        f"site_src/early-claims.md:{line}: cites rule 'claim.tie-against', which is not in the"
        " rules index; did you mean 'claim.tie-against-incomplete'?" in out
    )


def test_a_page_that_cites_nothing_more_leaves_the_record_and_pin_writes_it_again(
    look: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = look / "site_src" / "early-claims.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(re.sub(r"(?m)^<!-- oracle:rule .*\n", "", text), encoding="utf-8")
    status, out = run(capsys, "check", "--root", str(look))
    assert status == 1
    assert "rules/reviewed-pages.yaml: site_src/early-claims.md cites no rule now" in out
    assert run(capsys, "pin", "--root", str(look), "--reviewed", "--all-held")[0] == 0
    record = (look / "rules" / "reviewed-pages.yaml").read_text(encoding="utf-8")
    assert "early-claims.md" not in record and "edge-cases.md" in record
    assert run(capsys, "check", "--root", str(look))[0] == 0


def test_a_page_is_confirmed_only_with_reviewed(
    look: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run(capsys, "pin", "--root", str(look), str(look / "site_src" / "edge-cases.md"))
    assert status == 2 and "a page is confirmed with --reviewed" in out
    status, out = run(
        capsys, "pin", "--root", str(look), "--reviewed", str(look / "site_src" / "edge-cases.md")
    )
    assert status == 2 and "already read for the texts it cites" in out


def test_a_citation_is_the_rules_own_words_escaped_and_linked() -> None:
    entry = RuleEntry(
        id="formations.tie-break",
        kind="rule",
        section="Formations",
        title="Ties <b>broken</b>",
        text="The side completed *earlier* wins [x](javascript:alert(1)).",
        reason=None,
        line=1,
        applies="both",
        unpinned_in=None,
        history=(),
    )
    cited = render_citation(entry, TEMPLATES, "guide/page.md")
    assert cited.startswith("> **Ties &#60;b&#62;broken&#60;&#47;b&#62;&#46;**")
    assert "&#42;earlier&#42;" in cited and "javascript&#58;" in cited
    assert "[see it on the Rulings page](../rulings.md#formations-tie-break)" in cited
    assert "\n" not in cited.rstrip("\n")
