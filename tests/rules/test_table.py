"""Each game's table as its module sets it out (``games.rules.table``): what the pages and the
admin draw, served by ``GET /api/variants/``."""

from __future__ import annotations

import pytest

from games.rules import VARIANTS, get_variant
from games.rules.cards import QUEEN, RANK, rank_char
from games.rules.table import Clock, Gap, Row, Slot, describe

SLUGS = list(VARIANTS)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_pile_of_the_game_is_placed_on_its_table_exactly_once(slug: str) -> None:
    variant = get_variant(slug)
    placed = variant.table.pile_ids()
    assert sorted(placed) == sorted(variant.pile_ids)
    assert len(placed) == len(set(placed))


@pytest.mark.parametrize("slug", SLUGS)
def test_the_tables_rows_and_sizes_are_sound(slug: str) -> None:
    table = get_variant(slug).table
    assert table.units > 0 and table.tall > 0
    assert table.rows
    for row in table.rows:
        if isinstance(row, Clock):
            assert len(row.piles) == 12
            assert row.beside_units > table.units and row.frame_tall > 0
            continue
        assert isinstance(row, Row) and row.slots
        for slot in row.slots:
            assert isinstance(slot, Slot | Gap)
            if isinstance(slot, Slot):
                assert slot.span >= 1 and slot.show >= 1
        if row.tableau:
            assert all(pile_id.startswith("tableau:") for pile_id in row.pile_ids())
    # The tableau fans down in a row of its own, left to right.
    tableau = [i for i in get_variant(slug).pile_ids if i.startswith("tableau:")]
    rows = [row.pile_ids() for row in table.rows if getattr(row, "tableau", False)]
    assert [list(ids) for ids in rows] == [tableau]


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("seed", [0, 1, 987654321])
def test_the_opening_counts_are_those_of_any_deal(slug: str, seed: int) -> None:
    variant = get_variant(slug)
    dealt = variant.deal(seed)
    described = {pile["id"]: pile["opening"] for pile in describe(variant)["piles"]}
    for pile_id, pile in zip(variant.pile_ids, dealt.piles, strict=True):
        assert described[pile_id] == {"cards": len(pile.cards), "face_down": pile.face_down}


def test_the_opening_counts_follow_the_rules() -> None:
    """Each game's layout (games/rules/RULINGS.md), as the lobby's miniatures draw them."""

    def opening(slug: str) -> dict[str, tuple[int, int]]:
        piles = describe(get_variant(slug))["piles"]
        return {p["id"]: (p["opening"]["cards"], p["opening"]["face_down"]) for p in piles}

    gfd = opening("grounds-for-divorce")
    assert gfd["stock"] == (54, 54) and gfd["discard"] == (0, 0)
    assert {gfd[f"tableau:{i}"] for i in range(10)} == {(5, 4)}
    gold = opening("gold-mine")
    assert gold["stock"] == (52, 52) and set(gold.values()) - {(52, 52)} == {(0, 0)}
    castle = opening("selective-castle")
    assert [castle[f"tableau:{i}"] for i in range(8)] == [(7, 0)] * 4 + [(6, 0)] * 4
    clock = opening("grandfathers-clock")
    assert {clock[f"foundation:{i}"] for i in range(12)} == {(1, 0)}
    assert {clock[f"tableau:{i}"] for i in range(8)} == {(5, 0)}
    blondes = opening("blondes-and-brunettes")
    assert blondes["reserve"] == (10, 0) and blondes["foundation:0"] == (1, 0)
    assert blondes["stock"] == (84, 84) and blondes["waste"] == (0, 0)


@pytest.mark.parametrize("slug", SLUGS)
def test_piles_are_named_in_words(slug: str) -> None:
    variant = get_variant(slug)
    for i, pile in enumerate(describe(variant)["piles"]):
        assert pile["id"] == variant.pile_ids[i] and pile["kind"] == variant.kinds[i]
        assert pile["name"] == variant.pile_name(i)  # as the engine's messages say it
        assert not pile["title"][0].islower() and not pile["title"].startswith("The ")
        kind, _, number = pile["id"].partition(":")
        if kind == "tableau":
            assert pile["title"] == f"Tableau pile {int(number) + 1}"
            assert pile["name"] == f"tableau pile {int(number) + 1}"
        elif not number:
            assert pile["title"] == kind.capitalize() and pile["name"] == f"the {kind}"


