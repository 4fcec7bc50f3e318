// Cribbage: discard to the crib, pegging with the running count, the show with claims
// (manual counting: a number keypad) and muggins, a pegging board, and the hotkeys
// C B F V S T of CRIB-KEY-1..7 (they only read the view: CRIB-KEY-7).

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { cardEl, backEl, emptyEl, cardText, cardsText, sortCards, cardKey } from '../cards.js';
import { handBacks, digitKey, digitIndex, cutLine } from './common.js';

/** This game's Russian strings, keyed by the English text (i18n.js; shared ones are in ru.js). */
const RU = {
  Cribbage: 'Криббидж', 'Pegging, fifteens and runs on the board.': 'Пятнадцать, стриты и колышки на доске.',
  fifteen: 'пятнадцать', 'thirty-one': 'тридцать одно', pair: 'пара', run: 'стрит', go: 'пас',
  'last card': 'последняя карта', flush: 'флеш', 'his nobs': 'валет масти общей карты', 'his heels': 'валет — общая карта', pairs: 'пары',
  runs: 'стриты', 'Nothing counted yet.': 'Ещё ничего не подсчитано.', 'crib of {name}': 'кормушка {name}',
  'claim {n}': 'заявка {n}', 'score {n}': 'очки {n}', 'No count yet': 'Счёта ещё нет', 'Count {n}': 'Счёт {n}',
  'team {names}': 'команда {names}', 'Crib: {name}': 'Кормушка: {name}', 'Starter not turned yet': 'Общая карта ещё не открыта',
  Starter: 'Общая карта', 'Only during the play': 'Только в стадии розыгрыша', Played: 'Сыграно',
  'current series underlined': 'текущая серия подчёркнута', Final: 'Итог', 'target {n}': 'до {n}',
  'To discard': 'Сбрасывают', 'To play': 'Ходит', 'Game over ': 'Игра окончена', discarding: 'сбрасывает',
  'team {n}': 'команда {n}', 'Starter: {card}': 'Общая карта: {card}', 'Crib of {name}: {n} cards': 'Кормушка {name}: {n} карт',
  'Crib: empty': 'Кормушка пуста', crib: 'кормушка', starter: 'общая карта', 'This series': 'Эта серия',
  'claimed {n}': 'заявлено {n}', 'your crib cards': 'ваши карты в кормушке', 'Discard to the crib': 'Сбросить в кормушку',
  'Pick {n} for the crib ({k}/{n})': 'Выберите {n} в кормушку ({k}/{n})',
  'Choose {n} for the crib of {name}, then confirm.': 'Выберите {n} в кормушку ({name}) и подтвердите.',
  'Waiting for discards.': 'Ждём сброса в кормушку.', 'Your turn to play (count {n}).': 'Ваш ход (счёт {n}).',
  '{name} to play (count {n}).': 'Ходит {name} (счёт {n}).',
  'Count your cards and claim your score.': 'Подсчитайте очки руки и назовите их.', 'Counting {name}.': 'Подсчёт: {name}.',
  'pick / play the n-th card': 'выбрать / сыграть n-ю карту',
  'confirm the discard or the claim': 'подтвердить сброс или заявку',
  'type your claim in the show': 'набрать заявку при подсчёте',
  'the count, or the set being counted': 'счёт или подсчитываемые карты', 'whose crib': 'чья кормушка',
  'the starter': 'общая карта', 'the cards played this hand': 'карты, сыгранные в этой раздаче',
  'the scores and the target': 'счёт и цель', 'whose turn': 'чей ход', 'You are dealt': 'Вам сдано',
  'A card from the stock goes to the crib.': 'Карта из колоды уходит в кормушку.',
  'discards to the crib': 'сбрасывает в кормушку', 'The count goes back to 0.': 'Счёт снова 0.', 'muggins!': 'маггинс!',
  muggins: 'маггинс', 'Your claim': 'Ваша заявка', Delete: 'Стереть', Claim: 'Заявить',
  'Claim your score': 'Заявите очки',
  'Claim what you count ({lo}–{hi}); points you miss go to the others (muggins).': 'Назовите свои очки ({lo}–{hi}); недосчитанные и лишние достанутся сопернику (маггинс).',
  'Hand of {name}': 'Рука {name}', 'Crib of {name}': 'Кормушка {name}', 'Pegging board': 'Доска для счёта',
  // option hints (cribbage.py)
  'The first side to reach this score wins at once.': 'Побеждает тот, кто первым наберёт столько очков, сразу же.',
  'Manual: you claim your hand\'s points and missed points go to the others (muggins).': 'Вручную: вы сами называете очки руки, а недосчитанные и лишние очки достаются сопернику.',
  'Play in partnerships that share one score (4 or 6 players).': 'Игра командами с общим счётом (4 или 6 игроков).',
  'Hand: the crib scores a flush like a hand; five: only with the starter of the same suit.': 'Как в руке: масть в «кормушке» считается как в руке; пять карт: только вместе с общей картой той же масти.',
  'Seconds for each decision; then the room plays for you (a manual count claims 0).': 'Секунды на каждое решение; потом за вас ходит комната (при подсчёте вручную — 0 очков).',
  // ui-msg: the teams option's values (TEAM_SIDES: 2x3 is two teams of three)
  '2x2': '2 команды по 2', '2x3': '2 команды по 3', '3x2': '3 команды по 2',
  // ui-msg: the engine's rejections (cribbage.py, IllegalAction templates)
  'no timed decision is due': 'сейчас нет решения на время',
  'you can only discard cards from your own hand': 'в кормушку можно сбросить только карты из своей руки',
  '{card} would take the count to {count}, over 31': 'с картой {card} сумма стала бы {count} — больше 31',
  'only the owner of the set being counted may claim, during the show': 'очки называет только хозяин подсчитываемых карт, во время подсчёта',
  'with 5 or 6 players the dealer puts nothing in the crib': 'впятером и вшестером сдающий ничего не кладёт в кормушку',
  'it is not the discard phase': 'сейчас в кормушку не сбрасывают', 'you have already discarded (or do not discard)': 'вы уже сбросили в кормушку (или не сбрасываете)',
  'discard exactly {n} card': 'сбросьте в кормушку ровно {n} карту', 'discard exactly {n} cards': 'сбросьте в кормушку ровно {n} карты',
  'cards are played only during the play': 'карты играют только во время розыгрыша', "it is {seat}'s turn to play": 'сейчас ходит {seat}',
  'counting is automatic at this table: there are no claims': 'за этим столом очки считаются автоматически: называть их не нужно',
};

