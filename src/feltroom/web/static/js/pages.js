// The pages beside the lobby and the tables: the replay viewer, profiles and leaderboards
// (their routes: routes.js). main.js hands these screens to renderPage().

import { renderReplay } from './replay.js';
import { renderProfile } from './profile.js';
import { renderLeaderboard } from './leaderboard.js';

/** @param {HTMLElement} root @param {any} route @param {() => void} rerender */
export function renderPage(root, route, rerender) {
  if (route.screen === 'replay') renderReplay(root, route, rerender);
  else if (route.screen === 'profile') renderProfile(root, route, rerender);
  else if (route.screen === 'leaderboard') renderLeaderboard(root, route, rerender);
}
