// The table socket: hello first, then JSON frames both ways; reconnects by itself with
// backoff (0.5 s doubling to 30 s, ±20 % jitter) after any close except the ones that say
// the link is wrong or was opened elsewhere (protocol.py, CLOSE). A dead socket is found by
// a ping every 20 s that gets no pong within 10 s.

/** The secret of this table from the link (#seat=, #host=, #watch=), kept in localStorage and
 * taken out of the address bar; else the one kept from before; else null. */
export function takeToken(tableId) {
  const storeKey = `tysiac.table.${tableId}`;
  const frag = new URLSearchParams(location.hash.slice(1));
  for (const kind of ["seat", "host", "watch"]) {
    const token = frag.get(kind);
    if (token) {
      try { localStorage.setItem(storeKey, JSON.stringify({ kind, token })); } catch { /* private mode */ }
      // the secret leaves the address bar (and so the history and any shared screenshot)
      history.replaceState(null, "", location.pathname + location.search);
      return { kind, token };
    }
  }
  try {
    const saved = JSON.parse(localStorage.getItem(storeKey) || "null");
    if (saved && typeof saved.token === "string") return saved;
  } catch { /* nothing saved */ }
  return null;
}

const FINAL = new Set([4401, 4403, 4404, 4409]);
const PING_EVERY = 20000;
const PONG_WITHIN = 10000;

export class TableSocket {
  /**
   * @param {object} o
   * @param {string} o.url       ws(s)://host/t/<table>/ws
   * @param {string} o.token     the seat, host or watch secret
   * @param {() => string} o.lang
   * @param {() => number|null} o.since  the last version seen
   * @param {(msg: object) => void} o.onMessage
   * @param {(status: string, code?: number) => void} o.onStatus  "connecting" | "open" | "retry" | "closed"
   */
  constructor(o) {
    Object.assign(this, o);
    this.ws = null;
    this.delay = 500;
    this.timer = null;
    this.pingTimer = null;
    this.pongTimer = null;
    this.stopped = false;
    this.queue = [];
    window.addEventListener("online", () => this.retryNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.retryNow();
    });
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.onStatus("connecting");
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.schedule();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      const hello = { type: "hello", proto: 1, token: this.token, lang: this.lang() };
      const since = this.since();
      if (typeof since === "number") hello.since = since;
      ws.send(JSON.stringify(hello));
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (!msg || typeof msg !== "object") return;
      if (msg.type === "welcome") {
        this.delay = 500;
        this.onStatus("open");
        this.startPing();
        const queued = this.queue.splice(0);
        for (const q of queued) this.send(q);
      }
      if (msg.type === "pong") clearTimeout(this.pongTimer);
      this.onMessage(msg);
    });
    ws.addEventListener("close", (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopPing();
      if (FINAL.has(ev.code)) {
        this.stopped = true;
        this.onStatus("closed", ev.code);
      } else {
        this.schedule(ev.code);
      }
    });
    // an "error" event is always followed by "close"
  }

  schedule(code) {
    if (this.stopped || this.timer) return;
    this.onStatus("retry", code);
    const jitter = 0.8 + Math.random() * 0.4;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect();
    }, this.delay * jitter);
    this.delay = Math.min(this.delay * 2, 30000);
  }

  retryNow() {
    if (this.stopped || this.ws) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.delay = 500;
    this.connect();
  }

  get isOpen() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  /** Send a frame; while the socket is down, frames other than actions wait for it. */
  send(msg) {
    if (this.isOpen) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    // an action waits for nothing: the state may change meanwhile, the page asks again
    if (msg.type !== "act" && msg.type !== "ping") this.queue.push(msg);
    return false;
  }

  startPing() {
    this.stopPing();
    this.pingTimer = setInterval(() => {
      if (!this.isOpen) return;
      this.ws.send(JSON.stringify({ type: "ping", t: Date.now() }));
      clearTimeout(this.pongTimer);
      this.pongTimer = setTimeout(() => {
        // no answer: the socket is dead even if the browser does not know yet
        if (this.ws) this.ws.close(4000, "no pong");
      }, PONG_WITHIN);
    }, PING_EVERY);
  }

  stopPing() {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
  }

  /** Drop the socket now (tests, "reconnect" button); it reconnects by itself. */
  drop() {
    if (this.ws) this.ws.close(4000, "dropped");
  }
}
