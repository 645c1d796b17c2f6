"""The site's fonts, served by the site itself.

The text and code fonts come from npm packages (``@fontsource/roboto`` and
``@fontsource/roboto-mono``, pinned by ``package-lock.json`` and installed by ``npm ci``), and
so do the symbols Roboto lacks (the arrows of a turn's steps, the crosses of the misreadings'
matrix: ``@fontsource/dejavu-sans``, fetched by a page only when it shows one); every build copies
the few files the stylesheet ``assets/stylesheets/fonts.css`` names into ``assets/fonts/``. So a
page never fetches a font from elsewhere, and every reader (and every screenshot the browser tests
compare) sees the same glyphs, whatever fonts the machine has.
"""

from __future__ import annotations

import json
from pathlib import Path

from oracle.site.bundle import BundleError

FONTS_FOLDER = "assets/fonts/"
"""Where the built site keeps the font files (``fonts.css`` names them relative to itself)."""

FONT_FILES: tuple[tuple[str, str], ...] = (
    ("@fontsource/roboto", "roboto-latin-300-normal.woff2"),
    ("@fontsource/roboto", "roboto-latin-400-normal.woff2"),
    ("@fontsource/roboto", "roboto-latin-400-italic.woff2"),
    ("@fontsource/roboto", "roboto-latin-700-normal.woff2"),
    ("@fontsource/roboto", "roboto-latin-700-italic.woff2"),
    ("@fontsource/roboto-mono", "roboto-mono-latin-400-normal.woff2"),
    ("@fontsource/roboto-mono", "roboto-mono-latin-700-normal.woff2"),
    ("@fontsource/dejavu-sans", "dejavu-sans-latin-400-normal.woff2"),
)
"""Each file the stylesheet uses: its npm package and its name in the package's ``files/``."""


def font_files(root: Path) -> list[tuple[Path, str]]:
    """Each font file as installed under ``root/node_modules``, with its path in the site.

    Raises :class:`BundleError` when a package is missing or is not the version the lock file
    pins, saying how to install it."""
    locked = _locked_versions(root)
    found: list[tuple[Path, str]] = []
    for package, name in FONT_FILES:
        folder = root / "node_modules" / package
        source = folder / "files" / name
        if not source.is_file():
            raise BundleError(
                f"the site's fonts are not installed ({source} is missing);"
                " run `make site` or `npm ci`, which install them from package-lock.json"
            )
        installed = json.loads((folder / "package.json").read_text(encoding="utf-8"))["version"]
        pinned = locked.get(package)
        if pinned is not None and installed != pinned:
            raise BundleError(
                f"node_modules holds {package} {installed} but package-lock.json pins {pinned};"
                " run `npm ci`"
            )
        found.append((source, FONTS_FOLDER + name))
    return found


def _locked_versions(root: Path) -> dict[str, str]:
    lock = root / "package-lock.json"
    if not lock.is_file():
        return {}
    packages = json.loads(lock.read_text(encoding="utf-8")).get("packages", {})
    return {
        name.removeprefix("node_modules/"): str(entry["version"])
        for name, entry in packages.items()
        if name.startswith("node_modules/@fontsource/") and "version" in entry
    }


__all__ = ["FONTS_FOLDER", "FONT_FILES", "font_files"]
