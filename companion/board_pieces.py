"""What stands on the TOKYO METRO board: the pieces a camera can read and a game expects.

:class:`Pieces` is one whole board: the pyramid at each station (by player colour), where each
player's meeple is (a field, or riding a line's train), the stop of each train on the board and
each line's value on the revenue track. The game in play says what it expects
(``rules/metro/pieces.py`` gives the same shape from a state), the board camera says what it
sees (:class:`BoardReading`, one frame); with METRO DRINKS also the drink built at each station, and :func:`differences` lists where they disagree, in
the order a person would fix them. Shared by vision, sim and table (like ``observation.py``), so
it imports none of them.

>>> game = Pieces(pyramids={"otemachi": "red"}, meeples={"red": "field:130"}, trains={"G": 3})
>>> seen = Pieces(pyramids={"otemachi": "red"}, meeples={"red": "field:131"}, trains={"G": 4})
>>> [d.say() for d in differences(game, seen)]
['red meeple: game field:130, board field:131', 'train G: game stop 4, board stop 5']
"""
from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .drinks import COLOURS as DRINK_COLOURS
from .drinks import DRINK_IDS

# The five player colours of TOKYO METRO, in seat order: seat 0 plays red, seat 1 blue, ...
# (the dashboard's PLAYER_COLOURS in js/metro/common.js are the same five).
PLAYER_COLOURS = ("red", "blue", "yellow", "green", "purple")
Colour = Literal["red", "blue", "yellow", "green", "purple"]
ProblemCode = Literal["unknown_colour", "camera_error", "wrong_board"]
PLACE = re.compile(r"^(field:\d{1,4}|ride:[A-Z])$")
MAX_PLACES = 400        # stations on a board, and then some
MAX_LINES = 26


