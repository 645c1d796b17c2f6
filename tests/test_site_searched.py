"""What the search plugin strips from a page, found only where it can start
(:mod:`oracle.site.searched`): the same as the plugin's own pattern finds anywhere."""

from __future__ import annotations

from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle.site.searched import (
    SEARCH_ATTRIBUTE,
    _holds_search_attribute,
    _without_search_attributes,
)

PIECES = (
    " ",
    "\n",
    "\t",
    "x",
    '"',
    "=",
    "data-search-",
    "data-search-exclude",
    "data-search-boost",
    'data-search-boost="2"',
    ' data-search-exclude="x"',
    "data-data-search-a=",
    "<figure ",
    ">",
    '<h2 data-search-exclude id="a">',
)
"""Pieces of HTML around the attributes the plugin strips, whole and broken."""


@settings(max_examples=examples(200))
@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_the_search_attributes_are_found_and_stripped_as_the_plugin_finds_them(
    html: str,
) -> None:
    """For any text, whether it holds an attribute the plugin strips, and the text stripped of
    them, are what the plugin's own pattern gives."""
    assert _holds_search_attribute(html) == (SEARCH_ATTRIBUTE.search(html) is not None)
    assert _without_search_attributes(html) == SEARCH_ATTRIBUTE.sub("", html)
