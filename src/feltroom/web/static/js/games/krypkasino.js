// Krypkasino (Swedish reverse casino): hands, the table cards, capture piles with sweep
// markers; captures and sweeps are animated (CSS transitions on flying clones); when a card has
// several largest captures the player picks one (`play C take …`).
// The capture preview: hovering (or focusing) a card of your hand, or tapping it once on a touch
// screen, lights up the table cards it would take and says "sweep" when it takes them all; a
// second tap plays it (a mouse click and the digit keys play at once). `play C` does not say
// what it takes (notation.md: a unique capture has no `take`), so the client finds the largest
// capture itself from the table it sees (KRYP-VAL-1/2, KRYP-CAPTURE-1/3): public cards only.

import { h, $, $$ } from '../dom.js';
import { t } from '../i18n.js';
import { cardEl, pileEl, emptyEl, cardText, cardsText } from '../cards.js';
import { handBacks, lastPanel, digitKey, digitIndex } from './common.js';

/** This game's Russian strings, keyed by the English text (i18n.js; shared ones are in ru.js). */
const RU = {
  Krypkasino: 'Крипказино', 'Swedish reverse casino: avoid the points.': 'Шведское обратное казино: избегайте очков.',
  'Deal {n} of {m}': 'Раздача {n} из {m}', 'packet {n} of {m}': 'пачка {n} из {m}',
  'Sweep marker {card}': 'Отметка очистки {card}', 'Captured: {n} cards, {m} sweeps': 'Взято: {n} карт, очисток: {m}',
  'last to capture': 'последний захвативший', 'Deal {n} result': 'Итоги раздачи {n}', 'Table cards: {n}': 'Карты на поле: {n}',
  'The table is empty.': 'Поле пусто.', 'spade faces': 'пиковые картинки', 'out of play': 'вне игры',
  'Several captures are possible: choose one.': 'Возможны разные захваты: выберите один.',
  'Your turn: play a card (captures are taken automatically).': 'Ваш ход: сыграйте карту (захват происходит сам).',
  'then: pick one of several captures': 'затем: выбрать один из захватов', 'On the table': 'На поле',
  'Face cards removed': 'Убраны картинки', 'Packet {n}': 'Пачка {n}', 'last packet': 'последняя пачка',
  last: 'последний', 'and takes': 'и берёт', trails: 'проползает', 'double sweep!': 'двойная очистка!',
  'sweep!': 'очистка!', 'gets the last cards': 'забирает остаток поля', 'Deal {n} over': 'Раздача {n} окончена',
  'Choose the capture': 'Выберите захват', 'which cards do you take?': 'какие карты взять?',
  'Double sweep!': 'Двойная очистка!', 'Sweep!': 'Очистка!',
  // ui-msg: the capture preview
  takes: 'берёт', 'tap again to play': 'нажмите ещё раз, чтобы сыграть',
  // option hints (krypkasino.py)
  'How many times each player deals: the match lasts this many deals per player.': 'Сколько раз сдаёт каждый игрок: во встрече столько раздач на каждого игрока.',
  'Seconds for each turn; then your lowest legal card is played for you.': 'Секунды на каждый ход; потом за вас играется ваша младшая разрешённая карта.',
  // ui-msg: the engine's rejections (krypkasino.py, IllegalAction templates)
  '{take_cards} is not a capture for {card} (table cards in groups worth {value} each)': '{take_cards} — не захват для карты {card}: карты поля берутся группами по {value}',
  'there is no turn timer running (the table has no turn_time, or the match is over)': 'таймер хода не идёт (у стола нет таймера или встреча окончена)',
  'not your turn: the match is over': 'не ваш ход: встреча окончена', "not your turn: it is {seat}'s turn": 'не ваш ход: сейчас ходит {seat}',
  'a sweep is available, so you must play a sweeping card ({sweep_cards}), not {card}': 'возможна очистка, поэтому нужно сыграть очищающую карту ({sweep_cards}), а не {card}',
  "{card} has several largest captures: name one with 'take', e.g. '{action}'": 'карта {card} может взять по-разному: выберите захват, например {action}',
  "{card} captures nothing, so it is trailed: write '{action}'": 'карта {card} ничего не берёт и проползает: {action}',
  'you must take the largest capture ({n} cards), not {taken}': 'нужно взять наибольший захват (карт: {n}), а не {taken}',
  "only the turn clock plays 'timeout'": '«timeout» играют только часы хода',
};

