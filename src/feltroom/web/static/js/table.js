// A table: the waiting room, then the game drawn from update.view, offering only update.legal.
// Common parts here (seats, clocks, action bar, history, results, keyboard); each game module
// draws its own centre and hand (games/*.js).

import { h, clear, append, $, $$ } from './dom.js';
import { t } from './i18n.js';
import { serverNow } from './net.js';
import { app, send, nav, render, ignorePlayer, unignorePlayer } from './state.js';
import { GAMES, botLevels, gameTitle, optionChips } from './games/index.js';
import { ratingChanges, rematchBox, replayLink } from './endscreen.js';
import { playerLink, seatPlayer } from './links.js';
import { inviteBox, takeSeat } from './invite.js';
import { ruleLink, rulesHref } from './rules.js';
import { errorNodes } from './errors.js';
import { coachBox, markAsked, tutorialOutro } from './tutorial.js';
import { noteMoment, renderMoment, momentInResult, closeMoment } from './moment.js';
import { playSound } from './sound.js';

const BOT_LEVELS = ['random', 'heuristic']; // until the server says (table.bot_levels)
const EVENTS_KEEP = 400; // game events kept per table; chat has its own list (main.js CHAT_KEEP), so it never pushes them out
const EVENTS_SHOWN = 150;

// ---- context given to the game modules ----------------------------------------

/** Run a game module's drawing code; a bug there must not freeze the table (the bar still works). */
function safe(f, fallback = null) {
  try { return f(); } catch (e) { console.error(e); return fallback; }
}

function makeCtx(st) {
  const info = st.info || {};
  const upd = st.upd || null;
  const view = upd ? upd.view : null;
  const n = view ? view.players : (info.seats || []).length;
  const me = upd ? (upd.seat ?? null) : (info.you ?? null);
  const ctx = {
    st, info, upd, view, n, me,
    legal: upd && info.state !== 'abandoned' ? upd.legal || [] : [],
    ui: st.ui,
    game: GAMES[info.game || (view && view.game)],
    deadlines: upd ? upd.deadlines || [] : [],
    name(i) {
      const nm = ctx.shortName(i);
      return i === me ? t('{name} (you)', { name: nm }) : nm;
    },
    shortName(i) { return seatName((info.seats || [])[i], i); },
    act(action) { act(st, action); },
    rerender() { render(); },
    deadline(pred) { return ctx.deadlines.find(pred) || null; },
    clock(d, cls = '') { return d ? h('span', { class: `clock ${cls}`, dataset: { deadline: d.at }, role: 'timer' }, '') : null; },
    has(a) { return ctx.legal.includes(a); },
  };
  return ctx;
}

/** A seat's display name: the player's name, or "Bot 3" for a bot seat. */
export function seatName(s, i) {
  if (s && s.bot) return t('Bot {n}', { n: i + 1 });
  return s && s.name ? s.name : t('Seat {n}', { n: i + 1 });
}

/** A rejected message at this table (`st.error`: the server's error and the action sent), in the
 *  UI language with the players' names, and its rule as a link to the rules page.
 *  @param {any} st @param {{msg: any, action: string | null}} err */
export function errorLine(st, err) {
  const info = st.info || {};
  const seats = info.seats || [];
  return [h('span', { class: 'err-text' }, errorNodes(err.msg, (i) => seatName(seats[i], i), err.action)),
    err.msg.rule ? h('small', { class: 'rule-cite' }, ' · ', t('rule'), ' ', ruleLink(info.game, err.msg.rule)) : null];
}

export function act(st, action) {
  if (!st.upd) return;
  st.ui.lastAct = action;
  send({ type: 'act', table: st.id, action, seq: st.upd.seq }, { kind: 'act', table: st.key, action });
}

// ---- events: history and the game's own memory -------------------------------------

export function tableEvents(st, events, prev) {
  const ctx = makeCtx(st);
  if (ctx.game && ctx.game.onEvents) safe(() => ctx.game.onEvents(ctx, events, prev));
  if (ctx.game && ctx.game.moment && events.length) noteMoment(st, safe(() => ctx.game.moment(ctx, events)));
  if (prev && !st.replay && app.route.screen === 'table' && app.route.table === st.key) safe(() => tableSounds(ctx, events, prev));
  for (const ev of events) st.history.push({ kind: 'event', n: ++app.seq, ev });
  if (st.history.length > EVENTS_KEEP) st.history.splice(0, st.history.length - EVENTS_KEEP);
}

