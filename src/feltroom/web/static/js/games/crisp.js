// Crisp: three face-down slots each (L C R), a deck, a discard pile, Kings in use.
// Memory game: a peeked card is shown once (until dismissed, at most 10 s), then it is face
// down again and gone from the page and from this client's state (CRISP-DEAL-6, CRISP-AMB-4).

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { cardEl, backEl, pileEl, emptyEl, cardText, cardsText } from '../cards.js';

/** This game's Russian strings, keyed by the English text (i18n.js; shared ones are in ru.js). */
const RU = {
  Crisp: 'Crisp',
  'Memory and bluff: three face-down cards, lowest total wins.': 'Память и блеф: три карты рубашкой вверх, побеждает наименьшая сумма.',
  'Round {n}': 'Раунд {n}', centre: 'центральную', right: 'правую', 'Your {slot} card': 'Ваша карта: {slot}',
  "{name}'s {slot} card": '{name}: карта {slot}', '{label}: {card} (peek)': '{label}: {card} (подсмотрено)',
  'the card drawn': 'взятая карта', 'CRISP!': 'CRISP!', 'may call crisp': 'может объявить crisp',
  'last turn': 'последний ход', Slots: 'Карты', 'Hide my cards': 'Скрыть мои карты',
  'Deck: {n} cards': 'Колода: {n} карт', '{card} in use': '{card} в игре', 'You hold': 'У вас в руке',
  'from the pile: swap it': 'из сброса: обменяйте', 'Kings in use · {n} to draw': 'Короли в игре · доп. взятий: {n}',
  'Take the pile card': 'Взять из сброса', Discard: 'Сбросить',
  'Use the Jack (see your centre card)': 'Валет: посмотреть центральную',
  'Use the King (draw two more)': 'Король: два доп. взятия', 'No crisp': 'Без crisp',
  '{name} may start in': '{name} начнёт через', 'Your turn: draw a card.': 'Ваш ход: возьмите карту.',
  'Now pick another player’s card to swap with.': 'Теперь выберите карту соперника для обмена.',
  'Queen: pick one of your cards, then another player’s card, or discard.': 'Дама: выберите свою карту, затем карту соперника — или сбросьте.',
  'Swap the card into one of your slots.': 'Положите карту на одно из своих мест.',
  'Swap into a slot, or use or discard the card.': 'Обменяйте, используйте или сбросьте карту.',
  'Call crisp now, or let the window close.': 'Объявите crisp сейчас — или пропустите.',
  'draw from the deck': 'взять из колоды', 'take the discard pile card': 'взять карту из сброса',
  'swap into (or pick) your left, centre, right card': 'обмен (или выбор) левой, центральной, правой карты',
  'discard the held card': 'сбросить карту из руки', 'use a Jack / a King': 'использовать валета / короля',
  'Queen: the other seat and its card': 'Дама: место соперника и его карта', 'call crisp': 'объявить crisp',
  'no crisp': 'не объявлять crisp', 'You look at your {slot} card.': 'Вы смотрите свою {slot} карту.',
  'The pile is turned over: a new deck of {n}.': 'Сброс перевёрнут: новая колода из {n}.', takes: 'берёт',
  'from the pile': 'из сброса', draws: 'берёт карту', 'swaps into {slot}': 'кладёт на {slot}', 'to the pile': 'в сброс',
  discards: 'сбрасывает', time: 'время', uses: 'играет', 'looks at the centre card': 'смотрит центральную карту',
  'swaps {a} with': 'меняет {a} с', '{n} to draw': 'доп. взятий: {n}', 'ran out of time': 'не успел',
  'loses {n} draws': 'теряет взятия: {n}', 'calls CRISP!': 'объявляет CRISP!',
  'does not call crisp': 'не объявляет crisp', 'Round {n} over': 'Раунд {n} окончен',
  'Round {n} result': 'Итоги раунда {n}', 'a King: use it': 'король: используйте его',
  'a Queen: swap with another player, or discard': 'дама: обмен с соперником или сброс',
  'a Jack: see your centre card, or discard': 'валет: посмотреть центральную или сбросить',
  'swap it into a slot, or discard it': 'обменяйте или сбросьте',
  'Your total is low? Call it: everyone else gets one last turn.': 'Сумма мала? Объявите crisp: у остальных будет по одному последнему ходу.',
  '{name} called crisp — last turns: {list}': '{name} объявил crisp — последние ходы: {list}',
  'A King: use it to draw two more cards.': 'Король: примените его — два доп. взятия.',
  'A Jack: look at your centre card, or discard it.': 'Валет: посмотрите центральную карту или сбросьте его.',
  'Swap into a slot, or discard the card.': 'Обменяйте карту на одну из своих или сбросьте.',
  // option hints (crisp.py)
  'The game ends after the round in which someone reaches this many points.': 'Игра заканчивается в конце раунда, в котором кто-то набирает столько очков.',
  'Seconds for each draw; when they run out, the rest of the turn is lost.': 'Секунды на каждое взятие; когда они кончаются, остаток хода пропадает.',
  'Any draw may take the top discard instead, which must then be swapped in.': 'Вместо колоды можно взять верхнюю карту сброса, но её нужно обменять на свою.',
  // ui-msg: the engine's rejections (crisp.py, IllegalAction templates)
  "'{action}' is not possible now": 'ход {action} сейчас невозможен', '{seat} has no open crisp window': '{seat}: окно для crisp не открыто',
  'the clock only applies timeout, release and close S': 'часы применяют только timeout, release и close S',
  'you have no crisp window to decline: it opens only right after your own turn ends normally': 'отказываться не от чего: окно для crisp открывается только сразу после вашего обычного хода',
  'you may declare crisp only right after your own turn ends normally (not before your turn, during one, or after a timeout)': 'crisp можно объявить только сразу после своего обычного хода (не до хода, не во время него и не после таймера)',
  'it is not your turn: {seat} is to play': 'сейчас не ваш ход: ходит {seat}',
  "wait: {seat}'s crisp window holds your turn for {seconds} s": 'подождите: окно для crisp игрока {seat} задерживает ваш ход на {seconds} с',
  'the discard pile is empty: draw from the deck': 'сброс пуст: берите из колоды', 'draw a card first': 'сначала возьмите карту',
  '{card} was drawn from the deck: a J, Q or K from the deck can never be swapped into a slot': 'карта {card} взята из колоды: валета, даму или короля из колоды нельзя обменять на свою карту',
  "a King from the deck must be used: play 'king' with {card}": 'короля из колоды ({card}) нужно обязательно применить: он даёт два доп. взятия',
  '{card} came from the discard pile: it must be swapped into one of your slots (swap L, swap C or swap R)': 'карта {card} взята из сброса: её нужно обменять на одну из своих карт',
  'you hold {card}, not a {rank}': 'у вас в руке {card}, а не {rank}',
  'a Queen swaps one of your cards with a card of ANOTHER player': 'дама меняет вашу карту на карту ДРУГОГО игрока',
  "only the table's clock applies '{action}', not a player": '{action} применяют часы стола, а не игрок',
  'this table plays without a clock (option clock is false)': 'за этим столом играют без часов', 'no draw timer is running now': 'таймер хода сейчас не идёт',
  'no player is being held after a turn end': 'после хода никто не ждёт своей очереди',
  'only one crisp per round: {seat} already declared it, and no one may declare after a last turn': 'crisp за раунд объявляют только раз: его уже объявил игрок {seat}, а в последние ходы объявлять нельзя',
  'your crisp window has closed: a declaration must come right after your turn, before the next draw': 'окно для crisp закрылось: объявлять нужно сразу после своего хода, до следующего взятия',
  'you already hold {card}: resolve it first (swap, discard or use it)': 'у вас уже есть взятая карта {card}: сначала обменяйте, сбросьте или примените её',
  'drawing from the discard pile is off at this table: draw from the deck': 'за этим столом из сброса не берут: берите из колоды',
  'no draw timer at this table': 'за этим столом нет таймера хода',
  'only one crisp per round: you already declared it, and no one may declare after a last turn': 'crisp за раунд объявляют только раз: вы его уже объявили, а в последние ходы объявлять нельзя',
  'your crisp window has closed: a declaration must come right after your turn (within {seconds} s)': 'окно для crisp закрылось: объявлять нужно сразу после своего хода (в течение {seconds} с)',
};

