// Draws a game's piles as a solitaire table, laid out as /api/variants/ says. It only draws:
// what may move where is the server's business (legal_moves), and input.js handles the pointer
// and the keyboard. Sizes are CSS variables (site.css: --cw card width, --ch card height)
// computed from the board's width and the window's height; fanned piles are spaced here, in
// px: a long pile squeezes toward the window's bottom, but never so far that a card's corner
// (rank and suit) is covered; past that the board grows and the page scrolls. A phone's board
// may take the table's narrow arrangement (arrange), and its tableau reaches down to the
// window's bottom.

import { cardElement, cardName, rankLabel, rankName } from "./cards.js";

const range = (n, make) => Array.from({ length: n }, (_, i) => make(i));

/*
 * Each game's table comes from /api/variants/ (its module in games/rules/ sets it out): rows
 * of slots, left to right. A slot is a pile ({pile, span: card widths, show: top cards a waste
 * fans}) or a spacer ({gap: card widths}); a clock row holds its foundations in a circle, 12
 * o'clock first. `units` is the table's width in card widths (columns × 1.1 − 0.1, the gap
 * being 0.1 card), `tall` its height to keep in view (cards shrink to fit a short window). A
 * table with a clock puts it beside the tableau on a wide board and above it on a narrow one,
 * where a phone-width board (under 560 px) draws it as a compact frame rather than an ellipse,
 * or as a band across the board's width when it takes its narrow arrangement (BAND)
 * (site.css). Each pile of the variant carries its names, its label (a clock's hour), when a
 * foundation is complete and what the opening deal puts on it. A table may have a `narrow`
 * arrangement of the same piles ({units, tall, rows}: a wide tableau in two rows, say) for a
 * phone held upright: each pile keeps its place in the DOM (the order of the wide table, for the
 * keyboard and screen readers) and gets its narrow place as CSS variables (--ny its row, --nx
 * its left edge and --nspan its width, in card widths); `arrange` picks the one to show.
 */

// The clock's ellipse, in card widths: wide enough that neighbouring hours never overlap.
const CLOCK = { rx: 2.9, ry: 2.85, inner: 1.55 };
// The compact clock of a phone-width board (site.css): the twelve foundations as a frame of
// five columns and three rows around the dial, clockwise from 12 in the top row's middle (3 on
// the right, 6 in the bottom row's middle, 9 on the left), each hour written just outside its
// card. Column and row pitch in card widths; `mark` and `side`: how far above or below its
// card, and beside it (clear of a complete foundation's ✓ on its right edge), a numeral's
// middle lies.
const RING = {
  // [column, row] of each hour, 12 o'clock first.
  cells: [[2, 0], [3, 0], [4, 0], [4, 1], [4, 2], [3, 2], [2, 2], [1, 2], [0, 2], [0, 1], [0, 0], [1, 0]],
  dx: 1.35,
  dy: 1.55,
  mark: 0.24,
  side: 0.36,
};

// The band of a phone held upright (a clock table's narrow arrangement, site.css): the clock
// flattened to use the board's whole width and little of its height, seven columns 1.1 card
// widths apart, 9 and 3 at its ends halfway down, 10 to 2 in a row between them above and 8 to
// 4 below, 0.04 card apart (12 and 6 in the middle column). Each numeral lies on the felt just
// outside its card (the top row's and 9's and 3's above, the bottom row's below), `mark` card
// widths from its edge to its middle; the count of complete foundations below 9.
const BAND = {
  // [column, row: 0 the top row, 1 the ends, 2 the bottom row] of each hour, 12 o'clock first.
  cells: [[3, 0], [4, 0], [5, 0], [6, 1], [5, 2], [4, 2], [3, 2], [2, 2], [1, 2], [0, 1], [1, 0], [2, 0]],
  dx: 1.1,
  tops: [-1.42, -0.7, 0.02],
  mark: 0.15,
};

const kindOf = (id) => id.split(":")[0];

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

