// Static pages (hand history, hand detail): draw card codes as cards, and
// show event times (ISO strings in UTC) in the local time of the room.
import { renderCards } from "./cards.js";

for (const el of document.querySelectorAll("[data-cards]")) {
  if (el.dataset.cards) renderCards(el, el.dataset.cards);
}

for (const el of document.querySelectorAll("time[data-local=time]")) {
  const at = new Date(el.getAttribute("datetime"));
  if (!Number.isNaN(at.getTime())) {
    el.textContent = at.toLocaleTimeString(document.documentElement.lang || undefined);
  }
}
