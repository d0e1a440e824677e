"""TOKYO METRO action phase: how a card action is offered and taken, the same for every kind.

In player order each seat takes one action or passes, until everyone has passed. An action is
available while its action spaces are empty; taking it puts one of the seat's discs on each space.
Moves (all args are JSON: ints and text; ``card``/``action`` name the action on a face-up or
private card, ``action`` counting from 0)::

    move          {card, action, field}                  walk up to the action's fields (+1 bicycle)
    station       {card, action, station, discounts}     build a station the meeple touches
    station_swap  {card, action, station, token}         build one, paying a "tempo" or "bicycle" token
    invest        {card, action, line, discounts}        buy the line's next share; places its train
    start         {card, action, line}                   place a train that is not on the board
    tempo         {card, action}                         take tempo tokens
    bicycle       {card, action}                         take the bicycle
    discount      {card, action}                         discs that later lower a printed cost
    bid_bonus     {card, action}                         yen added to the next bid
    loan          {card, action}                         +1,000 and a loan token
    repay         {card, action}                         -1,000, give a loan token back
    speculate     {card, action, line, stake}            a speculation disc and a stake on a line
    action_disc   {card, action, discounts}              one more action disc for the rest of the game
    card          {card, action, column, discounts}      the top card of a discard pile, private
    assign_tempo  {line}          free, before an action: a held tempo token onto a line's free space
    pass          {}              +100 per disc not placed; out of the action phase
    alight        {field}         free, at any time: get off the train (trains.py)

``discounts`` is a list of ``"CARD/INDEX"`` discount actions that hold the seat's discs.
OSAKA METRO's cards add (osaka_actions.py)::

    invest_disc   {card, action, line}                   a share for a disc returned to the box (+ surcharge)
    sell          {card, action, line}                   a share sold: its end payout set aside
    copy          {card, action, discounts}              a copy right for a later turn this round

and any card action with ``copy: "CARD/INDEX"`` (the copy action holding the seat's disc) may
be taken although its spaces hold discs already (copying.py).

Each kind of card action is a :class:`CardAction` (card_actions.py, bank_actions.py): the moves
it offers for one card action (given an :class:`Offer`), what taking it does (given a
:class:`Taking`: the checks every kind shares are done by :func:`take`), and what it costs and may
pay. action_phase.py lists them all, and holds passing and tempo tokens.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Callable, Iterable, Iterator

from ..engine import Event, IllegalMove, Move, MoveInfo
from .cards import DISCOUNTABLE, Action
from .copying import copy_arg
from .rounds import next_turn
from .state import State, int_arg, occupied_fields, quick_move, seat_label, set_seat, str_arg

Applied = tuple[State, list[Event]]


def ref(card: str, index: int) -> str:
    return f"{card}/{index}"


def min_stake(state: State, line: int) -> int:
    """The least stake for a speculation: the lower number beside the line's value (at least 100)."""
    return max(100, state.rules.track.numbers(state.lines[line].value)[1])


def available(state: State, p: int) -> Iterator[tuple[str, int, Action]]:
    """(card id, action index, action) of every action seat p may take now (spaces empty)."""
    cards = state.rules.deck.cards
    occ = state.occupied
    free = state.seats[p].discs - state.seats[p].used
    for cid in [c for col in state.columns for c in col.slots] + list(state.seats[p].cards):
        for i, a in enumerate(cards[cid].actions):
            if a.spaces <= free and (cid, i) not in occ:
                yield cid, i, a


