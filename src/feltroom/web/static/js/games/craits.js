// Craits: a shedding game over 15 (or 8) hands: hand, upcard/discard, stock, active suit,
// the count, direction, the "one card" call (the `one` flag of a play) and suit choices for 8 and 9.

import { h } from '../dom.js';
import { t, tn } from '../i18n.js';
import { cardEl, pileEl, emptyEl, cardText, cardsText, suitText, SUIT_SYM, SUIT_WORD } from '../cards.js';
import { handBacks, lastPanel, digitKey, digitIndex, cutLine } from './common.js';

/** This game's Russian strings, keyed by the English text (i18n.js; shared ones are in ru.js). */
const RU = {
  Craits: 'Кретс',
  'Shedding game of fifteen hands with special cards.': 'Игра на сброс карт: пятнадцать раздач, особые карты.',
  'Hand {n} of {m}': 'Раздача {n} из {m}', 'penalty turn': 'штрафной ход', 'one card!': 'одна карта!',
  'shuffle penalties': 'штрафы за перетасовку', '1 card': '1 карта', 'Suit to follow: {s}': 'Масть: {s}', suit: 'масть',
  'Direction: anticlockwise': 'Направление: против часовой', 'Direction: clockwise': 'Направление: по часовой',
  direction: 'направление', 'The count: {n}': 'Счёт: {n}', '6: play again': '6: ещё ход',
  'King run: card {n}': 'Серия короля: карта {n}', 'One card!': 'Одна карта!', 'Pick up {n}': 'Взять {n}',
  '“One card!” — on': '«Одна карта!» — вкл', 'Say “one card”': 'Сказать «одна карта»',
  'Choose the suit for the upcard.': 'Выберите масть для открытой карты.',
  '{name} chooses the suit.': '{name} выбирает масть.',
  'One-card deal: say “one card!” before the time runs out.': 'Сдача по одной: скажите «одна карта!», пока не вышло время.',
  'Waiting for “one card” calls.': 'Ждём «одна карта».', 'Choose the suit.': 'Выберите масть.',
  'Choose the suit': 'Выберите масть',
  'The count is {n}: play an ace or a two, or pick up.': 'Счёт {n}: сыграйте туза или двойку — или возьмите.',
  'No card to play: draw.': 'Нечем ходить: возьмите карту.',
  'Your turn: play a matching card.': 'Ваш ход: сыграйте подходящую карту.',
  'choose a suit (8, 9, upcard)': 'выбрать масть (8, 9, открытая карта)', 'say “one card”': 'сказать «одна карта»',
  'draw / pick up': 'взять карту / взять счёт', Upcard: 'Открытая карта', chooses: 'выбирает', 'draws {n}': 'берёт {n}',
  'cannot play': 'нечем ходить', 'the count': 'счёт', 'a five': 'пятёрка', 'a seven': 'семёрка', 'a jack': 'валет',
  'the queen of spades': 'дама пик', penalty: 'штраф', 'idiot card': 'карта идиота',
  'The pile is shuffled into the stock': 'Сброс перетасован в колоду', 'shuffle penalty {p}': 'штраф за перетасовку {p}',
  'is skipped': 'пропускает ход', Direction: 'Направление', 'The count': 'Счёт', 'picks up {n}': 'берёт {n}',
  'forgot to say “one card”!': 'забыл сказать «одна карта»!', 'says “one card”': 'говорит «одна карта»',
  'Hand {n} over': 'Раздача {n} окончена', 'cards left': 'осталось', 'this hand': 'за раздачу', 'Hand {n} result': 'Итоги раздачи {n}', Play: 'Сыграть',
  'choose the suit:': 'выберите масть:',
  'You played a 6: play again, or draw.': 'Вы сыграли 6: ходите ещё раз или возьмите карту.',
  'King run: play card {n} of the run, or draw.': 'Серия короля: сыграйте карту {n} серии или возьмите.',
  // option hints (craits.py)
  'Play only the first eight hands, from 8 cards down to 1.': 'Только первые восемь раздач: от 8 карт до одной.',
  'The next dealer is the neighbour in the direction play ended in.': 'Следующий дилер — сосед в ту сторону, куда шла игра в конце раздачи.',
  'With 2 or 3 players, take the kings and queens out of the deck.': 'При двух или трёх игроках короли и дамы убираются из колоды.',
  'On a hand of one card each, everyone must say “one card” after the deal.': 'В раздаче по одной карте каждый должен сказать «одна карта» после сдачи.',
  'Forgetting “one card” costs one card drawn at once instead of a lost turn.': 'Забыли «одна карта» — сразу берёте карту идиота вместо пропуска хода.',
  'Going out during a count does not end the hand if you must pick up.': 'Выход во время счёта не заканчивает раздачу, если вам пришлось брать карты.',
  'A three left in hand may also cancel an eight.': 'Тройка в руке может аннулировать и восьмёрку.',
  'Threes cannot cancel aces, and a spare three scores 100.': 'Тройки не аннулируют тузов, а лишняя тройка стоит 100 очков.',
  'The player who goes out scores −10 instead of 0.': 'Вышедший игрок получает −10 очков вместо 0.',
  'Jacks make the next player draw, the queen of spades draws five, a king plays three.': 'Валет заставляет следующего брать карты, дама пик — взять пять, король — сыграть три карты подряд.',
  'With 6 players: one deck, or two shuffled together.': 'При шести игроках: одна колода или две вместе.',
  'Seconds for each decision; then you are treated as unable to play and draw.': 'Секунды на каждое решение; потом считается, что вам нечем ходить, и вы берёте карту.',
  // ui-msg: the engine's rejections (craits.py, IllegalAction templates)
  'a 9 may name only the other suit of its own colour': 'девятка может назвать только другую масть своего цвета',
  'only the clock closes the one-card declarations, and only while they are open': 'время на «одна карта» закрывают только часы, и только пока оно идёт',
  'no timed decision is due for the clock to settle': 'сейчас нет решения на время, которое решали бы часы',
  "'one' is declared only after a one-card deal, once": '«одна карта» говорят только после сдачи по одной карте, и один раз',
  "a suit is chosen this way only for an 8 or 9 upcard; to change suit, write it in the play: 'play 8S suit H'": 'так масть выбирают только для открытой восьмёрки или девятки; чтобы сменить масть, назовите её в ходе: «play 8S suit H»',
  "it is not {seat}'s turn": 'сейчас ходит не {seat}', "first choose the suit for the upcard: 'suit X'": 'сначала выберите масть для открытой карты',
  "declare 'one' first; play starts after the upcard": 'сначала скажите «одна карта»: игра начнётся после открытой карты',
  'you hold a card you can play, so you may not draw': 'у вас есть карта, которой можно сыграть, поэтому брать нельзя',
  'in the count only an ace or a 2 may be played, not {card}': 'во время счёта можно играть только туза или двойку, а не {card}',
  '{card} does not match {top_card} with {suit} active: play the same rank, the active suit, an 8 or a 9': '{card} не ложится на {top_card}, масть {suit}: играйте тот же ранг, эту масть, восьмёрку или девятку',
  "the clock plays only 'timeout' and 'close'": 'часы играют только «timeout» и «close»',
  'a 9 allows only its own suit or the other suit of its colour': 'девятка разрешает только свою масть или другую масть того же цвета',
  'you hold an ace or a 2: you must answer the count': 'у вас есть туз или двойка: нужно ответить на счёт',
};

