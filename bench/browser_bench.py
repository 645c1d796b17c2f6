"""How fast the engine pages are in Debian's chromium: the engine's time to become ready, the
first paint, and a claim's time in the page.

Goals (issues 26 and 44): ready in 1.5 s from the browser's cache and 3 s cold, a claim in
20 ms (median) and 50 ms (worst), and a first paint that never waits for the engine.

Builds the site into a temporary folder, serves it on localhost, and measures in one browser
profile: a cold start (nothing cached, ``ask.html`` opened first: Python's memory restored from
the snapshot the site publishes); a start from the cache (the browser restarted, so no engine is
running, with the files its service worker keeps and the inflated snapshot the first start
kept); the engine kept running (Ask, then Play, then Ask reloaded); and claims timed from the
page's asking to its answer, through the worker, over several boards of the catalogue: a case file
typed, and the board asked with "Ask the engine", pressed as a reader presses (the mouse held down
80 ms, the figure for a claim from the board) and clicked by Playwright (printed beside it, for
the reason below). Each start
prints where its time went (seconds since the worker began): the files fetched, the snapshot
read (and inflated), the engine ready.

    .venv/bin/python bench/browser_bench.py [--loads 5] [--claims 40] [--pause 0] [--switch=...]
                                            [--trace FILE]

A claim asked with "Ask the engine" waits, beyond the engine's own time (printed beside it), for
the frame Chrome draws after the click: Chrome holds the page's other tasks, the worker's answer
among them, until that frame's main-thread work is done (DeferRendererTasksAfterInput; the
click's :active state, set and cleared, asks for that frame). A typed claim, asked after the
typing delay, has no such wait. That frame holds almost no work (no style, layout or paint; a
fraction of a millisecond): the wait is for it to begin. Playwright's click comes about 6 ms
into a frame (its checks before a click wait for animation frames, which keep Chrome drawing),
so the next one begins about 11 ms after the click, whatever the engine's time below that. A
reader's press comes after Chrome has been idle: the frame after it is drawn at once, and the
answer is not held. So Playwright's click times Playwright's own frames as much as the page, and
the figure for a claim from the board is the press (until 2026-12-07 it was the click: 11-12.6 ms
median where a press took 5-6 ms, on the same page and engine).

``--trace FILE`` then asks more claims from the board under Chrome's tracing, clicked as above
and pressed as a reader presses (traced in FILE-pressed), writes the traces (open them in
Perfetto or DevTools) and prints where each claim's time went: the engine's call in the worker,
the wait for the next frame (the click's phase in Chrome's frames) and that frame's own work
(style, layout, paint, commit, animation-frame callbacks), the answer given to the page, its
task there and the frame that draws it.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, CDPSession, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("ORACLE_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
COLD_GOAL = 3.0
CACHED_GOAL = 1.5
CLAIM_GOAL = 20.0
WORST_CLAIM_GOAL = 50.0
FIRST = 12
"""The first claims, printed one by one: the WebAssembly code the engine runs is compiled to its
faster tier as it runs, so the first claims after the engine starts are the slowest."""
CASES = (
    "cases/claims/02-last-three-in-your-hand.yaml",
    "cases/claims/10-three-cards-under-mud-fight.yaml",
    "cases/elite-troops/03-every-wild-card-accounted-for.yaml",
    "cases/more-claims/01-order-of-play.yaml",
)


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def build(site: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site)],
        cwd=ROOT,
        check=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )


@dataclass
class Start:
    """One wait for the engine: seconds to ready, whether it was already running, where a
    fresh start's time went (milliseconds since the worker began), and the first paint."""

    seconds: float
    kept: bool
    restored: str | None
    """Where Python's memory came from: the site's snapshot, the browser's copy, or nowhere."""
    timings: dict[str, int]
    first_paint: float
    opening_ms: float | None
    """The Ask page's claims on its opening board, asked once the engine is ready: milliseconds
    in the worker (the first claim after a start pays for what Python does once)."""

    def __str__(self) -> str:
        laps = ", ".join(f"{name} {ms / 1000:.2f} s" for name, ms in self.timings.items())
        restored = f" from the {self.restored}'s snapshot" if self.restored else " afresh"
        how = "kept running" if self.kept else f"started{restored} ({laps})"
        opening = "" if self.opening_ms is None else f"; opening board {self.opening_ms:.0f} ms"
        return f"{self.seconds:5.2f} s, {how}; first paint {self.first_paint / 1000:.2f} s{opening}"


