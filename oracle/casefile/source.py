"""Read YAML into plain data, remembering the line of every value, and refuse anything unsafe.

Only plain data gets through: mappings with string keys, lists, strings, numbers, booleans and
null. A tag that would construct an object (``!!python/object``, or any local ``!tag``) and a key
written twice are errors, each with its line, rather than surprises later.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, TypeAlias

import yaml

from oracle.casefile.blockyaml import block_node_tree

DataPath: TypeAlias = tuple[str | int, ...]
"""Where a value sits in a document: keys and list indexes from the top."""

ECHO_LIMIT = 60
"""The most characters of a reader's text that a message repeats."""


def echoed(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` quoted for a message, clipped to ``limit`` characters (a 5,000-digit number is
    not worth repeating): the oracle's own, as the engine quotes what it cannot read."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[: limit - 10]!r}... ({len(text):,} characters)"


_FastLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser where PyYAML was built with it (it keeps every line mark), else Python's."""


def composed_yaml(text: str) -> yaml.Node | None:
    """The node tree of YAML ``text`` (marks and styles as Python's parser gives them), parsed
    by libyaml where it can be; a text it refuses is parsed again in Python, which raises its
    own error, the one the callers' messages were written for."""
    try:
        return yaml.compose(text, Loader=_FastLoader)
    except yaml.YAMLError:
        return yaml.compose(text, Loader=yaml.SafeLoader)


def loaded_yaml(text: str) -> Any:
    """``yaml.safe_load(text)``, parsed by libyaml where it can be (a text it refuses is read
    again in Python, which raises its own error)."""
    try:
        return yaml.load(text, Loader=_FastLoader)
    except yaml.YAMLError:
        return yaml.safe_load(text)


BLOCK_READER = _FastLoader is yaml.SafeLoader
"""Whether plain block YAML is split into nodes by :mod:`oracle.casefile.blockyaml`: where
PyYAML has no libyaml (the browser), whose parser is as fast as that reader, and gives the same
nodes."""

_PLAIN_TAGS = frozenset(
    "tag:yaml.org,2002:" + name for name in ("str", "int", "float", "bool", "null", "seq", "map")
)


class SourceError(ValueError):
    """A problem in an input file, located: ``path:line: problem`` when printed."""

    def __init__(
        self,
        path: Path | str,
        line: int | None,
        problem: str,
        others: Sequence[SourceError] = (),
    ) -> None:
        self.path = Path(path)
        self.line = line
        self.problem = problem
        self.others = tuple(others)
        """The problems of the same file found beside this one, each reported on its own line."""
        super().__init__(self.located)

    def every(self) -> tuple[SourceError, ...]:
        """This problem and the others found in the same file, in the file's order."""
        return (self, *self.others)

    @classmethod
    def of_all(cls, problems: Sequence[SourceError]) -> SourceError:
        """One error carrying every problem found in a file, the first in the file leading."""
        ordered = sorted(problems, key=lambda problem: problem.line or 0)
        first = ordered[0]
        return cls(first.path, first.line, first.problem, ordered[1:])

    @property
    def located(self) -> str:
        """The one-line message an editor sees."""
        return self.located_from(None)

    def located_from(self, root: Path | None) -> str:
        """The message, with the file shown relative to ``root`` when it lies below it."""
        path = shown_path(self.path, root)
        where = f"{path}:{self.line}" if self.line else path
        return f"{where}: {self.problem}"

    def lines_from(self, root: Path | None) -> list[str]:
        """Every problem of :meth:`every`, a located line each."""
        return [problem.located_from(root) for problem in self.every()]


def shown_path(path: Path, root: Path | None) -> str:
    """``path`` relative to ``root`` when it lies below it, else as it is; quoted, with its
    escapes, when it holds a character that is not printable (a new line or an escape in a file
    name cannot forge a line of a report)."""
    shown = _relative(path, root)
    return shown if shown.isprintable() else ascii(shown)


def _relative(path: Path, root: Path | None) -> str:
    if root is not None:
        # Links are not followed: the path may be a link to nowhere, or a loop.
        absolute, top = Path(os.path.abspath(path)), Path(os.path.abspath(root))
        if absolute.is_relative_to(top):
            return str(absolute.relative_to(top))
        try:
            return str(absolute.parent.resolve().joinpath(absolute.name).relative_to(top.resolve()))
        except (ValueError, OSError, RuntimeError):
            pass
    return str(path)


@dataclass(frozen=True)
class LocatedDocument:
    """A parsed document and the 1-based line of each value (a mapping value: its key's line)."""

    path: Path
    data: Any
    lines: dict[DataPath, int]

    def line_of(self, where: DataPath) -> int:
        """The line of the value at ``where``, or of its nearest enclosing value."""
        where = tuple(where)
        while where not in self.lines and where:
            where = where[:-1]
        return self.lines.get(where, 1)

    def error(self, where: DataPath, problem: str) -> SourceError:
        """A :class:`SourceError` located at the value at ``where``."""
        return SourceError(self.path, self.line_of(where), problem)


MAX_FILE_BYTES = 64 * 1024
"""The largest case file read: a case is a few kilobytes."""

MAX_NESTING = 16
"""The deepest nesting of brackets and braces: a case needs four, and PyYAML's scanner slows
down sharply with every bracket left open."""

_LINE_BREAKS_YAML_ALSO_COUNTS = {"\x85": "NEL (U+0085)", "\u2028": "U+2028", "\u2029": "U+2029"}

BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""Characters that reorder the text around them out of sight: what a reader sees would not be
what the file says (the "Trojan Source" trick)."""

_CONTROL_NAMES = {
    0x00: "NUL",
    0x07: "BEL",
    0x08: "BACKSPACE",
    0x0B: "VERTICAL TAB",
    0x0C: "FORM FEED",
    0x0D: "CARRIAGE RETURN",
    0x1B: "ESCAPE",
    0x7F: "DELETE",
    0x85: "NEXT LINE",
}

_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")
"""Characters drawn as nothing that Unicode counts neither as spaces nor as format characters."""

HIDING_CONTROLS = frozenset("\ufff9\ufffa\ufffb")
"""The interlinear annotation characters: what lies between them may be shown, or hidden."""


HIDDEN_INSIDE = frozenset("\u200b\u2060\ufeff\u180e")
"""Characters drawn as nothing that no text needs inside it: the zero-width space, the word
joiner, a byte-order mark past the start, the Mongolian vowel separator. (The zero-width joiner
and non-joiner are left alone: scripts and emoji need them.)"""

_TAGS = "\U000e0000-\U000e007f"
"""Unicode's tag characters: invisible copies of ASCII, the way text is smuggled past a reader."""

_VARIATION = "\ufe00-\ufe0f\U000e0100-\U000e01ef"
"""Variation selectors: they choose how the character before them is drawn, and only an emoji
or a symbol has a choice a reader could see."""

_PRIVATE_USE = "\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd"
"""Characters with no meaning but a private agreement: each reader's font draws them differently,
or not at all."""

_SUSPECT = re.compile(
    "[\ud800-\udfff\x00-\x08\x0b-\x1f\x7f-\x9f"
    + "".join(sorted(BIDI_CONTROLS | HIDING_CONTROLS | HIDDEN_INSIDE))
    + _TAGS
    + _VARIATION
    + _PRIVATE_USE
    + "]"
)
"""The first character :func:`text_problem` must look at (most texts have none)."""


def character_name(character: str) -> str:
    """``U+001B ESCAPE``: a character as a message names it (control characters have no
    Unicode name, so the usual one is given)."""
    code = ord(character)
    name = unicodedata.name(character, "") or _CONTROL_NAMES.get(code, "")
    return f"U+{code:04X} {name}" if name else f"U+{code:04X}"


def text_problem(text: str) -> str | None:
    """Why a string of a case cannot be text for readers, or None: a lone surrogate (no
    character at all), a control character other than tab and newline, a bidirectional
    control, or nothing but invisible and blank characters."""
    found = _SUSPECT.search(text)
    start = found.start() if found else len(text)
    for character in text[start:]:
        code = ord(character)
        if 0xD800 <= code <= 0xDFFF:
            return f"holds {character_name(character)}, a lone surrogate, which is no character"
        if (code < 0x20 and character not in "\t\n") or 0x7F <= code <= 0x9F:
            return f"holds the control character {character_name(character)}; remove it"
        if character in BIDI_CONTROLS:
            return (
                f"holds {character_name(character)}, which reorders the text around it out of"
                " sight; remove it"
            )
        if character in HIDING_CONTROLS:
            return (
                f"holds {character_name(character)}, which may hide the text around it; remove it"
            )
    if text and all(_blank(character) for character in text):
        shown = ", ".join(dict.fromkeys(character_name(character) for character in text))
        return f"holds nothing a reader can see (only {shown}); write the text, or leave it out"
    for index in range(start, len(text)):
        hidden = _hidden_inside(text, index)
        if hidden is not None:
            return f"holds {character_name(text[index])}, {hidden}; remove it"
    return None


def _hidden_inside(text: str, index: int) -> str | None:
    """Why the character at ``index`` hides in the text, or None: what a reader cannot see
    inside text that they can (a whole text of blanks is named as such)."""
    character, code = text[index], ord(text[index])
    if character in HIDDEN_INSIDE:
        return "which is drawn as nothing"
    if 0xE0000 <= code <= 0xE007F:
        return "a tag character, which is invisible and may carry hidden text"
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:
        before = text[index - 1] if index else ""
        if before and unicodedata.category(before) in ("So", "Sm", "Sk") and code >= 0xFE0E:
            return None  # the text or emoji form of a symbol
        return "a variation selector with no symbol before it to vary"
    if unicodedata.category(character) == "Co":
        return "a private-use character, which means nothing a reader's font agrees on"
    return None


def _blank(character: str) -> bool:
    # A combining mark with no letter to sit on is drawn as nothing too.
    return (
        character.isspace()
        or unicodedata.category(character) in ("Cf", "Zs", "Zl", "Zp", "Mn", "Me")
        or character in _INVISIBLE
    )


def read_yaml(
    path: Path,
    *,
    max_bytes: int = MAX_FILE_BYTES,
    what: str = "a case",
    texts: list[SourceError] | None = None,
) -> LocatedDocument:
    """Parse one YAML file safely, or raise :class:`SourceError` naming its file and line.

    The file must be a regular file (a link is not followed, a FIFO is never waited on) of at
    most ``max_bytes``, in UTF-8; what no case needs is refused before any parsing. With
    ``texts``, a value that is not text (a control character, say) is added to it, to be
    reported with the file's other problems, instead of stopping the reading.
    """
    return parse_yaml(read_text(path, max_bytes=max_bytes, what=what), path, texts=texts)


def read_text(path: Path, *, max_bytes: int = MAX_FILE_BYTES, what: str = "a case") -> str:
    """The text of one input file (a YAML file, as :func:`read_yaml` reads it, not parsed yet;
    a game record; an export): a regular file, never a link followed or a FIFO waited on, of at
    most ``max_bytes`` (``what`` names such a file in the message), in UTF-8."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as error:
        if error.errno == errno.ELOOP and os.path.islink(path):
            raise SourceError(
                path, None, "a symbolic link: links are never followed; give the file itself"
            ) from None
        raise SourceError(path, None, f"cannot read the file: {error.strerror}") from None
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise SourceError(path, None, "cannot read the file: it is not a regular file")
    try:
        with os.fdopen(descriptor, "rb") as file:
            raw = file.read(max_bytes + 1)
    except OSError as error:  # a failing disk, or a file such as /proc/self/mem
        raise SourceError(path, None, f"cannot read the file: {error.strerror}") from None
    if len(raw) > max_bytes:
        raise SourceError(
            path, None, f"the file is over {max_bytes // 1024:,} KiB, far more than {what} needs"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        before = raw[: error.start].replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        line = before.count(b"\n") + 1
        raise SourceError(
            path, line, "this line is not UTF-8 text; save the file as UTF-8"
        ) from None
    return text


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _refuse_what_no_case_needs(text: str, path: Path) -> None:
    """Line breaks PyYAML counts but editors do not see, characters that reorder the text out of
    sight (anywhere: a case file is published as it is written), and brackets nested too
    deeply."""
    reordering = [
        SourceError(
            path,
            number,
            f"this line holds {character_name(character)}, which reorders the text around it"
            " out of sight; remove it",
        )
        for number, line in enumerate(text.split("\n"), 1)
        for character in dict.fromkeys(line)
        if character in BIDI_CONTROLS
    ]
    if reordering:
        raise SourceError.of_all(reordering)
    surrogate = _LONE_SURROGATE.search(text)
    if surrogate is not None:  # only text given as a string (a page's form) can hold one
        raise SourceError(
            path,
            text.count("\n", 0, surrogate.start()) + 1,
            f"this line {text_problem(surrogate.group())}; remove it",
        )
    for character, name in _LINE_BREAKS_YAML_ALSO_COUNTS.items():
        at = text.find(character)
        if at >= 0:
            raise SourceError(
                path,
                text.count("\n", 0, at) + 1,
                f"the line break {name} is not allowed here; use a plain new line or a space",
            )
    if text.count("[") + text.count("{") > MAX_NESTING:  # else they cannot nest that deep
        _refuse_deep_nesting(text, path)


def _refuse_deep_nesting(text: str, path: Path) -> None:
    """Brackets nested over :data:`MAX_NESTING` deep (outside quotes and comments)."""
    depth = 0
    for number, line in enumerate(text.split("\n"), 1):
        quote = ""
        for index, character in enumerate(line):
            if quote:
                quote = "" if character == quote else quote
            elif character in "'\"":
                quote = character
            elif character == "#" and (index == 0 or line[index - 1] in " \t"):
                break  # a comment
            elif character in "]}":
                depth = max(depth - 1, 0)
            elif character in "[{":
                depth += 1
                if depth > MAX_NESTING:
                    raise SourceError(
                        path, number, f"brackets nested over {MAX_NESTING} deep; no case needs that"
                    )


def parse_yaml(text: str, path: Path, *, texts: list[SourceError] | None = None) -> LocatedDocument:
    """Parse YAML ``text`` that came from ``path`` (used in messages); ``texts`` as for
    :func:`read_yaml`."""
    _refuse_what_no_case_needs(text, path)
    root = _node_tree(text, path)
    if root is None:
        raise SourceError(path, 1, "the file is empty")
    lines: dict[DataPath, int] = {}
    gathered: list[SourceError] = [] if texts is None else texts
    # Reads one plain scalar at a time: mappings and lists are walked here, with their lines.
    scalars = yaml.constructor.SafeConstructor()
    try:
        data = _to_data(root, (), lines, path, _Walk(set(), gathered, scalars))
    except RecursionError:
        raise SourceError(path, None, "the YAML is nested too deeply to be a case") from None
    if gathered and texts is None:  # every text that is not text, not only the first
        raise SourceError.of_all(gathered)
    return LocatedDocument(path, data, lines)


def _node_tree(text: str, path: Path) -> yaml.Node | None:
    """The document's node tree, or a located error in an editor's words. Without libyaml (see
    :data:`BLOCK_READER`), plain block YAML such as the pages write is split into nodes a line
    at a time; anything else, and every mistake, is PyYAML's."""
    node = block_node_tree(text) if BLOCK_READER else None
    if node is not None:
        return node
    try:
        try:
            return _compose(text, path, _FastLoader)
        except yaml.YAMLError:  # again in Python, whose messages the hints are written for
            return _compose(text, path, yaml.SafeLoader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = error.problem or error.context or "unreadable YAML"
        raise SourceError(path, line, f"YAML syntax error: {problem}{_hint(problem)}") from None
    except yaml.reader.ReaderError as error:
        line = text.count("\n", 0, error.position) + 1
        raise SourceError(
            path, line, f"character {chr(error.character)!r} cannot appear in a YAML file"
        ) from None
    except yaml.YAMLError as error:
        first_line = str(error).splitlines()[0] if str(error) else "unreadable YAML"
        raise SourceError(path, None, f"YAML error: {first_line}") from None
    except RecursionError:
        raise SourceError(path, None, "the YAML is nested too deeply to be a case") from None


_SYNTAX_HINTS = (
    ("'\\t'", "YAML indents with spaces only; replace the tab"),
    (
        "mapping values are not allowed",
        "a value holding ': ' needs quotes, or the indentation is off",
    ),
    ("expected <block end>", "this line's indentation does not match the lines around it"),
    ("could not find expected ':'", "a key needs a colon and a space after it"),
    ("found unexpected end of stream", "a quote or bracket is never closed"),
    ("found '<stream end>'", "the file ends inside an unfinished value: a bracket is never closed"),
    ("did not find expected ',' or ']'", "a list in brackets is not closed with ']'"),
)


def _hint(problem: str) -> str:
    """Plain words after PyYAML's own, for the syntax mistakes editors make most."""
    for needle, hint in _SYNTAX_HINTS:
        if needle in problem:
            return f" ({hint})"
    return ""


def _compose(text: str, path: Path, loader_class: type[yaml.SafeLoader]) -> yaml.Node | None:
    """The document's node tree, every node with its line; anchors and aliases refused."""
    _refuse_aliases(text, path, loader_class)
    loader = loader_class(text)
    try:
        node: yaml.Node | None = loader.get_single_node()
    finally:
        loader.dispose()
    return node


def _refuse_aliases(text: str, path: Path, loader_class: type[yaml.SafeLoader]) -> None:
    """Anchors and aliases have no use in a case and hide where a value came from."""
    if "&" not in text and "*" not in text:
        return  # neither can be written without its sign: no need to parse the text twice
    for event in yaml.parse(text, Loader=loader_class):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise SourceError(
                path,
                event.start_mark.line + 1 if event.start_mark is not None else None,
                "YAML anchors and aliases ('&name', '*name') are not allowed: write each value out",
            )


class _Walk(NamedTuple):
    """What a walk over one document's nodes carries: the nodes seen (an alias would repeat
    one), the texts found not to be text (to report them all), and the scalars' reader."""

    seen: set[int]
    texts: list[SourceError]
    scalars: yaml.constructor.SafeConstructor


def _to_data(
    node: yaml.Node, where: DataPath, lines: dict[DataPath, int], path: Path, walk: _Walk
) -> Any:
    """The node as plain data, with the line of each value in ``lines``."""
    line = node.start_mark.line + 1
    if id(node) in walk.seen:
        raise SourceError(path, line, "YAML aliases ('*name') are not allowed: write the value out")
    walk.seen.add(id(node))
    lines.setdefault(where, line)
    if node.tag == "tag:yaml.org,2002:timestamp":
        raise SourceError(path, line, f"{echoed(node.value)} reads as a date; put it in quotes")
    if node.tag not in _PLAIN_TAGS:
        tag = node.tag.replace("tag:yaml.org,2002:", "!!")
        raise SourceError(
            path, line, f"YAML tag {tag!r} is not allowed: a case file holds plain data only"
        )
    if isinstance(node, yaml.MappingNode):
        return _mapping_data(node, where, lines, path, walk)
    if isinstance(node, yaml.SequenceNode):
        return [
            _to_data(item, (*where, index), lines, path, walk)
            for index, item in enumerate(node.value)
        ]
    return _scalar_data(node, where, path, walk)


def _mapping_data(
    node: yaml.MappingNode, where: DataPath, lines: dict[DataPath, int], path: Path, walk: _Walk
) -> dict[str, Any]:
    """A mapping's keys (words, each once) and values."""
    result: dict[str, Any] = {}
    for key_node, value_node in node.value:
        key_line = key_node.start_mark.line + 1
        if key_node.tag == "tag:yaml.org,2002:merge":
            raise SourceError(path, key_line, "YAML merge keys ('<<') are not allowed")
        key = _to_data(key_node, (*where, "<key>"), {}, path, walk)
        if not isinstance(key, str):
            raise SourceError(
                path, key_line, f"key {echoed(str(key))} must be a word, not a {type(key).__name__}"
            )
        if key in result:
            raise SourceError(path, key_line, f"key {echoed(key)} appears twice")
        lines[(*where, key)] = key_line
        result[key] = _to_data(value_node, (*where, key), lines, path, walk)
    return result


def _scalar_data(node: yaml.Node, where: DataPath, path: Path, walk: _Walk) -> Any:
    """A plain scalar: text, a whole number, true or false, or nothing; a text that is not
    text (see :func:`text_problem`) is gathered in ``walk``, to be reported with the others."""
    line = node.start_mark.line + 1
    try:
        value = walk.scalars.construct_object(node)
    except (yaml.YAMLError, ValueError, TypeError, KeyError, IndexError):
        tag = node.tag.replace("tag:yaml.org,2002:", "!!")
        raise SourceError(path, line, f"{echoed(node.value)} cannot be read as {tag}") from None
    if isinstance(value, float):
        raise SourceError(
            path, line, f"{echoed(node.value)}: numbers in these files are whole numbers"
        )
    if isinstance(value, str):
        problem = text_problem(value)
        if problem is not None:
            what = "this key" if where and where[-1] == "<key>" else "this text"
            walk.texts.append(SourceError(path, line, f"{what} {problem}"))
    return value
