// The site's service worker: keeps the engine pages' runtime, engine archive and snapshot in the browser
// (the Cache API), fetched once, in the background, when any page of the site is first opened.
// Only those files, whose names say their content, are answered from the cache; pages and every
// other file go to the site as usual. A build with a new engine or runtime is a new cache name:
// this worker is then replaced and the old cache deleted, so nothing stale is ever served.
// (The build puts CACHE and FILES, paths from the site's root, above this code.)
const ROOT = new URL("./", self.location.href);
const KEPT = new Set(FILES.map((path) => new URL(path, ROOT).href));

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const missing = [];
    for (const url of KEPT) if (!(await cache.match(url))) missing.push(url);
    await cache.addAll(missing);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("oracle-engine-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || !KEPT.has(request.url)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(request);
    if (kept) return kept;
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  })());
});
