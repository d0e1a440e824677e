"""A field whose colour is sure while its shape is in doubt: the few drinks it may be (issue 31).

The field network names a drink's colour nearly always right; its doubt is between the shapes
of that colour, mostly neighbouring heights (a short or a tall can; measured on held-out fields,
docs/performance.md, "Where the drinks' heights go wrong"). Such a field is read with doubt, yet
it says something surely: a drink of this colour stands here, one of these shapes. So the reader
reports it as *choices* (``CrateReading.choices``): the table then sees a drink put into an
empty slot and asks which of the few it is, instead of seeing nothing.

A colour is sure when that colour's six drinks hold at least ``COLOUR_BAR`` of the field's
probability (after each drink once, ``crate_once.py``); the choices are its shapes, likeliest
first, until they hold ``SHAPES_HELD`` of the colour's share. Both were set on development and
varied frames for no field whose truth lies outside its choices (docs/performance.md, "A sure
colour, its shapes asked"). A frame the guard (``crates.DOUBTFUL_SHARE``) reads as unsure as a
whole keeps no choices: counted as read there, such fields let in frames whose few sure fields
were wrong.

>>> import numpy as np
>>> p = np.zeros(len(CLASSES)); p[CLASSES.index("red-short_can")] = 0.6; p[CLASSES.index("red-tall_can")] = 0.4
>>> choices(p)
['red-short_can', 'red-tall_can']
>>> p[CLASSES.index("empty")] = 0.01          # a field that may be empty has no sure colour
>>> choices(p / p.sum()) is None
True
"""
from __future__ import annotations

import numpy as np

from ..drinks import COLOURS, SHAPES, Drink
from .crate_net import CLASSES

COLOUR_BAR = 0.999      # the share of a field's probability one colour's drinks hold: its colour sure
SHAPES_HELD = 0.999     # the choices hold this share of that colour's probability
# the columns of each colour's drinks in the network's probabilities: colours x shapes
COLOUR_COLUMNS = np.array([[CLASSES.index(Drink(c, s).id) for s in SHAPES] for c in COLOURS])


def choices(p: np.ndarray) -> list[str] | None:
    """The drinks one field (its probabilities over ``CLASSES``) may be, likeliest first, when its
    colour is sure; None when it is not."""
    by_colour = p[COLOUR_COLUMNS]
    share = by_colour.sum(axis=1)
    c = int(np.argmax(share))
    if share[c] < COLOUR_BAR:
        return None
    order = np.argsort(-by_colour[c], kind="stable")
    held = np.cumsum(by_colour[c][order]) / share[c]
    k = int(np.sum(held < SHAPES_HELD)) + 1
    return [CLASSES[COLOUR_COLUMNS[c][i]] for i in order[:k]]
