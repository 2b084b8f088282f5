// What a move or an undo did, in words, for screen readers (play.js says them in #announce):
// the cards moved, named from the board they were moved on, the stock dealt, cards turned up.

import { pileInSentence } from "./board.js";
import { cardName } from "./cards.js";

/** What a move did, in words, for screen readers: the cards moved (named from the board they
 * were moved on, where they were face up), the stock dealt, and cards it turned up or dealt. The
 * visible notes (a run removed, the base rank) are #message's, a live region of its own. */
const capitalised = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** "Seven of clubs", "Four of clubs and Nine of hearts", "Two of clubs, Four of clubs and Nine of hearts". */
function cardList(codes) {
  const names = codes.map(cardName);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names.join("");
}

/** The cards a deal put where the player sees them, as [pile id, codes] in the board's order: on
 * each pile the face-up cards on top that it did not hold before (the last dealt on top). A dealt
 * card that finished a run (Grounds for Divorce) went on with it to the discard, whose new cards
 * are those runs in the order they went: it is its run's last card, the one the discard shows. */
function dealtCards(before, next) {
  const was = (id) => before.state.piles[id]?.cards ?? [];
  const runs = (next.events ?? []).filter((e) => e.type === "run_removed");
  const discard = next.state.piles.discard?.cards ?? [];
  const runCards = discard.slice(was("discard").length);
  const runSize = runs.length ? runCards.length / runs.length : 0;
  const landed = [];
  for (const [id, pile] of Object.entries(next.state.piles)) {
    if (id === "stock" || id === "discard") continue;
    const run = runs.findIndex((e) => e.pile === id);
    const fresh =
      run >= 0
        ? [runCards[(run + 1) * runSize - 1]]
        : pile.cards.length > was(id).length && was(id).every((code, i) => code === pile.cards[i])
          ? pile.cards.slice(was(id).length)
          : [];
    const seen = fresh.filter(Boolean); // face up: a face-down card has no code on the page
    if (seen.length) landed.push([id, seen]);
  }
  return landed;
}

/** "the Queen of hearts", "the Queen of hearts and the card on it", "… and the 3 cards on it". */
export function cardsWords(code, count) {
  const others = count > 1 ? ` and the ${count === 2 ? "card" : `${count - 1} cards`} on it` : "";
  return `the ${cardName(code)}${others}`;
}

export function moveSummary(move, before, next, variant) {
  const name = (id) => pileInSentence(id, variant);
  const parts = [];
  if (move.type === "deal") {
    // "Dealt from the stock: Seven of clubs to tableau pile 1, Two of hearts to tableau pile 2.",
    // "Dealt from the stock: Four of clubs, Nine of hearts and Jack of spades to the waste."
    const landed = dealtCards(before, next).map(([id, codes]) => `${cardList(codes)} to ${name(id)}`);
    parts.push(landed.length ? `Dealt from the stock: ${landed.join(", ")}.` : "Dealt from the stock.");
  } else {
    const count = move.count ?? 1;
    const moved = before.state.piles[move.from]?.cards.at(-count);
    parts.push(`Moved ${cardsWords(moved, count)} from ${name(move.from)} to ${name(move.to)}.`);
  }
  for (const event of next.events ?? []) {
    if (event.type === "turned_up") parts.push(`${cardName(event.card)} turned up on ${name(event.pile)}.`);
    if (event.type === "pile_filled") parts.push(`${capitalised(name(event.pile))} refilled with the ${cardName(event.card)}.`);
  }
  return parts.join(" ");
}

const sameCards = (a, b) => a.length === b.length && a.every((code, i) => code === b[i]);

/** What an undo took back, in words: "The Queen of hearts went back from foundation 1 to tableau
 * pile 2." The page sees two versions, not the move, so it finds the move that leads from the one
 * now shown to the one before: a legal move now (it was legal before the move taken back), whose
 * cards are on top of their pile now and were, before the undo, on its target (or had gone on to
 * the discard with a run they finished), their pile then holding the cards below (or a card that
 * refilled it, now back where it came from). "" when no move fits. */
export function undoSummary(before, next, variant) {
  const name = (id) => pileInSentence(id, variant);
  const was = (id) => before.state.piles[id]?.cards ?? [];
  const now = (id) => next.state.piles[id]?.cards ?? [];
  for (const { type, from, to, count } of next.legal_moves ?? []) {
    if (type !== "move") continue;
    const moved = now(from).slice(-count);
    if (moved.length !== count || !moved.every(Boolean)) continue;
    const below = now(from).slice(0, -count);
    // A pile the move emptied took a card at once (Blondes and Brunettes, from the waste).
    const filler = !below.length && was(from).length === 1 ? was(from)[0] : null;
    const feeder = filler
      ? Object.keys(next.state.piles).find(
          (id) => id !== from && id !== to && now(id).at(-1) === filler && sameCards(now(id).slice(0, -1), was(id)),
        )
      : null;
    if (!sameCards(was(from), below) && !feeder) continue;
    const landed = [...now(to), ...moved]; // the target just after the move
    const run = landed.slice(was(to).length); // what went on to the discard, when not all stayed
    const discard = was("discard");
    const toDiscard =
      !sameCards(landed, was(to)) &&
      sameCards(landed.slice(0, was(to).length), was(to)) &&
      sameCards(discard.slice(-run.length), run) &&
      sameCards(now("discard"), discard.slice(0, -run.length));
    if (!sameCards(landed, was(to)) && !toDiscard) continue;
    const what = capitalised(cardsWords(moved[0], count));
    const parts = [
      toDiscard
        ? `${what} went back from the discard to ${name(from)}${run.length > count ? `, the rest of its run to ${name(to)}` : ""}.`
        : `${what} went back from ${name(to)} to ${name(from)}.`,
    ];
    if (feeder) parts.push(`The ${cardName(filler)} went back to ${name(feeder)}.`);
    return parts.join(" ");
  }
  return "";
}