/** The sounds of new events (each game's `sound` hook), your turn coming, and the game's end. */
function tableSounds(ctx, events, prev) {
  for (const ev of events) {
    const kind = ev.type === 'game_end' ? 'over' : ctx.game && ctx.game.sound ? ctx.game.sound(ev, ctx) : null;
    if (kind) playSound(kind);
  }
  // Your turn: you had nothing to do, now you have (a window or a hold that keeps you waiting is not it).
  const was = prev && (prev.legal || []).length > 0;
  if (ctx.me != null && ctx.view && !ctx.view.over && ctx.legal.length && !was) playSound('turn');
}

// ---- clocks ----------------------------------------------------------------------

export function tickClocks() { fillClocks(document); }

function fillClocks(root) {
  const now = serverNow();
  for (const el of $$('[data-deadline]', root)) {
    const left = Math.max(0, +el.dataset.deadline - now);
    const txt = el.dataset.secs != null ? String(Math.ceil(left)) : left >= 60 ? `${Math.floor(left / 60)}:${String(Math.floor(left % 60)).padStart(2, '0')}` : left < 10 ? left.toFixed(1) : String(Math.ceil(left));
    if (el.dataset.bar != null) el.style.setProperty('--left', String(Math.min(1, left / (+el.dataset.bar || 1))));
    else if (el.textContent !== txt) el.textContent = txt;
    el.classList.toggle('low', left < 5);
  }
}

// ---- rendering ----------------------------------------------------------------------

export function renderTable(root, st) {
  const ctx = makeCtx(st);
  let scr = $('.table-screen', root);
  if (!scr) {
    scr = h('div', { class: 'table-screen' },
      h('div', { class: 'thead' }),
      h('div', { class: 'tgrid' },
        h('section', { class: 'opps', 'aria-label': t('Other players') }),
        h('section', { class: 'center', 'aria-label': t('Table') }),
        h('section', { class: 'mine', 'aria-label': t('Your seat') }),
        h('aside', { class: 'side' },
          h('div', { class: 'coach-host' }),
          h('div', { class: 'status', id: 'status', role: 'status', 'aria-live': 'polite', dataset: { role: 'status' } }),
          h('div', { class: 'moment-host' }),
          h('div', { class: 'last-result' }),
          h('details', { class: 'hist', open: window.innerWidth > 700, ontoggle: () => render() },
            h('summary', null, t('History'), h('span', { class: 'unread', id: 'unread', dataset: { role: 'unread' } })),
            h('ol', { class: 'history', id: 'history' })),
          h('details', { class: 'keys' }, h('summary', null, t('Keyboard')), h('div', { class: 'keylist' })),
          h('form', { class: 'chat', onsubmit: (e) => { e.preventDefault(); const i = /** @type {HTMLInputElement} */ ($('input', e.target)); if (i.value.trim()) send({ type: 'chat', table: st.id, text: i.value.trim() }); i.value = ''; } },
            h('input', { type: 'text', maxlength: '200', placeholder: t('Chat…'), 'aria-label': t('Chat message') }),
            h('button', { type: 'submit', class: 'btn' }, t('Send'))),
          h('div', { class: 'ignored-list', id: 'ignored' }))),
      h('div', { class: 'overlay-host' }));
    root.append(scr);
  }
  scr.className = `table-screen g-${ctx.info.game || ''} st-${ctx.info.state || 'loading'}`;
  // Stable hooks for tests and outside tools (docs/web.md): the game, and the phase of the view.
  scr.dataset.game = ctx.info.game || '';
  scr.dataset.phase = ctx.view ? String(ctx.view.phase) : ctx.info.state === 'waiting' ? 'waiting' : '';
  renderHead($('.thead', scr), ctx);
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const focusKey = active && active.dataset ? (active.dataset.act || active.dataset.key) : null;
  if (!st.info) {
    clear($('.opps', scr)); clear($('.mine', scr)); clear($('.last-result', scr));
    clear($('.center', scr)).append(h('p', { class: 'muted big' }, st.missing ? t('No such table.') : t('Loading table…')));
  } else if (ctx.info.state === 'waiting' || !ctx.view) {
    clear($('.opps', scr)); clear($('.mine', scr)); clear($('.last-result', scr));
    clear($('.center', scr)).append(waitingRoom(ctx));
  } else {
    // Build the new sections off-screen; replace a section only if it changed, so that
    // updates that do not touch it (other seats' moves, chat) keep focus, hover and clicks.
    const opps = document.createElement('section');
    renderSeats(opps, ctx);
    const center = document.createElement('section');
    if (ctx.game) append(center, [safe(() => ctx.game.center(ctx))]);
    // The last round's / hand's / deal's result sits beside the table (under the status; on a
    // phone under your hand), so it never pushes your hand or your moves off the screen.
    const last = document.createElement('div');
    const panel = $('#round-result', center);
    if (panel) last.append(panel);
    morph($('.last-result', scr), last);
    const mine = document.createElement('section');
    if (ctx.me != null) mine.append(seatPanel(ctx, ctx.me));
    if (ctx.game && ctx.game.mine) append(mine, [safe(() => ctx.game.mine(ctx))]);
    const offered = new Set([opps, center, mine].flatMap((b) => $$('[data-act]', b).map((e) => e.dataset.act)));
    mine.append(actionBar(ctx, offered));
    safe(() => markAsked([opps, center, mine], mine, ctx));
    morph($('.opps', scr), opps);
    morph($('.center', scr), center);
    morph($('.mine', scr), mine);
  }
  renderStatus($('#status', scr), ctx);
  const coach = document.createElement('div');
  append(coach, [safe(() => coachBox(ctx))]);
  morph($('.coach-host', scr), coach);
  renderHistory($('#history', scr), ctx);
  renderUnread(/** @type {HTMLDetailsElement} */ ($('details.hist', scr)), ctx);
  renderIgnored($('#ignored', scr));
  renderKeys($('.keylist', scr), ctx);
  renderOverlay($('.overlay-host', scr), ctx);
  safe(() => renderMoment($('.moment-host', scr), ctx));
  if (ctx.view && ctx.game && ctx.game.afterRender) safe(() => ctx.game.afterRender(ctx, scr));
  if (focusKey) {
    const el = $$('[data-act],[data-key]', scr).find((e) => e.dataset.act === focusKey || e.dataset.key === focusKey);
    if (el) el.focus({ preventScroll: true });
  }
  tickClocks();
}

