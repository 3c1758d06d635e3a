/* Gangfight's only script besides htmx: morph the builder's answers into the page (so
   focus, typing and scroll stay where they are), keep answers in order, and say so when a
   change could not be saved. Everything also works without JavaScript. */
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
     Elements are matched by id, else by position and tag. The focused text field keeps
     what is being typed; a <details> the player opened stays open. */

  function sameKind(a, b) {
    if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
    if (a.nodeType !== 1) return true;
    // Elements without an id are told apart by their tag and first class.
    return (a.id || "") === (b.id || "") && (a.classList[0] || "") === (b.classList[0] || "");
  }

  function syncAttributes(old, neu) {
    var i, attr;
    for (i = 0; i < neu.attributes.length; i++) {
      attr = neu.attributes[i];
      if (old.getAttribute(attr.name) !== attr.value) old.setAttribute(attr.name, attr.value);
    }
    for (i = old.attributes.length - 1; i >= 0; i--) {
      attr = old.attributes[i];
      if (neu.hasAttribute(attr.name)) continue;
      if (old.nodeName === "DETAILS" && attr.name === "open") continue;
      old.removeAttribute(attr.name);
    }
  }

  function morphNode(old, neu) {
    if (old.nodeType !== 1) {
      if (old.nodeValue !== neu.nodeValue) old.nodeValue = neu.nodeValue;
      return;
    }
    var active = old === document.activeElement;
    var unsentChange = unsent.has(old);
    syncAttributes(old, neu);
    if (old.nodeName === "INPUT") {
      if (old.type === "checkbox" || old.type === "radio") {
        if (!unsentChange) old.checked = neu.hasAttribute("checked");
      } else if ((!active && !unsentChange) || old.type === "hidden") {
        var value = neu.getAttribute("value") || "";
        if (old.value !== value) old.value = value;
      }
      return;
    }
    if (old.nodeName === "TEXTAREA") {
      if (!active && !unsentChange && old.value !== neu.value) old.value = neu.value;
      return;
    }
    morphChildren(old, neu);
    if (old.nodeName === "SELECT" && !unsentChange) {
      var chosen = neu.querySelector("option[selected]");
      var want = chosen ? chosen.value : (old.options[0] ? old.options[0].value : "");
      if (old.value !== want) old.value = want;
    }
  }

  function morphChildren(oldParent, newParent) {
    var byId = {};
    var child;
    for (child = oldParent.firstElementChild; child; child = child.nextElementSibling) {
      if (child.id) byId[child.id] = child;
    }
    var wanted = {};
    for (child = newParent.firstElementChild; child; child = child.nextElementSibling) {
      if (child.id) wanted[child.id] = true;
    }
    var cursor = oldParent.firstChild;
    var next = newParent.firstChild;
    while (next) {
      var following = next.nextSibling;
      var match = null;
      if (next.nodeType === 1 && next.id) {
        match = byId[next.id] || null;
        if (match && match.parentNode !== oldParent) match = null;
      } else if (cursor && sameKind(cursor, next)) {
        match = cursor;
      } else if (cursor && next.nodeType === 1) {
        // A few elements the answer no longer has may stand before the match (a message
        // that went, a field left out): look a little ahead rather than redraw what
        // follows; never past the focused control or an element the answer keeps.
        var ahead = cursor;
        for (var look = 0; ahead && look < 4; look++, ahead = ahead.nextSibling) {
          if (ahead.nodeType === 1 && ahead.id && wanted[ahead.id]) break;
          if (ahead !== cursor && sameKind(ahead, next)) { match = ahead; break; }
          if (ahead.nodeType === 1 && ahead.contains(document.activeElement)) break;
        }
      }
      if (match && next.nodeType === 1 && next.hasAttribute("data-keep")) {
        // The server left this one out: the page already shows it as it is.
        if (match !== cursor) oldParent.insertBefore(match, cursor);
        else cursor = cursor.nextSibling;
        next = following;
        continue;
      }
      if (!match && next.nodeType === 1 && next.hasAttribute("data-keep")) {
        window.location.reload();  // the page lost track of what it shows: start afresh
        return;
      }
      if (match && match !== cursor) {
        // Drop what the answer no longer has rather than move the match: moving a node
        // takes the focus away from whatever is inside it.
        while (cursor && cursor !== match && !(cursor.id && wanted[cursor.id])) {
          var dropped = cursor;
          cursor = cursor.nextSibling;
          oldParent.removeChild(dropped);
        }
      }
      if (match) {
        if (match === cursor) cursor = cursor.nextSibling;
        else oldParent.insertBefore(match, cursor);
        morphNode(match, next);
      } else {
        oldParent.insertBefore(next, cursor);
      }
      next = following;
    }
    while (cursor) {
      var gone = cursor;
      cursor = cursor.nextSibling;
      oldParent.removeChild(gone);
    }
  }

  window.gangfightMorph = morphChildren;

  if (window.htmx) {
    htmx.defineExtension("morph", {
      isInlineSwap: function (style) { return style === "morph"; },
      handleSwap: function (style, target, fragment) {
        if (style !== "morph") return false;
        morphChildren(target, fragment);
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
