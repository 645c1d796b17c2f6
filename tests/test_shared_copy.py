"""The check of the project copy shared for reading (conftest's ``project_to_read``): what it
sees of a tree, and that it never opens what is not a regular file."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest
from conftest import changed_entries, tree_contents


@pytest.mark.timeout(30)
def test_a_fifo_and_a_socket_are_seen_without_being_opened(tmp_path: Path) -> None:
    """Reading a FIFO nobody writes to would wait for ever: the walk notes its type instead,
    so a FIFO or a socket a test leaves in the shared copy is named, and the run goes on."""
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "a.yaml").write_text("id: a\n")
    (tmp_path / "link").symlink_to("cases/a.yaml")
    before = tree_contents(tmp_path)
    assert before == {"cases": None, "cases/a.yaml": b"id: a\n", "link": "cases/a.yaml"}
    os.mkfifo(tmp_path / "cases" / "pipe")
    listening = socket.socket(socket.AF_UNIX)
    try:
        listening.bind(str(tmp_path / "sock"))
        after = tree_contents(tmp_path)
    finally:
        listening.close()
    assert changed_entries(before, after) == ["cases/pipe", "sock"]
    assert isinstance(after["cases/pipe"], int) and after["cases/pipe"] != after["sock"]


def test_a_file_rewritten_removed_or_relinked_is_named(tmp_path: Path) -> None:
    (tmp_path / "kept.txt").write_text("kept\n")
    (tmp_path / "edited.txt").write_text("before\n")
    (tmp_path / "gone.txt").write_text("gone\n")
    (tmp_path / "link").symlink_to("kept.txt")
    before = tree_contents(tmp_path)
    (tmp_path / "edited.txt").write_text("after\n")
    (tmp_path / "gone.txt").unlink()
    (tmp_path / "link").unlink()
    (tmp_path / "link").symlink_to("edited.txt")
    (tmp_path / "folder").mkdir()
    assert changed_entries(before, tree_contents(tmp_path)) == [
        "edited.txt",
        "folder",
        "gone.txt",
        "link",
    ]
