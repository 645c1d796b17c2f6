"""Hostile text in every field an editor writes stays text on every page of the built site.

The fields come from the JSON Schemas of case files and of the rules index: every string that
is not held to a pattern or a list of choices. For each question kind a published case is taken
as a template and every such field of it gets hostile text (each trick that ever worked on a site
like this one). Where the case still verifies, it is published so; where it no longer can (a
move that must be legal, a log that must be the engine's), the catalogue must refuse to publish
it. A move the engine cannot read is published with the engine's refusal pinned, which quotes
the move: text from an engine's answer takes the same path. Then the site is built, every page
is read in chromium, and nothing of the hostile text may be live: no script run or blocked by
the Content-Security-Policy, no ``on*`` attribute, ``javascript:`` or ``data:`` link, injected
element or style. A published result (``results/*.json``) is built in too, with hostile text in
every free-text field of its schema, its link, and the engine's own words the Conformance page
quotes. A new field or question kind in the schemas is covered without a change here.
"""

from __future__ import annotations

import copy
import datetime
import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest
import yaml
from browser_support import (
    WATCH_POLICY,
    fresh_context,
    served,
    shared_build,
    skip_without_a_browser,
)
from conftest import FIXTURE, kept_for_the_run, publishable_case_files, run_main

from engine import Game, MoveSyntaxError
from oracle.casefile.errors import CaseError
from oracle.casefile.loader import load_case
from oracle.casefile.questions import QUESTION_KINDS, case_schema
from oracle.casefile.rules import load_rules_index
from oracle.casefile.source import loaded_yaml
from oracle.casefile.validation import load_schema
from oracle.catalogue import build_catalogue
from oracle.conformance.adapter import Adapter
from oracle.conformance.engines import FunctionEngine
from oracle.conformance.export import catalogue_version, published_records
from oracle.conformance.reports import json_report
from oracle.conformance.results import published_results, submission
from oracle.conformance.runner import run
from oracle.verify.replay import verify_case

TRICKS = (
    "<img src=x onerror=pwn(1)>",
    "<svg onload=pwn(2)>",
    "<details open ontoggle=pwn(3)>",
    '<iframe srcdoc="<b>4</b>">',
    "[x](javascript:pwn(5))",
    "[d](data:text/html,6)",
    "<style>*{color:red}</style>",
    "<b style=color:red>b</b>",
    "</title><script>pwn(8)</script>",
    "{: onclick=pwn(9) }",
    "<!-- oracle:rulings -->",
    "*em*",
)
"""Each trick known to have made editor text live on a site like this one."""

HOSTILE_RULE = "hostile.every-field"
QUESTIONS = tuple(kind.key for kind in QUESTION_KINDS)
"""Every question kind a case may ask, by its key."""

Path_ = tuple[str, ...]
"""A field in a document: keys, and ``[]`` for any item of a list."""


def free_text_fields(schema: dict[str, Any]) -> list[tuple[Path_, int | None]]:
    """Every string field of ``schema`` that takes any text (no pattern, no choices), with its
    longest allowed length."""
    definitions = schema.get("definitions", {})
    found: list[tuple[Path_, int | None]] = []

    def walk(node: dict[str, Any], where: Path_) -> None:
        if "$ref" in node:
            walk(definitions[node["$ref"].rsplit("/", 1)[-1]], where)
            return
        for option in node.get("anyOf", ()):
            walk(option, where)
        if node.get("type") == "string" and not {"pattern", "enum", "const"} & set(node):
            found.append((where, node.get("maxLength")))
        for key, child in node.get("properties", {}).items():
            walk(child, (*where, key))
        if isinstance(node.get("items"), dict):
            walk(node["items"], (*where, "[]"))

    walk(schema, ())
    return found


CASE_FIELDS = free_text_fields(case_schema())
RULE_FIELDS = free_text_fields(load_schema("rules"))
RESULT_FIELDS = free_text_fields(load_schema("published-result"))


def hostile(limit: int | None, tricks: tuple[str, ...] = TRICKS) -> str:
    """As many tricks as the field's length allows (all of them where it sets none)."""
    text = ""
    for trick in tricks:
        longer = f"{text} {trick}".strip()
        if limit is not None and len(longer) > limit:
            break
        text = longer
    return text


