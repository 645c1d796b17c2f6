"""Python's time for a claim on the Ask page, outside the browser: the page's own call
(``Session.call("ask_form", ...)``) in Pyodide under Node, on browser_bench's four boards.

browser_bench times a claim from the click to the answer, which also holds the browser's share
(the message to the engine's worker and back, and the frame the browser draws after a click
before it hands the page the answer). This bench times the Python alone, in the very runtime
and engine archive the site publishes, with the CPU time Node's process spent (its own threads
and V8's compiler threads) beside the wall clock: each board is asked ``--warm`` times first
(the WebAssembly code is compiled to its faster tier as it runs), then ``--claims`` times.

    .venv/bin/python bench/ask_bench.py [--claims 200] [--warm 50]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from browser_bench import CASES

from oracle.browser.pages import Session
from oracle.casefile.loader import load_case_text
from oracle.casefile.rules import load_rules_index
from oracle.site.bundle import RULES_INDEX_IN_ARCHIVE, bundle, pyodide_folder

ROOT = Path(__file__).resolve().parent.parent
RULES_INDEX = ROOT / "rules" / "index.yaml"

NODE_SCRIPT = """
const [runtime, archive, rulesIndex, formsFile, claims, warm] = process.argv.slice(1);
const { readFileSync } = await import("node:fs");
const { loadPyodide } = await import(`${runtime}/pyodide.mjs`);
const pyodide = await loadPyodide({ indexURL: `${runtime}/`, packages: [], fullStdLib: false });
pyodide.unpackArchive(new Uint8Array(readFileSync(archive)), "zip", { extractDir: "/oracle-site" });
pyodide.runPython("import sys; sys.path.insert(0, '/oracle-site')");
const session = pyodide.pyimport("oracle.browser.pages").session_maker(rulesIndex)();
const rows = [];
for (const form of JSON.parse(readFileSync(formsFile, "utf8"))) {
  const request = JSON.stringify({ form });
  for (let i = 0; i < Number(warm); i += 1) session.call("ask_form", request);
  const times = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < Number(claims); i += 1) {
    const began = performance.now();
    session.call("ask_form", request);
    times.push(performance.now() - began);
  }
  const used = process.cpuUsage(cpu);
  rows.push({ times, cpu: (used.user + used.system) / 1000 / Number(claims) });
}
console.log(JSON.stringify(rows));
"""


def board_forms() -> list[dict[str, object]]:
    """The board form of each of browser_bench's cases, as the page sends it once filled."""
    session = Session(load_rules_index(RULES_INDEX))
    forms = []
    for name in CASES:
        case = load_case_text((ROOT / name).read_text(encoding="utf-8"), Path(name))
        forms.append(json.loads(session.call("ask_text", json.dumps({"text": case.text})))["form"])
    return forms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--claims", type=int, default=200, help="claims timed a board (200)")
    parser.add_argument("--warm", type=int, default=50, help="claims first, untimed (50)")
    args = parser.parse_args()
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        sys.exit("ask_bench: Node is needed (Debian: apt-get install nodejs)")
    runtime = pyodide_folder(ROOT)
    with tempfile.TemporaryDirectory() as folder:
        archive = Path(folder) / "engine.zip"
        archive.write_bytes(bundle(RULES_INDEX).content)
        forms = Path(folder) / "forms.json"
        forms.write_text(json.dumps(board_forms()), encoding="utf-8")
        rules = f"/oracle-site/{RULES_INDEX_IN_ARCHIVE}"
        arguments = (runtime, archive, rules, forms, args.claims, args.warm)
        ran = subprocess.run(
            [node, "--input-type=module", "-e", NODE_SCRIPT, *map(str, arguments)],
            capture_output=True,
            text=True,
            check=True,
        )
    rows = json.loads(ran.stdout.strip().splitlines()[-1])
    print(f"Python's time a claim from the board (Pyodide in Node, {args.claims} claims a board):")
    for name, row in zip(CASES, rows, strict=True):
        times = sorted(row["times"])
        print(
            f"  {Path(name).stem:40} median {times[len(times) // 2]:5.2f} ms,"
            f" fastest {times[0]:5.2f} ms, CPU {row['cpu']:5.2f} ms"
        )


if __name__ == "__main__":
    main()
