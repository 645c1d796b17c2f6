"""The case pages converted from their shape's skeleton (:mod:`oracle.site.shapes`): each comes
out as Markdown converts the page whole, or is converted whole."""

from __future__ import annotations

from pathlib import Path

import markdown
import pytest
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.utils.meta import get_data

from oracle.catalogue import Catalogue
from oracle.site.render import render_case_pages
from oracle.site.shapes import CHECKED, CaseShapes, Converted, converted, shape_of

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "site_src" / "_templates"
PAGES = ["index.md", "edge-cases.md", "rulings.md", "ask.md"]


@pytest.fixture
def site(tmp_path: Path) -> tuple[MkDocsConfig, Files]:
    """A site configured with the project's Markdown, and its pages."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: shapes\nuse_directory_urls: false\nmarkdown_extensions:\n"
        "  - attr_list\n  - md_in_html\n  - admonition\n  - pymdownx.details\n  - tables\n"
        "  - toc:\n      permalink: true\n"
    )
    config = load_config(str(tmp_path / "mkdocs.yml"))
    return config, Files([_new_file(config, uri) for uri in PAGES])


def _new_file(config: MkDocsConfig, uri: str) -> File:
    return File(uri, src_dir=config.docs_dir, dest_dir=config.site_dir, use_directory_urls=False)


def _converter(config: MkDocsConfig) -> markdown.Markdown:
    return markdown.Markdown(
        extensions=config["markdown_extensions"], extension_configs=config["mdx_configs"]
    )


def _page(number: int, title: str = "", code: str = "", ask: str = "") -> str:
    """A case page's Markdown as the site's template writes it, its texts held."""
    code = code or f'id: board-{number}\nwhy: "a <b> & c"\n'
    return (
        f"# {title or f'Board {number}&#58; a game of seed {number}'}\n\n"
        "oracleheld7d1c000000z\n\n"
        "Base game · [back to the table](../../edge-cases.md) · case"
        " <code>oracleheld7d1c000001z</code>\n{: .oracle-meta }\n\n"
        '<div class="oracle-board-slot"></div>\n\n'
        f'<a class="oracle-ask-link" href="../../ask.html#v2={ask or f"Ab_{number}-x"}">Open'
        " this board on the Ask the engine page</a>, to change it and ask again.\n\n"
        "## The engine's answer\n\n**oracleheld7d1c000002z**\n\noracleheld7d1c000003z\n\n"
        "## The rules it checks { data-search-exclude }\n\n"
        "- **oracleheld7d1c000004z** ([our ruling](../../rulings.md#claim-x)):"
        " oracleheld7d1c000005z\n\n"
        "## The case file { data-search-exclude }\n\n"
        f"```yaml\n{code}```\n"
    )


def _file(config: MkDocsConfig, files: Files, uri: str) -> File:
    file = _new_file(config, uri)
    files.append(file)
    return file


def _same(one: Converted, other: Converted) -> None:
    assert one.content == other.content
    assert one.toc_tokens == other.toc_tokens
    assert (one.title, one.anchor_ids) == (other.title, other.anchor_ids)
    assert one.links_to_anchors == other.links_to_anchors


def test_the_pages_of_one_shape_come_out_as_markdown_converts_each_whole(
    site: tuple[MkDocsConfig, Files],
) -> None:
    """Pages differing in their title, Ask link and case file (with characters HTML escapes)
    share a skeleton: from the first checked pages on, each is its skeleton filled, and is what
    converting it whole makes, links to its own anchors and others' included."""
    config, files = site
    shapes = CaseShapes()
    converter, alone = _converter(config), _converter(config)
    for number in range(8):
        file = _file(config, files, f"cases/claims/board-{number}.md")
        page = _page(number)
        _same(
            shapes.converted(page, file, files, config, converter),
            converted(page, file, files, config, alone),
        )
    assert len(shapes.skeletons) == 1
    assert None not in shapes.skeletons.values()
    assert sum(shapes.checked.values()) == CHECKED


def test_a_title_whose_anchor_another_heading_takes_is_converted_whole(
    site: tuple[MkDocsConfig, Files],
) -> None:
    """A title whose anchor is a heading's of the skeleton moves that heading's anchor in the
    page: such a page is converted whole, and the shape's skeleton stays."""
    config, files = site
    shapes = CaseShapes()
    converter, alone = _converter(config), _converter(config)
    for number, title in enumerate(["One", "Two", "Three", "Four", "Why", "The case file"]):
        file = _file(config, files, f"cases/claims/titled-{number}.md")
        page = _page(number, title=title)
        done = shapes.converted(page, file, files, config, converter)
        _same(done, converted(page, file, files, config, alone))
    assert 'id="the-case-file_1"' in done.content
    assert None not in shapes.skeletons.values()


@pytest.mark.parametrize(
    "code",
    ["id: a\n\twhy: tab\n", "id: a\n   \nwhy: b\n", "id: a\r\n", "id: oracleshapecode7d1c\n"],
)
def test_a_case_file_markdown_would_change_has_no_shape(code: str) -> None:
    """Tabs, carriage returns, lines of spaces and the stand-ins' own names are not put into a
    skeleton as written: such a page is converted whole."""
    assert shape_of(_page(1, code=code)) is None
    assert shape_of(_page(1)) is not None


def test_every_case_page_of_the_fixture_catalogue_comes_out_from_its_skeleton_as_whole(
    catalogue: Catalogue, site: tuple[MkDocsConfig, Files]
) -> None:
    """Each case page of the fixture catalogue, converted often enough to be filled from its
    skeleton, is what converting it whole makes; most have a shape."""
    config, files = site
    pages = render_case_pages(catalogue, TEMPLATES, catalogue.shown_topics, catalogue.root)
    converter, alone = _converter(config), _converter(config)
    shaped = 0
    for uri in pages:
        text, _ = get_data(pages.source(uri).markdown)
        file = _file(config, files, uri)
        whole = converted(text, file, files, config, alone)
        shapes = CaseShapes()
        for _ in range(CHECKED + 3):
            _same(shapes.converted(text, file, files, config, converter), whole)
        shaped += shape_of(text) is not None
        assert None not in shapes.skeletons.values()
    assert shaped > len(pages) // 2
