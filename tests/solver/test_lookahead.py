"""Hints that look ahead (games.solver.lookahead): a winning line's first move where the solver
finds one, the plain truth on a lost position, else the first move of the line to the most
promising position it searched, today's hint when it looked ahead too little, and only ever
from what the player can see."""

from __future__ import annotations

import os
import random
import time

import pytest

from games.rules import VARIANTS, State, get_variant
from games.rules.rule_of_thumb import describe
from games.solver import LOST, UNKNOWN, WON, Answer, Budget, lookahead, solve
from games.solver.lookahead import (
    BEST,
    HEURISTIC,
    LEADS,
    LOST_MESSAGE,
    SOLVER,
    WIN,
    hint_in_child,
    lookahead_hint,
)
from tests.rules.helpers import disguised
from tests.solver.helpers import lost_castle, normal, played
from tests.support.clock import spy_on_hint_searches, tick_the_solver

HIDDEN = ("gold-mine", "grounds-for-divorce", "blondes-and-brunettes")
OPEN = ("grandfathers-clock", "selective-castle")
#: Enough search for a deterministic answer, counted in positions; the seconds never bite.
POSITIONS, SECONDS = 20_000, 60.0


# -- open positions: the solver sees the whole board ------------------------------------------


def test_an_open_position_gets_the_first_move_of_a_winning_line():
    variant = get_variant("grandfathers-clock")
    state = variant.deal(7)
    hint = lookahead_hint(variant, state, seconds=SECONDS, positions=POSITIONS)
    line = solve(variant, state, Budget(positions=POSITIONS, seconds=SECONDS)).moves
    assert hint.source == SOLVER and not hint.lost
    assert hint.move == line[0]
    assert hint.message == (
        f"{describe(variant, state, hint.move)} It starts a way to win from here."
    )


def test_following_the_look_ahead_hints_wins_a_clock_deal():
    variant = get_variant("grandfathers-clock")
    state = variant.deal(3)
    seen = {normal(state)}
    for _ in range(100):
        hint = lookahead_hint(variant, state, seen, seconds=SECONDS, positions=POSITIONS)
        assert hint.source == SOLVER
        state = variant.apply(state, hint.move)
        assert normal(state) not in seen
        seen.add(normal(state))
        if variant.is_won(state):
            break
    assert variant.is_won(state)


def test_a_proven_lost_position_is_called_lost_and_no_move_is_suggested():
    variant, state = lost_castle()
    assert variant.status(state) == "playing" and variant.legal_moves(state)
    hint = lookahead_hint(variant, state, seconds=SECONDS, positions=POSITIONS)
    assert (hint.move, hint.message, hint.source, hint.lost) == (None, LOST_MESSAGE, SOLVER, True)
    assert LOST_MESSAGE == "This position can no longer be won."


def test_an_open_position_without_a_win_found_gets_the_first_move_of_its_most_promising_line():
    variant = get_variant("selective-castle")
    state = variant.deal(1)  # not won within POSITIONS
    budget = Budget(positions=POSITIONS, seconds=SECONDS)
    answer = solve(variant, state, budget, best=True)
    assert answer.outcome == "unknown" and answer.best
    hint = lookahead_hint(variant, state, seconds=SECONDS, positions=POSITIONS)
    assert (hint.source, hint.ahead, hint.lost) == (SOLVER, BEST, False)
    assert hint.move == answer.best[0]
    assert hint.message == f"{describe(variant, state, hint.move)} It {LEADS}."
    assert solve(variant, state, budget).best is None  # only when asked for