function renderHead(box, ctx) {
  clear(box);
  const { info, view } = ctx;
  append(box, [
    h('button', { type: 'button', class: 'btn ghost back', onclick: () => nav({ screen: 'lobby' }), 'aria-label': t('Back to the lobby') }, '← ', h('span', { class: 'wide' }, t('Lobby'))),
    h('h1', null, info.game ? gameTitle(info.game) : t('Table'), h('span', { class: 'tid' }, ` #${ctx.st.key}`)),
    view && ctx.game && ctx.game.headInfo ? h('span', { class: 'hinfo' }, safe(() => ctx.game.headInfo(ctx))) : null,
    ctx.me == null && info.state && info.state !== 'waiting' ? h('span', { class: 'chip spect' }, t('spectating')) : null,
    h('div', { class: 'chips' }, optionChips(info.game, info.options).map((c) => h('span', { class: 'chip' }, c)),
      info.game ? h('a', { class: 'btn ghost small rules-btn', href: rulesHref(info.game), id: 'rules-btn' }, t('Rules')) : null),
  ]);
}

function waitingRoom(ctx) {
  const { info, st } = ctx;
  const seated = info.you != null;
  const host = isHost(ctx);
  const seats = info.seats || [];
  const full = seats.length && seats.every((s) => s.name || s.bot);
  const spectator = !seated && info.state === 'waiting';
  const rows = seats.map((s, i) => {
    const taken = !!(s.name || s.bot);
    const levelSel = h('select', { 'aria-label': t('Bot level for seat {n}', { n: i + 1 }), class: 'botlevel', dataset: { seat: i },
      onchange: (e) => { st.ui.botLevel = e.target.value; } },
    (info.bot_levels || BOT_LEVELS).map((l) => {
      const about = botLevels(info.game).find((d) => d.level === l);
      return h('option', { value: l, selected: l === (st.ui.botLevel || 'random'), title: about ? t(about.about) : null },
        about ? `${t(l)} · ${t(about.strength)}` : t(l));
    }));
    return h('li', { class: `wseat ${taken ? 'taken' : 'free'} ${i === info.you ? 'me' : ''}`, dataset: { seat: i } },
      h('span', { class: 'snum' }, String(i + 1)),
      h('span', { class: 'sname' }, taken ? playerLink(seatPlayer(s), s.bot ? h('span', null, h('span', { class: 'badge bot' }, t('BOT')), ' ', t('{level} bot', { level: t(String(s.bot)) })) : s.name) : h('span', { class: 'muted' }, t('empty seat'))),
      i === info.you ? h('span', { class: 'chip you' }, t('you')) : null,
      h('span', { class: 'spacer' }),
      !taken && !seated ? h('button', { type: 'button', class: 'btn primary', dataset: { sit: i },
        onclick: () => send({ type: 'join', table: st.id, seat: i }, { kind: 'join', table: st.key }) }, t('Sit here')) : null,
      !taken && host ? [levelSel, h('button', { type: 'button', class: 'btn', dataset: { addbot: i },
        onclick: () => send({ type: 'bot', table: st.id, seat: i, level: levelSel.value }, { kind: 'bot', table: st.key }) }, t('Add bot'))] : null,
      taken && s.bot && host ? h('button', { type: 'button', class: 'btn ghost', dataset: { rmbot: i },
        onclick: () => send({ type: 'bot', table: st.id, seat: i, level: null }, { kind: 'bot', table: st.key }) }, t('Remove')) : null);
  });
  const err = st.error ? h('p', { class: 'error', role: 'alert' }, errorLine(st, st.error)) : null;
  return h('div', { class: 'waiting panel' },
    h('h2', null, info.state === 'waiting' ? t('Waiting for players') : t('Starting…')),
    takeSeat(ctx, send),
    h('ul', { class: 'wseats' }, rows),
    host && seats.some((s) => !(s.name || s.bot)) ? h('ul', { class: 'botlevels muted', dataset: { role: 'bot-levels' } },
      botLevels(info.game).filter((d) => (info.bot_levels || BOT_LEVELS).includes(d.level))
        .map((d) => h('li', null, h('b', null, t(d.level)), ` · ${t(d.strength)}: ${t(d.about)}`))) : null,
    err,
    h('div', { class: 'wactions' },
      host ? h('button', { type: 'button', class: 'btn', id: 'fill-bots',
        onclick: () => seats.forEach((s, i) => {
          if (s.name || s.bot) return;
          const sel = /** @type {HTMLSelectElement} */ ($(`select.botlevel[data-seat="${i}"]`));
          send({ type: 'bot', table: st.id, seat: i, level: sel ? sel.value : 'random' }, { kind: 'bot', table: st.key });
        }) }, t('Fill with bots')) : null,
      host ? h('button', { type: 'button', class: 'btn primary', id: 'start-btn', disabled: !full,
        onclick: () => send({ type: 'start', table: st.id }, { kind: 'start', table: st.key }) }, t('Start')) : null,
      seated && info.state === 'waiting' ? h('button', { type: 'button', class: 'btn ghost', id: 'leave-btn',
        onclick: () => { send({ type: 'leave', table: st.id }, { kind: 'leave', table: st.key }); } }, t('Leave seat')) : null,
      !host && seated ? h('p', { class: 'muted' }, t('The host starts the game when every seat is taken.')) : null,
      spectator ? h('p', { class: 'muted', id: 'spectator-hint' }, full ? t('Every seat is taken: you are watching this table.') : t('Pick a free seat, or watch.')) : null),
    inviteBox(ctx));
}

