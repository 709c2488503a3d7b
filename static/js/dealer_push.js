// The dealer push on the tablet (issue 28): the table's socket says when a dealer change waits or was taken
// over ({"type": "dealer_push", "table_id", "change": {"id", "incoming", "outgoing"} | null}, docs/protocol.md),
// and the page reloads to show the incoming dealer and ask for the deck change or recount (001 6.24), or to
// drop the prompt.  A message missed while offline is caught by a slow poll of GET /tables/<id>/dealer-change/
// (every 60 s).
import { on } from "./dealer/connection.js";

const POLL_MS = 60000;
const box = document.getElementById("dealer-push");
if (box) {
  const shown = box.dataset.pending || "";
  const follow = (change) => {
    const now = change ? String(change.id) : "";
    if (now !== shown) window.location.reload();
  };
  on("message", (msg) => {
    if (msg.type !== "dealer_push") return false;
    follow(msg.change);
    return true;
  });
  setInterval(async () => {
    try {
      const response = await fetch(box.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!response.ok) return;
      const { pending } = await response.json();
      follow(pending);
    } catch {
      /* offline for a moment: ask again next time */
    }
  }, POLL_MS);
}