const pilesOf = new WeakMap(); // variant → Map of its piles by id

/** The variant's entry for pile `id` ({id, kind, title, name, label, complete_rank, opening}). */
function pileOf(variant, id) {
  if (!variant?.piles) return undefined;
  if (!pilesOf.has(variant)) pilesOf.set(variant, new Map(variant.piles.map((p) => [p.id, p])));
  return pilesOf.get(variant).get(id);
}

/** "tableau:3" → "Tableau pile 4"; Grandfather's Clock's "foundation:0" → "12 o'clock foundation". */
export function pileTitle(id, variant) {
  return pileOf(variant, id)?.title ?? id;
}

/** The pile as the middle of a sentence names it, as the engine's messages do: "tableau pile 4",
 * "foundation 2", "the 12 o'clock foundation", "the waste", "the reserve". */
export function pileInSentence(id, variant) {
  return pileOf(variant, id)?.name ?? id;
}

/** A foundation is complete at 13 cards, or when its top card has the rank the game says
 * (Grandfather's Clock: its hour's). */
function isComplete(id, cards, variant) {
  if (kindOf(id) !== "foundation" || !cards.length) return false;
  const rank = pileOf(variant, id)?.complete_rank;
  return rank ? cards.at(-1)?.[0] === rank : cards.length === 13;
}

/** The rank code an empty foundation takes to start ("A"; the base rank once set), or "". */
function startRankOf(variant, state) {
  if (variant?.foundation_start_rank) return variant.foundation_start_rank;
  return variant?.foundation_start === "base_rank" ? state.base_rank || "" : "";
}

/** The pile's aria-label: "Tableau pile 4, 5 cards, 4 face down", "Stock, 24 cards",
 * "Foundation 2, empty", "12 o'clock foundation, 4 cards, complete", "Discard, 26 cards, 2 runs". */
export function pileLabel(id, pile, variant) {
  const count = pile.cards.length;
  const parts = [pileTitle(id, variant), count ? plural(count, "card") : "empty"];
  if (pile.face_down && kindOf(id) !== "stock") parts.push(`${pile.face_down} face down`);
  if (kindOf(id) === "discard" && count) parts.push(plural(Math.floor(count / 13), "run"));
  if (isComplete(id, pile.cards, variant)) parts.push("complete");
  return parts.join(", ");
}

