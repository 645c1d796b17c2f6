"""What the site's interactive pages run in the browser: Pyodide, and the engine as an archive.

At every site build the archive is made afresh from the very ``engine`` and ``oracle`` modules
that verified the catalogue, with the rules index the cases pin and the pure-Python libraries the
loader reads YAML with, so a page can never run another engine than the one the published
verdicts came from. Its name carries a digest of its content, so a browser never keeps a stale
copy. Pyodide itself comes from the ``pyodide`` npm package (``package.json`` and its lock file,
installed by ``npm ci``); nothing is fetched from anywhere but the site.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import io
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import engine
import oracle

PYODIDE_PACKAGE = Path("node_modules") / "pyodide"
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""The runtime's files the pages load: its loader, the interpreter, the standard library."""

ORACLE_PARTS = (
    "__init__.py",
    "cache.py",
    "judges/",
    "casefile/",
    "schema/",
    "verify/",
    "site/__init__.py",
    "site/boards.py",
    "site/casepages.py",
    "site/markup.py",
    "browser/",
)
"""The parts of ``oracle`` the pages need (files, and folders ending in ``/``): reading case files
(which name the misreadings of ``judges/``), verifying them, the boards and answers the pages show,
and the pages' own module."""

LIBRARIES = (
    "MarkupSafe",
    "PyYAML",
    "jsonschema",
    "jsonschema-specifications",
    "referencing",
    "attrs",
    "typing_extensions",
    "pyrsistent",
    "pyrsistent-as-rpds-py",
)
"""Distributions the loader needs, taken from this environment without compiled parts."""

RPDS_STAND_IN = (
    '"""rpds-py has no build for the browser: this adapter gives referencing the same types."""\n'
    "from pyrsistent_as_rpds.pure import *  # noqa: F403\n"
)
RULES_INDEX_IN_ARCHIVE = "oracle_site/rules-index.yaml"
SKIPPED_SUFFIXES = {".pyc", ".pyo", ".so", ".pyd", ".pyi", ".dll", ".dylib"}
FIXED_TIME = (1980, 1, 1, 0, 0, 0)


class BundleError(RuntimeError):
    """The browser runtime cannot be assembled (the npm package missing, say)."""


@dataclass(frozen=True)
class Bundle:
    """The engine archive's bytes and its digest, which names the file on the site."""

    content: bytes
    digest: str

    @property
    def file_name(self) -> str:
        return f"oracle-engine-{self.digest}.zip"


def _package_files(
    package: Path, archive_root: str, parts: tuple[str, ...] | None = None
) -> dict[str, bytes]:
    """The files of ``package`` (those of ``parts`` only, when given), by their archive path."""
    files: dict[str, bytes] = {}
    for path in sorted(package.rglob("*")):
        relative = path.relative_to(package)
        if not path.is_file() or "__pycache__" in relative.parts:
            continue
        if path.suffix in SKIPPED_SUFFIXES:
            continue
        shown = relative.as_posix()
        if parts is not None and not any(
            shown == part or (part.endswith("/") and shown.startswith(part)) for part in parts
        ):
            continue
        files[f"{archive_root}/{shown}"] = path.read_bytes()
    return files


def _library_files(name: str) -> dict[str, bytes]:
    try:
        distribution = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        raise BundleError(
            f"the library {name!r} is not installed; install the site's packages"
            " (pip install -e '.[site]'; make does)"
        ) from None
    files: dict[str, bytes] = {}
    for entry in distribution.files or ():
        parts = PurePosixPath(str(entry)).parts
        outside = parts[0].startswith("..")
        if outside or (parts[0].endswith(".dist-info") and parts[-1] != "METADATA"):
            continue
        if {"tests", "benchmarks", "__pycache__"} & set(parts):
            continue
        if PurePosixPath(str(entry)).suffix in SKIPPED_SUFFIXES:
            continue
        located = Path(str(entry.locate()))
        if located.is_file():
            files["/".join(parts)] = located.read_bytes()
    return files


def bundle(rules_index: Path) -> Bundle:
    """The archive the pages unpack: ``engine``, the page's ``oracle`` modules, the libraries."""
    files: dict[str, bytes] = {}
    files.update(_package_files(Path(engine.__file__).parent, "engine"))
    files.update(_package_files(Path(oracle.__file__).parent, "oracle", ORACLE_PARTS))
    for name in LIBRARIES:
        files.update(_library_files(name))
    files["rpds.py"] = RPDS_STAND_IN.encode()
    files[RULES_INDEX_IN_ARCHIVE] = rules_index.read_bytes()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[name])
    content = buffer.getvalue()
    return Bundle(content, hashlib.sha256(content).hexdigest()[:12])


def pyodide_folder(root: Path) -> Path:
    """The installed ``pyodide`` npm package, checked against the lock file's version."""
    folder = root / PYODIDE_PACKAGE
    missing = [name for name in PYODIDE_FILES if not (folder / name).is_file()]
    if missing:
        raise BundleError(
            f"the Pyodide runtime is not installed ({folder} lacks {', '.join(missing)});"
            " run `make site` or `npm ci`, which install it from package-lock.json"
        )
    locked = pyodide_version(root)
    installed = json.loads((folder / "package.json").read_text(encoding="utf-8"))["version"]
    if locked is not None and installed != locked:
        raise BundleError(
            f"node_modules holds Pyodide {installed} but package-lock.json pins {locked};"
            " run `npm ci`"
        )
    return folder


def pyodide_version(root: Path) -> str | None:
    """The Pyodide version package-lock.json pins, if the project has one."""
    lock = root / "package-lock.json"
    if not lock.is_file():
        return None
    packages = json.loads(lock.read_text(encoding="utf-8")).get("packages", {})
    version = packages.get("node_modules/pyodide", {}).get("version")
    return str(version) if version else None


__all__ = [
    "LIBRARIES",
    "PYODIDE_FILES",
    "Bundle",
    "BundleError",
    "bundle",
    "pyodide_folder",
    "pyodide_version",
]