def test_a_hidden_position_without_a_win_sampled_gets_the_move_most_promising_lines_start_with():
    variant = get_variant("grounds-for-divorce")
    state, seen = played(variant, 0, 5)
    hint = lookahead_hint(variant, state, seen, seconds=SECONDS, positions=POSITIONS)
    deals = lookahead.samples(variant, variant.player_view(state), lookahead.SAMPLES)
    firsts = []
    for deal in deals:
        budget = Budget(positions=POSITIONS // len(deals), seconds=SECONDS)
        answer = solve(variant, deal, budget, best=True)
        assert answer.outcome == "unknown"
        firsts.append(answer.best[0])
    count = firsts.count(hint.move)
    assert count == max(firsts.count(move) for move in firsts)
    assert (hint.source, hint.ahead, hint.wins, hint.samples) == (SOLVER, BEST, 0, len(deals))
    assert hint.message == (
        f"{describe(variant, state, hint.move)} In {count} of {len(deals)} ways the hidden "
        f"cards could lie, it {LEADS}."
    )


@pytest.mark.parametrize("slug", sorted(VARIANTS))
def test_when_the_solver_does_not_answer_the_hint_is_todays(slug):
    """A budget of one position answers nothing and looks too little ahead for a most
    promising line (``LOOKAHEAD_POSITIONS``): the hint is the engine's heuristic one, the
    game's earlier positions kept out exactly as it keeps them out."""
    variant = get_variant(slug)
    for seed in range(3):
        state, seen = played(variant, seed, 6)
        hint = lookahead_hint(variant, state, seen, seconds=SECONDS, positions=1)
        assert hint.source == HEURISTIC and not hint.lost
        assert hint.move == variant.hint(state, seen)
        assert hint.message == describe(variant, state, hint.move)


def test_a_winning_line_that_starts_back_where_the_game_was_gives_way_to_todays_hint():
    variant = get_variant("grandfathers-clock")
    state = variant.deal(7)
    first = lookahead_hint(variant, state, seconds=SECONDS, positions=POSITIONS).move
    back_there = normal(variant.apply(state, first))
    hint = lookahead_hint(variant, state, {back_there}, seconds=SECONDS, positions=POSITIONS)
    assert hint.move != first
    assert hint.source == HEURISTIC and hint.move == variant.hint(state, {back_there})


# -- hidden cards: sampled from the view, the same hint for the same view ---------------------


#: Positions with hidden cards (game, deal, moves of today's hints played) where the solver
#: wins some sampled deals within POSITIONS, and one where it wins none (its hint is the move
#: most sampled deals' most promising lines start with).
ANSWERED = [("gold-mine", 1, 30), ("blondes-and-brunettes", 2, 3), ("blondes-and-brunettes", 10, 3)]
UNANSWERED = [("grounds-for-divorce", 0, 5)]


@pytest.mark.parametrize(("slug", "seed", "moves"), ANSWERED + UNANSWERED)
def test_positions_that_look_the_same_get_the_same_look_ahead_hint(slug, seed, moves):
    variant, rng = get_variant(slug), random.Random(slug)
    state, seen = played(variant, seed, moves)
    hint = lookahead_hint(variant, state, seen, seconds=SECONDS, positions=POSITIONS)
    assert hint.source == SOLVER
    assert hint.ahead == (WIN if (slug, seed, moves) in ANSWERED else BEST)
    for _ in range(2):
        other = disguised(state, rng)
        assert other != state
        assert variant.player_view(other) == variant.player_view(state)
        again = lookahead_hint(variant, other, seen, seconds=SECONDS, positions=POSITIONS)
        assert again == hint, "a hint that differs with the hidden cards would reveal them"


@pytest.mark.parametrize("slug", HIDDEN)
def test_even_a_solver_that_reads_every_hidden_card_cannot_make_the_hint_tell_them(
    slug, monkeypatch
):
    """A stand-in solver whose line starts with a move chosen by the hidden cards themselves:
    the hint still depends on the view alone, since the deals searched do."""

    def reads_the_hidden_cards(variant, deal, budget, **_):
        moves = variant.legal_moves(deal)
        hidden = tuple(card for pile in deal.piles for card in pile.cards[: pile.face_down])
        return Answer(WON, [moves[hash(hidden) % len(moves)]])

    monkeypatch.setattr(lookahead, "solve", reads_the_hidden_cards)
    variant, rng = get_variant(slug), random.Random(slug)
    for seed in range(3):
        state, seen = played(variant, seed, 4)
        hint = lookahead_hint(variant, state, seen, seconds=SECONDS, positions=POSITIONS)
        assert hint.source == SOLVER
        for _ in range(3):
            other = disguised(state, rng)
            assert (
                lookahead_hint(variant, other, seen, seconds=SECONDS, positions=POSITIONS) == hint
            )


def test_a_sampled_hidden_position_is_never_called_lost(monkeypatch):
    """Every sampled deal lost proves nothing of the real one: today's hint, unless a search
    from the face-up cards alone proves the loss (here it cannot)."""

    def lost_but_not_from_the_view(variant, deal, budget, view_only=False, **_):
        return Answer(UNKNOWN if view_only else LOST)

    monkeypatch.setattr(lookahead, "solve", lost_but_not_from_the_view)
    variant = get_variant("gold-mine")
    state, seen = played(variant, 0, 3)
    hint = lookahead_hint(variant, state, seen, seconds=SECONDS, positions=POSITIONS)
    assert not hint.lost and hint.source == HEURISTIC
    assert hint.move == variant.hint(state, seen)


def stock_down_to_four(seed: int) -> State:
    """A Gold Mine deal played at random (seeded) until its stock holds four cards."""
    variant, rng = get_variant("gold-mine"), random.Random(seed)
    state = variant.deal(seed)
    while len(state.piles[variant.stock_i].cards) > 4:
        state = variant.apply(state, rng.choice(variant.legal_moves(state)))
    return state


def test_where_the_hidden_cards_lie_in_few_ways_every_way_is_searched():
    variant = get_variant("gold-mine")
    state = stock_down_to_four(0)
    view = variant.player_view(state)
    deals = lookahead.every_deal(variant, view, lookahead.EVERY_DEAL)
    assert len(deals) == 24 == len(set(deals))  # 4! orders of four different cards
    assert all(variant.player_view(deal) == view for deal in deals)
    assert state._replace(seed=None) in deals
    # A stock of seven cards can lie in 5,040 ways: sampled, as before.
    assert lookahead.every_deal(variant, variant.player_view(variant.deal(0)), 24) == []


@pytest.mark.parametrize("seed", [0, 1])
def test_a_hidden_position_lost_whichever_way_its_hidden_cards_lie_is_called_lost(seed):
    variant = get_variant("gold-mine")
    state = stock_down_to_four(seed)
    view = variant.player_view(state)
    positions = 24 * POSITIONS
    budget = Budget(positions=POSITIONS, seconds=SECONDS)
    for deal in lookahead.every_deal(variant, view, lookahead.EVERY_DEAL):
        assert solve(variant, deal, budget).outcome == LOST
    hint = lookahead_hint(variant, state, seconds=SECONDS, positions=positions)
    assert (hint.move, hint.message, hint.source, hint.lost) == (None, LOST_MESSAGE, SOLVER, True)
    other = disguised(state, random.Random(seed))
    assert lookahead_hint(variant, other, seconds=SECONDS, positions=positions) == hint


def random_play(variant, seed: int, moves: int) -> State:
    rng, state = random.Random(seed), variant.deal(seed)
    for _ in range(moves):
        legal = variant.legal_moves(state)
        if not legal:
            break
        state = variant.apply(state, rng.choice(legal))
    return state


@pytest.mark.parametrize("seed", [0, 2, 14])
def test_a_hidden_position_lost_from_its_face_up_cards_alone_is_called_lost(seed):
    """Grounds for Divorce after random play, its stock out and face-down cards left: a search
    that never turns a card up proves no line wins or turns one up; the full search of
    the position, its face-down cards dealt any other way, agrees."""
    variant = get_variant("grounds-for-divorce")
    state = random_play(variant, seed, 200)
    assert variant.status(state) == "playing" and any(p.face_down for p in state.piles)
    budget = Budget(positions=POSITIONS, seconds=SECONDS)
    assert solve(variant, state, budget, view_only=True).outcome == LOST
    rng = random.Random(seed)
    for other in [state] + [disguised(state, rng) for _ in range(3)]:
        assert solve(variant, other, budget).outcome == LOST
        hint = lookahead_hint(variant, other, seconds=SECONDS, positions=POSITIONS)
        assert (hint.move, hint.message, hint.source, hint.lost) == (
            None,
            LOST_MESSAGE,
            SOLVER,
            True,
        )


def test_a_search_from_the_face_up_cards_ends_unknown_where_a_card_would_turn_up():
    variant = get_variant("grounds-for-divorce")
    state = variant.deal(0)  # a deal, or any move that empties a pile's face-up cards
    answer = solve(variant, state, Budget(positions=POSITIONS, seconds=SECONDS), view_only=True)
    assert answer.outcome == "unknown" and answer.positions < POSITIONS


def test_a_look_ahead_hint_in_a_hidden_game_is_the_move_most_sampled_deals_win_with():
    variant = get_variant("blondes-and-brunettes")
    state = variant.deal(2)
    hint = lookahead_hint(variant, state, seconds=SECONDS, positions=POSITIONS)
    assert hint.source == SOLVER and hint.samples == lookahead.SAMPLES and hint.wins > 0
    assert hint.move in variant.legal_moves(state)
    assert hint.message.endswith(
        f"In {hint.wins} of {hint.samples} ways the hidden cards could lie, it starts a win."
    )
    # Each sampled deal looks exactly like the board, hidden cards aside.
    deals = lookahead.samples(variant, variant.player_view(state), lookahead.SAMPLES)
    won = 0
    for deal in deals:
        assert variant.player_view(deal) == variant.player_view(state)
        assert sorted(c for p in deal.piles for c in p.cards) == sorted(
            c for p in state.piles for c in p.cards
        )
        budget = Budget(positions=POSITIONS // len(deals), seconds=SECONDS)
        answer = solve(variant, deal, budget)
        won += answer.outcome == "won" and answer.moves[0] == hint.move
    assert won == hint.wins


def test_the_sampler_and_the_solver_see_only_the_players_view(monkeypatch):
    """Structurally: the full state goes no further than ``player_view``; what decides the hint
    is given the view (face-down cards None, seed None) and the views of earlier positions."""
    variant = get_variant("gold-mine")
    state, seen = played(variant, 5, 4)
    view = variant.player_view(state)
    calls, solved = [], []
    real_hint_from_view, real_solve = lookahead.hint_from_view, lookahead.solve

    def spy_hint_from_view(*args, **kwargs):
        calls.append((args, kwargs))
        return real_hint_from_view(*args, **kwargs)

    def spy_solve(variant_, deal, budget, **kwargs):
        solved.append(deal)
        return real_solve(variant_, deal, budget, **kwargs)

    monkeypatch.setattr(lookahead, "hint_from_view", spy_hint_from_view)
    monkeypatch.setattr(lookahead, "solve", spy_solve)
    lookahead_hint(variant, state, seen, seconds=SECONDS, positions=POSITIONS)

    [(args, kwargs)] = calls
    assert kwargs == {}
    got_variant, got_view, got_seen, got_seconds, got_positions = args
    assert got_variant is variant and got_view == view and got_view["seed"] is None
    assert not any(isinstance(arg, State) for arg in args)
    for pile in got_view["piles"].values():
        assert pile["cards"][: pile["face_down"]] == [None] * pile["face_down"]
    assert isinstance(got_seen, frozenset) and all(isinstance(key, str) for key in got_seen)
    assert (got_seconds, got_positions) == (SECONDS, POSITIONS)
    assert len(solved) == lookahead.SAMPLES
    for deal in solved:
        assert variant.player_view(deal) == view
        assert deal.seed is None
    assert state not in solved  # the real hidden cards were not among those searched


def test_the_samples_are_seeded_by_the_view_alone():
    variant = get_variant("grounds-for-divorce")
    state, _ = played(variant, 2, 5)
    view = variant.player_view(state)
    again = {**view, "move_number": view["move_number"] + 3}
    assert lookahead.samples(variant, view, 3) == [
        deal._replace(move_number=view["move_number"])
        for deal in lookahead.samples(variant, again, 3)
    ]
    other_view = variant.player_view(played(variant, 3, 5)[0])
    assert lookahead.samples(variant, other_view, 1) != lookahead.samples(variant, view, 1)


# -- the time cap ---------------------------------------------------------------------------


@pytest.mark.parametrize("slug", ["grounds-for-divorce", "selective-castle"])
def test_a_hint_keeps_to_its_time_cap(slug, monkeypatch):
    # The hint's own clock moves on at each read (tests/support/clock.py), so what it hands
    # the searches does not depend on the machine's load: their seconds add up to the cap, and
    # the seconds, not the positions, bound them. The searches' real speed: bench/solver_bench.
    tick_the_solver(monkeypatch, tick=0.001)
    budgets = spy_on_hint_searches(monkeypatch)
    variant = get_variant(slug)
    state = variant.deal(1)
    hint = lookahead_hint(variant, state, seconds=0.2, positions=10**9)
    assert budgets and sum(budget.seconds for budget in budgets) <= 0.2
    assert all(budget.positions >= 10**6 for budget in budgets)
    assert hint.move in variant.legal_moves(state)


@pytest.mark.parametrize("slug", ["grounds-for-divorce", "selective-castle"])
def test_a_hint_in_a_hint_process_keeps_to_what_is_left_before_its_deadline(slug, monkeypatch):
    # A hint process (games.play.hint_pool) is given its request's deadline: the searches it
    # hands out add up to the time left before it, on the hint's ticking clock as above.
    clock = tick_the_solver(monkeypatch, tick=0.001)
    budgets = spy_on_hint_searches(monkeypatch)
    variant = get_variant(slug)
    state = variant.deal(1)
    view = variant.player_view(state)
    hint, pid = hint_in_child(slug, view, frozenset(), 10**9, clock.now + 0.2)
    assert budgets and sum(budget.seconds for budget in budgets) <= 0.2
    assert hint.move in variant.legal_moves(state)
    assert pid == os.getpid()


def test_a_hint_whose_deadline_passed_while_it_waited_its_turn_is_not_searched(monkeypatch):
    budgets = spy_on_hint_searches(monkeypatch)
    variant = get_variant("gold-mine")
    view = variant.player_view(variant.deal(1))
    assert hint_in_child("gold-mine", view, frozenset(), 10**6, time.monotonic() - 1) == (
        None,
        os.getpid(),
    )
    assert budgets == []


def test_a_search_stops_at_its_seconds():
    # Real time, with a wide margin: a 0.05 s search of a deal it cannot finish in that time
    # returns well within 5 s however loaded the machine (it looks at the clock every few
    # hundred positions).
    variant = get_variant("grounds-for-divorce")
    started = time.perf_counter()
    answer = solve(variant, variant.deal(1), Budget(positions=10**9, seconds=0.05))
    assert answer.positions < 10**9
    assert time.perf_counter() - started < 5
