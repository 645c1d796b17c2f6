"""The node tree of plain block YAML, the few forms the project itself writes, read a line at a
time: the pages' board as a case file, read in the browser, where PyYAML has no libyaml and its
pure-Python scanner is most of a claim's time.

:func:`block_node_tree` reads only what it is sure of, and gives up (None) on everything else,
which :func:`oracle.casefile.source.parse_yaml` then hands to PyYAML as before: so a text it
reads gives the very node tree PyYAML composes (the same nodes, tags, values, styles and lines;
tests/test_blockyaml.py holds it to PyYAML's on the catalogue, on boards of the page and on
mangled texts), and every mistake, with its message, is still PyYAML's. Tags come from PyYAML's
own resolver, and values are PyYAML's own constructors' work afterwards: only the splitting of
the text into nodes is done here.

What it reads: comment lines before the first key; a mapping of ``key: value`` lines at one
indentation; a list of ``- `` items, each a plain value or a mapping whose first key shares the
item's line, indented deeper than its key; values plain (a letter or digit first, no ``:`` or
``#``), double-quoted on one line (the escapes JSON writes), folded (``>-``, lines of one
indentation), or a flow list ``[a, "b"]`` on one line. No blank line, tab, anchor, tag or
carriage return: any of them, or anything else, and PyYAML reads the text.
"""

from __future__ import annotations

import re

import yaml

_RESOLVER = yaml.SafeLoader("")
"""PyYAML's safe loader, for its resolver only: the tags the safe loader gives plain scalars."""

_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_]*):(?: (.*))?")
"""A key of a block mapping, and its value on the same line (None: the value is the block below)."""

_FIRST = r"[^\s\-?:,\[\]{}#&*!|>'\"%@`]"
"""The first character of a plain value: no space and none of YAML's indicators."""

_PLAIN = re.compile(_FIRST + r"[^:#]*(?<! )")
"""A plain value in a block: no indicator first, no ``:`` or ``#`` (which could end it), not
ending in a space (which YAML drops)."""

_FLOW_PLAIN = re.compile(_FIRST + r"[^:#,?\[\]{}]*(?<! )")
"""A plain item of a flow list: as in a block, and no ``,``, ``?``, bracket or brace (which end
it there)."""

_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
_ESCAPE = re.compile(r"\\(u[0-9A-Fa-f]{4}|.)")
_SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
"""The escapes JSON writes besides ``\\u``: each means in YAML what it means in JSON."""

_REFUSED = re.compile("[\t\r\ufeff\x85\u2028\u2029]")
"""Characters this reader leaves to PyYAML: tabs, the other line breaks, a byte-order mark.
(An indicator such as ``&``, ``*``, ``!``, ``|`` or ``%`` means something only where a value or
a line begins, where this reader takes none of them.)"""


class _Declined(Exception):
    """The text holds something this reader leaves to PyYAML."""


def block_node_tree(text: str) -> yaml.MappingNode | None:
    """The node tree PyYAML's composer builds for ``text``, or None where this reader cannot be
    sure of it (PyYAML reads it then). Every node's start mark holds its line, column and
    index, as PyYAML's do; its end mark is its start mark."""
    if _REFUSED.search(text) or yaml.reader.Reader.NON_PRINTABLE.search(text):
        return None
    try:
        return _Reader(text).document()
    except _Declined:
        return None


