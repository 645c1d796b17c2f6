// The page's side of the engine: starts the worker, shows the loading progress, and offers
// ask(call, request) -> Promise of the engine's answer. No rule is decided here.
export function startEngine(app) {
  const progress = document.getElementById("oracle-progress");
  const text = document.getElementById("oracle-loading-text");
  const loading = document.getElementById("oracle-loading");
  const started = performance.now();
  const pending = new Map();
  let next = 1;
  let readyResolve, readyReject;
  const ready = new Promise((resolve, reject) => { readyResolve = resolve; readyReject = reject; });
  const fail = (problem) => {
    loading.classList.add("oracle-problem");
    text.textContent = `The engine could not start: ${problem}`;
    readyReject(new Error(problem));
  };
  if (location.protocol === "file:") {
    fail("this page must be served over http (run make serve), not opened as a file.");
    return { ready, ask: () => ready };
  }
  const runtime = new URL(app.dataset.runtime, document.baseURI).href;
  const bundle = new URL(app.dataset.bundle, document.baseURI).href;
  const worker = new Worker(new URL("engine-worker.js", import.meta.url), { type: "module" });
  worker.onerror = (event) => fail(event.message || "the worker stopped");
  worker.onmessage = (event) => {
    const message = event.data;
    if (message.progress !== undefined) {
      progress.value = message.progress;
      text.textContent = message.text;
    } else if (message.ready) {
      const seconds = (performance.now() - started) / 1000;
      progress.value = 4;
      text.textContent = `The engine is ready (loaded in ${seconds.toFixed(1)} s).`;
      loading.dataset.ready = "true";
      loading.dataset.seconds = seconds.toFixed(3);
      readyResolve();
    } else if (message.failed) {
      fail(message.failed);
    } else if (pending.has(message.id)) {
      const { resolve, reject } = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) reject(new Error(message.error));
      else resolve(message.answer);
    }
  };
  worker.postMessage({ start: true, runtime, bundle });
  const ask = (call, request) => ready.then(() => new Promise((resolve, reject) => {
    const id = next++;
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, call, request });
  }));
  return { ready, ask };
}