const SIDE_COLORS = ['#e0493e', '#3b82f6', '#22a06b', '#d4a017', '#a855f7', '#ec4899'];
const PART = { fifteen: 'fifteen', thirty_one: 'thirty-one', pair: 'pair', run: 'run', go: 'go', last: 'last card', flush: 'flush', nobs: 'his nobs', heels: 'his heels', pairs: 'pairs', runs: 'runs' };

const toList = (x) => (Array.isArray(x) ? x : typeof x === 'string' ? x.split(/\s+/).filter(Boolean) : []);
const NORM = new WeakMap();
/** The view with lists as lists (card lists may come as strings) and `series` filled in. */
function norm(v) {
  if (NORM.has(v)) return NORM.get(v);
  const played = (v.played || []).map((p) => (Array.isArray(p) ? p : [p.seat, p.card]));
  const series = v.series ? v.series : v.series_start != null ? played.slice(v.series_start) : [];
  const fix = (s) => (s ? { ...s, cards: toList(s.cards), starter: s.starter || v.starter,
    breakdown: (s.breakdown || []).map((b) => [b[0], toList(b[1]), b[2]]) } : s);
  const out = { ...v, hand: toList(v.hand), discards: toList(v.discards), played, series, go: v.go || [],
    show: fix(v.show), counted: (v.counted || []).map(fix), to_discard: v.to_discard || [] };
  NORM.set(v, out);
  return out;
}
const VV = (ctx) => norm(ctx.view);

