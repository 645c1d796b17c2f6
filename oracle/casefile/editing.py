"""Values of a case file rewritten in place: each changed value replaced where it is written, in
the style it is written in (plain, quoted, folded, a flow or a block list), and nothing else of
the file touched, comments, order, quoting and layout included. ``schotten-oracle pin`` edits
editors' files through this, and only when asked."""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Sequence
from typing import Any

import yaml

from oracle.casefile.source import DataPath, composed_yaml, loaded_yaml

WIDTH = 100
"""The width a rewritten folded text is wrapped to, as the case files are written."""


class EditError(ValueError):
    """A value that cannot be written back in place (the file keeps its text)."""


def edited_text(
    text: str, changes: Sequence[tuple[DataPath, Any]], after: dict[str, str] | None = None
) -> str:
    """``text`` with each value at a data path set: replaced where the key is written, inserted
    where it is missing (after the sibling key ``after`` names for it, or after its siblings'
    last key: ``because`` beside ``expect``), or, for None, removed with its key. Raises
    :class:`EditError` if the result does not read back as the same data with those values
    set."""
    root = composed_yaml(text)
    if not isinstance(root, yaml.MappingNode):
        raise EditError("the file is not a mapping of keys")
    edits: list[tuple[int, int, str]] = []
    for where, value in changes:
        edit = _edit(text, root, where, value, (after or {}).get(str(where[-1])))
        if edit is not None:
            edits.append(edit)
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    _check_reads_back(text, changes)
    return text


def _edit(
    text: str, root: yaml.MappingNode, where: DataPath, value: Any, after: str | None
) -> tuple[int, int, str] | None:
    parent = _node_at(root, where[:-1])
    if not isinstance(parent, yaml.MappingNode):
        raise EditError(f"{_named(where[:-1])} is not a mapping")
    key = where[-1]
    for key_node, value_node in parent.value:
        if key_node.value == key:
            if value is None:
                return _removal(text, key_node, value_node)
            return (
                value_node.start_mark.index,
                _value_end(text, value_node),
                _written(value, value_node, key_node.start_mark.column, text),
            )
    if value is None:
        return None
    siblings = [pair for pair in parent.value if pair[0].value == after] or parent.value
    last_key, last_value = siblings[-1]
    column = last_key.start_mark.column
    at = _line_end(text, _value_end(text, last_value))
    line = " " * column + keyed(key, fitted_scalar(value, column, len(str(key)) + 2))
    return at, at, line if line.endswith("\n") else line + "\n"


def _node_at(root: yaml.Node, where: DataPath) -> yaml.Node:
    node = root
    for part in where:
        if isinstance(node, yaml.MappingNode):
            found = [value for key, value in node.value if key.value == part]
            if not found:
                raise EditError(f"no {_named(where)} in the file")
            node = found[0]
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
            node = node.value[part]
        else:
            raise EditError(f"no {_named(where)} in the file")
    return node


def _named(where: DataPath) -> str:
    return ".".join(str(part) for part in where) or "top level"


def _value_end(text: str, node: yaml.Node) -> int:
    """Where a value's own text ends: a block scalar's end mark lies past its line breaks (and
    any blank lines after it), which belong to the file's layout, not to the value."""
    end = node.end_mark.index
    while end > node.start_mark.index and text[end - 1] in "\n \t":
        end -= 1
    return end


def _line_end(text: str, index: int) -> int:
    newline = text.find("\n", index)
    return len(text) if newline < 0 else newline + 1


def _removal(text: str, key: yaml.Node, value: yaml.Node) -> tuple[int, int, str]:
    start = text.rfind("\n", 0, key.start_mark.index) + 1
    if text[start : key.start_mark.index].strip():
        raise EditError(f"{key.value!r} shares its line with another key: remove it by hand")
    return start, _line_end(text, _value_end(text, value)), ""


def _written(value: Any, node: yaml.Node, column: int, text: str) -> str:
    """``value`` written in the style of the node it replaces."""
    if isinstance(value, str):
        if isinstance(node, yaml.ScalarNode) and node.style in (">", "|"):
            return _folded(value, column + 2)
        if isinstance(node, yaml.ScalarNode) and node.style in ('"', "'"):
            return _quoted(value, node.style)
        key_width = node.start_mark.column - column
        return fitted_scalar(value, column, key_width)
    if isinstance(node, yaml.SequenceNode) and not node.flow_style and isinstance(value, list):
        indent = " " * node.start_mark.column
        return f"\n{indent}".join(f"- {_flow(item)}" for item in value) if value else "[]"
    return _flow(value)