def test_the_fields_come_from_the_schemas() -> None:
    case_fields = {where for where, _ in CASE_FIELDS}
    assert {("situation",), ("why",), ("plays", "[]", "move"), ("impossible",)} <= case_fields
    assert {("turn", "expect", "log", "[]"), ("claims", "[]", "because")} <= case_fields
    assert {where for where, _ in RULE_FIELDS} == {
        ("rules", "[]", name) for name in ("section", "title", "text", "reason")
    } | {
        ("rules", "[]", "unpinned_in", "because"),
        ("rules", "[]", "history", "[]", "why"),
        ("rules", "[]", "history", "[]", "source"),
    } | {
        ("rules", "[]", "history", "[]", "answers", "[]", name)
        for name in ("question", "then", "now")
    }
    assert {where for where, _ in RESULT_FIELDS} >= {
        ("engine",),
        ("submitted", "name"),
        ("submitted", "version"),
    }
    assert all(hostile(limit) for _, limit in CASE_FIELDS + RULE_FIELDS + RESULT_FIELDS)


# ------------------------------------------------------------------------- the hostile cases


def template_files() -> dict[str, Path]:
    """A published case file asking each question kind."""
    found: dict[str, Path] = {}
    for path in publishable_case_files():
        data = loaded_yaml(path.read_text(encoding="utf-8"))
        for kind in QUESTIONS:
            if kind in data and kind not in found:
                found[kind] = path
    return found


def templates() -> dict[str, dict[str, Any]]:
    """A published case asking each question kind, as plain data: a new case made from it, so
    without the fingerprint its prose was reviewed for (its questions change here)."""
    found = {
        kind: loaded_yaml(path.read_text(encoding="utf-8"))
        for kind, path in template_files().items()
    }
    for case in found.values():
        case.pop("reviewed", None)
    return found


def _set(data: Any, where: Path_, value: str) -> None:
    """Write ``value`` at ``where``: into every item of a list on the way, a new item at a
    list's end for a leaf."""
    head, rest = where[0], where[1:]
    if head == "[]":
        if not rest:
            data.append(value)
            return
        for item in data:
            _set(item, rest, value)
        return
    if not rest:
        data[head] = value
        return
    if head not in data:
        data[head] = [] if rest[0] == "[]" else {}
    if rest[0] == "[]" and not data[head] and len(rest) > 1:
        data[head].append({})
    _set(data[head], rest, value)


def _verdict(folder: Path, name: str, data: dict[str, Any], rules: Any) -> bool | str:
    """True when the case verifies, else the loader's or the engine's objection."""
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    try:
        report = verify_case(load_case(path, rules))
    except CaseError as error:
        return error.located
    return True if report.publishable else "; ".join(report.problems()) or "not published"


def unreadable_plays(template: dict[str, Any]) -> list[dict[str, Any]]:
    """A play per trick that no notation reads, pinned with the engine's refusal (which quotes
    it): the engine's words reach the page by the same path as the editor's."""
    game = Game.named(template["variant"]).new_initial_state()
    limit = dict(CASE_FIELDS)[("plays", "[]", "move")]
    plays = []
    for trick in TRICKS:
        move = hostile(limit, (trick,))
        try:
            game.parse_move(move)
        except MoveSyntaxError as error:
            because = " ".join(str(error).split())
        else:  # pragma: no cover - a trick is never a move
            raise AssertionError(f"{move!r} reads as a move")
        plays.append({"move": move, "expect": "unreadable", "because": because})
    return plays


class HostileCatalogue:
    """Every question kind's template with hostile text in each field it can carry; the
    variants whose hostile field the catalogue must refuse; the rule with hostile fields."""

    def __init__(self, scratch: Path) -> None:
        self.cases: dict[str, dict[str, Any]] = {}
        self.refused: list[tuple[str, Path_, str]] = []
        self.published_fields: set[Path_] = set()
        rules = load_rules_index(FIXTURE / "rules" / "index.yaml")
        folder = scratch / "cases" / "scratch"
        folder.mkdir(parents=True)
        for kind, template in templates().items():
            case = copy.deepcopy(template)
            case.pop("guards_against", None)  # a misreading it names need not flip any more
            case["id"] = f"hostile-{kind}"
            if kind == "plays":
                case["plays"] = [*case["plays"], *unreadable_plays(template)]
                self.published_fields |= {("plays", "[]", "move"), ("plays", "[]", "because")}
            assert _verdict(folder, case["id"], case, rules) is True, kind
            for where, limit in CASE_FIELDS:
                if where[0] in QUESTIONS and where[0] != kind:
                    continue  # another question kind's field: its own template carries it
                candidate = copy.deepcopy(case)
                _set(candidate, where, hostile(limit))
                found = _verdict(folder, case["id"], candidate, rules)
                if found is True:
                    case = candidate
                    self.published_fields.add(where)
                else:
                    self.refused.append((kind, where, str(found)))
            case["rules"] = [*case.get("rules", []), HOSTILE_RULE]
            self.cases[kind] = case
        shutil.rmtree(folder)

    def rule(self) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "id": HOSTILE_RULE,
            "kind": "ruling",
            "applies": "both",
            "unpinned_in": {"variant": "tactics"},
            "history": [
                {
                    "date": "2026-12-02",
                    "change": "changed",
                    "moved": ["hostile-plays"],
                    "answers": [{"case": "hostile-plays"}],
                }
            ],
        }
        for where, limit in RULE_FIELDS:
            *parents, name = where[2:]  # below ("rules", "[]")
            place: Any = entry
            for parent in parents:
                place = place[0] if parent == "[]" else place.setdefault(parent, {})
            place[name] = hostile(limit)
        return entry


