/* Play mode at the table: taps survive a poor signal, a closed tab and a restart.

   Every tap (a button of a .play-form) goes into a queue kept in IndexedDB (localStorage
   where the browser has no IndexedDB), with an id made here (client_id), this phone's id
   and its own count of taps (phone, phone_seq: never reused), the time it was made
   (made_at) and the table version the page showed then (seen); the queue is sent in
   order, one tap at a time, each saying when it left (sent). When the network is gone the
   tap waits, the page says "Offline: N taps waiting", and the queue is sent when the
   network returns, when the page is loaded again, or by the service worker (Background
   Sync, static/js/sw.js) with every tab closed: a closed tab never loses a tap. A tap sent
   twice (its answer lost on the way) is counted once: the server knows its client_id. The
   answer (the table) is morphed into the page with idiomorph, through app.js's
   gangfightMorph (the builder's rules: `data-keep` trackers stay as they are, an open
   panel stays open, the focused button keeps the focus). The page polls the server every
   few seconds (htmx, the same morph, saying which phone asks and when) for the other
   player's taps; an answer older than what the page shows is not used.
   Without JavaScript every button is a plain post. */
(function () {
  "use strict";

  var root = document.getElementById("play-root");
  if (!root) return;
  // The table's taps may be made offline, even on a copy of the page the service worker
  // kept: app.js leaves the forms inside [data-offline-ok] working.
  root.setAttribute("data-offline-ok", "");
  var GAME = String(root.dataset.game);
  var KEY = "gangfight-play-" + GAME;  // the queue in localStorage, where IndexedDB is missing
  var banner = document.getElementById("play-offline");
  var WAITING = root.dataset.waitingWord || "waiting";
  var sending = false;
  var offline = false;
  var retry = null;

  /* ---- the queue: IndexedDB (the service worker reads it too), else localStorage ------
     The same database as static/js/sw.js's: "gangfight", store "taps", keyed by an
     increasing number (the order taps were made in), indexed by game. `queue` is this
     game's taps as last read or written: the page reads it at once (to show the taps
     waiting, to hold the poll back); the store is the truth. */
  var DB_NAME = "gangfight";
  var DB_VERSION = 1;
  var TAPS = "taps";
  var SYNC_TAG = "gangfight-taps";
  var LOCK = "gangfight-taps";
  var queue = [];
  var dbPromise = null;

  function openDb() {
    if (!window.indexedDB) return Promise.reject(new Error("no IndexedDB"));
    if (!dbPromise) {
      dbPromise = new Promise(function (resolve, reject) {
        var open = window.indexedDB.open(DB_NAME, DB_VERSION);
        open.onupgradeneeded = function () {
          var db = open.result;
          if (!db.objectStoreNames.contains(TAPS)) {
            db.createObjectStore(TAPS, { keyPath: "n", autoIncrement: true }).createIndex("game", "game");
          }
        };
        open.onsuccess = function () {
          var db = open.result;
          db.onversionchange = function () { db.close(); dbPromise = null; };
          db.onclose = function () { dbPromise = null; };
          resolve(db);
        };
        open.onerror = function () { reject(open.error); };
        open.onblocked = function () { reject(new Error("blocked")); };
      });
      dbPromise.catch(function () { dbPromise = null; });
    }
    return dbPromise;
  }

  function inStore(mode, work) {
    return openDb().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(TAPS, mode);
        var request = work(tx.objectStore(TAPS));
        tx.oncomplete = function () { resolve(request ? request.result : undefined); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error); };
      });
    });
  }

  function localLoad() {
    try { return JSON.parse(window.localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
  }
  function localSave(list) {
    try { window.localStorage.setItem(KEY, JSON.stringify(list)); } catch (e) { /* full */ }
  }

  function load() {  // this game's taps waiting, in the order they were made
    return inStore("readonly", function (store) { return store.index("game").getAll(GAME); })
      .then(function (taps) {
        return taps.sort(function (a, b) { return a.n - b.n; });
      }, function () { return localLoad(); })
      .then(function (taps) { queue = taps; counted(); return taps; });
  }

  // A queue an earlier version of this page left in localStorage moves to IndexedDB.
  function migrate() {
    var old = localLoad();
    if (!old.length || !window.indexedDB) return Promise.resolve();
    return inStore("readwrite", function (store) {
      old.forEach(function (tap) { tap.game = GAME; delete tap.n; store.add(tap); });
      return null;
    }).then(function () {
      try { window.localStorage.removeItem(KEY); } catch (e) { /* nothing to remove */ }
    }, function () { /* IndexedDB refused: the queue stays where it was */ });
  }

  function add(tap) {
    queue.push(tap);
    counted();
    return inStore("readwrite", function (store) { return store.add(tap); })
      .then(function (n) { tap.n = n; }, function () { localSave(localLoad().concat([tap])); });
  }

  function remove(tap) {
    queue = queue.filter(function (t) { return t.id !== tap.id; });
    counted();
    var gone = tap.n !== undefined
      ? inStore("readwrite", function (store) { return store.delete(tap.n); })
      : Promise.reject(new Error("local"));
    return gone.catch(function () {
      localSave(localLoad().filter(function (t) { return t.id !== tap.id; }));
    });
  }

  function counted() {
    root.dataset.waiting = String(queue.length);
    show(queue.length);
  }

  // The browser sends the taps by itself when the network returns, even with the tab
  // closed (Background Sync, where the browser has it: static/js/sw.js).
  function syncLater() {
    if (!("serviceWorker" in navigator) || !window.indexedDB) return;
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.sync) return registration.sync.register(SYNC_TAG);
      return null;
    }).catch(function () { /* no Background Sync: the page sends them (load, online) */ });
  }

  function withLock(work) {  // the page and the worker never send the queue at once
    if (navigator.locks) return navigator.locks.request(LOCK, work);
    return work();
  }

  /* ---- this phone: an id made once, and a counter of its taps, never reused ---------- */
  function localGet(name) {
    try { return window.localStorage.getItem(name); } catch (e) { return null; }
  }
  function localSet(name, value) {
    try { window.localStorage.setItem(name, value); } catch (e) { /* private mode */ }
  }
  var phone = localGet("gangfight-phone");
  if (!phone || !/^[A-Za-z0-9]{1,32}$/.test(phone)) {
    phone = newId().replace(/[^A-Za-z0-9]/g, "").slice(0, 32);
    localSet("gangfight-phone", phone);
  }
  var lastSeq = 0;  // (where localStorage refuses, this page's count)
  function nextSeq() {
    var seq = Math.max(Number(localGet("gangfight-phone-seq")) || 0, lastSeq) + 1;
    lastSeq = seq;
    localSet("gangfight-phone-seq", String(seq));
    return seq;
  }

  function show(waiting) {
    if (!banner) return;
    if (!waiting && !offline) { banner.hidden = true; banner.textContent = ""; return; }
    var word = offline ? "offline" : "sending";
    var count = waiting === 0 ? "None" : waiting === 1 ? "One" : "Many";
    var text = banner.dataset[word + count] || "{n}";
    banner.textContent = text.replace("{n}", String(waiting));
    banner.hidden = false;
  }

  function token() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return ""; }
  }

  function newId() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID().replace(/-/g, "");
    return Date.now().toString(36) + Math.random().toString(36).slice(2);
  }

  function shownVersion() {
    var table = document.getElementById("play-table");
    return table ? Number(table.dataset.version) : 0;
  }

  function versionOf(html) {
    var match = /id="play-table"[^>]*data-version="(\d+)"/.exec(html);
    return match ? Number(match[1]) : null;
  }

  // Optimistic: a tap shows at once, before the server has it. Each counter a waiting tap
  // changes shows the change, marked "waiting"; the server's table (morphed in) is the truth,
  // so the marks are taken off before each morph and put back for the taps still waiting.
  function clearPending() {
    root.querySelectorAll("[data-was]").forEach(function (el) {
      el.textContent = el.dataset.was;
      delete el.dataset.was;
    });
    root.querySelectorAll(".pending-mark").forEach(function (el) { el.remove(); });
    root.querySelectorAll(".pending").forEach(function (el) { el.classList.remove("pending"); });
  }

  function mark(el, inline) {
    if (!el) return;
    el.classList.add("pending");
    if (el.querySelector(":scope > .pending-mark")) return;
    var tag = document.createElement("small");
    tag.className = "pending-mark" + (inline ? " inline" : "");
    tag.setAttribute("data-testid", "waiting");
    tag.textContent = WAITING;
    el.appendChild(tag);
  }

  function bump(value, delta) {
    if (!value || isNaN(delta)) return;
    if (value.dataset.was === undefined) value.dataset.was = value.textContent;
    var n = Number(value.textContent) + delta;
    if (!isNaN(n)) value.textContent = String(Math.max(0, n));
    mark(value.parentElement, false);
  }

  function applyPending() {
    queue.forEach(function (tap) {
      var data = new URLSearchParams(tap.body);
      var parts = (data.get("do") || "").split("/");
      var member = data.get("member") || "";
      var row = member ? document.getElementById("trk-" + member.replace("/", "-")) : null;
      if (parts[0] === "wound" && row) {
        var minus = row.querySelector('.counter button[value^="wound/"]');
        bump(minus && minus.closest(".counter").querySelector(".counter-value b"), -Number(parts[1]));
      } else if (parts[0] === "adjust" && row) {
        bump(row.querySelector('[data-testid="value-' + parts[1] + '"]'), Number(parts[2]));
      } else if (parts[0] === "turn") {
        bump(root.querySelector('[data-testid="turn"] b'), Number(parts[1]));
      } else if (parts[0] === "ap" || parts[0] === "vp") {
        bump(root.querySelector('[data-testid="' + parts[0] + "-" + parts[1] + '"] b'), Number(parts[2]));
      } else if (row) {
        mark(row.querySelector(".trk-head"), true);
      }
    });
  }

  function morph(html) {
    var incoming = versionOf(html);
    var errorShown = /id="play-error"[^>]*>[^<\s]/.test(html);
    if (incoming !== null && incoming < shownVersion() && !errorShown) return;
    var endedBefore = !!document.querySelector('[data-testid="ended-here"]');
    var template = document.createElement("template");
    template.innerHTML = html;
    clearPending();
    if (window.gangfightMorph) window.gangfightMorph(root, template.content);  // idiomorph
    else root.replaceChildren(template.content);  // (app.js not loaded: never on our pages)
    applyPending();
    var ended = document.querySelector('[data-testid="ended-here"]');
    if (ended && !endedBefore) {  // "End the game": the result shows where the button was
      ended.scrollIntoView({ block: "nearest" });
      ended.focus({ preventScroll: true });
    }
  }

  function later() {
    if (retry) return;
    retry = window.setTimeout(function () { retry = null; flush(); }, 2000);
  }

  function flush() {
    if (sending) return;
    sending = true;
    withLock(function () {
      return load().then(function (taps) {
        if (!taps.length) { offline = false; show(0); return null; }
        return send(taps[0]);
      });
    }).catch(function () {
      offline = true;
      show(queue.length);
      later();
      syncLater();
    }).then(function () {
      sending = false;
      if (!offline && queue.length) flush();
    });
  }

  function send(tap) {
    return window.fetch(tap.url, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "HX-Request": "true",
        "X-CSRFToken": token()
      },
      // what the page shows (the answer leaves it out), and when the tap left
      body: tap.body + "&v=" + shownVersion() + "&sent=" + Date.now()
    }).then(function (response) {
      if (response.status >= 500 || response.status === 429) throw new Error("later");
      return response.text().then(function (html) {
        offline = false;
        return remove(tap).then(function () {
          if (response.ok) morph(html);
          else {
            clearPending();
            applyPending();
            var box = document.getElementById("play-error");
            if (box) { box.textContent = box.dataset.lost || "That tap was not counted: reload the page."; box.hidden = false; }
          }
        });
      });
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("play-form") || !root.contains(form)) return;
    var button = event.submitter;
    if (!button || button.name !== "do") return;
    event.preventDefault();
    var data = new URLSearchParams(new FormData(form));
    data.delete("csrfmiddlewaretoken");
    data.set("do", button.value);
    var id = newId();
    data.set("client_id", id);
    data.set("made_at", String(Date.now()));  // an offline tap keeps the time it was made
    data.set("phone", phone);
    data.set("phone_seq", String(nextSeq()));
    data.set("seen", String(shownVersion()));  // the table as it was when the tap was made
    // what was taken is for this one tap; the cause chosen stays (wound by X, then out by X)
    form.querySelectorAll(".trk-loot input").forEach(function (input) {
      if (input.type === "checkbox") input.checked = false; else input.value = "";
    });
    var tap = { id: id, game: GAME, url: root.dataset.tapUrl, body: data.toString(), token: token() };
    var stored = add(tap);
    clearPending();
    applyPending();
    stored.then(flush);
  });

  // The poll: send nothing while taps wait (their answer brings the table); never show
  // an answer older than the page; a poll that fails only means we are offline.
  root.addEventListener("htmx:beforeRequest", function (event) {
    if (queue.length && event.detail.elt === root) event.preventDefault();
  });
  // ... and it says which phone asks, and when it left (the server measures the clock)
  root.addEventListener("htmx:configRequest", function (event) {
    if (event.detail.elt !== root) return;
    event.detail.parameters.phone = phone;
    event.detail.parameters.sent = String(Date.now());
  });
  root.addEventListener("htmx:beforeSwap", function (event) {
    var incoming = versionOf(event.detail.serverResponse || "");
    if (incoming !== null && incoming < shownVersion()) event.detail.shouldSwap = false;
    else if (event.detail.shouldSwap) clearPending();  // the server's table, then our waiting taps
    offline = false;
  });
  root.addEventListener("htmx:afterSwap", function () { applyPending(); });
  root.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail.successful || !offline) return;
    offline = false;  // the poll got through: the network is back
    show(queue.length);
    flush();
  });
  root.addEventListener("htmx:sendError", function (event) {
    event.stopPropagation();  // not app.js's "your change was not saved": nothing was lost
    offline = true;
    show(queue.length);
  });

  // a refused tap's reason sits at the bottom of the screen until tapped away
  root.addEventListener("click", function (event) {
    var box = event.target.closest && event.target.closest("#play-error");
    if (box) box.hidden = true;
  });
  window.addEventListener("online", function () { offline = false; flush(); });
  window.addEventListener("offline", function () { offline = true; show(queue.length); });
  // the service worker sent the taps (Background Sync): read what is left
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "taps-sent") {
        load().then(function () { clearPending(); applyPending(); });
      }
    });
  }
  counted();
  migrate().then(load).then(function () {  // a tap left waiting by an earlier page: shown, then sent
    applyPending();
    flush();
  });
})();
