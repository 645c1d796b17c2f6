"""The real site build: strict mkdocs, the verified table in the HTML, no request leaving the site.

The tests run ``mkdocs build`` in a subprocess on a copy of the project (a whole build takes about
ten seconds of CPU, so it runs with ``-m slow``, as CI does; one stopped by the catalogue, about a
second). The flipped verdict, the malformed case and the cases no table shows share one stopped
build, whose report must name each.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from case_files import passing_case
from conftest import kept_for_the_run, skip_without_the_runtime

from engine import Verdict
from oracle.catalogue import Catalogue, build_catalogue

ROOT = Path(__file__).resolve().parent.parent


def build(root: Path) -> subprocess.CompletedProcess[str]:
    """The strict site build of the project at ``root`` (skipped without the browser runtime)."""
    skip_without_the_runtime()
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(root / "site")],
        cwd=root,
        capture_output=True,
        text=True,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
        timeout=300,
    )


@pytest.mark.slow  # a whole build, about ten seconds of CPU: CI runs it, and builds the site itself
def test_the_site_builds_with_the_verified_table_and_nothing_external(
    project_copy: Path, seed_rows: list[tuple[str, Verdict]]
) -> None:
    root = project_copy
    result = build(root)
    assert result.returncode == 0, result.stderr
    page = (root / "site" / "edge-cases.html").read_text()
    table = page[page.index("<table>") : page.index("</table>")]
    verdicts = re.findall(r"<strong>(Granted|Refused)</strong>", table)
    assert verdicts[: len(seed_rows)] == [verdict.label.capitalize() for _, verdict in seed_rows]
    assert "oracle:" not in page
    for report in build_catalogue(root, kept=kept_for_the_run()).published:
        case_page = root / "site" / "cases" / report.case.topic / f"{report.case.id}.html"
        text = case_page.read_text()
        board = "oracle-written-board" if report.case.impossible else "oracle-board"
        assert f'class="{board}"' in text, case_page
        assert "The engine&rsquo;s answer" in text or "The engine's answer" in text
        assert f'href="../../cases/{report.case.topic}/{report.case.id}.html"' not in text
    search_index = (root / "site" / "search" / "search_index.json").read_text()
    assert "last-three-in-your-hand" in search_index
    # Search reads titles and answers: no board, table, rule list or case file is indexed, and
    # the edge-case table's rows and the rulings rank before the other pages.
    entries = json.loads(search_index)["docs"]
    for entry in entries:
        assert not entry["location"].endswith(("#the-case-file", "#the-rules-it-checks"))
        assert not re.search(r"<(table|figure)\b", entry["text"]), entry
        if entry["location"].startswith(("cases/", "ask.html", "play.html")):
            assert not re.search(r"<pre\b|yaml-language-server", entry["text"]), entry
    boosts = {entry["location"]: entry.get("boost", 1) for entry in entries}
    other_case = next(uri for uri in boosts if uri.startswith("cases/more-claims/"))
    assert boosts["cases/claims/last-three-in-your-hand.html"] > boosts[other_case]
    assert boosts["rulings.html"] > boosts["formations.html"]
    for html in (root / "site").rglob("*.html"):
        text = html.read_text()
        head = text.split("<head>", 1)[1].lstrip()  # the policy comes before any script
        assert head.startswith('<meta http-equiv="Content-Security-Policy"'), html
        # make serve's live reload (its script, and its hash in the policy) is never published.
        assert "livereload" not in text, html
        for tag in re.findall(r"<(?:script|link|img)\b[^>]*>", text):
            assert not re.search(r"(src|href)=\"(https?:)?//", tag), (html.name, tag)


@dataclass(frozen=True)
class BrokenBuild:
    """One build of a project with a flipped verdict, a malformed case file and two cases no
    table shows: one stopped build, whose report must name each."""

    result: subprocess.CompletedProcess[str]
    flipped_line: int
    """The line of the claim whose expected verdict was flipped."""


MARKED_CASE = "# <!-- oracle:verdict-table nowhere -->\n" + passing_case(
    "marked",
    "A case whose comment holds a verdict-table marker",
    "A marker in a case file is its text, not a table of the site",
)


@pytest.fixture(scope="module")
def broken_build(
    tmp_path_factory: pytest.TempPathFactory, project_copier: Callable[[Path], Path]
) -> BrokenBuild:
    """The project with a flipped verdict and a malformed case file, and two cases no table
    shows: one in a new topic, and one whose comment holds the verdict-table marker of its own
    topic (one build of about a second of CPU, not one for each)."""
    root = project_copier(tmp_path_factory.mktemp("broken"))
    case = root / "cases" / "claims" / "02-last-three-in-your-hand.yaml"
    text = case.read_text()
    case.write_text(text.replace("expect: refused", "expect: granted"))
    (root / "cases" / "claims" / "90-broken.yaml").write_text("id: broken\nsituation: [\n")
    seed = root / "cases" / "claims" / "08-three-twos-beat-a-colour.yaml"
    lonely = root / "cases" / "new-topic" / "lonely.yaml"
    lonely.parent.mkdir()
    lonely.write_text(seed.read_text().replace("id: three-twos-beat-a-colour", "id: lonely"))
    marked = root / "cases" / "nowhere" / "01-marked.yaml"
    marked.parent.mkdir()
    marked.write_text(MARKED_CASE)
    return BrokenBuild(build(root), text.splitlines().index("  - stone: 3") + 1)


def test_a_flipped_verdict_fails_the_build_naming_the_file_and_line(
    broken_build: BrokenBuild,
) -> None:
    result = broken_build.result
    assert result.returncode != 0
    assert (
        f"cases/claims/02-last-three-in-your-hand.yaml:{broken_build.flipped_line}: case"
        " 'last-three-in-your-hand', stone 3: expected granted, the engine says refused"
    ) in result.stderr
    assert "Traceback" not in result.stderr


def test_a_malformed_case_fails_the_build_in_one_line(broken_build: BrokenBuild) -> None:
    result = broken_build.result
    assert result.returncode != 0
    assert "cases/claims/90-broken.yaml:3: YAML syntax error" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_case_in_no_table_fails_the_build(broken_build: BrokenBuild) -> None:
    assert broken_build.result.returncode != 0
    assert (
        "cases/new-topic/lonely.yaml:2: case 'lonely': no page shows the topic 'new-topic'; add"
        " <!-- oracle:verdict-table new-topic --> to a page in site_src/"
    ) in broken_build.result.stderr


def test_a_marker_in_a_case_file_does_not_place_its_topic(broken_build: BrokenBuild) -> None:
    """A verdict-table marker inside a case file's comment must not count as showing the topic."""
    assert broken_build.result.returncode != 0
    assert (
        "cases/nowhere/01-marked.yaml:2: case 'marked': no page shows the topic 'nowhere'"
        in broken_build.result.stderr
    )


