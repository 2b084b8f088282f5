// The player's table settings (settings.js), applied before the page is first drawn: a plain
// script loaded in <head> without defer, so that the felt's colour and the card backs never
// flicker from the defaults to the player's choice. (An inline script would do the same, but
// the site's Content-Security-Policy, script-src 'self', takes none.) Kept in localStorage for
// now; settings.js reads and writes them.
(function () {
  try {
    var saved = JSON.parse(window.localStorage.getItem("patience.settings") || "{}") || {};
    var root = document.documentElement;
    if (typeof saved.table === "string") root.setAttribute("data-table", saved.table);
    if (typeof saved.back === "string") root.setAttribute("data-back", saved.back);
  } catch (error) {
    // No storage (a private window's policy) or a damaged entry: the defaults.
  }
})();