const WHY = { turn: 'cannot play', count: 'the count', five: 'a five', seven: 'a seven', jack: 'a jack', queen_spades: 'the queen of spades', penalty: 'penalty', idiot_card: 'idiot card' };

function parsePlay(a) {
  const p = a.split(' ');
  if (p[0] !== 'play') return null;
  const out = { card: p[1], suit: null, one: false, act: a };
  for (let i = 2; i < p.length; i++) { if (p[i] === 'suit') out.suit = p[++i]; else if (p[i] === 'one') out.one = true; }
  return out;
}

function playsFor(ctx, card) { return ctx.legal.map(parsePlay).filter((p) => p && p.card === card); }

/** The plays of `card` that match the "one card" toggle (falls back to what exists). */
function choices(ctx, card) {
  const all = playsFor(ctx, card);
  const want = !!ctx.ui.one;
  const m = all.filter((p) => p.one === want);
  return m.length ? m : all;
}

function clickCard(ctx, card) {
  const c = choices(ctx, card);
  if (!c.length) return;
  if (c.length === 1) { ctx.act(c[0].act); ctx.ui.one = false; return; }
  ctx.ui.pick = card; ctx.rerender();
}

export default {
  ru: RU,
  lowWins: true,

  onEvents(ctx, events) {
    for (const ev of events) {
      if (ev.type === 'hand_start' || ev.type === 'play') ctx.ui.pick = null;
      if (ev.type === 'hand_end') ctx.ui.handEnd = ev;
    }
  },

  headInfo(ctx) {
    const v = ctx.view;
    const total = v.options.short_game ? 8 : 15;
    return [t('Hand {n} of {m}', { n: v.hand_no, m: total }), ' · ', tn(v.cards_per_hand, 'card', 'cards')];
  },

  seatExtra(ctx, i) {
    const v = ctx.view;
    const tags = [];
    if ((v.penalties || []).includes(i)) tags.push(h('span', { class: 'badge warn' }, t('penalty turn')));
    if ((v.declared || []).includes(i)) tags.push(h('span', { class: 'badge' }, t('one card!')));
    const sp = (v.shuffle_penalties || [])[i];
    if (sp) tags.push(h('span', { class: 'badge', title: t('shuffle penalties') }, `⟳${sp}`));
    if (v.hand_sizes[i] === 1) tags.push(h('span', { class: 'badge last' }, t('1 card')));
    return h('div', { class: 'craits-seat' }, i === ctx.me ? null : handBacks(v.hand_sizes[i]), tags.length ? h('div', { class: 'tags' }, tags) : null);
  },

  center(ctx) {
    const v = ctx.view;
    const drawAct = ctx.has('draw') ? 'draw' : null;
    const stock = pileEl(v.stock_size, { act: drawAct, onClick: drawAct ? () => ctx.act('draw') : null, cls: 'deck',
      label: t('Stock: {n} cards', { n: v.stock_size }) + (drawAct ? ` — ${t('draw')}` : '') });
    const top = v.discard_top ? cardEl(v.discard_top, { cls: 'discard', label: t('Discard pile: {card} on top, {n} cards', { card: v.discard_top, n: v.discard_size }) })
      : emptyEl(t('Discard pile: empty'), { cls: 'discard' });
    const dir = v.direction === 'ccw' ? '↺' : '↻';
    const suitChanged = v.active_suit && v.discard_top && v.discard_top.slice(-1) !== v.active_suit;
    return h('div', { class: 'craits-center' },
      v.last_hand ? lastPanel(ctx, `h${v.last_hand.hand}`, t('Hand {n} result', { n: v.last_hand.hand }), handTable(ctx, v.last_hand)) : null,
      h('div', { class: 'piles' },
        h('div', { class: 'pile-box' }, stock, h('span', { class: 'lbl' }, t('stock'))),
        h('div', { class: 'pile-box' }, top, h('span', { class: 'lbl' }, t('pile {n}', { n: v.discard_size }))),
        h('div', { class: 'indicators' },
          v.active_suit ? h('div', { class: `ind suit ${suitChanged ? 'changed' : ''}`, id: 'active-suit', 'aria-label': t('Suit to follow: {s}', { s: t(SUIT_WORD[v.active_suit]) }) },
            h('span', { class: 'lbl' }, t('suit')), suitText(v.active_suit)) : null,
          h('div', { class: 'ind dir', id: 'direction', 'aria-label': v.direction === 'ccw' ? t('Direction: anticlockwise') : t('Direction: clockwise') },
            h('span', { class: 'lbl' }, t('direction')), h('span', { class: 'dir-sym' }, dir)),
          v.count != null ? h('div', { class: 'ind count', id: 'count', 'aria-label': t('The count: {n}', { n: v.count }) },
            h('span', { class: 'lbl' }, t('count')), h('b', null, String(v.count))) : null,
          v.six ? h('div', { class: 'ind' }, t('6: play again')) : null,
          v.run ? h('div', { class: 'ind' }, t('King run: card {n}', { n: v.run })) : null)),
      suitPicker(ctx));
  },

  mine(ctx) {
    const v = ctx.view;
    if (ctx.me == null) return null;
    const hand = v.hand || [];
    return h('div', { class: 'hand', role: 'group', 'aria-label': t('Your hand'), dataset: { role: 'hand' } }, hand.map((c, k) => {
      const plays = playsFor(ctx, c);
      const ch = choices(ctx, c);
      const single = ch.length === 1 ? ch[0].act : null;
      return cardEl(c, { act: single, onClick: plays.length ? () => clickCard(ctx, c) : null, selected: ctx.ui.pick === c ? true : null,
        cls: plays.length ? '' : 'dim', data: { idx: String(k), ...(digitKey(k) ? { key: digitKey(k) } : {}) } });
    }));
  },

  bar(ctx) {
    const out = [];
    const L = ctx.legal;
    for (const s of ['S', 'H', 'D', 'C']) if (L.includes(`suit ${s}`)) out.push({ act: `suit ${s}`, label: [SUIT_SYM[s], ' ', t(SUIT_WORD[s])], key: s, cls: `suitbtn s-${s}` });
    if (L.includes('one')) out.push({ act: 'one', label: t('One card!'), key: 'O', cls: 'accent' });
    if (L.includes('draw')) out.push({ act: 'draw', label: ctx.view.count != null ? t('Pick up {n}', { n: ctx.view.count }) : t('Draw'), key: 'D' });
    if (L.some((a) => a.endsWith(' one') && a.startsWith('play '))) {
      out.push({ act: '__one', label: ctx.ui.one ? t('“One card!” — on') : t('Say “one card”'), key: 'O', cls: `toggle ${ctx.ui.one ? 'on' : ''}`, pressed: !!ctx.ui.one,
        onClick: () => { ctx.ui.one = !ctx.ui.one; ctx.rerender(); } });
    }
    return out;
  },

  covers(ctx, a) { return a.startsWith('play '); },

  status(ctx) {
    const v = ctx.view;
    if (v.over) return t('Game over.');
    const mine = (v.to_act || []).includes(ctx.me);
    if (v.phase === 'suit') return mine ? t('Choose the suit for the upcard.') : t('{name} chooses the suit.', { name: ctx.shortName(v.dealer) });
    if (v.phase === 'declare') return mine ? t('One-card deal: say “one card!” before the time runs out.') : t('Waiting for “one card” calls.');
    if (!mine) return t('{name} is playing.', { name: ctx.shortName(v.turn) });
    if (ctx.ui.pick) return t('Choose the suit.');
    if (v.count != null) return t('The count is {n}: play an ace or a two, or pick up.', { n: v.count });
    if (v.six) return t('You played a 6: play again, or draw.');
    if (v.run) return t('King run: play card {n} of the run, or draw.', { n: v.run });
    if (ctx.has('draw') && !ctx.legal.some((a) => a.startsWith('play '))) return t('No card to play: draw.');
    return t('Your turn: play a matching card.');
  },

  onKey(ctx, e) {
    const k = e.key.toUpperCase();
    if (ctx.ui.pick && ['S', 'H', 'D', 'C'].includes(k)) {
      const c = choices(ctx, ctx.ui.pick).find((p) => (p.suit || p.card.slice(-1)) === k);
      if (c) { ctx.ui.pick = null; ctx.ui.one = false; ctx.act(c.act); return true; }
      return false;
    }
    const i = digitIndex(e.key);
    if (i >= 0) {
      const c = (ctx.view.hand || [])[i];
      if (c && playsFor(ctx, c).length) { clickCard(ctx, c); return true; }
    }
    return false;
  },

  shortcuts() {
    return [['1…9, 0', t('play the n-th card of your hand')], ['S H D C', t('choose a suit (8, 9, upcard)')], ['O', t('say “one card”')], ['D', t('draw / pick up')]];
  },

  narrate(ev, ctx) {
    const n = (s) => h('b', null, ctx.shortName(s));
    switch (ev.type) {
      case 'cut': return cutLine(ev, ctx);
      case 'hand_start': return { cls: 'sep', node: [t('Hand {n}', { n: ev.hand }), ': ', tn(ev.cards, 'card', 'cards'), ', ', t('{name} deals', { name: ctx.shortName(ev.dealer) })] };
      case 'reveal': return ev.why === 'draw' ? [t('You get'), ' ', cardsText(ev.cards)] : null;
      case 'upcard': return [t('Upcard'), ' ', cardText(ev.card)];
      case 'suit': return [n(ev.seat), ' ', t('chooses'), ' ', suitText(ev.suit)];
      case 'play': return [n(ev.seat), ' ', t('plays'), ' ', cardText(ev.card), ev.suit && ev.suit !== ev.card.slice(-1) ? [' → ', suitText(ev.suit)] : '', ev.one ? ` «${t('one card!')}»` : ''];
      case 'draw': return [n(ev.seat), ' ', t('draws {n}', { n: ev.n }), ` (${t(WHY[ev.why] || ev.why)})`];
      case 'reshuffle': return [t('The pile is shuffled into the stock'), ' (', n(ev.seat), ')'];
      case 'shuffle_penalty': return [n(ev.seat), ' ', t('shuffle penalty {p}', { p: ev.points })];
      case 'skip': return [n(ev.seat), ' ', t('is skipped')];
      case 'direction': return [t('Direction'), ' ', ev.direction === 'ccw' ? '↺' : '↻'];
      case 'count': return [t('The count'), ': ', h('b', null, String(ev.value))];
      case 'count_end': return [n(ev.seat), ' ', t('picks up {n}', { n: ev.value })];
      case 'idiot': return { cls: 'big', node: [n(ev.seat), ' ', t('forgot to say “one card”!')] };
      case 'declare': return [n(ev.seat), ' ', t('says “one card”')];
      case 'timeout': return [t('Time'), ': ', ev.seats.map((s) => ctx.shortName(s)).join(', ')];
      case 'hand_end': return { cls: 'sep', node: [t('Hand {n} over', { n: ev.hand }), ': ', (ev.hand_scores || []).map((s, i) => `${ctx.shortName(i)} ${s >= 0 ? '+' : ''}${s}`).join(', ')] };
      case 'game_end': return { cls: 'sep', node: [t('Game over'), '. ', t('Winner: {names}', { names: ev.winners.map((w) => ctx.shortName(w)).join(', ') })] };
      default: return null;
    }
  },

  moment: handMoment,
  sound(ev) { return ev.type === 'play' ? 'card' : null; },
};

