"""The sealed bid, for the games that play one: every bidder closes a fist around an amount on
their own phone, all open at once, only the highest pays; ties bid again, and after too many
re-bids a coin decides.

:class:`Bidding` keeps the bids. :class:`SealedBid` declares the two phases (``bid``: the
bidders still to bid; ``bid_tie``: the coin) and the two kinds of move (``bid``, secret, and
the chance outcome ``tie_break``) for a game whose state has ``seats`` (each with ``yen``),
``bank``, ``phase``, ``bidding``, ``tied`` and ``options.max_rebids``; the game says what the
winner's payment leads to. ``redraw_bids`` draws the amounts a viewer cannot see again, for
estimates.

>>> b = Bidding((0, 1, 2)).place(1, 300).place(0, 300).place(2, 100)
>>> b.opened()
({1: 300, 0: 300, 2: 100}, (0, 1))
>>> b.rebid((0, 1)).waiting()
[0, 1]
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Callable

from ..declared import Applied, Kind, Phase
from ..engine import CHANCE, ChanceSpec, Event, IllegalMove, Move, MoveInfo, Pending, uniform
from .common import YEN_STEP, arg_int, seat_in, set_at, stepped_amounts, top

BID, BID_TIE = "bid", "bid_tie"


@dataclass(frozen=True)
class Bidding:
    """A sealed bid: each bidder puts an amount in a closed fist, all open at once.

    ``sealed`` holds (seat, amount) pairs not yet revealed; a player's own view shows
    their amount, everyone else sees only that they have bid. Ties among the highest
    bid again (``rebids`` counts the re-bids); ``revealed`` keeps earlier openings.
    """

    bidders: tuple[int, ...]
    sealed: tuple[tuple[int, int], ...] = ()
    rebids: int = 0
    revealed: tuple[tuple[tuple[int, int], ...], ...] = ()

    def waiting(self) -> list[int]:
        done = {p for p, _ in self.sealed}
        return [p for p in self.bidders if p not in done]

    def has_bid(self, p: int) -> bool:
        return any(q == p for q, _ in self.sealed)

    def amount(self, p: int) -> int | None:
        return next((a for q, a in self.sealed if q == p), None)

    def place(self, p: int, amount: int) -> "Bidding":
        return replace(self, sealed=self.sealed + ((p, amount),))

    def complete(self) -> bool:
        return not self.waiting()

    def opened(self) -> tuple[dict[int, int], tuple[int, ...]]:
        """The bids and the seats that bid the most (in bidding order)."""
        bids = dict(self.sealed)
        return bids, top(bids, [p for p in self.bidders])

    def rebid(self, tied: tuple[int, ...]) -> "Bidding":
        return Bidding(tied, (), self.rebids + 1, self.revealed + (tuple(sorted(self.sealed)),))

    def view(self, viewer: int | None) -> dict:
        return {"bidders": list(self.bidders), "rebids": self.rebids,
                "has_bid": [p for p in self.bidders if self.has_bid(p)],
                "my_bid": self.amount(viewer) if isinstance(viewer, int) else None,
                "earlier": [{str(p): a for p, a in opening} for opening in self.revealed]}


def bid_moves(seat: int, yen: int, step: int = YEN_STEP) -> list[Move]:
    return [Move("bid", seat, {"amount": a}) for a in stepped_amounts(0, yen, step)]


def check_bid(move: Move, yen: int, step: int = YEN_STEP) -> int:
    amount = arg_int(move, "amount")
    if amount < 0 or amount > yen or amount % step:
        raise IllegalMove(f"bid 0 to {yen} yen (what you have) in steps of {step}, not {amount}", move)
    return amount


# --- the declaration's part -------------------------------------------------------------------

State = Any


def bidders(state: State) -> list[Pending]:
    return [Pending(p) for p in state.bidding.waiting()]


def _listed(state: State, seat: int) -> list[Move]:
    return bid_moves(seat, state.seats[seat].yen)


def _coin(state: State) -> ChanceSpec:
    return uniform(Move("tie_break", CHANCE, {"seat": p}) for p in state.tied)


def _info(state: State, move: Move) -> MoveInfo:
    # The amount is paid only if the bid is the highest: the others keep theirs.
    amount = int(move.args.get("amount", 0))
    return MoveInfo(cost=amount, why="why.sealedBid", params={"amount": amount})


@dataclass(frozen=True)
class SealedBid:
    """A game's sealed bid: ``what`` it decides in words ("start bid"), the rule-book section it
    follows, the event that says who won, and ``won(state, seat)``: what follows once the winner
    has paid their bid to the bank (a new phase)."""

    what: str
    rule: str
    won_event: str
    won: Callable[[State, int], State]

    @property
    def phases(self) -> tuple[Phase, Phase]:
        return (Phase(BID, f"the sealed {self.what}s", acting=bidders,
                      ends="when every bidder has bid: the highest pays, or the tied bid again"),
                Phase(BID_TIE, f"a coin to decide the tied {self.what}", outcomes=_coin,
                      ends="when the coin has named the winner"))

    @property
    def kinds(self) -> tuple[Kind, Kind]:
        # Once the last bid is in, every bid opens at once: the opening and its outcome are public.
        return (Kind("bid", self.bid, self.rule, phases=(BID,), listed=_listed, info=_info, secret=True,
                     open_events=("bids_opened", "rebid", self.won_event)),
                Kind("tie_break", self.tie_break, self.rule, phases=(BID_TIE,), chance=True))

    def bid(self, state: State, move: Move) -> Applied:
        p = move.player
        bidding = state.bidding.place(p, check_bid(move, state.seats[p].yen))
        events = [Event("bid_placed", {"seat": p})]
        if not bidding.complete():
            return replace(state, bidding=bidding), events
        bids, best = bidding.opened()
        events.append(Event("bids_opened", {"bids": {str(k): v for k, v in bids.items()}, "highest": list(best)}))
        if len(best) == 1:
            return self._pays(replace(state, bidding=bidding), best[0], events)
        if bidding.rebids < state.options.max_rebids:
            return replace(state, bidding=bidding.rebid(best)), events + [Event("rebid", {"seats": list(best)})]
        return replace(state, bidding=bidding, phase=BID_TIE, tied=best), events

    def tie_break(self, state: State, move: Move) -> Applied:
        p = seat_in(move, state.tied)
        return self._pays(state, p, [Event("tie_break", {"seat": p})])

    def _pays(self, state: State, p: int, events: list[Event]) -> Applied:
        amount = state.bidding.amount(p)
        seats = set_at(state.seats, p, yen=state.seats[p].yen - amount)
        state = replace(state, seats=seats, bank=state.bank + amount, bidding=None, tied=())
        return self.won(state, p), events + [Event(self.won_event, {"seat": p, "paid": amount})]


def redraw_bids(state: State, viewer: int | None, rng: random.Random) -> State:
    """``state`` with every sealed amount but the viewer's own drawn again: a random legal bid
    (0 to the bidder's yen, in steps of 100). Who has bid is known to all, so the draws depend on
    nothing hidden."""
    if state.phase != BID or state.bidding is None:
        return state
    sealed = tuple((p, a if p == viewer else rng.randrange(state.seats[p].yen // YEN_STEP + 1) * YEN_STEP)
                   for p, a in state.bidding.sealed)
    return replace(state, bidding=replace(state.bidding, sealed=sealed))
