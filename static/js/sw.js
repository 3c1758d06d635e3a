/* Gangfight's service worker (issue 29; docs/offline.md). Served at /sw.js by
   common/offline.py, so it controls the whole site.

   - Static files (/static/…): cache first when their name carries the hash the production
     storage gives it (a changed file has a new name), else network first.
   - Pages and printed files: network first. An answer is kept only when the server marked
     it (the Gangfight-Offline header, whose value is the user's opaque key), in that user's
     cache; with no network the kept copy is answered, marked as such (<html
     data-offline-as-of="…">, and a Gangfight-Offline-As-Of header), for app.js to say so
     and to disable what can't work. Never a POST, never an answer without the mark, never
     another user's: the worker remembers whose pages it keeps (persisted: it survives a
     restart) and forgets the others' as soon as another user (or nobody) is seen.
   - A gang's page answered with signal names the gang's version: a kept PDF of that gang
     at another version is fetched again, in the background, so a stale one is never kept.
   - Taps waiting in IndexedDB (play.js) are sent, in order, by Background Sync when the
     network returns, even with every tab closed.
   The worker adds no request to a page with signal: no navigation preload, and nothing is
   fetched at install. */
"use strict";

var VERSION = "1";
var STATIC = "gangfight-static-v" + VERSION;
var PAGES = "gangfight-pages-";  // + the user's key
var META = "gangfight-meta";
var WHO = "/__gangfight/offline-user";  // where the current user's key is kept, in META
var STATIC_PREFIX = "/static/";
// ManifestStaticFilesStorage's names: app.0123456789ab.js
var HASHED = /\.[0-9a-f]{12}(\.[A-Za-z0-9]+)$/;
// The printed files the server may mark (builder/urls.py): PDFs and the shared roster
var FILES = /^\/(gangs\/\d+\/(print\/|sheet\.pdf)|s\/[^/]+\/(print\/|sheet\.pdf|roster\.json))$/;
var HEADER = "Gangfight-Offline";
var USER_HEADER = "Gangfight-Offline-User";
var GROUP = "Gangfight-Offline-Group";
var GROUP_VERSION = "Gangfight-Offline-Version";
var CACHED_AT = "Gangfight-Cached-At";
var AS_OF = "Gangfight-Offline-As-Of";
// The taps' queue (play.js keeps the same names)
var DB_NAME = "gangfight";
var DB_VERSION = 1;
var TAPS = "taps";
var SYNC_TAG = "gangfight-taps";
var LOCK = "gangfight-taps";

self.addEventListener("install", function () {
  self.skipWaiting();  // nothing to fetch: what is kept, is kept as it is visited
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("gangfight-static-") === 0 && name !== STATIC;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

/* ---- whose pages are kept ---------------------------------------------------------- */
var current;  // the user key (null: nobody), undefined until read back

function currentUser() {
  if (current !== undefined) return Promise.resolve(current);
  return caches.match(WHO, { cacheName: META }).then(function (hit) {
    return hit ? hit.text() : "";
  }).then(function (text) {
    current = text || null;
    return current;
  });
}

function forgetOthers(key) {
  return caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf(PAGES) === 0 && name !== PAGES + key;
    }).map(function (name) { return caches.delete(name); }));
  });
}

function setUser(key) {
  return currentUser().then(function (was) {
    if (was === key) return null;
    current = key;
    return caches.open(META).then(function (meta) {
      return key ? meta.put(WHO, new Response(key)) : meta.delete(WHO);
    }).then(function () { return forgetOthers(key); });
  });
}

/* ---- pages and printed files ------------------------------------------------------- */
function stamped(response) {
  // A copy to keep, with the time it was kept.
  var headers = new Headers(response.headers);
  headers.set(CACHED_AT, new Date().toISOString());
  return response.blob().then(function (body) {
    return new Response(body, { status: response.status, statusText: response.statusText, headers: headers });
  });
}

function keep(url, response) {
  var key = response.headers.get(HEADER);
  if (!key) {
    var who = response.headers.get(USER_HEADER);
    return who ? setUser(who === "anonymous" ? null : who) : Promise.resolve();
  }
  if (response.status !== 200 || response.type !== "basic" || response.redirected) {
    return setUser(key);
  }
  return setUser(key).then(function () {
    return Promise.all([caches.open(PAGES + key), stamped(response)]);
  }).then(function (both) {
    return both[0].put(url, both[1]).then(function () {
      var group = response.headers.get(GROUP);
      var version = response.headers.get(GROUP_VERSION);
      if (group && version && !FILES.test(new URL(url).pathname)) {
        return refreshStale(both[0], group, version);
      }
      return null;
    });
  });
}

// The gang's page says its version: each kept file of that gang at another version is
// fetched again (a stale PDF is replaced now, with signal, not shown later).
function refreshStale(cache, group, version) {
  return cache.keys().then(function (requests) {
    return Promise.all(requests.map(function (request) {
      if (!FILES.test(new URL(request.url).pathname)) return null;
      return cache.match(request).then(function (hit) {
        if (!hit || hit.headers.get(GROUP) !== group || hit.headers.get(GROUP_VERSION) === version) return null;
        return fetch(request.url, { credentials: "same-origin" }).then(function (fresh) {
          if (fresh.headers.get(HEADER) && fresh.status === 200) return keep(request.url, fresh);
          return cache.delete(request);  // no longer printable for this user: not kept
        }).catch(function () { return null; });
      });
    }));
  });
}

