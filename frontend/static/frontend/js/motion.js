// Cards that slide from where they were to where they go (the FLIP technique): every card's
// place is measured before the board is drawn again, and after it each card that moved is
// put back where it was by a transform and let go to its new place. The board is always drawn
// from the server's answer first, so a move is taken as fast with motion as without; a redraw
// during an animation measures the cards where they are on the screen and starts from there,
// and whatever was still moving is finished at once (its elements are gone).
//
// The speed is the player's setting (settings.js); nothing moves when it is off or under
// prefers-reduced-motion: reduce. Animations use the Web Animations API on the board's own
// cards (document.getAnimations() lists them), and fixed copies (.flying, in a layer of their
// own) for the cards a redraw no longer draws: a run gone to the discard, the waste turned back
// into the stock, a foundation card covered by the one arriving.

import { settings } from "./settings.js";

export const SPEEDS = { off: 0, fast: 130, normal: 230, slow: 420 };
const EASE = "cubic-bezier(0.2, 0.7, 0.3, 1)";
const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

/** How long a card takes to reach its place, in ms: 0 when nothing is to move. */
export function motionMs() {
  if (reduced.matches) return 0;
  return SPEEDS[settings().speed] ?? SPEEDS.normal;
}

// Where the cards a drag dropped were when let go (the ghost's copies): the redraw that follows
// starts them there rather than at the pile they were lifted from.
let dropped = null;

/** Remember where dropped cards lie on the screen: a list of [code, DOMRect]. */
export function noteDrop(rects) {
  dropped = { at: performance.now(), rects };
}

let layer = null;
function flyingLayer() {
  if (!layer || !layer.isConnected) {
    layer = document.createElement("div");
    layer.className = "motion-layer";
    layer.setAttribute("aria-hidden", "true");
    document.body.append(layer);
  }
  return layer;
}

/** Finish at once whatever is still moving: the copies go, the board's cards stand where
 * they are drawn. */
export function finishMotion(board) {
  if (layer) layer.replaceChildren();
  for (const node of board.querySelectorAll(".motion-under")) node.remove();
  for (const card of board.querySelectorAll(".card")) {
    for (const animation of card.getAnimations()) animation.finish();
  }
}

const cardsOf = (pile) => [...pile.querySelectorAll(":scope > .card")];

/** Every pile's place and drawn cards, as on the screen now (moving cards where they are). */
function measure(board) {
  const piles = new Map();
  for (const pile of board.querySelectorAll(".pile[data-pile]")) {
    piles.set(pile.dataset.pile, {
      rect: pile.getBoundingClientRect(),
      count: Number(pile.dataset.count || 0),
      cards: cardsOf(pile).map((card) => ({ code: card.dataset.card ?? null, rect: card.getBoundingClientRect(), node: card })),
    });
  }
  return piles;
}

function slide(node, from, to, ms, delay = 0, extra = {}) {
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  const sx = to.width ? from.width / to.width : 1;
  if (Math.abs(dx) < 0.5 && Math.abs(dy) < 0.5 && Math.abs(sx - 1) < 0.01 && !extra.flip) return null;
  const start = `translate(${dx}px, ${dy}px) scale(${sx})`;
  // A card turned face up opens like a page turned toward the player.
  const keyframes = extra.flip ? [{ transform: "scaleX(0.05)" }, { transform: "none" }] : [{ transform: start }, { transform: "none" }];
  // While it moves, a card takes no tap or press: those go to what lies where it is going
  // and where it came from, as drawn (a second move is taken during the first's animation).
  node.classList.add("in-flight");
  const animation = node.animate(keyframes, { duration: ms, delay, easing: EASE, fill: "backwards" });
  const landed = () => node.classList.remove("in-flight");
  animation.onfinish = landed;
  animation.oncancel = landed;
  return animation;
}

/** A fixed copy of `card` at `from` that flies to `to` and goes. */
function fly(card, from, to, ms, delay = 0) {
  const copy = card.cloneNode(true);
  copy.classList.remove("selected", "dragging", "hinted", "target");
  copy.classList.add("flying");
  copy.removeAttribute("data-card");
  copy.removeAttribute("aria-label");
  copy.removeAttribute("role");
  Object.assign(copy.style, { left: `${to.left}px`, top: `${to.top}px` });
  copy.style.setProperty("--cw", `${from.width}px`);
  copy.style.setProperty("--ch", `${from.height}px`);
  flyingLayer().append(copy);
  const animation = copy.animate(
    [{ transform: `translate(${from.left - to.left}px, ${from.top - to.top}px)` }, { transform: "none" }],
    { duration: ms, delay, easing: EASE, fill: "both" },
  );
  animation.onfinish = () => copy.remove();
  animation.oncancel = () => copy.remove();
}

