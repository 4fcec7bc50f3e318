// Card faces drawn with CSS (index corners, big pip or court letter), readable on a phone.
// Cards on the wire are canonical strings: rank then suit, e.g. "10H", "QS" (notation §1).

import { h } from './dom.js';
import { t } from './i18n.js';

export const SUIT_SYM = { S: '♠', H: '♥', D: '♦', C: '♣' };
export const SUITS = ['S', 'H', 'D', 'C'];
const RANK_NAME = {
  A: 'Ace', J: 'Jack', Q: 'Queen', K: 'King', 2: 'Two', 3: 'Three', 4: 'Four', 5: 'Five',
  6: 'Six', 7: 'Seven', 8: 'Eight', 9: 'Nine', 10: 'Ten',
};
const SUIT_NAME = { S: 'of spades', H: 'of hearts', D: 'of diamonds', C: 'of clubs' };
export const SUIT_WORD = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };

export function split(card) { return { rank: card.slice(0, -1), suit: card.slice(-1) }; }

export function isRed(suit) { return suit === 'H' || suit === 'D'; }

/** "Queen of hearts" / "Дама червей". */
export function cardName(card) {
  const { rank, suit } = split(card);
  return `${t(RANK_NAME[rank] || rank)} ${t(SUIT_NAME[suit] || suit)}`;
}

/** Inline text form, coloured: Q♥. */
export function cardText(card) {
  const { rank, suit } = split(card);
  return h('span', { class: `ct s-${suit}`, title: cardName(card) }, rank, SUIT_SYM[suit]);
}

export function cardsText(cards) {
  const out = [];
  (cards || []).forEach((c, i) => { if (i) out.push(' '); out.push(cardText(c)); });
  return out;
}

export function suitText(suit) {
  return h('span', { class: `ct s-${suit}`, title: t(SUIT_WORD[suit]) }, SUIT_SYM[suit]);
}

/**
 * A face-up card. opts: act (action string; makes it a button), onClick, selected,
 * label (aria-label override), cls (extra classes), data (dataset), disabled.
 */
export function cardEl(card, opts = {}) {
  const { rank, suit } = split(card);
  const sym = SUIT_SYM[suit];
  const clickable = !!(opts.onClick || opts.act);
  const court = rank === 'J' || rank === 'Q' || rank === 'K';
  const cls = ['card', `s-${suit}`, isRed(suit) ? 'red' : 'black', court ? 'court' : '',
    opts.selected ? 'selected' : '', clickable ? 'playable' : '', opts.cls || ''].join(' ');
  const label = opts.label || cardName(card);
  const inner = [
    h('span', { class: 'idx tl', 'aria-hidden': 'true' }, h('b', null, rank), h('i', null, sym)),
    h('span', { class: 'mid', 'aria-hidden': 'true' }, court ? h('span', { class: 'court-l' }, rank, h('small', null, sym)) : sym),
    h('span', { class: 'idx br', 'aria-hidden': 'true' }, h('b', null, rank), h('i', null, sym)),
  ];
  const attrs = {
    class: cls, 'aria-label': label, title: label,
    dataset: { card, ...(opts.act ? { act: opts.act } : {}), ...(opts.data || {}) },
  };
  if (clickable) {
    attrs.type = 'button';
    if (opts.selected != null) attrs['aria-pressed'] = opts.selected ? 'true' : 'false';
    attrs.onclick = opts.onClick || null;
    attrs.disabled = opts.disabled;
    return h('button', attrs, inner);
  }
  attrs.role = 'img';
  return h('div', attrs, inner);
}

/** A face-down card (or a clickable slot). opts like cardEl. */
export function backEl(opts = {}) {
  const clickable = !!(opts.onClick || opts.act);
  const cls = ['card', 'back', opts.selected ? 'selected' : '', clickable ? 'playable' : '', opts.cls || ''].join(' ');
  const attrs = { class: cls, 'aria-label': opts.label || t('face-down card'), title: opts.label || t('face-down card'),
    dataset: { ...(opts.act ? { act: opts.act } : {}), ...(opts.data || {}) } };
  const inner = opts.text ? h('span', { class: 'back-text', 'aria-hidden': 'true' }, opts.text) : null;
  if (clickable) {
    attrs.type = 'button';
    attrs.onclick = opts.onClick || null;
    if (opts.selected != null) attrs['aria-pressed'] = opts.selected ? 'true' : 'false';
    return h('button', attrs, inner);
  }
  attrs.role = 'img';
  return h('div', attrs, inner);
}

/** A face-down pile with its size. */
export function pileEl(size, opts = {}) {
  const el = backEl({ ...opts, label: opts.label || t('{n} cards', { n: size }), cls: `pile ${opts.cls || ''} ${size ? '' : 'empty'}` });
  el.append(h('span', { class: 'count', 'aria-hidden': 'true' }, String(size)));
  return el;
}

/** An empty placeholder where a card can go. */
export function emptyEl(label, opts = {}) {
  return h('div', { class: `card empty ${opts.cls || ''}`, role: 'img', 'aria-label': label, title: label },
    h('span', { class: 'back-text' }, opts.text || ''));
}

const RANK_ORDER = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];
/** Card order of notation §1.1 (rank, then suit S H D C). */
export function cardKey(c) { const { rank, suit } = split(c); return RANK_ORDER.indexOf(rank) * 4 + SUITS.indexOf(suit); }
export function sortCards(cards) { return [...cards].sort((a, b) => cardKey(a) - cardKey(b)); }
