"""How often each game can be won, and winnable deals for the pool: the solver run on many
deals. Pure Python, no Django (``manage.py winnability`` and ``games.play.winnable_pool`` are thin
wrappers), so it also runs in a child process.

A run solves deals ``seed_from``, ``seed_from + 1``, … (reproducible, and resumable: the
results file is read back and only the missing seeds are solved) and writes one JSON line per
deal to ``games/solver/winnability/<slug>.jsonl``::

    {"seed": 7, "outcome": "won", "positions": 318, "seconds": 0.02, "length": 46}

A results file grown past ``COMPRESS_ABOVE`` bytes is kept gzip-compressed beside it
(``<slug>.jsonl.gz``, lines in seed order): a run of 10,000 deals is about 850 kB of text and
170 kB compressed. Readers take both (``result_lines``), and a run resumed from a compressed
file appends to the plain one, merged into the compressed one when it ends (``store``).

``summarize`` turns those lines into the figures ``summary.json`` keeps per game, which the
README and each game's rules page show: won, proven lost, unknown, and a Wilson 95 % interval
for the share of winnable deals that counts every unknown deal as lost for its lower end and
as won for its upper end.
"""

from __future__ import annotations

import gzip
import json
import math
import secrets
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.rules import MAX_SEED, VARIANTS, get_variant

from . import deadends
from .search import LOST, PROOF_SEARCH, UNKNOWN, WON, Budget, relaxed_budget, solve

#: Where the raw results and the summary live (in the repository).
RESULTS_DIR = Path(__file__).resolve().parent / "winnability"
SUMMARY_FILE = RESULTS_DIR / "summary.json"
#: z for a two-sided 95 % interval.
Z95 = 1.959963984540054


# -- the Wilson score interval ----------------------------------------------------------------


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion: ``successes`` of ``n`` trials."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"{successes} successes of {n} trials")
    p = successes / n
    z2 = z * z
    centre = p + z2 / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    denominator = 1 + z2 / n
    return (max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator))


def wilson_low(successes: int, n: int, z: float = Z95) -> float:
    return wilson(successes, n, z)[0]


def wilson_high(successes: int, n: int, z: float = Z95) -> float:
    return wilson(successes, n, z)[1]


def winnable_interval(won: int, unknown: int, n: int) -> tuple[float, float]:
    """The share of winnable deals, at 95 %: every unknown deal counted as lost for the lower
    end and as won for the upper end."""
    return (wilson_low(won, n), wilson_high(won + unknown, n))


# -- one deal ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class DealResult:
    seed: int
    outcome: str  # WON, LOST or UNKNOWN
    positions: int
    seconds: float
    length: int | None  # the winning line's moves, when won
    #: How a loss was proven (``Answer.proof``), when it was not by the search itself.
    proof: str | None = None

    def to_json(self) -> dict[str, Any]:
        data = {
            "seed": self.seed,
            "outcome": self.outcome,
            "positions": self.positions,
            "seconds": self.seconds,
            "length": self.length,
        }
        if self.proof is not None:
            data["proof"] = self.proof
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DealResult:
        if data["outcome"] not in (WON, LOST, UNKNOWN):
            raise ValueError(f"unknown outcome {data['outcome']!r}")
        return cls(
            seed=int(data["seed"]),
            outcome=data["outcome"],
            positions=int(data["positions"]),
            seconds=float(data["seconds"]),
            length=None if data.get("length") is None else int(data["length"]),
            proof=data.get("proof"),
        )


def solve_deal(slug: str, seed: int, budget: Budget) -> DealResult:
    variant = get_variant(slug)
    answer = solve(variant, variant.deal(seed), budget, relax_budget=relaxed_budget(budget))
    length = len(answer.moves) if answer.outcome == WON and answer.moves is not None else None
    proof = answer.proof if answer.proof not in (None, PROOF_SEARCH) else None
    return DealResult(
        seed, answer.outcome, answer.positions, round(answer.seconds, 3), length, proof
    )


def find_winnable_deal(slug: str, seconds: float, positions: int) -> dict[str, Any] | None:
    """One random deal (a secret seed) searched within the budget: its certificate when the
    solver proves it winnable, else None. The winnable-deal pool's worker: top level and
    Django-free, so a child process can run it."""
    variant = get_variant(slug)
    seed = secrets.randbelow(MAX_SEED + 1)
    answer = solve(variant, variant.deal(seed), Budget(positions=positions, seconds=seconds))
    if answer.outcome != WON:
        return None
    return {
        "seed": seed,
        "moves": answer.moves_json(),
        "positions": answer.positions,
        "seconds": round(answer.seconds, 3),
    }


