// The WebSocket to /ws (protocol.md): reconnects with backoff, numbers requests,
// and estimates the server clock from timer events so deadlines count down correctly.

export class Conn {
  constructor({ onMessage, onStatus, hello }) {
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.hello = hello; // () => hello message (name, token)
    this.nextId = 1;
    this.ws = null;
    this.retry = 500;
    this.queue = [];
    this.ready = false;
  }

  connect() {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${proto}://${location.host}/ws`);
    this.ws = ws;
    this.ready = false;
    this.onStatus('connecting');
    ws.onopen = () => {
      this.retry = 500;
      ws.send(JSON.stringify({ ...this.hello(), id: 'hello' }));
    };
    ws.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg.type === 'welcome') {
        this.ready = true;
        this.onStatus('online');
        this.onMessage(msg);
        const q = this.queue; this.queue = [];
        for (const m of q) ws.send(JSON.stringify(m));
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ready = false;
      this.onStatus('offline');
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 5000);
    };
  }

  /** Re-identify (new name): close and reconnect; hello() gives the new fields. */
  reconnect() {
    const old = this.ws;
    this.ws = null;
    if (old) { old.onclose = null; old.close(); }
    this.connect();
  }

  send(msg) {
    const id = this.nextId++;
    const m = { ...msg, id };
    if (this.ready && this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(m));
    else this.queue.push(m);
    return id;
  }
}

// Server clock: `at` in deadlines is server epoch seconds. A `timer` event says its deadline
// is `seconds` after it was produced, so at receipt server-now ≈ at - seconds.
let offset = 0; // server - client, seconds
export function serverNow() { return Date.now() / 1000 + offset; }
export function syncClock(events, deadlines, serverTime) {
  if (typeof serverTime === 'number') { offset = serverTime - Date.now() / 1000; return; }
  for (const ev of events || []) {
    if (ev.type !== 'timer') continue;
    const d = (deadlines || []).find((x) => x.action === ev.action);
    if (d) {
      const est = d.at - ev.seconds - Date.now() / 1000;
      offset = est;
      return;
    }
  }
}
