"""Pure game logic: no I/O, no clock, no hidden randomness.

Chance (the tower, shuffles, cards turned up) arrives as explicit moves by the
``CHANCE`` actor; see :mod:`companion.rules.engine`.
"""