function fromCache(request) {
  return currentUser().then(function (key) {
    if (!key) return null;
    return caches.match(request.url, { cacheName: PAGES + key });
  }).then(function (hit) {
    if (!hit) return null;
    var asOf = hit.headers.get(CACHED_AT) || "";
    var headers = new Headers(hit.headers);
    headers.set(AS_OF, asOf);
    headers.delete(CACHED_AT);
    var html = (hit.headers.get("Content-Type") || "").indexOf("text/html") === 0;
    if (!html) {
      return new Response(hit.body, { status: hit.status, statusText: hit.statusText, headers: headers });
    }
    headers.delete("Content-Length");
    return hit.text().then(function (text) {
      // The page is a copy: it says so (app.js shows the bar and disables the forms).
      var marked = text.replace(/<html\b/i, '<html data-offline-as-of="' + asOf.replace(/[^0-9A-Za-z:.\-]/g, "") + '"');
      return new Response(marked, { status: hit.status, statusText: hit.statusText, headers: headers });
    });
  });
}

function page(event, request) {
  return fetch(request).then(function (response) {
    event.waitUntil(keep(request.url, response.clone()).catch(function () { /* full */ }));
    return response;
  }, function (error) {
    return fromCache(request).then(function (hit) {
      if (hit) return hit;
      throw error;
    });
  });
}

/* ---- static files ------------------------------------------------------------------ */
function stem(url) {
  return url.replace(HASHED, "$1");
}

function keepStatic(cache, request, response) {
  return cache.put(request, response).then(function () {
    if (!HASHED.test(new URL(request.url).pathname)) return null;
    // the same file's older versions go
    var mine = stem(request.url);
    return cache.keys().then(function (requests) {
      return Promise.all(requests.filter(function (r) {
        return r.url !== request.url && stem(r.url) === mine;
      }).map(function (r) { return cache.delete(r); }));
    });
  });
}

function staticFile(event, request, url) {
  return caches.open(STATIC).then(function (cache) {
    function fromNetwork() {
      return fetch(request).then(function (response) {
        if (response.status === 200 && response.type === "basic") {
          event.waitUntil(keepStatic(cache, request, response.clone()).catch(function () { /* full */ }));
        }
        return response;
      });
    }
    if (HASHED.test(url.pathname)) {
      return cache.match(request).then(function (hit) { return hit || fromNetwork(); });
    }
    return fromNetwork().catch(function (error) {
      return cache.match(request).then(function (hit) {
        if (hit) return hit;
        throw error;
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;  // never a POST: the browser sends it itself
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf(STATIC_PREFIX) === 0) {
    if (request.headers.has("Range")) return;
    event.respondWith(staticFile(event, request, url));
  } else if (request.mode === "navigate" || FILES.test(url.pathname)) {
    if (request.headers.get("HX-Request")) return;  // htmx's answers are pieces of a page
    event.respondWith(page(event, request));
  }
});

/* ---- log out: forget everything kept ------------------------------------------------ */
function forgetAll() {
  current = null;
  return caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf(PAGES) === 0 || name === META;
    }).map(function (name) { return caches.delete(name); }));
  });
}

/* ---- taps waiting: sent in order when the network returns -------------------------- */
function openDb() {
  return new Promise(function (resolve, reject) {
    var open = self.indexedDB.open(DB_NAME, DB_VERSION);
    open.onupgradeneeded = function () {
      var db = open.result;
      if (!db.objectStoreNames.contains(TAPS)) {
        db.createObjectStore(TAPS, { keyPath: "n", autoIncrement: true }).createIndex("game", "game");
      }
    };
    open.onsuccess = function () { resolve(open.result); };
    open.onerror = function () { reject(open.error); };
  });
}

function inStore(db, mode, work) {
  return new Promise(function (resolve, reject) {
    var tx = db.transaction(TAPS, mode);
    var result = work(tx.objectStore(TAPS));
    tx.oncomplete = function () { resolve(result && "result" in result ? result.result : undefined); };
    tx.onerror = function () { reject(tx.error); };
    tx.onabort = function () { reject(tx.error); };
  });
}

function sendTaps() {
  return openDb().then(function (db) {
    function next() {
      return inStore(db, "readonly", function (store) { return store.getAll(); }).then(function (taps) {
        if (!taps.length) return null;
        var tap = taps[0];
        return fetch(tap.url, {
          method: "POST",
          credentials: "same-origin",
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            "HX-Request": "true",
            "X-CSRFToken": tap.token || ""
          },
          body: tap.body + "&sent=" + Date.now()
        }).then(function (response) {
          // a server error or too many: later (the sync is tried again); anything else
          // is the server's answer for good (counted, or refused: the page says so)
          if (response.status >= 500 || response.status === 429) throw new Error("later");
          // Logged out (sent to the log-in page) or a token the session no longer takes:
          // the tap stays for the page, which sends it with its own token.
          if (response.redirected || response.status === 403) return "stop";
          return inStore(db, "readwrite", function (store) { return store.delete(tap.n); });
        }).then(function (done) { return done === "stop" ? null : next(); });
      });
    }
    return next().finally(function () { db.close(); });
  }).then(function () {
    return self.clients.matchAll({ type: "window" });
  }).then(function (windows) {
    windows.forEach(function (client) { client.postMessage({ type: "taps-sent" }); });
  });
}

function withLock(work) {
  if (self.navigator.locks) return self.navigator.locks.request(LOCK, work);
  return work();
}

self.addEventListener("sync", function (event) {
  if (event.tag === SYNC_TAG) event.waitUntil(withLock(sendTaps));
});

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "logout") event.waitUntil(forgetAll());
  else if (data.type === "send-taps") event.waitUntil(withLock(sendTaps));
});
