"""The declared form (companion/rules/declared.py): what the engine does for every game alike.

A small game declared here exercises each flag (secret, anytime by a seat and by chance, held),
and the registered games are checked for what every declaration must say.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Literal, Mapping

import pytest

from companion.rules.declared import Declared, Kind, Phase, nothing_hidden
from companion.rules.engine import CHANCE, IllegalMove, Move, MoveInfo, Pending, uniform
from companion.rules.games import GAMES
from companion.rules.options import GameOptions, Players, Whole


class Options(GameOptions):
    players: Players = 2
    pot: Whole = 300
    tie: Literal["split", "bank"] = "split"


@dataclass(frozen=True)
class State:
    options: Options
    names: tuple[str, ...]
    phase: str = "bid"
    bids: tuple[int | None, ...] = ()
    coin: str | None = None
    yen: tuple[int, ...] = ()
    waved: tuple[int, ...] = ()


def start(options: Options, config: Mapping[str, Any]) -> State:
    n = options.players
    return State(options, tuple(config.get("names") or [f"P{i}" for i in range(n)]), bids=(None,) * n,
                 yen=(500,) * n)


def _bidders(state: State) -> list[Pending]:
    return [Pending(p) for p, b in enumerate(state.bids) if b is None]


def _bids(state: State, seat: int) -> list[Move]:
    return [Move("bid", seat, {"amount": a}) for a in range(0, state.yen[seat] + 1, 100)]


def _bid(state: State, move: Move):
    amount = move.args["amount"]
    if amount % 100 or not 0 <= amount <= state.yen[move.player]:
        raise IllegalMove(f"bid 0 to {state.yen[move.player]} in steps of 100")
    bids = tuple(amount if p == move.player else b for p, b in enumerate(state.bids))
    return replace(state, bids=bids, phase="flip" if None not in bids else "bid"), []


def _flip(state: State, move: Move):
    return replace(state, coin=move.args["side"], phase="pay"), []


def _pay(state: State, move: Move):
    return replace(state, phase="over"), []


def _wave(state: State, move: Move):
    return replace(state, waved=state.waved + (move.player,)), []


def _gust(state: State, move: Move):
    return state, []


def view(state: State, viewer: int | None) -> dict:
    return {"bids": [b if p == viewer else b is not None for p, b in enumerate(state.bids)]}


TOY = Declared(
    name="toy", title="TOY", players=(2, 3), options=Options, start=start,
    phases=(Phase("bid", "the sealed bids", acting=_bidders, ends="when everyone has bid"),
            Phase("flip", "the coin", outcomes=lambda s: uniform(Move("flip", CHANCE, {"side": x}) for x in "HT")),
            Phase("pay", "the first seat to pay", acting=lambda s: [Pending(0)]),
            Phase("over", "nothing")),
    kinds=(Kind("bid", _bid, "000 TOY: bid", phases=("bid",), listed=_bids, secret=True,
                info=lambda s, m: MoveInfo(cost=m.args["amount"])),
           Kind("flip", _flip, "000 TOY: flip", phases=("flip",), chance=True),
           Kind("pay", _pay, "000 TOY: pay", phases=("pay",), listed=lambda s, p: [Move("pay", p)], held=True),
           Kind("wave", _wave, "000 TOY: wave", anytime=True, listed=lambda s, p: [Move("wave", p)]),
           Kind("gust", _gust, "000 TOY: gust", anytime=True, chance=True)),
    view_of=view, payouts_of=lambda s: {"yen": list(s.yen)}, seat_names=lambda s: s.names, redraw=nothing_hidden,
)


def test_a_seat_the_game_waits_for_gets_its_phase_moves_and_every_seat_the_anytime_ones():
    s = TOY.setup({"names": ["Aki", "Ben"]})
    s = TOY.apply(s, Move("bid", 0, {"amount": 100}))[0]
    assert [m.kind for m in TOY.legal_moves(s, 0)] == ["wave"]          # bid already: waving only
    assert {m.kind for m in TOY.legal_moves(s, 1)} == {"bid", "wave"}
    assert TOY.apply(s, Move("wave", 0))[0].waved == (0,)                # not waited for, yet allowed
    assert TOY.apply(s, Move("gust", CHANCE))[0] == s                    # chance at any time


def test_refusals_say_why_and_change_nothing():
    s = TOY.setup({"names": ["Aki", "Ben"]})
    cases = [(Move("pay", 0), "now is the time to bid, not to pay"),
             (Move("flip", CHANCE, {"side": "H"}), "no 'flip' outcome is awaited now; the game waits for the sealed bids"),
             (Move("bid", 5, {"amount": 0}), "there is no seat 5"),
             (Move("bid", 0, {"amount": 150}), "bid 0 to 500 in steps of 100"),
             (Move("bid", 0, {}), "the 'bid' move is malformed: 'amount'"),
             (Move("bid", CHANCE, {"amount": 0}), "no 'bid' outcome is awaited")]
    for move, reason in cases:
        with pytest.raises(IllegalMove) as err:
            TOY.apply(s, move)
        assert reason in err.value.reason and err.value.move == move
    s = TOY.apply(s, Move("bid", 0, {"amount": 100}))[0]
    with pytest.raises(IllegalMove, match="it is not Aki's turn; the game waits for the sealed bids"):
        TOY.apply(s, Move("bid", 0, {"amount": 0}))


def test_chance_phases_list_their_outcomes_and_the_end_waits_for_nobody():
    s = TOY.setup({"names": ["Aki", "Ben"]})
    for p in (0, 1):
        s = TOY.apply(s, Move("bid", p, {"amount": 0}))[0]
    assert TOY.pending(s) == [Pending(CHANCE)]
    assert [m.args["side"] for m in TOY.legal_moves(s, CHANCE)] == ["H", "T"]
    s = TOY.apply(s, Move("flip", CHANCE, {"side": "T"}))[0]
    s = TOY.apply(s, Move("pay", 0))[0]
    assert TOY.is_over(s) and TOY.pending(s) == [] and TOY.legal_moves(s, 1) == [] and TOY.chance(s) is None
    with pytest.raises(IllegalMove, match="the game is over"):
        TOY.apply(s, Move("wave", 1))


def test_flags_give_the_secret_and_held_kinds_and_whose_secret_a_move_is():
    s = TOY.setup({"names": ["Aki", "Ben"]})
    assert TOY.secret_kinds == {"bid"} and TOY.held_kinds == {"pay"}
    assert TOY.secret_owner(s, Move("bid", 1, {"amount": 0})) == 1
    assert TOY.secret_owner(s, Move("wave", 1)) is None


def test_move_info_of_a_malformed_move_is_zero_not_an_error():
    s = TOY.setup({"names": ["Aki", "Ben"]})
    assert TOY.move_info(s, Move("bid", 0, {"amount": 200})) == MoveInfo(cost=200)
    assert TOY.move_info(s, Move("bid", 0, {})) == MoveInfo()
    assert TOY.move_info(s, Move("nonsense", 0)) == MoveInfo()


def test_options_are_strict_bounded_and_named_choices():
    with pytest.raises(IllegalMove, match="unknown option"):
        TOY.setup({"options": {"pott": 1}})
    with pytest.raises(IllegalMove, match="option pot must be a whole number of at least 0 and at most 100000, not '9'"):
        TOY.setup({"options": {"pot": "9"}})
    with pytest.raises(IllegalMove, match="option tie"):
        TOY.setup({"options": {"tie": "coin"}})
    with pytest.raises(IllegalMove, match="TOY is played by 2 to 3 players, not 4"):
        TOY.setup({"names": list("ABCD")})
    assert TOY.setup({"options": {"pot": 300.0}}).options.pot == 300


def test_an_option_corrected_in_a_later_rules_version_keeps_its_earlier_default_for_earlier_games():
    class Corrected(Options):
        EARLIER = {1: {"tie": "bank"}}

    assert Corrected.from_config({"rules": 1}, "TOY", (2,)).tie == "bank"
    assert Corrected.from_config({}, "TOY", (2,)).tie == "bank"            # no version: the first
    assert Corrected.from_config({"rules": 2}, "TOY", (2,)).tie == "split"
    assert Corrected.from_config({"rules": 1, "options": {"tie": "split"}}, "TOY", (2,)).tie == "split"


def test_a_declaration_that_misses_what_it_must_say_is_refused_at_import():
    with pytest.raises(ValueError, match="needs known phases"):
        replace(TOY, kinds=(Kind("x", _gust, "000 TOY: x", phases=("nowhere",)),))
    with pytest.raises(ValueError, match="its rule"):
        replace(TOY, kinds=(Kind("x", _gust, "", phases=("bid",)),))
    with pytest.raises(ValueError, match="the end"):
        replace(TOY, phases=TOY.phases[:-1])


def test_estimates_play_a_declared_game_to_its_end_for_each_move():
    s = TOY.setup({"names": ["Aki", "Ben"]})
    moves = TOY.legal_moves(s, 0)
    answer = TOY.estimate(s, 0, moves, random.Random(1), playouts=24, viewer=0)
    assert [m["move"] for m in answer["moves"]] == [m.to_json() for m in moves]
    assert sum(m["n"] for m in answer["moves"]) == 24 and answer["overall"]["mean"] == 500
    assert answer == TOY.estimate(s, 0, moves, random.Random(1), playouts=24, viewer=0)   # the same seed


# --- every registered game ----------------------------------------------------------------------

DECLARED = {name: g for name, g in GAMES.items() if isinstance(g, Declared)}


@pytest.mark.parametrize("name", sorted(DECLARED))
def test_every_kind_of_move_names_the_rule_book_section_it_follows(name):
    game = DECLARED[name]
    book = "000" if name in ("tokyo_metro", "osaka_metro", "metro_drinks", "izakaya") else "002"
    for kind in game.kinds:
        assert kind.rule.startswith(f"{book} ") and ":" in kind.rule, f"{name}.{kind.name}: {kind.rule!r}"


@pytest.mark.parametrize("name", sorted(DECLARED))
def test_every_phase_but_the_end_waits_for_someone_and_says_for_what(name):
    game = DECLARED[name]
    for phase in game.phases:
        if phase.name == game.over:
            continue
        kinds = [k for k in game.kinds if phase.name in k.phases]
        assert kinds, f"{name}: no kind of move is made in phase {phase.name}"
        assert phase.acting is not None or phase.outcomes is not None, f"{name}: nobody acts in {phase.name}"
