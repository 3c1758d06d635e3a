/* The builder's script (with htmx and idiomorph, vendored): morph the builder's answers
   into the page (so focus, typing and scroll stay where they are), keep answers in order,
   and say so when a change could not be saved. Everything also works without JavaScript. */
(function () {
  "use strict";

  /* ---- a select changed with the keyboard applies once ----------------------------
     On Windows and Linux the arrow keys (and a typed letter) change a closed select at
     once, each step a change: a live select would apply every option on the way (one that
     adds, a weapon or a card per step). Changed by those keys, a live select applies once:
     with Enter, or when the focus leaves it. Picked in its open list, at once as ever. */
  var stepping = null;  // the select a key is changing right now
  var held = null;  // a live select changed by keys, not applied yet
  var STEP_KEYS = /^(ArrowUp|ArrowDown|ArrowLeft|ArrowRight|PageUp|PageDown|Home|End)$/;

  function isLiveSelect(elt) {
    return !!elt && elt.nodeName === "SELECT" && !elt.multiple && !!elt.form &&
      /(^|[\s,])change\b/.test(elt.form.getAttribute("hx-trigger") || "");
  }

  function applyHeld() {
    var select = held;
    held = null;
    if (select && select.isConnected) select.dispatchEvent(new Event("change", { bubbles: true }));
  }

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    stepping = null;
    if (!isLiveSelect(target)) return;
    if (event.key === "Enter" && held === target) {
      event.preventDefault();  // (Enter would open the list instead)
      applyHeld();
    } else if (!event.altKey && !event.ctrlKey && !event.metaKey &&
               (STEP_KEYS.test(event.key) || event.key.length === 1)) {
      stepping = target;
    }
  }, true);
  document.addEventListener("keyup", function () { stepping = null; }, true);
  document.addEventListener("focusout", function (event) {
    if (event.target === held) applyHeld();
  }, true);

  // Controls the player changed whose change is not sent yet (queued behind another
  // request, or held as above): a morph leaves their value alone, so it is sent later.
  var unsent = new WeakSet();
  document.addEventListener("change", function (event) {
    if (event.target && event.target.form) unsent.add(event.target);
    if (event.target === stepping && event.isTrusted) {
      held = event.target;
      event.stopPropagation();  // the form hears of it once, from applyHeld
    }
  }, true);

  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    var form = elt && (elt.form || (elt.nodeName === "FORM" ? elt : null));
    if (!form) return;
    for (var i = 0; i < form.elements.length; i++) unsent.delete(form.elements[i]);
  });

  // A form sent because a field changed sends its fields only, never a button's value. htmx
  // counts a submit button as pressed as soon as it has the focus: a number typed and left
  // with Tab lands on its own + (or, with Shift+Tab, its -), which would be sent with the
  // change and win over the typed value.
  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    var trigger = detail.triggeringEvent;
    var form = detail.elt && detail.elt.nodeName === "FORM" ? detail.elt : null;
    if (!form || !trigger || trigger.type !== "change" || !detail.formData) return;
    var fields = new FormData(form);  // the form's own values: buttons never count
    var names = {};
    for (var i = 0; i < form.elements.length; i++) {
      var control = form.elements[i];
      if (control.name && (control.type === "submit" || control.type === "image")) {
        names[control.name] = true;
      }
    }
    Object.keys(names).forEach(function (name) {
      detail.formData.delete(name);
      fields.getAll(name).forEach(function (value) { detail.formData.append(name, value); });
    });
  });

  /* ---- morph: change the page into the answer, touching only what differs ----------
     idiomorph (static/vendor/idiomorph/) pairs the elements by the ids inside them, so a
     control keeps its element, and the focus, wherever the answer puts it (a field added
     before it, a member moved up). On top of it, what the player is doing stays:
     - an empty `data-keep` placeholder keeps the element of that id as the page shows it
       (the server left it out); if the page has none, it lost track: reload;
     - a <details> the player opened stays open;
     - the focused text field keeps what is being typed, and a control changed but not
       sent yet (`unsent`) keeps its value, its check or its chosen options. */

  function isTyped(elt) {
    if (elt.nodeName === "TEXTAREA") return true;
    return elt.nodeName === "INPUT" &&
      !/^(hidden|checkbox|radio|submit|button|image|reset|file)$/.test(elt.type);
  }

  function keepsChoice(elt) {
    // A control whose state is the player's: changed, not sent yet.
    if (elt.nodeName === "OPTION") elt = elt.closest("select");
    return !!elt && unsent.has(elt);
  }

  var MORPH = {
    morphStyle: "innerHTML",
    callbacks: {
      beforeNodeAdded: function (node) {
        if (node.nodeType === 1 && node.hasAttribute("data-keep")) {
          window.location.reload();  // the page lost track of what it shows: start afresh
          return false;
        }
      },
      beforeNodeMorphed: function (old, neu) {
        if (neu.nodeType !== 1 || !neu.hasAttribute("data-keep")) return true;
        // The server left this one out: the page already shows it as it is.
        if (old.getAttribute("id") === neu.getAttribute("id")) return false;
        window.location.reload();
        return false;
      },
      beforeAttributeUpdated: function (name, elt, how) {
        if (name === "open") return !(how === "remove" && elt.nodeName === "DETAILS");
        if (name === "value") {
          return !(isTyped(elt) && (elt === document.activeElement || unsent.has(elt)));
        }
        if (name === "checked" || name === "selected") return !keepsChoice(elt);
        return true;
      }
    }
  };

  // Morph `content` (a node or a fragment) into `target`'s children. play.js uses it too.
  function morph(target, content) {
    return window.Idiomorph.morph(target, content, MORPH);
  }

  window.gangfightMorph = morph;

  if (window.htmx) {
    htmx.defineExtension("morph", {
      isInlineSwap: function (style) { return style === "morph"; },
      handleSwap: function (style, target, fragment) {
        if (style !== "morph") return false;
        morph(target, fragment);
        // The new content for htmx to wire up (not the target itself: re-initialising it
        // would drop the requests queued on it by hx-sync).
        return Array.prototype.slice.call(target.children);
      }
    });
  }

  /* ---- keep the control that was used where it is on the screen -------------------- */
  var pinned = null;

  function pinFrom(event) {
    // The element that made the request (a form, a link), or the control in it that has
    // the focus: that is what the player is looking at.
    var elt = event.detail.requestConfig ? event.detail.requestConfig.elt : null;
    var active = document.activeElement;
    if (elt && active && active !== document.body && elt.contains(active)) elt = active;
    if (!elt || !elt.getBoundingClientRect || !elt.isConnected) { pinned = null; return; }
    pinned = { elt: elt, id: elt.id, top: elt.getBoundingClientRect().top };
  }

  function restorePin() {
    if (!pinned) return;
    var elt = pinned.elt;
    if (!elt.isConnected && pinned.id) elt = document.getElementById(pinned.id);
    if (elt && elt.isConnected) {
      var moved = elt.getBoundingClientRect().top - pinned.top;
      if (Math.abs(moved) > 1) window.scrollBy(0, moved);
    }
    pinned = null;
  }

  function versionOf(html) {
    var match = /id="builder"[^>]*data-version="(\d+)"/.exec(html);
    return match ? Number(match[1]) : null;
  }

  // The messages are the page's (data- attributes of #live-error, in the reader's language).
  function showError(kind, status) {
    var box = document.getElementById("live-error");
    if (!box) return;
    box.textContent = (box.getAttribute("data-" + kind) || "").replace("{status}", status || "");
    box.hidden = false;
  }

  function clearError() {
    var box = document.getElementById("live-error");
    if (box) box.hidden = true;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (!detail.xhr || detail.xhr.status >= 400) return;
    clearError();
    var current = document.getElementById("builder");
    var incoming = versionOf(detail.serverResponse || "");
    if (current && incoming !== null && incoming < Number(current.dataset.version)) {
      // Two changes crossed on the wire: this answer is older than the page. Keep the page.
      detail.shouldSwap = false;
      return;
    }
    pinFrom(event);
  });

  document.addEventListener("htmx:afterSwap", restorePin);

  // The focus never falls to the page's start when an answer takes away the control that
  // had it. It goes where the answer says (#builder's data-focus: Remove gives it to Undo),
  // else to the same control where it is now ("Add another" opens the copy: its own "Add
  // another"; a weapon taken off: the next one's ×), else to the open member's row.
  var focusedBefore = null;
  document.addEventListener("htmx:beforeSwap", function () {
    focusedBefore = document.activeElement;
  });
  document.addEventListener("htmx:afterSwap", function () {
    var lost = focusedBefore;
    focusedBefore = null;
    // Only when the answer took the focused control away (not when nothing had the focus).
    if (!lost || lost === document.body || lost.isConnected) return;
    var active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    var builder = document.getElementById("builder");
    if (!builder) return;
    var focusedTestid = lost.getAttribute ? lost.getAttribute("data-testid") || "" : "";
    var candidates = [];
    if (builder.dataset.focus) candidates.push(document.getElementById(builder.dataset.focus));
    if (focusedTestid) {
      var same = '[data-testid="' + focusedTestid.replace(/["\\]/g, "") + '"]';
      candidates.push.apply(candidates, builder.querySelectorAll("#member-panel " + same));
      candidates.push.apply(candidates, builder.querySelectorAll(same));
    }
    candidates.push(builder.querySelector(".roster-row.is-open .row-link"));
    for (var i = 0; i < candidates.length; i++) {
      var next = candidates[i];
      if (next && next.getClientRects().length && !next.disabled) {
        next.focus();
        return;
      }
    }
  });

  // Tell the server what the page shows, so it can leave out the rows that did not change.
  document.addEventListener("htmx:configRequest", function (event) {
    var builder = document.getElementById("builder");
    if (!builder) return;
    event.detail.headers["X-Builder-Version"] = builder.dataset.version;
    event.detail.headers["X-Builder-Open"] = builder.dataset.open || "";
  });

  // Mark which version of the builder is live (its forms wired up), for tests and styles.
  function markSettled() {
    var builder = document.getElementById("builder");
    if (builder) document.documentElement.dataset.settledVersion = builder.dataset.version;
  }
  document.addEventListener("DOMContentLoaded", markSettled);
  document.addEventListener("htmx:afterSettle", markSettled);

  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr.status;
    if (status === 403) {
      showError("expired");
    } else if (status === 404) {
      showError("gone");
    } else {
      showError("failed", status);
    }
  });

  document.addEventListener("htmx:sendError", function () {
    showError("offline");
  });
})();

