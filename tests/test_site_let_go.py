"""What a site build keeps of its catalogue while it writes the pages."""

from __future__ import annotations

from pathlib import Path

from conftest import kept_for_the_run

from oracle.catalogue import verified_catalogue


def test_a_catalogue_lets_go_of_its_working_and_keeps_what_the_site_shows(
    project_to_read: Path,
) -> None:
    """Once checked, a catalogue forgets the cases it read and replayed by text and the misread
    answers it held (the build writes its pages meanwhile), and shows the same reports, matrix
    and problems; a case asked again is the report it had."""
    shared = kept_for_the_run()
    catalogue = verified_catalogue(project_to_read, kept=shared)
    published, matrix, problems = catalogue.published, catalogue.matrix, catalogue.problems
    cache = catalogue.cache
    catalogue.let_go_of_working()
    assert catalogue.kept is not shared and not catalogue.kept.read.by_text
    assert catalogue.cache is not cache and catalogue.cache.store == cache.store
    assert catalogue.published is published and catalogue.matrix is matrix
    assert catalogue.problems is problems
    assert all(catalogue.report_of(report.case) is report for report in published)


def test_the_cases_read_against_one_rules_index_share_its_statements(project_to_read: Path) -> None:
    """Each case read is kept by its text and the statements of the rules index it was read
    against: one set of statements for the whole catalogue, not a copy for each case."""
    from oracle.catalogue import Kept

    kept = Kept()
    verified_catalogue(project_to_read, kept=kept)
    statements = {id(key[1]) for key in kept.read.by_text}
    assert len(kept.read.by_text) > 1 and len(statements) == 1