@pytest.fixture(scope="module")
def hostile_catalogue(tmp_path_factory: pytest.TempPathFactory) -> HostileCatalogue:
    return HostileCatalogue(tmp_path_factory.mktemp("hostile-scratch"))


def test_every_field_of_every_question_kind_is_published_hostile_or_refused(
    hostile_catalogue: HostileCatalogue,
) -> None:
    assert set(hostile_catalogue.cases) == set(QUESTIONS), "a question kind has no template"
    refused = {where for _, where, _ in hostile_catalogue.refused}
    for where, _ in CASE_FIELDS:
        assert where in hostile_catalogue.published_fields | refused, where
    # Text the editor writes for readers is published hostile in every kind of case...
    assert {("situation",), ("why",), ("plays", "[]", "move")} <= (
        hostile_catalogue.published_fields
    )
    # ...and a field the engine's answer must match is refused, never published unchecked.
    for kind, where, problem in hostile_catalogue.refused:
        assert problem, (kind, where)


# ------------------------------------------------------------------ a hostile published result

HOSTILE_LINK = 'https://example.org/"><img/src=x/onerror=pwn(10)>'
"""A link the schema of a published result allows (http, no space, no control character) that
would close its attribute if it were not encoded."""

HOSTILE_REPORT = "99-hostile-engine.json"


def hostile_report(records: list[dict[str, Any]], version: str) -> dict[str, Any]:
    """A run of ``records`` (of the catalogue ``version``) as a published result with hostile
    text wherever a report carries words of its author or of its engine: every free-text field
    of the schema of a published result, the link, the engine's own words quoted as why a case
    failed (a line that is not JSON, an error it gives), and an answer of the engine's written
    into the file by hand. Each result still follows from its answers, so it is published."""
    adapter = Adapter()
    asked: list[str] = []

    def answer(line: str) -> str:
        request = json.loads(line)
        asked.append(request["id"])
        if len(asked) == 1:
            return hostile(None)  # not JSON: the runner quotes it
        if len(asked) == 2:
            said = {"protocol": request["protocol"], "id": request["id"], "error": hostile(None)}
            return json.dumps(said)
        return json.dumps(adapter.respond(line))

    results = run(FunctionEngine(answer), records, version)
    today = datetime.date.today().isoformat()
    document: dict[str, Any] = json.loads(
        json_report(results, "engine", version, submission("n", "v", HOSTILE_LINK, today))
    )
    for where, limit in RESULT_FIELDS:
        _set(document, where, hostile(limit))
    # An answer of the engine's, as the file holds it: a passed question made a failure whose
    # answer is the hostile text (so its case fails, and the summary counts it).
    case = next(c for c in document["cases"] if c["result"] == "pass" and c["questions"])
    case["result"] = case["questions"][0]["result"] = "fail"
    case["questions"][0]["actual"] = hostile(None)
    document["summary"]["pass"] -= 1
    document["summary"]["fail"] += 1
    return document


def test_every_field_of_a_published_result_is_published_hostile(tmp_path: Path) -> None:
    """The hostile report is one ``check`` and the build accept: hostile text is text, so it is
    published, as the built site's test shows, and never live."""
    catalogue = build_catalogue(FIXTURE, kept=kept_for_the_run())
    records = list(published_records(catalogue.published, catalogue.matrix))
    version = catalogue_version(records)
    document = hostile_report(records, version)
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / HOSTILE_REPORT).write_text(
        json.dumps(document, indent=1, ensure_ascii=False), encoding="utf-8"
    )
    published, problems = published_results(tmp_path, records, version)
    assert problems == []
    [found] = published
    assert found.name == hostile(dict(RESULT_FIELDS)[("submitted", "name")])
    assert found.link == HOSTILE_LINK and found.is_current(version)
    failed = [result.why_failed() or "" for result in found.results]
    assert sum(TRICKS[0] in why for why in failed) == 3, failed


