/* Gangfight's only script besides htmx: keep the builder's answers in order, and say so
   when a change could not be saved. Everything also works without JavaScript. */
(function () {
  "use strict";

  function versionOf(html) {
    var match = /id="builder"[^>]*data-version="(\d+)"/.exec(html);
    return match ? Number(match[1]) : null;
  }

  function showError(message) {
    var box = document.getElementById("live-error");
    if (!box) return;
    box.textContent = message;
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
    }
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
      showError("Your session has expired or this page is old: reload the page, then try again. Nothing was changed.");
    } else if (status === 404) {
      showError("That is no longer here (it may have been deleted in another tab): reload the page.");
    } else {
      showError("The server could not save that change (error " + status + "). Reload the page and try again.");
    }
  });

  document.addEventListener("htmx:sendError", function () {
    showError("No connection: your last change was not saved. Check your connection and try again.");
  });
})();
