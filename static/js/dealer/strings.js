// The tablet's texts: translated by Django into the page's hidden
// <div data-i18n> spans (templates/tables/_strings.html), read by ../socket.js I18n.

import { h, I18n } from "../socket.js";

/** The page's language ("de", "en"): picks the side of the server's bilingual texts. */
export const LANG = (document.documentElement.lang || "en").slice(0, 2);

/** The object ../hand.js takes: {t, has}. */
export const i18n = new I18n();

/** The translated text of `key` with {name} filled from `params`. */
export function t(key, params = {}) {
  return i18n.t(key, params);
}

/** Whether `key` has a text (an error code the tablet knows). */
export function has(key) {
  return i18n.has(key);
}

/** Text of a bilingual object of the server in the page language: loc(o, "text") reads o.text_de / o.text_en. */
export function loc(obj, base) {
  if (!obj) return "";
  const de = obj[`${base}_de`];
  const en = obj[`${base}_en`] ?? obj[base];
  return LANG === "de" && de ? de : en || de || "";
}

/** Citations [{label, url}] as links (a span when the rule has no page). */
export function citeLinks(citations) {
  return h("span", { class: "cites" }, (citations || []).map((c) =>
    c.url ? h("a", { class: "cite", href: c.url, target: "_blank", rel: "noopener", text: c.label })
      : h("span", { class: "cite", text: c.label })));
}
