/* The encounter record form: show only the boxes the chosen kind of line uses (a wound
   has no dollars taken...). Without JavaScript every box shows and the server ignores
   what a kind doesn't use. */
(function () {
  "use strict";

  function mark(select) {
    var line = select.closest("[data-line]");
    if (line) line.dataset.kind = select.value;
  }

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target.matches && target.matches("[data-line] select[name$='-kind']")) mark(target);
  });

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-line] select[name$='-kind']").forEach(mark);
  });
})();
