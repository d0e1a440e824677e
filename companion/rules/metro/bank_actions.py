"""TOKYO METRO card actions with money: invest, speculate, bid bonus, loan, repay, action disc, card.
Each kind in one place: the moves it offers for one card action, what taking it does, and what it
costs and may pay (actions.py: the frame they share; scoring.py: what holdings pay at the end).
"""
from __future__ import annotations

from typing import Iterable

from ..engine import Event, Move, MoveInfo
from . import vending
from .actions import Applied, CardAction, Offer, Taking, min_stake
from .cards import Action
from .scoring import share_payouts, speculation_pays
from .state import State, free_spaces, int_arg, line_arg, set_line


# --- invest: the line's next share --------------------------------------------------------------------

def _share_cost(state: State, li: int, price: int) -> int:
    """What the line's next share costs: the printed price (after discounts) and the share's surcharge."""
    return price + state.rules.stock.surcharges[li][len(state.lines[li].holders)]


def _may_invest(state: State, p: int, li: int) -> str:
    """Why seat p may not buy a share of line li, or ""."""
    ls, line = state.lines[li], state.board.lines[li]
    if p in ls.holders:
        return f"you hold a share of line {line.letter} already: one share per line"
    if any(q == p for q, _ in ls.specs):
        return f"you speculated on line {line.letter}: no share of a line you speculate on"
    if len(ls.holders) >= line.shares:
        return f"all {line.shares} shares of line {line.letter} are taken"
    return ""


def _invest_moves(o: Offer, cid: str, i: int, a: Action) -> Iterable[Move]:
    state, board = o.state, o.state.board
    return [o.move("invest", cid, i, line=board.lines[li].letter, discounts=refs)
            for li in range(len(state.lines)) if not _may_invest(state, o.p, li)
            for refs in o.priced(a, lambda price: _share_cost(state, li, price))]


def _invest(t: Taking) -> Applied:
    state, p = t.state, t.p
    li = line_arg(state, t.move)
    refused = _may_invest(state, p, li)
    if refused:
        raise t.fail(refused)
    ls, line = state.lines[li], state.board.lines[li]
    number = len(ls.holders) + 1
    cost = _share_cost(state, li, t.price)
    extra = cost - t.price
    if cost > state.seats[p].yen:
        raise t.fail(f"share #{number} of line {line.letter} costs {cost} yen ({t.price}"
                     f"{f' + {extra} for share #{number}' if extra else ''}); you have {state.seats[p].yen}")
    placed = ls.train < 0
    new = ls._replace(value=ls.value + cost, holders=ls.holders + (p,),
                      train=0 if placed else ls.train, dir=1 if placed else ls.dir)
    events = [Event("invested", {"seat": p, "line": line.letter, "share": number, "paid": cost, "value": new.value})]
    if placed:
        events.append(Event("train_placed", {"line": line.letter, "stop": line.label(0)}))
    return t.done(cost, {}, events, lines=state.lines[:li] + (new,) + state.lines[li + 1:])


def _invest_info(t: Taking) -> MoveInfo:
    """The cost, and what the new share would pay if the game ended right after the move."""
    state = t.state
    li = state.board.line_index[t.move.args["line"]]
    ls = state.lines[li]
    cost = _share_cost(state, li, t.price)
    share = len(ls.holders) + 1
    return MoveInfo(cost=cost, pays_up_to=share_payouts(state.rules.track, ls.value + cost, share)[-1],
                    why="why.tokyo_metro.invest",
                    params={"price": t.price, "surcharge_yen": cost - t.price, "share": share, "worth": ls.value + cost,
                            "line": t.move.args["line"]})


INVEST = CardAction("invest", "Investieren", _invest_moves, _invest, _invest_info)


# --- speculate: a disc and a stake on a line ----------------------------------------------------------

