"""The MkDocs plugin: replay every case before the build and fill the pages' markers.

A drifted, invalid or unverified case stops ``mkdocs build`` with every problem of the catalogue,
in the words ``schotten-oracle check`` and pytest use. The rendering itself lives in
:mod:`oracle.site.render` and its neighbours; this module only adapts it to MkDocs. What a build
needs is kept in a :class:`SiteBuild` the plugin makes afresh for each build, so the rebuilds of
``mkdocs serve`` never see each other's state.
"""

from __future__ import annotations

import json
import logging
import posixpath
import re
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import jinja2
import markdown as markdown_
from jinja2.runtime import Context
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.structure.pages import log as _pages_log
from mkdocs.structure.toc import get_toc
from mkdocs.utils.meta import get_data
from mkdocs.utils.templates import TemplateContext

from oracle.casefile.vocabulary import CASES_DIR, RULES_INDEX
from oracle.catalogue import Catalogue, CatalogueError, published_answers, verified_catalogue
from oracle.conformance.results import RESULTS_DIR
from oracle.protocol.schema import CATALOGUE_SCHEMA, PROTOCOL_SCHEMA, schema_text
from oracle.site.blocks import GAMES_DIR, Block, EngineApp, fill_markers, generated_blocks
from oracle.site.bundle import PYODIDE_FILES, Bundle, BundleError, bundle, pyodide_folder
from oracle.site.casepages import CasePageSource
from oracle.site.csp import THEME_PROBE, PageCheck, digest, inline_scripts, policy, with_policy
from oracle.site.enginecache import (
    ENGINE_FILES,
    SERVICE_WORKER,
    content_named,
    engine_files_module,
    service_worker,
    with_cache_headers,
)
from oracle.site.engines import Conformance, conformance
from oracle.site.fonts import font_files
from oracle.site.frames import CaseFrames
from oracle.site.history import files_added
from oracle.site.markup import text
from oracle.site.render import CasePages, render_case_pages, unplaced_cases
from oracle.site.searched import HeldFromSearch, after_search, for_search
from oracle.site.serving import (
    CODE_FOLDERS,
    BuildProblems,
    code_fingerprint,
    release_waiting_pages,
    restart_server,
    served_app,
)
from oracle.site.shapes import CaseShapes
from oracle.site.snapshot import engine_snapshot, snapshot_name
from oracle.site.streamed import StreamedFile
from oracle.site.tablerows import HeldRows, RowsProblem, put_rows

DOWNLOADS = "downloads"

PUBLISHED_ANSWERS = "assets/published-answers.json"
"""Each published case by the digest of its answers: the Ask page says when a board is one."""
EXPORT_SCHEMA = "schotten-totten-catalogue.schema.json"
PROTOCOL_SCHEMA_FILE = "schotten-totten-protocol.schema.json"
"""The protocol's schema as published; it refers to the catalogue's by this name."""

CASE_PAGE_META = frozenset({"search"})
"""What a case page's front matter may set: it is read only when the page is written, after
MkDocs has chosen the page's template and title."""

log = logging.getLogger("mkdocs.plugins.oracle")


