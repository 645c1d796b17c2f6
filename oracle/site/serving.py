"""What ``make serve`` adds for an editor, never in the published build: live reload under the
site's Content-Security-Policy, a page naming the problems while a rebuild fails, and a restart
when the engine's or the oracle's code changes.

- MkDocs' preview server writes its live-reload script inline into every page, where the policy
  (:mod:`oracle.site.csp`) forbids it. The served page's policy is given that exact script's hash,
  and nothing more: the policy of the published pages does not change.
- A rebuild that fails leaves MkDocs' server holding every request until the build passes again,
  so a reader's browser just waits. While it fails, every page is answered at once with the
  problems, file and line, and the page asks again every two seconds; once the build passes, it
  is the page again.
- The build runs in the server's process, with the engine and the oracle it imported when it
  started: a rebuild would verify the cases with the old rules. When their code changes, the
  server starts again, so the served site is always the current code's (and fails as the build
  does when a verdict drifted).
"""

from __future__ import annotations

import logging
import os
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from oracle.site.csp import digest
from oracle.site.enginecache import REVALIDATE, WsgiApp
from oracle.site.markup import text

log = logging.getLogger("mkdocs.plugins.oracle")

CODE_FOLDERS = ("engine", "oracle")
"""The code a served build runs: a change to either starts the server again."""

_LIVE_RELOAD = re.compile(rb"<script>(\s*var livereload = function[\s\S]*?)</script>")
_SCRIPT_SOURCES = re.compile(
    rb'(<meta http-equiv="Content-Security-Policy" content="[^"]*?script-src )'
)


def code_fingerprint(root: Path) -> tuple[tuple[str, int, int], ...]:
    """Every Python file of :data:`CODE_FOLDERS` with its size and time of change."""
    found = []
    for folder in CODE_FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            status = path.stat()
            found.append((str(path.relative_to(root)), status.st_size, status.st_mtime_ns))
    return tuple(found)


def allow_live_reload(page: bytes) -> bytes:
    """A served page whose policy allows exactly the live-reload script MkDocs wrote into it."""
    script = _LIVE_RELOAD.search(page)
    if script is None:
        return page
    allowed = digest(script.group(1).decode("utf-8")).encode("ascii")
    return _SCRIPT_SOURCES.sub(lambda head: head.group(1) + allowed + b" ", page, count=1)


def problems_page(problems: str) -> bytes:
    """The page served for every page while the build fails: what is wrong, and a refresh."""
    lines = "\n".join(
        f"<li><code>{text(line)}</code></li>" for line in problems.splitlines() if line
    )
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">\n'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'">\n'
        '<meta http-equiv="refresh" content="2">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<title>The site cannot be built</title></head>\n"
        "<body><main><h1>The site cannot be built</h1>\n"
        "<p>The last build stopped on these problems. Fix them and save: this page shows the"
        " site again once it builds (it looks again every two seconds).</p>\n"
        f"<ul>{lines}</ul></main></body></html>\n"
    ).encode()


def served_app(app: WsgiApp, failure: Callable[[], str | None]) -> WsgiApp:
    """The preview server's ``app``, with live reload allowed by each page's policy, and every
    page answered with :func:`problems_page` while ``failure()`` gives the build's problems."""

    def serve(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = str(environ.get("PATH_INFO", ""))
        polling = path.startswith("/livereload/")
        page = not polling and (path.endswith((".html", "/")) or "." not in path.rsplit("/")[-1])
        problems = failure()
        if problems is not None and page:
            body = problems_page(problems)
            start_response(
                "200 OK",  # a 503 would be logged in the terminal at every refresh
                [
                    ("Content-Type", "text/html; charset=utf-8"),
                    ("Content-Length", str(len(body))),
                    ("Cache-Control", REVALIDATE),
                    ("Retry-After", "2"),
                ],
            )
            return [body]
        answered: list[Any] = []

        def hold(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            answered[:] = [status, headers, exc_info]
            return lambda data: None  # the preview server writes through its return value only

        body_parts = app(environ, hold)
        status, headers, exc_info = answered
        html_page = any(
            key.lower() == "content-type" and value.startswith("text/html")
            for key, value in headers
        )
        if not html_page:
            start_response(status, headers, exc_info)
            return body_parts
        try:
            body = allow_live_reload(b"".join(body_parts))
        finally:
            close = getattr(body_parts, "close", None)
            if close is not None:
                close()
        headers = [(k, v) for k, v in headers if k.lower() != "content-length"]
        start_response(status, [*headers, ("Content-Length", str(len(body)))], exc_info)
        return [body]

    return serve


class BuildProblems(logging.Handler):
    """The warnings and errors MkDocs logs during one build: what stopped it (the exception
    that ends a failed build says only "Aborted with a BuildError!")."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())

    def __enter__(self) -> BuildProblems:
        logging.getLogger("mkdocs").addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        logging.getLogger("mkdocs").removeHandler(self)

    def text(self, error: BaseException) -> str:
        return "\n".join([*self.lines, str(error) or type(error).__name__])


def release_waiting_pages(server: Any) -> None:
    """Let the pages open in browsers learn that the rebuild failed: MkDocs' server holds their
    live-reload requests until a build passes, so they are told now that the site changed (and,
    asking again, get :func:`problems_page`). Reaches into the preview server's state (MkDocs
    1.6, pinned by the lock file); a server without it is left as it is."""
    condition = getattr(server, "_epoch_cond", None)
    if condition is None or not hasattr(server, "_wanted_epoch"):
        return
    with condition:
        server._visible_epoch = server._wanted_epoch
        condition.notify_all()


def restart_server() -> None:
    """Start ``mkdocs serve`` again in this process, with the same arguments: the new process
    imports the changed code and builds with it."""
    log.warning("the engine's or the oracle's code changed: starting the server again")
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])
