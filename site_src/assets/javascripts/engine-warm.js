// On every page of the site: keep the engine's files in the browser (the service worker
// engine-cache.js, registered here, fetches them once in the background), and start the engine
// as soon as the reader points at a link to Ask or Play, so it is running when the page opens.
import { servedOverHttp, warmEngine } from "./engine-client.js";

const ENGINE_PAGES = /(?:^|\/)(?:ask|play)(?:\.html|\/)?$/;

function registerCache() {
  if (!servedOverHttp() || !("serviceWorker" in navigator) || !window.isSecureContext) return;
  if (navigator.connection && navigator.connection.saveData) return; // the reader asked to save data
  const root = new URL("../../", import.meta.url);
  navigator.serviceWorker.register(new URL("engine-cache.js", root), { scope: root.pathname })
    .catch(() => {}); // without the cache the engine pages load as before
}

function warmOnApproach() {
  let warmed = false;
  const approach = (event) => {
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (warmed || !link || document.getElementById("oracle-app")) return;
    const target = new URL(link.href, location.href);
    if (target.origin !== location.origin || !ENGINE_PAGES.test(target.pathname)) return;
    warmed = true;
    warmEngine();
  };
  document.addEventListener("pointerover", approach, { passive: true });
  document.addEventListener("focusin", approach);
  document.addEventListener("touchstart", approach, { passive: true });
}

registerCache();
warmOnApproach();
