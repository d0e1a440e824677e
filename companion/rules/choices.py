"""The options a lobby offers as choices when a game is started.

Most options are numbers a table sets rarely (through the API); a few are choices a person makes
before every game: which board, which action cards. A game names those in its declaration
(``Declared.choices``); each names an option whose type is a ``Literal`` (its values) or a bool
(no / yes), and may narrow the values offered (TOKYO METRO offers its own cards or Osaka's: the
value "tokyo" would say the same as "board"). The lobby draws a row of buttons per choice, its
words from the catalogues (``lobby.choice.<option>``, ``lobby.choice.<option>.<value>``), and
sends the values picked as the game's ``options``.

>>> from .metro.options import DrinksOptions
>>> offered(DrinksOptions, (Choice("system"), Choice("card_set", ("board", "osaka"))))
[{'option': 'system', 'values': ['tokyo', 'osaka'], 'default': 'tokyo'}, {'option': 'card_set', 'values': ['board', 'osaka'], 'default': 'board'}]
>>> offered(DrinksOptions, (Choice("system", ("osaka", "kyoto")),))
Traceback (most recent call last):
...
ValueError: choice system: kyoto is not a value of the option (tokyo, osaka)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal, get_args, get_origin

from .options import GameOptions


@dataclass(frozen=True)
class Choice:
    """An option the lobby offers; ``values``: the ones offered, in order (empty: all of them)."""

    option: str
    values: tuple[Any, ...] = ()


def _values_of(options: type[GameOptions], name: str) -> tuple[Any, ...]:
    """The values an option may take: a Literal's, or False/True for a bool; ValueError for others."""
    field = options.model_fields.get(name)
    if field is None:
        raise ValueError(f"choice {name}: {options.__name__} has no such option")
    kind = field.annotation
    while get_origin(kind) is Annotated:  # a Flag: bool with its strictness attached
        kind = get_args(kind)[0]
    if get_origin(kind) is Literal:
        return get_args(kind)
    if kind is bool:
        return (False, True)
    raise ValueError(f"choice {name}: only an option of named values (a Literal) or a yes/no option can be a choice")


def offered(options: type[GameOptions], choices: tuple[Choice, ...]) -> list[dict]:
    """The lobby's choices as JSON: ``{"option", "values", "default"}`` each (ValueError for a
    choice the options cannot take: an unknown option, a value it does not have, a default left out)."""
    out = []
    for choice in choices:
        allowed = _values_of(options, choice.option)
        values = choice.values or allowed
        wrong = [v for v in values if v not in allowed]
        if wrong:
            raise ValueError(f"choice {choice.option}: {', '.join(map(str, wrong))} is not a value of the option "
                             f"({', '.join(map(str, allowed))})")
        default = options.model_fields[choice.option].default
        if default not in values:
            raise ValueError(f"choice {choice.option}: its default {default!r} is not among the values offered")
        out.append({"option": choice.option, "values": list(values), "default": default})
    return out
