"""TOKYO METRO (rule book 000, first part): the Game surface for the table session.

2 to 5 players, or 1 (the solo variant: a 2-player setup played by one, with no bidding).
Phases, moves and the view are documented in the modules they come from: ``state.py`` (deal,
bid, tie_break, movement), ``actions.py`` (the action phase), ``trains.py`` (the train phase),
``scoring.py`` (the end). docs/rules-notes.md lists our reading where the rule book is silent.

Moves by phase (``field`` is a field number, row * cols + col; ``line`` a letter; ``station`` an id)::

    deal       chance  deal {column, card}                  a card turned up for a column
    bid        seat    bid {amount}                         secret; all seats at once
    tie_break  chance  tie_break {seat}                     round 1: next in a tie
    movement   seat    place {field} | walk {field} | ride_on {} | alight {field}
    actions    seat    <action kind> {card, action, ...} | assign_tempo {line} | alight {field} | pass {}
    trains     seat    run_trains {} (first player), then board {line} | skip {} | alight {field} | ride_on {}

>>> s = setup({"names": ["Aki", "Ben", "Chie", "Dai"]})
>>> s.phase, pending(s)
('deal', [Pending(actor='chance', secret_for=None)])
>>> s.rules.rounds
6
"""
from __future__ import annotations

from typing import Any, Mapping

from ..engine import CHANCE, Actor, ChanceSpec, Event, IllegalMove, Move, MoveInfo, Pending
from . import actions, scoring, trains
from .actions import min_stake, phase_moves
from .cards import DISCOUNTABLE
from .state import (ACTIONS, BID, DEAL, MOVEMENT, OVER, PHASES, TIE, TRAINS, State, apply_bid, apply_deal,
                    apply_movement, apply_tie, bid_moves, deal_spec, movement_moves, rules_for, setup as _setup,
                    tie_spec)
from .trains import train_phase_preview

NAME = "tokyo_metro"
PLAYERS = (1, 2, 3, 4, 5)
SECRET_MOVES = frozenset({"bid"})  # made on the player's own phone; others see only that they bid
# Moves a computer player does not make on its own while people sit at the table: they are held
# for a tap on the table view, so that everyone sees the train phase's preview (each train's path
# and payouts) before the trains run, even when a computer player is first in order.
HELD_FOR_PEOPLE = frozenset({"run_trains"})

__all__ = ["NAME", "PLAYERS", "PHASES", "SECRET_MOVES", "HELD_FOR_PEOPLE", "setup", "pending", "legal_moves", "apply",
           "chance", "view", "payouts", "move_info", "is_over", "train_phase_preview", "rules_for", "estimate",
           "estimate_cost"]


def setup(config: Mapping[str, Any]) -> State:
    """A new game. ``config``: ``names`` (1-5), ``options`` (see state.Options)."""
    return _setup(config)


def is_over(state: State) -> bool:
    return state.phase == OVER


def pending(state: State) -> list[Pending]:
    phase = state.phase
    if phase in (DEAL, TIE):
        return [Pending(CHANCE)]
    if phase == BID:
        return [Pending(p) for p in state.order if state.seats[p].bid < 0]
    if phase in (MOVEMENT, ACTIONS):
        return [Pending(state.order[state.turn])]
    if phase == TRAINS:
        run = state.run
        return [Pending(state.order[0] if run is None else run.who)]
    return []


def chance(state: State) -> ChanceSpec | None:
    if state.phase == DEAL:
        return deal_spec(state)
    if state.phase == TIE:
        return tie_spec(state)
    return None


def legal_moves(state: State, actor: Actor) -> list[Move]:
    phase = state.phase
    if actor == CHANCE:
        spec = chance(state)
        return [m for m, _ in spec.outcomes] if spec is not None else []
    if phase == BID:
        return bid_moves(state, actor) if isinstance(actor, int) and 0 <= actor < len(state.seats) else []
    if phase in (MOVEMENT, ACTIONS):
        if actor != state.order[state.turn]:
            return []
        return movement_moves(state, actor) if phase == MOVEMENT else phase_moves(state, actor)
    if phase == TRAINS:
        return trains.decision_moves(state, actor)
    return []


_WAITING = {DEAL: "a card to be turned up for a column", BID: "the secret bids", TIE: "a tie to be broken",
            MOVEMENT: "a meeple to move", ACTIONS: "an action or a pass", TRAINS: "the train phase"}


def apply(state: State, move: Move) -> tuple[State, list[Event]]:
    """The new state and what happened; IllegalMove (the state unchanged) when not allowed now."""
    phase = state.phase
    if phase == OVER:
        raise IllegalMove("the game is over", move)
    if move.player == CHANCE:
        if phase == DEAL and move.kind == "deal":
            return apply_deal(state, move)
        if phase == TIE and move.kind == "tie_break":
            return apply_tie(state, move)
        raise IllegalMove(f"no {move.kind!r} outcome is awaited now; the game waits for {_WAITING[phase]}", move)
    if phase in (DEAL, TIE):
        raise IllegalMove(f"the game waits for {_WAITING[phase]} (a chance outcome), not for a player", move)
    if phase == BID:
        if move.kind != "bid":
            raise IllegalMove(f"now everyone bids for the player order (bid), not {move.kind}", move)
        return apply_bid(state, move)
    if phase == MOVEMENT:
        return apply_movement(state, move)
    if phase == ACTIONS:
        return actions.apply_action_phase(state, move)
    return trains.apply_train_phase(state, move)