/* The Print menu: make the PDF with a progress indicator, then download it. Without
   JavaScript the form is a plain GET and the browser downloads the PDF itself. */
(function () {
  "use strict";

  function filenameOf(response) {
    var header = response.headers.get("Content-Disposition") || "";
    var match = /filename="([^"]+)"/.exec(header);
    return match ? match[1] : "gang.pdf";
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-pdf-form]") || !window.fetch) return;
    event.preventDefault();
    var url = form.action + "?" + new URLSearchParams(new FormData(form)).toString();
    var progress = form.querySelector("[data-pdf-progress]");
    var button = form.querySelector("button[type=submit]");
    progress.hidden = false;
    button.disabled = true;
    form.setAttribute("aria-busy", "true");
    fetch(url, { credentials: "same-origin" })
      .then(function (response) {
        var type = response.headers.get("Content-Type") || "";
        if (!response.ok || type.indexOf("application/pdf") !== 0) {
          // The server's page says what went wrong (a timeout, a bad choice): show it.
          window.location.href = url;
          return null;
        }
        return response.blob().then(function (blob) {
          var link = document.createElement("a");
          link.href = URL.createObjectURL(blob);
          link.download = filenameOf(response);
          document.body.appendChild(link);
          link.click();
          setTimeout(function () { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
          form.dataset.lastPdf = link.download;
          // A menu over the page (the builder's bar) closes once its PDF is on its way.
          var menu = form.closest("details.print-menu[id]");
          if (menu) menu.open = false;
        });
      })
      .catch(function () {
        window.location.href = url;
      })
      .finally(function () {
        progress.hidden = true;
        button.disabled = false;
        form.removeAttribute("aria-busy");
      });
  });
})();