function sideCount(v) {
  if (Array.isArray(v.sides) && v.sides.length && Array.isArray(v.sides[0])) return v.sides.length;
  const tm = v.options.teams;
  return tm === '2x2' || tm === '2x3' ? 2 : tm === '3x2' ? 3 : v.players;
}
const sideOf = (v, s) => {
  if (Array.isArray(v.sides) && v.sides.length && Array.isArray(v.sides[0])) { const k = v.sides.findIndex((m) => m.includes(s)); if (k >= 0) return k; }
  return s % sideCount(v);
};
function sideMembers(v, side) { return Array.from({ length: v.players }, (_, i) => i).filter((i) => sideOf(v, i) === side); }
function sideName(ctx, side) { return sideMembers(VV(ctx), side).map((i) => ctx.shortName(i)).join(' & '); }

function discardN(ctx) {
  const a = ctx.legal.find((x) => x.startsWith('discard '));
  return a ? a.split(' ').length - 1 : 0;
}

function discardAction(ctx) {
  const sel = ctx.ui.sel || [];
  if (sel.length !== discardN(ctx)) return null;
  const a = `discard ${sortCards(sel).join(' ')}`;
  return ctx.legal.includes(a) ? a : null;
}

function toggle(ctx, card) {
  const sel = (ctx.ui.sel = (ctx.ui.sel || []).filter((c) => VV(ctx).hand.includes(c)));
  const i = sel.indexOf(card);
  if (i >= 0) sel.splice(i, 1);
  else { sel.push(card); while (sel.length > discardN(ctx)) sel.shift(); }
  ctx.rerender();
}

function claimRange(ctx) {
  const nums = ctx.legal.filter((a) => a.startsWith('claim ')).map((a) => +a.slice(6));
  return nums.length ? [Math.min(...nums), Math.max(...nums)] : null;
}

function partsText(parts) { return (parts || []).map(([k, p]) => `${t(PART[k] || k)} ${p}`).join(', '); }

/** CRIB-KEY-1..6: the answer to a hotkey, read from the view only. */
export function hotkey(ctx, key) {
  const v = VV(ctx);
  const ph = v.phase;
  const showText = (s) => {
    if (!s) return t('Nothing counted yet.');
    const owner = s.crib ? t('crib of {name}', { name: ctx.shortName(s.owner) }) : ctx.shortName(s.owner);
    const parts = [owner, ': ', cardsText(s.cards), ' + ', s.starter ? cardText(s.starter) : '?'];
    if (s.claim != null) parts.push(' · ', t('claim {n}', { n: s.claim }));
    if (s.score != null) parts.push(' · ', t('score {n}', { n: s.score }), s.breakdown && s.breakdown.length ? ` (${s.breakdown.map((b) => `${t(PART[b[0]] || b[0])} ${b[2]}`).join(', ')})` : '');
    return parts;
  };
  switch (key) {
    case 'C':
      if (ph === 'discard') return t('No count yet');
      if (ph === 'play') return [t('Count {n}', { n: v.count }), (v.go || []).length ? ` · ${t('go')}: ${(v.go).map((s) => ctx.shortName(s)).join(', ')}` : ''];
      return showText(v.show);
    case 'B': {
      const side = sideOf(v, v.dealer);
      const team = sideMembers(v, side).length > 1 ? ` (${t('team {names}', { names: sideName(ctx, side) })})` : '';
      return [t('Crib: {name}', { name: ctx.shortName(v.dealer) }), team];
    }
    case 'F':
      if (ph === 'discard') return t('Starter not turned yet');
      return v.starter ? [t('Starter'), ' ', cardText(v.starter)] : t('Starter not turned yet');
    case 'V':
      if (ph !== 'play') return t('Only during the play');
      return [t('Played'), ': ', (v.played || []).map(([s, c], k) => {
        const inSeries = (v.series || []).some(([s2, c2]) => s2 === s && c2 === c);
        return h('span', { class: inSeries ? 'series' : '' }, k ? ' ' : '', cardText(c), `(${ctx.shortName(s)})`);
      }), (v.series || []).length ? ` · ${t('current series underlined')}` : ''];
    case 'S': {
      const k = sideCount(v);
      const totals = Array.from({ length: k }, (_, s) => `${sideName(ctx, s)} ${v.side_scores[s]}`).join(', ');
      if (ph === 'over') return [t('Final'), ': ', totals, ' · ', t('Winner: {names}', { names: v.winners.map((w) => ctx.shortName(w)).join(', ') })];
      return [totals, ' · ', t('target {n}', { n: v.target })];
    }
    case 'T':
      if (ph === 'discard') return [t('To discard'), ': ', (v.to_discard || []).map((s) => ctx.shortName(s)).join(', ')];
      if (ph === 'play') return [t('To play'), ': ', (v.to_act || []).map((s) => ctx.shortName(s)).join(', ')];
      if (ph === 'show') return [t('Counting'), ': ', v.show ? ctx.shortName(v.show.owner) : '—'];
      return t('Game over');
    default: return null;
  }
}