# ------------------------------------------------------------------------- the built site

PLACES = {
    "claims": "more-claims",
    "plays": "turns",
    "turn": "turns",
    "deal": "setup",
    "match": "rounds",
    "impossible": "impossible-boards",
}
"""The topic each hostile case is published in: a page shows each of them."""


@pytest.fixture(scope="module")
def hostile_site(
    tmp_path_factory: pytest.TempPathFactory,
    project_copier: Callable[[Path], Path],
    hostile_catalogue: HostileCatalogue,
) -> Iterator[tuple[str, Path]]:
    """The site built with the hostile cases and the hostile rule, served on localhost."""
    skip_without_a_browser()

    def prepare(folder: Path) -> Path:
        root = project_copier(folder)
        for template in set(template_files().values()):
            # The hostile copy asks what its template asks: the template gives way to it, so
            # that the build does not refuse the two as duplicates.
            (root / template.resolve().relative_to(FIXTURE.resolve())).unlink()
        for kind, case in hostile_catalogue.cases.items():
            topic = PLACES.get(kind, "turns")
            text = yaml.safe_dump(case, sort_keys=False, allow_unicode=True)
            comment = "# " + hostile(None) + "\n"  # a case file's comments are shown too
            (root / "cases" / topic / f"99-hostile-{kind}.yaml").write_text(
                comment + text, encoding="utf-8"
            )
        index = root / "rules" / "index.yaml"
        rule = yaml.safe_dump([hostile_catalogue.rule()], sort_keys=False, allow_unicode=True)
        index.write_text(
            index.read_text(encoding="utf-8")
            + "\n"
            + "".join(f"  {line}\n" for line in rule.split("\n") if line),
            encoding="utf-8",
        )
        # An editor has read each hostile case's prose for its answers, and confirms it.
        assert run_main(["pin", "--root", str(root), "--reviewed", "--all-held"]) == 0
        # A published result of this catalogue, hostile in every field it has.
        catalogue = build_catalogue(root, kept=kept_for_the_run())
        records = list(published_records(catalogue.published, catalogue.matrix))
        report = hostile_report(records, catalogue_version(records))
        (root / "results").mkdir(exist_ok=True)
        (root / "results" / HOSTILE_REPORT).write_text(
            json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8"
        )
        return root

    site = shared_build(tmp_path_factory, "the hostile site", prepare)
    for url in served(site):
        yield url, site


INSPECT = """() => {
  const live = [];
  for (const element of document.querySelectorAll('*')) {
    for (const attribute of element.attributes) {
      const value = attribute.value.replace(/[\\x00-\\x20]/g, '').toLowerCase();
      if (attribute.name.startsWith('on')) live.push(`${element.tagName} ${attribute.name}`);
      if (/^(javascript|data|vbscript):/.test(value) && attribute.name !== 'content') {
        live.push(`${element.tagName} ${attribute.name}=${value.slice(0, 40)}`);
      }
      if (attribute.name === 'srcdoc') live.push(`${element.tagName} srcdoc`);
      if (attribute.name === 'style' && /color: ?red/.test(attribute.value)) {
        live.push(`${element.tagName} style=${attribute.value.slice(0, 40)}`);
      }
    }
    if (['STYLE', 'IFRAME', 'OBJECT', 'EMBED', 'BASE'].includes(element.tagName)) {
      live.push(`a ${element.tagName} element`);
    }
    if (element.tagName === 'SCRIPT' && /pwn/.test(element.textContent)) live.push('script');
    if (element.tagName === 'IMG' && element.getAttribute('src') === 'x') live.push('an IMG');
  }
  const meta = document.head.firstElementChild;
  const policy = meta && meta.getAttribute('http-equiv') === 'Content-Security-Policy'
    ? meta.getAttribute('content') : null;
  return {live, ran: window.__pwned, blocked: window.__policyViolations, policy};
}"""

RECORD_RUNS = "window.__pwned = []; window.pwn = (n) => window.__pwned.push(n);"


def _pages(site: Path) -> list[str]:
    return sorted(path.relative_to(site).as_posix() for path in site.rglob("*.html"))


