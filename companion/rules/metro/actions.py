"""TOKYO METRO action phase: every action of the rule book, passing, tempo, getting off a train.

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
    alight        {field}         free: get off the train (after it moved at least one stop)
    pass          {}              +100 per disc not placed; out of the action phase

``discounts`` is a list of ``"CARD/INDEX"`` discount actions that hold the seat's discs.
"""
from __future__ import annotations

from itertools import combinations

from ..engine import Event, IllegalMove, Move
from .cards import DISCOUNTABLE
from .state import (TRAINS, State, alight_fields, field_arg, free_spaces, int_arg, line_arg,
                    occupied_fields, ride_station, seat_arg, seat_label, set_line, set_seat, str_arg)

ACTION_MOVES = frozenset({"move", "station", "station_swap", "invest", "start", "tempo", "bicycle", "discount",
                          "bid_bonus", "loan", "repay", "speculate", "action_disc", "card"})
FREE_MOVES = frozenset({"assign_tempo", "alight"})


def _mk(kind: str, player: int, args: dict) -> Move:
    # Args built here are already frozen (ints, text, tuples): skip Move.__post_init__'s copy.
    move = object.__new__(Move)
    object.__setattr__(move, "kind", kind)
    object.__setattr__(move, "player", player)
    object.__setattr__(move, "args", args)
    return move


def ref(card: str, index: int) -> str:
    return f"{card}/{index}"


# --- listing ----------------------------------------------------------------------------------------

def available(state: State, p: int):
    """(card id, action index, action) of every action seat p may take now (spaces empty)."""
    cards = state.rules.deck.cards
    occ = state.occupied
    free = state.seats[p].discs - state.seats[p].used
    for col in state.columns:
        for cid in col.slots:
            for i, a in enumerate(cards[cid].actions):
                if a.spaces <= free and (cid, i) not in occ:
                    yield cid, i, a
    for cid in state.seats[p].cards:
        for i, a in enumerate(cards[cid].actions):
            if a.spaces <= free and (cid, i) not in occ:
                yield cid, i, a


def _discount_options(state: State, p: int) -> list[tuple[tuple[str, ...], int, int]]:
    """(refs, total, smallest) for each subset of the seat's discount actions."""
    held = state.seats[p].discounts
    if not held:
        return [((), 0, 0)]
    cards = state.rules.deck.cards
    amounts = [(ref(c, i), cards[c].actions[i].amount) for c, i in held]
    out = [((), 0, 0)]
    for k in range(1, len(amounts) + 1):
        for combo in combinations(amounts, k):
            out.append((tuple(sorted(r for r, _ in combo)), sum(a for _, a in combo), min(a for _, a in combo)))
    return out


