// The addresses of the pages beside the lobby and the tables (no imports: state.js parses them):
// #/replay/{table}?seat=N&step=K (the server sends /replay/{table} here), #/p/{player}?before=E,
// #/top/{game}.

/** @param {string} hash @returns {any} a route, or null for the lobby and table routes */
export function pageRoute(hash) {
  let m = hash.match(/^#\/replay\/([^?]+)(?:\?(.*))?$/);
  if (m) {
    const q = new URLSearchParams(m[2] || '');
    const seat = q.get('seat');
    const step = q.get('step');
    return { screen: 'replay', table: decodeURIComponent(m[1]), seat: seat != null && /^\d+$/.test(seat) ? +seat : null,
      step: step != null && /^\d+$/.test(step) ? +step : null };
  }
  m = hash.match(/^#\/p\/([^?]+)(?:\?before=([^&]+))?$/);
  if (m) return { screen: 'profile', player: decodeURIComponent(m[1]), before: m[2] || null };
  m = hash.match(/^#\/top\/([^?]+)$/);
  if (m) return { screen: 'leaderboard', game: decodeURIComponent(m[1]) };
  return null;
}

/** @param {string} table @param {number | null} seat @param {number | null} step */
export function replayHash(table, seat, step) {
  const q = new URLSearchParams();
  if (seat != null) q.set('seat', String(seat));
  if (step != null) q.set('step', String(step));
  const qs = q.toString();
  return `#/replay/${encodeURIComponent(table)}${qs ? `?${qs}` : ''}`;
}

/** @param {string} player */
export function profileHash(player) { return `#/p/${encodeURIComponent(player)}`; }
/** @param {string} game */
export function leaderboardHash(game) { return `#/top/${encodeURIComponent(game)}`; }
