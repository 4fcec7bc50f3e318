// The replay viewer (#/replay/{table}?seat=N&step=K): a finished game step by step, drawn by
// the live table's renderers (table.js, games/*.js) from each step's view, read-only (no legal
// actions). The steps come from GET /api/games/{table}/replay in pages; the first page shows at
// once and the rest load behind it. The step is kept in the address (replaceState) for links.

import { h, clear, $ } from './dom.js';
import { t } from './i18n.js';
import { renderTable, tableEvents, seatName } from './table.js';
import { gameTitle } from './games/index.js';
import { replayHash, pageRoute } from './routes.js';

const SPEEDS = [0.5, 1, 2, 4];
const STEP_MS = 900; // one step at 1×
const HISTORY_MAX = 400;
const viewers = new Map(); // `${table}|${seat}` -> viewer state

function viewer(route, rerender) {
  const key = `${route.table}|${route.seat}`;
  let v = viewers.get(key);
  if (!v) {
    v = { table: route.table, seat: route.seat, meta: null, steps: [], cur: route.step || 0, error: null,
      playing: false, speed: 1, timer: null, rerender, shown: -1,
      st: { id: route.table, key: route.table, info: null, upd: null, history: [], chat: [], ui: {}, error: null, replay: true } };
    viewers.set(key, v);
    load(v, 0);
  }
  v.rerender = rerender;
  return v;
}

async function load(v, from) {
  const q = new URLSearchParams({ from: String(from) });
  if (v.seat != null) q.set('seat', String(v.seat));
  let page;
  try {
    const r = await fetch(`/api/games/${encodeURIComponent(v.table)}/replay?${q}`);
    page = await r.json();
    if (!r.ok) { v.error = page.error || `HTTP ${r.status}`; v.status = r.status; v.rerender(); return; }
  } catch (e) {
    v.error = String(e); v.rerender(); return;
  }
  v.meta = page;
  for (const s of page.steps) v.steps[s.seq] = s;
  v.cur = Math.min(v.cur, page.total - 1);
  v.rerender();
  if (page.next != null) load(v, page.next);
}

/** Show step k: the step's view as the table's update, the earlier events as its history. */
function show(v) {
  const m = v.meta;
  const step = v.steps[v.cur];
  if (!m || !step || v.shown === v.cur) return;
  const last = v.cur === m.total - 1;
  const st = v.st;
  st.info = { table: m.table, game: m.game, options: m.options, state: last ? (m.abandoned ? 'abandoned' : 'over') : 'playing',
    seats: m.seats.map((s) => ({ ...s, standin: null, connected: true })), you: v.seat, host: null, fair: null, seq: step.seq };
  const prev = v.shown >= 0 ? st.upd : null;
  st.upd = { table: m.table, seq: step.seq, seat: v.seat, view: step.view, legal: [], events: step.events, deadlines: [], now: null };
  st.ui = { resultClosed: true };
  st.history = [];
  let n = 0; // orders the history (table.js sorts it with chat lines by n)
  for (let k = 0; k < v.cur; k++) for (const ev of (v.steps[k] || {}).events || []) st.history.push({ kind: 'event', n: ++n, ev });
  if (st.history.length > HISTORY_MAX) st.history.splice(0, st.history.length - HISTORY_MAX);
  tableEvents(st, step.events, prev);
  v.shown = v.cur;
}

function go(v, k) {
  if (!v.meta) return;
  v.cur = Math.max(0, Math.min(v.meta.total - 1, k));
  if (v.cur === v.meta.total - 1) stop(v);
  // The address follows within 250 ms (browsers throttle many replaceState calls).
  if (!v.addressTimer) {
    v.addressTimer = setTimeout(() => {
      v.addressTimer = null;
      if (isShown(v) && addressed(v)) history.replaceState(null, '', replayHash(v.table, v.seat, v.cur));
    }, 250);
  }
  // Drawn at once, not at the next frame: a held arrow key or autoplay shows every step.
  if (isShown(v)) renderReplay(v.root, v.route, v.rerender);
  else v.rerender();
}

/** Whether the address still names this viewer: after a switch of seat the old viewer's pending
 * write must not send the page back (the new route is drawn at the next frame). */
function addressed(v) {
  const r = pageRoute(location.hash);
  return !!r && r.screen === 'replay' && r.table === v.table && r.seat === v.seat;
}

function forget(v) { clearTimeout(v.addressTimer); v.addressTimer = null; }

function stop(v) { v.playing = false; clearTimeout(v.timer); v.timer = null; }

function tick(v) {
  clearTimeout(v.timer);
  if (!v.playing) return;
  v.timer = setTimeout(() => {
    if (!v.playing || !isShown(v)) { stop(v); return; }
    if (v.steps[v.cur + 1]) go(v, v.cur + 1);
    tick(v);
  }, STEP_MS / v.speed);
}

function toggle(v) {
  if (v.playing) stop(v);
  else {
    if (v.meta && v.cur >= v.meta.total - 1) v.cur = 0;
    v.playing = true;
    tick(v);
  }
  v.rerender();
}

let current = null;
function isShown(v) { return current === v && !!$('.replay-screen'); }