export function isHost(ctx) {
  if (ctx.info.host_player != null) return ctx.info.host_player === app.me.player;
  const host = ctx.info.host;
  if (host == null) return ctx.info.you === 0;
  if (typeof host === 'object') return host.player === app.me.player || (host.name === app.me.name && host.seat === ctx.info.you);
  return host === app.me.player || (host === app.me.name && ctx.info.you != null);
}

function seatPanel(ctx, i) {
  const { view, info } = ctx;
  const s = (info.seats || [])[i] || {};
  const turn = (view.to_act || []).includes(i);
  const clockD = ctx.deadlines.find((d) => d.seat === i && (d.action === 'timeout')) || null;
  const away = s.connected === false;
  return h('div', { class: `seat ${turn ? 'turn' : ''} ${i === ctx.me ? 'me' : ''} ${away ? 'away' : ''} ${view.winners && view.winners.includes(i) ? 'winner' : ''}`, dataset: { seat: i },
    'aria-label': `${ctx.name(i)}${turn ? ' — ' + t('to act') : ''}${away ? ' — ' + t('disconnected') : ''}` },
  h('div', { class: 'shead' },
    h('span', { class: `presence ${away ? 'off' : 'on'}`, title: away ? t('disconnected') : t('connected') }),
    s.standin ? h('span', { class: 'badge bot', title: t('a bot plays for this seat') }, t('BOT')) : null,
    h('span', { class: 'sname' }, playerLink(seatPlayer(s), ctx.name(i))),
    view.dealer === i ? h('span', { class: 'badge dealer', title: t('dealer') }, t('D')) : null,
    h('span', { class: 'spacer' }),
    ctx.clock(clockD),
    h('span', { class: 'score', title: t('score') }, String((view.scores || [])[i] ?? ''))),
  presenceLine(ctx, s, i),
  ctx.game && ctx.game.seatExtra ? safe(() => ctx.game.seatExtra(ctx, i)) : null);
}

