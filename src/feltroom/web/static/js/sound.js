// Sounds (docs/web.md, "Sounds"): your turn, a card played, a call (a declaration), a sweep, the game over, made
// with WebAudio (no sound files). The choice is kept in localStorage `feltroom.sound` ('on' or
// 'off'). On a first visit nothing is stored and the sound is off until you first interact with
// the page (a click, a tap or a key: browsers allow audio only from then on); it is then on and
// stored so. The ♪ toggle in the top bar (struck through when off) switches it and is remembered.

import { h } from './dom.js';
import { t } from './i18n.js';

const KEY = 'feltroom.sound';
/** The kinds of sound, and the log of those played (for tests and the curious: `feltroom.sounds`). */
export const SOUNDS = ['turn', 'card', 'call', 'sweep', 'over'];
export const played = [];

/** @type {AudioContext | null} */
let ctx = null;
let lastCard = 0;
const listeners = [];

/** Whether sounds play now. */
export function soundOn() { return localStorage.getItem(KEY) === 'on'; }

/** Switch sounds on or off (remembered). */
export function setSound(on) {
  localStorage.setItem(KEY, on ? 'on' : 'off');
  if (on) audio();
  for (const f of listeners) f(on);
}

/** Call `f(on)` when the choice changes. */
export function onSound(f) { listeners.push(f); }

// The first interaction of a first visit turns sound on (and starts the audio context, which
// browsers only allow inside a user gesture).
function firstTouch(e) {
  const onToggle = e.target instanceof Element && e.target.closest('#sound-toggle');  // its click decides
  if (localStorage.getItem(KEY) == null && !onToggle) setSound(true);
  else if (soundOn()) audio();
  removeEventListener('pointerdown', firstTouch, true);
  removeEventListener('keydown', firstTouch, true);
}
addEventListener('pointerdown', firstTouch, true);
addEventListener('keydown', firstTouch, true);

function audio() {
  if (!ctx) {
    const AC = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  return ctx;
}

/** One tone: `freq` Hz from `at` s for `len` s, of wave `type`, at `gain`. */
function tone(ac, freq, at, len, type = 'sine', gain = 0.18) {
  const o = ac.createOscillator(), g = ac.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, at);
  g.gain.setValueAtTime(0.0001, at);
  g.gain.exponentialRampToValueAtTime(gain, at + 0.012);
  g.gain.exponentialRampToValueAtTime(0.0001, at + len);
  o.connect(g).connect(ac.destination);
  o.start(at);
  o.stop(at + len + 0.02);
}

/** A burst of filtered noise (a card on the felt, a sweep's swish). */
function noise(ac, at, len, from, to, gain) {
  const buf = ac.createBuffer(1, Math.ceil(ac.sampleRate * len), ac.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
  const src = ac.createBufferSource(), f = ac.createBiquadFilter(), g = ac.createGain();
  src.buffer = buf;
  f.type = 'bandpass';
  f.frequency.setValueAtTime(from, at);
  f.frequency.exponentialRampToValueAtTime(to, at + len);
  g.gain.setValueAtTime(gain, at);
  src.connect(f).connect(g).connect(ac.destination);
  src.start(at);
}

/** Play a sound of `kind` (one of SOUNDS), if sounds are on. A burst of card sounds plays once. */
export function playSound(kind) {
  if (!soundOn() || !SOUNDS.includes(kind)) return;
  const now = performance.now();
  if (kind === 'card') { if (now - lastCard < 90) return; lastCard = now; }
  played.push(kind);
  if (played.length > 50) played.shift();
  const ac = audio();
  if (!ac || ac.state !== 'running') return;
  const t0 = ac.currentTime + 0.01;
  switch (kind) {
    case 'turn': tone(ac, 660, t0, 0.18); tone(ac, 880, t0 + 0.12, 0.25); break;
    case 'card': noise(ac, t0, 0.07, 2400, 900, 0.35); break;
    case 'call': [784, 988, 1175, 1568].forEach((f, i) => tone(ac, f, t0 + i * 0.07, 0.22, 'triangle', 0.16)); break;
    case 'sweep': noise(ac, t0, 0.45, 500, 5000, 0.3); tone(ac, 1046, t0 + 0.3, 0.3, 'triangle', 0.12); break;
    case 'over': [523, 659, 784, 1046].forEach((f, i) => tone(ac, f, t0 + i * 0.16, i === 3 ? 0.6 : 0.2, 'triangle', 0.16)); break;
    default: break;
  }
}

/** The top bar's toggle. */
export function soundToggle() {
  const on = soundOn();
  return h('button', { type: 'button', class: `btn ghost small sound-toggle ${on ? 'on' : 'off'}`, id: 'sound-toggle', 'aria-pressed': on ? 'true' : 'false',
    title: on ? t('Sound on: click to mute') : t('Sound off: click to turn it on'), 'aria-label': t('Sound'),
    onclick: () => { audio(); setSound(!soundOn()); } }, '♪');
}
