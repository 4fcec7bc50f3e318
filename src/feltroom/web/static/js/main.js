// feltroom browser client: app state, the connection, routing between the lobby and tables.

import { Conn, syncClock } from './net.js';
import { h, clear, append, $ } from './dom.js';
import { t, getLang, setLang, onLang } from './i18n.js';
import { renderLobby } from './lobby.js';
import { renderTable, tableEvents, tickClocks } from './table.js';
import { pageRoute, renderPage } from './pages.js';
import { profileHash, leaderboardHash } from './links.js';

const LS = window.localStorage;

function defaultName() { return `guest${Math.floor(1000 + Math.random() * 9000)}`; }

export const app = {
  me: { name: LS.getItem('feltroom.name') || '', token: LS.getItem('feltroom.token') || null, player: null },
  status: 'connecting',
  lobby: [],
  tables: new Map(), // key -> {id, info, upd, history: [], chat: [], ui: {}}
  route: parseRoute(),
  pending: new Map(), // request id -> {kind, table}
  conn: null,
};

function parseRoute() {
  const page = pageRoute(location.hash);
  if (page) return page;
  const m = location.hash.match(/^#\/t\/(.+)$/);
  return m ? { screen: 'table', table: decodeURIComponent(m[1]) } : { screen: 'lobby' };
}

export function tableState(id) {
  const key = String(id);
  let st = app.tables.get(key);
  if (!st) {
    st = { id, key, info: null, upd: null, history: [], chat: [], ui: {}, error: null };
    app.tables.set(key, st);
  }
  return st;
}

/** Send a message; `meta` remembers what the request was for (its error and reply). */
export function send(msg, meta) {
  const id = app.conn.send(msg);
  if (meta) app.pending.set(id, meta);
  return id;
}

export function nav(route) {
  const hash = route.screen === 'table' ? `#/t/${encodeURIComponent(route.table)}` : '#/';
  if (location.hash !== hash) location.hash = hash; else onRoute();
}

function onRoute() {
  app.route = parseRoute();
  if (app.route.screen === 'table') ensureTable(app.route.table);
  render();
}

/** After a reload the server resends our seated tables; otherwise we watch the table. */
function ensureTable(key) {
  const st = tableState(key);
  if (st.info || !app.conn.ready || st.watchSent) return;
  st.watchSent = true;
  setTimeout(() => {
    if (!st.info) send({ type: 'watch', table: st.id }, { kind: 'watch', table: key });
  }, 400);
}

// ---- toasts -------------------------------------------------------------

export function toast(text, kind = 'info', ms = 4000) {
  const box = $('#toasts');
  const el = h('div', { class: `toast ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
  box.append(el);
  setTimeout(() => { el.classList.add('fade'); setTimeout(() => el.remove(), 400); }, ms);
}

// ---- messages -------------------------------------------------------------

function onMessage(msg) {
  app.messages = (app.messages || 0) + 1;
  const meta = msg.id != null ? app.pending.get(msg.id) : null;
  if (msg.id != null) app.pending.delete(msg.id);
  switch (msg.type) {
    case 'welcome':
      app.me.player = msg.player;
      app.me.name = msg.name;
      app.me.token = msg.token;
      app.myTables = (msg.tables || []).map((x) => ({ ...x, table: String(x.table) }));
      LS.setItem('feltroom.name', msg.name);
      LS.setItem('feltroom.token', msg.token);
      send({ type: 'lobby' });
      for (const st of app.tables.values()) st.watchSent = false;
      if (app.route.screen === 'table') {
        const st = tableState(app.route.table);
        // A spectator watches again after a reconnect (seated players get their tables back).
        if (st.info && st.info.you == null) { st.watchSent = true; send({ type: 'watch', table: st.id }, { kind: 'watch', table: st.key }); }
        ensureTable(app.route.table);
      }
      break;
    case 'left': {
      const st = tableState(msg.table);
      if (st.info) st.info = { ...st.info, you: null };
      break;
    }
    case 'closed': {
      app.tables.delete(String(msg.table));
      if (app.route.screen === 'table' && app.route.table === String(msg.table)) { toast(t('The table was closed.')); nav({ screen: 'lobby' }); }
      break;
    }
    case 'rematch': {
      const st = tableState(msg.table);
      st.rematch = msg;
      if (msg.state === 'started' && msg.next != null && app.route.screen === 'table' && app.route.table === st.key) {
        nav({ screen: 'table', table: String(msg.next) });
      }
      break;
    }
    case 'lobby':
      app.lobby = msg.tables || [];
      break;
    case 'table': {
      const st = tableState(msg.table);
      st.id = msg.table;
      st.info = msg;
      if (meta && (meta.kind === 'create' || meta.kind === 'join')) nav({ screen: 'table', table: st.key });
      break;
    }
    case 'update': {
      const st = tableState(msg.table);
      syncClock(msg.events, msg.deadlines, msg.now ?? msg.server_time);
      const prev = st.upd;
      st.upd = msg;
      st.error = null;
      tableEvents(st, msg.events || [], prev);
      break;
    }
    case 'chat': {
      const st = tableState(msg.table);
      st.chat.push(msg);
      st.history.push({ kind: 'chat', from: msg.from, text: msg.text });
      break;
    }
    case 'error': {
      const text = msg.message || msg.code || t('Error');
      if (meta && meta.table != null) {
        const st = tableState(meta.table);
        st.error = { text, rule: msg.rule, code: msg.code, at: Date.now() };
        if (meta.kind === 'watch' && msg.code === 'not_found') st.missing = true;
      }
      toast(msg.rule ? `${text} (${msg.rule})` : text, 'error', 6000);
      break;
    }
    default:
      break;
  }
  render();
}

function onStatus(s) { app.status = s; renderHeader(); }

// ---- rendering ------------------------------------------------------------

let renderQueued = false;
export function render() {
  if (renderQueued) return;
  renderQueued = true;
  app.renderPending = true;
  requestAnimationFrame(() => { renderQueued = false; app.renderPending = false; renderNow(); });
}

function renderNow() {
  app.renders = (app.renders || 0) + 1;
  app.lastRender = performance.now();
  renderHeader();
  const root = $('#app');
  if (app.route.screen === 'table') {
    if (root.dataset.screen !== 'table' || root.dataset.table !== app.route.table) {
      clear(root);
      root.dataset.screen = 'table';
      root.dataset.table = app.route.table;
    }
    const st = tableState(app.route.table);
    renderTable(root, st);
    const v = st.upd && st.upd.view;
    const mine = v && st.upd.seat != null && (v.to_act || []).includes(st.upd.seat) && !v.over;
    document.title = mine ? `● ${t('Your turn')} — feltroom` : 'feltroom';
  } else if (app.route.screen !== 'lobby') {
    if (root.dataset.screen !== app.route.screen) { clear(root); root.dataset.screen = app.route.screen; delete root.dataset.table; }
    document.title = 'feltroom';
    renderPage(root, app.route, render);
  } else {
    if (root.dataset.screen !== 'lobby') { clear(root); root.dataset.screen = 'lobby'; delete root.dataset.table; }
    document.title = 'feltroom — card room';
    renderLobby(root);
  }
}

function renderHeader() {
  const bar = $('#topbar');
  clear(bar);
  append(bar, [
    h('a', { class: 'brand', href: '#/', 'aria-label': t('feltroom: lobby') },
      h('span', { class: 'brand-suits', 'aria-hidden': 'true' }, '♠♥'), 'feltroom'),
    h('span', { class: 'spacer' }),
    h('span', { class: `conn ${app.status}`, role: 'status', title: t(app.status) },
      h('span', { class: 'dot', 'aria-hidden': 'true' }), h('span', { class: 'conn-text' }, t(app.status))),
    h('a', { class: 'top-link', href: leaderboardHash('crisp'), id: 'top-link' }, t('Leaderboard')),
    app.me.name ? h(app.me.player ? 'a' : 'span', { class: 'me-name', title: t('Your profile'), href: app.me.player ? profileHash(app.me.player) : null }, app.me.name) : null,
    h('div', { class: 'lang', role: 'group', 'aria-label': t('Language') },
      ['en', 'ru'].map((l) => h('button', { type: 'button', class: l === getLang() ? 'on' : '',
        'aria-pressed': l === getLang() ? 'true' : 'false', onclick: () => setLang(l), id: `lang-${l}` }, l.toUpperCase()))),
  ]);
}

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

// ---- start ----------------------------------------------------------------

function start() {
  if (!app.me.name) { app.me.name = defaultName(); LS.setItem('feltroom.name', app.me.name); }
  app.conn = new Conn({
    onMessage,
    onStatus,
    hello: () => ({ type: 'hello', protocol: 1, name: app.me.name, token: app.me.token }),
  });
  window.addEventListener('hashchange', onRoute);
  onLang(() => { $('#app').dataset.screen = ''; render(); });
  setInterval(tickClocks, 200);
  app.conn.connect();
  render();
  window.feltroom = app; // for debugging and tests
}

start();

