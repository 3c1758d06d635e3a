/* Loaded in <head>, before the page is drawn (no inline scripts: the Content-Security-
   Policy allows only our own files). Marks the page as having JavaScript, so the CSS can
   tell, and selects the whole of a read-only field (the share link) when it is clicked. */
(function () {
  "use strict";
  document.documentElement.classList.replace("no-js", "js");
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (target && target.matches && target.matches("input[data-select-on-click]")) target.select();
  });
})();
