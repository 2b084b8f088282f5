"""The publish benchmark runs against Redis (its figures are read by people, never asserted)."""

import os

import pytest

from bench.publish_bench import LAYERS, game_update, measure


def test_the_update_it_sends_is_a_game_as_its_player_sees_it() -> None:
    game = game_update()["game"]
    assert game["legal_moves"]
    assert game["state"]["piles"]


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (CI has it)")
@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_the_publish_benchmark_produces_every_figure(layer: str) -> None:
    figures = measure(os.environ["REDIS_URL"], LAYERS[layer], sends=20)
    assert set(figures) == {"cpu_us", "wall_us", "redis_cpu_us"}
    assert figures["cpu_us"] > 0 and figures["wall_us"] > 0
