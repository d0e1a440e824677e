"""A game's options: one pydantic model per game, checked the same way for every game.

A game declares its options as a subclass of :class:`GameOptions` whose fields use the bounded
types below, so that no setting makes a game that cannot be played or shown and nothing unbounded
enters a game's settings, which are kept for ever (engine.py says which bounds are the default).
Values are checked strictly: text is not a number (``{"rounds": "9"}`` is refused), a whole number
sent as ``300.0`` is taken as 300, lists become tuples.

>>> class Options(GameOptions):
...     players: Players = 3
...     start_yen: Whole = 500
...     stake_step: WholeIn(100, 10_000) = 100
>>> Options.from_config({"names": ["A", "B"]}, "A GAME", (2, 3)).players
2
>>> Options.from_config({"options": {"start_yen": -5}}, "A GAME", (2, 3))
Traceback (most recent call last):
...
companion.rules.engine.IllegalMove: option start_yen must be a whole number of at least 0 and at most 100000, not -5
>>> Options.from_config({"options": {"rounds": 9}}, "A GAME", (2, 3))
Traceback (most recent call last):
...
companion.rules.engine.IllegalMove: unknown option(s) rounds; known: players, stake_step, start_yen
"""
from __future__ import annotations

from typing import Annotated, Any, ClassVar, Mapping, Sequence

import annotated_types
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, Strict, ValidationError

from .engine import OPTION_ITEMS, OPTION_RANGE, OPTION_TEXT, IllegalMove

# The rules version a new game is stored with (config "rules"). A game stored before a rule was
# corrected keeps the reading it was played with (``GameOptions.EARLIER``), so that every stored
# log replays to the same result (docs/log-format.md).
RULES_VERSION = 2


def _whole(value: Any) -> Any:
    # JSON has one kind of number: 300.0 is the whole number 300; anything else is checked strictly.
    return int(value) if isinstance(value, float) and value.is_integer() else value


def WholeIn(least: int, most: int) -> Any:  # noqa: N802 - a type, named like one
    """A whole number from ``least`` to ``most`` (an option whose range is not OPTION_RANGE)."""
    return Annotated[int, BeforeValidator(_whole), Strict(), Field(ge=least, le=most)]


Whole = WholeIn(*OPTION_RANGE)
Text = Annotated[str, Strict(), Field(max_length=OPTION_TEXT)]
Flag = Annotated[bool, Strict()]
Players = WholeIn(1, 12)


def Items(item: Any = Any) -> Any:  # noqa: N802 - a type, named like one
    """A list (kept as a tuple) of at most OPTION_ITEMS items of ``item``."""
    return Annotated[tuple[item, ...], Field(max_length=OPTION_ITEMS)]


class GameOptions(BaseModel):
    """The base of every game's options: unknown names refused, values strict and bounded, frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # Defaults a game stored under an earlier rules version played with (version -> name -> value),
    # for options whose default changed when a rule was corrected.
    EARLIER: ClassVar[Mapping[int, Mapping[str, Any]]] = {}

    @classmethod
    def from_config(cls, config: Mapping[str, Any], title: str, allowed: Sequence[int]) -> "GameOptions":
        """The options of ``config["options"]``: IllegalMove saying what is wrong. The player count
        comes from ``options.players`` or, when absent, from the names given."""
        given = dict(config.get("options") or {})
        known = sorted(cls.model_fields)
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise IllegalMove(f"unknown option(s) {', '.join(map(str, unknown))}; known: {', '.join(known)}")
        version = config.get("rules", 1)
        for earlier, defaults in sorted(cls.EARLIER.items()):
            if version <= earlier:
                given = {**{k: v for k, v in defaults.items() if k not in given}, **given}
        names = config.get("names")
        if "players" in cls.model_fields and "players" not in given and names:
            given["players"] = len(names)
        players = given.get("players")
        if isinstance(players, int) and not isinstance(players, bool) and players not in allowed:
            raise IllegalMove(f"{title} is played by {describe_counts(allowed)} players, not {_shown(players)}")
        try:
            options = cls(**given)
        except ValidationError as exc:
            raise IllegalMove(cls._reason(exc, given)) from None
        players = getattr(options, "players", None)
        if players is not None and players not in allowed:
            raise IllegalMove(f"{title} is played by {describe_counts(allowed)} players, not {players}")
        return options

    @classmethod
    def bounds(cls, name: str) -> tuple[int, int] | None:
        """The least and most a whole-number option may be, or None for another kind of option."""
        least = most = None
        for meta in cls.model_fields[name].metadata:
            if isinstance(meta, annotated_types.Ge):
                least = meta.ge
            elif isinstance(meta, annotated_types.Le):
                most = meta.le
        return (least, most) if least is not None and most is not None else None

    @classmethod
    def _reason(cls, exc: ValidationError, given: Mapping[str, Any]) -> str:
        error = exc.errors()[0]
        loc = [str(part) for part in error["loc"]]
        name = loc[0] if loc else ""
        value = given.get(name, error.get("input"))
        if isinstance(value, str) and len(value) > OPTION_TEXT:  # a text, or a named choice, too long
            return f"option {name} is {len(value)} characters long; at most {OPTION_TEXT}"
        if name in cls.model_fields and error["type"] in ("greater_than_equal", "less_than_equal", "int_type"):
            least, most = cls.bounds(name) or OPTION_RANGE
            return f"option {name} must be a whole number of at least {least} and at most {most}, not {_shown(value)}"
        if error["type"] == "too_long":
            return f"option {name} lists {len(value)} items; at most {OPTION_ITEMS}"
        where = "/".join(loc[1:])
        message = error["msg"].removeprefix("Value error, ")
        return f"option {name}{' ' + where if where else ''}: {message}" if name else message


def _shown(value: Any) -> str:
    text = repr(value)
    if isinstance(value, int) and not isinstance(value, bool) and len(text) > 20:
        return f"a number of {len(text)} digits"
    return text if len(text) <= 40 else "a long value"


def describe_counts(allowed: Sequence[int]) -> str:
    """How many players a game takes, in words: "exactly 2", "2 to 6", "2, 4"."""
    allowed = sorted(allowed)
    if len(allowed) == 1:
        return f"exactly {allowed[0]}"
    if allowed == list(range(allowed[0], allowed[-1] + 1)):
        return f"{allowed[0]} to {allowed[-1]}"
    return ", ".join(map(str, allowed))
