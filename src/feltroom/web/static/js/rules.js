// The rules pages: one per game and language, at #/rules/{game}#{RULE-ID} (docs/web.md).
// The texts are static files, static/rules/{game}.{lang}.txt, written for players in a small
// line format (one source per text, read by parseRules below and by the tests):
//   "# Title"  the page title       "## Heading"  a section
//   "[ID ID …] text"  a paragraph that states those rules: each ID is an anchor on the page
//   "text"  a paragraph without a rule ID             "- text"  a list item (IDs as above)
// Decided here: a rule ID links into the page of the game it belongs to; an ID the page lacks
// opens the page at its top. **bold** is the only markup; everything else is plain text.

import { h, clear } from './dom.js';
import { t, getLang } from './i18n.js';
import { app, render } from './state.js';
import { gameList, gameTitle, gameMeta } from './games/index.js';
import { tutorialButton } from './tutorial.js';

/** @typedef {{ids: string[], text: string, item: boolean}} RulePara */
/** @typedef {{heading: string, paras: RulePara[]}} RuleSection */
/** @typedef {{title: string, intro: RulePara[], sections: RuleSection[]}} RulesText */

/** @type {Map<string, RulesText | 'loading' | 'missing'>} */
const texts = new Map();

/** The address of a game's rules, at one rule if given. @param {string} game @param {string | null} [rule] */
export function rulesHref(game, rule) {
  return `#/rules/${encodeURIComponent(game)}${rule ? `#${rule}` : ''}`;
}

/** A rule ID as a link to its rule (an error's "(RULE-ID)"). @param {string | null | undefined} game @param {string} rule */
export function ruleLink(game, rule) {
  if (!game) return h('span', { class: 'rule-ref' }, rule);
  return h('a', { class: 'rule-ref', href: rulesHref(game, rule), dataset: { rule }, title: t('Open the rule') }, rule);
}

/** Parse the line format above. @param {string} src @returns {RulesText} */
export function parseRules(src) {
  /** @type {RulesText} */
  const out = { title: '', intro: [], sections: [] };
  for (const raw of src.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    if (line.startsWith('## ')) { out.sections.push({ heading: line.slice(3), paras: [] }); continue; }
    if (line.startsWith('# ')) { out.title = line.slice(2); continue; }
    const item = line.startsWith('- ');
    const body = item ? line.slice(2) : line;
    const m = body.match(/^\[([A-Z0-9 -]+)\]\s*(.*)$/);
    const para = { ids: m ? m[1].split(/\s+/).filter(Boolean) : [], text: m ? m[2] : body, item };
    (out.sections.length ? out.sections[out.sections.length - 1].paras : out.intro).push(para);
  }
  return out;
}

async function load(key) {
  texts.set(key, 'loading');
  try {
    const res = await fetch(`/static/rules/${key}.txt`);
    texts.set(key, res.ok ? parseRules(await res.text()) : 'missing');
  } catch { texts.set(key, 'missing'); }
  render();
}

/** "**bold**" in a paragraph. @param {string} text */
function inline(text) {
  return text.split(/\*\*(.+?)\*\*/).map((s, i) => (i % 2 ? h('strong', null, s) : s));
}

/** @param {RulePara} p */
function para(p) {
  const ids = p.ids.map((id) => h('a', { class: 'rule-id', id, href: rulesHref(app.route.game, id) }, id));
  return h(p.item ? 'li' : 'p', { class: `rule ${p.ids.length ? 'has-id' : ''}`, dataset: p.ids.length ? { rules: p.ids.join(' ') } : null },
    inline(p.text), ids.length ? h('span', { class: 'rule-ids' }, ids) : null);
}

/** Paragraphs, with runs of list items in one list. @param {RulePara[]} paras */
function block(paras) {
  const out = [];
  for (const p of paras) {
    if (p.item) {
      const last = out[out.length - 1];
      if (last && last.tagName === 'UL') { last.append(para(p)); continue; }
      out.push(h('ul', { class: 'rule-list' }, para(p)));
    } else out.push(para(p));
  }
  return out;
}

/** Draw the rules page of app.route.game in the UI language. @param {Element} root */
export function renderRules(root) {
  const game = app.route.game;
  const key = `${game}.${getLang()}`;
  const text = texts.get(key);
  if (!text) load(key);
  const drawn = /** @type {HTMLElement | null} */ (root.querySelector('.rules[data-key]'));
  if (drawn && drawn.dataset.key === key) { scrollToRule(root, key); return; }
  clear(root);
  const others = gameList().filter((m) => m.name !== game)
    .map((m) => h('a', { href: rulesHref(m.name), class: 'chip' }, gameTitle(m.name)));
  const nav = h('nav', { class: 'rules-nav', 'aria-label': t('Rules of the other games') },
    history.length > 1 ? h('button', { type: 'button', class: 'btn ghost', id: 'rules-back', onclick: () => history.back() }, '← ', t('Back')) : null,
    h('a', { href: '#/', class: 'btn ghost' }, t('Lobby')),
    gameMeta(game) && gameMeta(game).tutorial ? tutorialButton(game, t('Play the tutorial'), 'btn primary') : null, others);
  if (typeof text !== 'object') {
    root.append(h('main', { class: 'rules panel', dataset: { game } }, nav,
      h('p', { class: 'muted' }, text === 'missing' ? t('No rules for this game.') : t('Loading…'))));
    return;
  }
  const toc = h('ol', { class: 'rules-toc' }, text.sections.map((s, i) => h('li', null, h('a', { href: `#/rules/${game}#sec-${i + 1}` }, s.heading))));
  root.append(h('main', { class: 'rules panel', dataset: { game, lang: getLang(), key } }, nav,
    h('h1', null, text.title), block(text.intro),
    h('details', { class: 'rules-contents', open: true }, h('summary', null, t('Contents')), toc),
    text.sections.map((s, i) => h('section', { id: `sec-${i + 1}` }, h('h2', null, s.heading), block(s.paras)))));
  scrolledFor = ''; // a fresh page: scroll again
  scrollToRule(root, key);
}

let scrolledFor = '';
/** Scroll to the rule (or section) of the address once per address and text, and mark it.
 *  @param {Element} root @param {string} key the text drawn */
function scrollToRule(root, key) {
  const target = app.route.rule;
  const where = `${location.hash}|${key}`;
  if (where === scrolledFor) return;
  scrolledFor = where;
  for (const el of root.querySelectorAll('.target')) el.classList.remove('target');
  const el = target ? document.getElementById(target) : null;
  if (!el) { window.scrollTo(0, 0); return; }
  const box = el.closest('.rule') || el;
  box.classList.add('target');
  box.scrollIntoView({ block: 'start' });
}

/** The rules page's heading for the document title. */
export function rulesTitle() { return `${t('Rules')}: ${gameTitle(app.route.game)} — feltroom`; }