/** A seated person who is away: "disconnected" and the seconds until a bot takes over (the
 *  server's grace period, `standin_at`), then "bot plays for X" while the stand-in plays. */
function presenceLine(ctx, s, i) {
  if (s.standin) return h('div', { class: 'presence-line standin', dataset: { role: 'presence' } }, t('bot plays for {name}', { name: ctx.shortName(i) }));
  if (s.connected !== false || s.bot) return null;
  const clock = s.standin_at != null ? h('span', { class: 'clock grace', dataset: { deadline: s.standin_at, secs: '1' }, role: 'timer' }, '') : null;
  return h('div', { class: 'presence-line off', dataset: { role: 'presence' } }, h('b', null, t('disconnected')),
    clock ? [' · ', t('a bot takes over in'), ' ', clock, ' ', t('s')] : null);
}

function seatOrder(ctx) {
  const n = ctx.n, me = ctx.me == null ? 0 : ctx.me;
  return Array.from({ length: n }, (_, k) => (me + k) % n);
}

function renderSeats(opps, ctx) {
  const order = seatOrder(ctx);
  const others = ctx.me == null ? order : order.slice(1);
  for (const i of others) opps.append(seatPanel(ctx, i));
}

/** Move the children of `fresh` into `box` unless `box` already shows the same thing. */
function morph(box, fresh) {
  fillClocks(fresh);
  if (box.innerHTML === fresh.innerHTML) return false;
  clear(box);
  while (fresh.firstChild) box.append(fresh.firstChild);
  return true;
}

/** Buttons for the game's own bar actions, then every legal action nothing else offers. */
function actionBar(ctx, offered) {
  const bar = h('div', { class: 'actionbar', role: 'toolbar', 'aria-label': t('Actions'), dataset: { role: 'actions' } });
  const items = ctx.game && ctx.game.bar ? safe(() => ctx.game.bar(ctx), []) : [];
  for (const it of items) bar.append(actButton(ctx, it));
  // Fallback so that every legal action is always reachable.
  const covered = new Set(items.map((i) => i.act));
  const rest = ctx.legal.filter((a) => !covered.has(a) && !offered.has(a) && !(ctx.game && ctx.game.covers && ctx.game.covers(ctx, a)));
  for (const a of rest) bar.append(actButton(ctx, { act: a, label: a }));
  append(bar, [notationBox(ctx)]);
  return bar;
}

export function actButton(ctx, it) {
  const data = {};
  if (it.act && !it.act.startsWith('__')) data.act = it.act;
  if (it.key) data.key = it.key;
  return h('button', { type: 'button', class: `btn act ${it.cls || ''}`, dataset: data, 'aria-pressed': it.pressed == null ? null : String(it.pressed),
    disabled: it.disabled, title: it.title || null, 'aria-keyshortcuts': it.key || null,
    onclick: () => (it.onClick ? it.onClick() : ctx.act(it.act)) },
  it.label, it.key ? h('kbd', { 'aria-hidden': 'true' }, it.key) : null, it.extra || null);
}

/** Type an action in the notation (notation.md), as one can type moves on chess sites. */
function notationBox(ctx) {
  if (ctx.me == null || ctx.view.over || ctx.st.replay) return null;
  const input = h('input', { type: 'text', id: 'notation', class: 'notation', placeholder: t('type a move…'),
    'aria-label': t('Type an action in notation'), autocomplete: 'off', spellcheck: 'false' });
  return h('form', { class: 'notation-form', onsubmit: (e) => { e.preventDefault(); if (input.value.trim()) ctx.act(input.value.trim()); input.value = ''; } },
    input, h('button', { type: 'submit', class: 'btn ghost', id: 'notation-go', 'aria-label': t('Send the typed action') }, '↵'));
}

