// The floor dashboard's "Players changing tables": the moves the apps above report (a tournament's
// balancing and breaking moves, 004 #33), fetched from /floor/moves/ when a table changes and every
// few seconds (a tablet's confirmation changes no table); the floor may confirm an arrival here.

import { h } from "../dom.js";
import { t } from "./texts.js";

export class MovesPanel {
  /** @param {HTMLElement} el the `#floor-moves` section (`data-url`: the moves' JSON; `data-csrf`) */
  constructor(el) {
    this.el = el;
    this.timer = null;
    this.soon = false;
    this.asked = 0; // looks asked for: only the answer to the last one is drawn
    el.addEventListener("click", (event) => this.confirm(event));
  }

  /** Look again soon: at most once per 300 ms, so that a busy room's stream of updates does not keep
   * postponing it. */
  refresh() {
    if (this.soon) return;
    this.soon = true;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.load(), 300);
  }

  /** Fetch the moves now and draw them; the next look in 5 s.  An answer to an earlier look that comes
   * back after a later one was asked for is dropped: drawn, it would bring back the list as it was (a
   * move just made gone from the floor, its "Confirm arrival" under the floorman's finger). */
  async load() {
    this.soon = false;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.load(), 5000);
    const asked = ++this.asked;
    try {
      const response = await fetch(this.el.dataset.url, { headers: { Accept: "application/json" } });
      const body = await response.json();
      if (asked !== this.asked) return; // a later look is on its way or back already
      if (body.ok) this.render(body.moves);
    } catch {
      // offline: the connection pill says so; the next round tries again
    }
  }

  render(moves) {
    const german = document.documentElement.lang.startsWith("de");
    const side = (s, m) => (s === "director" ? t("side_director") : t(`side_${s}`, { n: s === "from" ? m.from.table : m.to.table }));
    this.el.hidden = moves.length === 0;
    this.el.querySelector('[data-field="moves"]').replaceChildren(...moves.map((m) => h("li",
      { class: "move", "data-move": m.id, "data-status": m.status },
      h("span", { class: "move-what" }, m.event ? `${m.event} · ` : "", german ? m.text_de : m.text_en),
      h("span", { class: "move-state" }, m.status === "moving" ? t("move_moving", { n: m.to.table }) : t("move_pending", { n: m.from.table }),
        m.confirmed.length ? ` · ${t("move_confirmed", { sides: m.confirmed.map((s) => side(s, m)).join(", ") })}` : ""),
      m.confirm_url ? h("button", { type: "button", "data-confirm-move": m.id, "data-url": m.confirm_url }, t("confirm_arrival")) : "")));
  }

  /** A tap on "Confirm arrival": the director's confirmation, its refusal shown in words. */
  async confirm(event) {
    const button = event.target.closest("button[data-confirm-move]");
    if (!button) return;
    button.disabled = true;
    const response = await fetch(button.dataset.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": this.el.dataset.csrf },
      body: JSON.stringify({ op: "confirm_move", instruction: Number(button.dataset.confirmMove) }),
    });
    const body = await response.json().catch(() => ({ ok: false, message: String(response.status) }));
    const error = this.el.querySelector('[data-field="moves-error"]');
    error.hidden = body.ok;
    error.textContent = body.ok ? "" : body.message;
    this.load();
  }
}