const SLOTS = ['L', 'C', 'R'];
// CRISP-AMB-4: at most 10 s. (A shorter time may be set in localStorage, e.g. by tests.)
const PEEK_MS = Math.min(10000, +(localStorage.getItem('feltroom.peekMs') || 10000));
const slotName = (s) => t({ L: 'left', C: 'centre', R: 'right' }[s]);

function peeks(ctx) { return (ctx.ui.peeks = ctx.ui.peeks || []); }

function dropPeek(ctx, slot) {
  const p = peeks(ctx);
  const i = p.findIndex((x) => x.slot === slot);
  if (i >= 0) { clearTimeout(p[i].timer); p.splice(i, 1); }
}

function hidePeeks(ctx) {
  for (const p of peeks(ctx)) clearTimeout(p.timer);
  ctx.ui.peeks = [];
  ctx.rerender();
}

export default {
  ru: RU,
  lowWins: true,

  onEvents(ctx, events) {
    const me = ctx.me;
    for (const ev of events) {
      if (ev.type === 'round_start') { hidePeeks(ctx); ctx.ui.qsel = null; ctx.ui.roundClosed = false; }
      if (ev.type === 'round_end') { hidePeeks(ctx); ctx.ui.roundClosed = false; ctx.ui.roundEnd = ev; }
      if (ev.type === 'window_open' && ev.seat === me) ctx.ui.windowAt = Date.now();
      if (me == null) continue;
      if (ev.type === 'swap' && ev.seat === me) dropPeek(ctx, ev.slot);
      if (ev.type === 'queen') {
        if (ev.seat === me) dropPeek(ctx, ev.slot);
        if (ev.target === me) dropPeek(ctx, ev.target_slot);
      }
      if (ev.type === 'reveal' && ev.seat === me && ev.slot) {
        dropPeek(ctx, ev.slot);
        const p = { slot: ev.slot, card: ev.cards[0], why: ev.why };
        p.timer = setTimeout(() => {
          const list = peeks(ctx);
          const i = list.indexOf(p);
          if (i >= 0) list.splice(i, 1);
          ctx.rerender();
        }, PEEK_MS);
        peeks(ctx).push(p);
      }
    }
  },

  headInfo(ctx) {
    const v = ctx.view;
    return [t('Round {n}', { n: v.round }), ' · ', t('to {n}', { n: v.options.end_limit })];
  },

  seatExtra(ctx, i) {
    const v = ctx.view;
    const mine = i === ctx.me;
    const legal = ctx.legal;
    const qsel = ctx.ui.qsel;
    const slots = SLOTS.map((s) => {
      const peek = mine ? peeks(ctx).find((p) => p.slot === s) : null;
      const label = mine ? t('Your {slot} card', { slot: slotName(s) }) : t("{name}'s {slot} card", { name: ctx.shortName(i), slot: slotName(s) });
      let act = null, onClick = null, selected = null;
      if (mine) {
        if (legal.includes(`swap ${s}`)) act = `swap ${s}`;
        else if (legal.some((a) => a.startsWith(`queen ${s} `))) {
          selected = qsel === s;
          onClick = () => { ctx.ui.qsel = qsel === s ? null : s; ctx.rerender(); };
        }
      } else if (qsel && legal.includes(`queen ${qsel} ${i} ${s}`)) {
        act = `queen ${qsel} ${i} ${s}`;
      }
      const wrap = (node) => h('div', { class: `slot slot-${s}` }, node, h('span', { class: 'slabel', 'aria-hidden': 'true' }, s));
      if (peek) {
        return wrap(cardEl(peek.card, { cls: 'peek', act, onClick: act || onClick ? (onClick || (() => ctx.act(act))) : null,
          label: t('{label}: {card} (peek)', { label, card: peek.card }), data: { slot: s, peek: '1' } }));
      }
      return wrap(backEl({ act, onClick: act ? () => ctx.act(act) : onClick, selected, label, data: { slot: s, seat: i }, cls: act ? 'target' : '' }));
    });
    const held = v.held && v.turn === i && !mine
      ? h('div', { class: 'held-mini' }, v.held.card ? cardEl(v.held.card, { cls: 'mini' }) : backEl({ cls: 'mini', label: t('the card drawn') }))
      : null;
    const tags = [];
    if (v.crisp === i) tags.push(h('span', { class: 'badge crisp' }, t('CRISP!')));
    if ((v.windows || []).includes(i)) tags.push(h('span', { class: 'badge window' }, t('may call crisp')));
    if ((v.last_turns || []).includes(i)) tags.push(h('span', { class: 'badge last' }, t('last turn')));
    return h('div', { class: 'crisp-seat' }, h('div', { class: 'slots', role: 'group', 'aria-label': t('Slots'), dataset: mine ? { role: 'hand' } : null }, slots), held, tags.length ? h('div', { class: 'tags' }, tags) : null,
      mine && peeks(ctx).length ? h('button', { type: 'button', class: 'btn ghost small', id: 'hide-peek', onclick: () => hidePeeks(ctx) }, t('Hide my cards')) : null);
  },

  center(ctx) {
    const v = ctx.view;
    const legal = ctx.legal;
    const deckAct = legal.includes('draw') ? 'draw' : null;
    const discAct = legal.includes('draw discard') ? 'draw discard' : null;
    const deck = pileEl(v.deck_size, { act: deckAct, onClick: deckAct ? () => ctx.act('draw') : null, label: t('Deck: {n} cards', { n: v.deck_size }) + (deckAct ? ` — ${t('draw')}` : ''), cls: 'deck' });
    const top = v.discard_top
      ? cardEl(v.discard_top, { act: discAct, onClick: discAct ? () => ctx.act('draw discard') : null, cls: 'discard', label: t('Discard pile: {card} on top, {n} cards', { card: v.discard_top, n: v.discard_size }) })
      : emptyEl(t('Discard pile: empty'), { cls: 'discard', text: t('discard') });
    const kings = (v.kings_in_use || []).map((k) => cardEl(k, { cls: 'king-in-use', label: t('{card} in use', { card: k }) }));
    const held = v.held && v.turn === ctx.me && v.held.card
      ? h('div', { class: 'held', 'aria-live': 'polite' }, h('span', { class: 'lbl' }, t('You hold')), cardEl(v.held.card, { cls: 'big' }),
        h('span', { class: 'lbl' }, v.held.source === 'discard' ? t('from the pile: swap it') : resolveHint(v.held.card)))
      : null;
    return h('div', { class: 'crisp-center' },
      roundPanel(ctx),
      h('div', { class: 'piles' },
        h('div', { class: 'pile-box' }, deck, h('span', { class: 'lbl' }, t('deck'))),
        h('div', { class: 'pile-box' }, top, h('span', { class: 'lbl' }, t('pile {n}', { n: v.discard_size }))),
        kings.length ? h('div', { class: 'pile-box kings' }, h('div', { class: 'fan' }, kings), h('span', { class: 'lbl' }, t('Kings in use · {n} to draw', { n: v.pending }))) : null,
        held),
      crispBox(ctx));
  },

  bar(ctx) {
    const L = ctx.legal, out = [];
    if (L.includes('draw')) out.push({ act: 'draw', label: t('Draw'), key: 'D' });
    if (L.includes('draw discard')) out.push({ act: 'draw discard', label: t('Take the pile card'), key: 'P' });
    if (L.includes('discard')) out.push({ act: 'discard', label: t('Discard'), key: 'X' });
    if (L.includes('jack')) out.push({ act: 'jack', label: t('Use the Jack (see your centre card)'), key: 'J' });
    if (L.includes('king')) out.push({ act: 'king', label: t('Use the King (draw two more)'), key: 'K' });
    if (L.includes('decline')) out.push({ act: 'decline', label: t('No crisp'), key: 'N' });
    return out;
  },

  covers(ctx, a) { return a.startsWith('queen ') || a === 'crisp'; },

  status(ctx) {
    const v = ctx.view;
    if (v.over) return t('Game over.');
    const hold = ctx.deadline((d) => d.action === 'release');
    if (v.hold) return [t('{name} may start in', { name: ctx.shortName(v.turn) }), ' ', ctx.clock(hold)];
    if (v.turn === ctx.me) {
      if (!v.held) return t('Your turn: draw a card.');
      if (ctx.legal.some((a) => a.startsWith('queen '))) return ctx.ui.qsel ? t('Now pick another player’s card to swap with.') : t('Queen: pick one of your cards, then another player’s card, or discard.');
      if (v.held.source === 'discard') return t('Swap the card into one of your slots.');
      const L = ctx.legal;
      if (L.length === 1 && L[0] === 'king') return t('A King: use it to draw two more cards.');
      if (L.includes('jack')) return t('A Jack: look at your centre card, or discard it.');
      return t('Swap into a slot, or discard the card.');
    }
    if (ctx.legal.includes('crisp')) return t('Call crisp now, or let the window close.');
    return t('{name} is playing.', { name: ctx.shortName(v.turn) });
  },

  onKey(ctx, e) {
    const k = e.key.toUpperCase();
    if (k === ' ' || e.key === 'Enter') { if (ctx.has('crisp')) { ctx.act('crisp'); return true; } return false; }
    if (SLOTS.includes(k)) {
      if (ctx.ui.qsel && ctx.ui.qtarget != null) {
        const a = `queen ${ctx.ui.qsel} ${ctx.ui.qtarget} ${k}`;
        ctx.ui.qtarget = null;
        if (ctx.has(a)) { ctx.act(a); return true; }
        return false;
      }
      if (ctx.has(`swap ${k}`)) { ctx.act(`swap ${k}`); return true; }
      if (ctx.legal.some((a) => a.startsWith(`queen ${k} `))) { ctx.ui.qsel = k; ctx.rerender(); return true; }
      return false;
    }
    if (/^[0-9]$/.test(e.key) && ctx.ui.qsel) {
      const seat = (+e.key + 9) % 10; // keys 1..9,0 = seats 0..9
      if (ctx.legal.some((a) => a.startsWith(`queen ${ctx.ui.qsel} ${seat} `))) { ctx.ui.qtarget = seat; return true; }
    }
    return false;
  },

  shortcuts() {
    return [['D', t('draw from the deck')], ['P', t('take the discard pile card')], ['L C R', t('swap into (or pick) your left, centre, right card')],
      ['X', t('discard the held card')], ['J / K', t('use a Jack / a King')], ['1…8 then L C R', t('Queen: the other seat and its card')],
      ['Space', t('call crisp')], ['N', t('no crisp')]];
  },

  narrate(ev, ctx) {
    const n = (s) => h('b', null, ctx.shortName(s));
    switch (ev.type) {
      case 'round_start': return { cls: 'sep', node: [t('Round {n}', { n: ev.round }), ': ', t('{name} deals', { name: ctx.shortName(ev.dealer) })] };
      case 'reveal': return ev.slot ? t('You look at your {slot} card.', { slot: slotName(ev.slot) }) : null;
      case 'flip': return t('The pile is turned over: a new deck of {n}.', { n: ev.size });
      case 'draw': return ev.source === 'discard' ? [n(ev.seat), ' ', t('takes'), ' ', cardText(ev.card), ' ', t('from the pile')] : [n(ev.seat), ' ', t('draws')];
      case 'swap': return [n(ev.seat), ' ', t('swaps into {slot}', { slot: ev.slot }), ', ', cardText(ev.out), ' ', t('to the pile')];
      case 'discard': return [n(ev.seat), ' ', t('discards'), ' ', cardText(ev.card), ev.why === 'timeout' ? ` (${t('time')})` : ''];
      case 'jack': return [n(ev.seat), ' ', t('uses'), ' ', cardText(ev.card), ': ', t('looks at the centre card')];
      case 'queen': return [n(ev.seat), ' ', t('uses'), ' ', cardText(ev.card), ': ', t('swaps {a} with', { a: ev.slot }), ' ', n(ev.target), ` ${ev.target_slot}`];
      case 'king': return [n(ev.seat), ' ', t('uses'), ' ', cardText(ev.card), ': ', t('{n} to draw', { n: ev.pending })];
      case 'turn_end': return ev.why === 'timeout' || ev.lost ? [n(ev.seat), ' ', ev.why === 'timeout' ? t('ran out of time') : '', ev.lost ? ` ${t('loses {n} draws', { n: ev.lost })}` : ''] : null;
      case 'crisp': return { cls: 'big', node: [n(ev.seat), ' ', t('calls CRISP!')] };
      case 'window_close': return ev.why === 'decline' ? [n(ev.seat), ' ', t('does not call crisp')] : null;
      case 'round_end': return { cls: 'sep', node: [t('Round {n} over', { n: ev.round }), ': ', (ev.round_scores || []).map((s, i) => `${ctx.shortName(i)} +${s}`).join(', ')] };
      case 'game_end': return { cls: 'sep', node: [t('Game over'), '. ', t('Winner: {names}', { names: ev.winners.map((w) => ctx.shortName(w)).join(', ') })] };
      default: return null;
    }
  },

  moment: revealMoment,
  sound(ev) { return ev.type === 'crisp' ? 'call' : ['swap', 'discard', 'jack', 'queen', 'king'].includes(ev.type) ? 'card' : null; },
};