class Offer:
    """What listing one seat's card actions needs more than once: the fields taken by other
    meeples, where the meeple can walk, and which combinations of its discounts make sense.
    ``via``: the copy right (``"CARD/INDEX"``) the moves being listed use, or None."""

    def __init__(self, state: State, p: int):
        self.state, self.p, self.seat = state, p, state.seats[p]
        self._taken: set[int] | None = None
        self._reach: dict[int, list[int]] = {}
        self._discounts: list[tuple[tuple[str, ...], int, int]] | None = None
        self.via: str | None = None

    def move(self, kind: str, cid: str, i: int, **args) -> Move:
        if self.via is not None:
            args["copy"] = self.via
        return quick_move(kind, self.p, {"card": cid, "action": i, **args})

    def reach(self, steps: int) -> list[int]:
        """The fields the meeple can reach in up to ``steps`` steps."""
        if steps not in self._reach:
            if self._taken is None:
                self._taken = occupied_fields(self.state, but=self.p)
            self._reach[steps] = self.state.board.reachable(self.seat.field, steps, self._taken)
        return self._reach[steps]

    def priced(self, a: Action, cost: Callable[[int], int] = lambda price: price) -> Iterator[tuple[str, ...]]:
        """The discount choices (refs) for action ``a`` in which every discount counts and the
        seat can pay ``cost(printed cost less the discounts)``."""
        if self._discounts is None:
            self._discounts = _discount_choices(self.state, self.p)
        for refs, total, smallest in self._discounts:
            if refs and total - smallest >= a.amount:
                continue
            if cost(max(0, a.amount - total)) <= self.seat.yen:
                yield refs


def _discount_choices(state: State, p: int) -> list[tuple[tuple[str, ...], int, int]]:
    """(refs, total, smallest) for each subset of the seat's discount actions."""
    held = state.seats[p].discounts
    cards = state.rules.deck.cards
    amounts = [(ref(c, i), cards[c].actions[i].amount) for c, i in held]
    out = [((), 0, 0)]
    for k in range(1, len(amounts) + 1):
        for combo in combinations(amounts, k):
            out.append((tuple(sorted(r for r, _ in combo)), sum(a for _, a in combo), min(a for _, a in combo)))
    return out


@dataclass(frozen=True)
class Taking:
    """A card action being taken (or priced): the state before, the move, the card action, and
    the discount actions whose discs it uses with the yen they take off."""

    state: State
    move: Move
    card: str
    index: int
    action: Action
    used: tuple[tuple[str, int], ...] = ()
    discount: int = 0
    copy: tuple[str, int] | None = None     # the copy action whose right this taking uses

    @property
    def p(self) -> int:
        return self.move.player

    @property
    def price(self) -> int:
        """The printed cost after the discounts (never below 0)."""
        return max(0, self.action.amount - self.discount)

    def fail(self, reason: str) -> IllegalMove:
        return IllegalMove(reason, self.move)

    def done(self, cost: int, seat_changes: dict, events: list[Event], **state_changes) -> Applied:
        """Book the action: discs on its spaces, the discounts' discs moved onto it, ``cost`` to
        the bank, the seat's and the state's changes; then the next turn."""
        state, p = self.state, self.p
        seat = state.seats[p]
        key = (self.card, self.index)
        discounts = tuple(d for d in seat.discounts if d not in self.used)
        if self.action.kind == "discount":
            discounts += (key,)
        # A used copy right's disc moves onto the copied action, like a used discount's discs.
        moved = frozenset(self.used) | ({self.copy} if self.copy else frozenset())
        copies = tuple(c for c in seat.copies if c != self.copy) + ((key,) if self.action.kind == "copy" else ())
        occupied = (state.occupied - moved) | {key}
        placed = state.placed + ((*key, p),)  # used discounts stay listed: their discs sit on this action now
        changes = {"used": seat.used + self.action.spaces, "yen": seat_changes.pop("yen", seat.yen) - cost,
                   "tempo_now": 0, "discounts": discounts, "copies": copies, **seat_changes}
        state = state._replace(**state_changes)
        state = state._replace(seats=set_seat(state, p, **changes), occupied=occupied, placed=placed,
                               bank=state.bank + cost)
        if self.used:
            events = events + [Event("discount_used", {"seat": p, "discounts": [ref(c, k) for c, k in self.used]})]
        if self.copy:
            events = events + [Event("copied", {"seat": p, "copy": ref(*self.copy), "action": ref(*key)})]
        return next_turn(state, events)