def action_moves(state: State, p: int, first_only: bool = False, only: tuple[str, int] | None = None) -> list[Move]:
    """Every action move of seat p (not pass, tempo or alight); with first_only, at most one;
    with ``only`` (card id, action index), just the moves of that card action (random playouts
    pick an action first and list only its moves, which is much cheaper than listing all)."""
    seat = state.seats[p]
    board, opts, rules = state.board, state.options, state.rules
    moves: list[Move] = []
    on_board = seat.field >= 0
    taken = None
    reach_cache: dict[int, list[int]] = {}
    discount_opts = None
    yen = seat.yen
    lines = state.lines
    for cid, i, a in available(state, p):
        if only is not None and (cid != only[0] or i != only[1]):
            continue
        k = a.kind
        if k in DISCOUNTABLE and discount_opts is None:
            discount_opts = _discount_options(state, p)
        if k == "move":
            if not on_board:
                continue
            steps = a.amount + (1 if seat.bicycle else 0)
            dests = reach_cache.get(steps)
            if dests is None:
                if taken is None:
                    taken = occupied_fields(state, but=p)
                dests = reach_cache[steps] = board.reachable(seat.field, steps, taken)
            moves.extend(_mk("move", p, {"card": cid, "action": i, "field": f}) for f in dests)
        elif k == "station" or k == "station_swap":
            if not on_board or seat.pyramids <= 0:
                continue
            for s in board.field_stations[seat.field]:
                if state.pyramids[s] >= 0:
                    continue
                sid = board.stations[s].id
                if k == "station_swap":
                    if seat.tempo > 0:
                        moves.append(_mk(k, p, {"card": cid, "action": i, "station": sid, "token": "tempo"}))
                    if seat.bicycle:
                        moves.append(_mk(k, p, {"card": cid, "action": i, "station": sid, "token": "bicycle"}))
                    continue
                circles = len(board.stations[s].circles)
                for refs, total, smallest in discount_opts:
                    if refs and total - smallest >= a.amount:
                        continue
                    if max(0, a.amount - total) * circles <= yen:
                        moves.append(_mk(k, p, {"card": cid, "action": i, "station": sid, "discounts": refs}))
        elif k == "invest":
            surcharges = rules.stock.surcharges
            for li, ls in enumerate(lines):
                if p in ls.holders or len(ls.holders) >= board.lines[li].shares or any(q == p for q, _ in ls.specs):
                    continue
                extra = surcharges[li][len(ls.holders)]
                letter = board.lines[li].letter
                for refs, total, smallest in discount_opts:
                    if refs and total - smallest >= a.amount:
                        continue
                    if max(0, a.amount - total) + extra <= yen:
                        moves.append(_mk(k, p, {"card": cid, "action": i, "line": letter, "discounts": refs}))
        elif k == "start":
            moves.extend(_mk(k, p, {"card": cid, "action": i, "line": board.lines[li].letter})
                         for li, ls in enumerate(lines) if ls.train < 0)
        elif k == "tempo":
            if state.tempo_supply > 0:
                moves.append(_mk(k, p, {"card": cid, "action": i}))
        elif k == "bicycle":
            if state.bicycles > 0 and not seat.bicycle:
                moves.append(_mk(k, p, {"card": cid, "action": i}))
        elif k == "discount" or k == "bid_bonus":
            moves.append(_mk(k, p, {"card": cid, "action": i}))
        elif k == "loan":
            if state.loan_supply > 0:
                moves.append(_mk(k, p, {"card": cid, "action": i}))
        elif k == "repay":
            if seat.loans > 0 and yen >= opts.loan:
                moves.append(_mk(k, p, {"card": cid, "action": i}))
        elif k == "speculate":
            if seat.specs_left <= 0:
                continue
            for li, ls in enumerate(lines):
                if ls.value < 100 or p in ls.holders or free_spaces(state, li) <= 0:
                    continue
                least = min_stake(state, li)
                top = min(yen, max(least, opts.speculation_offer_up_to))
                letter = board.lines[li].letter
                moves.extend(_mk(k, p, {"card": cid, "action": i, "line": letter, "stake": s})
                             for s in range(least, top + 1, 100))
        elif k == "action_disc":
            if seat.discs >= opts.max_discs or state.disc_supply[p] <= 0:
                continue
            for refs, total, smallest in discount_opts:
                if refs and total - smallest >= a.amount:
                    continue
                if max(0, a.amount - total) <= yen:
                    moves.append(_mk(k, p, {"card": cid, "action": i, "discounts": refs}))
        elif k == "card":
            for c, col in enumerate(state.columns):
                if not col.discard:
                    continue
                for refs, total, smallest in discount_opts:
                    if refs and total - smallest >= a.amount:
                        continue
                    if max(0, a.amount - total) <= yen:
                        moves.append(_mk(k, p, {"card": cid, "action": i, "column": c, "discounts": refs}))
        if first_only and moves:
            return moves[:1]
    return moves


def min_stake(state: State, line: int) -> int:
    """The least stake for a speculation: the lower number beside the line's value (at least 100)."""
    return max(100, state.rules.track.numbers(state.lines[line].value)[1])


def phase_moves(state: State, p: int) -> list[Move]:
    """All moves of the seat whose turn it is in the action phase."""
    seat = state.seats[p]
    moves = action_moves(state, p)
    if seat.riding >= 0 and seat.moved:
        moves += [_mk("alight", p, {"field": f}) for f in alight_fields(state, p, ride_station(state, p))]
    if seat.tempo > 0:
        moves += [_mk("assign_tempo", p, {"line": ln.letter}) for ln in state.board.lines
                  if free_spaces(state, ln.index) > 0 and _may_assign_tempo(state, p, moves, ln.index)]
    if seat.tempo_now == 0 or not any(m.kind in ACTION_MOVES for m in moves):
        moves.append(_mk("pass", p, {}))
    return moves


def _may_assign_tempo(state: State, p: int, moves: list[Move], line: int) -> bool:
    """A tempo token may be assigned only in a turn with an action to follow (never when passing):
    some action must stay possible after the token is gone and the line's space is taken."""
    last_token = state.seats[p].tempo == 1
    last_space = free_spaces(state, line) == 1
    letter = state.board.lines[line].letter
    for m in moves:
        if m.kind not in ACTION_MOVES:
            continue
        if m.kind == "station_swap" and last_token and m.args["token"] == "tempo":
            continue
        if m.kind == "speculate" and last_space and m.args["line"] == letter:
            continue
        return True
    return False


