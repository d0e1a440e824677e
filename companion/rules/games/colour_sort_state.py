"""The colour-sorting solo game's options, state, crates and where drinks belong (the moves and the
declaration are in colour_sort.py; our readings in docs/rules-notes.md).

>>> s = State(Options(), "Solo", colours=("mint", "blue", "red"),
...           crates=tuple(tuple(f"{c}-{x}" for x in SHAPE_IDS) for c in ("mint", "blue", "red")) + ((None,) * SLOTS,))
>>> is_won(s), is_home(s, "tall_can"), Options(colours=4).time_coins
(True, True, 5)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence

from ...drinks import COLOURS, SHAPES
from ..options import Flag, GameOptions, Players, Whole, WholeIn
from .common import matches, traits
from .pura_crates import SLOTS, Crates

LEAVE, FILL, FIX, DRAW, MOVE, OVER = "leave", "fill", "fix", "draw", "move", "over"
COLOUR_IDS = tuple(c.value for c in COLOURS)
SHAPE_IDS = tuple(s.value for s in SHAPES)
# Slots side by side or one above the other in a 2x3 crate (no diagonals).
NEIGHBOURS = {0: (1, 2), 1: (0, 3), 2: (0, 3, 4), 3: (1, 2, 5), 4: (2, 5), 5: (3, 4)}
# A start that keeps the start rule: crate k holds shape s in slot s, in colour (s + k) mod 3.
LAYOUT_EXAMPLE = [f"{('mint', 'blue', 'red')[(s + k) % 3]}-{SHAPE_IDS[s]}" for k in range(3) for s in range(SLOTS)]


class Options(GameOptions):
    players: Players = 1
    colours: WholeIn(3, 5) = 3       # colours in play, one outer crate each (4, 5: the "too simple" variant)
    hundreds: Whole = 4              # the time track: one 100 coin goes at the end of every round
    fives: Whole = 3
    thousands: Whole = 2
    extra_rounds: WholeIn(0, 20) = 0  # the "too hard" variant: one more 100 coin (a round) each
    same_position: Flag = False      # the "too easy" variant: one more round, each shape in one slot everywhere
    win: Literal["outer", "any"] = "outer"  # "any": the "too chaotic" variant, any crates but one sorted
    card_value: Whole = 500          # what a set-aside card buys back (and counts in the score)
    max_share: Whole = 3             # at the start no crate holds more than this many sharing a colour or shape
    fix_limit: Whole = 36            # fix-up swaps allowed at the start before play begins anyway
    refund_first: Literal["1000", "500"] = "1000"  # which spent coins the set-aside cards buy back first

    @property
    def crates(self) -> int:
        return self.colours + 1

    @property
    def time_coins(self) -> int:
        """The 100 coins of the time track: one more per colour added, per extra round, for same_position."""
        return self.hundreds + (self.colours - 3) + self.extra_rounds + int(self.same_position)


@dataclass(frozen=True)
class State:
    options: Options
    name: str
    colours: tuple[str, ...] = ()    # colours in play (their cards and drinks)
    crates: Crates = ()              # outer crates first, the middle crate last
    phase: str = LEAVE
    hundreds: int = 0
    fives: int = 0
    thousands: int = 0
    spent_fives: int = 0
    spent_thousands: int = 0
    deck: tuple[str, ...] = ()       # cards still to turn up this round (their order is chance's)
    card: str | None = None          # the card turned up, whose drink is to move
    aside: tuple[str, ...] = ()      # cards set aside this round
    round: int = 1
    fixes: int = 0
    result: str | None = None
    why: str | None = None

    @property
    def yen(self) -> int:
        return self.hundreds * 100 + self.fives * 500 + self.thousands * 1000

    @property
    def outer(self) -> range:
        return range(len(self.crates) - 1)

    @property
    def cards(self) -> tuple[str, ...]:
        return SHAPE_IDS + self.colours

    @property
    def drinks(self) -> tuple[str, ...]:
        return tuple(f"{c}-{s}" for c in self.colours for s in SHAPE_IDS)


# --- where drinks belong ----------------------------------------------------------------------

def _sorted_crate(crate: Sequence[str | None]) -> str | None:
    """The colour of a crate whose drinks all share one colour (None for an empty or mixed one)."""
    colours = {traits(d)[0] for d in crate if d}
    return colours.pop() if len(colours) == 1 else None


def is_home(state: State, card: str) -> bool:
    """Whether every drink of ``card`` stands where it belongs: a colour's six together in one outer
    crate; a shape's drinks each in an outer crate holding its colour alone (docs/rules-notes.md)."""
    where = [(i, d) for i, c in enumerate(state.crates) for d in c if d and matches(d, card)]
    if any(i not in state.outer for i, _ in where):
        return False
    if card in COLOUR_IDS:
        return len({i for i, _ in where}) == 1
    return all(_sorted_crate(state.crates[i]) == traits(d)[0] for i, d in where)


def is_won(state: State) -> bool:
    """Each outer crate (or, with ``win: any``, as many crates as colours, any of them) full of one
    colour; with ``same_position``, each shape in one slot in all of them."""
    full = [c for c in state.crates if all(c) and _sorted_crate(c)]
    if state.options.win == "outer":
        full = [state.crates[i] for i in state.outer if all(state.crates[i]) and _sorted_crate(state.crates[i])]
    if len(full) < len(state.colours):
        return False
    if state.options.same_position:
        return all(len({c.index(f"{_sorted_crate(c)}-{s}") for c in full}) == 1 for s in SHAPE_IDS)
    return True
