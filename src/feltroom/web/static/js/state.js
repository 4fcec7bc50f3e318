// The client's shared state and the calls every screen makes (send, nav, render, changeName).
// main.js plugs in how to draw and route (setScreens), so the screens (lobby.js, table.js)
// import this module and never main.js: the imports stay acyclic.

const LS = window.localStorage;

/** @type {{draw: () => void, route: () => void}} */
const screens = { draw: () => {}, route: () => {} };

/** main.js: how to draw the current screen and how to follow a route change. @param {{draw: () => void, route: () => void}} s */
export function setScreens(s) { Object.assign(screens, s); }

/** The location hash as a route: the lobby, or a table by its key. */
export function parseRoute() {
  const m = location.hash.match(/^#\/t\/(.+)$/);
  return m ? { screen: 'table', table: decodeURIComponent(m[1]) } : { screen: 'lobby' };
}

/** Everything the client knows; also `window.feltroom` for debugging and tests. @type {any} */
export const app = {
  me: { name: LS.getItem('feltroom.name') || '', token: LS.getItem('feltroom.token') || null, player: null },
  status: 'connecting',
  lobby: [],
  tables: new Map(), // key -> {id, info, upd, history: [], chat: [], ui: {}}
  route: parseRoute(),
  pending: new Map(), // request id -> {kind, table}
  conn: null,
};

/** A table's client state, created on first use. @param {string | number} id @returns {any} */
export function tableState(id) {
  const key = String(id);
  let st = app.tables.get(key);
  if (!st) {
    st = { id, key, info: null, upd: null, history: [], chat: [], ui: {}, error: null };
    app.tables.set(key, st);
  }
  return st;
}

/** Send a message; `meta` remembers what the request was for (its error and reply). @param {any} msg @param {any} [meta] */
export function send(msg, meta) {
  const id = app.conn.send(msg);
  if (meta) app.pending.set(id, meta);
  return id;
}

/** Go to a screen. @param {{screen: string, table?: string}} route */
export function nav(route) {
  const hash = route.screen === 'table' ? `#/t/${encodeURIComponent(route.table || '')}` : '#/';
  if (location.hash !== hash) location.hash = hash; else screens.route();
}

let renderQueued = false;
/** Redraw at the next frame (many messages in one frame draw once). */
export function render() {
  if (renderQueued) return;
  renderQueued = true;
  app.renderPending = true;
  requestAnimationFrame(() => { renderQueued = false; app.renderPending = false; screens.draw(); });
}

/** @param {string} name */
export function changeName(name) {
  name = name.trim().slice(0, 24);
  if (!name || name === app.me.name) return;
  app.me.name = name;
  app.me.token = null; // a token is one player with one name: a new name is a new player
  LS.setItem('feltroom.name', name);
  LS.removeItem('feltroom.token');
  app.tables.clear();
  app.conn.reconnect();
}
