// The create form's template picker: picking a saved template fills the form's fields with the
// settings saved with it (a field the director then changes wins). Without this script the server
// applies the template's settings to the fields left empty (tournaments/views.py: index).

const form = document.getElementById("td-create");
const picker = document.getElementById("td-template");
const templates = JSON.parse(document.getElementById("td-templates").textContent);

// tournament setting -> the form field that holds it
const FIELDS = {
  rulebook: "rulebook", starting_stack: "starting_stack", buy_in: "buy_in", fee: "fee", max_seats: "max_seats",
  re_entries_allowed: "re_entries", rebuys_allowed: "rebuys", add_ons_allowed: "add_ons",
  rebuy_max_stack: "rebuy_max_stack", guarantee: "guarantee", rebuy_cost: "rebuy_cost", rebuy_chips: "rebuy_chips",
  add_on_cost: "add_on_cost", add_on_chips: "add_on_chips", double_rebuy: "double_rebuy",
};

function fill() {
  const picked = templates.find((t) => t.key === picker.value);
  if (!picked || picked.builtin) return; // a built-in structure keeps the form's settings
  for (const [key, value] of Object.entries(picked.settings || {})) {
    const field = form.elements.namedItem(FIELDS[key] || "");
    if (!field) continue;
    if (key === "double_rebuy") field.value = value ? "1" : "0";
    else field.value = value === null || value === undefined ? "" : String(value);
    field.dispatchEvent(new Event("input", { bubbles: true }));
  }
}

picker.addEventListener("change", fill);