// ---- ui-moments: each hand's points at the hand's end (moment.js) ----

Object.assign(RU, {
  'Hand {n}: the points': 'Раздача {n}: очки', 'went out': 'вышел', 'cancelled by threes': 'погашены тройками', points: 'очки',
  'no cards': 'нет карт', 'in all': 'всего',
});

/** Each hand as it ended: its cards, the ones its threes cancelled (CRAITS-SCORE-4), its points. */
function handMoment(ctx, events) {
  const ev = events.find((e) => e.type === 'hand_end');
  if (!ev) return null;
  return { key: `craits-h${ev.hand}`, title: t('Hand {n}: the points', { n: ev.hand }), seconds: 10, body: (c) => handBody(c, ev) };
}

function handBody(ctx, ev) {
  const out = ev.went_out || [];
  return h('div', { class: 'reveal-rows' }, (ev.hands || []).map((cards, i) => {
    const cancelled = [...((ev.cancelled || [])[i] || [])];
    const els = cards.map((c) => {
      const k = cancelled.indexOf(c);
      if (k >= 0) cancelled.splice(k, 1);
      return cardEl(c, { cls: `mini ${k >= 0 ? 'cancelled' : ''} ${c.startsWith('3') ? 'three' : ''}` });
    });
    const gone = ((ev.cancelled || [])[i] || []);
    const pts = ev.hand_scores[i];
    return h('div', { class: `reveal-row ${out.includes(i) ? 'out' : ''}`, dataset: { seat: i } },
      h('div', { class: 'rv-name' }, h('b', null, ctx.shortName(i)), out.includes(i) ? h('span', { class: 'badge' }, t('went out')) : null),
      h('div', { class: 'rv-cards' }, els.length ? els : h('span', { class: 'muted' }, t('no cards'))),
      h('div', { class: 'rv-sums' },
        gone.length ? h('span', { class: 'rv-cancel' }, t('cancelled by threes'), ': ', cardsText(gone)) : null,
        h('span', { class: 'rv-round' }, t('points'), ' ', h('b', null, `${pts > 0 ? '+' : ''}${pts}`)),
        h('span', { class: 'rv-score' }, t('in all'), ' ', h('b', null, String(ev.scores[i])))));
  }));
}


