// The remote player's phone page (issue 29): their lists, places and waits, and the call.
//
// Live over /ws/phone/<token>/ (room/phone_consumer.py): {"type": "phone", "state"} on connect and after
// every change of the room. A call shows at once with a sound, a vibration and the countdown of the room's
// response window; the answers ("On my way", "Need more time" once, "Leave the list") are POSTed to the
// answer URL (public/views.py phone_answer). Texts come translated from the page (#phone-texts).
(function () {
  "use strict";
  const root = document.getElementById("phone");
  const T = JSON.parse(document.getElementById("phone-texts").textContent);
  const csrf = document.getElementById("csrf").value;
  const callEl = document.getElementById("call");
  const mine = document.getElementById("mine");
  const conn = root.querySelector('[data-field="conn"]');
  let state = JSON.parse(document.getElementById("phone-state").textContent);
  let offset = 0; // server clock minus this clock (ms)
  let ringing = null; // id of the call that rang already
  let busy = false;

  const fmt = (s, p) => s.replace(/\{(\w+)\}/g, (_, k) => (p[k] ?? "")); // "{pos} of {of}"
  const mmss = (sec) => `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, "0")}`;
  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text != null) e.textContent = text; return e; };

  function beep() {
    try {
      const ctx = new (window.AudioContext || window.webkitAudioContext)();
      [0, 0.35, 0.7].forEach((at) => {
        const o = ctx.createOscillator(); const g = ctx.createGain();
        o.frequency.value = 880; o.connect(g); g.connect(ctx.destination);
        g.gain.setValueAtTime(0.3, ctx.currentTime + at); g.gain.setValueAtTime(0, ctx.currentTime + at + 0.25);
        o.start(ctx.currentTime + at); o.stop(ctx.currentTime + at + 0.3);
      });
    } catch (e) { /* no sound on this browser */ }
    if (navigator.vibrate) navigator.vibrate([400, 200, 400, 200, 400]);
  }

  function calledEntry() { return state.entries.find((e) => e.call); }

  function render() {
    offset = Date.parse(state.server_time) - Date.now();
    mine.replaceChildren(...state.entries.map((e) => {
      const li = el("li", `mine-${e.status}`);
      li.dataset.entryId = e.id;
      li.append(el("b", "game", e.game), " ");
      if (e.status === "waiting" || e.status === "called") {
        li.append(el("span", "pos", fmt(T.pos, { pos: e.position, of: e.of })));
        if (e.status === "called") li.append(" · ", el("b", "called", T.called));
        else if (e.wait) li.append(" · ", el("span", "wait", e.wait.high === 0 ? T.next : fmt(T.wait, e.wait)));
      } else li.append(el("span", "muted", e.status === "seated" ? T.seated : T.off));
      return li;
    }));
    const e = calledEntry();
    callEl.hidden = !e;
    document.body.classList.toggle("is-called", !!e);
    if (!e) return;
    callEl.dataset.entryId = e.id;
    callEl.querySelector('[data-f="where"]').textContent = `${e.game}: ${fmt(T.where, e.call)}`;
    callEl.querySelector('[data-f="note"]').textContent = e.call.on_my_way ? T.note_way : T.note_call;
    callEl.querySelector('[data-answer="on_my_way"]').hidden = e.call.on_my_way;
    callEl.querySelector('[data-answer="more_time"]').hidden = e.call.more_time_used;
    tick();
    if (ringing !== e.call.id) { ringing = e.call.id; beep(); }
  }

  function tick() {
    const e = calledEntry();
    if (!e) return;
    const left = Math.max(0, Math.round((Date.parse(e.call.deadline) - (Date.now() + offset)) / 1000));
    const count = callEl.querySelector('[data-f="count"]');
    const text = mmss(left);
    if (count.textContent !== text) count.textContent = text; // (an unchanged text is not written again)
  }
  setInterval(tick, 1000);

  callEl.addEventListener("click", async (ev) => {
    const btn = ev.target.closest("[data-answer]");
    if (!btn || busy) return;
    const answer = btn.dataset.answer;
    if (answer === "leave" && !window.confirm(T.confirm_leave)) return;
    busy = true; btn.disabled = true;
    const err = callEl.querySelector('[data-f="error"]');
    err.textContent = "";
    try {
      const r = await fetch(root.dataset.answerUrl, {
        method: "POST", headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify({ entry_id: Number(callEl.dataset.entryId), answer }),
      });
      const body = await r.json();
      if (!body.ok) err.textContent = body.message;
    } catch (e) { err.textContent = String(e); }
    busy = false; btn.disabled = false;
  });

  let ws = null; let wait = 500;
  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}${root.dataset.wsPath}`);
    conn.dataset.state = "connecting";
    ws.onopen = () => { conn.dataset.state = "open"; wait = 500; };
    ws.onmessage = (m) => {
      const msg = JSON.parse(m.data);
      if (msg.type === "phone" || msg.type === "snapshot") { state = msg.state; render(); }
    };
    ws.onclose = (ev) => {
      conn.dataset.state = ev.code === 4404 ? "not_found" : "closed";
      if (ev.code !== 4404) setTimeout(connect, wait = Math.min(wait * 2, 10000));
    };
  }

  // Web Push: offered where the browser allows it and the house has VAPID keys.
  const pushBtn = document.getElementById("push");
  const key = root.dataset.vapid;
  if (key && "serviceWorker" in navigator && "PushManager" in window) {
    pushBtn.hidden = false;
    pushBtn.addEventListener("click", async () => {
      try {
        const reg = await navigator.serviceWorker.register(root.dataset.sw, { scope: "/p/" });
        const raw = atob(key.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (key.length % 4)) % 4));
        const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: Uint8Array.from(raw, (c) => c.charCodeAt(0)) });
        await fetch(root.dataset.pushUrl, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRFToken": csrf }, body: JSON.stringify(sub.toJSON()) });
        pushBtn.textContent = T.push_on; pushBtn.disabled = true;
      } catch (e) { pushBtn.hidden = true; }
    });
  }

  render();
  connect();
})();