function renderStatus(box, ctx) {
  clear(box);
  const { st, view } = ctx;
  if (st.error) box.append(h('p', { class: 'error', id: 'act-error', role: 'alert' }, '⚠ ', errorLine(st, st.error)));
  if (!view) return;
  const line = ctx.game && ctx.game.status ? safe(() => ctx.game.status(ctx), '') : '';
  const mine = ctx.me != null && (view.to_act || []).includes(ctx.me);
  // A deadline that is nobody's in particular (a discard phase all seats play at once) is shown here.
  const shared = ctx.deadlines.find((d) => d.seat == null && (d.action === 'timeout' || d.action === 'close'));
  box.append(h('p', { class: `line ${mine ? 'yours' : ''}`, id: 'status-line' }, line, shared ? [' ', ctx.clock(shared)] : null));
}

/** The last game events and the kept chat lines, in the order they came. */
function renderHistory(box, ctx) {
  const { st } = ctx;
  const items = [...st.history.slice(-EVENTS_SHOWN), ...st.chat.map((c) => ({ kind: 'chat', ...c }))].sort((a, b) => a.n - b.n);
  clear(box);
  for (const it of items) {
    let node = null;
    if (it.kind === 'chat') node = chatLine(it);
    else if (ctx.game && ctx.game.narrate) {
      const out = safe(() => ctx.game.narrate(it.ev, ctx));
      if (out) node = h('li', { class: `ev ev-${it.ev.type} ${out.cls || ''}` }, out.node || out);
    }
    if (node) box.append(node);
  }
  // At the next frame: reading scrollHeight forces a layout, once a frame rather than once a
  // draw (the replay viewer draws every step it passes).
  requestAnimationFrame(() => { box.scrollTop = box.scrollHeight; });
}

/** Chat lies in the History, which a phone keeps closed: its summary counts the others' lines
 *  that came since it was last open (ui-msg: issue 14's "chat is invisible on a phone"). */
function renderUnread(hist, ctx) {
  const { st } = ctx;
  const last = st.chat.length ? st.chat[st.chat.length - 1].n : 0;
  if (hist.open || st.chatSeen == null) st.chatSeen = Math.max(st.chatSeen || 0, hist.open ? last : 0);
  const n = st.chat.filter((c) => c.n > st.chatSeen && c.player !== app.me.player).length;
  const badge = $('#unread', hist);
  const text = n ? t('{n} new', { n }) : '';
  if (badge.textContent !== text) badge.textContent = text;
  badge.title = n ? t('chat lines you have not seen') : '';
}

function chatLine(c) {
  const mine = c.player != null && c.player === app.me.player;
  return h('li', { class: 'chatmsg', dataset: { player: c.player ?? '' } }, h('b', null, c.from, ': '), c.text,
    !mine && c.player != null ? h('button', { type: 'button', class: 'ignore', dataset: { ignore: c.player },
      title: t('Ignore {name}: hide their chat', { name: c.from }), 'aria-label': t('Ignore {name}: hide their chat', { name: c.from }),
      onclick: () => ignorePlayer(c.player, c.from) }, t('ignore')) : null);
}

function renderIgnored(box) {
  clear(box);
  const ids = Object.keys(app.ignored);
  if (!ids.length) return;
  append(box, [h('span', { class: 'muted small' }, t('Ignored:')), ' ',
    ids.map((id) => h('button', { type: 'button', class: 'btn ghost unignore', dataset: { unignore: id },
      title: t('Show {name}’s chat again', { name: app.ignored[id] }), onclick: () => unignorePlayer(id) }, app.ignored[id], ' ✕'))]);
}

function renderKeys(box, ctx) {
  clear(box);
  const list = [['?', t('show or hide this list')], ['Esc', t('cancel a selection')], ['/', t('type a move in notation')]];
  if (ctx.game && ctx.game.shortcuts) list.unshift(...ctx.game.shortcuts(ctx));
  box.append(h('dl', null, list.map(([k, d]) => [h('dt', null, h('kbd', null, k)), h('dd', null, d)])));
}

