// The tutorial (docs/web.md, "Tutorial"): start one, and coach the learner through its script.
// The server sends the script's words with the table (`table.tutorial`); the step due is the
// number of actions played (`update.seq`: a tutorial runs no CLOCK action), and the server
// offers the learner only that step's action, so the coach only has to say it and point at it.

import { h } from './dom.js';
import { t, getLang } from './i18n.js';
import { send, nav, render } from './state.js';

/** Ask the room for a tutorial table of `game` (the reply's `table` opens it, as after `create`). */
export function startTutorial(game) {
  send({ type: 'tutorial', game }, { kind: 'create' });
}

/** A "Tutorial" button for `game` (the lobby, the rules page). */
export function tutorialButton(game, label, cls = 'chip') {
  return h('button', { type: 'button', class: `${cls} tutorial-btn`, dataset: { tutorial: game }, onclick: () => startTutorial(game) }, label);
}

/** The words of `w` ({en, ru}) in the UI language. */
function words(w) { return w ? (w[getLang()] || w.en || '') : ''; }

/** The step due (its index in the script), or null when the table is not a tutorial. */
export function stepDue(ctx) {
  const tut = ctx.info && ctx.info.tutorial;
  if (!tut || !ctx.upd) return null;
  return ctx.upd.seq;
}

/** The action the learner is asked for now, or null. */
export function askedAction(ctx) {
  const i = stepDue(ctx);
  if (i == null) return null;
  const step = ctx.info.tutorial.steps[i];
  return step && step.seat === ctx.me ? step.action : null;
}

/** The coach panel: the step's words, where the learner is, and at the end the way out. */
export function coachBox(ctx) {
  const tut = ctx.info && ctx.info.tutorial;
  const i = stepDue(ctx);
  if (!tut || i == null || ctx.ui.coachClosed) return null;
  const steps = tut.steps;
  const mine = steps.filter((s) => s.seat === tut.seat).length;
  if (i >= steps.length) return ctx.view && ctx.view.over ? null : outro(ctx, true);
  const step = steps[i];
  const done = steps.slice(0, i).filter((s) => s.seat === tut.seat).length;
  const yours = step.seat === tut.seat;
  const say = step.text ? words(step.text) : t('Watch: {name} plays.', { name: ctx.shortName(step.seat) });
  return h('div', { class: `coach ${yours ? 'yours' : 'theirs'}`, id: 'coach', role: 'region', 'aria-label': t('Tutorial'),
    dataset: { step: i, asked: yours ? step.action : '' } },
    h('p', { class: 'coach-head' }, h('b', null, t('Tutorial')), ' · ', t('step {k} of {n}', { k: Math.min(mine, done + (yours ? 1 : 0)) || 1, n: mine })),
    i === 0 ? h('p', { class: 'coach-intro', id: 'coach-intro' }, words(tut.intro)) : null,
    h('p', { class: 'coach-text', id: 'coach-text', 'aria-live': 'polite' }, say));
}

/** Point at the control that plays the step due (its `data-act`), or else at the cards of your
 *  hand it names (a choice of several cards, as a discard to a crib, is made card by card).
 *  It marks the table's sections while they are still being built, before they replace the
 *  shown ones: marked afterwards, every render would differ from the page and replace your
 *  hand, under the mouse and the focus.
 *  @param {HTMLElement[]} sections @param {HTMLElement} hand the section with your hand @param {any} ctx */
export function markAsked(sections, hand, ctx) {
  const a = askedAction(ctx);
  if (!a) return;
  const exact = sections.flatMap((s) => [...s.querySelectorAll('[data-act]')]).filter((el) => /** @type {HTMLElement} */ (el).dataset.act === a);
  const cards = a.split(' ').slice(1);
  const named = exact.length ? [] : [...hand.querySelectorAll('[data-card]')].filter((el) => cards.includes(/** @type {HTMLElement} */ (el).dataset.card || ''));
  for (const el of [...exact, ...named]) el.classList.add('coach-target');
}

/** The tutorial's last words: in the coach panel (`closable`), or in the game's result when the
 *  tutorial ended the game. */
function outro(ctx, closable) {
  const tut = ctx.info.tutorial;
  return h('div', { class: 'coach done', id: 'coach', role: 'region', 'aria-label': t('Tutorial') },
    h('p', { class: 'coach-head' }, h('b', null, t('Tutorial complete')), ' ✓'),
    h('p', { class: 'coach-text', id: 'coach-text' }, words(tut.outro)),
    closable ? h('div', { class: 'coach-actions' },
      h('button', { type: 'button', class: 'btn small', id: 'coach-close', onclick: () => { ctx.ui.coachClosed = true; render(); } }, t('Play on')),
      h('button', { type: 'button', class: 'btn small primary', id: 'coach-lobby', onclick: () => nav({ screen: 'lobby' }) }, t('Back to the lobby'))) : null);
}

/** For the result of a game a tutorial ended: its last words. */
export function tutorialOutro(ctx) {
  const tut = ctx.info && ctx.info.tutorial;
  return tut && ctx.upd && ctx.upd.seq >= tut.steps.length ? outro(ctx, false) : null;
}
