/* Play mode at the table: taps survive a poor signal.

   Every tap (a button of a .play-form) goes into a queue kept in localStorage, with an id
   made here (client_id), and the queue is sent in order, one tap at a time. When the
   network is gone the tap waits, the page says "Offline: N taps waiting", and the queue
   is sent when the network returns (or when the page is loaded again: a reload never loses
   a tap). A tap sent twice (its answer lost on the way) is counted once: the server knows
   its client_id. The answer (the table) is morphed into the page with idiomorph, through
   app.js's gangfightMorph (the builder's rules: `data-keep` trackers stay as they are, an
   open panel stays open, the focused button keeps the focus). The page polls the server
   every few seconds (htmx, the same morph) for the other player's taps; an answer older
   than what the page shows is not used.
   Without JavaScript every button is a plain post. */
(function () {
  "use strict";

  var root = document.getElementById("play-root");
  if (!root) return;
  var KEY = "gangfight-play-" + root.dataset.game;
  var banner = document.getElementById("play-offline");
  var WAITING = root.dataset.waitingWord || "waiting";
  var sending = false;
  var offline = false;
  var retry = null;

  function load() {
    try { return JSON.parse(window.localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
  }
  function save(queue) {
    try { window.localStorage.setItem(KEY, JSON.stringify(queue)); } catch (e) { /* full */ }
    root.dataset.waiting = String(queue.length);
    show(queue.length);
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
    load().forEach(function (tap) {
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
    var queue = load();
    if (!queue.length) { offline = false; show(0); return; }
    sending = true;
    var tap = queue[0];
    window.fetch(tap.url, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "HX-Request": "true",
        "X-CSRFToken": token()
      },
      body: tap.body + "&v=" + shownVersion()  // what the page shows: the answer leaves it out
    }).then(function (response) {
      if (response.status >= 500 || response.status === 429) throw new Error("later");
      return response.text().then(function (html) {
        var rest = load().filter(function (t) { return t.id !== tap.id; });
        offline = false;
        save(rest);
        if (response.ok) morph(html);
        else {
          clearPending();
          applyPending();
          var box = document.getElementById("play-error");
          if (box) { box.textContent = box.dataset.lost || "That tap was not counted: reload the page."; box.hidden = false; }
        }
      });
    }).catch(function () {
      offline = true;
      show(load().length);
      later();
    }).then(function () {
      sending = false;
      if (!offline && load().length) flush();
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
    // what was taken is for this one tap; the cause chosen stays (wound by X, then out by X)
    form.querySelectorAll(".trk-loot input").forEach(function (input) {
      if (input.type === "checkbox") input.checked = false; else input.value = "";
    });
    var queue = load();
    queue.push({ id: id, url: root.dataset.tapUrl, body: data.toString() });
    save(queue);
    clearPending();
    applyPending();
    flush();
  });

  // The poll: send nothing while taps wait (their answer brings the table); never show
  // an answer older than the page; a poll that fails only means we are offline.
  root.addEventListener("htmx:beforeRequest", function (event) {
    if (load().length && event.detail.elt === root) event.preventDefault();
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
    show(load().length);
    flush();
  });
  root.addEventListener("htmx:sendError", function (event) {
    event.stopPropagation();  // not app.js's "your change was not saved": nothing was lost
    offline = true;
    show(load().length);
  });

  // a refused tap's reason sits at the bottom of the screen until tapped away
  root.addEventListener("click", function (event) {
    var box = event.target.closest && event.target.closest("#play-error");
    if (box) box.hidden = true;
  });
  window.addEventListener("online", function () { offline = false; flush(); });
  window.addEventListener("offline", function () { offline = true; show(load().length); });
  save(load());
  applyPending();
  flush();
})();
