// The leaderboard of a game (#/top/{game}): the top 100 by display rating among players with at
// least 10 games (GET /api/leaderboard/{game}); bots are on it too.

import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { getJSON } from './api.js';
import { gameList, gameTitle } from './games/index.js';
import { playerLink } from './links.js';
import { leaderboardHash } from './routes.js';
import { ratingText } from './profile.js';

export function renderLeaderboard(root, route, rerender) {
  const res = getJSON(`/api/leaderboard/${encodeURIComponent(route.game)}`, rerender);
  clear(root);
  const page = h('main', { class: 'page leaderboard', id: 'leaderboard' },
    h('nav', { class: 'game-tabs', 'aria-label': t('Game') },
      gameList().map((m) => m.name).map((g) => h('a', { class: `btn ${g === route.game ? 'primary' : 'ghost'}`, href: leaderboardHash(g),
        'aria-current': g === route.game ? 'page' : null }, gameTitle(g)))));
  root.append(page);
  const panel = h('section', { class: 'panel' }, h('h1', null, t('Leaderboard: {game}', { game: gameTitle(route.game) })));
  page.append(panel);
  if (!res.data) {
    panel.append(h('p', { class: res.error ? 'error' : 'muted', id: 'page-state' },
      res.error ? (res.status === 404 ? t('No such game.') : res.error) : t('Loading…')));
    return;
  }
  const players = res.data.players || [];
  if (!players.length) {
    panel.append(h('p', { class: 'muted', id: 'page-state' }, t('Nobody has played 10 rated games of this yet.')));
    return;
  }
  panel.append(h('table', { class: 'grid', id: 'board' },
    h('thead', null, h('tr', null, h('th', { class: 'num' }, '#'), h('th', null, t('Player')),
      h('th', { class: 'num' }, t('Rating')), h('th', { class: 'num' }, t('Games')))),
    h('tbody', null, players.map((p, i) => h('tr', { dataset: { player: p.player } },
      h('td', { class: 'num' }, String(i + 1)),
      h('td', null, playerLink(p.player, p.player.startsWith('bot:') ? t('{level} bot', { level: t(p.player.slice(4)) }) : p.name),
        p.player.startsWith('bot:') ? [' ', h('span', { class: 'badge bot' }, t('BOT'))] : null),
      h('td', { class: 'num', title: `μ ${p.mu.toFixed(2)} σ ${p.sigma.toFixed(2)}` }, ratingText(p)),
      h('td', { class: 'num' }, String(p.games)))))),
  h('p', { class: 'muted small' }, t('Ratings are OpenSkill estimates, shown cautiously: they rise as more games make them surer.')));
}
