// The installable app (docs/web.md, "Installable app"): the manifest is linked from index.html,
// and the service worker (/sw.js, scope /) keeps the static client for offline start; it never
// keeps game data, /api or /ws (sw.js says how).

/** Register the service worker, where the browser has them (not over plain http but localhost). */
export function registerWorker() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((e) => console.warn('service worker:', e));
}
