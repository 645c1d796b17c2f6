// Runs the rules engine (engine/ and the case loader, unchanged) in Pyodide, off the pages'
// threads. Started as a shared worker, it serves every page of this site open in the browser and
// outlives a move from one page to the next, so Python starts once; where the browser has no
// shared workers, each page starts a worker of its own, with the same code.
//
// A page (a port) sends {start, runtime, bundle, snapshot}, then {id, call, request}; it gets
// progress messages, {ready} (saying whether the engine was running already, and whether it was
// restored from the site's snapshot or the browser's inflated copy of it) or {failed}, then
// {id, answer, engineMs} (the milliseconds the call took in the worker) or {id, error}. Each page has a session of its own (its game), over the one engine.
// {start, warm: true} only starts the engine, for a page that expects the reader to open Ask or
// Play next; {bye} ends a page's session.
let booting = null; // the one start of the engine: a promise of its session maker
const watching = new Set(); // the ports to tell how the start goes
let lastProgress = null;

function tell(message) {
  if (message.progress !== undefined) lastProgress = message;
  for (const port of watching) port.postMessage(message);
}

function problem(error) {
  return String(error && error.message ? error.message : error);
}

// Python's memory with the engine imported (a "snapshot", about 38 MB, 9 MB compressed), made by
// the site build with this very runtime and archive and named after both: restoring it skips
// starting Python and importing the engine. Pyodide marks this part of its interface
// experimental, so any trouble with the snapshot (missing, damaged, refused) starts Python the
// ordinary way instead, with the same engine. Its bytes come as a promise, which Pyodide awaits
// only once its own files are in, so that the downloads and the inflating overlap; no snapshot
// (none published, or the request failed) is null. Once inflated and restored, the snapshot is
// kept as it is in the browser, under its own name, so that later starts skip the inflating.
const KEPT_PREFIX = "oracle-snapshot-";

function keptPlace(url) {
  return `${KEPT_PREFIX}${new URL(url).pathname.split("/").pop()}`;
}

async function keptSnapshot(url) {
  try {
    if (typeof caches === "undefined") return null;
    const response = await (await caches.open(keptPlace(url))).match(url);
    return response ? { bytes: response.arrayBuffer().then((b) => new Uint8Array(b)), kept: true } : null;
  } catch {
    return null;
  }
}

async function keepSnapshot(url, bytes) {
  if (typeof caches === "undefined") return;
  for (const name of await caches.keys()) { // another build's snapshot
    if (name.startsWith(KEPT_PREFIX) && name !== keptPlace(url)) await caches.delete(name);
  }
  if (bytes) await (await caches.open(keptPlace(url))).put(url, new Response(bytes));
  else await caches.delete(keptPlace(url));
}

async function siteSnapshot(url) {
  const kept = await keptSnapshot(url);
  if (kept) return kept;
  let response;
  try {
    response = await fetch(url);
  } catch {
    return null;
  }
  if (!response.ok) return null;
  const bytes = (async () => {
    const content = new Uint8Array(await response.arrayBuffer());
    if (content[0] !== 0x1f || content[1] !== 0x8b) return content; // a server inflated it
    const inflated = new Blob([content]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(inflated).arrayBuffer());
  })();
  return { bytes, kept: false };
}

// Pyodide's module owns its memory and starts it small; a snapshot needs it as large as it was.
async function withMemoryFor(snapshotBytes, load) {
  const original = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    const result = await original.call(WebAssembly, source, imports);
    const memory = result.instance.exports.memory;
    const { byteLength } = await snapshotBytes;
    const missing = Math.ceil((byteLength - memory.buffer.byteLength) / 65536);
    if (missing > 0) memory.grow(missing);
    return result;
  };
  try {
    return await load();
  } finally {
    WebAssembly.instantiateStreaming = original;
  }
}

const RULES_INDEX = "/oracle-site/oracle_site/rules-index.yaml";

// Python with the engine imported and a session maker (which holds the rules index): restored
// from the snapshot, whose files are unpacked again (it holds only Python's memory), or else
// started the ordinary way.
async function startPython(loadPyodide, runtime, archive, snapshot) {
  const options = { indexURL: runtime, packages: [], fullStdLib: false };
  let unused = snapshot ? null : "no snapshot was published";
  const unpack = (pyodide) => pyodide.unpackArchive(archive, "zip", { extractDir: "/oracle-site" });
  if (snapshot) {
    try {
      const load = () => loadPyodide({ ...options, _loadSnapshot: snapshot.bytes });
      const pyodide = await withMemoryFor(snapshot.bytes, load);
      unpack(pyodide);
      pyodide.runPython("import random; random.seed()"); // every reader's own, not the build's
      const sessionMaker = pyodide.globals.get("oracle_session_maker");
      if (sessionMaker) return { pyodide, sessionMaker, restored: true };
      unused = "the snapshot holds no session maker";
    } catch (error) {
      unused = problem(error); // and started below the ordinary way
    }
  }
  const pyodide = await loadPyodide(options);
  unpack(pyodide);
  pyodide.runPython("import sys; sys.path.insert(0, '/oracle-site')");
  const pages = pyodide.pyimport("oracle.browser.pages");
  const sessionMaker = pages.session_maker(RULES_INDEX);
  pages.destroy();
  return { pyodide, sessionMaker, restored: false, unused };
}

