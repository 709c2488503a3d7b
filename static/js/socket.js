// Shared websocket plumbing for the dealer tablet and the floor dashboard.
//
// - LiveSocket: one websocket with automatic reconnect (exponential backoff
//   with jitter). Close codes 4403/4404 are final (not allowed / no table);
//   4503 means "busy": the wait in the {"type":"retry"} message before it, with jitter.
//   A heartbeat finds a socket that silently stopped carrying frames: it pings
//   every HEARTBEAT_MS and counts the socket dead when nothing has arrived for
//   DEAD_AFTER_MS (then "closed", and it reconnects); a socket counts as "open"
//   only once a first message arrived on it (docs/protocol.md "Heartbeat").
// - SeqTracker: the last `seq` seen per table, and gap detection (protocol:
//   an `update` whose seq is not last + 1 means a lost message, so the client
//   asks for a snapshot).
// - newClientId(): a fresh id for every mutating message.
//
// The page scripts' other shared pieces have their own modules: ./i18n.js
// (texts through Django's JavaScriptCatalog), ./cards.js (chip amounts and
// cards), ./dom.js (the DOM builder h()).
//
// Protocol: docs/protocol.md.

const FINAL_CLOSE_CODES = new Set([4403, 4404]);
/** The server is busy connecting others: it sends {"type":"retry","after_ms":N} and closes with 4503
 * (pokerfloor/runtime/admission.py); the page comes back after N ms times a random 0.5-1.5, so that the
 * retries spread out over the time the server needs. */
const CLOSE_RETRY = 4503;
const DEFAULT_RETRY_MS = 1000;
/** The wait a 4503 close's reason gives ("after_ms=N"), for when its "retry" message was lost or came
 * after the close (a proxy may reorder them; daphne itself drops close reasons, so the message is the
 * main way); else DEFAULT_RETRY_MS. */
function reasonRetryMs(reason) {
  const found = /^after_ms=(\d+)$/.exec(reason || "");
  return found ? Number(found[1]) : DEFAULT_RETRY_MS;
}
/** A ping every second; nothing heard for 3.5 s (an update, a pong) means the socket is dead: a page shows
 * itself offline within 5 s of its network going silent (tables/heartbeat.py answers the pings). */
const HEARTBEAT_MS = 1000;
const DEAD_AFTER_MS = 3500;
const PING = JSON.stringify({ type: "ping" });

/** A fresh client_id (UUID v4). crypto.randomUUID needs a secure context; a
 * tablet on plain http over the LAN is not one, so fall back to getRandomValues. */
