// What a person would see wrong on the page as it is drawn now (tests/browser/test_pages.py).
// Returns a list of sentences, empty when nothing is wrong. Run at each window width.
(options) => {
  const problems = [];
  const vw = window.innerWidth;
  const phone = vw <= 480;

  // drawn for a person to see: not in a closed <details> (whose content Chromium lays out
  // but does not draw), not hidden, not transparent, not a pixel wide
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;
    return el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true });
  };
  const describe = (el) => {
    const id = el.id ? `#${el.id}` : "";
    const cls = el.classList.length ? `.${[...el.classList].slice(0, 2).join(".")}` : "";
    const testid = el.dataset && el.dataset.testid ? `[data-testid=${el.dataset.testid}]` : "";
    const text = (el.innerText || el.value || el.getAttribute("aria-label") || "").trim();
    const said = text ? ` "${text.replace(/\s+/g, " ").slice(0, 40)}"` : "";
    return `<${el.tagName.toLowerCase()}${id}${cls}${testid}>${said}`;
  };
  // an ancestor that scrolls or clips sideways: what sticks out of it is its own business
  const contained = (el, upTo) => {
    for (let a = el.parentElement; a && a !== upTo; a = a.parentElement) {
      if (["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(a).overflowX)) return true;
    }
    return false;
  };

  // 1. template code printed as text
  // ({% and %} anywhere; {{ and }} around a name, as a template writes them: a JSON
  // example's closing braces are not template code)
  const text = document.body.innerText;
  for (const mark of [/\{%/, /%\}/, /\{#/, /#\}/, /\{\{\s*[A-Za-z_]/, /[A-Za-z_]\s*\}\}/]) {
    const found = mark.exec(text);
    if (found) {
      const at = found.index;
      problems.push(`template code in the text: …${text.slice(Math.max(0, at - 30), at + 40).replace(/\s+/g, " ")}…`);
    }
  }

  // 2. the page wider than the window
  const width = document.documentElement.scrollWidth;
  if (width > vw + 1) problems.push(`the page is ${width}px wide in a ${vw}px window`);

  // 3. an element sticking out of the window, or out of its panel
  const PANELS = "main, section, article, aside, fieldset, form, dialog, details, li, .card, .panel, [data-testid=member-panel]";
  const reported = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (reported.some((r) => r.contains(el))) continue;
    if (!visible(el)) continue;
    const r = el.getBoundingClientRect();
    const position = getComputedStyle(el).position;
    if (position === "fixed") continue;
    if (r.right <= 0 || r.left >= vw) continue;  // kept off screen on purpose (a skip link)
    if ((r.right > vw + 1 || r.left < -1) && !contained(el, null)) {
      problems.push(`${describe(el)} sticks out of the window (${Math.round(r.left)} to ${Math.round(r.right)} px of ${vw})`);
      reported.push(el);
      continue;
    }
    const panel = el.parentElement && el.parentElement.closest(PANELS);
    if (panel && !contained(el, panel) && position !== "absolute") {
      const p = panel.getBoundingClientRect();
      if (r.right > p.right + 1.5 || r.left < p.left - 1.5) {
        problems.push(`${describe(el)} sticks out of its ${describe(panel).split(">")[0]}> (${Math.round(r.left)} to ${Math.round(r.right)} px, the panel ${Math.round(p.left)} to ${Math.round(p.right)})`);
        reported.push(el);
      }
    }
  }

  // 4. on a phone, each table's first column and its points are on the screen
  if (phone) {
    for (const table of document.querySelectorAll("table")) {
      if (!visible(table)) continue;
      const head = table.tHead ? table.tHead.rows[0] : table.rows[0];
      if (!head) continue;
      const cells = [...head.cells];
      const key = cells.filter((c, i) => i === 0 || /^(points|pts|rank|rang|#)$/i.test(c.innerText.trim()));
      for (const cell of key) {
        const r = cell.getBoundingClientRect();
        if (r.left < -1 || r.right > vw + 1) {
          problems.push(`a table's "${cell.innerText.trim() || "first"}" column is off the screen (${Math.round(r.left)} to ${Math.round(r.right)} px)`);
        }
      }
    }
  }

  // 5. controls a thumb can hit: at least 24 by 24 px, or 24 px clear of any other (WCAG 2.2, 2.5.8)
  const TARGETS = "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [tabindex]:not([tabindex='-1'])";
  const targets = [...document.querySelectorAll(TARGETS)].filter(visible).map((el) => ({ el, r: el.getBoundingClientRect() }));
  const small = targets.filter(({ r }) => r.width < 23.5 || r.height < 23.5);
  for (const t of small) {
    const cx = t.r.left + t.r.width / 2, cy = t.r.top + t.r.height / 2;
    const clash = targets.find((o) => {
      if (o === t || o.el.contains(t.el) || t.el.contains(o.el)) return false;
      // the nearest point of the other target to this one's centre
      const nx = Math.max(o.r.left, Math.min(cx, o.r.right)), ny = Math.max(o.r.top, Math.min(cy, o.r.bottom));
      if (Math.hypot(nx - cx, ny - cy) < 12) return true;
      if (o.r.width < 23.5 || o.r.height < 23.5) {
        const ox = o.r.left + o.r.width / 2, oy = o.r.top + o.r.height / 2;
        return Math.hypot(ox - cx, oy - cy) < 24;
      }
      return false;
    });
    if (clash) {
      problems.push(`${describe(t.el)} is ${Math.round(t.r.width)}×${Math.round(t.r.height)} px, too small to tap beside ${describe(clash.el)}`);
    }
  }

  // 6. numbers in CSS and data- values written in the reader's format (French 2,5)
  for (const el of document.querySelectorAll("[style]")) {
    if (/\d,\d/.test(el.getAttribute("style"))) problems.push(`${describe(el)} has a decimal comma in its style: ${el.getAttribute("style")}`);
  }
  for (const el of document.querySelectorAll("*")) {
    for (const name of el.getAttributeNames()) {
      if (name.startsWith("data-") && /^-?\d+,\d+$/.test(el.getAttribute(name))) {
        problems.push(`${describe(el)} has ${name}="${el.getAttribute(name)}" (a number in the reader's format)`);
      }
    }
  }
  return problems;
}
