// The card size keeps the table, the controls above it and the help line below it in the
// window at the deal (site.css: --cw from the window's height less --page-chrome).

import { fitFans } from "../board.js";
import { $, page } from "./page.js";

/** What lies outside the table (the header and controls above the felt, the felt's edge, the
 * help line and the page's margin below it) is measured rather than assumed: the help line
 * takes two lines or more as the window narrows, and none on a phone. Measured once the page is
 * filled in and again when the window changes size, never on a move, so the cards keep their
 * size during a game. */
export function fitChrome() {
  const board = page.board;
  const table = board.querySelector(".tabletop");
  if (!table) return;
  const felt = board.getBoundingClientRect();
  const below = $("main").getBoundingClientRect().bottom - felt.bottom;
  const chrome = felt.top + window.scrollY + (felt.height - table.getBoundingClientRect().height) + below;
  board.style.setProperty("--page-chrome", `${Math.ceil(chrome)}px`);
  fitFans(board);
}

let resizeFrame = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(resizeFrame);
  resizeFrame = requestAnimationFrame(fitChrome);
});
