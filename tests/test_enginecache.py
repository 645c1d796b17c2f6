"""How a browser keeps the engine pages' runtime: the content-named files, the service worker
and the module the build writes, and the caching headers of ``make serve``."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from oracle.site.blocks import EngineApp
from oracle.site.bundle import PYODIDE_FILES
from oracle.site.enginecache import (
    KEEP_FOR_GOOD,
    REVALIDATE,
    cache_control,
    cache_name,
    content_named,
    engine_files_module,
    service_worker,
    with_cache_headers,
)
from oracle.site.plugin import OraclePlugin

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "site_src" / "_templates"
APP = EngineApp(
    runtime="assets/pyodide-9.9.9/",
    bundle="assets/engine/oracle-engine-0123456789ab.zip",
    digest="0123456789ab",
    pyodide_version="9.9.9",
    snapshot="assets/engine/oracle-engine-0123456789ab.pyodide-9.9.9.snapshot",
)


def test_the_content_named_files_are_the_runtime_and_the_archive() -> None:
    named = content_named(APP)
    runtime = (f"assets/pyodide-9.9.9/{name}" for name in PYODIDE_FILES)
    assert named == (*runtime, APP.bundle, APP.snapshot)
    assert "0123456789ab" in cache_name(APP) and "9.9.9" in cache_name(APP)


def test_the_service_worker_caches_exactly_those_files_under_this_builds_name() -> None:
    worker = service_worker(APP, TEMPLATES)
    assert f'const CACHE = "{cache_name(APP)}";' in worker
    for name in content_named(APP):
        assert f'"{name}"' in worker
    assert 'addEventListener("fetch"' in worker and "caches.delete" in worker


def test_the_engine_files_module_names_the_files_from_its_own_place() -> None:
    module = engine_files_module(APP)
    assert 'new URL("../../assets/pyodide-9.9.9/", import.meta.url)' in module
    assert (
        'new URL("../../assets/engine/oracle-engine-0123456789ab.zip", import.meta.url)' in module
    )
    assert 'export const engine = "0123456789ab";' in module
    assert (
        'new URL("../../assets/engine/oracle-engine-0123456789ab.pyodide-9.9.9.snapshot",'
        " import.meta.url)" in module
    )


def _served(path: str, status: str = "200 OK", headers: Iterable[tuple[str, str]] = ()) -> str:
    answered: list[tuple[str, list[tuple[str, str]]]] = []

    def app(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        start_response(status, [("Content-Type", "text/plain"), *headers])
        return [b""]

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        answered.append((status, headers))

    with_cache_headers(app, lambda: content_named(APP))({"PATH_INFO": path}, start_response)
    [(_, sent)] = answered
    [control] = [value for key, value in sent if key.lower() == "cache-control"]
    return control


def test_make_serve_lets_the_browser_keep_content_named_files_and_revalidate_the_rest() -> None:
    assert _served("/assets/pyodide-9.9.9/pyodide.asm.wasm") == KEEP_FOR_GOOD
    assert _served("/docs/assets/engine/oracle-engine-0123456789ab.zip") == KEEP_FOR_GOOD
    assert _served("/assets/engine/oracle-engine-ffffffffffff.zip") == REVALIDATE  # another build
    assert _served("/ask.html") == REVALIDATE
    assert _served("/assets/javascripts/engine-files.js") == REVALIDATE
    assert _served("/assets/pyodide-9.9.9/pyodide.mjs", "404 Not Found") == REVALIDATE
    kept = _served("/assets/pyodide-9.9.9/pyodide.mjs", headers=[("Cache-Control", "no-store")])
    assert kept == KEEP_FOR_GOOD
    assert cache_control("/x/assets/pyodide-9.9.9/pyodide.mjs", ()) == REVALIDATE


def test_the_plugin_puts_the_headers_on_the_preview_server() -> None:
    class Server:
        def __init__(self) -> None:
            self.app: Any = None
            self.watched: list[str] = []

        def watch(self, path: str) -> None:
            self.watched.append(path)

        def get_app(self) -> Any:
            return lambda environ, start_response: start_response("200 OK", []) or [b""]

        def set_app(self, app: Any) -> None:
            self.app = app

    server = Server()
    config = SimpleNamespace(config_file_path=str(ROOT / "mkdocs.yml"))
    OraclePlugin().on_serve(server, config=config, builder=None)  # type: ignore[arg-type]
    sent: list[list[tuple[str, str]]] = []
    server.app(
        {"PATH_INFO": "/ask.html"}, lambda status, headers, exc_info=None: sent.append(headers)
    )
    assert ("Cache-Control", REVALIDATE) in sent[0]  # no build yet: nothing is kept
    # Every folder a build reads is watched: what it publishes (the case files, the rules
    # index, the recorded games, the published results) and the code it runs.
    watched = {Path(path).relative_to(ROOT).as_posix() for path in server.watched}
    assert {"cases", "rules", "games", "results", "engine", "oracle"} <= watched
