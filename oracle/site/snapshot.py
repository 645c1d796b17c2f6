"""The engine pages' head start: Python's memory with the engine imported, made at the build.

Started the ordinary way, Pyodide spends seconds in a reader's browser before the engine can
answer: Python starts, then imports the engine, the loader and their libraries from source. The
build does that work once, in Node with the very runtime and archive the pages load
(``make_snapshot.mjs``), and publishes Python's memory as it then stands (a "snapshot",
gzip-compressed); the pages' worker restores it, and starts Python the ordinary way only if it
cannot. Node is there already wherever the site is built: npm installs the runtime.

Making a snapshot takes a few seconds, so it is kept in the oracle's cache folder under the names
of what it is made from (the runtime's version, the archive's digest, the script's digest) and
made again only when one of them changes.
"""

from __future__ import annotations

import gzip
import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

from oracle.cache import cache_folder, save_bytes
from oracle.site.bundle import RULES_INDEX_IN_ARCHIVE, Bundle, BundleError

SCRIPT = Path(__file__).with_name("make_snapshot.mjs")
NODE_TIMEOUT = 300
"""Seconds the build waits for Node (a few on a quiet machine)."""


def snapshot_name(pyodide_version: str, archive: Bundle) -> str:
    """The published snapshot's file name: it names the runtime and the archive it holds."""
    return f"oracle-engine-{archive.digest}.pyodide-{pyodide_version}.snapshot"


def _kept_name(pyodide_version: str, archive: Bundle) -> str:
    script = hashlib.sha256(SCRIPT.read_bytes()).hexdigest()[:12]
    return f"snapshot-{pyodide_version}-{archive.digest}{script}.gz"


def engine_snapshot(runtime: Path, pyodide_version: str, archive: Bundle) -> bytes:
    """The gzip-compressed snapshot of Python with ``archive``'s engine imported in the Pyodide
    of ``runtime``, from the cache or made now."""
    kept = cache_folder() / "site-snapshots" / _kept_name(pyodide_version, archive)
    try:
        return kept.read_bytes()
    except OSError:
        pass
    content = gzip.compress(_made_snapshot(runtime, archive), compresslevel=6, mtime=0)
    save_bytes(kept, content)
    return content


def _made_snapshot(runtime: Path, archive: Bundle) -> bytes:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        raise BundleError(
            "Node is needed to prepare the engine pages (it comes with npm; Debian:"
            " apt-get install npm)"
        )
    with tempfile.TemporaryDirectory(prefix="oracle-snapshot-") as folder:
        archive_path = Path(folder) / archive.file_name
        archive_path.write_bytes(archive.content)
        output = Path(folder) / "snapshot"
        command = [node, str(SCRIPT), str(runtime), str(archive_path)]
        try:
            ran = subprocess.run(
                [*command, RULES_INDEX_IN_ARCHIVE, str(output)],
                capture_output=True,
                text=True,
                timeout=NODE_TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise BundleError(
                f"Node did not make the engine's snapshot within {NODE_TIMEOUT} s"
            ) from None
        if ran.returncode != 0 or not output.is_file():
            raise BundleError(f"Node could not make the engine's snapshot: {_reason(ran)}")
        return output.read_bytes()


def _reason(ran: subprocess.CompletedProcess[str]) -> str:
    """The line of Node's report that says what went wrong (an error's message, or Python's
    exception), not the stack under it."""
    lines = [line.strip() for line in ran.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if "Error" in line.split(":", 1)[0] or "Error:" in line]
    chosen = errors[-1] if errors else lines[-1] if lines else f"exit status {ran.returncode}"
    return chosen[:300]


__all__ = ["engine_snapshot", "snapshot_name"]