# --- what the table and each phone see --------------------------------------------------------------

def _card_view(state: State, cid: str, taken: dict) -> dict:
    card = state.rules.deck.cards[cid]
    return {"id": cid, "set": card.set, "colours": list(card.colours), "dots": card.dots,
            "actions": [{"index": i, "kind": a.kind, "spaces": a.spaces, "amount": a.amount,
                         "taken_by": taken.get((cid, i))} for i, a in enumerate(card.actions)]}


def view(state: State, viewer: int | None) -> dict:
    """The state as ``viewer`` may see it (None: the shared table view). Secret: the bids until
    they are revealed; the face-down decks and the discard piles below their top card."""
    rules, board = state.rules, state.board
    taken = {(c, i): p for c, i, p in state.placed if (c, i) in state.occupied}
    position = {p: i for i, p in enumerate(state.order)}
    players = []
    for p, s in enumerate(state.seats):
        players.append({
            "seat": p, "name": s.name, "yen": s.yen, "order": position[p], "discs": s.discs,
            "discs_free": s.discs - s.used, "discs_in_supply": state.disc_supply[p], "pyramids": s.pyramids,
            "meeple": None if s.field < 0 else list(board.col_row(s.field)),
            "riding": board.lines[s.riding].letter if s.riding >= 0 else None, "ride_moved": s.moved,
            "tempo": s.tempo, "bicycle": s.bicycle, "loans": s.loans, "speculations_left": s.specs_left,
            "bid_bonus": s.bonus, "passed": s.passed, "has_bid": s.bid >= 0,
            "bid": s.bid if viewer == p and s.bid >= 0 else None,
            "cards": [_card_view(state, c, taken) for c in s.cards],
            "discounts": [actions.ref(c, i) for c, i in s.discounts],
        })
    track = rules.track
    lines = []
    for i, (line, ls) in enumerate(zip(board.lines, state.lines)):
        high, low = track.numbers(ls.value)
        train = None
        if ls.train >= 0:
            circle = board.circles[line.stops[ls.train]]
            nxt = ls.train + ls.dir
            train = {"stop": line.label(ls.train), "circle": circle.id, "x": circle.x, "y": circle.y,
                     "dir": ls.dir, "towards": line.label(nxt) if 0 <= nxt < len(line.stops) else None}
        lines.append({
            "letter": line.letter, "name": line.name, "colour": line.colour, "value": ls.value,
            "over_6000": ls.value > track.top, "high": high, "low": low,
            "min_stake": min_stake(state, i) if ls.value >= 100 else None,
            "train": train, "tempo": ls.tempo, "disc_spaces": line.disc_spaces,
            "free_spaces": line.disc_spaces - ls.tempo - len(ls.specs),
            "speculations": [{"seat": p, "stake": st} for p, st in ls.specs],
            "shares": [{"number": k + 1, "holder": ls.holders[k] if k < len(ls.holders) else None,
                        "surcharge": rules.stock.surcharges[i][k]} for k in range(line.shares)],
            "riders": [p for p, s in enumerate(state.seats) if s.riding == i],
        })
    columns = []
    for c, col in enumerate(state.columns):
        cs = rules.deck.sets[c]
        columns.append({"column": c, "set": cs.id, "colours": list(cs.colours),
                        "slots": [_card_view(state, cid, taken) for cid in col.slots],
                        "deck": sum(len(g) for g in col.deck), "discard": len(col.discard),
                        "discard_top": _card_view(state, col.discard[-1], taken) if col.discard else None})
    run = state.run
    return {
        "game": NAME, "phase": state.phase, "round": state.round, "rounds": rules.rounds, "solo": rules.solo,
        "players": players, "order": list(state.order), "bank": state.bank,
        "to_act": [{"actor": w.actor, "secret_for": w.secret_for} for w in pending(state)],
        "turn": state.order[state.turn] if state.phase in (MOVEMENT, ACTIONS) else None,
        "lines": lines,
        "pyramids": [{"station": board.stations[s].id, "owner": p} for s, p in enumerate(state.pyramids) if p >= 0],
        "columns": columns,
        "dealing": {"column": state.dealing[0], "left": len(state.dealing)} if state.phase == DEAL else None,
        "supply": {"tempo": state.tempo_supply, "bicycles": state.bicycles, "loans": state.loan_supply},
        "last_bids": ([{"seat": p, "bid": b, "bonus": x} for p, (b, x) in enumerate(state.last_bids)]
                      if state.last_bids else None),
        "ties": [list(g) for g in state.ties] if state.phase == TIE else None,
        "train_run": None if run is None else {
            "line": board.lines[run.line].letter if run.line < len(board.lines) else None,
            "steps": run.steps, "total": run.total, "leaving": run.leaving,
            "deciding": run.who if run.who >= 0 else None, "decision": run.what or None},
        "track": {"step": track.step, "top": track.top},
        # What the (rest of the) train phase will do, for the dashboard to show before and while it runs.
        "preview": train_phase_preview(state) if state.phase == TRAINS else None,
        "last_run": _last_run_view(state),
        "board": board.geometry(),
        "result": state.result,
        "over": state.phase == OVER,
    }


