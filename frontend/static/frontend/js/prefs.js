// The player's table settings (settings.js), applied before the page is first drawn: a plain
// script loaded in <head> without defer, so that the felt's colour, the card backs and the
// left-handed layout never flicker from the defaults to the player's choice. (An inline script
// would do the same, but the site's Content-Security-Policy, script-src 'self', takes none.)
// A signed-in account's settings come with the page, already on <html> (data-settings="account",
// base.html): only a change the last page made and could not see saved is applied over them
// (settings.js sends it again). A guest's or a visitor's are in this browser's localStorage, as is
// an account's that has saved none yet (settings.js then saves them to the account).
(function () {
  var root = document.documentElement;
  try {
    var saved;
    if (root.getAttribute("data-settings") === "account") {
      // Served with the page; only a change the last page could not see saved is applied over.
      var pending = JSON.parse(window.localStorage.getItem("patience.settings.pending") || "null");
      if (!pending || pending.account !== root.getAttribute("data-user")) return;
      saved = pending.changes || {};
      if (saved.left_handed === false) root.removeAttribute("data-hand");
    } else {
      saved = JSON.parse(window.localStorage.getItem("patience.settings") || "{}") || {};
    }
    var back = typeof saved.card_back === "string" ? saved.card_back : saved.back; // older name
    if (typeof saved.table === "string") root.setAttribute("data-table", saved.table);
    if (typeof back === "string") root.setAttribute("data-back", back);
    if (saved.left_handed === true) root.setAttribute("data-hand", "left");
  } catch (error) {
    // No storage (a private window's policy) or a damaged entry: the defaults.
  }
})();