// ---- ui-moments: the reveal at the round's end (moment.js) ----

Object.assign(RU, {
  'Round {n}: the reveal': 'Раунд {n}: вскрытие', 'crisp, lowest alone: −5': 'crisp, наименьшая сумма: −5',
  'crisp, not lowest alone: +5': 'crisp, сумма не наименьшая: +5', 'this round': 'за раунд', 'in all': 'всего', Total: 'Сумма',
});

/** Every hand face up, each total, and the declarer's −5 or +5 (CRISP-SCORE-*), from `round_end`. */
function revealMoment(ctx, events) {
  const ev = events.find((e) => e.type === 'round_end');
  if (!ev) return null;
  return { key: `crisp-r${ev.round}`, title: t('Round {n}: the reveal', { n: ev.round }), seconds: 8, body: (c) => revealBody(c, ev) };
}

function revealBody(ctx, ev) {
  const n = (ev.hands || []).length;
  const low = Math.min(...(ev.totals || [0]));
  return h('div', { class: 'reveal-rows' }, Array.from({ length: n }, (_, i) => {
    const total = ev.totals[i], score = ev.round_scores[i];
    const bonus = ev.declarer === i ? score - total : 0;
    return h('div', { class: `reveal-row ${ev.declarer === i ? 'declarer' : ''} ${total === low ? 'lowest' : ''}`, dataset: { seat: i } },
      h('div', { class: 'rv-name' }, h('b', null, ctx.shortName(i)), ev.declarer === i ? ' ★' : ''),
      h('div', { class: 'rv-cards' }, (ev.hands[i] || []).map((c) => cardEl(c, { cls: 'mini' }))),
      h('div', { class: 'rv-sums' },
        h('span', { class: 'rv-total' }, t('Total'), ' ', h('b', null, String(total))),
        ev.declarer === i ? h('span', { class: `rv-bonus ${bonus < 0 ? 'good' : 'bad'}` }, bonus < 0 ? t('crisp, lowest alone: −5') : t('crisp, not lowest alone: +5')) : null,
        h('span', { class: 'rv-round' }, t('this round'), ' ', `${score >= 0 ? '+' : ''}${score}`),
        h('span', { class: 'rv-score' }, t('in all'), ' ', h('b', null, String(ev.scores[i])))));
  }));
}

