"""How often can a game be won? Solve deals SEED_FROM, SEED_FROM + 1, … with the solver and
print won / proven lost / unknown with a Wilson 95 % interval for the share of winnable deals
(``games.solver.winnability`` does the work; this reads the options and prints).

    manage.py winnability gold-mine --deals 1000 --seconds 10
    manage.py winnability selective-castle --deals 10000 --seconds 600 --positions 1000000 \
        --retry-unknown 20000000   # then the deals left unknown again, on 20,000,000 positions
    manage.py winnability blondes-and-brunettes --deals 300 --seconds 900 --positions 200000 \
        --retry-unknown 10000000 --recheck-dead-ends   # the unknown deals now proven dead ends

Each deal's result is appended to games/solver/winnability/<game>.jsonl as it is found (a run
stopped half way resumes where it was: seeds already there are not solved again; a file past
500 kB is then kept gzip-compressed, <game>.jsonl.gz, and read back from there), and the
game's figures are written to games/solver/winnability/summary.json, which the game's rules
page shows, and to the table of README.md ("How often can each game be won?")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.rules import VARIANTS
from games.solver import Budget
from games.solver import winnability as w


class Command(BaseCommand):
    help = "Solve N deals of a game and report how many can be won (Wilson 95 % interval)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", help=f"one of: {', '.join(VARIANTS)}")
        parser.add_argument("--deals", type=int, required=True, help="how many deals")
        parser.add_argument("--seconds", type=float, required=True, help="budget per deal")
        parser.add_argument(
            "--positions", type=int, default=Budget().positions, help="budget per deal"
        )
        parser.add_argument("--seed-from", type=int, default=0, help="first seed (default 0)")
        parser.add_argument(
            "--out", type=Path, default=None, help="results file (default: the game's .jsonl)"
        )
        parser.add_argument(
            "--summary",
            type=Path,
            default=w.SUMMARY_FILE,
            help="summary file to update (default: the repository's)",
        )
        parser.add_argument(
            "--fresh", action="store_true", help="start the results file afresh (no resuming)"
        )
        parser.add_argument(
            "--retry-unknown",
            type=int,
            default=None,
            metavar="POSITIONS",
            help="then search the deals left unknown again, on this larger budget of positions",
        )
        parser.add_argument(
            "--recheck-dead-ends",
            action="store_true",
            help="solve again the deals left unknown that a static dead end now proves lost",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        slug = options["game"]
        if slug not in VARIANTS:
            raise CommandError(f"no such game: {slug} (games: {', '.join(VARIANTS)})")
        if options["deals"] < 1 or options["seconds"] <= 0 or options["seed_from"] < 0:
            raise CommandError("--deals is at least 1, --seconds above 0, --seed-from 0 or more")
        budget = Budget(positions=options["positions"], seconds=options["seconds"])
        path = options["out"] or w.results_path(slug)
        if options["fresh"]:
            path.unlink(missing_ok=True)
            w.compressed(path).unlink(missing_ok=True)
        seeds = w.seeds_from(options["seed_from"], options["deals"])

        def progress(result: w.DealResult) -> None:
            self.stdout.write(
                f"  seed {result.seed}: {result.outcome} "
                f"({result.positions} positions, {result.seconds:.2f} s)"
            )

        results = w.run(
            slug,
            seeds,
            budget,
            path,
            progress=progress,
            recheck_dead_ends=options["recheck_dead_ends"],
        )
        retry = None
        if options["retry_unknown"]:
            if options["retry_unknown"] <= budget.positions:
                raise CommandError("--retry-unknown is a budget larger than --positions")
            retry = Budget(positions=options["retry_unknown"], seconds=options["seconds"])
            seeds = w.seeds_from(options["seed_from"], options["deals"])
            results = w.run(slug, seeds, retry, path, progress=progress, retry_unknown=True)
        path = w.store(path)  # compressed once large (games/solver/winnability.py)
        figures = w.summarize(results, budget, retry)
        w.write_summary(slug, figures, options["summary"])
        if options["summary"] == w.SUMMARY_FILE:
            w.update_readme(w.read_summary())  # the README shows the repository's figures
        low, high = figures["interval"]
        self.stdout.write(
            f"{VARIANTS[slug].name}: {figures['deals']} deals, {figures['budget']} each: "
            f"{figures['won']} won, {figures['lost']} proven lost, {figures['unknown']} unknown. "
            f"Winnable: between {low:.1%} and {high:.1%} (Wilson 95 %)."
        )
        self.stdout.write(f"Results in {path}; summary in {options['summary']}.")
