"""An analysis's findings in a player's words. Moves are named by the replay's steps (the
move list's numbers), so "move 24" is the 24th entry of the list the player sees."""

from __future__ import annotations

from typing import Any

from games.rules import State, Variant
from games.rules.describe import describe


def _after(place: dict[str, int]) -> str:
    return "at the deal" if place["step"] == 0 else f"after move {place['step']}"


def summary(result: dict[str, Any]) -> str:
    """The sentence the replay page shows above the analysis."""
    kind, line = result["kind"], result.get("line") or []
    winnable, lost = result.get("winnable"), result.get("lost")
    if kind == "won":
        if not line:
            return (
                f"You won in {result['moves']} moves. The solver found no line of its own "
                "within its budget."
            )
        return (
            f"You won in {result['moves']} moves; the solver's line from the deal took "
            f"{len(line)} (a line it found, not a proven shortest)."
        )
    if kind == "winnable_at_end":
        return f"The deal could still be won where the game ended ({_after(winnable)}): see how."
    if kind == "lost_from_start":
        return (
            "The deal could not be won from the start: the solver proved that every way to "
            "play it loses."
        )
    if kind == "lost_at":
        return (
            f"The deal could still be won {_after(winnable)}; move {lost['step']} lost it "
            "(both proven)."
        )
    if winnable and lost:
        return (
            f"Winnable until at least move {winnable['step']}; lost from move {lost['step']} "
            "at the latest (the solver's budget ran out in between)."
            if winnable["step"]
            else f"Winnable at the deal; lost from move {lost['step']} at the latest (the "
            "solver's budget ran out in between)."
        )
    if winnable:
        return (
            f"Winnable {_after(winnable)} at least; the solver could not prove where the deal "
            "was lost within its budget."
        )
    if lost:
        return (
            f"Lost from move {lost['step']} at the latest; the solver could not prove any "
            "earlier position winnable within its budget."
            if lost["step"]
            else "The deal could not be won from the start."
        )
    return "The solver could not decide any position of this game within its budget."


def line_in_words(variant: Variant, start: State, line: list[dict[str, Any]]) -> list[str]:
    """Each move of the solver's line from ``start``, its cards named (the game is over: every
    card may be)."""
    state, said = start, []
    for payload in line:
        move = variant.move_from_json(payload)
        after, events = variant.play(state, move)
        said.append(describe(variant, state, move, events))
        state = after
    return said


def progress(state: str, searched: int, expected: int) -> str:
    if state == "queued":
        return "Waiting for the solver…"
    if state == "running":
        return f"Analysing: {searched} of about {max(expected, searched)} positions searched…"
    if state == "failed":
        return "The analysis could not be made."
    if state == "done":
        return f"Analysed: {searched} positions searched."
    return ""
