// Made to run by the site build (oracle/site/snapshot.py) in Node, with the Pyodide the pages run:
// starts Python, unpacks the engine archive as the pages' worker does, imports the pages' module,
// reads the rules index into a session maker, asks the page's warm-up claims (so that what Python
// does once for a first claim is done), and writes Python's memory (a "snapshot") to a file.
// A reader's browser restores it instead of starting Python and importing the engine itself.
//
//     node make_snapshot.mjs RUNTIME_FOLDER ENGINE_ARCHIVE RULES_INDEX_IN_ARCHIVE OUTPUT
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, archive, rulesIndex, output] = process.argv.slice(2);
const folder = `${resolve(runtime)}/`; // Pyodide in Node wants a path, import() a URL
const { loadPyodide } = await import(pathToFileURL(`${folder}pyodide.mjs`).href);
// The environment a browser gives Python, with a fixed hash seed so that dictionaries are laid
// out alike from one build to the next (the worker seeds `random` afresh after restoring).
const pyodide = await loadPyodide({
  indexURL: folder,
  packages: [],
  fullStdLib: false,
  env: { HOME: "/home/pyodide", PYTHONHASHSEED: "0" },
  stdout: () => {},
  stderr: (line) => process.stderr.write(`${line}\n`),
  _makeSnapshot: true,
});
pyodide.unpackArchive(new Uint8Array(readFileSync(archive)), "zip", { extractDir: "/oracle-site" });
pyodide.runPython(`
import os, sys
os.environ.pop("_", None)  # Node's name for this script: the browser has none
sys.path.insert(0, "/oracle-site")
import oracle.browser.pages
oracle_session_maker = oracle.browser.pages.session_maker(${JSON.stringify(`/oracle-site/${rulesIndex}`)})
oracle.browser.pages.warm_up(oracle_session_maker)
`);
writeFileSync(output, pyodide.makeMemorySnapshot());
