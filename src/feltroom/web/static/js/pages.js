// The pages beside the lobby and the tables: the replay viewer, profiles and leaderboards.
// main.js asks pageRoute() first and hands these screens to renderPage().

import { replayRoute, renderReplay } from './replay.js';
import { renderProfile } from './profile.js';
import { renderLeaderboard } from './leaderboard.js';

export function pageRoute(hash) {
  const replay = replayRoute(hash);
  if (replay) return replay;
  let m = hash.match(/^#\/p\/([^?]+)(?:\?before=([\d.]+))?$/);
  if (m) return { screen: 'profile', player: decodeURIComponent(m[1]), before: m[2] || null };
  m = hash.match(/^#\/top\/([^?]+)$/);
  if (m) return { screen: 'leaderboard', game: decodeURIComponent(m[1]) };
  return null;
}

export function renderPage(root, route, rerender) {
  if (route.screen === 'replay') renderReplay(root, route, rerender);
  else if (route.screen === 'profile') renderProfile(root, route, rerender);
  else if (route.screen === 'leaderboard') renderLeaderboard(root, route, rerender);
}