# -- a run: many deals, one results file per game ---------------------------------------------


def results_path(slug: str, directory: Path = RESULTS_DIR) -> Path:
    return directory / f"{slug}.jsonl"


def compressed(path: Path) -> Path:
    """Where a results file is kept compressed: ``<slug>.jsonl`` -> ``<slug>.jsonl.gz``."""
    return path.with_name(path.name + ".gz")


def result_lines(path: Path) -> list[str]:
    """The text lines of a results file: those of its compressed form, then those appended to
    the plain one (either may be missing)."""
    lines: list[str] = []
    packed = compressed(path)
    if packed.exists():
        with gzip.open(packed, "rt", encoding="utf-8") as f:
            lines.extend(f.read().splitlines())
    if path.exists():
        lines.extend(path.read_text(encoding="utf-8").splitlines())
    return lines


def read_results(path: Path) -> list[DealResult]:
    """The lines of a results file, compressed or not (none when it does not exist); a torn
    last line (a run stopped while writing) is dropped."""
    results = []
    for line in result_lines(path):
        if not line.strip():
            continue
        try:
            results.append(DealResult.from_json(json.loads(line)))
        except (ValueError, KeyError, TypeError):
            continue
    return results


#: A results file larger than this (bytes of text) is kept compressed.
COMPRESS_ABOVE = 500_000


def store(path: Path, *, above: int = COMPRESS_ABOVE) -> Path:
    """After a run: the results file as it is kept. Once compressed, or once its text is larger
    than ``above``, every line (one per seed, in seed order) goes into ``<slug>.jsonl.gz``
    (no timestamp inside, so the same results give the same bytes) and the plain file is
    removed. Returns the file that now holds the results."""
    packed = compressed(path)
    if not packed.exists() and (not path.exists() or path.stat().st_size <= above):
        return path
    by_seed = {result.seed: result for result in read_results(path)}
    text = "".join(json.dumps(by_seed[seed].to_json()) + "\n" for seed in sorted(by_seed))
    partial = packed.with_name(packed.name + ".partial")
    with partial.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
        out.write(text.encode("utf-8"))
    partial.replace(packed)
    path.unlink(missing_ok=True)
    return packed


def run(
    slug: str,
    seeds: Iterable[int],
    budget: Budget,
    path: Path,
    *,
    progress: Callable[[DealResult], None] | None = None,
    retry_unknown: bool = False,
    recheck_dead_ends: bool = False,
) -> list[DealResult]:
    """Solve each seed not already in ``path`` and append its line (flushed as it is found, so
    a stopped run resumes where it was). Returns the results of ``seeds``, in their order,
    those read back from the file included.

    With ``retry_unknown``, a seed left unknown on fewer positions than ``budget`` is solved
    again and its new line, appended, stands for it (a file's last line for a seed wins): how a
    run spends a larger budget on the deals a smaller one could not answer.

    With ``recheck_dead_ends``, a seed left unknown whose deal is a static dead end
    (``deadends``, proven lost before any search) is solved again the same way: how a run made
    before a dead-end rule was known takes it in, searching nothing else again (the search
    itself, counted in positions, answers the other deals as it did)."""
    seeds = list(seeds)
    known = {result.seed: result for result in read_results(path)}
    path.parent.mkdir(parents=True, exist_ok=True)
    torn = path.exists() and path.stat().st_size > 0 and not path.read_bytes().endswith(b"\n")
    with path.open("a", encoding="utf-8") as out:
        if torn:  # a run stopped mid-line: the next line starts on a line of its own
            out.write("\n")
        for seed in seeds:
            again = (retry_unknown and _unanswered(known.get(seed), budget)) or (
                recheck_dead_ends and _dead_end(slug, known.get(seed))
            )
            if seed in known and not again:
                continue
            result = solve_deal(slug, seed, budget)
            out.write(json.dumps(result.to_json()) + "\n")
            out.flush()
            known[seed] = result
            if progress is not None:
                progress(result)
    return [known[seed] for seed in seeds]


def _unanswered(result: DealResult | None, budget: Budget) -> bool:
    """Left unknown on a smaller budget than ``budget`` (an unknown deal spent its whole one)."""
    return result is not None and result.outcome == UNKNOWN and result.positions < budget.positions


def _dead_end(slug: str, result: DealResult | None) -> bool:
    """Left unknown, and its deal a static dead end (``deadends``)."""
    if result is None or result.outcome != UNKNOWN:
        return False
    variant = get_variant(slug)
    return deadends.is_dead_end(variant, variant.deal(result.seed))