def _shown_as_written(page: Any, url: str, hostile_catalogue: HostileCatalogue) -> None:
    """The hostile text is shown, exactly as written, where readers look for it."""
    for kind, case in hostile_catalogue.cases.items():
        page.goto(f"{url}/cases/{PLACES.get(kind, 'turns')}/{case['id']}.html")
        article = " ".join(page.locator("article").inner_text().split())
        assert " ".join(case["situation"].split()) in page.title(), kind
        assert " ".join(case["why"].split()).rstrip(".") in article, kind
        assert "1 in 591" not in article  # no marker in editor text is filled
    page.goto(f"{url}/cases/turns/hostile-plays.html")
    article = page.locator("article").inner_text()
    for play in hostile_catalogue.cases["plays"]["plays"]:
        assert play["move"] in article
    page.goto(f"{url}/rulings.html")
    rulings = " ".join(page.locator("article").inner_text().split())
    rule = hostile_catalogue.rule()
    for where, _ in RULE_FIELDS:
        text: Any = rule
        for name in where[2:]:  # below ("rules", "[]")
            text = text[0] if name == "[]" else text[name]
        assert " ".join(text.split()) in rulings, where
    page.goto(f"{url}/changes.html")
    changes = " ".join(page.locator("article").inner_text().split())
    for step in rule["history"]:
        assert (
            " ".join(step["why"].split()) in changes and " ".join(step["source"].split()) in changes
        )


def _published_result_shown_as_written(page: Any, url: str) -> None:
    """The hostile published result: its author's words and its engine's, shown as written."""
    page.goto(f"{url}/conformance.html")
    conformance = " ".join(page.locator("article").inner_text().split())
    limits = dict(RESULT_FIELDS)
    for field in (("submitted", "name"), ("submitted", "version")):
        assert " ".join(hostile(limits[field]).split()) in conformance, field
    assert conformance.count(TRICKS[0]) >= 3  # the engine's words, why three cases failed
    hrefs = page.eval_on_selector_all("article a[href]", "links => links.map(a => a.href)")
    assert HOSTILE_LINK in [unquote(href) for href in hrefs]


@pytest.mark.browser
def test_no_hostile_text_is_live_on_any_page(
    browser: Any, hostile_site: tuple[str, Path], hostile_catalogue: HostileCatalogue
) -> None:
    url, site = hostile_site
    context = fresh_context(browser)
    context.add_init_script(RECORD_RUNS + WATCH_POLICY)
    context.route(
        "**/*",
        lambda route: (
            route.continue_()
            if urlparse(route.request.url).hostname == "127.0.0.1"
            else route.abort()
        ),
    )
    page = context.new_page()
    problems: dict[str, Any] = {}
    pages = _pages(site)
    hostile_pages = {
        f"cases/{PLACES.get(kind, 'turns')}/{case['id']}.html"
        for kind, case in hostile_catalogue.cases.items()
    }
    assert hostile_pages <= set(pages) and {"index.html", "all-cases.html"} <= set(pages)
    for path in pages:
        page.goto(f"{url}/{path}")
        found = page.evaluate(INSPECT)
        if found["live"] or found["ran"] or found["blocked"] or not found["policy"]:
            problems[path] = found
    assert not problems, json.dumps(problems, indent=1)[:4000]
    _shown_as_written(page, url, hostile_catalogue)
    _published_result_shown_as_written(page, url)
    context.close()


@pytest.mark.browser
@pytest.mark.slow  # the engine starts in the page for each case: seconds of CPU each
def test_no_hostile_text_is_live_on_the_ask_page_either(
    browser: Any, hostile_site: tuple[str, Path], hostile_catalogue: HostileCatalogue
) -> None:
    url, _ = hostile_site
    context = fresh_context(browser)
    context.add_init_script(RECORD_RUNS + WATCH_POLICY)
    page = context.new_page()
    for kind, case in hostile_catalogue.cases.items():
        page.goto(f"{url}/cases/{PLACES.get(kind, 'turns')}/{case['id']}.html")
        href = page.get_attribute("a.oracle-ask-link", "href")
        assert href is not None, kind
        page.goto(f"{url}/cases/{PLACES.get(kind, 'turns')}/{href}")
        page.wait_for_selector("#oracle-loading[data-ready=true]", state="attached", timeout=90_000)
        page.wait_for_function(
            "() => !document.getElementById('ask-answer').hidden"
            " || !document.getElementById('ask-problem-box').hidden"
        )
        found = page.evaluate(INSPECT)
        assert not found["live"] and not found["ran"] and not found["blocked"], (kind, found)
        assert found["policy"] and "wasm-unsafe-eval" in found["policy"]
    context.close()
