// Names as links to the players' profiles.

import { h } from './dom.js';
import { profileHash } from './routes.js';

/** The player id of a table seat: a person's id, or `bot:LEVEL` (bots are rated players too). */
export function seatPlayer(s) {
  if (!s) return null;
  if (s.player) return s.player;
  return s.bot ? `bot:${s.bot}` : null;
}

/** `label` as a link to the profile of `player`, or plain text when the id is unknown. */
export function playerLink(player, label, cls = 'plink') {
  if (!player) return label;
  return h('a', { class: cls, href: profileHash(player), dataset: { player } }, label);
}
