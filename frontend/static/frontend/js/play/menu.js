// The ☰ menu of a phone's top bar (site.css: on a desktop its wrapper is `display: contents`
// and its buttons lie in the bar, the button that opens it hidden): a popover under its button
// holding what a game needs now and then (new game, settings, rules, resign, the game's link,
// the lobby). It closes when one of its items is chosen, on Escape, and on a press elsewhere.

import { copyLinkButton } from "../ui.js";
import { $ } from "./page.js";

/** The menu `menu` opened and closed by `button`. */
export function attachMenu(button, menu) {
  const isOpen = () => menu.hasAttribute("data-open");
  function setOpen(open, { focus = false } = {}) {
    menu.toggleAttribute("data-open", open);
    button.setAttribute("aria-expanded", String(open));
    if (open) menu.querySelector(".button:not([hidden]):not([disabled])")?.focus();
    else if (focus) button.focus();
  }
  button.addEventListener("click", () => setOpen(!isOpen()));
  // An item chosen: the menu goes (the item's own action runs as it would in the bar). A
  // disabled item takes no click and leaves it open.
  menu.addEventListener("click", (event) => {
    const item = event.target.closest?.(".button, a");
    // (But "Copy link", which says "Link copied" in its place, or shows the link to copy.)
    if (isOpen() && item && item.id !== "menu-copy-link") setOpen(false);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && isOpen()) {
      event.preventDefault();
      setOpen(false, { focus: true });
    }
  });
  document.addEventListener(
    "pointerdown",
    (event) => {
      if (isOpen() && !menu.contains(event.target) && !button.contains(event.target)) setOpen(false);
    },
    true,
  );
  // The page's own address: the game goes on there, on another device too (signed in).
  copyLinkButton($("menu-copy-link"), () => window.location.href, $("menu-link"));
}
