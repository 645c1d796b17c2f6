// Runs the rules engine (engine/ and the case loader, unchanged) in Pyodide, off the pages'
// threads. Started as a shared worker, it serves every page of this site open in the browser and
// outlives a move from one page to the next, so Python starts once; where the browser has no
// shared workers, each page starts a worker of its own, with the same code.
//
// A page (a port) sends {start, runtime, bundle}, then {id, call, request}; it gets progress
// messages, {ready} (saying whether the engine was running already, or restored from a
// snapshot) or {failed}, then {id, answer} or {id, error}. Each page has a session of its
// own (its game), over the one engine. {start, warm: true} only starts the engine, for a page
// that expects the reader to open Ask or Play next; {bye} ends a page's session.
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

// Python's memory once the engine is imported (a "snapshot", about 40 MB), kept in the browser
// under the names of the runtime (its folder names Pyodide's version) and of the engine archive:
// the next start with both the same restores it instead of starting Python and importing the
// engine again, and a new runtime or a new engine never gets another's memory. Pyodide marks
// this part of its interface experimental, so any trouble with a snapshot drops it and starts
// Python the ordinary way.
function snapshotPlace(runtime, bundle) {
  const last = (url) => new URL(url).pathname.split("/").filter(Boolean).pop();
  return { cache: `oracle-snapshot-${last(runtime)}-${last(bundle)}`, key: `${bundle}.snapshot` };
}

async function keptSnapshot(runtime, bundle) {
  if (typeof caches === "undefined") return null;
  try {
    const place = snapshotPlace(runtime, bundle);
    const response = await (await caches.open(place.cache)).match(place.key);
    return response ? new Uint8Array(await response.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

async function keepSnapshot(runtime, bundle, snapshot) {
  if (typeof caches === "undefined") return;
  const place = snapshotPlace(runtime, bundle);
  for (const name of await caches.keys()) {
    if (name.startsWith("oracle-snapshot-") && name !== place.cache) await caches.delete(name);
  }
  if (snapshot) await (await caches.open(place.cache)).put(place.key, new Response(snapshot));
}

// Pyodide's module owns its memory and starts it small; a snapshot needs it as large as it was.
async function withMemoryFor(bytes, load) {
  const original = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    const result = await original.call(WebAssembly, source, imports);
    const memory = result.instance.exports.memory;
    const missing = Math.ceil((bytes - memory.buffer.byteLength) / 65536);
    if (missing > 0) memory.grow(missing);
    return result;
  };
  try {
    return await load();
  } finally {
    WebAssembly.instantiateStreaming = original;
  }
}

async function startPython(loadPyodide, runtime, bundle, snapshot) {
  const options = { indexURL: runtime, packages: [], fullStdLib: false };
  if (snapshot) {
    try {
      const pyodide = await withMemoryFor(snapshot.byteLength, () => loadPyodide({ ...options, _loadSnapshot: snapshot }));
      // A snapshot that does not hold the engine fails here, and Python starts the usual way.
      pyodide.runPython("import oracle.browser.pages");
      return { pyodide, restored: true };
    } catch {
      await keepSnapshot(runtime, bundle, null).catch(() => {}); // a snapshot that fails is not used again
    }
  }
  return { pyodide: await loadPyodide({ ...options, _makeSnapshot: true }), restored: false };
}

async function start(runtime, bundle) {
  const began = performance.now();
  const timings = {};
  const lap = (name) => { timings[name] = Math.round(performance.now() - began); };
  tell({ progress: 1, text: "Starting Python…" });
  const [{ loadPyodide }, snapshot, archive] = await Promise.all([
    import(new URL("pyodide.mjs", runtime).href),
    keptSnapshot(runtime, bundle),
    fetch(bundle).then((response) => {
      if (!response.ok) throw new Error(`the engine archive did not load (${response.status})`);
      return response.arrayBuffer();
    }),
  ]);
  const { pyodide, restored } = await startPython(loadPyodide, runtime, bundle, snapshot);
  lap("python");
  tell({ progress: 2, text: "Unpacking the rules engine…" });
  // The files go to the file system even after a snapshot, which holds only Python's memory.
  pyodide.unpackArchive(new Uint8Array(archive), "zip", { extractDir: "/oracle-site" });
  lap("archive");
  tell({ progress: 3, text: "Loading the rules engine…" });
  if (!restored) {
    pyodide.runPython("import sys; sys.path.insert(0, '/oracle-site'); import oracle.browser.pages");
    const made = pyodide.makeMemorySnapshot();
    keepSnapshot(runtime, bundle, made).catch(() => {}); // without it, the next start imports again
  }
  const sessionMaker = pyodide.pyimport("oracle.browser.pages").session_maker;
  const session = sessionMaker("/oracle-site/oracle_site/rules-index.yaml");
  sessionMaker.destroy();
  lap("engine");
  return { session, timings, restored };
}

function serve(port) {
  let session = null;
  port.onmessage = async (event) => {
    const message = event.data;
    if (message.start) {
      const kept = booting !== null;
      if (!booting) booting = start(message.runtime, message.bundle);
      watching.add(port);
      if (lastProgress) port.postMessage(lastProgress);
      try {
        const engine = await booting;
        if (!message.warm) session = engine.session();
        port.postMessage({ ready: true, kept, restored: engine.restored, timings: engine.timings });
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
      const answer = session.call(message.call, JSON.stringify(message.request));
      port.postMessage({ id: message.id, answer: JSON.parse(answer) });
    } catch (error) {
      port.postMessage({ id: message.id, error: problem(error) });
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
