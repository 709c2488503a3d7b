// The page scripts' one i18n path: Django's JavaScriptCatalog (/jsi18n/, a classic <script> loaded before
// the modules; German in locale/de/LC_MESSAGES/djangojs.po). gettext("…") calls are what
// `makemessages -d djangojs` collects; interpolate() fills %(name)s; Texts keeps a page's texts by key.

const catalogued = typeof globalThis.gettext === "function";

/** The text translated by the page's catalogue (/jsi18n/); without the catalogue, the English text. Calls
 * written gettext("…") in a script are what `makemessages -d djangojs` collects. */
export function gettext(text) {
  return catalogued ? globalThis.gettext(text) : text;
}

/** `fmt` with every %(name)s filled from `params` (the catalogue's interpolate with named=true). */
export function interpolate(fmt, params) {
  if (catalogued) return globalThis.interpolate(fmt, params, true);
  return fmt.replace(/%\(\s*([^)]+)\s*\)s/g, (m, name) => String(params[name]));
}

/**
 * A page's texts by key: new Texts({hand_n: gettext("Hand #%(n)s"), …}).
 * t(key, params) gives the text with %(name)s filled from params (an unknown key comes back as it is);
 * has(key) whether the key has a text. ./hand.js reads its texts through this shape.
 */
export class Texts {
  constructor(strings) {
    this.strings = strings;
  }

  has(key) {
    return Object.prototype.hasOwnProperty.call(this.strings, key);
  }

  t(key, params = {}) {
    const text = this.has(key) ? this.strings[key] : key;
    return text.includes("%(") ? interpolate(text, params) : text;
  }
}

/** A text under a msgctxt (the catalogue's pgettext; without the catalogue, the text itself):
 * "Call" the action is "Mitgehen" in German. */
export function pgettext(context, text) {
  return typeof globalThis.pgettext === "function" ? globalThis.pgettext(context, text) : text;
}

/** The page's language ("de", "en"), from <html lang>. */
export const LANG = (document.documentElement.lang || "en").slice(0, 2);