export default {
  ru: RU,
  lowWins: false,

  onEvents(ctx, events) {
    const prev = (ctx.ui.prevScores = ctx.ui.prevScores || {});
    for (const ev of events) {
      if (ev.type === 'hand_start') { ctx.ui.sel = []; ctx.ui.claim = ''; }
      if (ev.type === 'score') {
        const cur = ctx.view ? ctx.view.side_scores[ev.side] : null;
        prev[ev.side] = (cur ?? 0) - ev.points;
      }
      if (ev.type === 'show') ctx.ui.claim = '';
    }
  },

  headInfo(ctx) { const v = VV(ctx); return [t('Hand {n}', { n: v.hand_no }), ' · ', t('to {n}', { n: v.target })]; },

  seatExtra(ctx, i) {
    const v = VV(ctx);
    const tags = [];
    if ((v.to_discard || []).includes(i)) tags.push(h('span', { class: 'badge' }, t('discarding')));
    if ((v.go || []).includes(i)) tags.push(h('span', { class: 'badge warn' }, t('go')));
    if (sideCount(v) < v.players) tags.push(h('span', { class: 'badge', style: { background: SIDE_COLORS[sideOf(v, i)] } }, t('team {n}', { n: sideOf(v, i) + 1 })));
    const played = (v.series || []).filter(([s]) => s === i).map(([, c]) => cardEl(c, { cls: 'mini' }));
    return h('div', { class: 'crib-seat' }, i === ctx.me ? null : handBacks(v.hand_sizes[i]),
      played.length && i !== ctx.me ? h('div', { class: 'fan small' }, played) : null, tags.length ? h('div', { class: 'tags' }, tags) : null);
  },

  center(ctx) {
    const v = VV(ctx);
    const starter = v.starter ? cardEl(v.starter, { label: t('Starter: {card}', { card: v.starter }) }) : backEl({ label: t('Starter not turned yet') });
    const crib = v.crib_size ? backEl({ label: t('Crib of {name}: {n} cards', { name: ctx.shortName(v.dealer), n: v.crib_size }), text: String(v.crib_size) }) : emptyEl(t('Crib: empty'), { text: t('crib') });
    return h('div', { class: 'crib-center' },
      board(ctx),
      h('div', { class: 'piles' },
        h('div', { class: 'pile-box' }, starter, h('span', { class: 'lbl' }, t('starter'))),
        h('div', { class: 'pile-box' }, crib, h('span', { class: 'lbl' }, t('crib of {name}', { name: ctx.shortName(v.dealer) }))),
        v.phase === 'play' ? h('div', { class: 'pegging' },
          h('div', { class: 'countbig', id: 'count', 'aria-label': t('Count {n}', { n: v.count }) }, h('span', { class: 'lbl' }, t('count')), h('b', null, String(v.count))),
          h('div', { class: 'series fan', 'aria-label': t('This series') }, (v.series || []).map(([s, c]) => h('div', { class: 'played' }, cardEl(c, { cls: 'small' }), h('small', null, ctx.shortName(s)))))) : null),
      v.phase === 'show' || (v.phase === 'over' && v.show) ? showPanel(ctx) : null,
      (v.counted || []).length ? h('ul', { class: 'counted' }, v.counted.map((c) => h('li', null,
        c.crib ? t('crib of {name}', { name: ctx.shortName(c.owner) }) : ctx.shortName(c.owner), ': ', h('b', null, String(c.score)),
        c.claim != null && c.claim !== c.score ? ` (${t('claimed {n}', { n: c.claim })})` : ''))) : null,
      ctx.ui.hotkey ? h('div', { class: 'hotkey-answer', id: 'hotkey-answer', role: 'status' }, h('kbd', null, ctx.ui.hotkey), h('span', { class: 'hk-text' }, hotkey(ctx, ctx.ui.hotkey)),
        h('button', { type: 'button', class: 'btn ghost small', 'aria-label': t('Close'), onclick: () => { ctx.ui.hotkey = null; ctx.rerender(); } }, '✕')) : null);
  },

  mine(ctx) {
    const v = VV(ctx);
    if (ctx.me == null) return null;
    const hand = v.hand || [];
    const discarding = discardN(ctx) > 0;
    const sel = ctx.ui.sel || [];
    const cards = hand.map((c, k) => {
      const play = `play ${c}`;
      if (discarding) return cardEl(c, { onClick: () => toggle(ctx, c), selected: sel.includes(c), data: { select: '1', ...(digitKey(k) ? { key: digitKey(k) } : {}) } });
      const ok = ctx.has(play);
      return cardEl(c, { act: ok ? play : null, onClick: ok ? () => ctx.act(play) : null, cls: ok || v.phase !== 'play' ? '' : 'dim', data: digitKey(k) ? { key: digitKey(k) } : {} });
    });
    const extra = [];
    if ((v.discards || []).length) extra.push(h('div', { class: 'mycrib' }, h('span', { class: 'lbl' }, t('your crib cards')), cardsText(v.discards)));
    if (claimRange(ctx)) extra.push(keypad(ctx));
    return h('div', { class: 'crib-mine' }, h('div', { class: 'hand', role: 'group', 'aria-label': t('Your hand'), dataset: { role: 'hand' } }, cards), extra);
  },

  bar(ctx) {
    const n = discardN(ctx);
    if (!n) return [];
    const a = discardAction(ctx);
    const sel = (ctx.ui.sel || []).length;
    return [{ act: a || '__discard', label: a ? t('Discard to the crib') : t('Pick {n} for the crib ({k}/{n})', { n, k: sel }), key: 'Enter', disabled: !a, cls: 'primary', onClick: () => { if (a) { ctx.ui.sel = []; ctx.act(a); } } }];
  },

  covers(ctx, a) { return a.startsWith('discard ') || a.startsWith('claim '); },

  status(ctx) {
    const v = VV(ctx);
    if (v.over) return t('Game over.');
    const mine = (v.to_act || []).includes(ctx.me);
    if (v.phase === 'discard') return mine ? t('Choose {n} for the crib of {name}, then confirm.', { n: discardN(ctx), name: ctx.shortName(v.dealer) }) : t('Waiting for discards.');
    if (v.phase === 'play') return mine ? t('Your turn to play (count {n}).', { n: v.count }) : t('{name} to play (count {n}).', { name: (v.to_act || []).map((s) => ctx.shortName(s)).join(', '), n: v.count });
    if (v.phase === 'show') return mine ? t('Count your cards and claim your score.') : t('Counting {name}.', { name: v.show ? ctx.shortName(v.show.owner) : '' });
    return '';
  },

  onKey(ctx, e) {
    const key = e.key.toUpperCase();
    const v = VV(ctx);
    if (claimRange(ctx)) {
      if (/^[0-9]$/.test(e.key)) { ctx.ui.claim = ((ctx.ui.claim || '') + e.key).slice(-2); ctx.rerender(); return true; }
      if (e.key === 'Backspace') { ctx.ui.claim = (ctx.ui.claim || '').slice(0, -1); ctx.rerender(); return true; }
      if (e.key === 'Enter') { submitClaim(ctx); return true; }
    }
    if (['C', 'B', 'F', 'V', 'S', 'T'].includes(key)) {
      ctx.ui.hotkey = key;
      ctx.rerender();
      return true;
    }
    const i = digitIndex(e.key);
    if (i >= 0) {
      const c = (v.hand || [])[i];
      if (!c) return false;
      if (discardN(ctx)) { toggle(ctx, c); return true; }
      if (ctx.has(`play ${c}`)) { ctx.act(`play ${c}`); return true; }
      return false;
    }
    if (e.key === 'Enter' && discardAction(ctx)) { const a = discardAction(ctx); ctx.ui.sel = []; ctx.act(a); return true; }
    return false;
  },

  shortcuts() {
    return [['1…6', t('pick / play the n-th card')], ['Enter', t('confirm the discard or the claim')], ['0…9', t('type your claim in the show')],
      ['C', t('the count, or the set being counted')], ['B', t('whose crib')], ['F', t('the starter')], ['V', t('the cards played this hand')],
      ['S', t('the scores and the target')], ['T', t('whose turn')]];
  },

  narrate(ev, ctx) {
    const n = (s) => h('b', null, ctx.shortName(s));
    switch (ev.type) {
      case 'cut': return cutLine(ev, ctx);
      case 'hand_start': return { cls: 'sep', node: [t('Hand {n}', { n: ev.hand }), ': ', t('{name} deals', { name: ctx.shortName(ev.dealer) })] };
      case 'reveal': return [t('You are dealt'), ' ', cardsText(toList(ev.cards))];
      case 'crib_card': return t('A card from the stock goes to the crib.');
      case 'discard': return [n(ev.seat), ' ', t('discards to the crib')];
      case 'starter': return [t('Starter'), ' ', cardText(ev.card)];
      case 'play': return [n(ev.seat), ' ', t('plays'), ' ', cardText(ev.card), ` — ${ev.count}`];
      case 'go': return [n(ev.seat), ': ', t('go')];
      case 'reset': return t('The count goes back to 0.');
      case 'score': return { cls: 'score', node: [n(ev.seat), ' ', h('b', null, `+${ev.points}`), ev.reason === 'muggins' ? ` ${t('muggins!')}` : '', ev.parts && ev.parts.length ? ` (${partsText(ev.parts)})` : ''] };
      case 'show': return [t('Counting'), ' ', ev.crib ? t('crib of {name}', { name: ctx.shortName(ev.owner) }) : ctx.shortName(ev.owner), ': ', cardsText(toList(ev.cards)), ev.starter ? [' + ', cardText(ev.starter)] : ''];
      case 'count': return [ev.crib ? t('crib of {name}', { name: ctx.shortName(ev.owner) }) : ctx.shortName(ev.owner), ': ', ev.claim != null ? `${t('claim {n}', { n: ev.claim })}, ` : '', t('score {n}', { n: ev.score }),
        ev.muggins ? ` · ${t('muggins')} +${ev.muggins.points} ${ctx.shortName(ev.muggins.seat)}` : ''];
      case 'timeout': return [t('Time'), ': ', ev.seats.map((s) => ctx.shortName(s)).join(', ')];
      case 'game_end': return { cls: 'sep', node: [t('Game over'), '. ', t('Winner: {names}', { names: ev.winners.map((w) => ctx.shortName(w)).join(', ') })] };
      default: return null;
    }
  },

  moment: showMoment,
  sound(ev) { return ev.type === 'play' ? 'card' : null; },
};

