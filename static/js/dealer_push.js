// The dealer push on the tablet (issue 28): while the page is open, ask every 10 s whether a dealer change
// waits at this table (GET /tables/<id>/dealer-change/) and reload when one comes or goes, so that the
// tablet shows the incoming dealer and asks for the deck change or recount (001 6.24).
const box = document.getElementById("dealer-push");
if (box) {
  const shown = box.dataset.pending || "";
  setInterval(async () => {
    try {
      const response = await fetch(box.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!response.ok) return;
      const { pending } = await response.json();
      const now = pending ? String(pending.id) : "";
      if (now !== shown) window.location.reload();
    } catch {
      /* offline for a moment: ask again next time */
    }
  }, 10000);
}
