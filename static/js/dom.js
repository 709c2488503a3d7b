// The page scripts' DOM builder.

/** Tiny DOM helper: h("div", {class: "x", dataset: {a: 1}}, child, "text"). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/**
 * Set an element's text only when it differs. Writing the same text still replaces the text node, and the
 * page is styled, laid out and painted again: the clocks and countdowns tick four times a second on
 * screens that stay open all night (a TV, a tablet on battery).
 */
export function setText(el, text) {
  if (el && el.textContent !== text) el.textContent = text;
}

const drawn = new WeakMap();

/**
 * ``el.replaceChildren(...build())`` only when ``key`` (a string that names what would be drawn) changed
 * since the last call for ``el``: a ticking clock does not rebuild what it shows the same.
 */
export function redraw(el, key, build) {
  if (!el) return;
  const last = drawn.get(el);
  if (last && last.key === key && last.first === el.firstChild) return; // (not written over by other code since)
  el.replaceChildren(...build());
  drawn.set(el, { key, first: el.firstChild });
}