KEPT = (
    "async () => (await navigator.serviceWorker.ready).active.state === 'activated'"
    " && (await Promise.all((await caches.keys())"
    ".filter((name) => name.startsWith('oracle-snapshot-'))"
    ".map(async (name) => (await (await caches.open(name)).keys()).length)))"
    ".some((entries) => entries > 0)"
)


def wait_until_kept(page: Page) -> None:
    """Wait until the service worker holds the runtime and the browser its inflated snapshot
    (a cache is named when opened, before its entry is written), or the next start finds
    nothing kept. Polled: ``wait_for_function`` does not wait for a promise's value."""
    deadline = time.monotonic() + 120
    while not page.evaluate(f"({KEPT})()"):
        if time.monotonic() > deadline:
            sys.exit("browser_bench: the first start kept no snapshot within 120 s")
        time.sleep(0.1)


def ready(page: Page, url: str) -> Start:
    page.goto(url)
    page.wait_for_selector("#oracle-loading[data-ready=true]", state="attached", timeout=120_000)
    opening = None
    if "ask" in url:
        page.wait_for_selector("#oracle-app[data-last-engine-ms]", state="attached")
        opening = float(page.get_attribute("#oracle-app", "data-last-engine-ms") or "nan")
    return Start(
        seconds=float(page.get_attribute("#oracle-loading", "data-seconds") or "nan"),
        kept=page.get_attribute("#oracle-loading", "data-kept") == "true",
        restored=page.get_attribute("#oracle-loading", "data-restored-from"),
        timings=json.loads(page.get_attribute("#oracle-loading", "data-timings") or "{}"),
        first_paint=page.evaluate(
            "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN"
        ),
        opening_ms=opening,
    )


@dataclass
class Claims:
    """Milliseconds from asking to the answer, and of those, the call's in the engine's worker
    (Python's share; the rest is the browser's: the messages to the worker and back, and the
    frame Chrome draws after a click before it hands the page the answer)."""

    times: list[float]
    in_worker: list[float]


def press(page: Page, name: str) -> None:
    """Press a button as a reader does: the mouse brought to it, a moment (100 ms) before it is
    pressed, held down a moment (80 ms) and let go. No Playwright actionability checks, whose
    animation frames keep Chrome drawing frames."""
    button = page.get_by_role("button", name=name)
    # In the middle of the window (at its edge the site's fixed header may cover it), at once
    # (not the page's smooth scrolling, whose frames would run on into the press).
    button.evaluate("button => button.scrollIntoView({block: 'center', behavior: 'instant'})")
    box = button.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    time.sleep(0.1)
    page.mouse.down()
    time.sleep(0.08)
    page.mouse.up()


def claim_times(
    page: Page, count: int, board_only: bool = False, pressed: bool = False
) -> tuple[Claims, Claims, Claims]:
    """:class:`Claims` for ``count`` claims three ways: a case file typed or pasted (read and
    judged), and the board asked again with "Ask the engine" (the board written as a case file,
    read and judged, then the finished file with the engine's answers pinned made, checked and
    judged again, for the page's case file pane), pressed as a reader presses (:func:`press`) and
    clicked by Playwright. With ``board_only``, only the board of the page, asked again ``count``
    times, ``pressed`` or clicked (the others come back empty)."""
    typed = Claims([], [])
    board_pressed = Claims([], [])
    board_clicked = Claims([], [])
    ways = (
        (board_pressed if pressed else board_clicked,)
        if board_only
        else (
            typed,
            board_pressed,
            board_clicked,
        )
    )
    for index in range(count):
        text = (ROOT / CASES[index % len(CASES)]).read_text(encoding="utf-8")
        for claims in ways:
            page.evaluate("document.getElementById('ask-answer').dataset.verdicts = 'waiting'")
            if claims is typed:
                page.fill("#case-text", text)
            elif claims is board_pressed:
                press(page, "Ask the engine")
            else:
                page.get_by_role("button", name="Ask the engine").click()
            page.wait_for_function(
                "() => document.getElementById('ask-answer').dataset.verdicts !== 'waiting'"
            )
            for kept, name in ((claims.times, "call"), (claims.in_worker, "engine")):
                shown = page.get_attribute("#oracle-app", f"data-last-{name}-ms")
                kept.append(float(shown or "nan"))
    return typed, board_pressed, board_clicked


