// Pieces shared by the game modules.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { backEl, cardText } from '../cards.js';

/** A small fan of face-down cards with the count, for another seat's hand. */
export function handBacks(n, label) {
  const shown = Math.min(n, 7);
  return h('div', { class: 'backs', role: 'img', 'aria-label': label || t('{n} cards in hand', { n }) },
    Array.from({ length: shown }, () => backEl({ cls: 'mini' })).map((el) => { el.removeAttribute('role'); el.removeAttribute('aria-label'); el.setAttribute('aria-hidden', 'true'); return el; }),
    h('span', { class: 'nback', 'aria-hidden': 'true' }, String(n)));
}

/** Result panel of the previous round/hand/deal, closable, keyed by its number. */
export function lastPanel(ctx, key, title, body) {
  if (ctx.ui.closedPanel === key) return null;
  return h('div', { class: 'round-result panel', id: 'round-result', role: 'region', 'aria-label': title },
    h('div', { class: 'rr-head' }, h('b', null, title),
      h('button', { type: 'button', class: 'btn ghost small', 'aria-label': t('Close'), onclick: () => { ctx.ui.closedPanel = key; ctx.rerender(); } }, '✕')),
    body);
}

/** The digit key for the k-th item (0-based): 1..9 then 0. */
export function digitKey(k) { return k < 9 ? String(k + 1) : k === 9 ? '0' : null; }
export function digitIndex(key) { return /^[0-9]$/.test(key) ? (key === '0' ? 9 : +key - 1) : -1; }

/** The cut for the deal: each round's cards by seat (ties cut again), then who deals. */
export function cutLine(ev, ctx) {
  const rounds = (ev.draws || []).map((r, k) => [k ? ' · ' : '', (r || []).map(([s, c], j) => [j ? ', ' : '', ctx.shortName(s), ' ', cardText(c)])]);
  return [t('Cut for the deal'), ': ', rounds, rounds.length ? ' → ' : '', h('b', null, ctx.shortName(ev.dealer)), ' ', t('deals')];
}