def _last_run_view(state: State) -> dict | None:
    """What the latest train phase paid whom (shown once its animation is over)."""
    log = state.last_run
    if log is None:
        return None
    board, n = state.board, len(state.seats)
    income, fares, rise = [0] * n, [0] * n, {}
    payouts = []
    for li, j, owner, to_owner, value in log.payouts:
        line = board.lines[li]
        payouts.append({"line": line.letter, "stop": line.label(j), "station": board.stations[line.stop_station[j]].id,
                        "owner": owner, "to_owner": to_owner, "value": value})
        income[owner] += to_owner
        rise[line.letter] = rise.get(line.letter, 0) + value
    for p, li, fare in log.fares:
        fares[p] += fare
        rise[board.lines[li].letter] = rise.get(board.lines[li].letter, 0) + fare
    return {"round": log.round, "done": state.run is None or state.phase != TRAINS,
            "payouts": payouts, "owner_income": income, "fares_paid": fares,
            "fares": [{"seat": p, "line": board.lines[li].letter, "fare": fare} for p, li, fare in log.fares],
            "value_rise": rise, "left": [board.lines[li].letter for li in log.left]}


def payouts(state: State) -> dict:
    """Yen now; each seat's total if the game ended now (speculations, shares, loans); the final
    result once the game is over."""
    result = state.result if state.phase == OVER else scoring.final(state)
    return {"yen": [s.yen for s in state.seats], "projected": result["totals"],
            "final": state.phase == OVER, "winners": [result["winner"]] if state.phase == OVER else [],
            "ranking": result["ranking"], "scoring": result}


def move_info(state: State, move: Move) -> MoveInfo:
    """What a move costs now, and what it brings: yen now (a loan, a pass, a bid bonus), or for
    invest and speculate what the holding would pay if the game ended right after the move."""
    kind, args = move.kind, move.args
    p = move.player
    if not isinstance(p, int) or not 0 <= p < len(state.seats):
        return MoveInfo()
    seat, opts, rules = state.seats[p], state.options, state.rules
    try:
        if kind == "bid":
            return MoveInfo(cost=int(args["amount"]))
        if kind == "pass":
            return MoveInfo(pays_up_to=(seat.discs - seat.used) * opts.pass_bonus)
        if kind == "board":
            li = state.run.line
            return MoveInfo(cost=0 if p in state.lines[li].holders else opts.fare)
        if kind not in actions.ACTION_MOVES:
            return MoveInfo()
        action = rules.deck.cards[args["card"]].actions[args["action"]]
        discount = sum(rules.deck.cards[c].actions[int(i)].amount
                       for c, _, i in (r.partition("/") for r in args.get("discounts", ())))
        printed = max(0, action.amount - discount) if kind in DISCOUNTABLE else 0
        if kind == "station":
            s = state.board.station_index[args["station"]]
            return MoveInfo(cost=printed * len(state.board.stations[s].circles))
        if kind in ("action_disc", "card"):
            return MoveInfo(cost=printed)
        if kind == "invest":
            li = state.board.line_index[args["line"]]
            ls = state.lines[li]
            cost = printed + rules.stock.surcharges[li][len(ls.holders)]
            pays = scoring.share_payouts(rules.track, ls.value + cost, len(ls.holders) + 1)[-1]
            return MoveInfo(cost=cost, pays_up_to=pays)
        if kind == "speculate":
            li = state.board.line_index[args["line"]]
            stake = int(args["stake"])
            low = rules.track.numbers(state.lines[li].value)[1]
            return MoveInfo(cost=stake, pays_up_to=stake + min(2 * stake, low))
        if kind == "loan":
            return MoveInfo(pays_up_to=opts.loan)
        if kind == "repay":
            return MoveInfo(cost=opts.loan)
        if kind == "bid_bonus":
            return MoveInfo(pays_up_to=action.amount)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return MoveInfo()
    return MoveInfo()


def estimate(state: State, seat: int, moves, rng, playouts: int = 200, viewer: int | None = None) -> dict:
    """The expected final yen of each of ``moves`` (legal moves of ``seat``), from random playouts
    with what ``viewer`` cannot see drawn again (see estimate.py)."""
    from .estimate import estimate_final  # imported here: the estimator plays games through this module
    return estimate_final(state, seat, moves, rng, playouts, viewer)


def estimate_cost(state: State) -> int:
    """What one playout from here costs, relatively: seats x rounds left (at least 1)."""
    return max(1, len(state.seats) * (state.rules.rounds - state.round + 1))
