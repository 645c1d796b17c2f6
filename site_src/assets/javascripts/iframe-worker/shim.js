// Search on a copy of the site opened from disk (file://), where the browser starts no Worker.
// Material's offline search runs its index in a Worker; on such a page this stands in for one
// with a hidden frame, as the iframe-worker package does (MIT, by Martin Donath), but with no
// inline script, so that the page's Content-Security-Policy holds inside the frame too: the
// globals a worker expects come from frame.js, a file of the site.
(() => {
  if (location.protocol !== "file:") return;
  const frameScript = new URL("frame.js", document.currentScript.src).href;
  const attribute = (value) => String(value).replace(/&/g, "&amp;").replace(/"/g, "&quot;")
    .replace(/</g, "&lt;");

  class FrameWorker extends EventTarget {
    constructor(url) {
      super();
      this.url = new URL(String(url), document.baseURI).href;
      this.frame = document.createElement("iframe");
      this.frame.hidden = true;
      document.body.appendChild(this.frame);
      const inner = this.frame.contentWindow;
      window.addEventListener("message", (event) => {
        if (event.source !== inner) return;
        const message = new MessageEvent("message", { data: event.data });
        this.dispatchEvent(message);
        if (this.onmessage) this.onmessage(message);
      });
      window.addEventListener("error", (event) => {
        if (event.filename !== this.url) return;
        const error = new ErrorEvent("error", { message: event.message, error: event.error });
        this.dispatchEvent(error);
        if (this.onerror) this.onerror(error);
      });
      inner.document.open();
      inner.document.write(
        `<html><body><script src="${attribute(frameScript)}" data-worker="${attribute(this.url)}">`
        + `</script><script src="${attribute(this.url)}"></script></body></html>`,
      );
      inner.document.close();
      // Listeners set before document.open() would be gone: wait for the frame's scripts now.
      this.ready = new Promise((resolve, reject) => {
        inner.onload = resolve;
        inner.onerror = reject;
      });
    }

    postMessage(data) {
      this.ready.catch(() => undefined).then(() => {
        this.frame.contentWindow.dispatchEvent(new MessageEvent("message", structuredClone({ data })));
      });
    }

    terminate() {
      this.frame.remove();
    }
  }

  window.Worker = FrameWorker;
})();
