// How a player moves cards on a drawn board (board.js): drag and drop with Pointer Events
// (mouse, touch and pen alike), tap a card then a pile, double-click or double-tap to send a
// card to a foundation, and the keyboard. Nothing here knows a rule: the highlights come from
// the game's legal_moves, and any move the player insists on is sent for the engine to judge.

import { noteDrop } from "./motion.js";
import { attachRoving } from "./roving.js";

const DRAG_THRESHOLD = 6; // px a press must travel before it becomes a drag rather than a tap
const DOUBLE_TAP_MS = 400;
const TYPING = new Set(["INPUT", "TEXTAREA", "SELECT"]);

const pileName = (pile) => pile.getAttribute("aria-label")?.split(",")[0] ?? pile.dataset.pile;
const cardsOf = (pile) => [...pile.querySelectorAll(":scope > .card")];
const isFaceUp = (card) => Boolean(card) && !card.classList.contains("face-down");

/**
 * Wire input to `board`. `actions`: game() → the game shown; move(move), deal(), undo(), hint()
 * send to the server, finish() sends cards to the foundations (or stops doing so); say(text) shows a message; announce(text) tells screen readers what happened.
 * Returns {reset(), redrawn()}: reset() drops any selection, drag or press; redrawn(), called after
 * each redraw (the piles are new elements), keeps them when they still apply (see there).
 */