export function newClientId() {
  if (globalThis.crypto && typeof crypto.randomUUID === "function") {
    return crypto.randomUUID();
  }
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** ws:// or wss:// URL for a path on this host. */
export function wsUrl(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}

/**
 * A websocket that reconnects by itself.
 *
 * options.onMessage(msg)      every parsed JSON message
 * options.onOpen(reconnected) after each successful (re)connect
 * options.onStatus(status, detail)  "connecting" | "open" | "closed" | "forbidden" | "not_found"
 */
export class LiveSocket {
  constructor(path, options = {}) {
    this.url = wsUrl(path);
    this.onMessage = options.onMessage || (() => {});
    this.onOpen = options.onOpen || (() => {});
    this.onStatus = options.onStatus || (() => {});
    this.minDelay = options.minDelay ?? 500;
    this.maxDelay = options.maxDelay ?? 8000;
    this.attempt = 0;
    this.everOpened = false;
    this.stopped = false;
    this.ws = null;
    this.timer = null;
    this.heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    this.deadAfterMs = options.deadAfterMs ?? DEAD_AFTER_MS;
    this.beat = null;
    // Reconnect at once when the tablet wakes up or the network comes back.
    addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.reconnectNow();
    });
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.onStatus("connecting");
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (err) {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    let heard = false; // "open" is shown once the server has said something on this socket
    let retryMs = null; // the wait the server asked for before its 4503 close
    this.startHeartbeat(ws); // from now: a handshake that hangs counts as dead too
    ws.addEventListener("message", (event) => {
      if (this.ws !== ws) return; // a socket given up as dead
      this.lastHeard = Date.now();
      if (!heard && typeof event.data === "string" && event.data.startsWith('{"type":"retry"')) {
        const after = Number(JSON.parse(event.data).after_ms);
        retryMs = Number.isFinite(after) && after >= 0 ? after : DEFAULT_RETRY_MS;
        return; // not open: the close follows
      }
      if (!heard) {
        heard = true;
        const reconnected = this.everOpened;
        this.everOpened = true;
        this.attempt = 0;
        this.onStatus("open");
        this.onOpen(reconnected);
      }
      if (event.data === '{"type":"pong"}') return;
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch (err) {
        return;
      }
      if (!msg || typeof msg.type !== "string") return;
      if (msg.type === "batch" && Array.isArray(msg.messages)) {
        // several updates sent in one frame (the floor socket); applied in order
        for (const one of msg.messages) if (one && typeof one.type === "string") this.onMessage(one);
        return;
      }
      this.onMessage(msg);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopHeartbeat();
      if (FINAL_CLOSE_CODES.has(event.code)) {
        this.stopped = true;
        this.onStatus(event.code === 4404 ? "not_found" : "forbidden");
        return;
      }
      this.onStatus("closed");
      this.scheduleReconnect(event.code === CLOSE_RETRY ? (retryMs ?? reasonRetryMs(event.reason)) : null);
    });
  }

  /** Ping every heartbeatMs; nothing heard for deadAfterMs: the socket is dead (see lost()). */
  startHeartbeat(ws) {
    this.stopHeartbeat();
    this.lastHeard = Date.now();
    let lastPing = 0;
    this.beat = setInterval(() => {
      if (this.ws !== ws) {
        this.stopHeartbeat();
        return;
      }
      const now = Date.now();
      if (now - this.lastHeard > this.deadAfterMs) {
        this.lost(ws);
        return;
      }
      if (now - lastPing >= this.heartbeatMs && ws.readyState === WebSocket.OPEN) {
        lastPing = now;
        ws.send(PING);
      }
    }, 250);
  }

  stopHeartbeat() {
    clearInterval(this.beat);
    this.beat = null;
  }

  /** The socket went silent: give it up (its late frames are ignored), show "closed", reconnect. */
  lost(ws) {
    if (this.ws !== ws) return;
    this.ws = null;
    this.stopHeartbeat();
    try {
      ws.close();
    } catch (err) {
      // already closing
    }
    this.onStatus("closed");
    this.scheduleReconnect();
  }

  /** Reconnect after a backoff with jitter: the server's hint times 0.5-1.5 when it gave one (a 4503
   * close), else minDelay doubling per attempt up to maxDelay, times 0.5-1. */
  scheduleReconnect(hintMs = null) {
    if (this.stopped || this.timer) return;
    let delay;
    if (hintMs !== null) {
      delay = hintMs * (0.5 + Math.random());
    } else {
      const base = Math.min(this.maxDelay, this.minDelay * 2 ** this.attempt);
      this.attempt += 1;
      delay = base / 2 + Math.random() * (base / 2);
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect();
    }, delay);
  }

  reconnectNow() {
    if (this.stopped || this.ws) return;
    this.attempt = 0;
    this.connect();
  }

  /** Send a message; returns false if the socket is not open. */
  send(message) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Drop the connection as if the network failed (reconnects by itself). */
  drop() {
    if (this.ws) this.ws.close();
  }
}

/**
 * The last seq seen per table.
 *
 * observe(key, seq) classifies an incoming update:
 *   "next"  seq === last + 1: in order
 *   "gap"   seq > last + 1, or nothing seen yet: messages were lost, take a snapshot
 *   "old"   seq <= last: already seen (ignore)
 * reset(key, seq) records a snapshot's seq.
 */
export class SeqTracker {
  constructor() {
    this.last = new Map();
    this.gaps = 0;
  }

  get(key) {
    return this.last.has(key) ? this.last.get(key) : null;
  }

  reset(key, seq) {
    this.last.set(key, seq);
  }

  observe(key, seq) {
    const last = this.get(key);
    if (last !== null && seq <= last) return "old";
    const verdict = last !== null && seq === last + 1 ? "next" : "gap";
    if (verdict === "gap") this.gaps += 1;
    this.last.set(key, seq);
    return verdict;
  }
}
