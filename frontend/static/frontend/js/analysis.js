// The replay page's "Where the game was lost" (games/analysis/, docs/api.md): once the game is
// over, Analyse asks for the analysis (POST /api/games/<id>/analysis/), the progress line reads
// it again every POLL_MS while the worker makes it, then the page shows the finding: the
// losing move marked on the move list and the board (replay.js's markLosing), and the
// solver's winning line from the last winnable position stepped through on the board
// (replay.js's showLine), as the daily solution's is.

import { api } from "./api.js";
import { errorText, plural } from "./ui.js";

const POLL_MS = 1500;

/** ``page``: { markLosing(step|null), showLine(result), showGame(step) } from replay.js. Resolves
 * once the first answer (the analysis as it stands) is shown. */
export function startAnalysis(gameId, page) {
  const box = document.getElementById("analysis");
  const ask = document.getElementById("analyse");
  const progress = document.getElementById("analysis-progress");
  const summary = document.getElementById("analysis-summary");
  const showLine = document.getElementById("analysis-line");
  const back = document.getElementById("analysis-back");
  const url = `/api/games/${gameId}/analysis/`;
  let timer = null;
  let result = null;
  box.hidden = false;

  function show(analysis) {
    ask.hidden = analysis.state !== "not_asked";
    progress.textContent = analysis.state === "not_asked" ? "" : analysis.progress;
    progress.hidden = !progress.textContent || analysis.state === "done";
    clearTimeout(timer);
    if (analysis.state === "queued" || analysis.state === "running") {
      timer = setTimeout(() => load("GET"), POLL_MS);
    }
    if (analysis.state !== "done" || !analysis.result) return;
    result = analysis.result;
    summary.textContent = result.summary;
    summary.hidden = false;
    box.dataset.kind = result.kind;
    page.markLosing(result.losing_step);
    if (result.length) {
      const from = result.line_from.step === 0 ? "from the deal" : `after move ${result.line_from.step}`;
      showLine.textContent = `Show how to win ${from} (${plural(result.length, "move")})`;
      showLine.hidden = false;
    }
  }

  async function load(method) {
    try {
      show(await api(method, url));
    } catch (error) {
      clearTimeout(timer);
      ask.hidden = true;
      progress.hidden = false;
      progress.textContent = errorText(error);
    }
  }

  ask.addEventListener("click", async () => {
    ask.disabled = true;
    await load("POST");
    ask.disabled = false;
  });
  showLine.addEventListener("click", () => {
    page.showLine(result);
    showLine.hidden = true;
    back.hidden = false;
  });
  back.addEventListener("click", () => {
    page.showGame(result.losing_step ?? result.line_from?.step ?? 0);
    back.hidden = true;
    showLine.hidden = false;
  });
  return load("GET");
}
