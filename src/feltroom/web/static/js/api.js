// GET requests to the room's JSON endpoints for the pages, cached per URL for a short while
// so that re-renders do not refetch; the page re-renders when an answer arrives.

const cache = new Map(); // url -> {data, error, status, at, loading}
const FRESH_MS = 15000;

/** The cached answer for `url` ({data} or {error, status}, or {loading}); fetches when stale. */
export function getJSON(url, rerender) {
  let e = cache.get(url);
  if (e && (e.loading || performance.now() - e.at < FRESH_MS)) return e;
  e = { loading: true, data: e && e.data, at: performance.now() };
  cache.set(url, e);
  fetch(url).then(async (r) => {
    let body = null;
    try { body = await r.json(); } catch { body = null; }
    if (r.ok) Object.assign(e, { data: body, error: null, status: r.status });
    else Object.assign(e, { data: null, error: (body && body.error) || `HTTP ${r.status}`, status: r.status });
  }).catch((err) => Object.assign(e, { data: null, error: String(err), status: 0 }))
    .finally(() => { e.loading = false; e.at = performance.now(); rerender(); });
  return e;
}