def _speculate_moves(o: Offer, cid: str, i: int, a: Action) -> Iterable[Move]:
    state, p = o.state, o.p
    if o.seat.specs_left <= 0:
        return []
    moves = []
    for li, ls in enumerate(state.lines):
        if ls.value < 100 or p in ls.holders or free_spaces(state, li) <= 0:
            continue
        least = min_stake(state, li)
        top = min(o.seat.yen, max(least, state.options.speculation_offer_up_to))
        letter = state.board.lines[li].letter
        moves.extend(o.move("speculate", cid, i, line=letter, stake=s) for s in range(least, top + 1, 100))
    return moves


def _speculate(t: Taking) -> Applied:
    state, p = t.state, t.p
    seat = state.seats[p]
    if seat.specs_left <= 0:
        raise t.fail("you have used both speculation discs (two speculations per game)")
    li = line_arg(state, t.move)
    ls, line = state.lines[li], state.board.lines[li]
    if p in ls.holders:
        raise t.fail(f"you hold a share of line {line.letter}: no speculation on a line you hold a share of")
    if ls.value < 100:
        raise t.fail(f"line {line.letter} is worth {ls.value}; speculating needs a value of at least 100")
    if free_spaces(state, li) <= 0:
        raise t.fail(f"line {line.letter} has no empty disc space on the revenue track")
    stake = int_arg(t.move, "stake")
    least = min_stake(state, li)
    if stake < least or stake % 100:
        raise t.fail(f"the least stake on line {line.letter} now is {least} (the lower number beside its value), "
                     f"in 100s; not {stake}")
    if stake > seat.yen:
        raise t.fail(f"a stake of {stake} is more than you have ({seat.yen})")
    return t.done(0, {"yen": seat.yen - stake, "specs_left": seat.specs_left - 1},
                  [Event("speculated", {"seat": p, "line": line.letter, "stake": stake})],
                  lines=set_line(state, li, specs=ls.specs + ((p, stake),)))


def _speculate_info(t: Taking) -> MoveInfo:
    """The stake, and what it would bring back if the game ended right after the move."""
    state = t.state
    li = state.board.line_index[t.move.args["line"]]
    stake = int(t.move.args["stake"])
    value = state.lines[li].value
    won = speculation_pays(state.rules.track, value, stake)
    return MoveInfo(cost=stake, pays_up_to=stake + won, why="why.tokyo_metro.speculate",
                    params={"stake": stake, "won": won, "worth": value, "line": t.move.args["line"]})


SPECULATE = CardAction("speculate", "Spekulieren", _speculate_moves, _speculate, _speculate_info)


# --- bid bonus, loan, repay ---------------------------------------------------------------------------

def _bid_bonus_moves(o: Offer, cid: str, i: int, a: Action) -> Iterable[Move]:
    return [o.move("bid_bonus", cid, i)]


def _bid_bonus(t: Taking) -> Applied:
    state, amount = t.state, t.action.amount
    return t.done(0, {"bonus": state.seats[t.p].bonus + amount}, [Event("bid_bonus", {"seat": t.p, "yen": amount})],
                  bank=state.bank - amount)


BID_BONUS = CardAction("bid_bonus", "Bieten", _bid_bonus_moves, _bid_bonus,
                       lambda t: MoveInfo(pays_up_to=t.action.amount, why="why.tokyo_metro.bidBonus"))


def _loan_moves(o: Offer, cid: str, i: int, a: Action) -> Iterable[Move]:
    return [o.move("loan", cid, i)] if o.state.loan_supply > 0 else []


def _loan(t: Taking) -> Applied:
    state = t.state
    if state.loan_supply <= 0:
        raise t.fail("no loan token is left in the supply")
    seat, amount = state.seats[t.p], state.options.loan
    return t.done(0, {"yen": seat.yen + amount, "loans": seat.loans + 1}, [Event("loan", {"seat": t.p, "yen": amount})],
                  loan_supply=state.loan_supply - 1, bank=state.bank - amount)


LOAN = CardAction("loan", "Kredit (↓¥)", _loan_moves, _loan, lambda t: MoveInfo(
    pays_up_to=t.state.options.loan, why="why.tokyo_metro.loan", params={"end_cost": t.state.options.loan_end_cost}))


