// Runs the rules engine (engine/ and the case loader, unchanged) in Pyodide, off the page's
// thread. The page sends {id, call, request}; the answer comes back as {id, answer} or
// {id, error}. Every file comes from this site: the runtime and the engine archive.
let engine = null;

async function start(runtime, bundle) {
  const step = (value, text) => postMessage({ progress: value, text });
  step(1, "Starting Python…");
  const { loadPyodide } = await import(new URL("pyodide.mjs", runtime).href);
  const pyodide = await loadPyodide({ indexURL: runtime, packages: [], fullStdLib: false });
  step(2, "Fetching the rules engine…");
  const response = await fetch(bundle);
  if (!response.ok) throw new Error(`the engine archive did not load (${response.status})`);
  pyodide.unpackArchive(new Uint8Array(await response.arrayBuffer()), "zip", {
    extractDir: "/oracle-site",
  });
  step(3, "Loading the rules engine…");
  pyodide.runPython("import sys; sys.path.insert(0, '/oracle-site')");
  const session = pyodide.runPython("from oracle.browser.pages import Session; Session()");
  const call = (name, request) => session.call(name, request);
  call("configure", JSON.stringify({ rules_index: "/oracle-site/oracle_site/rules-index.yaml" }));
  return call;
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.start) {
    try {
      engine = await start(message.runtime, message.bundle);
      postMessage({ ready: true });
    } catch (error) {
      postMessage({ failed: String(error && error.message ? error.message : error) });
    }
    return;
  }
  try {
    const answer = engine(message.call, JSON.stringify(message.request));
    postMessage({ id: message.id, answer: JSON.parse(answer) });
  } catch (error) {
    postMessage({ id: message.id, error: String(error && error.message ? error.message : error) });
  }
};
