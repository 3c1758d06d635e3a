/* The pack card form (templates/builder/_card_form.html): "+" adds a row of equipment or
   a skill here, from the row's <template>, instead of posting the form (which is what it
   does without JavaScript); "×" takes a row out. Either tells the form ("rows-changed"),
   whose htmx attributes then redraw the card's preview. No inline scripts: the page's
   Content-Security-Policy allows only our own files. */
(function () {
  "use strict";
  if (window.gangfightCardForm) return;
  window.gangfightCardForm = true;

  function nextIndex(list, section) {
    var most = -1;
    var pattern = new RegExp("^" + section + "-(\\d+)-");
    list.querySelectorAll("[name]").forEach(function (field) {
      var found = pattern.exec(field.getAttribute("name"));
      if (found) most = Math.max(most, parseInt(found[1], 10));
    });
    return most + 1;
  }

  function changed(form) {
    form.dispatchEvent(new Event("rows-changed", { bubbles: true }));
  }

  document.addEventListener("click", function (event) {
    var add = event.target.closest && event.target.closest("[data-add-row]");
    if (add) {
      var section = add.getAttribute("data-add-row");
      var form = add.form;
      var template = form && form.querySelector('template[data-row-template="' + section + '"]');
      var list = form && form.querySelector('[data-rows="' + section + '"]');
      if (!template || !list) return; // post the form: the server adds the row
      event.preventDefault();
      var index = String(nextIndex(list, section));
      var row = template.content.firstElementChild.cloneNode(true);
      row.querySelectorAll("*").forEach(function (el) {
        ["name", "id", "for", "aria-describedby"].forEach(function (attr) {
          var value = el.getAttribute(attr);
          if (value && value.indexOf("__i__") !== -1) el.setAttribute(attr, value.split("__i__").join(index));
        });
      });
      list.appendChild(row);
      var first = row.querySelector("input, textarea, select");
      if (first) first.focus();
      changed(form);
      return;
    }
    var remove = event.target.closest && event.target.closest("[data-remove-row]");
    if (remove) {
      var item = remove.closest("[data-row]");
      var owner = remove.form || remove.closest("form");
      if (!item) return;
      var rows = item.parentNode;
      item.remove();
      var focus = rows.querySelector("[data-row] input");
      if (focus) focus.focus();
      if (owner) changed(owner);
    }
  });
})();