TRACED = 20
"""Claims from the board asked under tracing (``--trace``), after the timed ones."""
TRACE_CATEGORIES = [
    "devtools.timeline",
    "blink.user_timing",
    "renderer.scheduler",
    "toplevel",
    "cc",
    "viz",
]
FRAME_PARTS = {
    "FireAnimationFrame": "animation-frame callbacks",
    "UpdateLayoutTree": "style",
    "Layout": "layout",
    "PrePaint": "pre-paint",
    "Paint": "paint",
    "Layerize": "layerize",
    "Commit": "commit",
}
"""The parts of a frame's main-thread work (Chrome's trace event names) that the trace sums."""


def pressed_trace(path: Path) -> Path:
    """Where ``--trace`` writes the trace of the claims pressed rather than clicked."""
    return path.with_name(f"{path.stem}-pressed{path.suffix}")


def traced_claims(
    page: Page, cdp: CDPSession, count: int, path: Path, pressed: bool
) -> list[dict[str, Any]]:
    """Ask ``count`` claims from the board, as :func:`claim_times` does (clicked or pressed),
    under Chrome's tracing; write the trace to ``path`` and return its events."""
    events: list[dict[str, Any]] = []
    complete = threading.Event()
    cdp.on("Tracing.dataCollected", lambda message: events.extend(message["value"]))
    cdp.on("Tracing.tracingComplete", lambda message: complete.set())
    cdp.send(
        "Tracing.start",
        {"traceConfig": {"includedCategories": TRACE_CATEGORIES}, "transferMode": "ReportEvents"},
    )
    claim_times(page, count, board_only=True, pressed=pressed)
    cdp.send("Tracing.end")
    deadline = time.monotonic() + 60
    while not complete.is_set():  # the sync API delivers the events while it waits
        if time.monotonic() > deadline:
            sys.exit("browser_bench: the trace did not complete within 60 s")
        page.wait_for_timeout(100)
    with path.open("x", encoding="utf-8") as file:  # a new file: never one already there
        json.dump({"traceEvents": events}, file)
    return events


@dataclass
class TracedClaim:
    """One claim from the board in the trace, in milliseconds from the page's submit event
    (where the page's own timing of the claim begins)."""

    since_frame: float
    """How long before the click the last frame began (the click's phase in Chrome's frames)."""
    posted: float
    """The engine's answer posted by the worker."""
    frame_start: float
    """The frame after the click: its main-thread work began ..."""
    frame_ms: float
    """... and took this long, of which :data:`FRAME_PARTS`."""
    parts: dict[str, float]
    delivered: float
    """The page given the answer (Chrome held it until the frame was done)."""
    answer_task: float
    """The page's task that takes the answer in and shows it (before the frame that draws it)."""
    drawn: float
    """The end of the main-thread work of the frame that draws the answer (the first to begin
    after the page is given it)."""

    @property
    def held(self) -> float:
        return self.delivered - self.posted

    @property
    def vsync_wait(self) -> float:
        """The part of the hold spent waiting for the frame to begin (none without a frame)."""
        return (
            max(0.0, self.frame_start - self.posted)
            if self.frame_start == self.frame_start
            else 0.0
        )


def _function_in(event: dict[str, Any], script: str) -> bool:
    if event["name"] != "FunctionCall":
        return False
    url: str = event["args"]["data"].get("url", "")
    return url.endswith(script)