def _repay_moves(o: Offer, cid: str, i: int, a: Action) -> Iterable[Move]:
    return [o.move("repay", cid, i)] if o.seat.loans > 0 and o.seat.yen >= o.state.options.loan else []


def _repay(t: Taking) -> Applied:
    state = t.state
    seat, amount = state.seats[t.p], state.options.loan
    if seat.loans <= 0:
        raise t.fail("you have no loan to repay")
    if seat.yen < amount:
        raise t.fail(f"repaying a loan costs {amount} yen (no discount); you have {seat.yen}")
    return t.done(amount, {"loans": seat.loans - 1}, [Event("repaid", {"seat": t.p, "yen": amount})],
                  loan_supply=state.loan_supply + 1)


REPAY = CardAction("repay", "Kredit zurückzahlen (¥↑)", _repay_moves, _repay,
                   lambda t: MoveInfo(cost=t.state.options.loan, why="why.tokyo_metro.repay",
                                      params={"end_cost": t.state.options.loan_end_cost}))


def _printed_info(t: Taking) -> MoveInfo:
    """The price printed beside the card action, less what the discounts used take off."""
    if t.discount:
        return MoveInfo(cost=t.price, why="why.tokyo_metro.printedDiscount", params={"off_yen": t.action.amount - t.price})
    return MoveInfo(cost=t.price, why="why.tokyo_metro.printed")


# --- action disc, card --------------------------------------------------------------------------------

def _disc_moves(o: Offer, cid: str, i: int, a: Action) -> Iterable[Move]:
    if o.seat.discs >= o.state.options.max_discs or o.state.disc_supply[o.p] <= 0:
        return []
    return [o.move("action_disc", cid, i, discounts=refs) for refs in o.priced(a)]


def _action_disc(t: Taking) -> Applied:
    state, p = t.state, t.p
    seat = state.seats[p]
    if seat.discs >= state.options.max_discs:
        raise t.fail(f"you have {seat.discs} action discs, the most allowed")
    if state.disc_supply[p] <= 0:
        raise t.fail("no disc of your colour is left in the general supply")
    if t.price > seat.yen:
        raise t.fail(f"an action disc costs {t.price} yen here; you have {seat.yen}")
    supply = state.disc_supply[:p] + (state.disc_supply[p] - 1,) + state.disc_supply[p + 1:]
    return t.done(t.price, {"discs": seat.discs + 1},
                  [Event("action_disc", {"seat": p, "discs": seat.discs + 1, "paid": t.price})], disc_supply=supply)


ACTION_DISC = CardAction("action_disc", "Aktionsscheibe", _disc_moves, _action_disc, _printed_info)


def _card_moves(o: Offer, cid: str, i: int, a: Action) -> Iterable[Move]:
    columns = [c for c, col in enumerate(o.state.columns) if col.discard] + vending.discarded_shape_moves(o.state)
    return [o.move("card", cid, i, column=c, discounts=refs) for c in columns for refs in o.priced(a)]


def _card(t: Taking) -> Applied:
    state, p = t.state, t.p
    c = int_arg(t.move, "column")
    if c == len(state.columns) and state.drinks is not None:  # METRO DRINKS: the stock column's shape cards
        return vending.take_discarded_shape(t)
    if not 0 <= c < len(state.columns):
        raise t.fail(f"there is no column {c} (columns 0 to {len(state.columns) - 1})")
    col = state.columns[c]
    if not col.discard:
        raise t.fail(f"the discard pile of column {c} is empty")
    seat = state.seats[p]
    if t.price > seat.yen:
        raise t.fail(f"this card costs {t.price} yen; you have {seat.yen}")
    top = col.discard[-1]
    columns = state.columns[:c] + (col._replace(discard=col.discard[:-1]),) + state.columns[c + 1:]
    return t.done(t.price, {"cards": seat.cards + (top,)},
                  [Event("card_taken", {"seat": p, "card": top, "column": c, "paid": t.price})], columns=columns)


CARD = CardAction("card", "Karte", _card_moves, _card, _printed_info)

WITH_MONEY = (INVEST, SPECULATE, BID_BONUS, LOAN, REPAY, ACTION_DISC, CARD)
