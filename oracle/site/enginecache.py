"""How a browser keeps the engine pages' runtime: the files named by their content, the service
worker that caches them, the module that tells every page where they are, and the caching
headers ``make serve`` sends.

Pyodide's folder is named after its version, the engine archive after a digest of its bytes and
the snapshot after both, so a name never changes content: a browser may keep these files for
good, and a new build is never served stale (it names new files). Everything else is revalidated
on every visit.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import Any

from oracle.casefile.source import MAX_FILE_BYTES
from oracle.site.blocks import EngineApp
from oracle.site.bundle import PYODIDE_FILES

SERVICE_WORKER = "engine-cache.js"
"""The service worker, at the site's root so that its scope is the whole site."""
SERVICE_WORKER_BODY = "engine_cache.js"
"""Its code, in the templates folder; the build puts the cache's name and files before it."""
ENGINE_FILES = "assets/javascripts/engine-files.js"
"""The module every page's scripts import to find the runtime and the archive of this build."""
KEEP_FOR_GOOD = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def content_named(engine_app: EngineApp) -> tuple[str, ...]:
    """The site paths whose name says their content: the runtime's files, the archive and the
    snapshot (named by the runtime and the archive it is made from)."""
    runtime = (engine_app.runtime + name for name in PYODIDE_FILES)
    return (*runtime, engine_app.bundle, engine_app.snapshot)


def cache_name(engine_app: EngineApp) -> str:
    return f"oracle-engine-{engine_app.digest}-pyodide-{engine_app.pyodide_version}"


def engine_files_module(engine_app: EngineApp) -> str:
    """``engine-files.js``: the runtime, the archive, its digest and the snapshot, as URLs of
    this site."""
    depth = "../" * ENGINE_FILES.count("/")
    lines = [
        "// Made by the site build: where this build keeps the engine pages' runtime.",
        *(
            f"export const {name} = new URL({json.dumps(depth + path)}, import.meta.url).href;"
            for name, path in (
                ("runtime", engine_app.runtime),
                ("bundle", engine_app.bundle),
                ("snapshot", engine_app.snapshot),
            )
        ),
        f"export const engine = {json.dumps(engine_app.digest)};",
        "// The most a case file may hold: a link to a board is never inflated past it.",
        f"export const maxCaseBytes = {MAX_FILE_BYTES};",
    ]
    return "\n".join(lines) + "\n"


def service_worker(engine_app: EngineApp, templates: Path) -> str:
    """``engine-cache.js``: the cache's name (new with every engine or runtime) and its files,
    then the worker's code."""
    body = (templates / SERVICE_WORKER_BODY).read_text(encoding="utf-8")
    header = [
        "// Made by the site build from _templates/engine_cache.js.",
        f"const CACHE = {json.dumps(cache_name(engine_app))};",
        f"const FILES = {json.dumps(list(content_named(engine_app)), indent=2)};",
    ]
    return "\n".join(header) + "\n" + body


def cache_control(path: str, kept: Collection[str]) -> str:
    """The ``Cache-Control`` of a request path: content-named files are kept, the rest
    revalidated. ``kept`` holds site paths (``assets/...``), ``path`` may carry a mount prefix."""
    return KEEP_FOR_GOOD if any(path.endswith("/" + name) for name in kept) else REVALIDATE


def with_cache_headers(app: WsgiApp, kept: Callable[[], Collection[str]]) -> WsgiApp:
    """``app`` (the preview server's) answering with :func:`cache_control`'s header, the
    content-named files of the build being served, ``kept()``, at the time of the request."""

    def serve(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = str(environ.get("PATH_INFO", ""))

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            ok = status.startswith("200")
            chosen = cache_control(path, kept()) if ok else REVALIDATE
            headers = [(k, v) for k, v in headers if k.lower() != "cache-control"]
            return start_response(status, [*headers, ("Cache-Control", chosen)], exc_info)

        return app(environ, start)

    return serve
