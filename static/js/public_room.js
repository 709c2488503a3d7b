// The public room page (issue 29): the live part (games, lists, waits, tournaments) is fetched again every
// 15 seconds (rendered by the server: ?part=live), so the page never shows a game that stopped running.
(function () {
  "use strict";
  const live = document.getElementById("live");
  if (!live) return;
  async function refresh() {
    try {
      const r = await fetch(live.dataset.url, { headers: { "X-Requested-With": "fetch" } });
      if (r.ok) live.innerHTML = await r.text();
    } catch (e) { /* offline for a moment: keep what is shown */ }
  }
  setInterval(refresh, 15000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
})();
