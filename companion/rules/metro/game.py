"""TOKYO METRO (rule book 000, first part), declared: options, phases, and every kind of move.

2 to 5 players, or 1 (the solo variant: a 2-player setup played by one, with no bidding). The
modules hold the rules (``rounds.py`` the deal, bids and turns; ``movement.py``; the action
phase's ``action_phase.py`` with the card actions of ``card_actions.py`` and ``bank_actions.py``;
``trains.py``; ``scoring.py``); this module says which kind of move is made in which phase and
which section of the rule book each follows. docs/rules-notes.md lists our reading where the
rule book is silent.

Moves by phase (``field`` is a field number, row * cols + col; ``line`` a letter)::

    deal       chance  deal {column, card}                  a card turned up for a column
    bid        seat    bid {amount}                         secret; all seats at once
    tie_break  chance  tie_break {seat}                     round 1: next in a tie
    movement   seat    place {field} | walk {field} | ride_on {}
    actions    seat    <card action> {card, action, ...} | assign_tempo {line} | pass {}
    trains     seat    run_trains {} (first player, held for a person's tap), then board {line} |
                       skip {} | alight {field} | ride_on {}
    any time   seat    alight {field}                       get off a train

METRO DRINKS (``DRINKS``) adds vending.py's kinds: ``colour_card {card}``, ``vend {station, drink}``,
``shape_card {card}``, ``free_vend {station, drink}`` in the action phase, ``builds`` on a move
action, the phase ``drop`` (chance ``drop {out}``) and ``spill {out}`` (chance, any time).

>>> s = setup({"names": ["Aki", "Ben", "Chie", "Dai"]})
>>> s.phase, pending(s)
('deal', [Pending(actor='chance', secret_for=None)])
>>> s.rules.rounds
6
"""
from __future__ import annotations

import random

from ..declared import Declared, Kind, Phase
from ..engine import Move
from . import action_phase, movement, rounds, trains, vending
from .action_phase import CARD_ACTIONS, action_moves
from .actions import CardAction, priced, take
from .estimate import determinize, group_key
from .options import NAME, PLAYERS, TITLE, DrinksOptions, Options, OsakaOptions, rules_for
from .playout import policy_move
from .preview import train_phase_preview
from .state import ACTIONS, BID, DEAL, MOVEMENT, OVER, PHASES, TIE, TRAINS, State, start
from .view import payouts as _payouts, view as _shown

BOOK = "000 TOKYO METRO"
__all__ = ["GAME", "NAME", "PLAYERS", "PHASES", "setup", "pending", "legal_moves", "apply", "chance", "view",
           "payouts", "move_info", "is_over", "composite_moves", "train_phase_preview", "rules_for"]


def _card_kind(a: CardAction) -> Kind:
    """A kind of card action, listed, taken and priced as its CardAction says."""
    return Kind(a.kind, lambda state, move: take(state, move, a.apply), f"{BOOK}: Aktionsphase – {a.heading}",
                phases=(ACTIONS,), listed=lambda state, p: action_moves(state, p, kind=a.kind),
                info=(lambda state, move: a.info(priced(state, move))) if a.info else None)


_FREE = {"alight": 1, "assign_tempo": 2, "pass": 3}


def _listing(state: State, moves: list[Move]) -> list[Move]:
    """A seat's moves as the table shows them: in the action phase the card actions as their cards
    lie (the columns left to right, then the seat's own cards), then getting off, tempo tokens and
    passing; in its movement turn a rider is offered to stay on first."""
    if state.phase == MOVEMENT:
        return sorted(moves, key=lambda m: m.kind != "ride_on")
    if state.phase != ACTIONS:
        return moves
    cards = [c for col in state.columns for c in col.slots] + list(state.seats[moves[0].player].cards)
    place = {c: k for k, c in enumerate(cards)}
    return sorted(moves, key=lambda m: (0, place[m.args["card"]], m.args["action"]) if m.kind in CARD_ACTIONS
                  else (_FREE.get(m.kind, 4),))


def _game_of(state: State) -> Declared:
    """The declared game a state belongs to (its options name it)."""
    return _DECLARED[state.options.GAME]


def _view(state: State, viewer: int | None) -> dict:
    return _shown(state, viewer, _game_of(state).pending(state))


def _policy(state: State, rng: random.Random) -> Move:
    return policy_move(_game_of(state), state, rng)


def _playout_cost(state: State) -> int:
    """What one playout from here costs, relatively: seats x rounds left."""
    return len(state.seats) * (state.rules.rounds - state.round + 1)