class _Reader:
    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")
        if self.lines[-1] == "":
            self.lines.pop()
        self.starts: list[int] = []
        at = 0
        for line in self.lines:
            self.starts.append(at)
            at += len(line) + 1
        self.at = 0

    def document(self) -> yaml.MappingNode:
        while self.at < len(self.lines) and self.lines[self.at].startswith("#"):
            self.at += 1  # a comment line before the first key
        if self.at == len(self.lines) or self.indent(self.at) != 0:
            raise _Declined
        return self.mapping(0)  # to the end: no line is less indented than the top

    def indent(self, number: int) -> int:
        line = self.lines[number]
        content = line.lstrip(" ")
        if not content or content.startswith("#"):
            raise _Declined  # a blank or a comment line among the keys
        return len(line) - len(content)

    def mark(self, number: int, column: int) -> yaml.Mark:
        return yaml.Mark("<unicode string>", self.starts[number] + column, number, column, None, 0)

    def mapping(self, column: int, first: str | None = None) -> yaml.MappingNode:
        """The mapping whose keys stand at ``column``; ``first``: its first key's line was begun
        by a list item's ``- `` (this is the rest of that line)."""
        pairs: list[tuple[yaml.Node, yaml.Node]] = []
        start = self.mark(self.at, column)
        while True:
            number = self.at
            line = first if first is not None else self.lines[number][column:]
            first = None
            found = _KEY.fullmatch(line)
            if found is None:
                raise _Declined
            word, value = found.groups()
            key_mark = self.mark(number, column)
            key = yaml.ScalarNode(_plain_tag(word), word, key_mark, key_mark, None)
            self.at += 1
            if value is None:
                pairs.append((key, self.block_below(column)))
            else:
                pairs.append((key, self.value(value, number, column + len(word) + 2, column)))
            if self.at == len(self.lines):
                break
            if self.indent(self.at) < column:
                break  # (a line indented deeper starts with a space: no key, so declined)
        return yaml.MappingNode("tag:yaml.org,2002:map", pairs, start, start, flow_style=False)

    def block_below(self, column: int) -> yaml.Node:
        """The mapping or list below a key at ``column``, indented deeper."""
        if self.at == len(self.lines):
            raise _Declined  # an empty value
        indent = self.indent(self.at)
        if indent <= column:
            raise _Declined  # an empty value, or a list as deep as its key
        if self.lines[self.at][indent:].startswith("- "):
            return self.sequence(indent)
        return self.mapping(indent)

    def sequence(self, column: int) -> yaml.SequenceNode:
        """The list whose ``- `` stand at ``column``."""
        items: list[yaml.Node] = []
        start = self.mark(self.at, column)
        while True:
            number = self.at
            rest = self.lines[number][column:]
            if not rest.startswith("- "):
                raise _Declined
            if _KEY.fullmatch(rest[2:]):
                items.append(self.mapping(column + 2, rest[2:]))
            else:
                self.at += 1
                items.append(self.value(rest[2:], number, column + 2, column))
            if self.at == len(self.lines):
                break
            if self.indent(self.at) < column:
                break  # (a line indented deeper starts with a space: no dash, so declined)
        return yaml.SequenceNode("tag:yaml.org,2002:seq", items, start, start, flow_style=False)

    def value(self, written: str, number: int, column: int, block: int) -> yaml.Node:
        """The value written from ``column`` of line ``number`` to its end (a folded one goes
        on below, deeper than ``block``, the column of its mapping)."""
        mark = self.mark(number, column)
        if written.startswith("["):
            return self.flow(written, number, column)
        if written == ">-":
            return yaml.ScalarNode("tag:yaml.org,2002:str", self.folded(block), mark, mark, ">")
        if written.startswith('"'):
            quoted = _QUOTED.match(written)
            if quoted is None or quoted.end() != len(written):
                raise _Declined
            return _quoted(quoted.group(1), mark)
        if not _PLAIN.fullmatch(written):
            raise _Declined
        return yaml.ScalarNode(_plain_tag(written), written, mark, mark, None)

    def flow(self, written: str, number: int, column: int) -> yaml.SequenceNode:
        """A list in brackets on one line, its items separated by ``, ``."""
        start = self.mark(number, column)
        items: list[yaml.Node] = []
        at = 1
        if written != "[]":
            while True:
                mark = self.mark(number, column + at)
                if written.startswith('"', at):
                    quoted = _QUOTED.match(written, at)
                    if quoted is None:
                        raise _Declined
                    items.append(_quoted(quoted.group(1), mark))
                    at = quoted.end()
                else:
                    plain = _FLOW_PLAIN.match(written, at)
                    if plain is None:
                        raise _Declined
                    items.append(
                        yaml.ScalarNode(_plain_tag(plain.group()), plain.group(), mark, mark, None)
                    )
                    at = plain.end()
                if written.startswith(", ", at) and written[at + 2 : at + 3] not in (
                    "",
                    " ",
                    "]",
                    ",",
                ):
                    at += 2
                elif at == len(written) - 1 and written.endswith("]"):
                    break
                else:
                    raise _Declined
        return yaml.SequenceNode("tag:yaml.org,2002:seq", items, start, start, flow_style=True)

    def folded(self, block: int) -> str:
        """The lines of a folded value below a key of the mapping at ``block``: all of one
        indentation, deeper than ``block``; joined by spaces, as ``>-`` folds them."""
        if self.at == len(self.lines):
            raise _Declined
        indent = self.indent(self.at)
        if indent <= block:
            raise _Declined
        parts: list[str] = []
        while self.at < len(self.lines):
            line = self.lines[self.at]
            content = line.lstrip(" ")
            if len(line) - len(content) < indent and content:
                break
            if len(line) - len(content) != indent or not content:
                raise _Declined  # a blank line, or a line more indented: kept apart, not folded
            parts.append(content)
            self.at += 1
        return " ".join(parts)


def _plain_tag(value: str) -> str:
    tag: str = _RESOLVER.resolve(yaml.ScalarNode, value, (True, False))  # type: ignore[no-untyped-call]
    return tag


def _quoted(inside: str, mark: yaml.Mark) -> yaml.ScalarNode:
    """A double-quoted scalar, its escapes read as PyYAML reads them (only JSON's, and no
    ``\\u`` of a surrogate, which JSON would pair and YAML would not)."""
    return yaml.ScalarNode("tag:yaml.org,2002:str", _ESCAPE.sub(_escaped, inside), mark, mark, '"')


def _escaped(found: re.Match[str]) -> str:
    code = found.group(1)
    if code in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[code]
    if code.startswith("u") and len(code) == 5 and not 0xD800 <= int(code[1:], 16) <= 0xDFFF:
        return chr(int(code[1:], 16))
    raise _Declined


__all__ = ["block_node_tree"]