def test_a_case_no_rendered_page_showed_fails_the_build_after_the_pages(
    catalogue: Catalogue,
) -> None:
    """The last net, behind the check of the tables before the pages are rendered: a published
    case that no rendered page showed fails the build once the pages are written."""
    from types import SimpleNamespace

    from mkdocs.exceptions import PluginError

    from oracle.site.plugin import OraclePlugin, SiteBuild

    published = catalogue.published
    lost = published[-1].case
    plugin = OraclePlugin()
    plugin.current = SiteBuild(
        label="build 1",
        root=catalogue.root,
        catalogue=catalogue,
        blocks={},
        conformance=None,  # not reached after the pages
        runtime=catalogue.root,
        fonts=[],
        archive=None,  # type: ignore[arg-type]
        engine_app=None,  # type: ignore[arg-type]
        shown={report.case.id for report in published} - {lost.id},
    )
    config = SimpleNamespace(config_file_path=str(catalogue.root / "mkdocs.yml"))
    with pytest.raises(PluginError) as caught:
        plugin.on_post_build(config=config)  # type: ignore[arg-type]
    assert str(caught.value).splitlines() == [
        "published cases missing from the site:",
        f"{lost.path.relative_to(catalogue.root)}:{lost.line}: case {lost.id!r} (topic"
        f" {lost.topic!r}) is in no table; add <!-- oracle:verdict-table {lost.topic} --> to a"
        " page",
    ]


