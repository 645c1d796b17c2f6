"""The conformance page: the catalogue exported and our engine run through the protocol at each
build, the published results of other engines beside it, and the cases each misreading fails."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oracle.casefile.model import Case, RuleEntry, RulesIndex
from oracle.catalogue import Catalogue, CatalogueError
from oracle.conformance.adapter import adapter_engine, exported_cases
from oracle.conformance.export import (
    PackedRecords,
    catalogue_version,
    engine_version,
    export_json_pieces,
    export_jsonl_pieces,
    published_record_stream,
    shown_records,
)
from oracle.conformance.results import PublishedResult, published_results
from oracle.conformance.runner import CaseResult, run
from oracle.judges.misreadings import MISREADINGS
from oracle.protocol.compare import Result
from oracle.site.casepages import link_from
from oracle.site.markup import Markup, external_link, rendered, template_environment, text
from oracle.site.render import ruling_anchor


@dataclass(frozen=True)
class EngineRun:
    """One engine's run over the exported catalogue, as the conformance page shows it."""

    name: str
    title: str
    results: tuple[CaseResult, ...]


@dataclass(frozen=True)
class Conformance:
    """The export of the published catalogue and the runs through it, made at every build."""

    records: Sequence[dict[str, Any]]
    """The export's case records (a build keeps them packed, :class:`PackedRecords`)."""
    runs: tuple[EngineRun, ...]
    version: str
    catalogue: str = ""
    """The catalogue's version (:func:`catalogue_version` of the records)."""
    published: tuple[PublishedResult, ...] = ()
    """Other engines' runs from ``results/``, current or stale."""

    def texts(self) -> dict[str, str]:
        """The export's files, by name."""
        return {name: "".join(pieces()) for name, pieces in self.pieces().items()}

    def pieces(self) -> dict[str, Callable[[], Iterator[str]]]:
        """The export's files by name, each as what makes its text a case at a time, for the
        build to write it so (:class:`oracle.site.streamed.StreamedFile`)."""
        records, version = self.records, self.version
        return {
            EXPORT_JSON: lambda: export_json_pieces(records, version),
            EXPORT_JSONL: lambda: export_jsonl_pieces(records, version),
        }


EXPORT_JSON = "schotten-totten-catalogue.json"


EXPORT_JSONL = "schotten-totten-catalogue.jsonl"


REFERENCE = "reference"


EXAMPLE_ADAPTER = "downloads/example_adapter.py"
"""The example adapter of the conformance page, under ``site_src/``: shown on it and offered."""


def conformance(catalogue: Catalogue) -> Conformance:
    """Export the published cases and run our engine through the protocol: the build fails
    (:class:`CatalogueError`) unless our engine passes every case. It answers the cases as the
    loader read them, not their requests read again (another engine's way, which
    ``schotten-oracle conform`` and the tests take). The misreadings each case
    fails are its record's ``catches``, from the misreading matrix; running each misreading
    through the protocol too (:func:`misreading_runs`) gives the same, which a test checks on
    the whole catalogue, and cost the build a run of the catalogue per misreading."""
    matrix = catalogue.matrix
    records = PackedRecords(published_record_stream(catalogue.published, matrix))
    version = catalogue_version(records)
    read = exported_cases(records, (report.case for report in catalogue.published))
    ours = EngineRun(
        REFERENCE,
        "This engine",
        tuple(run(adapter_engine(None, catalogue.cache, read), records, version)),
    )
    problems = [
        f"the export of case {result.case_id!r} does not replay: {result.describe()}"
        for result in ours.results
        if result.result is not Result.PASS
    ]
    if problems:
        raise CatalogueError(problems)
    published, unreadable = published_results(catalogue.root, records, version)
    if unreadable:
        raise CatalogueError(unreadable)
    return Conformance(records, (ours,), engine_version(), version, tuple(published))


def misreading_runs(catalogue: Catalogue, records: Sequence[dict[str, Any]]) -> list[EngineRun]:
    """Each misreading run through the protocol over ``records``, as another engine would be."""
    read: dict[str, Case] = {}  # every misreading is asked about the same cases
    version = catalogue_version(records)
    return [
        EngineRun(
            name,
            reading.title,
            tuple(run(adapter_engine(name, catalogue.cache, read), records, version)),
        )
        for name, reading in MISREADINGS.items()
    ]


def render_conformance(
    result: Conformance, templates: Path, page: str, rules: RulesIndex | None = None
) -> str:
    """The conformance results, one column per engine (ours, then the published results of the
    catalogue's version): by topic, by rule of ``rules``, and case by case, each case linked and
    with the misreadings that fail it; then the stale published results, apart."""
    records = shown_records(result.records)
    topics = list(dict.fromkeys(record["topic"] for record in records))
    columns = _columns(result)
    outcomes = [{r.case_id: r.result for r in column.results} for column in columns]

    def counts(chosen: list[dict[str, Any]]) -> list[tuple[int, int, int, int]]:
        return [_counts(outcome, chosen) for outcome in outcomes]

    def of_topic(topic: str) -> list[dict[str, Any]]:
        return [record for record in records if record["topic"] == topic]

    entries = rules.entries if rules is not None else ()
    pinning = {entry: [r for r in records if entry.id in r["rules"]] for entry in entries}
    return rendered(
        template_environment(templates),
        "conformance_matrix.md.j2",
        columns=[column.title for column in columns],
        total=counts(list(records)),
        by_topic=[(topic, counts(of_topic(topic))) for topic in topics],
        by_rule=[
            (_rule_title(entry, page), counts(cases)) for entry, cases in pinning.items() if cases
        ],
        cases=[_topic_rows(of_topic(topic), columns, page) for topic in topics],
        readings=_readings(records, page),
        count=len(records),
        submitted=len(columns) - 1,
        stale=_stale(result),
        catalogue=result.catalogue,
    )


