"""How fast the engine pages are in Debian's chromium: the runtime's time to become ready, and
a claim's time in the page (goals: ready within 5 s once cached, a claim within 50 ms).

Builds the site into a temporary folder, serves it on localhost, and loads ``ask.html`` in a
fresh browser profile (cold), then again in the same profile (cached). A claim is timed from the
page's click to its answer, through the worker, over several boards of the catalogue.

    .venv/bin/python bench/browser_bench.py [--loads 5] [--claims 40]
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import subprocess
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

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
READY_GOAL = 5.0
CLAIM_GOAL = 50.0
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


def ready_seconds(page: Page, url: str) -> float:
    page.goto(url)
    page.wait_for_selector("#oracle-loading[data-ready=true]", state="attached", timeout=120_000)
    return float(page.get_attribute("#oracle-loading", "data-seconds") or "nan")


def claim_times(page: Page, count: int) -> list[float]:
    """Milliseconds from the click on "Ask the engine" to the answer, for ``count`` claims."""
    times = []
    page.locator("#paste-box summary").click()
    for index in range(count):
        text = (ROOT / CASES[index % len(CASES)]).read_text(encoding="utf-8")
        page.fill("#paste-text", text)
        page.get_by_role("button", name="Load and judge it").click()
        page.wait_for_function("() => !document.getElementById('ask-answer').hidden")
        page.evaluate("document.getElementById('ask-answer').dataset.verdicts = 'waiting'")
        page.get_by_role("button", name="Ask the engine").click()
        page.wait_for_function(
            "() => document.getElementById('ask-answer').dataset.verdicts !== 'waiting'"
        )
        times.append(float(page.get_attribute("#oracle-app", "data-last-call-ms") or "nan"))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=5, help="cached loads to time (5)")
    parser.add_argument("--claims", type=int, default=40, help="claims to time (40)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder) / "site"
        build(site)
        server = ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site))
        )
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/ask.html"
        with sync_playwright() as playwright:
            context = playwright.chromium.launch_persistent_context(
                str(Path(folder) / "profile"), executable_path=CHROMIUM, args=FLAGS
            )
            page = context.new_page()
            cold = ready_seconds(page, url)
            cached = [ready_seconds(page, url) for _ in range(args.loads)]
            claims = claim_times(page, args.claims)
            context.close()
        server.shutdown()
    worst = max(claims)
    ready = statistics.median(cached)
    claim = statistics.median(claims)
    print(f"runtime ready, first load (cold):  {cold:6.2f} s")
    print(
        f"runtime ready, cached ({args.loads} loads): median {ready:5.2f} s,"
        f" worst {max(cached):5.2f} s   (goal <= {READY_GOAL:.0f} s)"
    )
    print(
        f"a claim in the page ({args.claims}):      median {claim:5.1f} ms,"
        f" worst {worst:5.1f} ms   (goal <= {CLAIM_GOAL:.0f} ms)"
    )


if __name__ == "__main__":
    main()
