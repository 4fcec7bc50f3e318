// The lobby: your name, a new table with its host settings, the live list of tables.

import { h, clear, $ } from './dom.js';
import { t } from './i18n.js';
import { app, send, nav, changeName, tableState } from './state.js';
import { playerLink } from './links.js';
import { gameList, gameMeta, lobbyFields, optionLabel, gameTitle, gameBlurb, optionValueText, optionChips } from './games/index.js';
import { rulesHref } from './rules.js';
import { tutorialButton } from './tutorial.js';

/** The new-table form; the first game of the list until the player picks one. */
const form = { game: '', seats: 0, options: /** @type {Object<string, any>} */ ({}) };

/** A form this long is laid out in more columns. */
const MANY_FIELDS = 8;

export function renderLobby(root) {
  let lobby = $('.lobby', root);
  if (!lobby) {
    lobby = h('main', { class: 'lobby' },
      h('section', { class: 'panel create', 'aria-labelledby': 'create-h' },
        h('h2', { id: 'create-h' }, t('New table')),
        h('div', { class: 'name-row' }, nameForm()),
        h('div', { id: 'create-form' })),
      h('section', { class: 'panel tables', 'aria-labelledby': 'tables-h' },
        h('h2', { id: 'tables-h' }, t('Tables')),
        h('div', { id: 'table-list', 'aria-live': 'polite' })));
    root.append(lobby);
    renderCreate();
  }
  renderList();
}

function nameForm() {
  const input = h('input', { id: 'name-input', type: 'text', maxlength: '24', value: app.me.name, autocomplete: 'nickname',
    'aria-label': t('Your name') });
  return h('form', { class: 'name-form', onsubmit: (e) => { e.preventDefault(); changeName(input.value); } },
    h('label', { for: 'name-input' }, t('Your name')), input,
    h('button', { type: 'submit', class: 'btn', id: 'name-save' }, t('Save')));
}

function renderCreate() {
  const box = $('#create-form');
  clear(box);
  const games = gameList();
  if (!gameMeta(form.game) && games.length) { form.game = games[0].name; form.seats = games[0].default_players; }
  const meta = gameMeta(form.game);
  if (!meta) return;
  const [lo, hi] = [meta.min_players, meta.max_players];
  form.seats = Math.min(hi, Math.max(lo, form.seats));
  const gamePick = h('div', { class: 'game-pick', role: 'radiogroup', 'aria-label': t('Game') },
    games.map((m) => h('button', {
      type: 'button', role: 'radio', 'aria-checked': m.name === form.game ? 'true' : 'false',
      class: `game-card g-${m.name} ${m.name === form.game ? 'on' : ''}`, id: `pick-${m.name}`,
      onclick: () => { form.game = m.name; form.seats = m.default_players; form.options = {}; renderCreate(); },
    }, h('b', null, gameTitle(m.name)), h('small', null, gameBlurb(m.name)),
    h('span', { class: 'range' }, t('{a}–{b} players', { a: m.min_players, b: m.max_players })))));
  const seatSel = h('select', { id: 'opt-seats', onchange: (e) => { form.seats = +e.target.value; renderCreate(); } });
  for (let n = lo; n <= hi; n++) seatSel.append(h('option', { value: n, selected: n === form.seats }, String(n)));
  const fields = [h('label', { class: 'field' }, h('span', null, t('Seats')), seatSel)];
  for (const d of lobbyFields(form.game, form.seats)) {
    const opt = optionLabel(form.game, d.key);
    const cur = d.key in form.options ? form.options[d.key] : d.default;
    if (opt.kind === 'check') {
      fields.push(h('label', { class: 'field check' },
        h('input', { type: 'checkbox', id: `opt-${d.key}`, checked: !!cur,
          onchange: (e) => { form.options[d.key] = e.target.checked; } }),
        h('span', null, t(opt.label)), hint(opt)));
    } else {
      const sel = h('select', { id: `opt-${d.key}`, onchange: (e) => { form.options[d.key] = JSON.parse(e.target.value); } });
      for (const v of d.values) sel.append(h('option', { value: JSON.stringify(v), selected: v === cur }, optionValueText(opt, v)));
      fields.push(h('label', { class: 'field' }, h('span', null, t(opt.label)), sel, hint(opt)));
    }
  }
  const rules = h('p', { class: 'rules-links' }, t('Rules:'), ' ',
    games.map((m) => h('a', { href: rulesHref(m.name), class: 'chip', dataset: { rules: m.name } }, gameTitle(m.name))));
  const learn = games.some((m) => m.tutorial) ? h('p', { class: 'rules-links tutorial-links' }, t('Learn to play:'), ' ',
    games.filter((m) => m.tutorial).map((m) => tutorialButton(m.name, gameTitle(m.name)))) : null;
  box.append(gamePick, rules, learn,
    h('form', { class: 'opts', onsubmit: (e) => { e.preventDefault(); create(); } },
      h('div', { class: `fields ${fields.length > MANY_FIELDS ? 'many' : ''}` }, fields),
      h('button', { type: 'submit', class: 'btn primary', id: 'create-btn' }, t('Create table'))));
}

