// Inviting to a waiting table: its link with a copy button for the seated, and for a visitor who
// came by that link a prominent "Take a seat" (the first free seat: `join` without a seat).

import { h } from './dom.js';
import { t } from './i18n.js';

export function inviteLink(table) {
  return `${location.origin}/#/t/${encodeURIComponent(table)}`;
}

async function copy(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    input.select(); // an insecure page has no clipboard API: the old way, from the selection
    return document.execCommand && document.execCommand('copy');
  }
}

export function inviteBox(ctx) {
  const { info, st } = ctx;
  if (info.state !== 'waiting') return null;
  const link = inviteLink(st.key);
  const input = h('input', { type: 'text', readonly: true, value: link, id: 'invite-link', 'aria-label': t('Invitation link'),
    onfocus: (e) => e.target.select() });
  const done = h('span', { class: 'muted small', id: 'invite-done', role: 'status' }, st.ui.copied ? t('Link copied.') : '');
  return h('div', { class: 'invite' },
    h('p', { class: 'muted small' }, t('Invite a friend: the link opens this table with a free seat.')),
    h('div', { class: 'invite-row' }, input,
      h('button', { type: 'button', class: 'btn', id: 'invite-copy',
        onclick: async () => { if (await copy(link, input)) { st.ui.copied = true; done.textContent = t('Link copied.'); } } }, t('Copy link'))),
    done);
}

export function takeSeat(ctx, send) {
  const { info, st } = ctx;
  const free = (info.seats || []).filter((s) => !(s.name || s.bot)).length;
  if (info.state !== 'waiting' || info.you != null || !free) return null;
  return h('div', { class: 'take-seat' },
    h('p', null, t('You are invited to this table: {n} free.', { n: free === 1 ? t('one seat is') : t('{n} seats are', { n: free }) })),
    h('button', { type: 'button', class: 'btn primary big', id: 'take-seat',
      onclick: () => send({ type: 'join', table: st.id }, { kind: 'join', table: st.key }) }, t('Take a seat')));
}