# --- applying --------------------------------------------------------------------------------------

def apply_action_phase(state: State, move: Move) -> tuple[State, list[Event]]:
    p = seat_arg(state, move)
    current = state.order[state.turn]
    if p != current:
        raise IllegalMove(f"it is {seat_label(state, current)}'s turn in the action phase, not "
                          f"{seat_label(state, p)}'s", move)
    kind = move.kind
    if kind == "pass":
        return _pass(state, p, move)
    if kind == "assign_tempo":
        return _assign_tempo(state, p, move)
    if kind == "alight":
        from .state import apply_alight
        return apply_alight(state, move)
    if kind not in ACTION_MOVES:
        raise IllegalMove(f"in the action phase the moves are the actions ({', '.join(sorted(ACTION_MOVES))}), "
                          f"assign_tempo, alight and pass; not {kind!r}", move)
    return _act(state, p, move)


def _pass(state: State, p: int, move: Move) -> tuple[State, list[Event]]:
    seat = state.seats[p]
    if seat.tempo_now and action_moves(state, p, first_only=True):
        raise IllegalMove("you assigned tempo tokens this turn, so you must take an action: tempo tokens are "
                          "never assigned in a turn in which you pass", move)
    unused = seat.discs - seat.used
    bonus = unused * state.options.pass_bonus
    state = state._replace(seats=set_seat(state, p, passed=True, yen=seat.yen + bonus, tempo_now=0),
                           bank=state.bank - bonus)
    events = [Event("passed", {"seat": p, "unused_discs": unused, "yen": bonus})]
    return _next_turn(state, events)


def _assign_tempo(state: State, p: int, move: Move) -> tuple[State, list[Event]]:
    seat = state.seats[p]
    if seat.tempo <= 0:
        raise IllegalMove("you hold no tempo token to assign", move)
    li = line_arg(state, move)
    if free_spaces(state, li) <= 0:
        raise IllegalMove(f"line {state.board.lines[li].letter} has no empty disc space on the revenue track "
                          "(tempo tokens and speculation discs share them)", move)
    after = state._replace(seats=set_seat(state, p, tempo=seat.tempo - 1, tempo_now=seat.tempo_now + 1),
                           lines=set_line(state, li, tempo=state.lines[li].tempo + 1))
    if not action_moves(after, p, first_only=True):
        raise IllegalMove("a tempo token is assigned before taking an action, and you would have no action "
                          "left to take this turn", move)
    return after, [Event("tempo_assigned", {"seat": p, "line": state.board.lines[li].letter,
                                            "tempo": after.lines[li].tempo})]


def _act(state: State, p: int, move: Move) -> tuple[State, list[Event]]:
    rules = state.rules
    seat = state.seats[p]
    cid = str_arg(move, "card")
    card = rules.deck.cards.get(cid)
    if card is None:
        raise IllegalMove(f"there is no action card {cid!r}", move)
    face_up = any(cid in col.slots for col in state.columns)
    if not face_up and cid not in seat.cards:
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
    if (cid, i) in state.occupied:
        raise IllegalMove(f"the {action.kind} action of card {cid} is taken this round: its spaces hold discs", move)
    free = seat.discs - seat.used
    if action.spaces > free:
        raise IllegalMove(f"the {action.kind} action of card {cid} needs {action.spaces} action disc(s); "
                          f"you have {free} left", move)
    kind = action.kind
    used_discounts: tuple[tuple[str, int], ...] = ()
    discount = 0
    if kind in DISCOUNTABLE:
        used_discounts, discount = _discounts_arg(state, p, move)
    elif move.args.get("discounts"):
        raise IllegalMove(f"a discount lowers a printed yen cost (station, invest, action disc, card); "
                          f"{kind} has none", move)
    handler = _HANDLERS[kind]
    return handler(state, p, move, cid, i, action, used_discounts, discount)


def _discounts_arg(state: State, p: int, move: Move) -> tuple[tuple[tuple[str, int], ...], int]:
    raw = move.args.get("discounts", ())
    if raw is None:
        raw = ()
    if not isinstance(raw, (list, tuple)) or not all(isinstance(r, str) for r in raw):
        raise IllegalMove("'discounts' must be a list of discount actions written CARD/INDEX, like \"AI1/0\"", move)
    held = state.seats[p].discounts
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


