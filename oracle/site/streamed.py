"""A file of the site written a piece at a time as MkDocs writes the site's files, and let go
once written: the export of a large catalogue is never held whole (:class:`StreamedFile`)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import cast

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File

Pieces = Callable[[], Iterator[str]]
"""Makes a file's text, piece after piece."""

_BATCH = 4096
"""How many pieces are joined for one write."""


class StreamedFile(File):
    """A generated file whose text is made as it is written, from what :attr:`pieces` makes,
    written as MkDocs writes a file given as text (UTF-8, no newline translation)."""

    pieces: Pieces | None = None

    @classmethod
    def made_by(cls, config: MkDocsConfig, uri: str, pieces: Pieces) -> StreamedFile:
        """The file at ``uri`` of the site, whose text ``pieces`` makes."""
        file = cast(StreamedFile, cls.generated(config, uri, content=""))
        file.pieces = pieces
        return file

    def _made(self) -> Iterator[str]:
        if self.pieces is None:
            raise RuntimeError(f"{self.src_uri} was written already, and its text let go")
        return self.pieces()

    @property
    def content_string(self) -> str:
        """The file's whole text, made now (MkDocs itself never asks for it)."""
        return "".join(self._made())

    @content_string.setter
    def content_string(self, value: str) -> None:
        self.pieces = lambda: iter((value,))

    @property
    def content_bytes(self) -> bytes:
        """The file's whole text in UTF-8, made now."""
        return self.content_string.encode("utf-8")

    @content_bytes.setter
    def content_bytes(self, value: bytes) -> None:
        self.content_string = value.decode("utf-8")

    def copy_file(self, dirty: bool = False) -> None:
        """Write the file a batch of pieces at a time, then let go of what it is made from."""
        output_path = self.abs_dest_path
        os.makedirs(os.path.dirname(output_path), exist_ok=True)
        with open(output_path, "w", encoding="utf-8") as output:
            batch: list[str] = []
            for piece in self._made():
                batch.append(piece)
                if len(batch) == _BATCH:
                    output.write("".join(batch))
                    batch.clear()
            output.write("".join(batch))
        self.pieces = None
