// The client's shared state and the calls every screen makes (send, nav, render, changeName).
// main.js plugs in how to draw and route (setScreens), so the screens (lobby.js, table.js)
// import this module and never main.js: the imports stay acyclic.

import { t } from './i18n.js';
import { toast } from './toast.js';

const LS = window.localStorage;
export const CHAT_KEEP = 200; // chat lines kept per table (game events have their own cap: table.js)

/** A JSON object kept in localStorage, or {} @param {string} key @returns {Record<string, string>} */
function loadJSON(key) {
  try { const v = JSON.parse(LS.getItem(key) || '{}'); return v && typeof v === 'object' ? v : {}; } catch { return {}; }
}

/** @type {{draw: () => void, route: () => void}} */
const screens = { draw: () => {}, route: () => {} };

/** main.js: how to draw the current screen and how to follow a route change. @param {{draw: () => void, route: () => void}} s */
export function setScreens(s) { Object.assign(screens, s); }

/** The location hash as a route: the lobby, a table by its key, or a game's rules (at a rule). */
export function parseRoute() {
  const m = location.hash.match(/^#\/t\/(.+)$/);
  if (m) return { screen: 'table', table: decodeURIComponent(m[1]) };
  const r = location.hash.match(/^#\/rules\/([a-z0-9_]+)(?:#(.+))?$/);
  return r ? { screen: 'rules', game: r[1], rule: r[2] || null } : { screen: 'lobby' };
}

/** Everything the client knows; also `window.feltroom` for debugging and tests. @type {any} */
export const app = {
  me: { name: LS.getItem('feltroom.name') || '', token: LS.getItem('feltroom.token') || null, player: null,
    autoName: LS.getItem('feltroom.autoname') === '1', helloRetries: 0, previous: null },
  ignored: loadJSON('feltroom.ignored'), // player id -> name: this viewer does not see their chat
  tokens: loadJSON('feltroom.tokens'), // name -> token of the players this browser has been
  seq: 0, // orders history events and chat lines together
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
  if (!name || (name === app.me.name && app.me.player)) return;
  if (app.me.player) app.me.previous = { name: app.me.name, token: app.me.token, auto: app.me.autoName };
  // A token is one player with one name: a new name is a new player, a name this browser had is that player again.
  useName(name, app.tokens[name] || null, false);
}

/** Be `name` (with its token, if this browser has one) from the next hello on.
 *  @param {string} name @param {string | null} token @param {boolean} auto (a guest name the client made up) */
export function useName(name, token, auto) {
  app.me.name = name;
  app.me.token = token;
  app.me.autoName = auto;
  LS.setItem('feltroom.name', name);
  LS.setItem('feltroom.autoname', auto ? '1' : '0');
  if (token) LS.setItem('feltroom.token', token); else LS.removeItem('feltroom.token');
  app.tables.clear();
  if (app.conn) app.conn.reconnect();
}

// ---- ignore (this viewer only; kept in the browser) ------------------------------

/** Hide `player`'s chat from now on. @param {string} player @param {string} name */
export function ignorePlayer(player, name) {
  app.ignored[player] = name;
  LS.setItem('feltroom.ignored', JSON.stringify(app.ignored));
  for (const st of app.tables.values()) st.chat = st.chat.filter((/** @type {any} */ c) => c.player !== player);
  toast(t('You no longer see {name}’s chat.', { name }));
  render();
}

/** Show `player`'s chat again. @param {string} player */
export function unignorePlayer(player) {
  delete app.ignored[player];
  LS.setItem('feltroom.ignored', JSON.stringify(app.ignored));
  render();
}
