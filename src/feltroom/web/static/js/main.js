// feltroom browser client: the connection, its messages, routing between the lobby and tables.
// The entry point: nothing imports this module (the shared state is in state.js).

import { Conn, syncClock } from './net.js';
import { h, clear, append, $ } from './dom.js';
import { t, getLang, setLang, onLang } from './i18n.js';
import { app, tableState, send, nav, render, parseRoute, setScreens, useName, CHAT_KEEP } from './state.js';
import { toast } from './toast.js';
import { loadGames, gameList } from './games/index.js';
import { renderLobby } from './lobby.js';
import { renderTable, tableEvents, tickClocks, errorLine } from './table.js';
import { errorNodes } from './errors.js';
import { renderPage } from './pages.js';
import { profileHash, leaderboardHash } from './routes.js';
import { renderRules, rulesTitle } from './rules.js';
import { soundToggle, onSound, played } from './sound.js';
import { registerWorker } from './pwa.js';

const LS = window.localStorage;
const HELLO_RETRIES = 5; // new automatic names tried when the server says a name is taken

function defaultName() { return `guest${Math.floor(100000 + Math.random() * 900000)}`; }

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
      app.me.helloRetries = 0;
      app.me.previous = null;
      { const input = /** @type {HTMLInputElement | null} */ ($('#name-input')); if (input && document.activeElement !== input) input.value = msg.name; }
      LS.setItem('feltroom.name', msg.name);
      LS.setItem('feltroom.token', msg.token);
      app.tokens[msg.name] = msg.token;
      LS.setItem('feltroom.tokens', JSON.stringify(app.tokens));
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
      if (msg.player != null && app.ignored[msg.player] != null) return;
      const st = tableState(msg.table);
      st.chat.push({ n: ++app.seq, from: msg.from, player: msg.player, text: msg.text });
      if (st.chat.length > CHAT_KEEP) st.chat.splice(0, st.chat.length - CHAT_KEEP);
      break;
    }
    case 'error': {
      if (msg.id === 'hello') { helloRefused(msg); break; }
      // Worded in the UI language with the players' names (errors.js); drawn again on a redraw.
      const err = { msg, action: (meta && meta.action) || null, at: Date.now() };
      const st = meta && meta.table != null ? tableState(meta.table) : null;
      if (st) {
        st.error = err;
        if (meta.kind === 'watch' && msg.code === 'not_found') st.missing = true;
      }
      toast(h('span', null, st ? errorLine(st, err) : errorNodes(msg, seatNumber)), 'error', 6000);
      break;
    }
    default:
      break;
  }
  render();
}

/** A seat named by its number, where no table is at hand. @param {number} i */
function seatNumber(i) { return t('Seat {n}', { n: i + 1 }); }

function onStatus(s) { app.status = s; renderHeader(); }

// ---- rendering ------------------------------------------------------------

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
  } else if (app.route.screen === 'rules') {
    if (root.dataset.screen !== 'rules') { clear(root); root.dataset.screen = 'rules'; delete root.dataset.table; }
    document.title = rulesTitle();
    renderRules(root);
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
  const skip = $('a.skip'); // the page's own skip link (index.html) in the UI language
  if (skip) skip.textContent = t('Skip to content');
  const bar = $('#topbar');
  clear(bar);
  append(bar, [
    h('a', { class: 'brand', href: '#/', 'aria-label': t('feltroom: lobby') },
      h('span', { class: 'brand-suits', 'aria-hidden': 'true' }, '♠♥'), 'feltroom'),
    h('span', { class: 'spacer' }),
    h('span', { class: `conn ${app.status}`, role: 'status', title: t(app.status) },
      h('span', { class: 'dot', 'aria-hidden': 'true' }), h('span', { class: 'conn-text' }, t(app.status))),
    gameList().length ? h('a', { class: 'top-link', href: leaderboardHash(gameList()[0].name), id: 'top-link' }, t('Leaderboard')) : null,
    app.me.name ? h(app.me.player ? 'a' : 'span', { class: 'me-name', title: t('Your profile'), href: app.me.player ? profileHash(app.me.player) : null }, app.me.name) : null,
    soundToggle(),
    h('div', { class: 'lang', role: 'group', 'aria-label': t('Language') },
      ['en', 'ru'].map((l) => h('button', { type: 'button', class: l === getLang() ? 'on' : '',
        'aria-pressed': l === getLang() ? 'true' : 'false', onclick: () => setLang(l), id: `lang-${l}` }, l.toUpperCase()))),
  ]);
}

/** The server refused our hello (a taken, reserved or invisible name): say why, and come back
 *  under the name we had, or else under a new automatic one. @param {any} msg */
function helloRefused(msg) {
  app.me.player = null;
  const aboutName = msg.code === 'name_taken' || (msg.code === 'bad_message' && /^name:/.test(msg.message || ''));
  if (!aboutName) { toast(h('span', null, errorNodes(msg, seatNumber)), 'error', 8000); return; } // e.g. too many tabs: not a new player
  const prev = app.me.previous;
  app.me.previous = null;
  const why = msg.code === 'name_taken' ? errorNodes(msg, seatNumber) : getLang() === 'en' ? msg.message : t('That name cannot be used: pick another one.');
  if (!(app.me.autoName && msg.code === 'name_taken')) toast(h('span', null, why), 'error', 8000);
  if (prev) { useName(prev.name, prev.token, prev.auto); return; }
  if (app.me.helloRetries >= HELLO_RETRIES) { onStatus('offline'); return; }
  app.me.helloRetries += 1;
  useName(defaultName(), null, true);
}

// ---- start ----------------------------------------------------------------

async function start() {
  await loadGames();
  setScreens({ draw: renderNow, route: onRoute });
  if (!app.me.name) useName(defaultName(), null, true);
  app.conn = new Conn({
    onMessage,
    onStatus,
    hello: () => ({ type: 'hello', protocol: 1, name: app.me.name, token: app.me.token }),
  });
  window.addEventListener('hashchange', onRoute);
  onLang(() => { $('#app').dataset.screen = ''; render(); });
  onSound(() => renderHeader());
  app.sounds = played;
  registerWorker();
  setInterval(tickClocks, 200);
  app.conn.connect();
  render();
  /** @type {any} */ (window).feltroom = app; // for debugging and tests
}

start().catch((e) => { console.error(e); toast(t('Cannot reach the room: reload the page.'), 'error', 60000); });