function suitPicker(ctx) {
  const card = ctx.ui.pick;
  if (!card) return null;
  const c = choices(ctx, card);
  if (c.length < 2) return null;
  return h('div', { class: 'picker panel', role: 'dialog', 'aria-label': t('Choose the suit') },
    h('p', null, t('Play'), ' ', cardText(card), ' — ', t('choose the suit:')),
    h('div', { class: 'pick-row' }, c.map((p) => {
      const s = p.suit || p.card.slice(-1);
      return h('button', { type: 'button', class: `btn suitbtn s-${s}`, dataset: { act: p.act }, 'aria-label': t(SUIT_WORD[s]), onclick: () => { ctx.ui.pick = null; ctx.ui.one = false; ctx.act(p.act); } },
        SUIT_SYM[s], h('span', { class: 'suit-word' }, ' ', t(SUIT_WORD[s])));
    }), h('button', { type: 'button', class: 'btn ghost', onclick: () => { ctx.ui.pick = null; ctx.rerender(); } }, t('Cancel'))));
}

function handTable(ctx, lh) {
  const ev = ctx.ui.handEnd && ctx.ui.handEnd.hand === lh.hand ? ctx.ui.handEnd : {};
  const r = { ...ev, ...lh, hands: lh.hands || ev.hands || null };
  const at = (list, i) => (list ? list[i] : undefined);
  const out = r.went_out || [];
  const head = h('thead', null, h('tr', null, h('th', null, t('Player')), r.hands ? h('th', null, t('cards left')) : null, h('th', null, t('this hand')), h('th', null, t('score'))));
  return h('table', { class: 'rr' }, head, h('tbody', null, Array.from({ length: ctx.n }, (_, i) => h('tr', { class: out.includes(i) ? 'declarer' : '' },
    h('td', null, ctx.shortName(i), out.includes(i) ? ' ★' : ''),
    r.hands ? h('td', { class: 'cards-inline' }, (at(r.hands, i) || []).length ? cardsText(at(r.hands, i)) : '—') : null,
    h('td', null, `${(at(r.hand_scores, i) ?? 0) >= 0 ? '+' : ''}${at(r.hand_scores, i) ?? ''}`),
    h('td', null, h('b', null, String(at(r.scores, i) ?? '')))))));
}
