// The reveal and result moments (docs/web.md, "Moments"): when a round, hand or deal ends, the
// game module says what to show (its `moment` hook, from the events the client already gets),
// and this module shows it for a few seconds or until dismissed (✕ or Esc); pointing at it keeps
// it open. It sits beside the table under the status line (a side panel, scrolling inside itself),
// and on a phone floats over the other seats and the table's centre: either way your hand, the
// status and your moves keep their place. When the game is over it goes into the result dialog.

import { h } from './dom.js';
import { t } from './i18n.js';
import { render } from './state.js';

/**
 * A moment, as a game module's `moment(ctx, events)` returns it.
 * @typedef {{key: string, title: string, seconds: number, body: (ctx: any) => any}} Moment
 */

/** Remember the moment `m` of table state `st` (replays have none: a step is not a moment). */
export function noteMoment(st, m) {
  if (!m || st.replay) return;
  clearTimeout(st.ui.momentTimer);
  st.ui.moment = { ...m, until: Date.now() + m.seconds * 1000, pinned: false };
  st.ui.momentTimer = setTimeout(() => expire(st), m.seconds * 1000 + 50);
}

function expire(st) {
  const m = st.ui.moment;
  if (!m || m.pinned || (st.upd && st.upd.view && st.upd.view.over)) return;  // the result dialog keeps it
  if (Date.now() >= m.until) { st.ui.moment = null; render(); } else st.ui.momentTimer = setTimeout(() => expire(st), m.until - Date.now() + 50);
}

/** Close the moment of `st`, if one shows. @returns {boolean} whether one did */
export function closeMoment(st) {
  if (!st.ui.moment) return false;
  clearTimeout(st.ui.momentTimer);
  st.ui.moment = null;
  render();
  return true;
}

/** Draw the moment of the table (not when the game is over: then it is in the result). */
export function renderMoment(box, ctx) {
  const m = ctx.st.ui.moment;
  const want = m && !(ctx.view && ctx.view.over) ? m.key : '';
  if (box.dataset.key === want) return;  // already drawn: keep hover and focus
  box.dataset.key = want;
  box.replaceChildren();
  if (!want) return;
  const left = Math.max(0, (m.until - Date.now()) / 1000);
  const panel = h('div', { class: 'moment panel', id: 'moment', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'moment-h', dataset: { moment: m.key },
    onpointerenter: () => { m.pinned = true; panel.classList.add('pinned'); },
    onfocusin: () => { m.pinned = true; panel.classList.add('pinned'); } },
  h('div', { class: 'moment-head' }, h('h2', { id: 'moment-h' }, m.title),
    h('button', { type: 'button', class: 'btn ghost small', id: 'moment-close', 'aria-label': t('Close'), title: t('Close (Esc)'), onclick: () => closeMoment(ctx.st) }, '✕')),
  h('div', { class: 'moment-body' }, m.body(ctx)),
  h('div', { class: 'moment-bar', style: { animationDuration: `${left}s` }, 'aria-hidden': 'true' }));
  box.append(panel);
}

/** The last moment, for the result dialog of a game that just ended. */
export function momentInResult(ctx) {
  const m = ctx.st.ui.moment;
  if (!m || !(ctx.view && ctx.view.over)) return null;
  return h('div', { class: 'moment in-result', id: 'moment', dataset: { moment: m.key } }, h('h3', null, m.title), h('div', { class: 'moment-body' }, m.body(ctx)));
}