function submitClaim(ctx) {
  const v = ctx.ui.claim === '' || ctx.ui.claim == null ? null : +ctx.ui.claim;
  if (v == null) return;
  const a = `claim ${v}`;
  ctx.ui.claim = '';
  ctx.act(a);
}

function keypad(ctx) {
  const val = ctx.ui.claim || '';
  const a = val === '' ? null : `claim ${+val}`;
  const [lo, hi] = claimRange(ctx);
  const set = (s) => { ctx.ui.claim = s.slice(-2); ctx.rerender(); };
  // Typing in the field enables Claim at once, without a redraw (which would take the focus).
  const armClaim = (typed) => {
    const b = /** @type {HTMLButtonElement | null} */ (document.getElementById('claim-btn'));
    if (!b) return;
    const act = typed === '' ? null : `claim ${+typed}`;
    b.disabled = !act;
    if (act && ctx.has(act)) b.dataset.act = act; else delete b.dataset.act;
  };
  const input = h('input', { type: 'number', id: 'claim-input', min: String(lo), max: String(hi), inputmode: 'numeric', value: val,
    'aria-label': t('Your claim'), oninput: (e) => { ctx.ui.claim = e.target.value; armClaim(e.target.value.trim()); },
    onkeydown: (e) => { if (e.key === 'Enter') { e.preventDefault(); ctx.ui.claim = e.target.value; submitClaim(ctx); } } });
  return h('div', { class: 'keypad panel', role: 'group', 'aria-label': t('Claim your score') },
    h('label', { for: 'claim-input' }, t('Your claim')), input,
    h('div', { class: 'keys' }, ['1', '2', '3', '4', '5', '6', '7', '8', '9', '⌫', '0'].map((k) => h('button', { type: 'button', class: 'btn key',
      'aria-label': k === '⌫' ? t('Delete') : k, onclick: () => set(k === '⌫' ? val.slice(0, -1) : val + k) }, k)),
    h('button', { type: 'button', class: 'btn primary key', id: 'claim-btn', dataset: a && ctx.has(a) ? { act: a } : {}, disabled: !a,
      onclick: () => { ctx.ui.claim = input.value; submitClaim(ctx); } }, t('Claim'))),
    h('small', { class: 'muted' }, t('Claim what you count ({lo}–{hi}); points you miss go to the others (muggins).', { lo, hi })));
}