def budget_words(seconds: float, positions: int, retry_positions: int | None = None) -> str:
    """What bounded each search, as the figures are shown: "10 s" or "60,000 positions" (a
    budget counted in positions gives the same answers on any machine, however loaded), and
    the larger budget the unknown deals were searched again with, if any."""
    words = f"{positions:,} positions" if seconds >= POSITIONS_BOUND_SECONDS else f"{seconds:g} s"
    if retry_positions:
        words += f", unknown deals again at {retry_positions:,}"
    return words


def figures_budget_words(figures: dict[str, Any]) -> str:
    """A summary's budget in words (``summarize``'s figures)."""
    return budget_words(
        figures["seconds_budget"],
        figures["positions_budget"],
        figures.get("retry_positions_budget"),
    )


#: A run whose seconds are at least this is bounded by its positions.
POSITIONS_BOUND_SECONDS = 600.0


def summarize(
    results: Iterable[DealResult], budget: Budget, retry: Budget | None = None
) -> dict[str, Any]:
    """The figures of a run, as ``summary.json`` keeps them for a game; ``retry``: the larger
    budget its unknown deals were searched again with (``run(retry_unknown=True)``)."""
    results = list(results)
    counts = {WON: 0, LOST: 0, UNKNOWN: 0}
    for result in results:
        counts[result.outcome] += 1
    n = len(results)
    low, high = winnable_interval(counts[WON], counts[UNKNOWN], n)
    retried = {"retry_positions_budget": retry.positions} if retry else {}
    return {
        "deals": n,
        "won": counts[WON],
        "lost": counts[LOST],
        "unknown": counts[UNKNOWN],
        "seconds_budget": budget.seconds,
        "positions_budget": budget.positions,
        **retried,
        "budget": budget_words(budget.seconds, budget.positions, retry and retry.positions),
        "interval": [round(low, 4), round(high, 4)],
        "point": round(counts[WON] / n, 4) if n else None,
        "seeds": [min(r.seed for r in results), max(r.seed for r in results)] if n else None,
    }


def read_summary(path: Path = SUMMARY_FILE) -> dict[str, dict[str, Any]]:
    """Every game's figures (an empty dict when there is no summary yet, or it is unreadable)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_summary(slug: str, figures: dict[str, Any], path: Path = SUMMARY_FILE) -> None:
    """Set one game's figures in the summary, keeping the others'; games in a stable order."""
    summary = read_summary(path)
    summary[slug] = figures
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(dict(sorted(summary.items())), indent=2) + "\n"
    path.write_text(text, encoding="utf-8")


# -- the README's table ------------------------------------------------------------------------

README_FILE = Path(__file__).resolve().parents[2] / "README.md"
README_START = "<!-- winnability table: written by manage.py winnability -->"
README_END = "<!-- end of the winnability table -->"
#: A run of fewer deals is marked preliminary in the README.
PRELIMINARY_BELOW = 100


def percent(share: float) -> str:
    """0.8391 → "83.9", 1.0 → "100": a share as the figures are shown."""
    return f"{share * 100:.1f}".removesuffix(".0")


def readme_table(summary: dict[str, dict[str, Any]]) -> str:
    """The summary as the README's Markdown table, the five games in the engine's order."""
    rows = [
        "| Game | Deals | Budget per deal | Won | Proven lost | Unknown | Winnable (Wilson 95 %) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for slug in VARIANTS:
        figures = summary.get(slug)
        if not figures or not figures.get("deals"):
            continue
        low, high = figures["interval"]
        rows.append(
            f"| {VARIANTS[slug].name} | {figures['deals']:,} "
            f"| {figures_budget_words(figures)} "
            f"| {figures['won']:,} | {figures['lost']:,} | {figures['unknown']:,} "
            f"| {percent(low)} % to {percent(high)} % |"
        )
    shown = [summary[slug] for slug in VARIANTS if summary.get(slug, {}).get("deals")]
    if any(figures["deals"] < PRELIMINARY_BELOW for figures in shown):
        rows.append("")
        rows.append(
            f"Preliminary figures: fewer than {PRELIMINARY_BELOW} deals searched, on a small "
            "budget; runs of 1,000 deals will replace them."
        )
    return "\n".join(rows)


def update_readme(summary: dict[str, dict[str, Any]], path: Path = README_FILE) -> bool:
    """Write the table between the README's markers; False when the README has none."""
    text = path.read_text(encoding="utf-8")
    start, end = text.find(README_START), text.find(README_END)
    if start < 0 or end < start:
        return False
    head = text[: start + len(README_START)]
    path.write_text(f"{head}\n{readme_table(summary)}\n{text[end:]}", encoding="utf-8")
    return True


def seeds_from(first: int, count: int) -> Iterator[int]:
    return iter(range(first, first + count))
