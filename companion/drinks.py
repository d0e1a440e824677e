"""The 36 drinks of TOKYO JIDOHANBAIKI, the 12 stock cards, and what matches what.

Every drink is one colour and one shape; a stock card names one colour or one shape,
and a drink matches a card when it has that colour or that shape.

>>> Drink.parse("blue-tall_can").matches(Card.parse("blue"))
True
>>> Drink.parse("blue-tall_can").matches(Card.parse("stubby_can"))
False
>>> len(ALL_DRINKS), len(ALL_CARDS)
(36, 12)
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Colour(str, Enum):
    BLACK = "black"
    WHITE = "white"
    MINT = "mint"
    BLUE = "blue"
    RED = "red"
    PURPLE = "purple"


class Shape(str, Enum):
    """Declared lowest to tallest: the order ranks shapes in several games."""

    STUBBY_CAN = "stubby_can"
    SHORT_CAN = "short_can"
    TALL_CAN = "tall_can"
    SQUARE_BOTTLE = "square_bottle"
    NOT_TALLEST_BOTTLE = "not_tallest_bottle"
    TALLEST_BOTTLE = "tallest_bottle"

    @property
    def height_rank(self) -> int:
        """0 for the stubby can up to 5 for the tallest bottle."""
        return SHAPES.index(self)


COLOURS: tuple[Colour, ...] = tuple(Colour)
SHAPES: tuple[Shape, ...] = tuple(Shape)


@dataclass(frozen=True, order=True)
class Drink:
    colour: Colour
    shape: Shape

    @property
    def id(self) -> str:
        return f"{self.colour.value}-{self.shape.value}"

    @classmethod
    def parse(cls, text: str) -> "Drink":
        """Read an id like ``red-short_can``; a clear ValueError otherwise."""
        colour, sep, shape = text.partition("-")
        try:
            return cls(Colour(colour), Shape(shape))
        except ValueError:
            raise ValueError(
                f"{text!r} is not a drink id; write <colour>-<shape>, colours "
                f"{', '.join(c.value for c in COLOURS)}; shapes {', '.join(s.value for s in SHAPES)}"
            ) from None

    def matches(self, card: "Card") -> bool:
        return card.value in (self.colour, self.shape)

    def __str__(self) -> str:
        return self.id


ALL_DRINKS: tuple[Drink, ...] = tuple(Drink(c, s) for c in COLOURS for s in SHAPES)
DRINK_IDS: tuple[str, ...] = tuple(d.id for d in ALL_DRINKS)

# Things other than drinks that an add-on puts through the tower (rule book 002: Mr. Sudsy's
# laundromat sells detergent through it). Numbered bottles, so the tower's books can say which one
# is stuck; a game uses the first N of them (its option). The camera reads drinks only: these come
# from a tap or the simulated table. Their rules in the tower (what frees them): rules/tower.py.
DRINK = "drink"
DETERGENT = "detergent"
MAX_DETERGENT = 12
DETERGENT_IDS: tuple[str, ...] = tuple(f"{DETERGENT}-{i}" for i in range(1, MAX_DETERGENT + 1))
TOWER_ITEM_IDS: tuple[str, ...] = DRINK_IDS + DETERGENT_IDS   # catalogue order: drinks first
_ITEM_KIND = {**dict.fromkeys(DRINK_IDS, DRINK), **dict.fromkeys(DETERGENT_IDS, DETERGENT)}


def item_kind(item_id: str) -> str:
    """``"drink"`` or ``"detergent"`` for an id that can go through the tower; a clear ValueError otherwise.

    >>> item_kind("detergent-3"), item_kind("red-tall_can")
    ('detergent', 'drink')
    """
    try:
        return _ITEM_KIND[item_id]
    except (KeyError, TypeError):
        raise ValueError(f"{item_id!r} is neither a drink id such as 'red-short_can' nor a detergent bottle "
                         f"'detergent-1' to 'detergent-{MAX_DETERGENT}'") from None


def is_drink(item_id: object) -> bool:
    return _ITEM_KIND.get(item_id) == DRINK if isinstance(item_id, str) else False


@dataclass(frozen=True)
class Card:
    """A stock card: one colour or one shape."""

    value: Colour | Shape

    @property
    def kind(self) -> str:
        """``"colour"`` or ``"shape"``: the two decks some games shuffle apart."""
        return "colour" if isinstance(self.value, Colour) else "shape"

    @property
    def id(self) -> str:
        return self.value.value

    @classmethod
    def parse(cls, text: str) -> "Card":
        for enum in (Colour, Shape):
            try:
                return cls(enum(text))
            except ValueError:
                pass
        raise ValueError(f"{text!r} is not a stock card; name a colour or a shape id")

    def __str__(self) -> str:
        return self.id


COLOUR_CARDS: tuple[Card, ...] = tuple(Card(c) for c in COLOURS)
SHAPE_CARDS: tuple[Card, ...] = tuple(Card(s) for s in SHAPES)
ALL_CARDS: tuple[Card, ...] = COLOUR_CARDS + SHAPE_CARDS
CARD_IDS: tuple[str, ...] = tuple(c.id for c in ALL_CARDS)


def drink_of(colour_card: Card, shape_card: Card) -> Drink:
    """The one drink that matches a colour card and a shape card at once."""
    if colour_card.kind != "colour" or shape_card.kind != "shape":
        raise ValueError("need one colour card and one shape card")
    return Drink(colour_card.value, shape_card.value)  # type: ignore[arg-type]
