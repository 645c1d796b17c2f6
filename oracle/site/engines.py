"""The conformance page: the catalogue exported, our engine and every misreading run through the
protocol at each build, and the matrix of their results."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.misreadings import MISREADINGS
from oracle.casefile.model import Case
from oracle.catalogue import Catalogue, CatalogueError
from oracle.conformance.adapter import adapter_engine
from oracle.conformance.export import (
    catalogue_version,
    engine_version,
    export_json,
    export_jsonl,
    published_records,
)
from oracle.conformance.results import PublishedResult, published_results
from oracle.conformance.runner import CaseResult, run
from oracle.misreadings.matrix import Outcome
from oracle.protocol.compare import Result
from oracle.site.casepages import link_from
from oracle.site.markup import Markup, external_link, rendered, template_environment, text


@dataclass(frozen=True)
class EngineRun:
    """One engine's run over the exported catalogue, as the conformance page shows it."""

    name: str
    title: str
    results: tuple[CaseResult, ...]


@dataclass(frozen=True)
class Conformance:
    """The export of the published catalogue and the runs through it, made at every build."""

    records: tuple[dict[str, Any], ...]
    runs: tuple[EngineRun, ...]
    version: str
    catalogue: str = ""
    """The catalogue's version (:func:`catalogue_version` of the records)."""
    published: tuple[PublishedResult, ...] = ()
    """Other engines' runs from ``results/``, current or stale."""

    def texts(self) -> dict[str, str]:
        """The export's files, by name."""
        return {
            EXPORT_JSON: export_json(self.records, self.version),
            EXPORT_JSONL: export_jsonl(self.records, self.version),
        }


EXPORT_JSON = "schotten-totten-catalogue.json"


EXPORT_JSONL = "schotten-totten-catalogue.jsonl"


REFERENCE = "reference"


EXAMPLE_ADAPTER = "downloads/example_adapter.py"
"""The example adapter of the conformance page, under ``site_src/``: shown on it and offered."""


def conformance(catalogue: Catalogue) -> Conformance:
    """Export the published cases, run our engine and each misreading through the protocol.

    The build fails (:class:`CatalogueError`) unless our engine passes every case and each
    misreading fails exactly the cases the misreading matrix says it changes.
    """
    matrix = catalogue.matrix
    records = tuple(published_records(catalogue.published, matrix))
    cache = catalogue.cache
    read: dict[str, Case] = {}  # every engine is asked about the same cases
    version = catalogue_version(records)
    ours = EngineRun(
        REFERENCE, "This engine", tuple(run(adapter_engine(None, cache, read), records, version))
    )
    problems = [
        f"the export of case {result.case_id!r} does not replay: {result.describe()}"
        for result in ours.results
        if result.result is not Result.PASS
    ]
    if problems:  # the misreadings are measured against an export that holds
        raise CatalogueError(problems)
    runs = [ours]
    for name, reading in MISREADINGS.items():
        answers = tuple(run(adapter_engine(name, cache, read), records, version))
        runs.append(EngineRun(name, reading.title, answers))
    flips = {
        name: {row.report.case.id for row in matrix if row.outcomes[name] is Outcome.FLIPS}
        for name in MISREADINGS
    }
    for engine_run in runs[1:]:
        failed = {r.case_id for r in engine_run.results if r.result is Result.FAIL}
        if failed != flips[engine_run.name]:
            problems.append(
                f"misreading {engine_run.name!r} through the conformance runner fails"
                f" {sorted(failed)}, but the matrix says {sorted(flips[engine_run.name])}"
            )
    if problems:
        raise CatalogueError(problems)
    published, unreadable = published_results(catalogue.root, records, version)
    if unreadable:
        raise CatalogueError(unreadable)
    return Conformance(records, tuple(runs), engine_version(), version, tuple(published))


def render_conformance(result: Conformance, templates: Path, page: str) -> str:
    """The conformance matrix: engines down (ours, the misreadings, then the published results
    of the catalogue's version), topics across; counts, and links to failures; then the stale
    published results, apart."""
    topics = list(dict.fromkeys(record["topic"] for record in result.records))
    links = {
        record["id"]: link_from(page, f"cases/{record['topic']}/{record['id']}.md")
        for record in result.records
    }
    submitted = [
        EngineRun(found.name, _submitted_title(found), found.results)
        for found in result.published
        if found.is_current(result.catalogue)
    ]
    rows = [
        (engine_run, _cells(engine_run, topics, links), *_totals(engine_run, result.records))
        for engine_run in (*result.runs, *submitted)
    ]
    stale = [
        (external_link(f"{found.name} {found.version}", found.link), found.date, found.catalogue)
        for found in result.published
        if not found.is_current(result.catalogue)
    ]
    return rendered(
        template_environment(templates),
        "conformance_matrix.md.j2",
        topics=topics,
        rows=rows,
        cases=len(result.records),
        Result=Result,
        submitted=len(submitted),
        stale=stale,
        catalogue=result.catalogue,
    )


def _submitted_title(found: PublishedResult) -> Markup:
    """A published result's row title: its name and version linked to its page, and its date."""
    link = external_link(f"{found.name} {found.version}", found.link)
    return Markup(f"{link} ({text(found.date)})")


def _cells(
    engine_run: EngineRun, topics: list[str], links: dict[str, Markup]
) -> list[tuple[int, int, int, list[tuple[str, Markup]]]]:
    """Per topic: how many cases pass, fail and go unsupported, and each failing case linked."""
    cells = []
    for topic in topics:
        mine = [r for r in engine_run.results if r.topic == topic]
        counts = {outcome: sum(r.result is outcome for r in mine) for outcome in Result}
        failing = [(r.case_id, links[r.case_id]) for r in mine if r.result is Result.FAIL]
        cells.append(
            (counts[Result.PASS], counts[Result.FAIL], counts[Result.UNSUPPORTED], failing)
        )
    return cells


def _totals(
    engine_run: EngineRun, records: tuple[dict[str, Any], ...]
) -> tuple[dict[Result, int], int]:
    """The counts over every case, and how many cases of the catalogue the run did not ask."""
    totals = {outcome: sum(r.result is outcome for r in engine_run.results) for outcome in Result}
    asked = {r.case_id for r in engine_run.results}
    return totals, sum(record["id"] not in asked for record in records)