def declare(options: type[Options], phases: tuple[Phase, ...] = (), kinds: tuple[Kind, ...] = ()) -> Declared:
    """One of the games this engine plays, named by its options class (``Options.GAME``): TOKYO
    METRO, OSAKA METRO or METRO DRINKS. They share every phase and kind of move; the options say
    which board, cards and variant rules are in play. ``phases`` and ``kinds`` are a variant's
    own (METRO DRINKS: vending.py; its ``drop`` makes it the one METRO game that uses the tower)."""
    declared = Declared(
        name=options.GAME, title=options.TITLE, players=PLAYERS, options=options, start=start,
        phases=(
            Phase(DEAL, "a card to be turned up for a column", outcomes=rounds.deal_spec,
                  ends="when every column has its cards (round 1: one per player; later: one more each)"),
            Phase(BID, rounds.awaited_bids, acting=rounds.bidders,
                  ends="when everyone has bid: the bids open and set the player order"),
            Phase(TIE, "a tie in the bids to be broken", outcomes=rounds.tie_spec,
                  ends="when the round-1 ties are broken one seat at a time"),
            Phase(MOVEMENT, movement.awaited, acting=rounds.in_turn,
                  ends="when every meeple has moved, in player order"),
            Phase(ACTIONS, action_phase.awaited, acting=rounds.in_turn, ends="when everyone has passed"),
            Phase(TRAINS, trains.awaited, acting=trains.deciding,
                  ends="when every train has moved: the columns are refilled, or the game ends"),
            *phases,
            Phase(OVER, "nothing"),
        ),
        kinds=(
            Kind("deal", rounds.apply_deal, f"{BOOK}: Aktionskarten-Auffüllphase", phases=(DEAL,), chance=True),
            Kind("bid", rounds.apply_bid, f"{BOOK}: Spielerreihenfolge-Phase", phases=(BID,), listed=rounds.bid_moves,
                 info=rounds.bid_info, secret=True, open_events=("bids", "phase", "order")),
            Kind("tie_break", rounds.apply_tie, f"{BOOK}: Spielerreihenfolge-Phase", phases=(TIE,), chance=True),
            Kind("place", movement.place, f"{BOOK}: Bewegungsphase – In der ersten Runde", phases=(MOVEMENT,),
                 listed=movement.place_moves),
            Kind("walk", movement.walk, f"{BOOK}: Bewegungsphase – Bewegungsregeln", phases=(MOVEMENT,),
                 listed=movement.walk_moves),
            *map(_card_kind, CARD_ACTIONS.values()),
            Kind("assign_tempo", action_phase.assign_tempo, f"{BOOK}: Aktionsphase – Tempo", phases=(ACTIONS,),
                 listed=action_phase.assign_tempo_moves),
            Kind("pass", action_phase.pass_turn, f"{BOOK}: Aktionsphase", phases=(ACTIONS,),
                 listed=action_phase.pass_moves, info=action_phase.pass_info),
            Kind("run_trains", trains.run_trains, f"{BOOK}: Zugphase", phases=(TRAINS,), listed=trains.run_moves,
                 held=True),
            Kind("board", trains.board, f"{BOOK}: Zugphase", phases=(TRAINS,), listed=trains.board_moves,
                 info=trains.board_info),
            Kind("skip", trains.skip, f"{BOOK}: Zugphase", phases=(TRAINS,), listed=trains.skip_moves),
            Kind("alight", trains.alight, f"{BOOK}: Zugphase", anytime=True,
                 listed=trains.alight_moves),
            Kind("ride_on", trains.ride_on, f"{BOOK}: Zugphase", phases=(MOVEMENT, TRAINS),
                 listed=trains.ride_on_moves),
            *kinds,
        ),
        view_of=_view, payouts_of=_payouts, seat_names=lambda state: [s.name for s in state.seats],
        redraw=determinize, group=group_key, policy=_policy, playout_cost=_playout_cost, listing=_listing,
        # What a person copies onto the real board: cards dealt, taken and discarded, meeples, stations,
        # share and speculation discs, trains, tempo tokens, bicycles, discount markers.
        catalogue=NAME,
        board_events=frozenset({"dealt", "discarded", "placed", "moved", "card_taken", "station_built", "invested",
                                "train_placed", "speculated", "action_disc", "train_started", "tempo_taken",
                                "tempo_assigned", "bicycle_taken", "discount_placed", "train_moved", "train_left",
                                "boarded", "rode_on", "alighted",
                                # METRO DRINKS: cards and crates taken, drinks thrown in and set up at stations
                                "colour_card_taken", "crate_thrown", "drinks_received", "shape_card_taken",
                                "vend_built"}),
    )
    _DECLARED[options.GAME] = declared
    return declared


_DECLARED: dict[str, Declared] = {}


GAME = declare(Options)
OSAKA = declare(OsakaOptions)
DRINKS = declare(DrinksOptions, vending.PHASES, vending.KINDS_DECLARED)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
