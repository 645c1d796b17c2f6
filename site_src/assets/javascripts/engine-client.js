// The page's side of the engine: connects to the engine's worker, shows how its start goes, and
// offers ask(call, request) -> Promise of the engine's answer, and timing.engineMs, the
// milliseconds the last answer took in the worker. No rule is decided here.
import { bundle, engine, runtime, snapshot } from "./engine-files.js";

const WORKER = new URL("engine-worker.js", import.meta.url);

// The engine's worker. A shared worker, named after this build's engine archive, is the same
// for every page of the site open in the browser and lives on for a while after a page closes
// (extendedLifetime), so going from Ask to Play, or reloading, finds Python already started.
// A browser without shared workers gets a worker for this page alone.
function connect() {
  if (typeof SharedWorker === "function") {
    try {
      const worker = new SharedWorker(WORKER, {
        type: "module",
        name: `oracle-engine-${engine}`,
        extendedLifetime: true,
      });
      worker.port.start();
      return { port: worker.port, worker, shared: true };
    } catch {
      // a browser that refuses module shared workers: a worker of this page's own, below
    }
  }
  const worker = new Worker(WORKER, { type: "module" });
  return { port: worker, worker, shared: false };
}

export function servedOverHttp() {
  return location.protocol === "http:" || location.protocol === "https:";
}

// Start the engine without waiting for it, for a page whose reader is heading to Ask or Play.
export function warmEngine() {
  if (!servedOverHttp() || typeof SharedWorker !== "function") return;
  const { port, shared } = connect();
  if (shared) port.postMessage({ start: true, runtime, bundle, snapshot, warm: true });
}

export function startEngine() {
  const progress = document.getElementById("oracle-progress");
  const text = document.getElementById("oracle-loading-text");
  const loading = document.getElementById("oracle-loading");
  const started = performance.now();
  const pending = new Map();
  const timing = { engineMs: null };
  let next = 1;
  let readyResolve, readyReject;
  const ready = new Promise((resolve, reject) => { readyResolve = resolve; readyReject = reject; });
  const fail = (problem) => {
    loading.classList.add("oracle-problem");
    text.textContent = `The engine could not start: ${problem}`;
    readyReject(new Error(problem));
  };
  if (!servedOverHttp()) {
    fail("this page was opened as a file, and a browser runs no worker from a file. Serve the site (make serve) and open it over http.");
    return { ready, ask: () => ready, timing };
  }
  const { port, worker, shared } = connect();
  worker.onerror = (event) => fail(event.message || "the worker stopped");
  port.onmessage = (event) => {
    const message = event.data;
    if (message.progress !== undefined) {
      progress.value = message.progress;
      text.textContent = message.text;
    } else if (message.ready) {
      const seconds = (performance.now() - started) / 1000;
      progress.value = 4;
      text.textContent = message.kept
        ? "The engine is ready (already running in this browser)."
        : `The engine is ready (started in ${seconds.toFixed(1)} s).`;
      loading.dataset.ready = "true";
      loading.dataset.seconds = seconds.toFixed(3);
      loading.dataset.kept = String(Boolean(message.kept));
      loading.dataset.restored = String(Boolean(message.restored));
      if (message.restored) loading.dataset.restoredFrom = message.restored; // "site" or "browser"
      if (message.unused) loading.dataset.snapshotUnused = message.unused; // why Python started afresh
      loading.dataset.timings = JSON.stringify(message.timings);
      readyResolve();
    } else if (message.failed) {
      fail(message.failed);
    } else if (pending.has(message.id)) {
      const { resolve, reject } = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) reject(new Error(message.error));
      else {
        timing.engineMs = message.engineMs;
        resolve(message.answer);
      }
    }
  };
  if (shared) {
    // This page's session (its game) ends with the page; the engine stays for the next one.
    addEventListener("pagehide", (event) => { if (!event.persisted) port.postMessage({ bye: true }); });
  }
  port.postMessage({ start: true, runtime, bundle, snapshot });
  const ask = (call, request) => ready.then(() => new Promise((resolve, reject) => {
    const id = next++;
    pending.set(id, { resolve, reject });
    port.postMessage({ id, call, request });
  }));
  return { ready, ask, timing };
}
