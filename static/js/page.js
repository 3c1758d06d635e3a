/* Loaded in <head>, before the page is drawn (no inline scripts: the Content-Security-
   Policy allows only our own files). Marks the page as having JavaScript, so the CSS can
   tell, and selects the whole of a read-only field (the share link) when it is clicked.
   A table too wide for the screen scrolls sideways in its box: that box takes the
   keyboard's focus (Tab, then the arrow keys scroll it), named after the table's caption,
   and only while it does scroll. */
(function () {
  "use strict";
  document.documentElement.classList.replace("no-js", "js");
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (target && target.matches && target.matches("input[data-select-on-click]")) target.select();
  });

  function scrollers() {
    var boxes = document.querySelectorAll(".table-wrap, .scroll-shadows");
    for (var i = 0; i < boxes.length; i++) {
      var box = boxes[i];
      var scrolls = box.scrollWidth > box.clientWidth + 1;
      if (scrolls && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("data-scroll-focus", "");
        var caption = box.querySelector("caption");
        var name = caption ? caption.textContent.replace(/\s+/g, " ").trim() : "";
        if (name && !box.hasAttribute("aria-label")) {
          box.setAttribute("role", "region");
          box.setAttribute("aria-label", name);
        }
      } else if (!scrolls && box.hasAttribute("data-scroll-focus")) {
        box.removeAttribute("tabindex");
        box.removeAttribute("data-scroll-focus");
      }
    }
  }
  document.addEventListener("DOMContentLoaded", scrollers);
  window.addEventListener("resize", scrollers);
  document.addEventListener("htmx:afterSettle", scrollers);
})();
