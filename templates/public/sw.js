// The phone page's service worker (issue 29): a Web Push of a call shows as a notification, even with
// the page closed; a tap opens the phone page.
self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  const body = [data.game, data.table, data.seat ? "#" + data.seat : ""].filter(Boolean).join(" · ");
  event.waitUntil(self.registration.showNotification("{{ title|escapejs }}", {
    body, tag: "pokerfloor-call", renotify: true, requireInteraction: true, vibrate: [400, 200, 400, 200, 400],
  }));
});
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(clients.matchAll({ type: "window" }).then((list) => (list[0] ? list[0].focus() : null)));
});
