// The games: each one's drawing module (./<game>.js, the contract below) and its metadata,
// which the server serves from the engine at GET /api/games (title, blurb, seats, the lobby's
// options per seat count, labels). Nothing here names a game's rules or settings.

import { t, addRussian } from '../i18n.js';
import crisp from './crisp.js';
import craits from './craits.js';
import cribbage from './cribbage.js';
import krypkasino from './krypkasino.js';

/**
 * A game's drawing module (the default export of ./<game>.js). Every member is optional;
 * table.js calls each inside a guard, so a bug in one leaves the table usable.
 * @typedef {object} GameModule
 * @property {Object<string, string | string[]>} [ru] its Russian strings, keyed by the English text
 * @property {boolean} [lowWins] the lowest score wins (the result table sorts up)
 * @property {(ctx: any, events: any[], prev: any) => void} [onEvents] new events, before the redraw
 * @property {(ctx: any) => any} [center] the middle of the table
 * @property {(ctx: any) => any} [mine] your hand, under your seat
 * @property {(ctx: any, i: number) => any} [seatExtra] more in seat i's panel
 * @property {(ctx: any) => any} [headInfo] a short line in the header
 * @property {(ctx: any) => {act: string, label: any}[]} [bar] buttons for the action bar
 * @property {(ctx: any, action: string) => boolean} [covers] action is offered elsewhere: no fallback button
 * @property {(ctx: any) => any} [status] the status line
 * @property {(ctx: any, e: KeyboardEvent) => boolean} [onKey] a key press; true if handled
 * @property {(ctx: any) => string[][]} [shortcuts] [key, what it does] for the key list
 * @property {(ev: any, ctx: any) => any} [narrate] one event as a history line (or null)
 * @property {(ctx: any) => any} [resultExtra] more in the result dialog
 * @property {(ctx: any, root: Element) => void} [afterRender] after the table is drawn (animations)
 * @property {(ctx: any, events: any[]) => (import('../moment.js').Moment | null)} [moment] the reveal of a round's / hand's / deal's end among new events (moment.js)
 * @property {(ev: any, ctx: any) => (string | null)} [sound] the sound of one event: 'card', 'call' (a declaration), 'sweep' (sound.js)
 */

/**
 * One game as GET /api/games serves it (docs/protocol.md).
 * @typedef {{key: string, label: string, kind: 'check' | 'select', unit: string, hint?: string}} OptionLabel
 * @typedef {{key: string, values: any[], default: any}} LobbyField
 * @typedef {object} GameMeta
 * @property {string} name
 * @property {string} title
 * @property {string} blurb
 * @property {number} min_players
 * @property {number} max_players
 * @property {number} default_players
 * @property {OptionLabel[]} options every option the host may pick, in order, with its label
 * @property {Object<string, LobbyField[]>} lobby the options offered at each seat count
 * @property {Object<string, any>} fixed what the lobby sets itself
 * @property {boolean} [tutorial] whether the game has a tutorial (a `tutorial` message starts one)
 * @property {{level: string, strength: string, about: string}[]} [bot_levels] the bot levels, weakest first
 */

/** @type {Object<string, GameModule>} */
export const GAMES = { crisp, craits, cribbage, krypkasino };
for (const game of Object.values(GAMES)) if (game.ru) addRussian(game.ru);

/** @type {GameMeta[]} */
let catalog = [];

/** Fetch the games' metadata once, before the first render. */
export async function loadGames() {
  const res = await fetch('/api/games');
  if (!res.ok) throw new Error(`GET /api/games: ${res.status}`);
  catalog = (await res.json()).games;
}

/** Every game, in the lobby's order. */
export function gameList() { return catalog; }

/** @param {string} g */
export function gameMeta(g) { return catalog.find((m) => m.name === g) || null; }

/** @param {string} g */
export function gameTitle(g) { const m = gameMeta(g); return m ? t(m.title) : g; }

/** @param {string} g */
export function gameBlurb(g) { const m = gameMeta(g); return m ? t(m.blurb) : ''; }

/** Game g's bot levels with their strength and one line about each (English: translate with t). @param {string} g */
export function botLevels(g) { const m = gameMeta(g); return (m && m.bot_levels) || []; }

/** The options the host picks for game g at a table of n seats. @param {string} g @param {number} n */
export function lobbyFields(g, n) { const m = gameMeta(g); return (m && m.lobby[String(n)]) || []; }

/** The option `key` of game g: its label, kind and unit. @param {string} g @param {string} key @returns {OptionLabel} */
export function optionLabel(g, key) {
  const m = gameMeta(g);
  return (m && m.options.find((o) => o.key === key)) || { key, label: key, kind: 'select', unit: '' };
}

/** A value of an option as the lobby shows it. @param {OptionLabel} opt @param {any} v */
export function optionValueText(opt, v) {
  if (v === null) return opt.unit === 's' ? t('none') : '—';
  if (v === true) return t('on');
  if (v === false) return t('off');
  if (opt.unit === 's') return t('{n} s', { n: v });
  if (typeof v === 'string') return t(v);
  return String(v);
}

/** Short chips describing a table's settings (lobby list and table header). @param {string} game @param {any} options */
export function optionChips(game, options) {
  const out = [];
  const meta = gameMeta(game);
  for (const d of meta ? meta.options : []) {
    if (!options || !(d.key in options)) continue;
    const v = options[d.key];
    if (d.kind === 'check') { if (v) out.push(t(d.label)); continue; }
    out.push(`${t(d.label)}: ${optionValueText(d, v)}`);
  }
  return out;
}