function showPanel(ctx) {
  const s = VV(ctx).show;
  if (!s) return null;
  return h('div', { class: 'show panel', id: 'show' },
    h('div', null, h('b', null, s.crib ? t('Crib of {name}', { name: ctx.shortName(s.owner) }) : t('Hand of {name}', { name: ctx.shortName(s.owner) }))),
    h('div', { class: 'fan' }, s.cards.map((c) => cardEl(c, { cls: 'small' })), s.starter ? cardEl(s.starter, { cls: 'small starter' }) : null),
    s.claim != null ? h('div', null, t('claim {n}', { n: s.claim })) : null,
    s.score != null ? h('div', null, h('b', null, t('score {n}', { n: s.score })), ' ', (s.breakdown || []).map((b) => h('span', { class: 'chip' }, t(PART[b[0]] || b[0]), ' ', cardsText(b[1]), ` ${b[2]}`))) : null);
}

function board(ctx) {
  const v = VV(ctx);
  const k = sideCount(v);
  const target = v.target;
  const W = 600, rowH = 22, H = k * rowH + 10;
  const x = (p) => 10 + (Math.min(p, target) / target) * (W - 20);
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('class', 'board');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', t('Pegging board') + ': ' + Array.from({ length: k }, (_, s) => `${sideName(ctx, s)} ${v.side_scores[s]}`).join(', ') + ` / ${target}`);
  const el = (tag, attrs) => { const e = document.createElementNS('http://www.w3.org/2000/svg', tag); for (const [a, b] of Object.entries(attrs)) e.setAttribute(a, b); svg.append(e); return e; };
  el('rect', { x: 0, y: 0, width: W, height: H, rx: 10, class: 'board-bg' });
  for (let s = 0; s < k; s++) {
    const y = 5 + s * rowH + rowH / 2;
    el('line', { x1: x(0), y1: y, x2: x(target), y2: y, class: 'track' });
    for (let p = 5; p < target; p += 5) el('circle', { cx: x(p), cy: y, r: p % 30 === 0 ? 2.6 : 1.6, class: 'hole' });
    const prev = (ctx.ui.prevScores || {})[s];
    if (prev != null && prev !== v.side_scores[s]) el('circle', { cx: x(prev), cy: y, r: 6, fill: SIDE_COLORS[s], opacity: 0.4 });
    el('circle', { cx: x(v.side_scores[s]), cy: y, r: 8, fill: SIDE_COLORS[s], class: 'peg' });
  }
  el('line', { x1: x(target), y1: 2, x2: x(target), y2: H - 2, class: 'finish' });
  const legend = h('div', { class: 'board-legend' }, Array.from({ length: k }, (_, s) => h('span', null,
    h('i', { class: 'sw', style: { background: SIDE_COLORS[s] } }), `${sideName(ctx, s)} `, h('b', null, String(v.side_scores[s])))), h('span', { class: 'muted' }, `/ ${target}`));
  return h('div', { class: 'board-box' }, svg, legend);
}

