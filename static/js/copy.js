/* Copy buttons for links to pass on (templates/_copy_link.html): the invite links of
   campaigns and clubs, a league's public link, a gang's share link. The link is in a
   read-only field, selected when it gets the focus (so without JavaScript, or when the
   clipboard is refused, it is one copy away); the button copies it and says so in the
   field's status, which screen readers read out (aria-live). Loaded by each template that
   needs it (<script defer>, never inline: the Content-Security-Policy allows only our
   own files), once however many times it is included. */
(function () {
  "use strict";
  if (window.gangfightCopy) return;
  window.gangfightCopy = true;

  function say(button, text) {
    var status = document.querySelector('[data-copy-status="' + button.getAttribute("data-copy") + '"]');
    if (!status) return;
    status.textContent = "";
    // A fresh text each time, so the same words are read out again.
    window.setTimeout(function () { status.textContent = text; }, 50);
    button.classList.add("is-copied");
    window.setTimeout(function () { button.classList.remove("is-copied"); }, 2000);
  }

  function byHand(button, field) {
    field.focus();
    field.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (error) { done = false; }
    say(button, button.getAttribute(done ? "data-copied" : "data-copy-failed"));
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-copy]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) return;
    event.preventDefault();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(
        function () { say(button, button.getAttribute("data-copied")); },
        function () { byHand(button, field); }
      );
    } else {
      byHand(button, field);
    }
  });

  document.addEventListener("focusin", function (event) {
    var field = event.target;
    if (field && field.matches && field.matches("input[data-select-on-focus]")) field.select();
  });
})();