export function attachInput(board, actions) {
  let picked = null; // {from, count, cards, names}: cards lifted by a tap, a key or a drag
  let press = null; // a pointer held down on the board, not yet a drag
  let drag = null; // {ghost, moving, x, y, over}
  let lastTap = { pile: null, time: 0 };

  const game = () => actions.game();
  const playing = () => game()?.status === "playing";
  const pileEl = (id) => board.querySelector(`.pile[data-pile="${CSS.escape(id)}"]`);
  const movesFrom = (id) => (game()?.legal_moves ?? []).filter((m) => m.type === "move" && m.from === id);

  function highlight() {
    for (const node of board.querySelectorAll(".selected, .target")) node.classList.remove("selected", "target");
    if (!picked) return;
    const source = pileEl(picked.from);
    if (!source) return;
    for (const card of cardsOf(source).slice(-picked.count)) card.classList.add("selected");
    for (const m of movesFrom(picked.from)) {
      if (m.count === picked.count) pileEl(m.to)?.classList.add("target");
    }
  }

  function pick(id, count) {
    const lifted = cardsOf(pileEl(id)).slice(-count);
    const cards = lifted.map((c) => c.getAttribute("aria-label"));
    picked = { from: id, count, cards: lifted.map((c) => c.dataset.card), names: cards };
    highlight();
    const places = board.querySelectorAll(".pile.target").length;
    const them = count === 1 ? "it" : "them";
    const where = places ? `${places} ${places === 1 ? "pile takes" : "piles take"} ${them}.` : `No pile takes ${them}.`;
    const from = pileEl(id)?.dataset.name ?? id; // "from the waste", as after a move
    // "the Ten of diamonds", "the Nine of clubs, the Eight of hearts and the Seven of spades"
    const named = cards.map((name) => `the ${name}`);
    const list = named.length > 1 ? `${named.slice(0, -1).join(", ")} and ${named.at(-1)}` : named[0];
    actions.announce?.(`Picked up ${list} from ${from}. ${where}`);
  }

  function cancel() {
    picked = null;
    highlight();
  }

  function putDown(to) {
    const move = { type: "move", from: picked.from, to, count: picked.count };
    picked = null;
    lastTap = { pile: null, time: 0 };
    highlight();
    actions.move(move);
  }

  /** The first legal move of the pile's top card to a foundation, if any. */
  function toFoundation(id) {
    const move = movesFrom(id).find((m) => m.count === 1 && m.to.startsWith("foundation:"));
    if (!move) return false;
    cancel();
    lastTap = { pile: null, time: 0 };
    actions.move(move);
    return true;
  }

  function deal() {
    cancel();
    if (!pileEl("stock")) actions.say("This game has no stock to deal from.");
    else actions.deal();
  }

  /** How many cards a press on `card` lifts: it and every card above it, if it is face up. */
  function liftCount(pile, card) {
    if (pile.dataset.kind === "stock") return 0;
    const cards = cardsOf(pile);
    const index = card ? cards.indexOf(card) : cards.length - 1;
    if (index < 0 || !isFaceUp(cards[index])) return 0;
    return cards.length - index;
  }

  // -- taps and clicks -------------------------------------------------------------------

  function tap(pile, card) {
    const id = pile.dataset.pile;
    const now = performance.now();
    const double = lastTap.pile === id && now - lastTap.time < DOUBLE_TAP_MS;
    lastTap = { pile: id, time: double ? 0 : now };
    if (pile.dataset.kind === "stock") return deal();
    if (double && toFoundation(id)) return;
    if (picked) {
      if (picked.from === id) return cancel();
      return putDown(id);
    }
    const count = liftCount(pile, card);
    if (count) pick(id, count);
  }

  // -- dragging --------------------------------------------------------------------------

  function startDrag(at) {
    const { pile, card } = press;
    const cards = cardsOf(pile);
    const moving = cards.slice(cards.indexOf(card));
    pick(pile.dataset.pile, moving.length);
    // The ghost: copies of the lifted cards in a fixed layer that follows the pointer.
    const first = moving[0].getBoundingClientRect();
    const ghost = document.createElement("div");
    ghost.className = "drag-ghost";
    ghost.setAttribute("aria-hidden", "true");
    ghost.style.setProperty("--cw", `${first.width}px`);
    ghost.style.setProperty("--ch", `${first.height}px`);
    ghost.style.left = `${first.left}px`;
    ghost.style.top = `${first.top}px`;
    for (const original of moving) {
      const box = original.getBoundingClientRect();
      const copy = original.cloneNode(true);
      copy.classList.remove("selected");
      copy.style.left = `${box.left - first.left}px`;
      copy.style.top = `${box.top - first.top}px`;
      ghost.append(copy);
      original.classList.add("dragging");
    }
    document.body.append(ghost);
    document.body.classList.add("is-dragging");
    drag = { ghost, moving, x: press.x, y: press.y, over: null };
    moveDrag(at);
  }

  /** The pile under the pointer; failing that, the one the lifted top card overlaps most
   * (a finger covers what it points at). */
  function dropTarget(event) {
    const under = document.elementFromPoint(event.clientX, event.clientY)?.closest(".pile[data-pile]");
    if (under && board.contains(under)) return under;
    const held = drag.ghost.firstElementChild.getBoundingClientRect();
    let best = null;
    let bestArea = 0;
    for (const pile of board.querySelectorAll(".pile[data-pile]")) {
      const box = pile.getBoundingClientRect();
      const w = Math.min(held.right, box.right) - Math.max(held.left, box.left);
      const h = Math.min(held.bottom, box.bottom) - Math.max(held.top, box.top);
      if (w > 0 && h > 0 && w * h > bestArea) [best, bestArea] = [pile, w * h];
    }
    return best;
  }

  function moveDrag(event) {
    drag.ghost.style.transform = `translate(${event.clientX - drag.x}px, ${event.clientY - drag.y}px)`;
    const over = dropTarget(event);
    if (over !== drag.over) {
      drag.over?.classList.remove("drop-hover");
      over?.classList.add("drop-hover");
      drag.over = over;
    }
  }

  function endDrag(event) {
    const over = event ? dropTarget(event) : null;
    drag.over?.classList.remove("drop-hover");
    const letGo = [...drag.ghost.children].map((copy) => [copy.dataset.card, copy.getBoundingClientRect()]);
    drag.ghost.remove();
    document.body.classList.remove("is-dragging");
    const { moving } = drag;
    drag = null;
    if (over && picked && over.dataset.pile !== picked.from) {
      // Keep the lifted cards hidden until the server answers: the redraw puts them where
      // they belong (on the target, or back after a refusal), sliding on from where they were
      // let go (motion.js).
      noteDrop(letGo);
      putDown(over.dataset.pile);
      return;
    }
    for (const card of moving) card.classList.remove("dragging");
    cancel();
  }

  board.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || !event.isPrimary || drag) return;
    const pile = event.target.closest(".pile[data-pile]");
    if (!pile || !board.contains(pile)) return;
    const card = event.target.closest(".card");
    press = { pile, card, x: event.clientX, y: event.clientY, id: event.pointerId };
    if (isFaceUp(card) && playing()) event.preventDefault(); // no text selection, no native drag
  });

  window.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id) return;
    if (drag) return moveDrag(event);
    const far = Math.hypot(event.clientX - press.x, event.clientY - press.y) > DRAG_THRESHOLD;
    if (far && playing() && liftCount(press.pile, press.card) && press.card) startDrag(event);
  });

  window.addEventListener("pointerup", (event) => {
    if (!press || event.pointerId !== press.id) return;
    const { pile, card } = press;
    press = null;
    if (drag) return endDrag(event);
    if (!pile.isConnected) return;
    if (playing()) tap(pile, card);
    else actions.ended?.(); // the page says why nothing happens, as for D, H, U and F
  });

  window.addEventListener("pointercancel", (event) => {
    if (!press || event.pointerId !== press.id) return;
    press = null;
    if (drag) endDrag(null);
  });

  // -- keyboard --------------------------------------------------------------------------

  function enter(pile) {
    const id = pile.dataset.pile;
    if (pile.dataset.kind === "stock") return deal();
    if (picked && picked.from === id) {
      // Again on the same pile: one more card of the group, up to the largest legal lift.
      const largest = Math.max(1, ...movesFrom(id).map((m) => m.count));
      if (picked.count < largest && liftCount(pile, cardsOf(pile).at(-picked.count - 1))) {
        return pick(id, picked.count + 1);
      }
      actions.announce?.("Put back.");
      return cancel();
    }
    if (picked) return putDown(id);
    if (liftCount(pile, null)) pick(id, 1);
    else actions.announce?.(`${pileName(pile)}: nothing to pick up.`);
  }

  // The board is one tab stop: the arrow keys, Home and End move between its piles (roving.js);
  // Enter or Space on a pile picks up or puts down.
  attachRoving(board);
  board.addEventListener("keydown", (event) => {
    const pile = event.target.closest?.(".pile[data-pile]");
    if (!pile || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (playing()) enter(pile);
      else actions.ended?.();
    }
  });

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    if (TYPING.has(event.target.tagName) || event.target.isContentEditable) return;
    if (document.querySelector("dialog[open]")) return;
    if (event.key === "Escape") {
      if (drag) endDrag(null);
      else if (picked) {
        actions.announce?.("Put back.");
        cancel();
      }
    } else if (event.key === "d" || event.key === "D") {
      // Also when the game is over: the page then says why nothing happens.
      event.preventDefault();
      deal();
    } else if (event.key === "h" || event.key === "H") {
      event.preventDefault();
      actions.hint?.();
    } else if (event.key === "u" || event.key === "U") {
      event.preventDefault();
      cancel();
      actions.undo();
    } else if (event.key === "f" || event.key === "F") {
      event.preventDefault();
      cancel();
      actions.finish?.();
    }
  });

  /** The board was drawn again (a move's answer, Finish's next card, another tab's move): the
   * cards the player holds stay held (still lifted, still dragged, their targets from the new
   * legal moves) when the same cards are still face up on top of their pile in a game in play;
   * else they are put back. A press not yet released follows its pile and card to their new
   * elements. Returns what was put back, in words, or null. */
  function redrawn() {
    if (press) {
      const pile = pileEl(press.pile.dataset.pile);
      const at = press.card ? cardsOf(press.pile).indexOf(press.card) : -1;
      const card = pile && at >= 0 ? cardsOf(pile)[at] : null;
      const same = pile && (!press.card || card?.dataset.card === press.card.dataset.card);
      press = same ? { ...press, pile, card } : null;
    }
    if (!picked) return null;
    const source = pileEl(picked.from);
    const now = source ? cardsOf(source).slice(-picked.count) : [];
    const held =
      playing() && now.length === picked.count && now.every((c, i) => isFaceUp(c) && c.dataset.card === picked.cards[i]);
    if (held) {
      if (drag) {
        drag.moving = now;
        for (const card of now) card.classList.add("dragging");
        drag.over = drag.over && pileEl(drag.over.dataset.pile);
        drag.over?.classList.add("drop-hover");
      }
      highlight();
      return null;
    }
    const { names } = picked;
    if (drag) endDrag(null);
    cancel();
    const others = names.length > 1 ? ` and the ${names.length === 2 ? "card" : `${names.length - 1} cards`} on it` : "";
    return `Put back the ${names[0]}${others}: the board changed.`;
  }

  return {
    reset() {
      if (drag) endDrag(null);
      press = null;
      picked = null;
      highlight();
    },
    redrawn,
  };
}