export { cardKey };

// ---- ui-moments: the show, each counted hand with its combinations (moment.js) ----

Object.assign(RU, {
  'Hand {n}: the show': 'Сдача {n}: подсчёт', "{name}'s hand": 'рука {name}', 'muggins: {name} +{n}': 'маггинс: {name} +{n}',
  'claimed {n}': 'заявлено {n}', 'no points': 'нет очков',
});

/** Collects each counted set of the hand (`show`, then its `count`) and shows them all once the
 *  hand's show is over (the next hand, or the end of the game). */
function showMoment(ctx, events) {
  const sets = (ctx.ui.shows = ctx.ui.shows || []);
  let out = null;
  for (const ev of events) {
    if (ev.type === 'show') sets.push({ ...ev, count: null, hand: VV(ctx).hand_no });
    if (ev.type === 'count' && sets.length) sets[sets.length - 1].count = ev;
    if ((ev.type === 'hand_start' || ev.type === 'game_end') && sets.some((x) => x.count)) {
      const done = sets.filter((x) => x.count);
      const hand = ev.type === 'hand_start' ? ev.hand - 1 : done[0].hand;
      out = { key: `crib-h${hand}`, title: t('Hand {n}: the show', { n: hand }), seconds: 15, body: (c) => showBody(c, done) };
      ctx.ui.shows = [];
    }
  }
  return out;
}

