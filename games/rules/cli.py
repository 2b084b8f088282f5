"""Play or replay a deal in the terminal.

    python -m games.rules play gold-mine --seed 7
    python -m games.rules replay gold-mine --seed 7 history.json [--step N]
    python -m games.rules show selective-castle --seed 7 [--reveal]

In ``play``, type the number of a listed move, a move such as ``t3 f1`` or ``tableau:3
tableau:5 2`` (from, to, count), ``d`` to deal, ``h`` for a hint, ``u`` to undo, ``s`` to save
the history as JSON, or ``q`` to quit.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from . import VARIANTS, get_variant, rule_of_thumb
from .cards import CODE, rank_char
from .errors import RulesError
from .shuffle import MAX_SEED
from .state import DEAL, Move, State
from .variant import Variant

SHORT_KINDS = {"t": "tableau", "f": "foundation", "w": "waste", "r": "reserve", "s": "stock"}


def render(variant: Variant, state: State, *, reveal: bool = False) -> str:
    """The layout as text; face-down cards are ``##`` unless ``reveal``."""
    lines = [
        f"{variant.name}, deal {state.seed}, move {state.move_number}: {variant.status(state)}"
        + (f", base rank {rank_char(state.base_rank)}" if state.base_rank else "")
    ]
    for pile_id, pile in zip(variant.pile_ids, state.piles, strict=True):
        hidden = 0 if reveal else pile.face_down
        if pile_id == "stock" and not reveal:
            shown = f"{len(pile.cards)} cards"
        else:
            codes = ["##"] * hidden + [CODE[c] for c in pile.cards[hidden:]]
            shown = " ".join(codes) or "--"
        lines.append(f"  {pile_id:<14} {shown}")
    return "\n".join(lines)


def parse_typed_move(text: str, moves: list[Move]) -> Move:
    """A listed move's number, ``d``, or ``from to [count]`` with full or short pile ids."""
    words = text.split()
    if len(words) == 1 and words[0].isdigit():
        number = int(words[0])
        if not 1 <= number <= len(moves):
            raise ValueError(f"there are {len(moves)} legal moves")
        return moves[number - 1]
    if words in (["d"], ["deal"]):
        return DEAL
    if len(words) in (2, 3):
        count = int(words[2]) if len(words) == 3 else 1
        return Move("move", _pile_id(words[0]), _pile_id(words[1]), count)
    raise ValueError("type a move number, 'd', or 'from to [count]' (e.g. t3 f1)")


def _pile_id(word: str) -> str:
    if ":" in word or word in ("stock", "waste", "reserve", "discard"):
        return word
    kind, number = SHORT_KINDS.get(word[0], word[0]), word[1:]
    return f"{kind}:{number}" if number else kind


def play(variant: Variant, seed: int, out: TextIO, ask: Callable[[str], str]) -> list[Move]:
    """An interactive game; returns the history played."""
    states, history = [variant.deal(seed)], []
    while True:
        state = states[-1]
        moves = variant.legal_moves(state)
        print(render(variant, state), file=out)
        for number, move in enumerate(moves, start=1):
            print(f"  {number:>3}) {move}", file=out)
        if variant.status(state) != "playing":
            print(f"Game {variant.status(state)} after {state.move_number} moves.", file=out)
            return history
        try:
            text = ask("move> ").strip()
        except EOFError:
            return history
        if text in ("q", "quit"):
            return history
        if text in ("u", "undo"):
            if history:
                states.pop(), history.pop()
            continue
        if text in ("h", "hint"):
            seen = {s._replace(move_number=0) for s in states}
            hint = variant.hint(state, seen)
            print(f"? {rule_of_thumb.describe(variant, state, hint)}", file=out)
            continue
        command, _, rest = text.partition(" ")
        if command in ("s", "save"):  # not "stock waste", a move to judge
            path = Path(rest.strip() or "history.json")
            path.write_text(json.dumps([m.to_json() for m in history]) + "\n")
            print(f"Saved {len(history)} moves to {path}.", file=out)
            continue
        try:
            move = parse_typed_move(text, moves)
            after, events = variant.play(state, move)
        except (ValueError, RulesError) as error:
            print(f"! {getattr(error, 'message', error)}", file=out)
            continue
        states.append(after)
        history.append(move)
        for event in events:
            print(f"  * {json.dumps(event)}", file=out)


def main(argv: list[str] | None = None, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.rules", description=__doc__.split("\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("play", "replay", "show"):
        command = commands.add_parser(name)
        command.add_argument("game", choices=sorted(VARIANTS))
        command.add_argument("--seed", type=int, required=True, help=f"0 to {MAX_SEED}")
        if name == "replay":
            command.add_argument("history", type=Path, help="a JSON list of moves")
            command.add_argument("--step", type=int, help="stop after this many moves")
        if name != "play":
            command.add_argument("--reveal", action="store_true", help="show face-down cards")
    args = parser.parse_args(argv)
    variant = get_variant(args.game)
    try:
        if args.command == "play":
            play(variant, args.seed, out, input)
            return 0
        state = variant.deal(args.seed)
        if args.command == "replay":
            state = variant.replay(args.seed, json.loads(args.history.read_text()), args.step)
        print(render(variant, state, reveal=args.reveal), file=out)
    except (RulesError, ValueError, OSError) as error:
        print(f"error: {getattr(error, 'message', error)}", file=sys.stderr)
        return 1
    return 0
