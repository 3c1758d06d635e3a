/* A match report's scenario and deployment (templates/leagues/_league_report_fields.html):
   the book's names are shown under each field as buttons; one click fills the field with
   that name (the field stays free text, and its datalist still offers the same names);
   Enter there goes to the next field rather than sending the form.
   Without JavaScript the buttons are hidden (.no-js) and the datalist does the job. Loaded
   once however many report forms a page has. */
(function () {
  "use strict";
  if (window.__gangfightFillChoice) return;
  window.__gangfightFillChoice = true;
  document.addEventListener("click", function (event) {
    var button = event.target && event.target.closest && event.target.closest("button[data-fill]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-fill"));
    if (!field) return;
    event.preventDefault();
    field.value = button.getAttribute("data-value");
    field.dispatchEvent(new Event("input", { bubbles: true }));
    field.dispatchEvent(new Event("change", { bubbles: true }));
    field.focus();
  });
  /* Enter in one of these fields never sends the report half-typed (with its list open, a
     browser may not take the Enter for the list): it goes on to the next field instead. */
  document.addEventListener("keydown", function (event) {
    var field = event.target;
    if (event.key !== "Enter" || event.isComposing || !field || !field.matches) return;
    if (!field.matches(".report-choices input[list]")) return;
    event.preventDefault();
    var form = field.form;
    if (!form) return;
    var fields = Array.prototype.filter.call(form.elements, function (el) {
      return el.matches("input:not([type=hidden]), textarea, select") && !el.disabled;
    });
    var next = fields[fields.indexOf(field) + 1];
    if (next) next.focus();
  });
})();