function optionsFor(ctx, card) {
  return ctx.legal.filter((a) => a === `play ${card}` || a.startsWith(`play ${card} take `))
    .map((a) => ({ act: a, take: a.includes(' take ') ? a.split(' take ')[1].split(' ') : null }));
}

// ---- the capture preview -----------------------------------------------------------

const FACE_VALUE = { J: 11, Q: 12, K: 13 };
/** A card's capture value: in hand the ace is 14 (KRYP-VAL-1), on the table 1 (KRYP-VAL-2). @param {string} card @param {boolean} inHand */
export function captureValue(card, inHand) {
  const r = card.slice(0, -1);
  return r === 'A' ? (inHand ? 14 : 1) : FACE_VALUE[r] || +r;
}

/**
 * A largest capture (KRYP-CAPTURE-3) of the hand card `card` on `table`: the table cards it
 * takes, [] when it takes nothing (a trail). Only values count, so the search runs on how many
 * table cards there are of each value, remembered per count (tables are small).
 * @param {string} card @param {string[]} table @returns {string[]}
 */
export function largestCapture(card, table) {
  const v = captureValue(card, true);
  const counts = new Array(14).fill(0);
  for (const c of table) counts[captureValue(c, false)] += 1;
  /** @type {Map<string, number[]>} */
  const memo = new Map();
  /** The most values that split into groups worth v, as the values taken. @returns {number[]} */
  const best = () => {
    const key = counts.join(',');
    const known = memo.get(key);
    if (known) return known;
    const x = counts.findIndex((k, i) => i > 0 && k > 0); // the smallest value left
    let out = [];
    if (x > 0) {
      counts[x] -= 1;
      out = best(); // x is left on the table
      /** @param {number} from @param {number} rest @param {number[]} group */
      const groups = (from, rest, group) => { // every group with x, its other values >= from
        if (rest === 0) {
          const more = best();
          if (group.length + more.length > out.length) out = [...group, ...more];
          return;
        }
        for (let y = from; y <= Math.min(13, rest); y++) {
          if (!counts[y]) continue;
          counts[y] -= 1; group.push(y);
          groups(y, rest - y, group);
          group.pop(); counts[y] += 1;
        }
      };
      groups(x, v - x, [x]);
      counts[x] += 1;
    }
    memo.set(key, out);
    return out;
  };
  const values = best();
  const left = [...table];
  return values.map((val) => left.splice(left.findIndex((c) => captureValue(c, false) === val), 1)[0]);
}

/** What playing `card` would do now, from the legal actions and the table: null if it cannot be played.
 *  @returns {{card: string, take: string[], sweep: boolean, double: boolean, several: boolean} | null} */
export function preview(ctx, card) {
  const o = optionsFor(ctx, card);
  if (!o.length) return null;
  const table = cards(ctx.view.table);
  const take = o.length > 1 ? [...new Set(o.flatMap((x) => x.take || []))] : o[0].take || largestCapture(card, table);
  const sweep = o.length === 1 && take.length > 0 && take.length === table.length;
  return { card, take, sweep, double: sweep && table.length === 1 && table[0] === card && !card.startsWith('A'), several: o.length > 1 };
}

/** The card whose preview shows: the one tapped once (touch), else the one under the mouse or focus. */
function previewed(ctx) {
  const hand = cards(ctx.view.hand);
  for (const c of [ctx.ui.tapped, ctx.ui.hover]) if (c && hand.includes(c)) { const p = preview(ctx, c); if (p) return p; }
  return null;
}

/** @param {{card: string, take: string[], sweep: boolean, double: boolean, several: boolean}} p @param {boolean} tapped */
function previewLine(p, tapped) {
  const what = p.several ? t('Several captures are possible: choose one.')
    : p.sweep ? [h('b', { class: 'sweep-word' }, p.double ? t('double sweep!') : t('sweep!')), ' ', t('takes'), ' ', cardsText(p.take)]
      : p.take.length ? [t('takes'), ' ', cardsText(p.take)] : t('trails');
  return h('p', { class: `kr-preview ${p.sweep ? 'sweep' : ''}`, id: 'kr-preview', role: 'status', dataset: { card: p.card, sweep: String(p.sweep) } },
    cardText(p.card), ' ', what, tapped ? [' · ', t('tap again to play')] : null);
}

