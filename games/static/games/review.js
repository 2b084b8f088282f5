// Stepping without reloading: fetch the step's fragment and swap it in.
(() => {
  const root = document.getElementById("rv");
  const max = Number(root.dataset.max);
  let current = Number(root.dataset.step);
  let loading = false;

  async function show(step) {
    if (loading || !Number.isInteger(step) || step < 0 || step > max || step === current) return;
    const url = new URL(window.location.href);
    url.searchParams.set("step", step);
    url.searchParams.delete("verify");
    const fragment = new URL(url);
    fragment.searchParams.set("partial", "1");
    loading = true;
    try {
      const response = await fetch(fragment, { credentials: "same-origin" });
      if (!response.ok) { window.location.assign(url); return; }
      document.getElementById("rv-step").outerHTML = await response.text();
      current = step;
      for (const row of root.querySelectorAll("tr[data-row]")) {
        row.classList.toggle("selected", Number(row.dataset.row) === step);
      }
      root.querySelector(`tr[data-row="${step}"]`)?.scrollIntoView({ block: "nearest" });
      window.history.replaceState(null, "", url);
    } finally {
      loading = false;
    }
  }

  root.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-step]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    show(Number(link.dataset.step));
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select, button")) return;
    const target = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: max }[event.key];
    if (target !== undefined) { event.preventDefault(); show(target); }
  });
})();