async function start(runtime, bundle, snapshotUrl) {
  const began = performance.now();
  const timings = {};
  const lap = (name) => { timings[name] = Math.round(performance.now() - began); };
  tell({ progress: 1, text: "Starting Python…" });
  const [{ loadPyodide }, snapshot, archive] = await Promise.all([
    import(new URL("pyodide.mjs", runtime).href),
    snapshotUrl ? siteSnapshot(snapshotUrl) : null,
    fetch(bundle).then((response) => {
      if (!response.ok) throw new Error(`the engine archive did not load (${response.status})`);
      return response.arrayBuffer();
    }),
  ]);
  lap("fetched");
  if (snapshot) snapshot.bytes.then(() => lap("snapshot"), () => {});
  tell({ progress: 2, text: "Loading the rules engine…" });
  const { sessionMaker, restored, unused } = await startPython(loadPyodide, runtime, new Uint8Array(archive), snapshot);
  if (snapshot && restored !== snapshot.kept) {
    // restored from the site's copy: keep it inflated; a kept copy that failed: drop it
    snapshot.bytes.then((bytes) => keepSnapshot(snapshotUrl, restored ? bytes : null)).catch(() => {});
  }
  lap("engine");
  const from = restored ? (snapshot.kept ? "browser" : "site") : null;
  return { session: sessionMaker, timings, restored: from, unused };
}

// Once started, the engine asks itself a few claims on boards of its own while no page asks
// anything (Session.warm_up): WebAssembly runs first on a quick, slower tier and compiles what
// runs often to a faster one, so the first dozen claims after a start take 7-40 ms against 3-5
// later. Each warm-up claim is a task of its own, run only after a quiet spell, so a page's
// question waits behind one at most; readiness and the pages' first paint never wait for them.
const WARM_UP_CLAIMS = 16;
const QUIET_MS = 50; // since the last answer to a page, before a warm-up claim
let lastAsked = 0;

function warmUp(engine) {
  let warmer = null;
  let step = 0;
  const next = () => {
    const quiet = performance.now() - lastAsked;
    if (quiet < QUIET_MS) {
      setTimeout(next, QUIET_MS - quiet);
      return;
    }
    try {
      if (!warmer) warmer = engine.session();
      warmer.warm_up(step);
      step += 1;
    } catch {
      step = WARM_UP_CLAIMS; // a warm-up is worth no trouble: the pages' claims are as before
    }
    if (step < WARM_UP_CLAIMS) setTimeout(next, 0);
    else if (warmer) warmer.destroy();
  };
  setTimeout(next, QUIET_MS);
}

function serve(port) {
  let session = null;
  port.onmessage = async (event) => {
    const message = event.data;
    if (message.start) {
      const kept = booting !== null;
      if (!booting) {
        booting = start(message.runtime, message.bundle, message.snapshot);
        booting.then(warmUp, () => {});
      }
      watching.add(port);
      if (lastProgress) port.postMessage(lastProgress);
      try {
        const engine = await booting;
        if (!message.warm) session = engine.session();
        const { restored, unused, timings } = engine;
        port.postMessage({ ready: true, kept, restored, unused, timings });
      } catch (error) {
        booting = null; // the next page to ask tries again
        port.postMessage({ failed: problem(error) });
      } finally {
        watching.delete(port);
      }
      return;
    }
    if (message.bye) {
      if (session) session.destroy();
      session = null;
      return;
    }
    try {
      const began = performance.now();
      const answer = session.call(message.call, JSON.stringify(message.request));
      const engineMs = performance.now() - began; // Python's share of the page's wait
      port.postMessage({ id: message.id, answer: JSON.parse(answer), engineMs });
    } catch (error) {
      port.postMessage({ id: message.id, error: problem(error) });
    } finally {
      lastAsked = performance.now();
    }
  };
}

if (typeof SharedWorkerGlobalScope !== "undefined" && self instanceof SharedWorkerGlobalScope) {
  self.onconnect = (event) => {
    const [port] = event.ports;
    serve(port);
    port.start();
  };
} else {
  serve(self);
}
