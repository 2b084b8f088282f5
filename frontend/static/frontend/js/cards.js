// Playing cards drawn with CSS: a card's code, rank then suit such as "QH" (games/rules/RULINGS.md
// §Notation), becomes a .card element; null becomes a face-down card that carries no code at all.

// The ranks' and suits' words come from the engine (games/rules/cards.py, put in every page by
// base.html), so the page names a card exactly as the engine's refusals and hints do ("Ten of
// diamonds"). A rank's `label` is what the card's face shows.
const WORDS = JSON.parse(document.getElementById("card-words").textContent);
export const RANKS = WORDS.ranks;

// U+FE0E asks for the text form of ♥ and ♦, which some systems would draw as emoji.
export const SUITS = Object.fromEntries(
  Object.entries(WORDS.suits).map(([code, suit]) => [code, { ...suit, symbol: `${suit.symbol}\uFE0E` }]),
);

export const isRed = (code) => Boolean(code && SUITS[code[1]]?.red);

/** "QH" → "Queen of hearts", "TD" → "Ten of diamonds" (as the engine's card_name), null →
 * "Face-down card". */
export function cardName(code) {
  if (!code) return "Face-down card";
  const rank = RANKS[code[0]];
  const suit = SUITS[code[1]];
  return rank && suit ? `${rank.name} of ${suit.name}` : code;
}

/** "T" → "Ten": a rank in words, as the engine writes it. */
export const rankName = (rank) => RANKS[rank]?.name ?? rank;

/** "T" → "10": how a rank is printed on a card. */
export const rankLabel = (rank) => RANKS[rank]?.label ?? rank;

function span(className, ...children) {
  const node = document.createElement("span");
  node.className = className;
  node.append(...children);
  return node;
}

/**
 * A card element: <div class="card red" data-card="QH" aria-label="Queen of hearts">, with
 * an index (rank and suit) in two corners and the suit large in the centre — the index is
 * what shows when cards overlap. cardElement(null) is a back: class face-down, no data-card.
 */
export function cardElement(code) {
  const card = document.createElement("div");
  card.setAttribute("role", "img");
  card.setAttribute("aria-label", cardName(code));
  if (!code) {
    card.className = "card face-down";
    return card;
  }
  const rank = RANKS[code[0]];
  const suit = SUITS[code[1]];
  card.className = `card face-up ${suit?.red ? "red" : "black"}`;
  card.dataset.card = code;
  const label = rank?.label ?? code[0];
  const symbol = suit?.symbol ?? code[1];
  const index = () => span("index", span("rank", label), span("suit", symbol));
  // Court cards get a framed letter, like the picture of a real court card.
  const centre = "JQK".includes(code[0])
    ? span("centre court", span("court-rank", label), span("court-suit", symbol))
    : span("centre", symbol);
  const corner = index();
  const opposite = index();
  corner.classList.add("top");
  opposite.classList.add("bottom");
  for (const part of [corner, centre, opposite]) part.setAttribute("aria-hidden", "true");
  card.append(corner, centre, opposite);
  return card;
}