def test_each_build_numbers_its_report_so_serve_never_hides_a_repeat(catalogue_copy: Path) -> None:
    from types import SimpleNamespace

    from mkdocs.exceptions import PluginError

    from oracle.site.plugin import OraclePlugin

    case = catalogue_copy / "cases" / "claims" / "07-no-wrap-around.yaml"
    case.write_text(case.read_text().replace("expect: refused", "expect: granted"))
    config = SimpleNamespace(
        config_file_path=str(catalogue_copy / "mkdocs.yml"),
        docs_dir=str(catalogue_copy / "site_src"),
    )
    plugin = OraclePlugin()
    messages = []
    for _ in range(2):
        with pytest.raises(PluginError) as caught:
            plugin.on_pre_build(config=config)  # type: ignore[arg-type]
        messages.append(str(caught.value))
    assert messages[0] != messages[1]
    assert messages[0].splitlines()[1:] == messages[1].splitlines()[1:]


def test_a_page_holding_anything_live_is_refused_by_the_plugin_in_one_message() -> None:
    """The page policy's rule as the build applies it to each written page (in process; the
    whole build that meets it runs with -m slow)."""
    from types import SimpleNamespace

    from mkdocs.exceptions import PluginError

    from oracle.site.frames import CaseFrames
    from oracle.site.plugin import OraclePlugin

    plugin = OraclePlugin()
    frames = CaseFrames()
    plugin.current = SimpleNamespace(  # type: ignore[assignment]
        label="build 3",
        theme_scripts=frozenset(),
        engine_pages=frozenset(),
        page_check=None,
        case_frames=frames,
    )
    page = SimpleNamespace(file=SimpleNamespace(src_uri="turns.md"))
    html = "<html><head></head><body><p>Turns</p>{}</body></html>"
    written = plugin.on_post_page(html.format(""), page=page, config=None)  # type: ignore[arg-type]
    assert "Content-Security-Policy" in written
    with pytest.raises(PluginError) as caught:
        plugin.on_post_page(
            html.format('<img src="x" onerror="steal()">'),
            page=page,  # type: ignore[arg-type]
            config=None,  # type: ignore[arg-type]
        )
    assert str(caught.value).splitlines() == [
        "(build 3) turns.md holds what no page of this site may:",
        "<img> has an inline handler onerror",
    ]
    # A case page written from its frame is read in the frame's parts, and refused alike.
    bad = html.format('<img src="x" onerror="steal()">')
    head, body = bad.split("<body>")
    frames.last = (bad, [(head + "<body>", True), (body, False)])
    with pytest.raises(PluginError) as framed:
        plugin.on_post_page(bad, page=page, config=None)  # type: ignore[arg-type]
    assert str(framed.value) == str(caught.value)
    assert frames.last is None


@pytest.mark.slow
def test_a_page_holding_anything_live_fails_the_build(project_copy: Path) -> None:
    """The page policy's rule, read at build time: nothing live that the site did not write."""
    root = project_copy
    page = root / "site_src" / "turns.md"
    page.write_text(page.read_text() + '\n<img src="x" onerror="steal()">\n')
    result = build(root)
    assert result.returncode != 0
    assert "turns.md holds what no page of this site may:" in result.stderr
    assert "<img> has an inline handler onerror" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_a_case_page_front_matter_read_too_late_fails_the_build(project_copy: Path) -> None:
    """Case pages are rendered as they are written, after MkDocs has chosen each page's template:
    front matter it would have read earlier stops the build rather than being ignored."""
    root = project_copy
    template = root / "site_src" / "_templates" / "case_page.md.j2"
    template.write_text(
        template.read_text().replace("search:\n", "template: other.html\nsearch:\n", 1)
    )
    result = build(root)
    assert result.returncode != 0
    assert "sets template, which MkDocs reads before a case page is rendered" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_fonts_come_from_the_locked_packages_or_the_build_says_how_to_install_them(
    tmp_path: Path,
) -> None:
    """The build serves the fonts the stylesheet names from the npm packages the lock file pins:
    missing, or at another version than pinned, it stops with the command that installs them."""
    from oracle.site.bundle import BundleError
    from oracle.site.fonts import FONT_FILES, FONTS_FOLDER, font_files

    with pytest.raises(BundleError, match=r"fonts are not installed .*npm ci"):
        font_files(tmp_path)
    for package, name in FONT_FILES:
        folder = tmp_path / "node_modules" / package
        (folder / "files").mkdir(parents=True, exist_ok=True)
        (folder / "files" / name).write_bytes(b"wOF2")
        (folder / "package.json").write_text('{"version": "5.3.0"}', encoding="utf-8")
    found = font_files(tmp_path)
    assert [uri for _, uri in found] == [FONTS_FOLDER + name for _, name in FONT_FILES]
    stylesheet = (ROOT / "site_src" / "assets" / "stylesheets" / "fonts.css").read_text()
    assert sorted(set(re.findall(r"\.\./fonts/([\w.-]+)", stylesheet))) == sorted(
        name for _, name in FONT_FILES
    )
    (tmp_path / "package-lock.json").write_text(
        '{"packages": {"node_modules/@fontsource/roboto": {"version": "5.4.0"}}}',
        encoding="utf-8",
    )
    with pytest.raises(BundleError, match=r"holds @fontsource/roboto 5.3.0 but .* pins 5.4.0"):
        font_files(tmp_path)


