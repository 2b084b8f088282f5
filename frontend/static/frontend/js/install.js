// Registers the site's service worker (/sw.js, frontend/installable.py): the static assets are
// kept for a quicker second load and for a page left open offline, and a page that cannot be
// reached shows the offline page. Where service workers are not to be had (plain http away
// from localhost, or switched off), the site works as before without one.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
}