@dataclass
class SiteBuild:
    """One build of the site: the verified catalogue and everything made from it, and what the
    pages have used so far."""

    label: str
    root: Path
    catalogue: Catalogue
    blocks: dict[str, Block]
    conformance: Conformance | None
    """The export and the runs, until the export's files are added (then they hold it, and let
    it go once written: a large catalogue's export is not kept while the pages are written)."""
    runtime: Path
    fonts: list[tuple[Path, str]]
    archive: Bundle
    engine_app: EngineApp
    used: set[str] = field(default_factory=set)
    shown: set[str] = field(default_factory=set)
    engine_pages: set[str] = field(default_factory=set)
    case_pages: CasePages | None = None
    files: Files | None = None
    theme_scripts: frozenset[str] | None = None
    page_check: PageCheck | None = None
    """The page policy's check of the built pages, once the theme's scripts are known."""
    case_navs: dict[str, str] = field(default_factory=dict)
    """The theme's navigation as the case pages of a folder show it, rendered for the first."""
    case_frames: CaseFrames = field(default_factory=CaseFrames)
    case_converter: markdown_.Markdown | None = None
    """The Markdown every case page is converted with, reset for each (:meth:`CasePage.convert`)."""
    case_shapes: CaseShapes = field(default_factory=CaseShapes)
    """The skeletons the case pages are converted from, by shape (:mod:`oracle.site.shapes`)."""
    held_rows: dict[str, list[HeldRows]] = field(default_factory=dict)
    """The rows of the tables of cases after their first, by page, until the page is converted
    (:mod:`oracle.site.tablerows`)."""
    """The theme's page for each kind of case page, rendered once (:mod:`oracle.site.frames`)."""


def _root(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).resolve().parent


def start_build(config: MkDocsConfig, label: str) -> SiteBuild:
    """Verify the whole catalogue and make what every page needs, or stop the build."""
    root = _root(config)
    try:
        catalogue = verified_catalogue(root)
    except CatalogueError as error:
        raise PluginError(
            f"the verified catalogue cannot be published ({label}):\n" + "\n".join(error.problems)
        ) from None
    try:
        runtime = pyodide_folder(root)
        fonts = font_files(root)
        archive = bundle(root / RULES_INDEX)
    except BundleError as error:
        raise PluginError(f"the engine pages cannot be built ({label}): {error}") from None
    version = json.loads((runtime / "package.json").read_text(encoding="utf-8"))["version"]
    engine_app = EngineApp(
        runtime=f"assets/pyodide-{version}/",
        bundle=f"assets/engine/{archive.file_name}",
        digest=archive.digest,
        pyodide_version=version,
        snapshot=f"assets/engine/{snapshot_name(version, archive)}",
    )
    try:
        runs = conformance(catalogue)
    except CatalogueError as error:
        raise PluginError(
            f"the catalogue's export does not hold ({label}):\n" + "\n".join(error.problems)
        ) from None
    catalogue.let_go_of_working()  # the export is run and the matrix made: the pages need no more
    templates = Path(config.docs_dir) / "_templates"
    held_rows: dict[str, list[HeldRows]] = {}
    return SiteBuild(
        label=label,
        root=root,
        catalogue=catalogue,
        blocks=generated_blocks(catalogue, templates, root, engine_app, runs, held_rows),
        held_rows=held_rows,
        conformance=runs,
        runtime=runtime,
        fonts=fonts,
        archive=archive,
        engine_app=engine_app,
    )


SPHINX_ROLE = re.compile(r":(?:class|func|mod|data|meth|attr|exc|obj):<code>(~?)([\w.]+)</code>")
"""A Sphinx role in a docstring as Markdown renders it: ``:class:<code>~engine.Move</code>``."""


def _without_role(found: re.Match[str]) -> str:
    name = found[2].rsplit(".", 1)[-1] if found[1] else found[2]
    return f"<code>{name}</code>"


