"""The terminal command: show, replay and play a deal."""

from __future__ import annotations

import io
import json

from games.rules import get_variant
from games.rules.cli import main, play


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def test_show_draws_the_layout_with_face_down_cards_hidden():
    code, text = run("show", "grounds-for-divorce", "--seed", "7")
    assert code == 0
    assert "Grounds for Divorce, deal 7, move 0: playing" in text
    assert "stock          54 cards" in text
    assert "tableau:0      ## ## ## ##" in text


def test_show_reveal_shows_every_card():
    _, text = run("show", "grounds-for-divorce", "--seed", "7", "--reveal")
    assert "##" not in text


def test_replay_validates_the_history_and_draws_the_chosen_step(tmp_path):
    history = tmp_path / "history.json"
    history.write_text(json.dumps([{"type": "deal"}, {"type": "deal"}]))
    code, text = run("replay", "gold-mine", "--seed", "7", str(history), "--step", "1")
    assert code == 0 and "move 1" in text and "49 cards" in text
    history.write_text(json.dumps([{"type": "deal"}, {"type": "move", "from": "x", "to": "y"}]))
    code, _ = run("replay", "gold-mine", "--seed", "7", str(history))
    assert code == 1


def test_play_takes_numbers_short_moves_and_undo():
    answers = iter(["d", "t1 f1", "1", "u", "1", "q"])
    out = io.StringIO()
    history = play(get_variant("gold-mine"), 7, out, lambda _prompt: next(answers))
    assert [m.type for m in history] == ["deal", "move"]
    assert "! Tableau pile 2 is empty." in out.getvalue()


def test_play_gives_a_hint_in_words():
    answers = iter(["h", "q"])
    out = io.StringIO()
    assert play(get_variant("gold-mine"), 7, out, lambda _prompt: next(answers)) == []
    assert "? Deal from the stock." in out.getvalue()


def test_a_typed_move_from_the_stock_is_judged_as_a_move_not_taken_for_save(tmp_path, monkeypatch):
    """``s [file]`` saves, but ``stock waste`` (full pile ids, as the help allows) is a move:
    the engine refuses it, with its reason, and nothing is saved."""
    monkeypatch.chdir(tmp_path)
    answers = iter(["stock waste", "stock tableau:0", "q"])
    out = io.StringIO()
    assert play(get_variant("gold-mine"), 7, out, lambda _prompt: next(answers)) == []
    assert "! Nothing can be put on the waste in Gold Mine." in out.getvalue()
    assert "! Cards on the stock cannot be moved in Gold Mine." in out.getvalue()
    assert "Saved" not in out.getvalue()
    assert list(tmp_path.iterdir()) == []


def test_s_saves_the_history(tmp_path):
    answers = iter(["d", f"s {tmp_path / 'h.json'}", "q"])
    out = io.StringIO()
    play(get_variant("gold-mine"), 7, out, lambda _prompt: next(answers))
    assert json.loads((tmp_path / "h.json").read_text()) == [{"type": "deal"}]
