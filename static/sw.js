/* The table screen without the network: this tablet keeps the last hand screen it drew and
 * the files it needs, so a reload or a new tab while the connection is down still shows the
 * table and the entries pending on it (static/dealer.js keeps those, in localStorage).
 *
 * A hand screen (/hands/N) is asked of the server first, always; only when the server cannot
 * be reached is the copy kept here shown. The stylesheet and the script are served at an
 * address naming their content (dealer/web/assets.py), never changing: kept here the first
 * time they are fetched, an older release's copy let go when a newer one is kept. Nothing
 * else passes through here: every write goes to the server, or waits in the page's queue.
 *
 * Browsers allow a service worker only over HTTPS or on the machine itself (localhost); a
 * floor served over plain HTTP on the room's network gets none (docs/offline.md: "Without the
 * network, the hand screen still opens"). */
var PAGES = "dealer-pages-1";
var FILES = "dealer-files-1";
var HAND = /^\/hands\/\d+$/;

// Everything but a hand screen opened and the hashed files goes straight to the network,
// never waking this worker (where the browser has static routes): an entry sent, its answer
// and the live screens' asks cost no more than without it.
self.addEventListener("install", function (event) {
  self.skipWaiting();
  if (!event.addRoutes) return;
  event.waitUntil(event.addRoutes([
    { condition: { requestMode: "navigate" }, source: "fetch-event" },
    { condition: { urlPattern: { pathname: "/static/*" } }, source: "fetch-event" },
    { condition: { urlPattern: { pathname: "/*" } }, source: "network" },
  ]).catch(function () { /* routes refused: every ask passes through the handler */ }));
});
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

function keepFile(cache, request, response) {
  var url = new URL(request.url);
  return cache.keys().then(function (kept) {
    return Promise.all(kept.filter(function (old) {
      return new URL(old.url).pathname === url.pathname;
    }).map(function (old) { return cache.delete(old); }));
  }).then(function () { return cache.put(request, response); });
}

function file(request) {
  return caches.open(FILES).then(function (cache) {
    return cache.match(request).then(function (found) {
      if (found) return found;
      return fetch(request).then(function (response) {
        if (response.ok) keepFile(cache, request, response.clone());
        return response;
      });
    });
  });
}

function page(request) {
  var url = new URL(request.url);
  var where = url.origin + url.pathname;
  return fetch(request).then(function (response) {
    if (response.ok && !response.redirected && new URL(response.url).pathname === url.pathname) {
      var copy = response.clone();
      caches.open(PAGES).then(function (cache) { return cache.put(where, copy); });
    }
    return response;
  }, function (problem) {
    return caches.open(PAGES).then(function (cache) {
      return cache.match(where).then(function (found) {
        if (found) return found;
        throw problem;
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/static/") === 0 && url.searchParams.get("v")) {
    event.respondWith(file(request));
  } else if (request.mode === "navigate" && HAND.test(url.pathname)) {
    event.respondWith(page(request));
  }
});