def test_a_streamed_file_is_written_as_mkdocs_writes_its_text_and_then_let_go(
    tmp_path: Path,
) -> None:
    """The export's files are written a piece at a time: the bytes MkDocs writes for the whole
    text (UTF-8, line breaks as they are), and what made them is let go once written."""
    from mkdocs.config import load_config
    from mkdocs.structure.files import File

    from oracle.site.streamed import StreamedFile

    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n")
    config = load_config(str(tmp_path / "mkdocs.yml"))
    config.plugins._current_plugin = "oracle"  # as while the plugin adds the site's files
    text = "".join(f"{n} é\r\n" if n % 3 else f"{n}\n" for n in range(10_000))
    whole = File.generated(config, "downloads/x.json", content=text)
    streamed = StreamedFile.made_by(config, "downloads/x.json", lambda: iter(text.splitlines(True)))
    assert streamed.content_string == text and streamed.content_bytes == text.encode()
    whole.copy_file()
    written = Path(whole.abs_dest_path).read_bytes()
    Path(whole.abs_dest_path).unlink()
    streamed.copy_file()
    assert Path(streamed.abs_dest_path).read_bytes() == written == text.encode()
    assert streamed.pieces is None
    with pytest.raises(RuntimeError, match="written already"):
        _ = streamed.content_string


def test_the_case_pages_of_a_folder_show_the_navigation_the_theme_rendered_for_the_first(
    tmp_path: Path,
) -> None:
    """The theme's navigation is rendered once for the case pages of a folder (none of them is in
    the navigation, and its links are relative to the folder); every other page has its own."""
    from types import SimpleNamespace
    from typing import Any, cast

    import jinja2
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import File, Files
    from mkdocs.structure.pages import Page

    from oracle.site.plugin import THEME_NAV, CasePage, OraclePlugin

    config = MkDocsConfig()
    config.load_dict({"site_name": "x", "docs_dir": str(tmp_path), "use_directory_urls": False})
    theme = jinja2.DictLoader(
        {"main.html": f"<{{% include '{THEME_NAV}' %}}>", THEME_NAV: "{{ page.url }} {{ turn }}"}
    )
    plugin = OraclePlugin()
    plugin.current = cast(Any, SimpleNamespace(files=None, case_navs={}))
    env = plugin.on_env(jinja2.Environment(loader=theme), config=config, files=Files([]))
    pages: list[tuple[str, type[Page]]] = [
        ("cases/a/1.md", CasePage),
        ("cases/a/2.md", CasePage),
        ("cases/b/3.md", CasePage),
        ("index.md", Page),
        ("index.md", Page),
    ]
    shown = [
        env.get_template("main.html").render(
            page=kind(None, File(uri, None, str(tmp_path), use_directory_urls=False), config),
            turn=turn,
        )
        for turn, (uri, kind) in enumerate(pages)
    ]
    assert shown == [
        "<cases/a/1.html 0>",
        "<cases/a/1.html 0>",
        "<cases/b/3.html 2>",
        "<index.html 3>",
        "<index.html 4>",
    ]


