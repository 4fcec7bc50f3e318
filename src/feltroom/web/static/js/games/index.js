// Per-game metadata for the lobby: seat ranges and exactly the host settings of notation.md.

import { t } from '../i18n.js';
import crisp from './crisp.js';
import craits from './craits.js';
import cribbage from './cribbage.js';
import krypkasino from './krypkasino.js';

export const GAMES = { crisp, craits, cribbage, krypkasino };
export const GAME_ORDER = ['crisp', 'craits', 'cribbage', 'krypkasino'];

const TURN_TIME = { key: 'turn_time', label: 'Turn timer', type: 'select', values: [null, 30, 45, 60], def: null };

const CRAITS_VARIANTS = [
  ['short_game', 'Short game (hands 1–8)'],
  ['dealer_follows_direction', 'Dealer follows the direction of play'],
  ['remove_kq_small', 'Remove kings and queens (2–3 players)'],
  ['one_card_on_one_card_deal', '“One card” on the one-card deal'],
  ['idiot_card', 'Idiot card (draw at once)'],
  ['count_out_continues', 'Going out during the count continues it'],
  ['threes_cancel_eights', 'Threes cancel eights'],
  ['punitive_scoring', 'Punitive scoring'],
  ['going_out_minus_10', 'Going out scores −10'],
  ['face_card_functions', 'Face cards have functions'],
];

/** Lobby options: {key, label, type: select|check, values, def, when(seats)} */
export const LOBBY_OPTIONS = {
  crisp: [
    { key: 'end_limit', label: 'End limit', type: 'select', values: [50, 100, 150], def: 100 },
    { key: 'draw_time', label: 'Draw timer', type: 'select', values: [null, 30, 45, 60], def: null },
    { key: 'draw_from_discard', label: 'Draw from the discard pile', type: 'check', def: false },
  ],
  cribbage: [
    { key: 'target', label: 'Target', type: 'select', values: [61, 91, 121, 241], def: 121 },
    { key: 'counting', label: 'Counting', type: 'select', values: ['manual', 'automatic'], def: 'manual' },
    { key: 'teams', label: 'Teams', type: 'select', def: 'none', when: (n) => n === 4 || n === 6,
      valuesFor: (n) => (n === 4 ? ['none', '2x2'] : n === 6 ? ['none', '2x3', '3x2'] : ['none']) },
    { key: 'crib_flush', label: 'Crib flush', type: 'select', values: ['hand', 'five'], def: 'hand' },
    TURN_TIME,
  ],
  craits: [
    ...CRAITS_VARIANTS.map(([key, label]) => ({ key, label, type: 'check', def: false })),
    { key: 'decks', label: 'Decks', type: 'select', values: [1, 2], def: 2, when: (n) => n === 6 },
    TURN_TIME,
  ],
  krypkasino: [
    { key: 'dealer_rounds', label: 'Dealer rounds', type: 'select', values: [1, 2, 3, 4], def: 1 },
    TURN_TIME,
  ],
};

export const SEATS = { crisp: [2, 8], craits: [2, 10], cribbage: [2, 6], krypkasino: [2, 6] };
export const DEFAULT_SEATS = { crisp: 4, craits: 4, cribbage: 2, krypkasino: 2 };

export function gameTitle(g) {
  return t({ crisp: 'Crisp', craits: 'Craits', cribbage: 'Cribbage', krypkasino: 'Krypkasino' }[g] || g);
}

export function gameBlurb(g) {
  return t({
    crisp: 'Memory and bluff: three face-down cards, lowest total wins.',
    craits: 'Shedding game of fifteen hands with special cards.',
    cribbage: 'Pegging, fifteens and runs on the board.',
    krypkasino: 'Swedish reverse casino: avoid the points.',
  }[g] || '');
}

export function optionValueText(key, v) {
  if (v === null) return key === 'turn_time' || key === 'draw_time' ? t('none') : '—';
  if (v === true) return t('on');
  if (v === false) return t('off');
  if (key === 'turn_time' || key === 'draw_time') return t('{n} s', { n: v });
  if (typeof v === 'string') return t(v);
  return String(v);
}

/** Short chips describing a table's settings (lobby list and table header). */
export function optionChips(game, options) {
  const out = [];
  const defs = LOBBY_OPTIONS[game] || [];
  for (const d of defs) {
    if (!options || !(d.key in options)) continue;
    const v = options[d.key];
    if (d.type === 'check') { if (v) out.push(t(d.label)); continue; }
    out.push(`${t(d.label)}: ${optionValueText(d.key, v)}`);
  }
  return out;
}