def keyed(key: object, written: str) -> str:
    """``key: written``, without a space after the colon when the value starts on the next
    line (a block list), which would leave the key's line ending in a space."""
    space = "" if written.startswith("\n") else " "
    return f"{key}:{space}{written}"


def fitted_scalar(value: Any, column: int, key_width: int) -> str:
    """A value written where none was: plain or quoted on the key's line if it fits, folded
    below it if not."""
    if isinstance(value, list) and value and column + key_width + len(_flow(value)) > WIDTH:
        indent = " " * (column + 2)  # a long list goes below its key, an item a line
        return "".join(f"\n{indent}- {_flow(item)}" for item in value)
    if not isinstance(value, str):
        return _flow(value)
    inline = yaml_scalar(value)
    if column + key_width + len(inline) <= WIDTH:
        return inline
    return _folded(value, column + 2)


def _folded(value: str, indent: int) -> str:
    lines = textwrap.wrap(value, WIDTH - indent, break_long_words=False, break_on_hyphens=False)
    return ">-\n" + "\n".join(" " * indent + line for line in lines)


def _quoted(value: str, style: str) -> str:
    if style == "'":
        return "'" + value.replace("'", "''") + "'"
    return json.dumps(value, ensure_ascii=False)


_PLAIN_WORDS = re.compile(r"[A-Za-z][A-Za-z0-9 ,.;()'-]*[A-Za-z0-9.)]")
"""Text YAML surely reads back as itself when written plain: a letter first, then only letters,
digits, spaces and ``,.;()'-`` (no ``:``, ``#`` or quote first), not ending in a space."""
_YAML_WORDS = {"yes", "no", "on", "off", "true", "false", "null"}
"""Words YAML 1.1 reads as something other than text, in any case."""


def _reads_back_plain(value: str) -> bool:
    if _PLAIN_WORDS.fullmatch(value) and value.lower() not in _YAML_WORDS:
        return True  # the common case, without running the YAML parser
    try:
        return bool(yaml.safe_load(f"key: {value}\n") == {"key": value})
    except yaml.YAMLError:
        return False


def yaml_scalar(value: Any) -> str:
    """``value`` as one YAML scalar on one line: plain where YAML reads it back as the same text,
    double-quoted where it would not (a ``: ``, a ``#``, a leading quote, ``yes``...). Every
    scalar the project writes into a case file is written here, so what an editor types reads
    back as typed."""
    if not isinstance(value, str):
        return json.dumps(value)
    plain_reads = _reads_back_plain(value)
    safe = plain_reads and value == value.strip() and not value.startswith(("[", "{", "'", '"'))
    return value if safe and "#" not in value and ": " not in value else _quoted(value, '"')


def _flow(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_flow(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {_flow(item)}" for key, item in value.items()) + "}"
    return yaml_scalar(value)


def _check_reads_back(text: str, changes: Sequence[tuple[DataPath, Any]]) -> None:
    try:
        data = loaded_yaml(text)
    except yaml.YAMLError as error:
        raise EditError(f"the rewritten file is no longer YAML: {error}") from None
    for where, value in changes:
        node: Any = data
        for part in where[:-1]:
            node = node[part]
        got = node.get(where[-1]) if isinstance(node, dict) else None
        if isinstance(got, str):
            got = " ".join(got.split())
        if got != (" ".join(value.split()) if isinstance(value, str) else value):
            raise EditError(f"{_named(where)} does not read back as written")


def line_ending(written: str) -> str:
    """The line ending a file is written with: CRLF (an editor on Windows) or CR alone (an old
    Mac editor) when most of its line breaks are so, else LF. ``check`` reads all three."""
    crlf = written.count("\r\n")
    endings = {"\n": written.count("\n") - crlf, "\r\n": crlf, "\r": written.count("\r") - crlf}
    return max(endings, key=lambda ending: (endings[ending], ending == "\n"))


def as_lf(written: str, ending: str) -> str:
    """``written`` with its ``ending`` line breaks as LF, the only ones the editing knows."""
    return written if ending == "\n" else written.replace(ending, "\n")


def with_ending(text: str, ending: str) -> str:
    """``text`` (LF line breaks) written back with the file's own ``ending``."""
    return text if ending == "\n" else text.replace("\n", ending)
