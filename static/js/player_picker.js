// A name box that offers the room's known players as one types (a combobox: arrow keys, Enter, Escape,
// a click), so a returning player is picked, not typed again.  The suggestions come from a JSON URL
// answering GET ?q=<text> with {"ok": true, "players": [{"id", "name", "label" ("#123"), "country",
// "status"}]} (the tournament desk's registration: tournaments/views players search; the player record's
// /office/players/search.json, whose status is a standing such as "barred").  Picking fills the hidden id
// field; typing on after a pick clears it, so the name is then taken as typed.  Each suggestion carries
// data-status, so a page can mark a barred player.

import { h } from "./dom.js";

/**
 * Attach the suggestions to `input`.
 * @param {object} o - {input, list (the <ul role=listbox>), picked (an element naming the pick),
 *   idField (hidden input for the player id), url (the search URL), status (status code -> text),
 *   onPick (called with the player picked, or null when the pick is cleared)}
 * @returns {{pick(player|null): void, settle(): void}} pick sets or clears the pick; settle drops a
 *   search still waiting for its keystroke pause (call it when the form is sent).
 */
export function attachPlayerPicker({ input, list, picked, idField, url, status = (s) => s, onPick = () => {} }) {
  let found = [];
  let active = -1;
  let asked = 0;
  let timer = 0;

  function close() {
    list.hidden = true;
    list.replaceChildren();
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    found = [];
    active = -1;
  }

  function pick(player) {
    idField.value = player ? String(player.id) : "";
    picked.hidden = !player;
    picked.textContent = player ? player.label : "";
    if (player) input.value = player.name;
    close();
    onPick(player || null);
  }

  function show() {
    list.replaceChildren(
      ...found.map((p, i) =>
        h("li", { id: `${list.id}-option-${p.id}`, role: "option", "aria-selected": String(i === active), "data-player-id": String(p.id), "data-status": p.status || "" }, [
          h("span", { class: "reg-name" }, p.name),
          h("span", { class: "reg-meta" }, [p.country, p.label, p.status ? status(p.status) : ""].filter(Boolean).join(" · ")),
        ]),
      ),
    );
    list.hidden = !found.length;
    input.setAttribute("aria-expanded", String(!!found.length));
    if (active >= 0) input.setAttribute("aria-activedescendant", `${list.id}-option-${found[active].id}`);
    else input.removeAttribute("aria-activedescendant");
  }

  async function search() {
    const q = input.value.trim();
    const mine = ++asked;
    if (!q) { close(); return; }
    try {
      const response = await fetch(`${url}?q=${encodeURIComponent(q)}`);
      const body = await response.json();
      // a later keystroke asked again, or the name was sent meanwhile (the box is empty again)
      if (mine !== asked || !body.ok || input.value.trim() !== q) return;
      found = body.players;
      active = -1;
      show();
    } catch (e) {
      close(); // offline: the name is taken as typed
    }
  }

  input.addEventListener("input", () => {
    if (idField.value) pick(null); // typed on: no longer the player picked
    clearTimeout(timer);
    timer = setTimeout(search, 150);
  });
  input.addEventListener("keydown", (event) => {
    if (list.hidden) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const n = found.length;
      active = event.key === "ArrowDown" ? (active + 1) % n : (active - 1 + n) % n;
      show();
    } else if (event.key === "Enter" && active >= 0) {
      event.preventDefault();
      pick(found[active]);
    } else if (event.key === "Escape") close();
  });
  input.addEventListener("blur", () => setTimeout(close, 200)); // after a click on a suggestion
  list.addEventListener("mousedown", (event) => event.preventDefault()); // the input keeps the focus
  list.addEventListener("click", (event) => {
    const li = event.target.closest("li[data-player-id]");
    if (li) pick(found.find((p) => p.id === Number(li.dataset.playerId)));
  });

  return {
    pick,
    settle() {
      clearTimeout(timer);
      asked += 1;
      close();
    },
  };
}
