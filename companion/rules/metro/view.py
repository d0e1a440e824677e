"""TOKYO METRO: what the table and each phone see (the view), and what everyone would get (payouts)."""
from __future__ import annotations

from ..engine import Pending
from . import scoring
from .actions import min_stake, ref
from .preview import train_phase_preview
from .state import ACTIONS, DEAL, MOVEMENT, OVER, TIE, TRAINS, State
from .vending_view import drinks_view, seat_view, stock_column_view


def _card_view(state: State, cid: str, taken: dict) -> dict:
    card = state.rules.deck.cards[cid]
    return {"id": cid, "set": card.set, "colours": list(card.colours), "dots": card.dots,
            "actions": [{"index": i, "kind": a.kind, "spaces": a.spaces, "amount": a.amount,
                         "taken_by": taken.get((cid, i))} for i, a in enumerate(card.actions)]}


def view(state: State, viewer: int | None, pending: list[Pending]) -> dict:
    """The state as ``viewer`` may see it (None: the shared table view), ``pending`` whom the game
    waits for. Secret: the bids until they are revealed; the face-down decks and the discard
    piles below their top card."""
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
            "discounts": [ref(c, i) for c, i in s.discounts],
            **seat_view(state, p),
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
    if state.drinks is not None:
        columns.append(stock_column_view(state))
    run = state.run
    return {
        "game": rules.options.GAME, "phase": state.phase, "round": state.round, "rounds": rules.rounds, "solo": rules.solo,
        "players": players, "order": list(state.order), "bank": state.bank,
        "to_act": [{"actor": w.actor, "secret_for": w.secret_for} for w in pending],
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
        "drinks": drinks_view(state),
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
    bonuses = []
    for li, j, owner, yen, colour in log.bonuses:  # METRO DRINKS: a drink at a paid station
        line = board.lines[li]
        bonuses.append({"line": line.letter, "stop": line.label(j), "station": board.stations[line.stop_station[j]].id,
                        "owner": owner, "yen": yen, "colour": colour})
        income[owner] += yen
    return {"round": log.round, "done": state.run is None or state.phase != TRAINS, "drink_bonuses": bonuses,
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
