"""OSAKA METRO's copy right: taking an action again that was taken this round.

A seat that took a copy action (osaka_actions.py) holds a copy right until the action phase ends
(``Seat.copies``). In a later turn it may take any card action whose spaces hold discs this round
(by anyone, itself too) by naming the copy action in the move, ``copy: "CARD/INDEX"``: its discs
go on top of those there, it pays what the action costs, and the copy disc moves onto it too (the
copy action's space is free again). A copy right copies neither a copy action nor a discount
action (whose discs stand for a price cut held by their owner); the action must lie face up or on
the seat's own card. docs/rules-notes.md, rows M3 and M4.
"""
from __future__ import annotations

from typing import Iterator

from ..engine import IllegalMove, Move
from .cards import Action
from .state import State

NOT_COPIED = frozenset({"copy", "discount"})


def copy_arg(state: State, move: Move, cid: str, i: int, action: Action) -> tuple[str, int] | None:
    """The copy right a move uses (``copy``), checked against the action it copies; None without."""
    raw = move.args.get("copy")
    if raw is None:
        return None
    seat = state.seats[move.player]
    card, _, index = raw.partition("/") if isinstance(raw, str) else ("", "", "")
    key = (card, int(index)) if index.isdigit() else None
    if key is None or key not in seat.copies:
        mine = ", ".join(f"{c}/{k}" for c, k in seat.copies) or "none"
        raise IllegalMove(f"'copy' must name a copy action holding your disc this round, written CARD/INDEX "
                          f"(yours: {mine}); not {raw!r}", move)
    if (cid, i) not in state.occupied:
        raise IllegalMove(f"the {action.kind} action of card {cid} is free: take it without a copy right", move)
    if action.kind in NOT_COPIED:
        raise IllegalMove(f"a copy right copies any action taken this round but a {action.kind} action", move)
    return key


def copyable(state: State, p: int) -> Iterator[tuple[str, int, Action, str]]:
    """(card id, action index, action, the copy right's ref) for every action seat p may copy now."""
    seat = state.seats[p]
    if not seat.copies:
        return
    via = f"{seat.copies[0][0]}/{seat.copies[0][1]}"   # rights are alike: the first one is offered
    cards = state.rules.deck.cards
    free = seat.discs - seat.used
    for cid in [c for col in state.columns for c in col.slots] + list(seat.cards):
        for i, a in enumerate(cards[cid].actions):
            if (cid, i) in state.occupied and a.kind not in NOT_COPIED and a.spaces <= free:
                yield cid, i, a, via
