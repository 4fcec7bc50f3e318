// The service worker of the installable app (docs/web.md, "Installable app"), served at /sw.js
// so that its scope is the whole site. It keeps only the static client: the page (/), the
// manifest and /static/… (scripts, styles, icons, rules texts), fetched from the network first
// and kept for an offline start. Everything else (/api/…, /ws, /replay/…, the records) it never
// answers or keeps: the browser fetches it as if there were no worker.

/** This script's global: a service worker's (`tsconfig.sw.json` checks it with the webworker lib). */
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

const CACHE = 'feltroom-static-v1';
const SHELL = ['/', '/manifest.webmanifest', '/static/css/style.css', '/static/css/pages.css', '/static/js/main.js',
  '/static/icons/icon.svg', '/static/icons/icon-192.png'];

/** Whether `url` is part of the static client (the only requests this worker handles). */
function isStatic(url) {
  return url.origin === sw.location.origin
    && (url.pathname === '/' || url.pathname === '/manifest.webmanifest' || url.pathname.startsWith('/static/'));
}

sw.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => sw.skipWaiting()));
});

sw.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith('feltroom-') && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => sw.clients.claim()));
});

sw.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (!isStatic(url)) return;
  e.respondWith(fetch(req).then((res) => {
    if (res.ok && res.type === 'basic') {
      const copy = res.clone();
      e.waitUntil(caches.open(CACHE).then((c) => c.put(req, copy)));
    }
    return res;
  }).catch(() => caches.match(req, { ignoreSearch: true }).then((hit) => hit || Response.error())));
});
