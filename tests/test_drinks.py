"""The drinks, the stock cards, what matches what; and every rules module's doctests."""

import doctest
import itertools

import pytest

from companion import drinks
from companion.drinks import (
    ALL_CARDS,
    ALL_DRINKS,
    CARD_IDS,
    COLOUR_CARDS,
    COLOURS,
    DRINK_IDS,
    SHAPE_CARDS,
    SHAPES,
    Card,
    Colour,
    Drink,
    Shape,
    drink_of,
)

DESIGN_COLOURS = ["black", "white", "mint", "blue", "red", "purple"]
DESIGN_SHAPES = ["stubby_can", "short_can", "tall_can", "square_bottle", "not_tallest_bottle", "tallest_bottle"]


# --- the 36 drinks ----------------------------------------------------------------------

def test_36_distinct_drinks_with_design_ids():
    assert len(ALL_DRINKS) == 36
    assert len(set(ALL_DRINKS)) == 36
    expected = {f"{c}-{s}" for c in DESIGN_COLOURS for s in DESIGN_SHAPES}
    assert set(DRINK_IDS) == expected
    assert len(DRINK_IDS) == 36
    assert [d.id for d in ALL_DRINKS] == list(DRINK_IDS)


def test_colour_ids_are_the_design_ids():
    assert [c.value for c in COLOURS] == DESIGN_COLOURS


def test_shape_height_order_lowest_to_tallest():
    assert [s.value for s in SHAPES] == DESIGN_SHAPES
    assert [s.height_rank for s in SHAPES] == list(range(6))
    assert Shape.STUBBY_CAN.height_rank < Shape.TALLEST_BOTTLE.height_rank
    assert Shape("square_bottle").height_rank == 3


def test_every_colour_shape_pair_is_one_drink():
    pairs = {(d.colour, d.shape) for d in ALL_DRINKS}
    assert pairs == set(itertools.product(Colour, Shape))


def test_drink_id_and_str():
    d = Drink(Colour.RED, Shape.SHORT_CAN)
    assert d.id == "red-short_can"
    assert str(d) == "red-short_can"


def test_drink_parse_round_trips_every_id():
    for d in ALL_DRINKS:
        assert Drink.parse(d.id) == d


# --- the 12 stock cards -------------------------------------------------------------------

def test_12_cards_6_colour_6_shape():
    assert len(ALL_CARDS) == 12
    assert len(set(ALL_CARDS)) == 12
    assert len(COLOUR_CARDS) == 6 and all(c.kind == "colour" for c in COLOUR_CARDS)
    assert len(SHAPE_CARDS) == 6 and all(c.kind == "shape" for c in SHAPE_CARDS)
    assert list(CARD_IDS) == DESIGN_COLOURS + DESIGN_SHAPES
    assert [c.id for c in ALL_CARDS] == list(CARD_IDS)


def test_card_parse_round_trips_every_id():
    for c in ALL_CARDS:
        assert Card.parse(c.id) == c
        assert str(c) == c.id


# --- matching -----------------------------------------------------------------------------

def test_a_drink_matches_a_card_by_colour_or_by_shape():
    d = Drink.parse("blue-tall_can")
    assert d.matches(Card.parse("blue"))
    assert d.matches(Card.parse("tall_can"))


def test_a_drink_never_matches_another_colour_or_shape():
    d = Drink.parse("blue-tall_can")
    assert not d.matches(Card.parse("red"))
    assert not d.matches(Card.parse("short_can"))


def test_every_drink_matches_exactly_two_of_the_12_cards():
    for d in ALL_DRINKS:
        matching = [c for c in ALL_CARDS if d.matches(c)]
        assert matching == [Card(d.colour), Card(d.shape)], d


def test_matching_is_exactly_colour_or_shape_equality():
    for d, c in itertools.product(ALL_DRINKS, ALL_CARDS):
        assert d.matches(c) == (c.value == d.colour or c.value == d.shape)


def test_every_card_matches_six_drinks():
    for c in ALL_CARDS:
        assert sum(d.matches(c) for d in ALL_DRINKS) == 6, c


# --- parse errors -------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["", "blue", "blue-", "-tall_can", "green-tall_can", "blue-can",
                                  "tall_can-blue", "blue_tall_can", "Blue-tall_can", "blue-tall_can-x"])
def test_drink_parse_error_is_a_helpful_value_error(text):
    with pytest.raises(ValueError) as err:
        Drink.parse(text)
    message = str(err.value)
    assert repr(text) in message
    assert "<colour>-<shape>" in message
    # the message lists the valid ids, so a person can correct the typo
    for name in DESIGN_COLOURS + DESIGN_SHAPES:
        assert name in message


@pytest.mark.parametrize("text", ["", "green", "blue-tall_can", "can", "BLUE"])
def test_card_parse_error_is_a_helpful_value_error(text):
    with pytest.raises(ValueError) as err:
        Card.parse(text)
    message = str(err.value)
    assert repr(text) in message
    assert "colour" in message and "shape" in message


# --- drink_of -----------------------------------------------------------------------------

def test_drink_of_gives_the_drink_matching_both_cards():
    for c, s in itertools.product(COLOUR_CARDS, SHAPE_CARDS):
        d = drink_of(c, s)
        assert d.matches(c) and d.matches(s)
        assert d == Drink(c.value, s.value)
        # and it is the only one
        assert [x for x in ALL_DRINKS if x.matches(c) and x.matches(s)] == [d]


@pytest.mark.parametrize("a,b", [("shape", "colour"), ("colour", "colour"), ("shape", "shape")])
def test_drink_of_needs_one_colour_and_one_shape_card(a, b):
    cards = {"colour": Card.parse("red"), "shape": Card.parse("tall_can")}
    other = {"colour": Card.parse("blue"), "shape": Card.parse("short_can")}
    with pytest.raises(ValueError, match="colour card and one shape card"):
        drink_of(cards[a], other[b])


# --- doctests of the rules modules ---------------------------------------------------------

def _doctest_modules():
    """companion.drinks, the board's shared modules and every module under companion.rules whose
    source has an example."""
    import importlib
    import inspect
    import pkgutil

    import companion.rules

    names = ["companion.drinks", "companion.board_layout", "companion.board_pieces"] + sorted(
        m.name for m in pkgutil.walk_packages(companion.rules.__path__, "companion.rules.") if not m.ispkg)
    modules = [importlib.import_module(n) for n in names]
    return [m for m in modules if ">>>" in inspect.getsource(m)]


def test_the_doctests_found_include_the_core_modules():
    from companion.rules import engine, tower
    from companion.rules.games import pocari_bet
    from companion.rules.metro import game as metro

    found = {m.__name__ for m in _doctest_modules()}
    assert {drinks.__name__, engine.__name__, tower.__name__, pocari_bet.__name__, metro.__name__} <= found


@pytest.mark.parametrize("module", _doctest_modules(), ids=lambda m: m.__name__)
def test_module_doctests_pass(module):
    result = doctest.testmod(module, verbose=False, report=True)
    assert result.failed == 0
    assert result.attempted > 0, f"{module.__name__} has no doctests"
