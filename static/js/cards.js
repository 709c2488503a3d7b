// Chip amounts and playing cards as the page scripts show them.

/** Format a chip amount (integer) with thin grouping, e.g. 12 500. */
export function chips(n) {
  if (n === null || n === undefined || Number.isNaN(Number(n))) return "–";
  return Number(n).toLocaleString(document.documentElement.lang || undefined);
}

/** Split "Jc3d5c" into ["Jc", "3d", "5c"]; unknown "??" cards are kept. */
export function splitCards(text) {
  if (Array.isArray(text)) return text.flatMap((c) => splitCards(c));
  const s = String(text || "").replace(/[\s,]/g, "");
  const out = [];
  for (let i = 0; i + 1 < s.length; i += 2) out.push(s.slice(i, i + 2));
  return out;
}

const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };

/** A <span class="card"> for one card code like "Jc" ("??" is face down). */
export function cardEl(code) {
  const el = document.createElement("span");
  const rank = code[0] ? code[0].toUpperCase() : "?";
  const suit = code[1] ? code[1].toLowerCase() : "?";
  el.className = `card suit-${SUITS[suit] ? suit : "x"}`;
  el.dataset.card = code;
  if (!SUITS[suit]) {
    el.classList.add("back");
    el.textContent = "";
  } else {
    el.textContent = `${rank === "T" ? "10" : rank}${SUITS[suit]}`;
  }
  return el;
}

/** Replace the children of `el` with cards for `cards` (string or list). */
export function renderCards(el, cards) {
  el.replaceChildren(...splitCards(cards).map(cardEl));
}