FRAME_THEME = (
    "<title>{{ page.meta.title }} - x</title>{% if page.canonical_url %}"
    "<link href='{{ page.canonical_url }}'>{% endif %}"
    "<a href='{{ (page.toc | first).url }}'>skip</a><h2>{{ page.meta.title }}</h2>"
    "{% set first = page.toc | first %}{% for item in first.children %}[{{ item.title }}]"
    "{% endfor %}{% if '<h1' not in page.content %}<h1>{{ page.title }}</h1>{% endif %}"
    "<main>{{ page.content }}</main>"
)
"""A theme page reading what the theme reads of a case page."""


def _framed_pages(
    tmp_path: Path, theme_page: str, site_url: str = ""
) -> tuple[list[str], list[str], int]:
    """Case pages written by the plugin's framed template, each as the theme renders it whole,
    and how many times the plugin rendered the theme's page."""
    from types import SimpleNamespace
    from typing import Any, cast

    import jinja2
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import File, Files
    from mkdocs.structure.toc import AnchorLink, TableOfContents

    from oracle.site.frames import CaseFrames
    from oracle.site.plugin import CASE_PAGE_TEMPLATE, THEME_PAGE, CasePage, OraclePlugin

    config = MkDocsConfig()
    config.load_dict(
        {
            "site_name": "x",
            "docs_dir": str(tmp_path),
            "use_directory_urls": False,
            "site_url": site_url or None,
        }
    )
    renders = 0

    def counted() -> str:
        nonlocal renders
        renders += 1
        return ""

    theme = jinja2.DictLoader({THEME_PAGE: "{{ counted() }}" + theme_page})
    plugin = OraclePlugin()
    plugin.current = cast(Any, SimpleNamespace(files=None, case_navs={}, case_frames=CaseFrames()))
    env = plugin.on_env(jinja2.Environment(loader=theme), config=config, files=Files([]))
    env.globals["counted"] = counted
    whole_env = jinja2.Environment(loader=theme)
    whole_env.globals["counted"] = lambda: ""
    framed, whole = [], []
    titles = ["A &#58; b", "Two", "Three &#60;x&#62;", "why", "Five", "Six"]
    for number, title in enumerate(titles):
        folder = "a" if number < 5 else "b"
        file = File(f"cases/{folder}/{number}.md", None, str(tmp_path), use_directory_urls=False)
        page = CasePage(None, file, config)
        page.meta = {"title": title, "search": {"boost": 2}, "template": CASE_PAGE_TEMPLATE}
        page.markdown = "x"
        heading = AnchorLink(title, f"h-{number}", 1)
        heading.children = [AnchorLink("Why", "why", 2)]
        page.toc = TableOfContents([heading])
        page.content = f"<h1 id='h-{number}'>{title}</h1><p>{number}</p>"
        framed.append(env.get_template(CASE_PAGE_TEMPLATE).render(page=page))
        whole.append(whole_env.get_template(THEME_PAGE).render(page=page))
    return framed, whole, renders


def test_case_pages_are_written_into_their_kind_s_frame_as_the_theme_renders_them(
    tmp_path: Path,
) -> None:
    """A case page is the theme's page rendered once for its folder's case pages, with its own
    title, skip link, content and address put in: the same page, byte for byte, as the theme
    renders it whole; the first pages of each kind are rendered whole as well, as the check."""
    from oracle.site.frames import CHECKED

    for site_url in ("", "https://example.org/site/"):
        framed, whole, renders = _framed_pages(tmp_path, FRAME_THEME, site_url)
        assert framed == whole
        assert "A &#58; b - x" in framed[0] and "<p>2</p>" in framed[2]
        assert ("https://example.org/site/cases/a/3.html" in framed[3]) == bool(site_url)
        # Two kinds (folders a and b): a frame and CHECKED whole pages for the first, a frame
        # and one whole page for the second's only page.
        assert renders == (1 + CHECKED) + (1 + 1)


def test_a_case_page_whose_frame_does_not_come_out_as_the_theme_renders_it_is_rendered_whole(
    tmp_path: Path,
) -> None:
    """A theme that reads the title otherwise than as it is (in capitals here) makes frames that
    do not come out as the page: every page of that kind is rendered whole, and comes out so."""
    framed, whole, renders = _framed_pages(tmp_path, FRAME_THEME + "{{ page.meta.title | upper }}")
    assert framed == whole
    assert renders == 6 + 2  # every page whole, and a frame for each kind
