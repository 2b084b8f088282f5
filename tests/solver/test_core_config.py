"""The compiled core is configured by name (games/solver/core.py ``CoreRules``, the C's
``RULES_FIELDS``): each game's fields are read from its own declarations, and a field
misnamed, missing, extra, positional or of the wrong type fails loudly rather than
configuring the core out of line."""

from __future__ import annotations

import dataclasses

import pytest

from games.rules import VARIANTS, get_variant
from games.solver import core as compiled

pytestmark = pytest.mark.skipif(not compiled.AVAILABLE, reason=compiled.MISSING)


def keywords(slug: str = "blondes-and-brunettes") -> dict[str, object]:
    return compiled.core_rules(get_variant(slug)).keywords()


def test_the_declaration_names_the_fields_the_core_takes_in_its_order():
    from games.solver import _core

    names = tuple(field.name for field in dataclasses.fields(compiled.CoreRules))
    assert names == _core.RULES_FIELDS


def test_each_game_configures_the_core_from_its_declarations():
    for variant in VARIANTS.values():
        rules = compiled.core_rules(variant)
        profile = variant.solver
        assert rules.keyed_by_colour == profile.keyed_by_colour
        assert rules.discard_out_of_key == profile.discard_out_of_key
        assert rules.refills_emptied_piles == profile.refills_emptied_piles
        assert rules.folds_deals == profile.folds_deals
        assert len(rules.kinds) == len(rules.complete) == len(variant.pile_ids)
        compiled._core.Rules(**rules.keywords())


@pytest.mark.parametrize("field", [field.name for field in dataclasses.fields(compiled.CoreRules)])
def test_a_missing_field_is_refused_by_name(field):
    given = keywords()
    del given[field]
    with pytest.raises(TypeError, match=f"'{field}'"):
        compiled._core.Rules(**given)


def test_a_misnamed_field_is_refused():
    given = keywords()
    given["keyed_by_color"] = given.pop("keyed_by_colour")
    with pytest.raises(TypeError, match="keyed_by_color"):
        compiled._core.Rules(**given)


def test_an_extra_field_is_refused():
    with pytest.raises(TypeError, match="wraps_around"):
        compiled._core.Rules(**keywords(), wraps_around=True)


def test_fields_given_in_order_without_their_names_are_refused():
    """The old way (16 positional arguments lined up with a format string): two swapped would
    have configured the core silently."""
    with pytest.raises(TypeError, match="positional"):
        compiled._core.Rules(*keywords().values())


def test_a_number_where_a_flag_belongs_is_refused():
    """Two fields swapped by name in a caller (a mode given as a flag) fail on the type."""
    given = keywords("grounds-for-divorce")
    given["deal_mode"], given["folds_deals"] = given["folds_deals"], given["deal_mode"]
    with pytest.raises(TypeError):
        compiled._core.Rules(**given)


@pytest.mark.parametrize(
    "field, value",
    [("deal_mode", 3), ("settle_mode", -1), ("safe_home", 7), ("foundation_start", 3)],
)
def test_a_mode_out_of_range_is_refused(field, value):
    with pytest.raises(ValueError, match="out of range"):
        compiled._core.Rules(**keywords() | {field: value})


def test_piles_that_do_not_line_up_are_refused():
    given = keywords()
    given["complete"] = given["complete"][:-1]
    with pytest.raises(ValueError, match="malformed"):
        compiled._core.Rules(**given)


def test_a_game_that_declares_no_core_play_is_searched_in_python():
    variant = get_variant("gold-mine")
    profile = dataclasses.replace(variant.solver, core=None)
    stand_in = type("NoCore", (type(variant),), {"solver": profile})()
    assert not compiled.plays(stand_in)
    assert compiled.core_for(stand_in) is None
    with pytest.raises(ValueError, match="does not play"):
        compiled.core_rules(stand_in)