def test_the_clocks_foundations_are_named_and_completed_by_their_hours() -> None:
    clock = get_variant("grandfathers-clock")
    piles = describe(clock)["piles"][:12]
    assert [p["label"] for p in piles] == ["12", *map(str, range(1, 12))]
    assert piles[0]["title"] == "12 o'clock foundation"
    assert piles[0]["name"] == "the 12 o'clock foundation"
    assert piles[6]["title"] == "6 o'clock foundation"
    hours = [QUEEN, *range(1, 12)]
    assert [p["complete_rank"] for p in piles] == [rank_char(rank) for rank in hours]
    # The engine judges completion by the same rank.
    for i, pile in enumerate(clock.deal(3).piles[:12]):
        top = RANK[pile.cards[-1]]
        assert clock._foundation_complete(pile, i) == (rank_char(top) == piles[i]["complete_rank"])


@pytest.mark.parametrize("slug", [s for s in SLUGS if s != "grandfathers-clock"])
def test_other_games_foundations_are_complete_at_thirteen_cards(slug: str) -> None:
    for pile in describe(get_variant(slug))["piles"]:
        assert pile["complete_rank"] is None and pile["label"] is None


def test_how_empty_foundations_start() -> None:
    starts = {
        slug: (
            d["foundation_start"],
            d["foundation_start_rank"],
            d["chooses_base_rank_on_first_foundation_move"],
        )
        for slug, d in ((slug, describe(get_variant(slug))) for slug in SLUGS)
    }
    assert starts == {
        "grounds-for-divorce": (None, None, False),
        "gold-mine": ("ace", "A", False),
        "selective-castle": ("base_rank", None, True),
        "grandfathers-clock": (None, None, False),
        "blondes-and-brunettes": ("base_rank", None, False),  # the deal sets it
    }


def test_only_the_clock_has_a_clock() -> None:
    with_clock = [
        slug
        for slug in SLUGS
        if any(row["clock"] for row in describe(get_variant(slug))["table"]["rows"])
    ]
    assert with_clock == ["grandfathers-clock"]


NARROW = [slug for slug in SLUGS if get_variant(slug).table.narrow]


def test_every_game_has_a_narrow_arrangement_for_phones() -> None:
    # Grandfather's Clock's too: its clock a band across the width, its piles in two rows.
    assert NARROW == SLUGS


@pytest.mark.parametrize("slug", NARROW)
def test_a_narrow_arrangement_places_the_same_piles_once_within_its_width(slug: str) -> None:
    variant = get_variant(slug)
    narrow = variant.table.narrow
    assert narrow.narrow is None and narrow.tall > 0
    assert narrow.units < variant.table.units  # narrower: larger cards on a narrow board
    placed = narrow.pile_ids()
    assert sorted(placed) == sorted(variant.pile_ids) and len(placed) == len(set(placed))
    for row in narrow.rows:
        if isinstance(row, Clock):  # a band as wide as the table: its own places (board.js)
            assert row.pile_ids() == variant.table.rows[0].pile_ids() and row.frame_tall > 0
            continue
        assert isinstance(row, Row) and row.slots
        width = sum(
            (slot.span if isinstance(slot, Slot) else slot.width) * 1.1 - 0.1 for slot in row.slots
        ) + 0.1 * (len(row.slots) - 1)
        assert width <= narrow.units + 1e-9, (row, width)
        if row.tableau:
            assert all(pile_id.startswith("tableau:") for pile_id in row.pile_ids())
    # The tableau in order, left to right and row after row.
    tableau = [i for i in variant.pile_ids if i.startswith("tableau:")]
    rows = [
        pile_id
        for row in narrow.rows
        if isinstance(row, Row) and row.tableau
        for pile_id in row.pile_ids()
    ]
    assert rows == tableau


def test_grandfathers_clocks_narrow_arrangement_is_its_clock_above_two_rows_of_four() -> None:
    table = describe(get_variant("grandfathers-clock"))["table"]["narrow"]
    clock, *rows = table["rows"]
    assert clock["clock"] and len(clock["slots"]) == 12 and clock["frame"]["tall"] == 3.4
    assert [len(row["slots"]) for row in rows] == [4, 4] and all(row["tableau"] for row in rows)
    assert table["units"] == 7.6  # seven columns: 44.5 px cards on a 360 px phone


def test_the_narrow_arrangement_is_served_with_the_table() -> None:
    table = describe(get_variant("grounds-for-divorce"))["table"]
    assert table["narrow"]["units"] == 5.4
    assert [len(row["slots"]) for row in table["narrow"]["rows"]] == [2, 5, 5]