def _took(state: State, p: int, cid: str, i: int, action, cost: int, used, seat_changes: dict,
          events: list[Event], **state_changes) -> tuple[State, list[Event]]:
    """Book an action: discs on its spaces, discounts moved onto it, the cost to the bank; next turn."""
    seat = state.seats[p]
    discounts = tuple(d for d in seat.discounts if d not in used)
    if action.kind == "discount":
        discounts += ((cid, i),)
    occupied = (state.occupied - frozenset(used)) | {(cid, i)}
    placed = state.placed + ((cid, i, p),)  # used discounts stay listed: their discs sit on this action now
    changes = {"used": seat.used + action.spaces, "yen": seat_changes.pop("yen", seat.yen) - cost,
               "tempo_now": 0, "discounts": discounts, **seat_changes}
    state = state._replace(**state_changes)
    state = state._replace(seats=set_seat(state, p, **changes), occupied=occupied, placed=placed,
                           bank=state.bank + cost)
    if used:
        events = events + [Event("discount_used", {"seat": p, "discounts": [ref(c, k) for c, k in used]})]
    return _next_turn(state, events)


def _next_turn(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    n = len(state.order)
    for k in range(1, n + 1):
        t = (state.turn + k) % n
        if not state.seats[state.order[t]].passed:
            return state._replace(turn=t), events
    seats = tuple(s._replace(used=0, passed=False, discounts=(), tempo_now=0) for s in state.seats)
    state = state._replace(seats=seats, occupied=frozenset(), placed=(), phase=TRAINS, run=None, turn=0)
    return state, events + [Event("phase", {"phase": TRAINS})]


def _station_arg(state: State, p: int, move: Move) -> int:
    sid = str_arg(move, "station")
    board = state.board
    s = board.station_index.get(sid)
    if s is None:
        raise IllegalMove(f"there is no station {sid!r} on this board", move)
    seat = state.seats[p]
    if seat.riding >= 0:
        raise IllegalMove("your meeple rides a train: get off first to build a station", move)
    if seat.field < 0 or seat.field not in board.station_fieldsets[s]:
        raise IllegalMove(f"your meeple must stand on a field touching {board.stations[s].name} to build there", move)
    if state.pyramids[s] >= 0:
        raise IllegalMove(f"{board.stations[s].name} has a station already ({seat_label(state, state.pyramids[s])}'s "
                          "pyramid): one pyramid per station", move)
    if seat.pyramids <= 0:
        raise IllegalMove("you have no pyramid left to build with", move)
    return s


def _h_move(state, p, move, cid, i, action, used, discount):
    seat = state.seats[p]
    if seat.riding >= 0 or seat.field < 0:
        raise IllegalMove("your meeple rides a train: get off first to walk", move)
    f = field_arg(state, move)
    steps = action.amount + (1 if seat.bicycle else 0)
    if f not in state.board.reachable(seat.field, steps, occupied_fields(state, but=p)):
        raise IllegalMove(f"field {state.board.field_label(f)} is not within {steps} orthogonal steps of your meeple "
                          "without entering a field with another meeple", move)
    return _took(state, p, cid, i, action, 0, used, {"field": f},
                 [Event("moved", {"seat": p, "field": list(state.board.col_row(f)), "card": cid})])


def _h_station(state, p, move, cid, i, action, used, discount):
    s = _station_arg(state, p, move)
    circles = len(state.board.stations[s].circles)
    cost = max(0, action.amount - discount) * circles
    seat = state.seats[p]
    if cost > seat.yen:
        raise IllegalMove(f"this station costs {cost} yen ({max(0, action.amount - discount)} x {circles} stop "
                          f"circle(s)); you have {seat.yen}", move)
    pyramids = list(state.pyramids)
    pyramids[s] = p
    return _took(state, p, cid, i, action, cost, used, {"pyramids": seat.pyramids - 1},
                 [Event("station_built", {"seat": p, "station": state.board.stations[s].id, "cost": cost})],
                 pyramids=tuple(pyramids))


def _h_station_swap(state, p, move, cid, i, action, used, discount):
    s = _station_arg(state, p, move)
    token = str_arg(move, "token")
    seat = state.seats[p]
    if token == "tempo":
        if seat.tempo <= 0:
            raise IllegalMove("you hold no unassigned tempo token to hand in", move)
        changes, supply = {"tempo": seat.tempo - 1}, {"tempo_supply": state.tempo_supply + 1}
    elif token == "bicycle":
        if not seat.bicycle:
            raise IllegalMove("you hold no bicycle to hand in", move)
        changes, supply = {"bicycle": False}, {"bicycles": state.bicycles + 1}
    else:
        raise IllegalMove(f"hand in a 'tempo' or a 'bicycle' token, not {token!r}", move)
    pyramids = list(state.pyramids)
    pyramids[s] = p
    changes["pyramids"] = seat.pyramids - 1
    return _took(state, p, cid, i, action, 0, used, changes,
                 [Event("station_built", {"seat": p, "station": state.board.stations[s].id, "token": token})],
                 pyramids=tuple(pyramids), **supply)


def _h_invest(state, p, move, cid, i, action, used, discount):
    li = line_arg(state, move)
    ls, line = state.lines[li], state.board.lines[li]
    if p in ls.holders:
        raise IllegalMove(f"you hold a share of line {line.letter} already: one share per line", move)
    if any(q == p for q, _ in ls.specs):
        raise IllegalMove(f"you speculated on line {line.letter}: no share of a line you speculate on", move)
    if len(ls.holders) >= line.shares:
        raise IllegalMove(f"all {line.shares} shares of line {line.letter} are taken", move)
    number = len(ls.holders) + 1
    extra = state.rules.stock.surcharges[li][number - 1]
    cost = max(0, action.amount - discount) + extra
    seat = state.seats[p]
    if cost > seat.yen:
        raise IllegalMove(f"share #{number} of line {line.letter} costs {cost} yen ({max(0, action.amount - discount)}"
                          f"{f' + {extra} for share #{number}' if extra else ''}); you have {seat.yen}", move)
    placed = ls.train < 0
    new = ls._replace(value=ls.value + cost, holders=ls.holders + (p,),
                      train=0 if placed else ls.train, dir=1 if placed else ls.dir)
    lines = list(state.lines)
    lines[li] = new
    events = [Event("invested", {"seat": p, "line": line.letter, "share": number, "paid": cost, "value": new.value})]
    if placed:
        events.append(Event("train_placed", {"line": line.letter, "stop": line.label(0)}))
    return _took(state, p, cid, i, action, cost, used, {}, events, lines=tuple(lines))


def _h_start(state, p, move, cid, i, action, used, discount):
    li = line_arg(state, move)
    ls, line = state.lines[li], state.board.lines[li]
    if ls.train >= 0:
        raise IllegalMove(f"the train of line {line.letter} is on the board already", move)
    lines = set_line(state, li, train=0, dir=1, value=ls.value + action.amount)
    return _took(state, p, cid, i, action, 0, used, {},
                 [Event("train_started", {"seat": p, "line": line.letter, "stop": line.label(0),
                                          "value": ls.value + action.amount})], lines=lines)


def _h_tempo(state, p, move, cid, i, action, used, discount):
    got = min(action.amount, state.tempo_supply)
    if got <= 0:
        raise IllegalMove("no tempo token is left in the supply", move)
    seat = state.seats[p]
    return _took(state, p, cid, i, action, 0, used, {"tempo": seat.tempo + got},
                 [Event("tempo_taken", {"seat": p, "tokens": got})], tempo_supply=state.tempo_supply - got)


def _h_bicycle(state, p, move, cid, i, action, used, discount):
    if state.seats[p].bicycle:
        raise IllegalMove("you have a bicycle already: one at a time", move)
    if state.bicycles <= 0:
        raise IllegalMove("no bicycle is left in the supply", move)
    return _took(state, p, cid, i, action, 0, used, {"bicycle": True},
                 [Event("bicycle_taken", {"seat": p})], bicycles=state.bicycles - 1)


def _h_discount(state, p, move, cid, i, action, used, discount):
    return _took(state, p, cid, i, action, 0, used, {},
                 [Event("discount_placed", {"seat": p, "discount": ref(cid, i), "amount": action.amount})])


def _h_bid_bonus(state, p, move, cid, i, action, used, discount):
    seat = state.seats[p]
    return _took(state, p, cid, i, action, 0, used, {"bonus": seat.bonus + action.amount},
                 [Event("bid_bonus", {"seat": p, "yen": action.amount})], bank=state.bank - action.amount)


def _h_loan(state, p, move, cid, i, action, used, discount):
    if state.loan_supply <= 0:
        raise IllegalMove("no loan token is left in the supply", move)
    seat, amount = state.seats[p], state.options.loan
    return _took(state, p, cid, i, action, 0, used, {"yen": seat.yen + amount, "loans": seat.loans + 1},
                 [Event("loan", {"seat": p, "yen": amount})], loan_supply=state.loan_supply - 1,
                 bank=state.bank - amount)


def _h_repay(state, p, move, cid, i, action, used, discount):
    seat, amount = state.seats[p], state.options.loan
    if seat.loans <= 0:
        raise IllegalMove("you have no loan to repay", move)
    if seat.yen < amount:
        raise IllegalMove(f"repaying a loan costs {amount} yen (no discount); you have {seat.yen}", move)
    return _took(state, p, cid, i, action, amount, used, {"loans": seat.loans - 1},
                 [Event("repaid", {"seat": p, "yen": amount})], loan_supply=state.loan_supply + 1)


def _h_speculate(state, p, move, cid, i, action, used, discount):
    seat = state.seats[p]
    if seat.specs_left <= 0:
        raise IllegalMove("you have used both speculation discs (two speculations per game)", move)
    li = line_arg(state, move)
    ls, line = state.lines[li], state.board.lines[li]
    if p in ls.holders:
        raise IllegalMove(f"you hold a share of line {line.letter}: no speculation on a line you hold a share of", move)
    if ls.value < 100:
        raise IllegalMove(f"line {line.letter} is worth {ls.value}; speculating needs a value of at least 100", move)
    if free_spaces(state, li) <= 0:
        raise IllegalMove(f"line {line.letter} has no empty disc space on the revenue track", move)
    stake = int_arg(move, "stake")
    least = min_stake(state, li)
    if stake < least or stake % 100:
        raise IllegalMove(f"the least stake on line {line.letter} now is {least} (the lower number beside its value), "
                          f"in 100s; not {stake}", move)
    if stake > seat.yen:
        raise IllegalMove(f"a stake of {stake} is more than you have ({seat.yen})", move)
    lines = set_line(state, li, specs=ls.specs + ((p, stake),))
    return _took(state, p, cid, i, action, 0, used, {"yen": seat.yen - stake, "specs_left": seat.specs_left - 1},
                 [Event("speculated", {"seat": p, "line": line.letter, "stake": stake})], lines=lines)


def _h_action_disc(state, p, move, cid, i, action, used, discount):
    seat, opts = state.seats[p], state.options
    if seat.discs >= opts.max_discs:
        raise IllegalMove(f"you have {seat.discs} action discs, the most allowed", move)
    if state.disc_supply[p] <= 0:
        raise IllegalMove("no disc of your colour is left in the general supply", move)
    cost = max(0, action.amount - discount)
    if cost > seat.yen:
        raise IllegalMove(f"an action disc costs {cost} yen here; you have {seat.yen}", move)
    supply = list(state.disc_supply)
    supply[p] -= 1
    return _took(state, p, cid, i, action, cost, used, {"discs": seat.discs + 1},
                 [Event("action_disc", {"seat": p, "discs": seat.discs + 1, "paid": cost})], disc_supply=tuple(supply))


def _h_card(state, p, move, cid, i, action, used, discount):
    c = int_arg(move, "column")
    if not 0 <= c < len(state.columns):
        raise IllegalMove(f"there is no column {c} (columns 0 to {len(state.columns) - 1})", move)
    col = state.columns[c]
    if not col.discard:
        raise IllegalMove(f"the discard pile of column {c} is empty", move)
    cost = max(0, action.amount - discount)
    seat = state.seats[p]
    if cost > seat.yen:
        raise IllegalMove(f"this card costs {cost} yen; you have {seat.yen}", move)
    top = col.discard[-1]
    columns = list(state.columns)
    columns[c] = col._replace(discard=col.discard[:-1])
    return _took(state, p, cid, i, action, cost, used, {"cards": seat.cards + (top,)},
                 [Event("card_taken", {"seat": p, "card": top, "column": c, "paid": cost})], columns=tuple(columns))


_HANDLERS = {"move": _h_move, "station": _h_station, "station_swap": _h_station_swap, "invest": _h_invest,
             "start": _h_start, "tempo": _h_tempo, "bicycle": _h_bicycle, "discount": _h_discount,
             "bid_bonus": _h_bid_bonus, "loan": _h_loan, "repay": _h_repay, "speculate": _h_speculate,
             "action_disc": _h_action_disc, "card": _h_card}