class CasePage(Page):
    """A case's page, converted to HTML only when it is written
    (:meth:`OraclePlugin.on_page_context`)."""

    source: CasePageSource | None = None
    """While the page is written, its source, whose board waits for the search plugin to have
    indexed the page."""
    held_from_search: HeldFromSearch | None = None
    """While the page is written, what stands in its board's and its excluded sections' places
    for the search plugin."""

    def render(self, config: MkDocsConfig, files: Files) -> None:
        """Nothing yet: MkDocs converts every page before it writes any, which would hold a
        large catalogue's pages in memory all at once (and its Markdown is not made yet). Its
        table of contents is an empty one meanwhile, as plugins reading it expect (autorefs)."""
        self.content = ""
        self.toc = get_toc([])

    def convert(
        self,
        markdown: str,
        config: MkDocsConfig,
        files: Files,
        converter: markdown_.Markdown,
        shapes: CaseShapes,
    ) -> None:
        """Convert ``markdown``, made as the page is written, as MkDocs converts any page
        (:meth:`Page.render`), but with ``converter``, the Markdown the build's case pages share
        (:func:`_case_converter`), reset (making one with its extensions for each page cost
        about a sixth of converting it), and from the skeleton of the page's shape where it has
        one (:mod:`oracle.site.shapes`)."""
        self.markdown = markdown
        done = shapes.converted(markdown, self.file, files, config, converter)
        self.content = done.content
        self.toc = get_toc(done.toc_tokens)
        self._title_from_render = done.title
        self.present_anchor_ids = set(done.anchor_ids)
        if _pages_log.getEffectiveLevel() > logging.DEBUG:
            self.links_to_anchors = done.links_to_anchors


def _case_converter(build: SiteBuild, config: MkDocsConfig) -> markdown_.Markdown:
    """The Markdown the case pages of ``build`` are converted with, made as MkDocs makes one
    for each page (:meth:`Page.render`), once."""
    if build.case_converter is None:
        build.case_converter = markdown_.Markdown(
            extensions=config["markdown_extensions"],
            extension_configs=config["mdx_configs"] or {},
        )
    return build.case_converter


class OracleConfig(Config):  # type: ignore[no-untyped-call]  # MkDocs untyped
    """The plugin's options: none (everything it reads lies in the project)."""