function resolveHint(card) {
  const r = card.slice(0, -1);
  if (r === 'K') return t('a King: use it');
  if (r === 'Q') return t('a Queen: swap with another player, or discard');
  if (r === 'J') return t('a Jack: see your centre card, or discard');
  return t('swap it into a slot, or discard it');
}

function crispBox(ctx) {
  const v = ctx.view;
  if (ctx.me == null) return null;
  if (ctx.has('crisp')) {
    const d = ctx.deadline((x) => x.action === `close ${ctx.me}`);
    return h('div', { class: 'crisp-call' },
      h('button', { type: 'button', class: 'btn crisp-btn', dataset: { act: 'crisp', key: ' ' }, onclick: () => ctx.act('crisp'),
        'aria-keyshortcuts': 'Space' }, t('CRISP!'), d ? h('span', { class: 'cd' }, ' ', ctx.clock(d)) : null,
      d ? h('span', { class: 'cdbar', dataset: { deadline: d.at, bar: '3' }, 'aria-hidden': 'true' }) : null),
      h('span', { class: 'muted small' }, t('Your total is low? Call it: everyone else gets one last turn.')));
  }
  if (v.crisp != null) return h('div', { class: 'crisp-call done' }, t('{name} called crisp — last turns: {list}', { name: ctx.shortName(v.crisp), list: (v.last_turns || []).map((s) => ctx.shortName(s)).join(', ') || '—' }));
  return null;
}

