// A rejected message in the player's words: the server's `error` carries the English message,
// its template and the values it names (`params`, docs/protocol.md "Error parameters"); the
// client translates the template (the English text is the key, i18n.js) and fills it with
// the players' names, the cards drawn as cards and the suits as symbols. Decided here: a
// message the UI language has no words for (the room's own sentences, mostly about seats and
// limits; tests/test_web_i18n.py makes sure every engine rejection has them) is said by its
// code, so a Russian page never shows English.

import { h } from './dom.js';
import { t, mark, hasTranslation } from './i18n.js';
import { cardText, suitText } from './cards.js';

const RANK_WORD = { A: mark('ace'), J: mark('jack'), Q: mark('queen'), K: mark('king') };

/** What each code means, for a message whose own sentence has no translation. */
const CODE_TEXT = {
  bad_message: mark('The room did not understand that message.'),
  invalid: mark('That is not a move in the notation: {action}'),
  illegal: mark('The rules do not allow that move now.'),
  stale: mark('The table moved on before your move arrived: look again, then play.'),
  forbidden: mark('That is not allowed here.'),
  not_found: mark('No such table.'),
  full: mark('That seat or table is taken.'),
  rate_limited: mark('Too many messages: wait a moment.'),
  too_large: mark('That message is too long.'),
  name_taken: mark('That name is taken: pick another one.'),
};

/** One parameter as the page shows it. @param {string} key @param {any} value @param {(i: number) => string} name */
function shown(key, value, name) {
  if ((key === 'seat' || key.endsWith('_seat')) && typeof value === 'number') return h('b', { class: 'who' }, name(value));
  if ((key === 'card' || key.endsWith('_card')) && typeof value === 'string') return cardText(value);
  if ((key === 'cards' || key.endsWith('_cards')) && Array.isArray(value)) return value.flatMap((c, i) => (i ? [' ', cardText(c)] : [cardText(c)]));
  if (key === 'suit' && typeof value === 'string') return suitText(value);
  if (key === 'rank' && typeof value === 'string') return t(RANK_WORD[value] || value);
  if (key === 'action' && typeof value === 'string') return h('code', null, value);
  return String(value);
}

/** A translated template with `{key}` fields replaced by nodes. @param {string} text @param {Object<string, any>} params @param {(i: number) => string} name */
function filled(text, params, name) {
  return text.split(/\{(\w+)\}/).map((part, i) => (i % 2 ? (part in params ? shown(part, params[part], name) : `{${part}}`) : part));
}

/**
 * The error as nodes in the UI language.
 * @param {{code?: string, message?: string, template?: string, params?: Object<string, any>}} msg the server's `error`
 * @param {(i: number) => string} name a seat's display name
 * @param {string | null} [action] the action the player sent, if it was one
 */
export function errorNodes(msg, name, action = null) {
  const params = msg.params || {};
  const template = msg.template || msg.message || '';
  // "stale" says how the protocol works (seq numbers), not what happened at the table
  if (msg.code !== 'stale' && template && hasTranslation(template)) return filled(t(template), params, name);
  const code = msg.code && CODE_TEXT[msg.code] ? msg.code : null;
  if (code === 'invalid' && !action) return t('That is not a move in the notation.');
  if (code) return filled(t(CODE_TEXT[code]), { action: action || '' }, name);
  return t('Error');
}