def _readings(records: Sequence[dict[str, Any]], page: str) -> list[tuple[str, Markup, int]]:
    """Each misreading, linked to its place on the misreadings page, with the number of cases
    it fails (those that catch it)."""
    return [
        (
            reading.title,
            link_from(page, f"misreadings.md#{name}"),
            sum(name in record["catches"] for record in records),
        )
        for name, reading in MISREADINGS.items()
    ]


def _columns(result: Conformance) -> list[EngineRun]:
    """The engines shown as columns: ours, then each published result of this catalogue."""
    submitted = [
        EngineRun(found.name, _submitted_title(found), found.results)
        for found in result.published
        if found.is_current(result.catalogue)
    ]
    return [run for run in result.runs if run.name == REFERENCE] + submitted


def _stale(result: Conformance) -> list[tuple[Markup, str, str]]:
    """The published results of another catalogue: each linked, with its date and version."""
    return [
        (external_link(f"{found.name} {found.version}", found.link), found.date, found.catalogue)
        for found in result.published
        if not found.is_current(result.catalogue)
    ]


def _topic_rows(
    records: list[dict[str, Any]], columns: list[EngineRun], page: str
) -> tuple[str, list[Any], list[tuple[Markup, str, Markup]]]:
    """One topic's cases: its name, a row per case, and why each failure failed."""
    answers = [{r.case_id: r for r in column.results} for column in columns]
    rows = [_case_row(record, page, answers) for record in records]
    return records[0]["topic"], rows, _failures(records, columns, page)


def _case_row(
    record: dict[str, Any],
    page: str,
    answers: list[dict[str, CaseResult]],
) -> tuple[str, Markup, list[str | Markup], list[tuple[str, Markup]]]:
    """One case, linked, with its result in each engine's column (a failure with why, both
    answers as the report has them) and the misreadings that fail it (those it catches), each
    linked to its place on the misreadings page."""
    return (
        record["id"],
        link_from(page, f"cases/{record['topic']}/{record['id']}.md"),
        [_outcome_cell(column.get(record["id"])) for column in answers],
        [
            (MISREADINGS[name].title, link_from(page, f"misreadings.md#{name}"))
            for name in record["catches"]
        ],
    )


def _outcome_cell(result: CaseResult | None) -> str | Markup:
    """A case's result in one engine's column; a failure stands out without colour, and points
    to the list of why each case failed, under the table."""
    if result is None or result.result is not Result.FAIL:
        return _OUTCOME_WORDS[None if result is None else result.result]
    return Markup("**fail** (why: below)")


def _failures(
    records: list[dict[str, Any]], columns: list[EngineRun], page: str
) -> list[tuple[Markup, str, Markup]]:
    """Each failed case of ``records`` in each engine's column: the case linked, the engine,
    and why it failed (each failed question with both answers, as the report has them; the
    engine's words escaped, as every text of a report is)."""
    found = []
    for column in columns:
        results = {result.case_id: result for result in column.results}
        for record in records:
            result = results.get(record["id"])
            if result is not None and result.result is Result.FAIL:
                link = link_from(page, f"cases/{record['topic']}/{record['id']}.md")
                why = result.why_failed() or "the report gives no reason"
                found.append((Markup(f"[{text(record['id'])}]({link})"), column.title, text(why)))
    return found


_OUTCOME_WORDS: dict[Result | None, str | Markup] = {
    Result.PASS: "pass",
    Result.FAIL: Markup("**fail**"),
    Result.UNSUPPORTED: "unsupported",
    None: "not run",
}
"""A case's result in one engine's column; a failure stands out without colour."""


def _counts(outcome: dict[str, Result], chosen: list[dict[str, Any]]) -> tuple[int, int, int, int]:
    """How many of the ``chosen`` cases pass, fail, go unsupported and were not run."""
    found = [outcome.get(record["id"]) for record in chosen]
    return (
        found.count(Result.PASS),
        found.count(Result.FAIL),
        found.count(Result.UNSUPPORTED),
        found.count(None),
    )


def _rule_title(entry: RuleEntry, page: str) -> Markup:
    """A rule's title, linked to its place on the rulings page when it is one of our rulings."""
    if entry.is_ruling:
        target = link_from(page, f"rulings.md#{ruling_anchor(entry)}")
        return Markup(f"[{text(entry.title)}]({target})")
    return text(entry.title)


def _submitted_title(found: PublishedResult) -> Markup:
    """A published result's column title: its name and version linked to its page, and its
    date."""
    link = external_link(f"{found.name} {found.version}", found.link)
    protocol = f", protocol {found.protocol}" if found.protocol is not None else ""
    return Markup(f"{link} ({text(found.date)}{protocol})")