function roundPanel(ctx) {
  const lr = ctx.view.last_round;
  if (!lr || ctx.ui.roundClosed === lr.round) return null;
  const ev = ctx.ui.roundEnd && ctx.ui.roundEnd.round === lr.round ? ctx.ui.roundEnd : {};
  const r = { ...ev, ...lr, hands: lr.hands || ev.hands || null };
  const n = ctx.n;
  const at = (list, i) => (list ? list[i] : undefined);
  return h('div', { class: 'round-result panel', id: 'round-result', role: 'region', 'aria-label': t('Round {n} result', { n: r.round }) },
    h('div', { class: 'rr-head' }, h('b', null, t('Round {n} result', { n: r.round })),
      h('button', { type: 'button', class: 'btn ghost small', 'aria-label': t('Close'), onclick: () => { ctx.ui.roundClosed = r.round; ctx.rerender(); } }, '✕')),
    h('table', { class: 'rr' },
      h('thead', null, h('tr', null, h('th', null, ''), r.hands ? h('th', null, t('cards')) : null, h('th', null, t('total')), h('th', null, t('round')), h('th', null, t('score')))),
      h('tbody', null, Array.from({ length: n }, (_, i) => h('tr', { class: r.declarer === i ? 'declarer' : '' },
        h('td', null, ctx.shortName(i), r.declarer === i ? ' ★' : ''),
        r.hands ? h('td', { class: 'cards-inline' }, cardsText(at(r.hands, i) || [])) : null,
        h('td', null, String(at(r.totals, i) ?? '')),
        h('td', null, `+${at(r.round_scores, i) ?? 0}`),
        h('td', null, h('b', null, String(at(r.scores, i) ?? ''))))))));
}