function div(className, attrs = {}) {
  const node = document.createElement("div");
  node.className = className;
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

function slotSize(node, span) {
  if (span && span !== 1) node.style.setProperty("--span", span);
}

/** A card of a pile: face up when its code may be shown (never a face-down card's, unless
 * `reveal`, for a finished game's replay, where it is drawn face up but marked .revealed). */
function drawCard(code, faceDown, reveal) {
  if (faceDown && !(reveal && code)) return cardElement(null);
  const card = cardElement(code);
  if (faceDown) card.classList.add("revealed");
  return card;
}

function drawPile(slot, pile, state, variant, reveal) {
  const id = slot.pile;
  const kind = kindOf(id);
  const cards = pile.cards;
  const count = cards.length;
  const node = div(`pile kind-${kind}`, {
    "data-pile": id,
    "data-kind": kind,
    "data-count": count,
    "data-face-down": pile.face_down || 0,
    "data-name": pileInSentence(id, variant), // as a sentence names it: "the waste"
    tabindex: "0",
    role: "group",
    "aria-label": pileLabel(id, pile, variant),
  });
  slotSize(node, slot.span);
  if (!count) node.classList.add("empty");
  const faceUp = cards.slice(pile.face_down || 0).filter(Boolean);

  // What is drawn: a stock is one back and its count; a foundation, its top card; a waste
  // its top cards fanned; a discard the top card (Ace) of each run; the rest every card.
  let drawn = [];
  if (kind === "stock") {
    if (count) drawn = [cardElement(null)];
    const badge = div("count", { "aria-hidden": "true" });
    badge.textContent = String(count);
    node.append(badge);
  } else if (kind === "foundation") {
    if (count) drawn = [drawCard(cards.at(-1), false, reveal)];
    if (isComplete(id, cards, variant)) {
      node.classList.add("complete");
      const mark = div("done-mark", { "aria-hidden": "true" });
      mark.textContent = "\u2713";
      node.append(mark);
    }
  } else if (kind === "waste") {
    const shown = slot.show ?? 1;
    drawn = cards.slice(-shown).map((code) => drawCard(code, false, reveal));
    node.dataset.fan = "right";
  } else if (kind === "discard") {
    node.dataset.hint = "K\u2013A";
    drawn = range(Math.floor(count / 13), (run) => drawCard(cards[run * 13 + 12], false, reveal));
    node.dataset.fan = "right";
    if (drawn.length) {
      const badge = div("count runs", { "aria-hidden": "true" });
      badge.textContent = plural(drawn.length, "run");
      node.append(badge);
    }
  } else if (kind === "reserve") {
    // Named on the table as the discard and the stock are: by its outline, and a badge with
    // how many cards are left in it.
    node.dataset.hint = "Reserve";
    drawn = cards.map((code, i) => drawCard(code, i < (pile.face_down || 0), reveal));
    node.dataset.fan = "right";
    const badge = div("count", { "aria-hidden": "true" });
    badge.textContent = `Reserve \u00b7 ${count}`;
    node.append(badge);
  } else {
    drawn = cards.map((code, i) => drawCard(code, i < (pile.face_down || 0), reveal));
    node.dataset.fan = "down";
  }
  if (count > drawn.length && kind !== "stock" && kind !== "discard") node.classList.add("stacked");
  node.prepend(...drawn);

  // An empty pile's outline may say what starts it (the base rank; Gold Mine's Aces).
  // `startRank` is a rank code ("A", "T"): the outline shows its face label, a screen reader
  // hears it in words.
  let startRank = "";
  if (kind === "foundation" && !count) {
    startRank = startRankOf(variant, state);
    if (startRank) node.dataset.hint = rankLabel(startRank);
  }
  const top = faceUp.at(-1);
  if (kind === "tableau" && faceUp.length) {
    node.setAttribute("aria-description", `Face up: ${faceUp.map(cardName).join(", ")}`);
  } else if (top && kind !== "stock") {
    node.setAttribute("aria-description", `Top card: ${cardName(top)}`);
  } else if (startRank) {
    const name = rankName(startRank);
    const article = /^[AEIOU]/.test(name) ? "an" : "a";
    node.setAttribute("aria-description", `Takes ${article} ${name} to start`);
  }
  return node;
}

/** Where hour `i` lies, in card widths from the clock's middle, on the ellipse ([x, y]), in
 * the compact frame ([ringX, ringY]) and in a phone's band ([bandX, bandY]): its pile's top
 * left corner, and its numeral's middle. */
function clockPlace(i) {
  const angle = (i / 12) * 2 * Math.PI;
  const [sin, cos] = [Math.sin(angle), Math.cos(angle)];
  const [col, row] = RING.cells[i];
  const [x, y] = [(col - 2) * RING.dx - 0.5, (row - 1) * RING.dy - 0.7];
  // The numeral: above the top row, below the bottom row, left of 9 and right of 3.
  let mark = [x + 0.5, row === 0 ? y - RING.mark : y + 1.4 + RING.mark];
  if (row === 1) mark = [col === 0 ? x - RING.side : x + 1 + RING.side, 0];
  const [bandCol, bandRow] = BAND.cells[i];
  const [bx, by] = [(bandCol - 3) * BAND.dx - 0.5, BAND.tops[bandRow]];
  return {
    pile: [CLOCK.rx * sin - 0.5, -CLOCK.ry * cos - 0.7, x, y, bx, by],
    mark: [CLOCK.inner * sin, -CLOCK.inner * cos, ...mark, bx + 0.5, bandRow === 2 ? by + 1.4 + BAND.mark : by - BAND.mark],
  };
}

/** Hands a clock's pile or numeral its places (site.css picks the ellipse's, the frame's or
 * the band's). */
function place(node, [x, y, ringX, ringY, bandX, bandY]) {
  const values = { "--x": x, "--y": y, "--ring-x": ringX, "--ring-y": ringY, "--band-x": bandX, "--band-y": bandY };
  for (const [name, value] of Object.entries(values)) node.style.setProperty(name, value.toFixed(3));
}

function drawClock(slots, draw, variant) {
  const clock = div("clock");
  const face = div("clock-face", { "aria-hidden": "true" });
  clock.append(face);
  slots.forEach((slot, i) => {
    const at = clockPlace(i);
    const pile = draw(slot);
    place(pile, at.pile);
    clock.append(pile);
    // The dial's numeral, by its foundation: the hour the foundation builds to.
    const mark = div("hour-mark");
    mark.textContent = pileOf(variant, slot.pile)?.label ?? "";
    place(mark, at.mark);
    face.append(mark);
  });
  const done = clock.querySelectorAll(".pile.complete").length;
  if (done) {
    const centre = div("clock-centre");
    centre.textContent = `${done}/${slots.length}`;
    face.append(centre);
  }
  return clock;
}

function variantPiles(variant, state) {
  return variant?.piles?.map((p) => p.id) ?? Object.keys(state.piles);
}

/** The table's rows, plus a row for any pile of the variant the table does not place. */
function rowsFor(layout, ids) {
  const placed = new Set(layout.rows.flatMap((row) => row.slots.filter((s) => s.pile).map((s) => s.pile)));
  const rest = ids.filter((id) => !placed.has(id)).map((pile) => ({ pile }));
  return rest.length ? [...layout.rows, { slots: rest }] : layout.rows;
}

/** Where each pile lies in a narrow arrangement: pile id → {row, x, span}, x its left edge in
 * card widths from the table's, as a flex row of the wide table would put it (gaps of 0.1
 * card, `justify` start, center or space-between). */
function narrowPlaces(narrow) {
  const places = new Map();
  narrow.rows.forEach((row, r) => {
    if (row.clock) {
      places.set(CLOCK_PLACE, { row: r + 1 }); // the clock keeps its own places (BAND)
      return;
    }
    const widths = row.slots.map((slot) => (slot.gap ?? slot.span ?? 1) * 1.1 - 0.1);
    const used = widths.reduce((sum, w) => sum + w, 0) + 0.1 * (widths.length - 1);
    const free = Math.max(0, narrow.units - used);
    let x = row.justify === "center" ? free / 2 : 0;
    const between = row.justify === "space-between" && widths.length > 1 ? free / (widths.length - 1) : 0;
    const inRow = [];
    row.slots.forEach((slot, i) => {
      if (slot.pile) inRow.push([slot.pile, { row: r + 1, x, span: slot.span ?? 1, width: widths[i] }]);
      x += widths[i] + 0.1 + between;
    });
    // The left-handed layout (site.css, data-hand="left") mirrors a row whose stock or waste
    // lies right of the middle, so they come to the left edge: each pile's mirrored left edge.
    const mirror = inRow.some(([id, at]) => HAND_PILES.has(kindOf(id)) && at.x + at.width / 2 > narrow.units / 2);
    for (const [id, at] of inRow) {
      if (mirror) at.xLeft = narrow.units - at.x - at.width;
      places.set(id, at);
    }
  });
  return places;
}

// The piles a thumb reaches for most: on the left in the left-handed layout.
const HAND_PILES = new Set(["stock", "waste"]);

/** Whether the row of the wide table `row` has its stock or waste right of the middle (the
 * left-handed layout mirrors it on a phone-width board, site.css). */
function stockOnTheRight(row) {
  const piles = row.slots.filter((slot) => slot.pile);
  const at = piles.findIndex((slot) => HAND_PILES.has(kindOf(slot.pile)));
  return at >= 0 && at >= piles.length / 2 && piles.length > 1;
}

const CLOCK_PLACE = "clock"; // a narrow arrangement's place of its clock, among its piles

const layouts = new WeakMap(); // a drawn .tabletop → its table ({units, tall, narrow})

/** The table: its rows of piles (each drawn by `draw(slot)`), spacers and clock. */
function buildTable(slug, variant, layout, ids, draw) {
  const table = div(`tabletop v-${slug}`);
  layouts.set(table, layout);
  table.style.setProperty("--units", layout.units);
  table.style.setProperty("--tall", layout.tall);
  const places = layout.narrow ? narrowPlaces(layout.narrow) : null;
  if (places) {
    table.classList.add("has-narrow");
    table.style.setProperty("--units-narrow", layout.narrow.units);
    table.style.setProperty("--tall-narrow", layout.narrow.tall);
    const band = layout.narrow.rows.find((row) => row.clock);
    if (band) table.style.setProperty("--band-tall", band.frame.tall);
    const wide = draw;
    draw = (slot) => {
      const node = wide(slot);
      const at = places.get(slot.pile);
      if (at) {
        node.style.setProperty("--ny", at.row);
        node.style.setProperty("--nx", at.x.toFixed(3));
        node.style.setProperty("--nspan", at.span);
        if (at.xLeft !== undefined) node.style.setProperty("--nx-left", at.xLeft.toFixed(3));
      }
      return node;
    };
  }
  // A clock's other arrangements (site.css): beside the tableau, and the compact frame.
  const clock = layout.rows.find((row) => row.clock);
  if (clock) {
    table.classList.add("has-clock");
    table.style.setProperty("--units-beside", clock.beside.units);
    table.style.setProperty("--tall-beside", clock.beside.tall);
    table.style.setProperty("--tall-frame", clock.frame.tall);
  }
  for (const row of rowsFor(layout, ids)) {
    if (row.clock) {
      const clock = drawClock(row.slots, draw, variant);
      const at = places?.get(CLOCK_PLACE);
      if (at) clock.style.setProperty("--ny", at.row);
      table.append(clock);
      continue;
    }
    const line = div(row.tableau ? "row tableau-row" : "row");
    if (stockOnTheRight(row)) line.classList.add("stock-right");
    if (row.justify) line.style.justifyContent = row.justify;
    for (const slot of row.slots) {
      if (slot.gap) {
        const spacer = div("spacer", { "aria-hidden": "true" });
        slotSize(spacer, slot.gap);
        line.append(spacer);
      } else if (ids.includes(slot.pile)) {
        line.append(draw(slot));
      }
    }
    table.append(line);
  }
  return table;
}

const FALLBACK = { units: 10.9, tall: 6, rows: [] };

/**
 * Draw `game` — a game representation from the API, or any object with a `state` (a replay
 * step) — into `container` (the #board element), laid out for `variant` (an entry of
 * /api/variants/). Sets data-variant, data-move-number and data-status on the container.
 * `reveal`: draw face-down cards whose codes the state holds face up (finished games' replays).
 */
export function renderBoard(container, game, variant, { reveal = false } = {}) {
  const state = game.state ?? game;
  const slug = variant?.slug ?? state.variant ?? game.variant;
  const layout = variant?.table ?? FALLBACK;
  const ids = variantPiles(variant, state);
  container.classList.add("board");
  container.dataset.variant = slug;
  container.dataset.moveNumber = String(game.move_number ?? state.move_number ?? 0);
  container.dataset.status = game.status ?? "";

  const empty = { cards: [], face_down: 0 };
  const draw = (slot) => drawPile(slot, state.piles[slot.pile] ?? empty, state, variant, reveal);
  container.replaceChildren(buildTable(slug, variant, layout, ids, draw));
  watch(container);
  fitFans(container);
  return container;
}

// -- fanning: spacing in px, from the card size the CSS chose and the room left -------------

const STEP = {
  down: { faceDown: 0.16, faceUp: 0.36, minFaceDown: 0.07 }, // × card width
  right: { max: 0.58, reserve: 0.62, back: 0.16 },
};

/** How far down a face-up card its corner index reaches, in px, and a little more: a fanned
 * card's step never goes below it, or the next card would cover its rank and suit. Measured,
 * since the index has a minimum font size (site.css) that small cards do not scale down. */
function cornerDepth(container, cw) {
  const index = container.querySelector(".card.face-up .index.top");
  if (!index) return STEP.down.faceUp * cw;
  const depth = index.getBoundingClientRect().bottom - index.parentElement.getBoundingClientRect().top;
  return depth + Math.max(1, cw * 0.03);
}

function fanDown(pile, cw, room, corner) {
  const cards = [...pile.querySelectorAll(":scope > .card")];
  if (!cards.length) {
    pile.style.minHeight = "";
    return;
  }
  const ch = cw * 1.4;
  const backs = cards.filter((c) => c.classList.contains("face-down")).length;
  const faces = cards.length - 1 - Math.min(backs, cards.length - 1);
  let down = STEP.down.faceDown * cw;
  let up = Math.max(STEP.down.faceUp * cw, corner);
  const need = () => ch + backs * down + faces * up;
  // Squeeze the backs first (nobody reads them), then the faces, never below their corner:
  // a pile still too long makes the board taller.
  if (need() > room && backs) down = Math.max(STEP.down.minFaceDown * cw, (room - ch - faces * up) / backs);
  if (need() > room && faces) up = Math.max(corner, (room - ch - backs * down) / faces);
  let top = 0;
  for (const card of cards) {
    card.style.top = `${top.toFixed(1)}px`;
    card.style.left = "";
    top += card.classList.contains("face-down") ? down : up;
  }
  pile.style.minHeight = `${(need() + 2).toFixed(1)}px`;
}

/** How far right each card but the last must show: its corner index and a little more (a 10's
 * is the widest). The room left over, up to the usual step, is shared evenly. */
function fanRight(pile, cw) {
  const cards = [...pile.querySelectorAll(":scope > .card")];
  const corners = cards.slice(0, -1).map((card) => {
    const index = card.querySelector(".index.top");
    if (!index) return STEP.right.back * cw;
    return index.getBoundingClientRect().right - card.getBoundingClientRect().left + Math.max(1, cw * 0.03);
  });
  const max = (pile.dataset.kind === "reserve" ? STEP.right.reserve : STEP.right.max) * cw;
  const room = Math.min(pile.clientWidth - cw, max * corners.length);
  const extra = corners.length ? Math.max(0, (room - corners.reduce((a, b) => a + b, 0)) / corners.length) : 0;
  let left = 0;
  cards.forEach((card, i) => {
    card.style.left = `${left.toFixed(1)}px`;
    card.style.top = "";
    left += (corners[i] ?? 0) + extra;
  });
}

// A board narrower than this is a phone's (site.css draws Grandfather's Clock's compact frame
// below it too), and a card narrower than TOUCH is no comfortable target for a finger.
const PHONE = 560;
const TOUCH = 44;

/** The board's content width and the window's height left for the table (100dvh less the
 * page's --chrome, as site.css computes the card size), in px. */
function room(container, table) {
  const style = getComputedStyle(container);
  const width = container.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const probe = div("", { "aria-hidden": "true" });
  probe.style.cssText = "position:absolute;visibility:hidden;width:0;height:calc(100dvh - var(--chrome))";
  table.append(probe);
  const height = probe.offsetHeight;
  probe.remove();
  return { width, height };
}

/** Take the table's narrow arrangement (.narrow, site.css) on a phone-width board when its
 * whole table shows with larger cards than the wide one's, and cards a finger can take (44 px
 * at least): Grounds for Divorce's ten piles in two rows of five on a phone held upright, but
 * not on a replay's board below its taller header, where that would not be so. */
function arrange(container) {
  const table = container.querySelector(":scope > .tabletop");
  const layout = table && layouts.get(table);
  if (!layout?.narrow) return;
  const { width, height } = room(container, table);
  const card = ({ units, tall }) => Math.min(width / units, height / tall, 108);
  const narrow = width < PHONE && card(layout.narrow) >= TOUCH && card(layout.narrow) > card(layout);
  table.classList.toggle("narrow", narrow);
}

/** How tall a pile fanned down would be with the usual steps, in px. */
function naturalDepth(pile, cw, corner) {
  const cards = pile.querySelectorAll(":scope > .card");
  if (!cards.length) return 0;
  const backs = pile.querySelectorAll(":scope > .card.face-down").length;
  const faces = cards.length - 1 - Math.min(backs, cards.length - 1);
  return cw * 1.4 + backs * STEP.down.faceDown * cw + faces * Math.max(STEP.down.faceUp * cw, corner);
}

/** The piles fanned down, in lines side by side (a row of the table: two in a narrow
 * arrangement's tableau), top to bottom. */
function fannedLines(container) {
  const lines = new Map();
  for (const pile of container.querySelectorAll(".pile[data-fan=down]")) {
    const top = Math.round(pile.getBoundingClientRect().top);
    lines.set(top, [...(lines.get(top) ?? []), pile]);
  }
  return [...lines.entries()].sort((a, b) => a[0] - b[0]).map(([, piles]) => piles);
}

/** Space the fanned piles of a drawn board for its current size (also on resize). A phone's
 * play page (`data-fit="page"`) whose piles, fanned as tight as their corners allow, would still
 * make the page scroll takes smaller cards (`--cw-cap`, never under 44 px), as little smaller as
 * lets the table fit; they grow back once the piles allow. */
export function fitFans(container) {
  const capping = container.dataset.fit === "page" && container.clientWidth < PHONE;
  container.style.removeProperty("--cw-cap");
  let cw = fitAt(container);
  for (let tries = 0; capping && cw && tries < 4; tries += 1) {
    const over = document.documentElement.scrollHeight - window.innerHeight;
    const table = container.querySelector(".tabletop");
    if (over <= 0.5 || !table) break;
    const height = table.getBoundingClientRect().height;
    const next = Math.max(MIN_CARD, Math.floor((cw * (height - over)) / height));
    if (next >= cw) break;
    container.style.setProperty("--cw-cap", `${next}px`);
    cw = fitAt(container);
  }
}

const MIN_CARD = 44; // px: the narrowest card a finger takes (site.css's clamp for --cw too)

/** fitFans at the card width the table has now; returns that width (0 when not displayed). */
function fitAt(container) {
  arrange(container);
  const probe = container.querySelector(".pile[data-kind=tableau]") ?? container.querySelector(".pile");
  const cw = probe?.offsetWidth;
  if (!cw) return 0; // not displayed yet: the resize observer will call again
  for (const pile of container.querySelectorAll(".pile[data-fan=right]")) fanRight(pile, cw);
  const corner = cornerDepth(container, cw);
  const lines = fannedLines(container);
  const depths = lines.map((line) => Math.max(...line.map((pile) => naturalDepth(pile, cw, corner))));
  const gap = cw * 0.24;
  // A phone's tableau reaches down to the window's bottom: the felt uses the screen's height,
  // and an empty pile is a tall target (unless that would make the page scroll).
  const phone = container.clientWidth < PHONE;
  const filled = [];
  lines.forEach((line, i) => {
    // Room: down to the bottom of the window, less what the lines below it need (each at most
    // its share), but never less than a few cards' worth (shared by the lines).
    const top = line[0].getBoundingClientRect().top + window.scrollY;
    const left = window.innerHeight - top - roomBelow(container);
    const share = left / (lines.length - i);
    const below = depths.slice(i + 1).reduce((sum, depth) => sum + Math.min(depth, share) + gap, 0);
    const room = Math.max(left - below, (cw * 1.4 * 2.6) / lines.length);
    const last = phone && i === lines.length - 1;
    for (const pile of line) {
      fanDown(pile, cw, room, corner);
      if (last) filled.push([pile, parseFloat(pile.style.minHeight) || 0, room]);
    }
  });
  fill(filled);
  return cw;
}

/** What must stay in view below the board's last line: the felt's bottom edge, and, where the
 * page says so (`data-fit="page"`: the play page, whose action bar lies below the board on a
 * phone), whatever lies below the board on the page, so that fanned piles never push it out of
 * the window. Elsewhere (a replay's moves below its board, which scroll) 12 px. */
function roomBelow(container) {
  if (container.dataset.fit !== "page") return 12;
  const style = getComputedStyle(container);
  const edge = parseFloat(style.paddingBottom) + parseFloat(style.borderBottomWidth);
  const after = document.body.getBoundingClientRect().bottom - container.getBoundingClientRect().bottom;
  return edge + Math.max(0, after) + 2;
}

/** Stretch the last line's piles down to `room`, as far as the page does not scroll (further)
 * for it: not where something lies below the board (a replay's moves). */
function fill(piles) {
  if (!piles.length) return;
  const page = () => document.documentElement.scrollHeight;
  const before = Math.max(page(), window.innerHeight);
  for (const [pile, need, room] of piles) pile.style.minHeight = `${Math.max(need, room).toFixed(1)}px`;
  const over = page() - before;
  if (over <= 0) return;
  for (const [pile, need, room] of piles) {
    pile.style.minHeight = `${Math.max(need, Math.max(need, room) - over).toFixed(1)}px`;
  }
}

const watched = new WeakSet();

function watch(container) {
  if (watched.has(container)) return;
  watched.add(container);
  let width = 0;
  let frame = 0;
  const refit = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => fitFans(container));
  };
  new ResizeObserver((entries) => {
    const now = entries[0].contentRect.width;
    if (now !== width) {
      width = now;
      refit();
    }
  }).observe(container);
  window.addEventListener("resize", refit);
}

