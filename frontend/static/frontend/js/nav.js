// Every page's header: the menu closes when the player clicks or tabs elsewhere; signing out
// is an API call.

import { api } from "./api.js";

const menu = document.querySelector(".site-nav details");
document.addEventListener("click", (event) => { if (menu && !menu.contains(event.target)) menu.open = false; });
menu?.addEventListener("focusout", (event) => { if (!menu.contains(event.relatedTarget)) menu.open = false; });
menu?.addEventListener("keydown", (event) => { if (event.key === "Escape") { menu.open = false; menu.querySelector("summary").focus(); } });
document.getElementById("sign-out")?.addEventListener("click", async () => {
  try { await api("POST", "/api/auth/logout/"); } catch { /* signed out or not, go home */ }
  window.location.assign("/");
});