class Pieces(BaseModel):
    """One whole board. ``meeples`` maps a colour to ``field:<index>`` (row by row from the top
    left) or ``ride:<line letter>`` (beside the revenue track: riding that line's train); a colour
    not listed has no meeple on the board. ``trains`` maps a line letter to the index of the stop
    its train stands at (0 = stop 1); ``values`` a line letter to its value in yen."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pyramids: dict[str, Colour] = Field(default_factory=dict, max_length=MAX_PLACES)
    meeples: dict[Colour, str] = Field(default_factory=dict, max_length=len(PLAYER_COLOURS))
    trains: dict[str, int] = Field(default_factory=dict, max_length=MAX_LINES)
    values: dict[str, int] = Field(default_factory=dict, max_length=MAX_LINES)
    # METRO DRINKS: the drink standing at a station, as a drink id ("red-tall_can") or, where
    # only its colour is known (the board camera reads colours from above), a colour id ("red")
    drinks: dict[str, str] = Field(default_factory=dict, max_length=MAX_PLACES)

    @field_validator("meeples")
    @classmethod
    def _places(cls, value: dict) -> dict:
        bad = [p for p in value.values() if not PLACE.match(p)]
        if bad:
            raise ValueError(f"a meeple's place is 'field:<index>' or 'ride:<line letter>', not {bad[0]!r}")
        return value

    @field_validator("drinks")
    @classmethod
    def _drinks(cls, value: dict) -> dict:
        bad = [d for d in value.values() if d not in DRINK_IDS and d not in _DRINK_COLOUR_IDS]
        if bad:
            raise ValueError(f"a drink at a station is a drink id (colour-shape, e.g. 'red-tall_can') "
                             f"or a colour ({', '.join(_DRINK_COLOUR_IDS)}), not {bad[0]!r}")
        return value

    @field_validator("trains", "values")
    @classmethod
    def _numbers(cls, value: dict) -> dict:
        for k, v in value.items():
            if not re.match(r"^[A-Z]$", k) or not (0 <= v <= 1_000_000):
                raise ValueError(f"{k!r}: {v!r}: a line is one capital letter, its number 0 to 1,000,000")
        return value


class Difference(BaseModel):
    """One piece where game and board disagree: ``piece`` (pyramid, meeple, train, value), ``key``
    (the station id, the colour or the line letter), what the game has and what the board shows
    (None: no such piece there)."""

    model_config = ConfigDict(frozen=True)

    piece: Literal["pyramid", "meeple", "train", "value", "drink"]
    key: str
    game: str | int | None
    board: str | int | None

    def say(self) -> str:
        """In plain words (English; the dashboard words it in the viewer's language)."""
        def shown(v):
            if v is None:
                return "none"
            return f"stop {v + 1}" if self.piece == "train" else str(v)
        name = {"pyramid": f"pyramid at {self.key}", "meeple": f"{self.key} meeple",
                "train": f"train {self.key}", "value": f"value of line {self.key}",
                "drink": f"drink at {self.key}"}[self.piece]
        return f"{name}: game {shown(self.game)}, board {shown(self.board)}"


def differences(game: Pieces, board: Pieces, unsure: frozenset[str] | set[str] = frozenset()) -> list[Difference]:
    """Where ``board`` differs from ``game``, pieces read with doubt (``unsure``: spot ids such as
    ``station:otemachi``, ``field:12``, ``stop:G:3``, ``value:G``, ``ride:G``, ``drink:otemachi``)
    left out. A drink known by its colour alone matches a drink id of that colour."""
    out: list[Difference] = []
    for sid in sorted(set(game.pyramids) | set(board.pyramids)):
        g, b = game.pyramids.get(sid), board.pyramids.get(sid)
        if g != b and f"station:{sid}" not in unsure:
            out.append(Difference(piece="pyramid", key=sid, game=g, board=b))
    for colour in PLAYER_COLOURS:
        g, b = game.meeples.get(colour), board.meeples.get(colour)
        if g != b and not ({g, b} & set(unsure)) and not any(p and _ride_unsure(p, unsure) for p in (g, b)):
            out.append(Difference(piece="meeple", key=colour, game=g, board=b))
    for letter in sorted(set(game.trains) | set(board.trains)):
        g, b = game.trains.get(letter), board.trains.get(letter)
        if g != b and not any(f"stop:{letter}:{k}" in unsure for k in (g, b) if k is not None):
            out.append(Difference(piece="train", key=letter, game=g, board=b))
    for letter in sorted(set(game.values) | set(board.values)):
        g, b = game.values.get(letter), board.values.get(letter)
        if g != b and f"value:{letter}" not in unsure:
            out.append(Difference(piece="value", key=letter, game=g, board=b))
    for sid in sorted(set(game.drinks) | set(board.drinks)):
        g, b = game.drinks.get(sid), board.drinks.get(sid)
        if not same_drink(g, b) and f"drink:{sid}" not in unsure:
            out.append(Difference(piece="drink", key=sid, game=g, board=b))
    return out


_DRINK_COLOUR_IDS = tuple(c.value for c in DRINK_COLOURS)


def drink_colour(drink: str | None) -> str | None:
    """The colour of a drink id or colour id (None for none).

    >>> drink_colour("mint-tallest_bottle"), drink_colour("mint"), drink_colour(None)
    ('mint', 'mint', None)
    """
    return None if drink is None else drink.partition("-")[0]


def same_drink(a: str | None, b: str | None) -> bool:
    """Whether two drinks at a station agree: the same id, or the same colour where one side
    knows only the colour (the camera from above tells colours, not always shapes).

    >>> same_drink("red-tall_can", "red"), same_drink("red-tall_can", "red-short_can"), same_drink("red", None)
    (True, False, False)
    """
    if a == b:
        return True
    if a is None or b is None:
        return False
    if "-" in a and "-" in b:
        return False
    return drink_colour(a) == drink_colour(b)


def _ride_unsure(place: str, unsure) -> bool:
    return place.startswith("ride:") and any(u.startswith(place + ":") or u == place for u in unsure)


class BoardReading(BaseModel):
    """What the board camera made of one frame. ``pose``: ``locked`` (markers found this frame),
    ``held`` (too few markers: the last good pose, followed by those in view) or ``lost``;
    ``hands``: something over the board (the frame's pieces are not to be taken); ``unsure``: the
    places read with doubt, left out of any comparison; ``problems``: what a person should know,
    in words (no markers, a piece of no player's colour, ...)."""

    model_config = ConfigDict(frozen=True)

    pieces: Pieces = Field(default_factory=Pieces)
    unsure: list[str] = Field(default_factory=list, max_length=2000)
    hands: bool = False
    markers: int = Field(0, ge=0, le=4)
    pose: Literal["locked", "held", "lost"] = "lost"
    problems: list[str] = Field(default_factory=list, max_length=20)
    # the problems a dashboard words itself, by code (unknown_colour, camera_error, wrong_board),
    # each with the words of its first case: the table acts on codes, never on the words
    codes: dict[ProblemCode, str] = Field(default_factory=dict, max_length=5)
    ms: float = Field(0.0, ge=0.0, le=1e6)      # time taken to read the frame

    @property
    def usable(self) -> bool:
        """Whether this frame's pieces may be taken at all."""
        return self.pose != "lost" and not self.hands