function showBody(ctx, sets) {
  return h('div', { class: 'reveal-rows show-sets' }, sets.map((x) => {
    const ct = x.count;
    const row = h('div', { class: 'rv-cards' }, [...x.cards, x.starter].map((c, k) => cardEl(c, { cls: `mini ${k === x.cards.length ? 'starter' : ''}` })));
    const light = (cards) => { for (const el of row.querySelectorAll('[data-card]')) el.classList.toggle('lit', !!cards && cards.includes(el.dataset.card)); };
    const scored = new Set((ct.breakdown || []).flatMap((b) => b[1]));
    for (const el of row.querySelectorAll('[data-card]')) if (scored.has(el.dataset.card)) el.classList.add('scored');
    return h('div', { class: 'reveal-row', dataset: { owner: x.owner, crib: String(!!x.crib) } },
      h('div', { class: 'rv-name' }, h('b', null, x.crib ? t('crib of {name}', { name: ctx.shortName(x.owner) }) : t("{name}'s hand", { name: ctx.shortName(x.owner) })),
        ' ', h('b', { class: 'rv-pts' }, String(ct.score))),
      row,
      h('ul', { class: 'combos' }, (ct.breakdown || []).length ? ct.breakdown.map(([kind, cards, pts]) => h('li', null,
        h('button', { type: 'button', class: 'combo', dataset: { kind },
          onmouseenter: () => light(cards), onmouseleave: () => light(null), onfocus: () => light(cards), onblur: () => light(null) },
        t(PART[kind] || kind), ' ', cardsText(cards), ' ', h('b', null, `+${pts}`)))) : h('li', { class: 'muted' }, t('no points'))),
      ct.claim != null && ct.claim !== ct.score ? h('p', { class: 'muted small' }, t('claimed {n}', { n: ct.claim })) : null,
      ct.muggins ? h('p', { class: 'small' }, t('muggins: {name} +{n}', { name: ctx.shortName(ct.muggins.seat), n: ct.muggins.points })) : null);
  }));
}

