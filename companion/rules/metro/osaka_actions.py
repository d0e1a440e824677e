"""OSAKA METRO's card actions (rule book 000, OSAKA METRO EXPANSION: Aktionsphase): investing by
returning a disc to the box, selling a share, copying an action. Each kind in one place, like
card_actions.py and bank_actions.py (actions.py: the frame they share; copying.py: how a copy
right is used).

- ``invest_disc {card, action, line}``: besides the disc placed on the card, one more of the
  seat's free discs goes back to the box for good; the seat takes the line's next share paying only
  its surcharge (flat 300 for #2-#4 on Osaka's share cards), which the line's value rises by. The
  usual limits of investing hold (one share per line, none of a line one speculates on); a line
  whose train is not on the board gets it (both trams or buses of a pair).
- ``sell {card, action, line}``: the seat gives up its share of the line for what it alone would
  be paid for it if the game ended now (speculations ignored, the other holders counted): the bank
  sets those yen aside for the seat (``Seat.set_aside``: not spendable, added at the end after the
  speculation and share payouts, before loans); the line's value falls by them; the other holders
  move up to the lowest numbers in their order, and the highest share bought returns to the
  supply (buyable again, by the seller too).
- ``copy {card, action, discounts}``: pay its printed cost (discounts apply) for a copy right
  this round (copying.py).

>>> from companion.rules.metro.cards import default_track
>>> sale_yen(default_track(), 2000, holders=3, share=1), sale_yen(default_track(), 2000, holders=3, share=3)
(1000, 300)
"""
from __future__ import annotations

from typing import Iterable

from ..engine import Event, Move, MoveInfo
from .actions import Applied, CardAction, Offer, Taking
from .bank_actions import invest_line, may_invest, share_taken
from .cards import Action
from .scoring import share_payouts
from .state import State, line_arg


# --- invest_disc: a share for a disc returned to the box ---------------------------------------------

def _surcharge(state: State, li: int) -> int:
    return state.rules.stock.surcharges[li][len(state.lines[li].holders)]


def _spare_disc(state: State, p: int, a: Action) -> bool:
    """Whether the seat keeps a free disc to return to the box after placing the action's discs."""
    seat = state.seats[p]
    return seat.discs - seat.used - a.spaces >= 1


def _invest_disc_moves(o: Offer, cid: str, i: int, a: Action) -> Iterable[Move]:
    state = o.state
    if not _spare_disc(state, o.p, a):
        return []
    return [o.move("invest_disc", cid, i, line=state.board.lines[li].letter) for li in range(len(state.lines))
            if not may_invest(state, o.p, li) and _surcharge(state, li) <= o.seat.yen]


def _invest_disc(t: Taking) -> Applied:
    state, p = t.state, t.p
    li = invest_line(t)
    seat, line = state.seats[p], state.board.lines[li]
    if not _spare_disc(state, p, t.action):
        raise t.fail(f"this action returns one more action disc to the box, besides the {t.action.spaces} you "
                     f"place on it; you have {seat.discs - seat.used} free")
    cost = _surcharge(state, li)
    if cost > seat.yen:
        raise t.fail(f"share #{len(state.lines[li].holders) + 1} of line {line.letter} costs its surcharge of "
                     f"{cost} yen here; you have {seat.yen}")
    new, events = share_taken(state, li, p, cost)
    events.insert(0, Event("disc_boxed", {"seat": p, "discs": seat.discs - 1}))
    return t.done(cost, {"discs": seat.discs - 1, "boxed": seat.boxed + 1}, events,
                  lines=state.lines[:li] + (new,) + state.lines[li + 1:])


def _invest_disc_info(t: Taking) -> MoveInfo:
    state = t.state
    li = state.board.line_index[t.move.args["line"]]
    ls = state.lines[li]
    cost = _surcharge(state, li)
    share = len(ls.holders) + 1
    return MoveInfo(cost=cost, pays_up_to=share_payouts(state.rules.track, ls.value + cost, share)[-1],
                    why="why.tokyo_metro.investDisc",
                    params={"surcharge_yen": cost, "share": share, "worth": ls.value + cost, "line": t.move.args["line"]})


INVEST_DISC = CardAction("invest_disc", "Investieren (Aktionsscheibe)", _invest_disc_moves, _invest_disc,
                         _invest_disc_info)


# --- sell: a share for what it would pay now, set aside --------------------------------------------

def sale_yen(track, value: int, holders: int, share: int) -> int:
    """What share #``share`` of a line worth ``value`` with ``holders`` holders pays its holder
    alone at the end (speculations ignored): what a sale sets aside."""
    return min(value, share_payouts(track, value, holders)[share - 1])


def _sale(state: State, li: int, p: int) -> tuple[int, int]:
    """(share number, yen) of seat p's share of line li."""
    ls = state.lines[li]
    share = ls.holders.index(p) + 1
    return share, sale_yen(state.rules.track, ls.value, len(ls.holders), share)


def _sell_moves(o: Offer, cid: str, i: int, a: Action) -> Iterable[Move]:
    state = o.state
    return [o.move("sell", cid, i, line=state.board.lines[li].letter)
            for li, ls in enumerate(state.lines) if o.p in ls.holders]


def _sell(t: Taking) -> Applied:
    state, p = t.state, t.p
    li = line_arg(state, t.move)
    ls, line = state.lines[li], state.board.lines[li]
    if p not in ls.holders:
        held = [state.board.lines[k].letter for k, other in enumerate(state.lines) if p in other.holders]
        raise t.fail(f"you hold no share of line {line.letter} to sell (yours: {', '.join(held) or 'none'})")
    share, yen = _sale(state, li, p)
    holders = tuple(q for q in ls.holders if q != p)   # the others move up to #1, #2, ... in their order
    seat = state.seats[p]
    event = Event("sold", {"seat": p, "line": line.letter, "share": share, "yen": yen, "value": ls.value - yen,
                           "holders": list(holders), "returned": len(ls.holders)})
    return t.done(0, {"set_aside": seat.set_aside + yen}, [event], bank=state.bank - yen,
                  lines=state.lines[:li] + (ls._replace(value=ls.value - yen, holders=holders),) + state.lines[li + 1:])


def _sell_info(t: Taking) -> MoveInfo:
    li = t.state.board.line_index[t.move.args["line"]]
    share, yen = _sale(t.state, li, t.p)
    return MoveInfo(pays_up_to=yen, why="why.tokyo_metro.sell",
                    params={"line": t.move.args["line"], "share": share, "set_aside_yen": yen})


SELL = CardAction("sell", "Verkaufen", _sell_moves, _sell, _sell_info)


# --- copy: a copy right for a later turn of this round ----------------------------------------------

def _copy_moves(o: Offer, cid: str, i: int, a: Action) -> Iterable[Move]:
    return [o.move("copy", cid, i, discounts=refs) for refs in o.priced(a)]


def _copy(t: Taking) -> Applied:
    seat = t.state.seats[t.p]
    if t.price > seat.yen:
        raise t.fail(f"this copy action costs {t.price} yen; you have {seat.yen}")
    return t.done(t.price, {}, [Event("copy_taken", {"seat": t.p, "copy": f"{t.card}/{t.index}", "paid": t.price})])


def _copy_info(t: Taking) -> MoveInfo:
    return MoveInfo(cost=t.price, why="why.tokyo_metro.copy", params={"off_yen": t.action.amount - t.price})


COPY = CardAction("copy", "Kopieren", _copy_moves, _copy, _copy_info)

OSAKA = (INVEST_DISC, SELL, COPY)
