"""TOKYO METRO action phase: every card action listed by its kind, passing, and tempo tokens.

A turn is one card action (card_actions.py, bank_actions.py), or a pass: a seat that passes takes
100 yen per action disc it did not place and is out of the phase. Before its action a seat may
assign tempo tokens it holds to lines with an empty disc space (``assign_tempo``, free, several
per turn): only when an action stays possible afterwards, and never in a turn in which it passes.
"""
from __future__ import annotations

from itertools import chain

from ..engine import Event, IllegalMove, Move, MoveInfo
from .actions import Applied, available, Offer
from .bank_actions import WITH_MONEY
from .card_actions import ON_THE_MAP
from .copying import copyable
from .osaka_actions import OSAKA
from .rounds import next_turn
from .state import State, free_spaces, line_arg, quick_move, seat_label, set_line, set_seat

CARD_ACTIONS = {a.kind: a for a in (*ON_THE_MAP, *WITH_MONEY, *OSAKA)}


def awaited(state: State) -> str:
    return f"{seat_label(state, state.order[state.turn])}, whose turn it is to take an action or pass"


def action_moves(state: State, p: int, first_only: bool = False, only: tuple[str, int] | None = None,
                 kind: str | None = None) -> list[Move]:
    """The card action moves of seat p (of one ``kind`` if given); with ``first_only``, at most one;
    with ``only`` (card id, action index), just the moves of that card action (random playouts
    pick an action first and list only its moves, which is much cheaper than listing all)."""
    offer = Offer(state, p)
    moves: list[Move] = []
    free = ((cid, i, a, None) for cid, i, a in available(state, p))
    for cid, i, a, via in chain(free, copyable(state, p)):   # copyable: OSAKA METRO's copy rights
        if (only is not None and (cid != only[0] or i != only[1])) or (kind is not None and a.kind != kind):
            continue
        offer.via = via
        moves.extend(CARD_ACTIONS[a.kind].moves(offer, cid, i, a))
        if first_only and moves:
            return moves[:1]
    return moves


# --- pass ---------------------------------------------------------------------------------------

def pass_moves(state: State, p: int) -> list[Move]:
    if state.seats[p].tempo_now == 0 or not action_moves(state, p, first_only=True):
        return [quick_move("pass", p, {})]
    return []


def pass_info(state: State, move: Move) -> MoveInfo:
    seat = state.seats[move.player]
    left, each = seat.discs - seat.used, state.options.pass_bonus
    return MoveInfo(pays_up_to=left * each, why="why.tokyo_metro.pass", params={"count": left, "each_yen": each})


def pass_turn(state: State, move: Move) -> Applied:
    p = move.player
    seat = state.seats[p]
    if seat.tempo_now and action_moves(state, p, first_only=True):
        raise IllegalMove("you assigned tempo tokens this turn, so you must take an action: tempo tokens are "
                          "never assigned in a turn in which you pass", move)
    bonus = pass_info(state, move).pays_up_to
    state = state._replace(seats=set_seat(state, p, passed=True, yen=seat.yen + bonus, tempo_now=0),
                           bank=state.bank - bonus)
    return next_turn(state, [Event("passed", {"seat": p, "unused_discs": seat.discs - seat.used, "yen": bonus})])


# --- tempo tokens -------------------------------------------------------------------------------

def assign_tempo_moves(state: State, p: int) -> list[Move]:
    if state.seats[p].tempo <= 0:
        return []
    actions = action_moves(state, p)
    return [quick_move("assign_tempo", p, {"line": ln.letter}) for ln in state.board.lines
            if free_spaces(state, ln.index) > 0 and _may_assign_tempo(state, p, actions, ln.index)]


def _may_assign_tempo(state: State, p: int, actions: list[Move], line: int) -> bool:
    """A tempo token may be assigned only in a turn with an action to follow (never when passing):
    some action must stay possible after the token is gone and the line's space is taken."""
    last_token = state.seats[p].tempo == 1
    last_space = free_spaces(state, line) == 1
    letter = state.board.lines[line].letter
    for m in actions:
        if m.kind == "station_swap" and last_token and m.args["token"] == "tempo":
            continue
        if m.kind == "speculate" and last_space and m.args["line"] == letter:
            continue
        return True
    return False


def assign_tempo(state: State, move: Move) -> Applied:
    p = move.player
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