/* The builder bar's Print menu drops down over the page: a tap elsewhere or Escape closes it. */
(function () {
  "use strict";
  function openMenus() { return document.querySelectorAll("details.print-menu[id][open]"); }
  document.addEventListener("click", function (event) {
    openMenus().forEach(function (menu) { if (!menu.contains(event.target)) menu.open = false; });
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    openMenus().forEach(function (menu) { menu.open = false; menu.querySelector("summary").focus(); });
  });
})();

/* The installable app (issue 29, docs/offline.md): the service worker (/sw.js, named by
   <meta name="gangfight-sw">) keeps the pages the server marks, per user. A page it
   answers from its cache, with no network, carries <html data-offline-as-of="…">: the
   bar says "Offline: as of <time>" (in the page's language) and every form that posts is
   disabled, but those inside [data-offline-ok] (the play table's taps, which wait in the
   phone). Logging out asks the worker to forget the user's pages at once (the server's
   answer also says Clear-Site-Data). */
(function () {
  "use strict";
  var html = document.documentElement;

  function showOffline() {
    var asOf = html.getAttribute("data-offline-as-of");
    var bar = document.getElementById("offline-bar");
    if (!asOf || !bar) return;
    var when = new Date(asOf);
    var time = isNaN(when.getTime()) ? asOf : when.toLocaleString(html.lang || undefined, {
      dateStyle: "medium", timeStyle: "short"
    });
    bar.textContent = (bar.getAttribute("data-words") || "{time}").replace("{time}", time);
    bar.hidden = false;
    document.querySelectorAll("form").forEach(function (form) {
      if ((form.getAttribute("method") || "get").toLowerCase() !== "post") return;
      if (form.closest("[data-offline-ok]")) return;
      form.querySelectorAll("button, input[type=submit], input[type=image]").forEach(function (button) {
        if (button.type === "submit" || button.type === "image") {
          button.disabled = true;
          button.setAttribute("data-offline-disabled", "");
        }
      });
    });
  }
  showOffline();
  document.addEventListener("htmx:afterSettle", showOffline);  // a form morphed in

  var worker = document.querySelector('meta[name="gangfight-sw"]');
  if (!("serviceWorker" in navigator) || !worker || !window.isSecureContext) return;
  navigator.serviceWorker.register(worker.content, { scope: "/" }).catch(function () {
    /* no worker (a private window, a policy): the site works as before, online */
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-logout]")) return;
    var controller = navigator.serviceWorker.controller;
    if (controller) controller.postMessage({ type: "logout" });
  });
})();
