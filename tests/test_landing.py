"""The landing words (companion/landing.py): what a perfect camera reports for a scene."""
import doctest

import pytest
from pydantic import ValidationError

from companion import landing
from companion.landing import Landing, LandingReading, LandingScene, PlacedCrate, PlacedDrink, truth

CRATE = PlacedCrate(x=0.0, y=60.0, yaw=0.0, pitch_mm=15.0, wall_mm=1.5)


def test_doctests():
    assert doctest.testmod(landing).failed == 0


def can(x, y, standing=True, yaw=0.0, drink="red-short_can"):
    return PlacedDrink(drink=drink, x=x, y=y, yaw=yaw, standing=standing, length_mm=20, width_mm=11)


def spot(drink, crate=CRATE):
    return landing.spot_of(LandingScene(crates=(crate,), drinks=(drink,)), drink)


def test_a_standing_can_in_each_slot_is_in_a_slot():
    for u in (-7.5, 7.5):
        for v in (45.0, 60.0, 75.0):
            assert spot(can(u, v)) == "slot"


def test_a_can_over_a_wall_is_in_the_crate_not_in_a_slot():
    assert spot(can(0.0, 60.0)) == "crate"            # on the middle wall
    assert spot(can(-7.5, 52.5)) == "crate"           # between two slots along


def test_the_middle_decides_crate_or_outside():
    assert spot(can(14.0, 60.0)) == "crate"           # hangs over the rim, middle inside
    assert spot(can(21.0, 60.0)) == "outside"


def test_how_far_a_drink_lies_from_another_spot():
    crate = PlacedCrate(x=0.0, y=60.0, pitch_mm=15.0)
    lying = PlacedDrink(drink="blue-tall_can", x=0.0, y=60.0, yaw=90.0, length_mm=26, width_mm=11)
    scene = LandingScene(crates=(crate,), drinks=(lying,))
    assert landing.edge_mm(scene, lying) == 3.0                     # mid-crate: nothing within 3 mm
    for inside in (0.5, 1.0, 2.5):                                   # its middle this far inside the rim (15 mm)
        rim = lying.model_copy(update={"x": 15.0 - inside})
        assert landing.spot_of(scene, rim) == "crate" and landing.edge_mm(scene, rim) == pytest.approx(inside + 0.5, abs=0.01)
    far = lying.model_copy(update={"x": 80.0})
    assert landing.spot_of(scene, far) == "outside" and landing.edge_mm(scene, far, limit=10.0) == 10.0


def test_a_turned_crate_turns_its_slots():
    turned = PlacedCrate(x=0.0, y=60.0, yaw=90.0, pitch_mm=15.0)
    assert spot(can(15.0, 52.5), turned) == "slot"    # its three slots now run along x
    assert spot(can(-7.5, 40.0), turned) == "outside"


def test_a_lying_short_can_fits_no_slot():
    assert spot(can(-7.5, 45.0, standing=False)) == "crate"


def test_a_drink_asked_for_but_not_on_the_table_is_not_seen():
    reading = truth(LandingScene(drinks=(can(0, 100),)), asked=("red-short_can", "blue-tall_can"))
    assert reading.of("blue-tall_can") == Landing(drink="blue-tall_can", seen=False, sure=False)
    assert reading.of("red-short_can").distance_mm == 100


def test_the_words_are_bounded_and_say_what_is_wrong():
    with pytest.raises(ValidationError, match="a drink seen has a spot"):
        Landing(drink="red-short_can")
    with pytest.raises(ValidationError, match="cannot be sure"):
        Landing(drink="red-short_can", seen=False)
    with pytest.raises(ValidationError, match="drink id"):
        Landing(drink="red-bottle", spot="slot", distance_mm=3)
    with pytest.raises(ValidationError):
        Landing(drink="red-short_can", spot="slot", distance_mm=landing.MAX_DISTANCE_MM + 1)
    with pytest.raises(ValidationError, match="listed twice"):
        LandingReading(landings=[Landing(drink="red-short_can", spot="slot", distance_mm=3)] * 2)
    with pytest.raises(ValidationError, match="unknown code"):
        LandingReading(codes=["cat"])
    assert not LandingReading(codes=["hand"]).usable


def test_composed_scenes_have_the_truth_asked_for():
    import numpy as np

    from companion.sim import landing_layouts
    assert doctest.testmod(landing_layouts).failed == 0
    rng = np.random.default_rng(5)
    for spots in (("slot", "crate"), ("outside", "slot"), ("crate", "outside")):
        wants = [("red-short_can", spots[0], None), ("blue-tall_can", spots[1], None), ("mint-stubby_can", None, 333)]
        seen = truth(landing_layouts.compose(wants, rng))
        assert [x.spot for x in seen.landings[:2]] == list(spots)
        assert abs(seen.landings[2].distance_mm - 333) <= 1