function renderOverlay(box, ctx) {
  clear(box);
  const { view, st } = ctx;
  if (view && view.over && !st.ui.resultClosed) {
    const scores = view.scores || [];
    const order = Array.from({ length: ctx.n }, (_, i) => i);
    const low = ctx.game && ctx.game.lowWins;
    order.sort((a, b) => (low ? scores[a] - scores[b] : scores[b] - scores[a]));
    const won = ctx.me != null && view.winners.includes(ctx.me);
    box.append(h('div', { class: 'overlay', id: 'result', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'result-h' },
      h('div', { class: 'result panel' },
        h('h2', { id: 'result-h' }, ctx.me == null ? t('Game over') : won ? t('You win!') : t('Game over')),
        h('p', null, t('Winner: {names}', { names: view.winners.map((w) => ctx.shortName(w)).join(', ') })),
        safe(() => tutorialOutro(ctx)),
        safe(() => momentInResult(ctx)),
        ctx.game && ctx.game.resultExtra ? safe(() => ctx.game.resultExtra(ctx)) : null,
        safe(() => ratingChanges(ctx)),
        h('table', { class: 'scores' }, h('thead', null, h('tr', null, h('th', null, t('Player')), h('th', null, t('Score')))),
          h('tbody', null, order.map((i) => h('tr', { class: view.winners.includes(i) ? 'winner' : '' },
            h('td', null, view.winners.includes(i) ? h('span', { class: 'trophy', 'aria-label': t('winner') }, '★ ') : '', ctx.name(i)), h('td', null, String(scores[i])))))),
        ctx.info.tutorial ? null : safe(() => rematchBox(ctx, send)),
        h('div', { class: 'ractions' },
          replayLink(ctx),
          h('a', { class: 'btn', id: 'record-link', href: `/api/games/${encodeURIComponent(st.key)}/record`, download: `feltroom-${st.key}.json` }, t('Download the record')),
          h('button', { type: 'button', class: 'btn', onclick: () => { st.ui.resultClosed = true; render(); } }, t('See the table')),
          h('button', { type: 'button', class: 'btn primary', onclick: () => nav({ screen: 'lobby' }) }, t('Back to the lobby'))))));
  } else if (ctx.info.state === 'abandoned') {
    box.append(h('div', { class: 'over-bar', id: 'abandoned' }, t('Game abandoned: every player was away.'), ' ',
      h('a', { href: `/api/games/${encodeURIComponent(st.key)}/record`, download: `feltroom-${st.key}.json`, id: 'record-link' }, t('Download the record')),
      ' ', replayLink(ctx, 'replay-link-bar')));
  } else if (view && view.over) {
    box.append(h('div', { class: 'over-bar' }, t('Game over.'), ' ',
      h('a', { href: `/api/games/${encodeURIComponent(st.key)}/record`, download: `feltroom-${st.key}.json`, id: 'record-link' }, t('Download the record')), ' ',
      replayLink(ctx, 'replay-link-bar'),
      h('button', { type: 'button', class: 'btn ghost', onclick: () => { st.ui.resultClosed = false; render(); } }, t('Results'))));
  }
}

// ---- keyboard -----------------------------------------------------------------------

document.addEventListener('keydown', (e) => {
  if (app.route.screen !== 'table') return;
  const st = app.tables.get(app.route.table);
  if (!st || !st.upd) return;
  const target = /** @type {HTMLElement | null} */ (e.target);
  const tag = (target && target.tagName) || '';
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') {
    if (e.key === 'Escape') target.blur();
    return;
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const ctx = makeCtx(st);
  if (e.key === '?') { const d = /** @type {HTMLDetailsElement} */ ($('details.keys')); if (d) d.open = !d.open; e.preventDefault(); return; }
  if (e.key === '/') { const i = $('#notation'); if (i) { i.focus(); e.preventDefault(); } return; }
  if (e.key === 'Escape' && closeMoment(st)) return;
  if (e.key === 'Escape') { st.ui.sel = null; st.ui.pick = null; st.ui.qsel = null; st.ui.hotkey = null; render(); return; }
  if (ctx.game && ctx.game.onKey && ctx.game.onKey(ctx, e)) { e.preventDefault(); return; }
  const key = e.key.length === 1 ? e.key.toUpperCase() : e.key;
  const btn = /** @type {HTMLButtonElement[]} */ ($$('.table-screen [data-key]')).find((b) => b.dataset.key.toUpperCase() === key.toUpperCase() && !b.disabled);
  if (btn) { btn.click(); e.preventDefault(); }
});
