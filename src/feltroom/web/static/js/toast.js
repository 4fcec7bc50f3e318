// Short messages in the corner (errors, "the table was closed").

import { h, $ } from './dom.js';

/** @param {any} text @param {string} [kind] @param {number} [ms] */
export function toast(text, kind = 'info', ms = 4000) {
  const box = $('#toasts');
  const el = h('div', { class: `toast ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
  box.append(el);
  setTimeout(() => { el.classList.add('fade'); setTimeout(() => el.remove(), 400); }, ms);
}
