"""The mkdocs hook: replay every case before the build and fill the pages' markers.

A drifted, invalid or unverified case stops ``mkdocs build`` with an error naming the case and its
file. The rendering itself lives in :mod:`oracle.site.render`; this file only adapts it to mkdocs.
"""

from __future__ import annotations

import json
import logging
from importlib import resources
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page

from oracle.site.bundle import PYODIDE_FILES, BundleError, bundle, pyodide_folder
from oracle.site.casepages import case_page_uri
from oracle.site.csp import THEME_PROBE, digest, inline_scripts, live_content, policy, with_policy
from oracle.casefile.schema import EDITOR_SCHEMA, refresh_editor_schema
from oracle.site.markup import text
from oracle.site.render import (
    CASES_DIR,
    GAMES_DIR,
    RULES_INDEX,
    CatalogueError,
    EngineApp,
    conformance,
    fill_markers,
    generated_blocks,
    render_case_pages,
    tabled_cases,
    topic_pages,
    unplaced_cases,
    verified_catalogue,
)

_state: dict[str, Any] = {}

DOWNLOADS = "downloads"
EXPORT_SCHEMA = "schotten-totten-catalogue.schema.json"

log = logging.getLogger("mkdocs.hooks.oracle")


def _root(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).resolve().parent


def _build_label() -> str:
    """``build 3``: mkdocs drops a log line it has printed before, so while ``mkdocs serve``
    rebuilds, each report carries its build's number and a repeated mistake is shown again."""
    _state["builds"] = _state.get("builds", 0) + 1
    return f"build {_state['builds']}"


def on_pre_build(config: MkDocsConfig) -> None:
    """Verify the whole catalogue before any page is rendered."""
    root = _root(config)
    label = _build_label()
    _state["label"] = label
    try:
        catalogue = verified_catalogue(root)
    except CatalogueError as error:
        raise PluginError(
            f"the verified catalogue cannot be published ({label}):\n" + "\n".join(error.problems)
        ) from None
    _state["catalogue"] = catalogue
    if refresh_editor_schema(root, catalogue.rules):
        log.info("wrote %s: the cards, rule ids and misreadings editors complete", EDITOR_SCHEMA)
    try:
        runtime = pyodide_folder(root)
        archive = bundle(root / RULES_INDEX)
    except BundleError as error:
        raise PluginError(f"the engine pages cannot be built ({label}): {error}") from None
    version = json.loads((runtime / "package.json").read_text(encoding="utf-8"))["version"]
    engine_app = EngineApp(
        runtime=f"assets/pyodide-{version}/",
        bundle=f"assets/engine/{archive.file_name}",
        digest=archive.digest,
        pyodide_version=version,
    )
    _state["runtime"] = (runtime, engine_app.runtime)
    _state["archive"] = (archive, engine_app.bundle)
    try:
        runs = conformance(catalogue)
    except CatalogueError as error:
        raise PluginError(
            f"the catalogue's export does not hold ({label}):\n" + "\n".join(error.problems)
        ) from None
    _state["conformance"] = runs
    _state["blocks"] = generated_blocks(
        catalogue, Path(config.docs_dir) / "_templates", root, engine_app, runs
    )
    _state["used"] = set()
    _state["shown"] = set()
    _state["engine_pages"] = set()
    _state.pop("theme_scripts", None)


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add a page for every published case, linked from its table (not listed in the nav)."""
    pages = {file.src_uri: file.content_string for file in files.documentation_pages()}
    # A case in no table would be missing from the site: say so before every page is rendered
    # (on_post_build checks again, from what the rendered pages did show).
    catalogue = _state["catalogue"]
    unplaced = unplaced_cases(catalogue, tabled_cases(catalogue, pages), _root(config))
    if unplaced:
        raise PluginError(
            f"published cases missing from the site ({_state['label']}):\n" + "\n".join(unplaced)
        )
    topics = topic_pages(pages)
    rendered = render_case_pages(
        _state["catalogue"], Path(config.docs_dir) / "_templates", topics, _root(config)
    )
    _state["case_titles"] = {
        case_page_uri(report.case): report.case.situation
        for report in _state["catalogue"].published
    }
    for uri, markdown in rendered.items():
        files.append(
            File.generated(config, uri, content=markdown, inclusion=InclusionLevel.NOT_IN_NAV)
        )
    # The browser runtime and the engine archive, served by the site itself (never a CDN).
    runtime, runtime_uri = _state["runtime"]
    for name in PYODIDE_FILES:
        files.append(File.generated(config, runtime_uri + name, abs_src_path=str(runtime / name)))
    archive, archive_uri = _state["archive"]
    files.append(File.generated(config, archive_uri, content=archive.content))
    # The catalogue for other engines, made from the verified cases at this build.
    for name, content in _state["conformance"].texts().items():
        files.append(File.generated(config, f"{DOWNLOADS}/{name}", content=content))
    schema = resources.files("oracle").joinpath("schema/export.schema.json").read_text("utf-8")
    files.append(File.generated(config, f"{DOWNLOADS}/{EXPORT_SCHEMA}", content=schema))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Replace the page's ``<!-- oracle:... -->`` markers with the rendered content."""
    title = _state["case_titles"].get(page.file.src_uri)
    if title is not None:  # a generated case page: editor text only, never markers
        page.meta["title"] = text(title)
        return markdown
    try:
        filled, used, shown = fill_markers(markdown, _state["blocks"], page.file.src_uri)
    except CatalogueError as error:
        raise PluginError(f"({_state['label']}) " + "\n".join(error.problems)) from None
    _state["used"] |= used
    _state["shown"] |= shown
    if "engine-app" in used:
        _state.setdefault("engine_pages", set()).add(page.file.src_uri)
    return filled


