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
