// Tiny DOM helpers: h() builds elements, no framework, no build step.

/**
 * An element with attributes (class, style, on<event>, dataset, value, checked, others as
 * attributes; null and false are left out) and children (nested arrays, strings, nodes).
 * @param {string} tag @param {Object<string, any> | null} attrs @param {...any} children
 * @returns {any} the element (any: inputs, selects and the rest alike)
 */
export function h(tag, attrs, ...children) {
  const el = /** @type {any} */ (document.createElement(tag));
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'value') el.value = v;
    else if (k === 'checked') el.checked = !!v;
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, v);
  }
  append(el, children);
  return el;
}

/** @param {Element} el @param {any[]} children */
export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

/** @template {Element} E @param {E} el @returns {E} */
export function clear(el) { while (el.firstChild) el.firstChild.remove(); return el; }

/** @param {string} sel @param {ParentNode} [root] @returns {HTMLElement} */
export function $(sel, root = document) { return root.querySelector(sel); }
/** @param {string} sel @param {ParentNode} [root] @returns {HTMLElement[]} */
export function $$(sel, root = document) { return /** @type {HTMLElement[]} */ ([...root.querySelectorAll(sel)]); }
