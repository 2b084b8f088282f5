// The site's service worker (frontend/installable.py makes this script; it is served at /sw.js).
// It keeps the static assets of this version of the site, answers for them from its cache, and
// shows the offline page when a page cannot be reached. It never answers for the API, the
// websockets or the admin: those go to the server, or fail, as if it were not there.
const VERSION = {{ version|safe }};
const CACHE = `patience-static-${VERSION}`;
const ASSETS = {{ assets|safe }};
const OFFLINE = {{ offline|safe }};
const NEVER_CACHED = {{ never_cached|safe }};
const STATIC = {{ static_prefix|safe }};

self.addEventListener("install", (event) => {
  // "reload": past the browser's HTTP cache, so a deploy's files are the ones kept.
  const requests = [...ASSETS, OFFLINE].map((url) => new Request(url, { cache: "reload" }));
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(requests))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  // The caches of earlier versions go: their files are those of an older deploy.
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("patience-") && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (NEVER_CACHED.some((prefix) => url.pathname.startsWith(prefix))) return;
  if (request.mode === "navigate") {
    // Pages are each player's own and always fresh from the server; only a failure to reach it
    // gets the offline page.
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE, { cacheName: CACHE })));
    return;
  }
  if (url.pathname.startsWith(STATIC)) {
    event.respondWith(
      caches.open(CACHE).then(async (cache) => {
        const kept = await cache.match(request, { ignoreSearch: true });
        if (kept) return kept;
        const response = await fetch(request);
        if (response.ok) cache.put(request, response.clone());
        return response;
      }),
    );
  }
});