// How the last press began (a touch asks for two taps: the first one previews).
let lastPointer = 'mouse';
document.addEventListener('pointerdown', (e) => { lastPointer = e.pointerType || 'mouse'; }, true);

function tapCard(ctx, card) {
  if (lastPointer === 'touch' && ctx.ui.tapped !== card) { ctx.ui.tapped = card; ctx.rerender(); return; }
  ctx.ui.tapped = null;
  clickCard(ctx, card);
}

function hoverCard(ctx, card) {
  if (ctx.ui.hover === card) return;
  ctx.ui.hover = card;
  ctx.rerender();
}

function clickCard(ctx, card) {
  const o = optionsFor(ctx, card);
  if (o.length === 1) { ctx.ui.pick = null; ctx.act(o[0].act); } else if (o.length > 1) { ctx.ui.pick = card; ctx.rerender(); }
}

const cards = (x) => (Array.isArray(x) ? x : []);
const countOf = (x) => (Array.isArray(x) ? x.length : typeof x === 'number' ? x : 0);

/**
 * Take rects of matching elements for a multiset of cards, each element once.
 * @param {ParentNode} root @param {string[]} list
 * @returns {{card: string, rect: {left: number, top: number, width: number, height: number}}[]}
 */
function rectsFor(root, list) {
  const els = $$('[data-card]', root);
  const used = new Set();
  const out = [];
  for (const c of list) {
    const el = els.find((e) => e.dataset.card === c && !used.has(e));
    if (el) { used.add(el); out.push({ card: c, rect: el.getBoundingClientRect() }); }
  }
  return out;
}