def traced_breakdown(events: list[dict[str, Any]]) -> list[TracedClaim]:
    """Each claim asked from the board in the trace: the page's submit event, the worker's call
    (``engine-worker.js``), the page's answer (``engine-client.js``) and the last frame whose
    main-thread work ended before it."""
    spans = sorted((e for e in events if e.get("ph") == "X"), key=lambda e: e["ts"])
    submits = [
        e
        for e in spans
        if e["name"] == "EventDispatch" and e["args"]["data"].get("type") == "submit"
    ]
    if not submits:
        return []
    page = (submits[0]["pid"], submits[0]["tid"])
    on_page = [e for e in spans if (e["pid"], e["tid"]) == page]
    frames = [e for e in on_page if e["name"] == "ProxyMain::BeginMainFrame"]
    tasks = [e for e in on_page if e["name"] == "ThreadControllerImpl::RunTask"]
    calls = [e for e in spans if _function_in(e, "/engine-worker.js")]
    answers = [e for e in on_page if _function_in(e, "/engine-client.js")]
    claims = []
    for submit in submits:
        start = submit["ts"]
        call = next((e for e in calls if e["ts"] > start), None)
        if call is None:
            continue
        answer = next((e for e in answers if e["ts"] > call["ts"]), None)
        before = [e for e in frames if e["ts"] < start]
        if answer is None or not before:
            continue
        # The worker's call ends just after it posts the answer: an answer given sooner was posted
        # by then.
        posted = min(call["ts"] + call["dur"], answer["ts"])
        after = [e for e in frames if start < e["ts"] and e["ts"] + e["dur"] <= answer["ts"]]
        frame = after[-1] if after else None
        drawing = next((e for e in frames if e["ts"] > answer["ts"]), None)
        task = next(
            (e for e in tasks if e["ts"] <= answer["ts"] <= e["ts"] + e["dur"]), {"dur": math.nan}
        )
        parts = dict.fromkeys(FRAME_PARTS.values(), 0.0)
        if frame is not None:
            for event in on_page:
                inside = frame["ts"] <= event["ts"] < frame["ts"] + frame["dur"]
                if inside and event["name"] in FRAME_PARTS:
                    parts[FRAME_PARTS[event["name"]]] += event["dur"] / 1000
        nan = float("nan")
        claims.append(
            TracedClaim(
                since_frame=(start - before[-1]["ts"]) / 1000,
                posted=(posted - start) / 1000,
                frame_start=(frame["ts"] - start) / 1000 if frame else nan,
                frame_ms=frame["dur"] / 1000 if frame else nan,
                parts=parts,
                delivered=(answer["ts"] - start) / 1000,
                answer_task=task["dur"] / 1000,
                drawn=(drawing["ts"] + drawing["dur"] - start) / 1000 if drawing else nan,
            )
        )
    return claims