// -- the lobby's miniatures --------------------------------------------------------------

/**
 * A small picture of a game's table: the same layout, each pile an outline, with backs and
 * blank faces where the opening deal puts cards. Decorative (aria-hidden).
 */
export function renderMiniature(container, variant) {
  const slug = variant.slug;
  const layout = variant.table ?? FALLBACK;
  const ids = variantPiles(variant, { piles: {} });
  container.classList.add("mini");
  container.setAttribute("aria-hidden", "true");
  let tint = 0;
  const draw = (slot) => {
    const kind = kindOf(slot.pile);
    const node = div(`pile kind-${kind}`, { "data-kind": kind });
    slotSize(node, slot.span);
    // What the opening deal puts on the pile; a stock is drawn as one back, as on the board.
    const { cards = 0, face_down: down = 0 } = pileOf(variant, slot.pile)?.opening ?? {};
    const backs = kind === "stock" ? Math.min(down, 1) : down;
    const faces = kind === "stock" ? 0 : cards - down;
    for (let i = 0; i < backs + faces; i += 1) {
      const card = div(i < backs ? "card face-down" : `card blank ${tint++ % 2 ? "red" : "black"}`);
      // Spacing in card widths, so the picture scales with its box.
      const step = Math.min(i, backs) * 0.16 + Math.max(0, i - backs) * 0.3;
      if (kind === "tableau") card.style.top = `calc(var(--cw) * ${step.toFixed(2)})`;
      if (kind === "reserve") card.style.left = `calc(var(--cw) * ${(i * 0.55).toFixed(2)})`;
      node.append(card);
    }
    if (!(backs + faces)) node.classList.add("empty");
    const depth = Math.min(backs, backs + faces - 1) * 0.16 + Math.max(0, faces - 1) * 0.3;
    if (kind === "tableau" && depth) node.style.minHeight = `calc(var(--ch) + var(--cw) * ${depth.toFixed(2)})`;
    return node;
  };
  container.replaceChildren(buildTable(slug, variant, layout, ids, draw));
  return container;
}
