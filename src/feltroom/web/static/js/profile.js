// A player's page (#/p/{player}): name, ratings per game, and the finished games, newest first,
// each linking to its replay (from the player's seat); pages of 50 with ?before=<next> (GET /api/players/{player}).

import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { getJSON } from './api.js';
import { gameTitle } from './games/index.js';
import { leaderboardHash, profileHash, replayHash } from './routes.js';

/** The player's seat in a history row, when its name is at exactly one seat (else the public view). */
function ownSeat(p, g) {
  const seats = g.seats || [];
  const at = seats.map((n, i) => (n === p.name ? i : -1)).filter((i) => i >= 0);
  return at.length === 1 ? at[0] : null;
}

export function when(epoch) {
  if (epoch == null) return '';
  return new Date(epoch * 1000).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
}

export function ratingText(r) {
  return r == null ? '—' : `${Math.round(r.rating)}${r.provisional ? '?' : ''}`;
}

function botLabel(player) {
  return player.startsWith('bot:') ? t('{level} bot', { level: t(player.slice(4)) }) : null;
}

export function renderProfile(root, route, rerender) {
  const url = `/api/players/${encodeURIComponent(route.player)}${route.before ? `?before=${route.before}` : ''}`;
  const res = getJSON(url, rerender);
  clear(root);
  const page = h('main', { class: 'page profile', id: 'profile' });
  root.append(page);
  if (!res.data) {
    page.append(h('p', { class: res.error ? 'error big' : 'muted big', role: res.error ? 'alert' : 'status', id: 'page-state' },
      res.error ? (res.status === 404 ? t('No such player.') : res.error) : t('Loading…')));
    return;
  }
  const p = res.data;
  const games = Object.keys(p.ratings || {}).sort();
  page.append(
    h('section', { class: 'panel phead' },
      h('h1', { id: 'profile-name' }, botLabel(p.player) || p.name || p.player,
        p.registered ? h('span', { class: 'chip ok', title: t('a protected name') }, t('registered')) : null,
        p.player.startsWith('bot:') ? h('span', { class: 'badge bot' }, t('BOT')) : null),
      h('p', { class: 'muted small' }, t('Player id {id}', { id: p.player }))),
    h('section', { class: 'panel' },
      h('h2', null, t('Ratings')),
      games.length ? h('table', { class: 'grid ratings', id: 'ratings' },
        h('thead', null, h('tr', null, h('th', null, t('Game')), h('th', { class: 'num' }, t('Rating')), h('th', { class: 'num' }, t('Games')), h('th', null, ''))),
        h('tbody', null, games.map((g) => {
          const r = p.ratings[g];
          return h('tr', { dataset: { game: g } },
            h('td', null, gameTitle(g)),
            h('td', { class: 'num', title: `μ ${r.mu.toFixed(2)} σ ${r.sigma.toFixed(2)}` }, ratingText(r)),
            h('td', { class: 'num' }, String(r.games)),
            h('td', null, r.provisional ? h('span', { class: 'muted small' }, t('provisional')) : null, ' ',
              h('a', { href: leaderboardHash(g) }, t('leaderboard'))));
        }))) : h('p', { class: 'muted' }, t('No rated games yet.')),
      games.length ? h('p', { class: 'muted small' }, t('A “?” marks a provisional rating: fewer than 10 games.')) : null),
    h('section', { class: 'panel' },
      h('h2', null, t('Games')),
      (p.games || []).length ? h('table', { class: 'grid history-table', id: 'games' },
        h('thead', null, h('tr', null, h('th', null, t('Ended')), h('th', null, t('Game')), h('th', null, t('Players')),
          h('th', { class: 'num' }, t('Place')), h('th', null, ''))),
        h('tbody', null, p.games.map((g) => h('tr', { dataset: { table: g.table }, class: g.rank === 1 ? 'won' : '' },
          h('td', { class: 'nowrap' }, when(g.ended)),
          h('td', null, gameTitle(g.game)),
          h('td', null, (g.seats || []).map((name, i) => h('span', { class: `pseat ${(g.winners || []).includes(i) ? 'winner' : ''}` },
            (g.winners || []).includes(i) ? '★ ' : '', name == null ? '?' : botLabel(name) || name, (g.scores || [])[i] != null ? h('small', null, ` ${g.scores[i]}`) : null))),
          h('td', { class: 'num' }, g.rank != null ? String(g.rank) : '—'),
          h('td', null, h('a', { class: 'btn small', href: replayHash(g.table, ownSeat(p, g), null), dataset: { replay: g.table }, title: t('Replay'), 'aria-label': t('Replay') }, '▶', h('span', { class: 'wide' }, ' ', t('Replay')))))))) :
        h('p', { class: 'muted' }, t('No finished games yet.')),
      h('div', { class: 'pager' },
        route.before ? h('a', { class: 'btn ghost', href: profileHash(p.player), id: 'newest' }, t('Newest')) : null,
        p.next != null ? h('a', { class: 'btn', id: 'older', href: `${profileHash(p.player)}?before=${p.next}` }, t('Older games')) : null)));
}