@dataclass(frozen=True)
class CardAction:
    """One kind of card action in one place: the moves it offers for a card action, what taking it
    does, what it costs and may pay, and the rule book's name for it."""

    kind: str
    heading: str
    moves: Callable[[Offer, str, int, Action], Iterable[Move]]
    apply: Callable[[Taking], Applied]
    info: Callable[[Taking], MoveInfo] | None = None


def take(state: State, move: Move, apply: Callable[[Taking], Applied]) -> Applied:
    """The checks every card action shares (the card is face up or the seat's own, the action is
    of this kind, free, and the seat has the discs; discounts only where a printed cost is
    lowered), then the kind's own ``apply``."""
    seat = state.seats[move.player]
    cid = str_arg(move, "card")
    card = state.rules.deck.cards.get(cid)
    if card is None:
        raise IllegalMove(f"there is no action card {cid!r}", move)
    if not any(cid in col.slots for col in state.columns) and cid not in seat.cards:
        owner = next((q for q, s in enumerate(state.seats) if cid in s.cards), None)
        if owner is not None:
            raise IllegalMove(f"card {cid} lies in front of {seat_label(state, owner)}: only its owner may use it", move)
        raise IllegalMove(f"card {cid} is not face up in a column (nor one of your own cards)", move)
    i = int_arg(move, "action")
    if not 0 <= i < len(card.actions):
        raise IllegalMove(f"card {cid} has {len(card.actions)} action(s), numbered from 0; there is no action {i}", move)
    action = card.actions[i]
    if action.kind != move.kind:
        raise IllegalMove(f"action {i} of card {cid} is {action.kind}, not {move.kind}", move)
    via = copy_arg(state, move, cid, i, action)
    if (cid, i) in state.occupied and via is None:
        raise IllegalMove(f"the {action.kind} action of card {cid} is taken this round: its spaces hold discs", move)
    free = seat.discs - seat.used
    if action.spaces > free:
        raise IllegalMove(f"the {action.kind} action of card {cid} needs {action.spaces} action disc(s); "
                          f"you have {free} left", move)
    if action.kind in DISCOUNTABLE:
        used, discount = _discounts_arg(state, move)
    elif move.args.get("discounts"):
        raise IllegalMove(f"a discount lowers a printed yen cost (station, invest, action disc, card); "
                          f"{action.kind} has none", move)
    else:
        used, discount = (), 0
    return apply(Taking(state, move, cid, i, action, used, discount, via))


def priced(state: State, move: Move) -> Taking:
    """The card action ``move`` names with the discounts it lists, unchecked: for its price."""
    cards = state.rules.deck.cards
    discount = sum(cards[c].actions[int(i)].amount for c, _, i in (r.partition("/") for r in move.args.get("discounts", ())))
    cid, i = move.args["card"], move.args["action"]
    return Taking(state, move, cid, i, cards[cid].actions[i], discount=discount)


def _discounts_arg(state: State, move: Move) -> tuple[tuple[tuple[str, int], ...], int]:
    raw = move.args.get("discounts", ())
    if raw is None:
        raw = ()
    if not isinstance(raw, (list, tuple)) or not all(isinstance(r, str) for r in raw):
        raise IllegalMove("'discounts' must be a list of discount actions written CARD/INDEX, like \"AI1/0\"", move)
    held = state.seats[move.player].discounts
    out, total = [], 0
    for r in raw:
        card, _, index = r.partition("/")
        key = (card, int(index)) if index.isdigit() else None
        if key is None or key not in held:
            mine = ", ".join(ref(c, k) for c, k in held) or "none"
            raise IllegalMove(f"{r!r} is not a discount action holding your discs this round (yours: {mine})", move)
        if key in out:
            raise IllegalMove(f"discount {r} is listed twice", move)
        out.append(key)
        total += state.rules.deck.cards[card].actions[key[1]].amount
    return tuple(out), total