export default {
  ru: RU,
  lowWins: true,

  onEvents(ctx, events) {
    // The DOM still shows the previous state: remember where the moving cards are now.
    const anims = (ctx.ui.anims = ctx.ui.anims || []);
    const tableRoot = $('.kr-table');
    for (const ev of events) {
      if (ev.type === 'play') {
        if (ev.seat === ctx.me) { ctx.ui.tapped = null; ctx.ui.hover = null; }
        let from = ev.seat === ctx.me ? rectsFor($('.mine .hand') || document.body, [ev.card])[0] : null;
        if (!from) {  // another seat: a card-sized box in the middle of its panel
          const r = ($(`.seat[data-seat="${ev.seat}"]`) || document.body).getBoundingClientRect();
          const c = ($('.kr-table .card') || $('.mine .hand .card'));
          const w = c ? c.getBoundingClientRect().width : 64, hh = w * 1.4;
          from = { card: ev.card, rect: { left: r.left + r.width / 2 - w / 2, top: r.top + r.height / 2 - hh / 2, width: w, height: hh } };
        }
        const taken = tableRoot ? rectsFor(tableRoot, ev.taken || []) : [];
        anims.push({ seat: ev.seat, card: ev.card, from: from && from.rect, taken, trail: !(ev.taken || []).length });
        ctx.ui.pick = null;
      }
      if (ev.type === 'sweep') ctx.ui.sweep = { seat: ev.seat, points: ev.points, double: ev.double, at: Date.now() };
      if (ev.type === 'deal_end') ctx.ui.lastDeal = ev;
    }
  },

  afterRender(ctx) {
    const anims = ctx.ui.anims || [];
    ctx.ui.anims = [];
    if (window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    for (const a of anims) {
      const pile = $(`[data-pile="${a.seat}"]`);
      const dest = a.trail ? ($$('.kr-table [data-card]').reverse().find((e) => e.dataset.card === a.card) || $('.kr-table')) : pile;
      if (!dest) continue;
      const to = dest.getBoundingClientRect();
      const fly = (card, from, delay) => {
        if (!from) return;
        const el = cardEl(card, { cls: 'flying' });
        Object.assign(el.style, { left: `${from.left}px`, top: `${from.top}px`, width: `${from.width}px`, height: `${from.height}px` });
        document.body.append(el);
        requestAnimationFrame(() => requestAnimationFrame(() => {
          el.style.transitionDelay = `${delay}ms`;
          el.style.transform = `translate(${to.left + to.width / 2 - from.left - from.width / 2}px, ${to.top + to.height / 2 - from.top - from.height / 2}px) scale(${a.trail ? 1 : 0.45})`;
          el.style.opacity = a.trail ? '1' : '0.2';
        }));
        setTimeout(() => el.remove(), 900 + delay);
      };
      if (a.trail) { dest.classList && dest.classList.add('landing'); fly(a.card, a.from, 0); continue; }
      fly(a.card, a.from, 0);
      a.taken.forEach((x, k) => fly(x.card, x.rect, 80 + 60 * k));
      if (pile) { pile.classList.add('bump'); }
    }
    const sw = ctx.ui.sweep;
    if (sw && !sw.shown) {
      sw.shown = true;
      // Outside the redrawn sections, over the table, once; it removes itself.
      const box = $('.kr-table');
      if (box) {
        const r = box.getBoundingClientRect();
        const el = h('div', { class: 'sweep-burst', role: 'status', style: { left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px` } },
          sw.double ? t('Double sweep!') : t('Sweep!'), ' ', ctx.shortName(sw.seat), ` ${sw.points}`);
        document.body.append(el);
        setTimeout(() => el.remove(), 1500);
      }
    }
  },

  headInfo(ctx) {
    const v = ctx.view;
    return [t('Deal {n} of {m}', { n: v.deal_no, m: v.deals }), ' · ', t('packet {n} of {m}', { n: v.packet, m: v.packets }),
      v.last_packet ? [' · ', t('last packet')] : null];
  },

  seatExtra(ctx, i) {
    const v = ctx.view;
    const p = (v.piles || [])[i] || { size: 0, markers: [] };
    const markers = (p.markers || []).map((c) => cardEl(c, { cls: 'mini marker', label: t('Sweep marker {card}', { card: c }) }));
    return h('div', { class: 'kr-seat' },
      i === ctx.me ? null : handBacks(v.hand_sizes[i]),
      h('div', { class: 'capture', dataset: { pile: i }, 'aria-label': t('Captured: {n} cards, {m} sweeps', { n: p.size, m: markers.length }) },
        h('span', { class: 'cap-size' }, `⛁ ${p.size}`), markers.length ? h('div', { class: 'markers' }, markers) : null,
        v.last_capturer === i ? h('span', { class: 'badge', title: t('last to capture') }, '↺') : null));
  },

  center(ctx) {
    const v = ctx.view;
    const pick = ctx.ui.pick;
    const table = cards(v.table);
    const faces = cards(v.spade_faces), dead = cards(v.dead);
    const p = ctx.me != null && !pick ? previewed(ctx) : null;
    const lit = new Set();
    if (p) for (const c of p.take) lit.add(table.findIndex((x, k) => x === c && !lit.has(k)));
    return h('div', { class: 'kr-center' },
      ctx.ui.lastDeal && v.deal_scores && v.deal_scores.length ? lastPanel(ctx, `d${ctx.ui.lastDeal.deal}`, t('Deal {n} result', { n: ctx.ui.lastDeal.deal }), dealTable(ctx, ctx.ui.lastDeal)) : null,
      h('div', { class: 'kr-table', role: 'group', 'aria-label': t('Table cards: {n}', { n: table.length }) },
        p ? previewLine(p, ctx.ui.tapped === p.card) : null,
        table.length ? table.map((c, k) => cardEl(c, { cls: lit.has(k) ? `hl ${p && p.sweep ? 'sweep' : ''}` : '' })) : h('span', { class: 'muted' }, t('The table is empty.'))),
      h('div', { class: 'piles' },
        h('div', { class: 'pile-box', title: t('stock') }, pileEl(v.stock_size, { cls: 'deck', label: t('Stock: {n} cards', { n: v.stock_size }) }), h('span', { class: 'lbl' }, t('stock'))),
        countOf(v.spade_faces) ? h('div', { class: 'pile-box', title: t('spade faces') }, faces.length ? h('div', { class: 'fan' }, faces.map((c) => cardEl(c, { cls: 'mini' }))) : emptyEl(String(countOf(v.spade_faces))), h('span', { class: 'lbl' }, t('spade faces'))) : null,
        countOf(v.dead) ? h('div', { class: 'pile-box', title: t('out of play') }, dead.length ? h('div', { class: 'fan' }, dead.map((c) => cardEl(c, { cls: 'mini' }))) : emptyEl(String(countOf(v.dead))), h('span', { class: 'lbl' }, t('out of play'))) : null),
      pick ? picker(ctx, pick) : null);
  },

  mine(ctx) {
    const v = ctx.view;
    if (ctx.me == null) return null;
    return h('div', { class: 'hand', role: 'group', 'aria-label': t('Your hand'), dataset: { role: 'hand' } }, (v.hand || []).map((c, k) => {
      const o = optionsFor(ctx, c);
      const el = cardEl(c, { act: o.length === 1 ? o[0].act : null, onClick: o.length ? () => tapCard(ctx, c) : null,
        selected: ctx.ui.pick === c || ctx.ui.tapped === c ? true : null,
        cls: o.length || !(v.to_act || []).includes(ctx.me) ? '' : 'dim', data: digitKey(k) ? { key: digitKey(k) } : {} });
      if (o.length) {
        el.addEventListener('mouseenter', () => hoverCard(ctx, c));
        el.addEventListener('focus', () => hoverCard(ctx, c));
        // A render that takes away the focused card makes it say blur first (chromium): the focus then
        // goes to its successor, so that says nothing, and answering it would re-render for ever.
        // Whether the card is still on the page is known once the render is over.
        const left = () => queueMicrotask(() => { if (el.isConnected) hoverCard(ctx, null); });
        el.addEventListener('mouseleave', left);
        el.addEventListener('blur', left);
      }
      return el;
    }));
  },

  covers(ctx, a) { return a.startsWith('play '); },

  status(ctx) {
    const v = ctx.view;
    if (v.over) return t('Game over.');
    if ((v.to_act || []).includes(ctx.me)) return ctx.ui.pick ? [cardText(ctx.ui.pick), ' — ', t('which cards do you take?')] : t('Your turn: play a card (captures are taken automatically).');
    return t('{name} is playing.', { name: (v.to_act || []).map((s) => ctx.shortName(s)).join(', ') });
  },

  onKey(ctx, e) {
    const i = digitIndex(e.key);
    if (i < 0) return false;
    if (ctx.ui.pick) {
      const o = optionsFor(ctx, ctx.ui.pick)[i];
      if (o) { ctx.ui.pick = null; ctx.act(o.act); return true; }
      return false;
    }
    const c = (ctx.view.hand || [])[i];
    if (c && optionsFor(ctx, c).length) { ctx.ui.tapped = null; clickCard(ctx, c); return true; }
    return false;
  },

  shortcuts() { return [['1…9', t('play the n-th card of your hand')], ['1…9', t('then: pick one of several captures')]]; },

  narrate(ev, ctx) {
    const n = (s) => h('b', null, ctx.shortName(s));
    switch (ev.type) {
      case 'deal_start': return { cls: 'sep', node: [t('Deal {n} of {m}', { n: ev.deal, m: ev.deals }), ': ', t('{name} deals', { name: ctx.shortName(ev.dealer) })] };
      case 'reveal': return [t('You get'), ' ', cardsText(ev.cards)];
      case 'table': return [t('On the table'), ': ', cardsText(ev.cards)];
      case 'remove': return [t('Face cards removed'), ': ', cardsText([...(ev.spades || []), ...(ev.dead || [])])];
      case 'packet': return [t('Packet {n}', { n: ev.packet }), ev.last ? ` (${t('last')})` : ''];
      case 'play': return (ev.taken || []).length ? [n(ev.seat), ' ', t('plays'), ' ', cardText(ev.card), ' ', t('and takes'), ' ', cardsText(ev.taken)] : [n(ev.seat), ' ', t('trails'), ' ', cardText(ev.card)];
      case 'sweep': return { cls: 'big', node: [n(ev.seat), ' ', ev.double ? t('double sweep!') : t('sweep!'), ` ${ev.points}`] };
      case 'award': return [n(ev.seat), ' ', t('gets the last cards'), ' ', cardsText(ev.cards)];
      case 'timeout': return [t('Time'), ': ', ev.seats.map((s) => ctx.shortName(s)).join(', ')];
      case 'deal_end': return { cls: 'sep', node: [t('Deal {n} over', { n: ev.deal }), ': ', (ev.deal_scores || []).map((s, i) => `${ctx.shortName(i)} ${s}`).join(', ')] };
      case 'game_end': return { cls: 'sep', node: [t('Game over'), '. ', t('Winner: {names}', { names: ev.winners.map((w) => ctx.shortName(w)).join(', ') })] };
      default: return null;
    }
  },

  moment: dealMoment,
  sound(ev) { return ev.type === 'sweep' ? 'sweep' : ev.type === 'play' ? 'card' : null; },
};

function highlight(list) {
  const els = $$('.kr-table [data-card]');
  els.forEach((e) => e.classList.remove('hl'));
  const used = new Set();
  for (const c of list || []) {
    const el = els.find((e) => e.dataset.card === c && !used.has(e));
    if (el) { used.add(el); el.classList.add('hl'); }
  }
}

function picker(ctx, card) {
  const o = optionsFor(ctx, card);
  if (o.length < 2) return null;
  // One wrapping row, not a column: a column of three or more captures pushed your hand and the move
  // box below a laptop's or a phone's screen (the table's cards shrink meanwhile, style.css).
  return h('div', { class: 'picker panel kr-picker', role: 'dialog', 'aria-label': t('Choose the capture') },
    h('span', { class: 'pick-q' }, cardText(card), ' — ', t('which cards do you take?')),
    o.map((x, k) => h('button', { type: 'button', class: 'btn take', dataset: { act: x.act },
      onmouseenter: () => highlight(x.take), onfocus: () => highlight(x.take), onmouseleave: () => highlight([]),
      onclick: () => { ctx.ui.pick = null; ctx.act(x.act); } }, h('kbd', null, String(k + 1)), ' ', cardsText(x.take || []))),
    h('button', { type: 'button', class: 'btn ghost', onclick: () => { ctx.ui.pick = null; ctx.rerender(); } }, t('Cancel')));
}

function dealTable(ctx, d) {
  return h('table', { class: 'rr' }, h('thead', null, h('tr', null, h('th', null, ''), h('th', null, t('cards')), h('th', null, t('sweeps')), h('th', null, t('deal')), h('th', null, t('total')))),
    h('tbody', null, (d.deal_scores || []).map((s, i) => h('tr', null, h('td', null, ctx.shortName(i)),
      h('td', null, String((d.card_points || [])[i] ?? '')), h('td', null, String((d.transfers || [])[i] ?? '')), h('td', null, String(s)), h('td', null, h('b', null, String((d.scores || [])[i] ?? '')))))));
}

// ---- ui-moments: each player's card points and sweeps at the deal's end (moment.js) ----

Object.assign(RU, {
  'Deal {n}: the count': 'Раздача {n}: подсчёт', 'card points': 'очки за карты', 'sweeps': 'очистки',
  'double': 'двойная', 'sweeps ±': 'за очистки', 'this deal': 'за раздачу', 'in all': 'всего', 'no sweeps': 'очисток нет',
});

/** The deal's card points and each player's sweeps (KRYP-SCORE-*, KRYP-SWEEP-*): the sweeps are
 *  remembered from the deal's `sweep` events, the points come with `deal_end`. */
function dealMoment(ctx, events) {
  let out = null;
  for (const ev of events) {
    if (ev.type === 'deal_start') ctx.ui.dealSweeps = [];
    if (ev.type === 'sweep') (ctx.ui.dealSweeps = ctx.ui.dealSweeps || []).push(ev);
    if (ev.type === 'deal_end') {
      const sweeps = ctx.ui.dealSweeps || [];
      out = { key: `kryp-d${ev.deal}`, title: t('Deal {n}: the count', { n: ev.deal }), seconds: 12, body: (c) => dealBody(c, ev, sweeps) };
    }
  }
  return out;
}

function dealBody(ctx, ev, sweeps) {
  const sign = (x) => `${x > 0 ? '+' : ''}${x}`;
  return h('div', { class: 'reveal-rows' }, (ev.deal_scores || []).map((score, i) => {
    const mine = sweeps.filter((s) => s.seat === i);
    return h('div', { class: 'reveal-row', dataset: { seat: i } },
      h('div', { class: 'rv-name' }, h('b', null, ctx.shortName(i))),
      h('div', { class: 'rv-sweeps' }, mine.length ? mine.map((s) => h('span', { class: `sweep-chip ${s.double ? 'double' : ''}` },
        cardsText(s.markers || []), ' ', s.double ? t('double') : '', ` +${s.points}`)) : h('span', { class: 'muted' }, t('no sweeps'))),
      h('div', { class: 'rv-sums' },
        h('span', null, t('card points'), ' ', h('b', null, String((ev.card_points || [])[i] ?? 0))),
        h('span', null, t('sweeps ±'), ' ', h('b', null, sign((ev.transfers || [])[i] ?? 0))),
        h('span', { class: 'rv-round' }, t('this deal'), ' ', h('b', null, sign(score))),
        h('span', { class: 'rv-score' }, t('in all'), ' ', h('b', null, String((ev.scores || [])[i] ?? '')))));
  }));
}
