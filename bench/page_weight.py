"""What the published pages weigh and how soon a reader sees them, in Debian's chromium: the
Edge cases page and a case page, each opened cold (a new browser profile) and again from the
browser's cache.

For each: the bytes that came over the wire (every response's encoded size, as chromium's
network log counts it) and how many requests; the first contentful paint and the largest
contentful paint, in milliseconds since the navigation began. Builds the site into a temporary
folder, or takes one built already (``--site``: another commit's build, to compare), and serves
it on localhost (no throttling: the figures compare builds, not networks).

    .venv/bin/python bench/page_weight.py [--runs 5] [--site FOLDER]
"""

from __future__ import annotations

import argparse
import functools
import statistics
import tempfile
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

from browser_bench import CHROMIUM, FLAGS, _Quiet, build
from playwright.sync_api import BrowserContext, sync_playwright

PAGES = ("edge-cases.html", "cases/claims/last-three-in-your-hand.html")

HEAVIEST: dict[str, str] = {}
"""The three heaviest responses of a cold load of each address."""
HEAD = "page                                         kind     KiB  requests  first paint  largest"

PAINTS = """
() => new Promise((done) => {
  let largest = NaN;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) largest = entry.startTime;
  }).observe({ type: "largest-contentful-paint", buffered: true });
  setTimeout(() => done({
    first: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
    largest,
  }), 300);
})
"""


def load(context: BrowserContext, url: str) -> dict[str, float]:
    """Open ``url`` in ``context``: bytes over the wire, requests, first and largest paint."""
    page = context.new_page()
    session = context.new_cdp_session(page)
    session.send("Network.enable")
    received: dict[str, float] = {}
    names: dict[str, str] = {}
    session.on(
        "Network.requestWillBeSent",
        lambda event: names.__setitem__(event["requestId"], event["request"]["url"]),
    )
    session.on(
        "Network.loadingFinished",
        lambda event: received.__setitem__(event["requestId"], event["encodedDataLength"]),
    )
    page.goto(url, wait_until="load")
    page.wait_for_load_state("networkidle")
    paints: dict[str, Any] = page.evaluate(PAINTS)
    page.close()
    heaviest = sorted(received, key=lambda key: -received[key])[:3]
    if sum(received.values()) > 10240:  # a cold load: what made it heavy
        HEAVIEST[url] = ", ".join(
            f"{names.get(key, '?').rsplit('/', 1)[-1]} {received[key] / 1024:.0f} KiB"
            for key in heaviest
        )
    return {
        "bytes": sum(received.values()),
        "requests": len(received),
        "first": float(paints["first"]),
        "largest": float(paints["largest"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="loads of each kind to time (5)")
    parser.add_argument(
        "--site", type=Path, help="a site built already, served as it is (not built here)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        site = args.site
        if site is None:
            site = Path(folder) / "site"
            build(site)
        missing = [path for path in PAGES if not (site / path).is_file()]
        if missing:
            parser.error(f"{site} has no {', '.join(missing)}")
        handler = functools.partial(_Quiet, directory=str(site))
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            print(HEAD + " paint")
            for path in PAGES:
                for kind in ("cold", "cached"):
                    runs = []
                    for _ in range(args.runs):
                        context = browser.new_context(service_workers="block")
                        if kind == "cached":
                            load(context, f"{base}/{path}")
                        runs.append(load(context, f"{base}/{path}"))
                        context.close()
                    median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
                    print(
                        f"{path:44} {kind:6} {median['bytes'] / 1024:6.0f}"
                        f" {median['requests']:9.0f} {median['first']:9.0f} ms"
                        f" {median['largest']:11.0f} ms"
                    )
            for url, heaviest in HEAVIEST.items():
                print(f"heaviest, {url.removeprefix(base + '/')}: {heaviest}")
            browser.close()
        server.shutdown()


if __name__ == "__main__":
    main()
