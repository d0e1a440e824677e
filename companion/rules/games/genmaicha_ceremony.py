"""GENMAICHA's tea ceremony variant: the three stock cards left over lie face down above the
three columns. In their brewing turn a player may give back a drink that matches one of those
cards (the companion knows which three cards they are, not where each lies) to look at one of
them: the card is entered on that player's phone. A column brewed with its hidden card as a
fourth ingredient (``ceremony``: the column) pays the bonus and turns the card up when the drinks
fill it too; otherwise the drinks are gone, the column pays as usual, and the card stays hidden
(the brewer has seen it). docs/rules-notes.md, GENMAICHA 8."""
from __future__ import annotations

from dataclasses import replace

from ...drinks import CARD_IDS
from ..engine import CHANCE, ChanceSpec, Event, IllegalMove, Move, Pending, uniform
from .common import arg_drink, arg_int, arg_text, set_at, traits
from .genmaicha_recipes import covers
from .genmaicha_state import BREW, PEEK, REVEAL, State


def leftover(state: State) -> list[str]:
    """The cards not in the grid: the hidden ones."""
    return [c for c in CARD_IDS if c not in state.grid]


def unplaced(state: State) -> list[str]:
    """Hidden cards the companion has not yet placed above a column."""
    return [c for c in leftover(state) if c not in state.hidden]


def start_hidden(state: State) -> State:
    return replace(state, hidden=(None, None, None)) if state.options.ceremony else state


def _column(state: State, move: Move, name: str = "column") -> int:
    c = arg_int(move, name)
    if c not in (0, 1, 2):
        raise IllegalMove(f"{name!r} must be a column 0, 1 or 2, not {c}", move)
    if c in state.revealed:
        raise IllegalMove(f"the hidden card above column {c} is face up already", move)
    return c


def peek(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.player
    if not state.options.ceremony:
        raise IllegalMove("the tea ceremony is not played in this game (option ceremony)", move)
    c, drink = _column(state, move), arg_drink(move)
    if (p, c) in state.seen:
        raise IllegalMove(f"you have seen the hidden card above column {c} already", move)
    if drink not in state.seats[p].drinks:
        raise IllegalMove(f"you do not have {drink}", move)
    if not set(traits(drink)) & set(leftover(state)):
        raise IllegalMove(f"give back a drink that matches one of the hidden cards ({', '.join(leftover(state))}); "
                          f"{drink} matches none", move)
    seats = set_at(state.seats, p, drinks=tuple(d for d in state.seats[p].drinks if d != drink))
    state = replace(state, seats=seats, bag=state.bag | {drink})
    events = [Event("peeked", {"seat": p, "column": c, "drink": drink})]
    if state.hidden[c] is not None:
        return replace(state, seen=state.seen | {(p, c)}), events
    return replace(state, phase=PEEK, looking=(p, c)), events


def looker(state: State) -> list[Pending]:
    return [Pending(CHANCE, secret_for=state.looking[0])]


def seen_cards(state: State) -> ChanceSpec:
    return uniform(Move("peek_card", CHANCE, {"card": c}) for c in unplaced(state))


def peek_card(state: State, move: Move) -> tuple[State, list[Event]]:
    p, c = state.looking
    card = arg_text(move, "card", unplaced(state))
    hidden = tuple(card if i == c else h for i, h in enumerate(state.hidden))
    state = replace(state, hidden=hidden, seen=state.seen | {(p, c)}, looking=None, phase=BREW)
    return state, [Event("card_seen", {"seat": p, "column": c, "card": card})]


def check_attempt(state: State, move: Move, lines: tuple[str, ...]) -> int | None:
    """The column of a four-card brew (``ceremony``), or None."""
    if "ceremony" not in move.args:
        return None
    if not state.options.ceremony:
        raise IllegalMove("the tea ceremony is not played in this game (option ceremony)", move)
    c = _column(state, move, "ceremony")
    if f"col{c}" not in lines:
        raise IllegalMove(f"a four-card recipe is column {c} with its hidden card: brew col{c}", move)
    return c


def could_be(state: State, needs: list[str], drinks: tuple[str, ...], c: int) -> bool:
    """Whether the drinks fill ``needs``, or ``needs`` and a card that may lie above column ``c``."""
    maybe = [state.hidden[c]] if state.hidden[c] is not None else unplaced(state)
    return covers(needs, drinks) or any(covers(needs + [x], drinks) for x in maybe)


def begin_attempt(state: State, p: int, c: int, needs: list[str], drinks: tuple[str, ...]) -> tuple[State, list[Event]]:
    attempt = {"seat": p, "column": c, "needs": list(needs), "drinks": list(drinks)}
    if state.hidden[c] is None:
        return replace(state, phase=REVEAL, attempt=attempt), []
    return settle(replace(state, attempt=attempt), state.hidden[c])


def brewer(state: State) -> list[Pending]:
    return [Pending(CHANCE, secret_for=state.attempt["seat"])]


def tried_cards(state: State) -> ChanceSpec:
    return uniform(Move("ceremony_card", CHANCE, {"card": x}) for x in unplaced(state))


def ceremony_card(state: State, move: Move) -> tuple[State, list[Event]]:
    card = arg_text(move, "card", unplaced(state))
    c = state.attempt["column"]
    state = replace(state, hidden=tuple(card if i == c else h for i, h in enumerate(state.hidden)))
    return settle(state, card)


def settle(state: State, card: str) -> tuple[State, list[Event]]:
    a = state.attempt
    p, c = a["seat"], a["column"]
    state = replace(state, attempt=None, phase=BREW)
    if covers(a["needs"] + [card], a["drinks"]):
        bonus = state.options.ceremony_bonus
        seats = set_at(state.seats, p, yen=state.seats[p].yen + bonus)
        state = replace(state, seats=seats, bank=state.bank - bonus, revealed=state.revealed + (c,))
        return state, [Event("ceremony_won", {"seat": p, "column": c, "card": card, "paid": bonus})]
    return replace(state, seen=state.seen | {(p, c)}), [Event("ceremony_failed", {"seat": p, "column": c})]


def peek_moves(state: State, seat: int) -> list[Move]:
    if not state.options.ceremony:
        return []
    left = set(leftover(state))
    fit = [d for d in state.seats[seat].drinks if set(traits(d)) & left][:1]
    return [Move("peek", seat, {"column": c, "drink": d}) for c in range(3) for d in fit
            if c not in state.revealed and (seat, c) not in state.seen]


def view_hidden(state: State, viewer: int | None) -> list[dict] | None:
    if not state.options.ceremony:
        return None
    return [{"column": c, "face_up": c in state.revealed,
             "card": h if c in state.revealed or (viewer, c) in state.seen else None,
             "seen_by": sorted(p for p, k in state.seen if k == c)}
            for c, h in enumerate(state.hidden or (None, None, None))]



def forget_unseen(state: State, viewer: int | None) -> State:
    """``state`` without the hidden cards ``viewer`` has not seen (for estimates: playouts then
    draw them as chance, so an estimate cannot tell where a card lies)."""
    if not state.options.ceremony or not state.hidden:
        return state
    hidden = tuple(h if c in state.revealed or (viewer, c) in state.seen else None
                   for c, h in enumerate(state.hidden))
    return replace(state, hidden=hidden)
