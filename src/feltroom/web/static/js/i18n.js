// UI strings: the English text is the key; RU maps it to Russian.
// The language comes from localStorage, else navigator.language, and can be switched.

import { RU } from './ru.js';

const LANGS = ['en', 'ru'];
let lang = pickLang();
const listeners = [];

function pickLang() {
  const saved = localStorage.getItem('feltroom.lang');
  if (LANGS.includes(saved)) return saved;
  const nav = (navigator.languages && navigator.languages[0]) || navigator.language || 'en';
  return nav.toLowerCase().startsWith('ru') ? 'ru' : 'en';
}

export function getLang() { return lang; }

export function setLang(l) {
  if (!LANGS.includes(l)) return;
  lang = l;
  localStorage.setItem('feltroom.lang', l);
  document.documentElement.lang = l;
  for (const f of listeners) f(l);
}

export function onLang(f) { listeners.push(f); }

/** Add Russian strings (a game module's own, games/index.js). @param {Object<string, string | string[]>} words */
export function addRussian(words) { Object.assign(RU, words); }

/** Translate `s` (English) and fill `{name}` placeholders from `p`. */
export function t(s, p) {
  let out = (lang === 'ru' && RU[s]) || s;
  if (p) out = out.replace(/\{(\w+)\}/g, (m, k) => (k in p ? String(p[k]) : m));
  return out;
}

/** Whether `s` reads in the UI language: English always, Russian if RU has it. @param {string} s */
export function hasTranslation(s) { return lang !== 'ru' || Object.prototype.hasOwnProperty.call(RU, s); }

/** Mark an English string for translation where it is defined; t() translates it where it is
 *  shown (the translation check, tests/test_web_i18n.py, reads both). @param {string} s */
export function mark(s) { return s; }

/** Plural-aware count: t1(n, 'card', 'cards'), Russian forms from RU['card|cards']. */
export function tn(n, one, many) {
  if (lang === 'ru') {
    const forms = RU[`${one}|${many}`];
    if (forms) {
      const [f1, f2, f5] = forms;
      const m10 = n % 10, m100 = n % 100;
      const f = m10 === 1 && m100 !== 11 ? f1 : m10 >= 2 && m10 <= 4 && (m100 < 10 || m100 >= 20) ? f2 : f5;
      return `${n} ${f}`;
    }
  }
  return `${n} ${n === 1 ? one : many}`;
}

document.documentElement.lang = lang;
