// The end of a game on the table screen: each seat's rating change (table.rating_changes), the
// rematch offer (the `rematch` message: who accepted, a countdown; `started` moves everyone to
// the new table, see main.js) and a link to the replay.

import { h } from './dom.js';
import { t } from './i18n.js';
import { replayHash } from './routes.js';

/** The rating change of each seat, or null when the table message has none. */
export function ratingChanges(ctx) {
  const list = ctx.info.rating_changes;
  if (!Array.isArray(list) || !list.length) return null;
  return h('table', { class: 'scores rating-changes', id: 'rating-changes' },
    h('thead', null, h('tr', null, h('th', null, t('Player')), h('th', { class: 'num' }, t('Rating')), h('th', { class: 'num' }, t('Change')))),
    h('tbody', null, list.map((c) => {
      const rated = c.before != null && c.after != null;
      const d = rated ? Math.round(c.after) - Math.round(c.before) : null;
      return h('tr', { dataset: { seat: c.seat } },
        h('td', null, ctx.name(c.seat)),
        h('td', { class: 'num' }, c.after != null ? String(Math.round(c.after)) : t('unrated')),
        h('td', { class: `num delta ${d > 0 ? 'up' : d < 0 ? 'down' : ''}` }, d == null ? '—' : d > 0 ? `+${d}` : String(d)));
    })));
}

/** The rematch button and the state of the offer, for a seated player of a finished game. */
export function rematchBox(ctx, send) {
  const { st, info, view } = ctx;
  if (st.replay || info.state !== 'over' || !view || !view.over) return null;
  const offer = st.rematch && st.rematch.table === info.table ? st.rematch : null;
  const seated = ctx.me != null;
  const accepted = offer ? offer.accepted || [] : [];
  const open = offer && offer.state === 'offered';
  const out = [];
  if (open) {
    out.push(h('p', { class: 'rematch-offer', id: 'rematch-offer', role: 'status' },
      t('Rematch offered by {names}', { names: accepted.map((s) => ctx.shortName(s)).join(', ') || '—' }), ' · ',
      h('span', { class: 'clock', dataset: { deadline: offer.expires }, role: 'timer' }, '')));
  } else if (offer && (offer.state === 'declined' || offer.state === 'lapsed')) {
    out.push(h('p', { class: 'muted', id: 'rematch-offer' }, offer.state === 'declined' ? t('The rematch was declined.') : t('The rematch offer lapsed.')));
  }
  if (seated) {
    const mine = open && accepted.includes(ctx.me);
    out.push(h('button', { type: 'button', class: 'btn primary', id: 'rematch-btn', disabled: mine,
      onclick: () => send({ type: 'rematch', table: st.id }, { kind: 'rematch', table: st.key }) },
    mine ? t('Waiting for the others…') : open ? t('Accept the rematch') : t('Rematch')));
  }
  return out.length ? h('div', { class: 'rematch' }, out) : null;
}

export function replayLink(ctx, id = 'replay-link') {
  if (ctx.st.replay) return null;
  return h('a', { class: 'btn', id, href: replayHash(ctx.st.key, ctx.me, null) }, t('Watch replay'));
}
