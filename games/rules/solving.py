"""What the solver knows of a game, kept with the game (each game module's ``solver``).

Plain data: the rules engine never reads it, and nothing here changes how a game plays.
``games.solver`` reads it (``tactics``, ``difficulty``) and proves each fact it relies on
(``tests/solver/test_tactics.py``, ``tests/solver/test_pruning.py``); docs/solver.md says what
each one means.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: The safe-home rules (games/solver/tactics.py ``Tactics.stronger_safe_home``): only the rule
#: every game has (nothing away could ever rest on the card), or also the stronger one for
#: tableaux built in alternating colours, or in any suit, with foundations by suit.
SAFE_AWAY, SAFE_ALTERNATE, SAFE_ANY_SUIT = "away", "alternate", "any-suit"

#: The stock action as the compiled core plays it (``CorePlay.deal``): none, one card to the
#: waste a deal, or one card to each tableau pile a deal.
DEAL_NONE, DEAL_TO_WASTE, DEAL_TO_PILES = "none", "to-waste", "to-piles"
#: The automatic effects after a move as the core plays them (``CorePlay.settle``): a pile's
#: new top card turns face up; an emptied tableau pile takes the stock's top card, else the
#: waste's; a finished same-suit run leaves the tableau for the discard.
SETTLE_TURN_UP, SETTLE_REFILL, SETTLE_RUNS = "turn-up", "refill", "runs"

#: The relaxations that may prove a position lost (``games.solver.relax``; docs/solver.md,
#: "Proofs of loss by relaxation"), each a game whose moves contain the real game's:
#: the waste as a set (any card waiting in it may be played, not only its top); groups that
#: run down by the tableau's own building rule moving as a unit (in any suit where the real
#: groups must keep one); a deal allowed whatever blocks it in the real game (empty piles).
RELAX_WASTE_SET, RELAX_ANY_RUN, RELAX_DEAL_ANYWAY = "waste-set", "any-run", "deal-anyway"


@dataclass(frozen=True)
class CorePlay:
    """What the compiled core (games/solver/_core.c) needs told of a game beyond its generic
    declarations: which of its stock actions and automatic effects the game module's own
    hooks (its ``_deal_from_stock`` and ``_settle``, where it overrides them) implement.
    Declared only once tests/solver/test_core_differential.py has checked the core against
    the engine on it."""

    deal: str
    settle: str


@dataclass(frozen=True)
class SearchPass:
    """One search of a deal (``games.solver.tactics.Pass``): ``weights`` of the evaluation
    (``games.solver.evaluation.Weights`` fields), depth first ("dfs") or best first ("best")
    less ``move_cost`` a move, on ``share`` of the budget (the last pass gets the rest);
    ``narrow``: only productive moves (finds wins, never proves a loss)."""

    weights: dict[str, float] = field(hash=False)
    method: str = "best"
    move_cost: float = 0.0
    share: float = 1.0
    narrow: bool = False


@dataclass(frozen=True)
class SolverProfile:
    #: The searches tried on a deal, in turn (chosen on deals, as each game's comment says).
    passes: tuple[SearchPass, ...]
    #: Upper bounds (positions searched before a win) of "easy", "medium" and "hard": the
    #: quartiles, to three significant figures, over the won deals of the game's stored
    #: winnability run (games/solver/winnability/; the figures in bench/README.md, "Winnability
    #: and difficulty (2026-11-29)").
    difficulty: tuple[int, int, int]
    #: Where the game comes in a day's preparation (lower first: quickly proven games first).
    daily_order: int
    #: A daily challenge's first rung (``games.solver.ladder``), in positions: its first
    #: candidates are each searched within this budget, the first won taken, before any is
    #: searched on the full one; None: every candidate on the full budget, as before. Given only
    #: where a win found on it counts what the difficulty thresholds were measured on: a game
    #: of one pass (a smaller budget only ends the same search sooner, so a win within it is the
    #: full search's win, to the position), or one whose passes split it as the stored run's
    #: budget did (that budget itself).
    daily_first_positions: int | None = None
    #: The passes a look-ahead hint searches, when not ``passes`` (empty): a hint's small budget
    #: split many ways leaves its last passes too few positions.
    hint_passes: tuple[SearchPass, ...] = ()
    #: Its tableau piles are interchangeable while the stock still has cards (they always are
    #: once it is out).
    tableau_always_interchangeable: bool = True
    #: Its empty foundations all take the same cards.
    foundations_interchangeable: bool = False
    #: Emptying a tableau pile refills it from the stock or waste at once.
    refills_emptied_piles: bool = False
    #: Its rules tell cards apart by rank and colour only.
    keyed_by_colour: bool = False
    #: Its discard holds every card not elsewhere and nothing leaves it.
    discard_out_of_key: bool = False
    #: The stronger safe-home rule it allows (``SAFE_*``).
    safe_home: str = SAFE_AWAY
    #: A deal only feeds the waste, so deals can be folded.
    folds_deals: bool = False
    #: How the compiled core plays the game (None: it does not, and the Python search does).
    core: CorePlay | None = None
    #: The relaxed games tried, in turn, on a position its search left unknown (``RELAX_*``;
    #: a tuple of several is one relaxed game with each of them).
    relaxations: tuple[tuple[str, ...], ...] = ()
    #: Its reserve feeds the foundations only, and they build one rank apart in alternating
    #: colours from a base rank with two decks: a position whose reserve cannot be laid on
    #: the foundations in its order, whatever else is free, is lost (``games.solver.deadends``).
    reserve_dead_end: bool = False
