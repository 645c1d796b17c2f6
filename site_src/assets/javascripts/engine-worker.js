// Runs the rules engine (engine/ and the case loader, unchanged) in Pyodide, off the pages'
// threads. Started as a shared worker, it serves every page of this site open in the browser and
// outlives a move from one page to the next, so Python starts once; where the browser has no
// shared workers, each page starts a worker of its own, with the same code.
//
// A page (a port) sends {start, runtime, bundle}, then {id, call, request}; it gets progress
// messages, {ready} or {failed}, then {id, answer} or {id, error}. Each page has a session of its
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

async function start(runtime, bundle) {
  const began = performance.now();
  const timings = {};
  const lap = (name) => { timings[name] = Math.round(performance.now() - began); };
  tell({ progress: 1, text: "Starting Python…" });
  const [{ loadPyodide }, archive] = await Promise.all([
    import(new URL("pyodide.mjs", runtime).href),
    fetch(bundle).then((response) => {
      if (!response.ok) throw new Error(`the engine archive did not load (${response.status})`);
      return response.arrayBuffer();
    }),
  ]);
  const pyodide = await loadPyodide({ indexURL: runtime, packages: [], fullStdLib: false });
  lap("python");
  tell({ progress: 2, text: "Unpacking the rules engine…" });
  pyodide.unpackArchive(new Uint8Array(archive), "zip", { extractDir: "/oracle-site" });
  lap("archive");
  tell({ progress: 3, text: "Loading the rules engine…" });
  pyodide.runPython("import sys; sys.path.insert(0, '/oracle-site')");
  const sessionMaker = pyodide.pyimport("oracle.browser.pages").session_maker;
  const session = sessionMaker("/oracle-site/oracle_site/rules-index.yaml");
  sessionMaker.destroy();
  lap("engine");
  return { session, timings };
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
        port.postMessage({ ready: true, kept, timings: engine.timings });
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