/** The option's one-line explanation. @param {import('./games/index.js').OptionLabel} opt */
function hint(opt) { return opt.hint ? h('small', { class: 'hint', id: `hint-${opt.key}` }, t(opt.hint)) : null; }

function currentOptions() {
  /** @type {Object<string, any>} */
  const out = {};
  for (const d of lobbyFields(form.game, form.seats)) {
    const v = d.key in form.options ? form.options[d.key] : d.default;
    out[d.key] = d.values.includes(v) ? v : d.default; // a value picked at another seat count
  }
  return out;
}

function create() {
  send({ type: 'create', game: form.game, seats: form.seats, options: currentOptions() }, { kind: 'create' });
}

function stateText(s) { return t({ waiting: 'waiting', playing: 'playing', over: 'over' }[s] || s); }

function renderList() {
  const box = $('#table-list');
  clear(box);
  const tables = [...app.lobby].sort((a, b) => (a.state === 'waiting' ? 0 : 1) - (b.state === 'waiting' ? 0 : 1));
  if (!tables.length) {
    box.append(h('p', { class: 'muted' }, app.status === 'online' ? t('No tables yet: create one.') : t('Connecting…')));
    return;
  }
  const list = h('ul', { class: 'tlist' });
  for (const tb of tables) {
    const key = String(tb.table);
    const mine = app.tables.get(key)?.info?.you != null;
    const free = tb.taken < tb.seats;
    const dots = h('span', { class: 'seatdots', 'aria-label': t('{a} of {b} seats taken', { a: tb.taken, b: tb.seats }) },
      Array.from({ length: tb.seats }, (_, i) => h('span', { class: i < tb.taken ? 'on' : '' })));
    list.append(h('li', { class: `trow st-${tb.state}`, dataset: { table: key, game: tb.game } },
      h('div', { class: 'tmain-info' },
        h('b', { class: `gname g-${tb.game}` }, gameTitle(tb.game)),
        h('span', { class: 'tid' }, `#${key}`),
        h('span', { class: `tstate st-${tb.state}` }, stateText(tb.state)),
        dots, h('span', { class: 'taken' }, `${tb.taken}/${tb.seats}`),
        tb.host != null ? h('span', { class: 'host muted' }, t('host {name}', { name: '' }), playerLink(hostPlayer(tb), hostName(tb.host))) : null),
      h('div', { class: 'chips' }, optionChips(tb.game, tb.options).map((c) => h('span', { class: 'chip' }, c))),
      h('div', { class: 'tactions' },
        mine ? h('button', { type: 'button', class: 'btn primary', onclick: () => nav({ screen: 'table', table: key }) }, t('Open'))
          : (tb.state === 'waiting' && free
            ? h('button', { type: 'button', class: 'btn primary', dataset: { join: key },
              onclick: () => { tableState(tb.table); send({ type: 'join', table: tb.table }, { kind: 'join', table: key }); } }, t('Sit down'))
            : null),
        mine ? null : h('button', { type: 'button', class: 'btn', dataset: { watch: key },
          onclick: () => { const st = tableState(tb.table); st.watchSent = true; send({ type: 'watch', table: tb.table }, { kind: 'join', table: key }); } }, t('Watch')))));
  }
  box.append(list);
}

/** The host's player id, when the entry lists the seats' ids (`players`, beside `names`). */
function hostPlayer(tb) {
  const i = (tb.names || []).indexOf(typeof tb.host === 'object' && tb.host ? tb.host.name : tb.host);
  return i >= 0 && Array.isArray(tb.players) ? tb.players[i] : null;
}

function hostName(host) {
  if (typeof host === 'object' && host) return host.name || host.player || '?';
  return String(host);
}