class OraclePlugin(BasePlugin[OracleConfig]):  # type: ignore[no-untyped-call]  # MkDocs untyped
    """Publishes the verified catalogue: case pages, tables and figures, the engine pages' runtime
    and archive, the export for other engines, and a Content-Security-Policy on every page."""

    def __init__(self) -> None:
        self.builds = 0
        self.current: SiteBuild | None = None
        self.serve_failure: str | None = None
        """Under ``mkdocs serve``, the problems of the last rebuild while it failed."""

    @property
    def build(self) -> SiteBuild:
        if self.current is None:
            raise PluginError("the oracle plugin's build did not start (on_pre_build)")
        return self.current

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        """Verify the whole catalogue before any page is rendered. MkDocs drops a log line it
        has printed before, so while ``mkdocs serve`` rebuilds, each report carries its build's
        number and a repeated mistake is shown again."""
        self.builds += 1
        self.current = None
        self.current = start_build(config, f"build {self.builds}")

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        """Add a page for every published case, linked from its table (not listed in the nav),
        the engine pages' runtime and archive, and the export."""
        build = self.build
        # The catalogue has checked that a page shows each topic's table; on_post_build
        # checks again, from what the rendered pages did show.
        catalogue = build.catalogue
        templates = Path(config.docs_dir) / "_templates"
        try:
            build.case_pages = render_case_pages(
                catalogue, templates, catalogue.shown_topics, build.root, files_added(build.root)
            )
        except OSError as error:  # a case file removed since the catalogue read it
            raise PluginError(
                f"({build.label}) a case file cannot be read again for its page: {error}"
            ) from None
        for uri in build.case_pages:
            page_file = File.generated(config, uri, content="", inclusion=InclusionLevel.NOT_IN_NAV)
            CasePage(None, page_file, config)
            files.append(page_file)
        _add_served_files(files, config, build)
        return files

    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        """Replace the page's ``<!-- oracle:... -->`` markers with the rendered content."""
        build = self.build
        title = self._case_pages.situation(page.file.src_uri)
        if title is not None:  # a case page: rendered when it is written, never with markers
            page.meta["title"] = text(title)
            page.meta["template"] = CASE_PAGE_TEMPLATE
            return markdown
        try:
            filled, used, shown = fill_markers(markdown, build.blocks, page.file.src_uri)
        except CatalogueError as error:
            raise PluginError(f"({build.label}) " + "\n".join(error.problems)) from None
        build.used |= used
        build.shown |= shown
        if "engine-app" in used:
            build.engine_pages.add(page.file.src_uri)
        return filled

    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """The Engine reference is made from the engine's docstrings, which name other names
        with Sphinx's roles (``:class:`~engine.game.moves.Move```): each shows as the code it
        marks, without the role, and a name after ``~`` by its last part, as Sphinx shows it.
        A table of cases gets the rows held from Markdown (:mod:`oracle.site.tablerows`)."""
        html = SPHINX_ROLE.sub(_without_role, html)
        uri = page.file.src_uri
        for rows in self.build.held_rows.pop(uri, []):
            try:
                html = put_rows(
                    html, rows, uri, lambda target: files.get_file_from_path(target) is not None
                )
            except RowsProblem as error:
                raise PluginError(f"({self.build.label}) {error}") from None
        return html

    def on_env(
        self, env: jinja2.Environment, *, config: MkDocsConfig, files: Files
    ) -> jinja2.Environment:
        """Keep the site's files: a case page rendered as it is written links to them. Let the
        case pages share the theme's navigation (:func:`_shared_nav`), and write each into the
        theme's page rendered once for its kind (:func:`_framed_case_page`)."""
        self.build.files = files
        theme = env.loader
        assert theme is not None  # MkDocs loads the theme's templates from its folders
        env.loader = jinja2.ChoiceLoader(
            [
                jinja2.DictLoader(
                    {
                        THEME_NAV: "{{ oracle_nav() }}",
                        CASE_PAGE_TEMPLATE: "{{ oracle_case_page() }}",
                    }
                ),
                jinja2.PrefixLoader({THEME_PREFIX: theme}),
                theme,
            ]
        )
        env.globals["oracle_nav"] = jinja2.pass_context(partial(_shared_nav, self.build))
        env.globals["oracle_case_page"] = jinja2.pass_context(
            partial(_framed_case_page, self.build)
        )
        return env

    @event_priority(50)  # before the search plugin indexes the page
    def _render_case_page(
        self, context: TemplateContext, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext:
        """Render a case's page just before it is written, and only then: MkDocs converts every
        page before it writes any, so a catalogue of thousands of cases would otherwise be held
        in memory all at once, Markdown and HTML (on_post_page lets it go again). The search
        plugin, next, indexes it with its board's stub in the board's place
        (:mod:`oracle.site.searched`): it skips the board whole, yet reading the board was most
        of its time on the page."""
        if not isinstance(page, CasePage):
            return context
        uri = page.file.src_uri
        source = self._case_pages.source(uri)
        markdown, meta = get_data(source.markdown)
        late = sorted(set(meta) - CASE_PAGE_META)
        if late:
            raise PluginError(
                f"({self.build.label}) the front matter of {uri} sets {', '.join(late)}, which"
                " MkDocs reads before a case page is rendered; a case page may set only "
                + ", ".join(sorted(CASE_PAGE_META))
            )
        page.meta.update(meta)
        assert self.build.files is not None  # on_env keeps them before any page is written
        converter = _case_converter(self.build, config)
        page.convert(markdown, config, self.build.files, converter, self.build.case_shapes)
        page.content, page.held_from_search = for_search(source, page.content or "")
        page.source = source
        return context

    @event_priority(-50)  # after the search plugin has indexed the page
    def _place_board(
        self, context: TemplateContext, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext:
        """Put a case page's board in its place, once the search plugin has indexed the page."""
        if isinstance(page, CasePage) and page.source is not None:
            assert page.held_from_search is not None  # for_search gave it with the source
            page.content = after_search(page.source, page.content or "", page.held_from_search)
            page.source = page.held_from_search = None
        return context

    on_page_context = CombinedEvent(_render_case_page, _place_board)

    @property
    def _case_pages(self) -> CasePages:
        pages = self.build.case_pages
        if pages is None:
            raise PluginError("the oracle plugin added no case pages (on_files)")
        return pages

    def on_post_template(
        self, output_content: str, *, template_name: str, config: MkDocsConfig
    ) -> str:
        """The theme's own pages: the probe page teaches which inline scripts are the theme's."""
        if template_name == THEME_PROBE:
            scripts = inline_scripts(output_content)
            self.build.theme_scripts = frozenset(digest(script) for script in scripts)
        if not template_name.endswith(".html"):
            return output_content
        return with_policy(output_content, policy(self._theme_scripts()))

    def _theme_scripts(self) -> frozenset[str]:
        scripts = self.build.theme_scripts
        if scripts is None:
            raise PluginError(
                f"the theme rendered no {THEME_PROBE} before the pages, so its inline scripts are"
                " unknown and no page can carry a Content-Security-Policy"
            )
        return scripts

    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        """Refuse a page with anything live the site did not write; give it its policy."""
        allowed = self._theme_scripts()
        if self.build.page_check is None:
            self.build.page_check = PageCheck(allowed)
        parts = self.build.case_frames.parts_of(output)
        check = self.build.page_check
        problems = check.problems(output) if parts is None else check.parts_problems(parts)
        if problems:
            raise PluginError(
                f"({self.build.label}) {page.file.src_uri} holds what no page of this site may:\n"
                + "\n".join(problems)
            )
        engine = page.file.src_uri in self.build.engine_pages
        if isinstance(page, CasePage):
            page.markdown = page.content = None  # written: let the case page go (on_page_context)
        return with_policy(output, policy(allowed, engine=engine))

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """Fail when generated content was never placed on a page: nothing may be lost."""
        build = self.build
        missing = sorted(set(build.blocks) - build.used)
        if missing:
            raise PluginError(
                "no page shows " + ", ".join(f"<!-- oracle:{name} -->" for name in missing)
            )
        if build.held_rows:
            raise PluginError(
                "rows of a table were never written on their page: "
                + ", ".join(sorted(build.held_rows))
            )
        unplaced = unplaced_cases(build.catalogue, build.shown, build.root)
        if unplaced:
            raise PluginError("published cases missing from the site:\n" + "\n".join(unplaced))

    def on_serve(self, server: Any, *, config: MkDocsConfig, builder: Any) -> Any:
        """Rebuild when a case, the rules index, a recorded game or a published result changes,
        not only the pages; start again when the engine's or the oracle's code changes; show
        the problems while a rebuild fails, and let live reload run under each page's policy
        (:mod:`oracle.site.serving`)."""
        root = _root(config)
        server.watch(str(root / CASES_DIR))
        server.watch(str(root / Path(RULES_INDEX).parent))
        server.watch(str(root / GAMES_DIR))
        if (root / RESULTS_DIR).is_dir():  # the published results the Conformance page shows
            server.watch(str(root / RESULTS_DIR))
        for folder in CODE_FOLDERS:
            if (root / folder).is_dir():
                server.watch(str(root / folder))
        started_with = code_fingerprint(root)
        build = builder

        def rebuild() -> None:
            if code_fingerprint(root) != started_with:
                restart_server()
            with BuildProblems() as problems:
                try:
                    build()
                except Exception as error:
                    self.serve_failure = problems.text(error)
                    release_waiting_pages(server)
                    raise
            self.serve_failure = None

        server.builder = rebuild
        cached = with_cache_headers(server.get_app(), self._content_named)
        server.set_app(served_app(cached, lambda: self.serve_failure))
        return server

    def _content_named(self) -> tuple[str, ...]:
        """The files the served build names by their content (none while it is rebuilt)."""
        current = self.current
        return () if current is None else content_named(current.engine_app)


THEME_NAV = "partials/nav.html"
"""The theme's navigation, which every page includes."""
THEME_PREFIX = "oracle-theme"
"""The prefix that names the theme's own template where the plugin stands in for it."""
THEME_PAGE = "main.html"
"""The theme's template of a page."""
CASE_PAGE_TEMPLATE = "oracle-case-page.html"
"""The template MkDocs renders a case page with: the theme's page, from its kind's frame."""


def _theme_page(context: Context) -> str:
    """The theme's page for the page being written, as MkDocs renders it."""
    template = context.environment.get_template(THEME_PAGE)
    return "".join(template.root_render_func(template.new_context(context.get_all(), True)))


def _framed_case_page(build: SiteBuild, context: Context) -> str:
    """A case page as the theme renders it, written into the theme's page rendered once for the
    case pages of its kind (:mod:`oracle.site.frames`): about 1.3 ms a page less."""
    page = context.get("page")
    if not isinstance(page, CasePage):
        raise PluginError(f"{CASE_PAGE_TEMPLATE} renders the case pages only")
    return build.case_frames.page(page, partial(_theme_page, context))


def _shared_nav(build: SiteBuild, context: Context) -> str:
    """The theme's navigation for the page being written, as the theme renders it; a case page
    takes it from the first case page of its folder. Case pages are not in the navigation, so
    none of them marks an entry active, and the links are relative to the page's folder: the
    theme renders the same navigation for each of them, about half of what a page costs it."""
    template = context.environment.get_template(f"{THEME_PREFIX}/{THEME_NAV}")
    page = context.get("page")
    if not isinstance(page, CasePage):
        return "".join(template.root_render_func(template.new_context(context.get_all(), True)))
    folder = posixpath.dirname(page.url)
    shared = build.case_navs.get(folder)
    if shared is None:
        shared = "".join(template.root_render_func(template.new_context(context.get_all(), True)))
        build.case_navs[folder] = shared
    return shared


def _add_served_files(files: Files, config: MkDocsConfig, build: SiteBuild) -> None:
    """The browser runtime, the engine archive and the fonts, served by the site itself (never a
    CDN), with the service worker that keeps the engine's files in the browser and the module
    that names them, and the catalogue for other engines, made from the verified cases at this
    build."""
    engine_app = build.engine_app
    for name in PYODIDE_FILES:
        source = str(build.runtime / name)
        files.append(File.generated(config, engine_app.runtime + name, abs_src_path=source))
    files.append(File.generated(config, engine_app.bundle, content=build.archive.content))
    try:
        snapshot = engine_snapshot(build.runtime, engine_app.pyodide_version, build.archive)
    except BundleError as error:
        raise PluginError(f"the engine pages cannot be built ({build.label}): {error}") from None
    files.append(File.generated(config, engine_app.snapshot, content=snapshot))
    for source_path, uri in build.fonts:
        files.append(File.generated(config, uri, abs_src_path=str(source_path)))
    templates = Path(config.docs_dir) / "_templates"
    files.append(
        File.generated(config, SERVICE_WORKER, content=service_worker(engine_app, templates))
    )
    files.append(File.generated(config, ENGINE_FILES, content=engine_files_module(engine_app)))
    files.append(
        File.generated(
            config,
            PUBLISHED_ANSWERS,
            content=json.dumps(published_answers(build.catalogue), sort_keys=True),
        )
    )
    conformance = build.conformance
    if conformance is None:
        raise PluginError(f"({build.label}) the site's files were added twice in one build")
    for name, pieces in conformance.pieces().items():
        files.append(StreamedFile.made_by(config, f"{DOWNLOADS}/{name}", pieces))
    build.conformance = None  # the export's files hold it until MkDocs writes them
    for source, published in (
        (CATALOGUE_SCHEMA, EXPORT_SCHEMA),
        (PROTOCOL_SCHEMA, PROTOCOL_SCHEMA_FILE),
    ):
        files.append(
            File.generated(config, f"{DOWNLOADS}/{published}", content=schema_text(source))
        )