export function renderReplay(root, route, rerender) {
  const v = viewer(route, rerender);
  if (current && current !== v) { stop(current); forget(current); }
  current = v;
  v.root = root;
  v.route = route;
  let scr = $('.replay-screen', root);
  if (!scr || scr.dataset.key !== `${v.table}|${v.seat}`) {
    clear(root);
    scr = h('div', { class: 'replay-screen', dataset: { key: `${v.table}|${v.seat}` } },
      h('div', { class: 'replay-bar panel', role: 'toolbar', 'aria-label': t('Replay controls') }),
      h('div', { class: 'replay-table' }));
    root.append(scr);
  }
  const bar = $('.replay-bar', scr);
  const box = $('.replay-table', scr);
  if (v.error) {
    clear(bar).append(h('h1', null, t('Replay')), h('a', { class: 'btn ghost', href: '#/' }, t('Back to the lobby')));
    clear(box).append(h('p', { class: 'error big', id: 'replay-error', role: 'alert' },
      v.status === 409 ? t('The game is not over yet: its replay opens when it ends.') : v.status === 404 ? t('No finished game here.') : v.error));
    return;
  }
  if (!v.meta || !v.steps[v.cur]) {
    if (!v.meta) clear(bar).append(h('h1', null, t('Replay')));
    if (!$('.table-screen', box)) clear(box).append(h('p', { class: 'muted big', id: 'replay-loading' }, t('Loading the replay…')));
    if (v.meta) renderBar(bar, v);
    return;
  }
  if (!$('.table-screen', box)) clear(box);
  show(v);
  renderBar(bar, v);
  renderTable(box, v.st);
}

function renderBar(bar, v) {
  const m = v.meta;
  const last = m.total - 1;
  const loaded = v.steps.filter(Boolean).length;
  const seatSel = h('select', { id: 'replay-seat', 'aria-label': t('Whose view'),
    onchange: (e) => { stop(v); forget(v); location.hash = replayHash(v.table, e.target.value === '' ? null : +e.target.value, v.cur); } },
  h('option', { value: '', selected: v.seat == null }, t('Public view')),
  m.seats.map((s) => h('option', { value: String(s.seat), selected: v.seat === s.seat }, t('Seat {n}: {name}', { n: s.seat + 1, name: seatName(s, s.seat) }))));
  const slider = h('input', { type: 'range', id: 'replay-slider', min: '0', max: String(last), value: String(v.cur),
    'aria-label': t('Step'), oninput: (e) => { stop(v); go(v, +e.target.value); } });
  const btn = (id, label, title, f, disabled) => h('button', { type: 'button', class: 'btn', id, title, 'aria-label': title, disabled, onclick: () => { stop(v); f(); } }, label);
  const speed = h('select', { id: 'replay-speed', 'aria-label': t('Speed'), onchange: (e) => { v.speed = +e.target.value; tick(v); } },
    SPEEDS.map((s) => h('option', { value: String(s), selected: s === v.speed }, `${s}×`)));
  const focused = document.activeElement && document.activeElement.id;
  clear(bar).append(
    h('div', { class: 'rb-title' },
      h('h1', null, t('Replay'), ' · ', gameTitle(m.game), h('span', { class: 'tid' }, ` #${m.table}`)),
      m.abandoned ? h('span', { class: 'chip' }, t('abandoned')) : null,
      h('span', { class: 'spacer' }),
      h('label', { class: 'field inline' }, h('span', null, t('View')), seatSel)),
    h('div', { class: 'rb-controls' },
      btn('replay-first', '|◀', t('First step (Home)'), () => go(v, 0), v.cur === 0),
      btn('replay-prev', '◀', t('Previous step (←)'), () => go(v, v.cur - 1), v.cur === 0),
      h('button', { type: 'button', class: 'btn primary', id: 'replay-play', 'aria-pressed': String(v.playing),
        title: t('Play / pause (Space)'), onclick: () => toggle(v) }, v.playing ? t('Pause') : t('Play')),
      btn('replay-next', '▶', t('Next step (→)'), () => go(v, v.cur + 1), v.cur >= last),
      btn('replay-last', '▶|', t('Last step (End)'), () => go(v, last), v.cur >= last),
      speed,
      h('span', { class: 'rb-pos', id: 'replay-pos', role: 'status' }, t('Step {k} of {n}', { k: v.cur, n: last }),
        loaded < m.total ? h('span', { class: 'muted small' }, ` · ${t('loading {a}/{b}', { a: loaded, b: m.total })}`) : null)),
    slider);
  if (focused && focused.startsWith('replay-')) {
    const el = /** @type {HTMLButtonElement | null} */ ($(`#${focused}`, bar));
    if (el && !el.disabled) el.focus({ preventScroll: true });
  }
}

document.addEventListener('keydown', (e) => {
  const v = current;
  if (!v || !v.meta || !isShown(v)) return;
  const target = /** @type {HTMLInputElement | null} */ (e.target);
  const tag = (target && target.tagName) || '';
  if ((tag === 'INPUT' && target.type !== 'range') || tag === 'TEXTAREA' || tag === 'SELECT') return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const keys = { ArrowRight: () => go(v, v.cur + 1), ArrowLeft: () => go(v, v.cur - 1), Home: () => go(v, 0),
    End: () => go(v, v.meta.total - 1), ' ': () => toggle(v) };
  const f = keys[e.key];
  if (!f) return;
  e.preventDefault();
  if (e.key !== ' ') stop(v);
  f();
});