def print_breakdown(claims: list[TracedClaim]) -> None:
    if not claims:
        print("the trace holds no claim from the board")
        return
    for claim in claims:
        frame = (
            f"next frame at {claim.frame_start:5.2f} for {claim.frame_ms:4.2f} ms"
            if claim.frame_ms == claim.frame_ms
            else "no frame before it"
        )
        print(
            f"  asked {claim.since_frame:4.1f} ms after a frame began;"
            f" answer posted {claim.posted:5.2f} ms, {frame},"
            f" answer given {claim.delivered:5.2f} ms (held {claim.held:4.2f}),"
            f" drawn {claim.drawn:5.2f}"
        )

    def median(figure: Callable[[TracedClaim], float]) -> float:
        """The median of a figure over the claims that have it (a claim answered before any
        frame has no frame's figures)."""
        values = [figure(claim) for claim in claims]
        return float(statistics.median(value for value in values if value == value))

    posted = median(lambda c: c.posted)
    print(
        f"{len(claims)} traced claims from the board, medians (ms from the submit event):"
        f" answer posted {posted:.2f}, given {median(lambda c: c.delivered):.2f},"
        f" drawn {median(lambda c: c.drawn):.2f} (its task {median(lambda c: c.answer_task):.2f});"
        f" held {median(lambda c: c.held):.2f}, of which waiting for the next frame"
        f" {median(lambda c: c.vsync_wait):.2f} and the frame's own work"
        f" {median(lambda c: c.frame_ms):.2f}; asked"
        f" {median(lambda c: c.since_frame):.1f} ms after a frame began"
    )
    parts = {
        part: float(statistics.median(claim.parts[part] for claim in claims))
        for part in FRAME_PARTS.values()
    }
    print("  the frame's work, medians: " + ", ".join(f"{p} {ms:.2f}" for p, ms in parts.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=5, help="starts from the cache to time (5)")
    parser.add_argument("--claims", type=int, default=40, help="claims to time (40)")
    parser.add_argument(
        "--switch",
        action="append",
        default=[],
        help="another chromium switch, as --switch=--disable-features=DeferRendererTasksAfterInput"
        " (a claim from the board without Chrome's wait for the frame after the click)",
    )
    parser.add_argument(
        "--pause",
        type=float,
        default=0.0,
        help="seconds between the engine's start and the first claim timed (0): a reader's look"
        " at the page, which the engine may spend warming up",
    )
    parser.add_argument(
        "--trace",
        type=Path,
        help=f"after the timed claims, ask {TRACED} more from the board under Chrome's tracing,"
        " write the trace to this file and print where each claim's time went; then as many"
        " pressed as a reader presses, traced in FILE-pressed",
    )
    args = parser.parse_args()
    if args.trace:
        for path in (args.trace, pressed_trace(args.trace)):
            if path.exists() or path.is_symlink():
                parser.error(f"{path}: already exists; --trace writes new files and replaces none")
    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder) / "site"
        build(site)
        server = ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site))
        )
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}"
        profile = str(Path(folder) / "profile")
        with sync_playwright() as playwright:

            def browser() -> BrowserContext:
                return playwright.chromium.launch_persistent_context(
                    profile, executable_path=CHROMIUM, args=FLAGS + args.switch
                )

            context = browser()
            page = context.new_page()
            cold = ready(page, f"{base}/ask.html")
            wait_until_kept(page)
            context.close()
            cached = []
            for _ in range(args.loads):
                context = browser()  # a new browser: no engine running, the files kept
                cached.append(ready(context.new_page(), f"{base}/ask.html"))
                context.close()
            context = browser()
            page = context.new_page()
            ready(page, f"{base}/ask.html")
            kept = [ready(page, f"{base}/{name}.html") for name in ("play", "ask", "ask")]
            time.sleep(args.pause)
            typed, board_pressed, board_clicked = claim_times(page, args.claims)
            traced: dict[Path, list[TracedClaim]] = {}
            if args.trace:
                for pressed, path in ((False, args.trace), (True, pressed_trace(args.trace))):
                    cdp = context.new_cdp_session(page)
                    events = traced_claims(page, cdp, TRACED, path, pressed)
                    traced[path] = traced_breakdown(events)
                    cdp.detach()
            context.close()
        server.shutdown()
    seconds = statistics.median(start.seconds for start in cached)
    paints = [start.first_paint for start in (cold, *cached, *kept)]
    print(f"cold start (nothing cached):        {cold}")
    for start in cached:
        print(f"start from the cache:               {start}")
    for start in kept:
        print(f"engine kept (Ask, Play, reload):    {start}")
    print(
        f"ready from the cache: median {seconds:.2f} s over {args.loads} browser starts;"
        f" kept running: worst {max(start.seconds for start in kept):.2f} s"
        f"   (goal <= {CACHED_GOAL} s; cold goal <= {COLD_GOAL:.0f} s)"
    )
    print(
        f"first paint: worst {max(paints) / 1000:.2f} s, before the engine every time:"
        f" {all(start.first_paint < start.seconds * 1000 for start in (cold, *cached))}"
    )
    for what, claims in (
        ("typed as a case file", typed),
        ("asked from the board, pressed", board_pressed),
        ("asked from the board, clicked by Playwright", board_clicked),
    ):
        print(
            f"a claim {what} ({args.claims}): median {statistics.median(claims.times):5.1f} ms,"
            f" worst {max(claims.times):5.1f} ms"
            f"   (goals <= {CLAIM_GOAL:.0f} ms, <= {WORST_CLAIM_GOAL:.0f} ms);"
            f" in the worker: median {statistics.median(claims.in_worker):5.1f} ms,"
            f" worst {max(claims.in_worker):5.1f} ms"
        )
        print(f"  its first {FIRST} in the page:   {_ms(claims.times[:FIRST])}")
        print(f"  its first {FIRST} in the worker: {_ms(claims.in_worker[:FIRST])}")
    for path, breakdown in traced.items():
        how = "pressed (down, 80 ms, up)" if path != args.trace else "clicked as above"
        print(f"claims from the board {how}, traced in {path}:")
        print_breakdown(breakdown)


def _ms(times: list[float]) -> str:
    return " ".join(f"{time:.0f}" for time in times)


if __name__ == "__main__":
    main()
