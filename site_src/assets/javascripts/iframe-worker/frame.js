// Inside the hidden frame that stands in for a Worker on a page opened from disk (see
// file-worker.js): the two globals a worker script uses, and its errors passed up to the page.
(() => {
  const worker = document.currentScript.dataset.worker;
  self.postMessage = (message) => parent.postMessage(message, "*");
  self.importScripts = (...urls) => urls.reduce(
    (done, url) => done.then(() => new Promise((resolve) => {
      const script = document.createElement("script");
      script.src = url;
      script.onload = resolve;
      document.body.appendChild(script);
    })),
    Promise.resolve(),
  );
  addEventListener("error", (event) => {
    parent.dispatchEvent(new ErrorEvent("error", {
      filename: worker, message: event.message, error: event.error,
    }));
  });
})();
