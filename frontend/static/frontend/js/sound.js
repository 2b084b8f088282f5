// Sounds made in the page with WebAudio (no sound file): a soft card tap for a move, a
// shuffle-like rustle for a deal, a short rising chime for a win. Off unless the player turns
// them on (settings.js).

import { settings } from "./settings.js";

let context = null;

function audio() {
  if (!settings().sound) return null;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  context ??= new Context();
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** A burst of filtered noise: a card laid on the felt. */
function tap(ctx, at, { gain = 0.25, length = 0.06, freq = 1800 } = {}) {
  const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * length), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 3;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  const level = ctx.createGain();
  level.gain.value = gain;
  source.connect(filter).connect(level).connect(ctx.destination);
  source.start(at);
}

function tone(ctx, at, freq, length = 0.18) {
  const osc = ctx.createOscillator();
  osc.type = "triangle";
  osc.frequency.value = freq;
  const level = ctx.createGain();
  level.gain.setValueAtTime(0.0001, at);
  level.gain.exponentialRampToValueAtTime(0.18, at + 0.02);
  level.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(level).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

/** Play `kind`: "move", "deal", "home" (a card to a foundation), "win", "refused". */
export function playSound(kind) {
  const ctx = audio();
  if (!ctx) return;
  const now = ctx.currentTime;
  if (kind === "deal") for (let i = 0; i < 3; i++) tap(ctx, now + i * 0.045, { gain: 0.18, freq: 2400 });
  else if (kind === "home") tap(ctx, now, { gain: 0.3, freq: 1300 });
  else if (kind === "win") [523, 659, 784, 1047].forEach((f, i) => tone(ctx, now + i * 0.11, f, 0.3));
  else if (kind === "refused") tone(ctx, now, 196, 0.12);
  else tap(ctx, now);
}