def on_post_template(output_content: str, template_name: str, config: MkDocsConfig) -> str:
    """The theme's own pages: the probe page teaches which inline scripts are the theme's."""
    if template_name == THEME_PROBE:
        _state["theme_scripts"] = frozenset(digest(s) for s in inline_scripts(output_content))
    if not template_name.endswith(".html"):
        return output_content
    return with_policy(output_content, policy(_theme_scripts()))


def _theme_scripts() -> frozenset[str]:
    scripts: frozenset[str] | None = _state.get("theme_scripts")
    if scripts is None:
        raise PluginError(
            f"the theme rendered no {THEME_PROBE} before the pages, so its inline scripts are"
            " unknown and no page can carry a Content-Security-Policy"
        )
    return scripts


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    """Refuse a page with anything live the site did not write; give it its policy."""
    allowed = _theme_scripts()
    problems = live_content(output, allowed)
    if problems:
        raise PluginError(
            f"({_state['label']}) {page.file.src_uri} holds what no page of this site may:\n"
            + "\n".join(problems)
        )
    engine = page.file.src_uri in _state.get("engine_pages", set())
    return with_policy(output, policy(allowed, engine=engine))


def on_post_build(config: MkDocsConfig) -> None:
    """Fail when generated content was never placed on a page: nothing may be lost."""
    missing = sorted(set(_state["blocks"]) - _state["used"])
    if missing:
        raise PluginError(
            "no page shows " + ", ".join(f"<!-- oracle:{name} -->" for name in missing)
        )
    unplaced = unplaced_cases(_state["catalogue"], _state["shown"], _root(config))
    if unplaced:
        raise PluginError("published cases missing from the site:\n" + "\n".join(unplaced))


def on_serve(server: Any, config: MkDocsConfig, builder: Any) -> Any:
    """Rebuild when a case, the rules index or a recorded game changes, not only the pages."""
    root = _root(config)
    server.watch(str(root / CASES_DIR))
    server.watch(str(root / Path(RULES_INDEX).parent))
    server.watch(str(root / GAMES_DIR))
    return server