/** A copy of a covered card kept under the pile's top card while that card arrives. */
function keepUnder(pile, card, ms) {
  const under = document.createElement("div");
  under.className = "motion-under";
  under.setAttribute("aria-hidden", "true");
  const copy = card.cloneNode(true);
  copy.classList.remove("selected", "dragging", "hinted", "target");
  copy.removeAttribute("data-card");
  copy.removeAttribute("role");
  copy.removeAttribute("aria-label");
  under.append(copy);
  pile.prepend(under);
  setTimeout(() => under.remove(), ms);
}

/** Take one place of `code` from `places` (two decks: a code may lie twice), preferring
 * the one in pile `id`. */
function takePlace(places, code, id) {
  const list = places.get(code);
  if (!list?.length) return null;
  const index = Math.max(0, list.findIndex((place) => place.pile === id));
  return list.splice(index, 1)[0];
}

/**
 * Draw the board again with `draw()`, and let each card slide from where it was. `state`: the
 * state just drawn (to find where a card no longer drawn went).
 */
export function animateRedraw(board, draw, { state = null } = {}) {
  const ms = motionMs();
  if (!ms || !board.querySelector(".pile[data-pile]")) {
    if (layer) layer.replaceChildren();
    draw();
    return;
  }
  const before = measure(board);
  const drop = dropped && performance.now() - dropped.at < 3000 ? dropped.rects : [];
  dropped = null;
  finishMotion(board);
  draw();
  const after = measure(board);

  // Where each face-up card was, by code.
  const places = new Map();
  for (const [id, pile] of before) {
    pile.cards.forEach((card, index) => {
      if (!card.code) return;
      if (!places.has(card.code)) places.set(card.code, []);
      places.get(card.code).push({ pile: id, index, rect: card.rect, node: card.node });
    });
  }
  for (const [code, rect] of drop) {
    const place = places.get(code)?.[0];
    if (place) place.rect = rect;
  }

  const stockBefore = before.get("stock");
  const stockAfter = after.get("stock");
  const dealt = stockBefore && stockAfter && stockAfter.count < stockBefore.count;
  let arriving = 0;
  for (const [id, pile] of after) {
    pile.cards.forEach((card, index) => {
      if (!card.code) return;
      const from = takePlace(places, card.code, id);
      if (from) {
        slide(card.node, from.rect, card.rect, ms);
        return;
      }
      const was = before.get(id)?.cards[index];
      if (was && !was.code && id !== "stock") {
        // Turned face up where it lay.
        slide(card.node, was.rect, card.rect, ms, 0, { flip: true });
      } else if (dealt) {
        slide(card.node, stockBefore.cards.at(-1)?.rect ?? stockBefore.rect, card.rect, ms, Math.min(arriving * 45, 400));
        arriving += 1;
      }
    });
  }

  // The cards drawn before and not now: covered where they lay, or gone to a pile that does not
  // draw them (the discard's runs, the stock).
  const where = new Map();
  for (const [id, pile] of Object.entries(state?.piles ?? {})) {
    for (const code of pile.cards ?? []) if (code) where.set(code, id);
  }
  const grown = [...after].filter(([id, pile]) => pile.count > (before.get(id)?.count ?? 0)).map(([id]) => id);
  for (const list of places.values()) {
    for (const place of list) {
      const to = where.get(place.node.dataset.card) ?? grown[0];
      const target = to && after.get(to);
      if (!target) continue;
      if (to === place.pile) {
        const pile = board.querySelector(`.pile[data-pile="${CSS.escape(to)}"]`);
        if (pile) keepUnder(pile, place.node, ms);
      } else {
        fly(place.node, place.rect, target.cards.at(-1)?.rect ?? target.rect, ms);
      }
    }
  }
}

/** The opening deal, on the board as drawn: every card comes from the stock (or the table's
 * top left corner), one after another. */
export function dealIn(board) {
  const ms = motionMs();
  if (!ms) return;
  const after = measure(board);
  const origin = after.get("stock")?.rect ?? board.querySelector(".tabletop")?.getBoundingClientRect() ?? board.getBoundingClientRect();
  const all = [...after.values()].flatMap((pile) => pile.cards);
  const step = Math.min(25, 700 / Math.max(1, all.length));
  all.forEach((card, i) => {
    const from = { left: origin.left, top: origin.top, width: card.rect.width, height: card.rect.height };
    slide(card.node, from, card.rect, ms, i * step);
  });
}

/** A hint: the suggested cards lean toward their target, once, and come back. */
export function nudge(cards, target) {
  const ms = motionMs();
  if (!ms || !target || !cards.length) return;
  const to = target.getBoundingClientRect();
  const from = cards[0].getBoundingClientRect();
  const dx = (to.left - from.left) * 0.18;
  const dy = (to.top - from.top) * 0.18;
  for (const card of cards) {
    card.animate([{ transform: "none" }, { transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], {
      duration: Math.max(360, ms * 2.2),
      easing: "ease-in-out",
    });
  }
}
