"""Teach mode and the costs explained (issue 28): every kind of move of every game has its teach
text and every game its "how to play" page in every language; every cost or payout a move shows
comes with an explanation (``MoveInfo.why``) the catalogues can word; and what a seat's secret
card adds to a move reaches that seat's own phone alone. Engine and table level, no browser
(tests/test_dashboard_pocari.py shows the words in use)."""
from __future__ import annotations

import json
import random
import re
from dataclasses import replace

import pytest

from companion.rules.engine import CHANCE, ChanceChoice, Move
from companion.rules.games import GAMES
from companion.rules.games import pocari_bet as pb
from companion.rules.games.pocari_bet_state import matching
from companion.table.session import TableSession
from tests.test_i18n_catalogues import CATS, LANGS, slots

HOW_PARTS = ("aim", "setup", "turn", "end")


def _text(lang: str, game: str, key: str):
    """The catalogue text of ``key`` as the game's page has it (its own file, then common.json)."""
    return CATS[lang][GAMES[game].words].get(key, CATS[lang]["common"].get(key))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_kind_of_move_has_its_teach_text_and_every_game_its_how_to_page(game):
    words = GAMES[game].words   # the catalogue the game's page loads (the METRO games share one)
    missing = [f"{lang}/{words}.json {key}" for lang in LANGS
               for key in [f"teach.{words}.{k.name}" for k in GAMES[game].kinds]
               + [f"how.{game}.{part}" for part in HOW_PARTS]
               if key not in CATS[lang][words]]
    assert not missing, "write these in the game's catalogue, in the project's own words:\n" + "\n".join(missing)


def _offered(g, state, rng):
    """Every actor's offer now: seats' legal moves, chance's outcomes (a drop: some came out)."""
    offered = {}
    for p in g.pending(state):
        if p.actor != CHANCE:
            offered[p.actor] = g.legal_moves(state, p.actor)
            continue
        spec = g.chance(state)
        offered[CHANCE] = [m for m, _ in spec.outcomes] if isinstance(spec, ChanceChoice) else \
            [Move(spec.move_kind, CHANCE, {"out": tuple(d for d in spec.candidates if rng.random() < 0.6)})]
    return offered


def _explanations(game: str, steps: int = 150):
    """(move, viewer, info) for every move offered in random games with the fewest seats and the
    most, as the table sees it and as the move's maker does."""
    g = GAMES[game]
    for seats in sorted({min(g.players), max(g.players)}):
        rng = random.Random(seats)
        state = g.setup({"names": [f"P{i}" for i in range(seats)], "seed": seats})
        for _ in range(steps):
            if g.is_over(state):
                break
            offered = _offered(g, state, rng)
            for move in (m for moves in offered.values() for m in moves if m.player != CHANCE):
                for viewer in (None, move.player):
                    yield move, viewer, g.move_info(state, move, viewer)
            state, _ = g.apply(state, rng.choice(offered[rng.choice(list(offered))]))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_cost_and_payout_is_explained_in_words_every_language_has(game):
    wrong = set()
    for move, viewer, info in _explanations(game):
        if (info.cost or info.pays_up_to) and not info.why:
            wrong.add(f"{move.kind}: costs {info.cost}, pays {info.pays_up_to}, and says not why (MoveInfo.why)")
        if not info.why:
            continue
        for lang in LANGS:
            text = _text(lang, game, info.why)
            if text is None:
                wrong.add(f"{lang}: no text for {info.why!r} ({move.kind})")
            elif slots(text) - set(info.params):
                wrong.add(f"{lang} {info.why!r}: slots {sorted(slots(text) - set(info.params))} that "
                          f"{move.kind}'s params {sorted(info.params)} do not fill")
        json.dumps(info.to_json())  # a view carries it as JSON
    assert not wrong, "\n".join(sorted(wrong))


# --- POCARI BET: the secret card's bonus on its owner's phone alone --------------------------------

def _to_invest(store, secret: str, picks_of: str) -> TableSession:
    """A POCARI BET table (three people) at the first stake, seat 0 (the start player) holding
    ``secret``; the draft takes drinks of colour ``picks_of`` first, so that they are in play."""
    session = TableSession.create(store, "pocari_bet", ["Aki", "Ben", "Chie"], seed=5)
    while session.state.phase != pb.INVEST:
        game, state = session.game, session.state
        pending = game.pending(state)[0]
        if pending.actor == CHANCE:
            outcomes = [m for m, _ in game.chance(state).outcomes]
            if outcomes[0].kind == "start_player":
                move = next(m for m in outcomes if m.args["seat"] == 0)
            elif outcomes[0].kind == "secret_card" and pending.secret_for == 0:
                move = Move("secret_card", CHANCE, {"card": secret})
            elif outcomes[0].kind == "turn_up":
                move = next(m for m in outcomes if m.args["colour"] not in (secret, picks_of))
            else:
                move = outcomes[0]
            session.submit(move, pending.secret_for)
            continue
        moves = game.legal_moves(state, pending.actor)
        move = next((m for m in moves if m.kind == "draw" and m.args["deck"] == "colour"), None) \
            or next((m for m in moves if m.kind == "pick" and m.args["drink"].startswith(picks_of)), moves[0])
        session.submit(move, None)
    assert pb.GAME.pending(session.state)[0].actor == 0
    return session


def _moves(view: dict) -> str:
    return json.dumps([view["moves"], view["rules"]], sort_keys=True)


def test_the_secret_card_bonus_shows_on_its_owners_phone_and_nowhere_else(store):
    """The same game, seat 0 holding a card that matches drinks in play (red) or one that does
    not (mint): the table's view and the other seats' views offer the same figures and words
    either way; seat 0's own phone counts the bonus its card would add."""
    red = _to_invest(store, "red", picks_of="red")
    mint = _to_invest(store, "mint", picks_of="red")
    assert red.state.seats[0].secret == "red" and mint.state.seats[0].secret == "mint"
    assert red.state.seats[0].hand == mint.state.seats[0].hand and matching(red.state, "red") > 0
    for viewer in (None, 1, 2):
        assert _moves(red.compute_view(viewer)) == _moves(mint.compute_view(viewer)), \
            f"viewer {viewer} can tell seat 0's secret card from the move buttons"
    table = {m["move"]["args"]["amount"]: m for m in red.compute_view(None)["moves"] if m["move"]["kind"] == "invest"}
    assert table and all(m["why"]["key"] == "why.pocari_bet.invest" for m in table.values())
    assert "card" not in json.dumps([m["why"] for m in table.values()])
    bonus = red.state.options.bonus
    n = matching(red.state, "red")
    for m in red.compute_view(0)["moves"]:
        if m["move"]["kind"] != "invest":
            continue
        stake = m["move"]["args"]["amount"]
        assert m["why"] == {"key": "why.pocari_bet.investSecret",
                            "params": {"stake": stake, "n": table[stake]["why"]["params"]["n"], "bonus": bonus,
                                       "card": "red", "matches": n}}
        assert m["pays_up_to"] == max(table[stake]["pays_up_to"], stake * (1 + n) + bonus)
    # The card that matches nothing in play adds nothing: its owner sees what the table sees.
    assert _moves(mint.compute_view(0)) == _moves(mint.compute_view(None))


def test_declaring_the_secret_card_counts_the_bonus_for_its_owner_alone():
    state = pb.setup({"names": ["Aki", "Ben", "Chie"], "start_player": 0})
    seats = tuple(s if p else pb.Seat(s.name, s.yen - 200, secret="red", stake=200)
                  for p, s in enumerate(state.seats))
    state = replace(state, seats=seats, phase=pb.DECLARE, seventh="red-tall_can", seventh_set_aside=True)
    move = Move("declare", 0, {"kind": "red"})
    n = matching(state, "red")
    assert n == 1
    mine, table, other = (pb.GAME.move_info(state, move, v) for v in (0, None, 1))
    assert (mine.pays_up_to, mine.why, mine.params["bonus"]) == (200 * 2 + 500, "why.pocari_bet.declareSecret", 500)
    assert table == other and (table.pays_up_to, table.why) == (400, "why.pocari_bet.declare")
    assert "bonus" not in table.params


# --- TOKYO METRO and JASMINE TEA: the explanations the issue names -----------------------------------

def _metro_moves(kinds: set[str], seed: int = 3, steps: int = 400):
    """The first offered move of each of ``kinds`` in a random four-seat METRO game, with its state."""
    g, found = GAMES["tokyo_metro"], {}
    rng = random.Random(seed)
    state = g.setup({"names": ["Aki", "Ben", "Chie", "Dai"], "seed": seed})
    for _ in range(steps):
        if g.is_over(state) or kinds <= set(found):
            break
        offered = _offered(g, state, rng)
        for move in (m for moves in offered.values() for m in moves):
            if move.kind in kinds and move.kind not in found:
                found[move.kind] = (state, move)
        state, _ = g.apply(state, rng.choice(offered[rng.choice(list(offered))]))
    return found


def _words(lang: str, game: str, info) -> str:
    """The explanation as the dashboard words it (js/explain.js: plural by count or n)."""
    text = _text(lang, game, info.why)
    if isinstance(text, dict):
        count = info.params.get("count", info.params.get("n"))
        text = text["one" if count == 1 else "other"]
    return re.sub(r"\{(\w+)\}", lambda m: str(info.params[m.group(1)]), text)


def test_metro_explains_a_stations_cost_a_pass_a_boarding_and_a_bid():
    g = GAMES["tokyo_metro"]
    found = _metro_moves({"station", "pass", "board", "bid"})
    assert {"station", "pass", "bid"} <= set(found), f"the random game offered only {sorted(found)}"
    state, move = found["station"]
    info = g.move_info(state, move)
    p = info.params
    assert info.why == "why.tokyo_metro.station" and p["stops"] >= 1
    assert info.cost == p["stop_price"] * p["stops"]  # "Station ¥300 Otemachi costs ¥900": 3 stops at ¥300
    assert f"× {p['stops']}" in _words("en", "tokyo_metro", info) or p["stops"] == 1
    state, move = found["pass"]
    info = g.move_info(state, move)
    assert info.why == "why.tokyo_metro.pass" and info.pays_up_to == info.params["count"] * info.params["each_yen"]
    info = g.move_info(*found["bid"])
    assert info.why == "why.tokyo_metro.bid"  # every METRO bid is paid, unlike a sealed bid
    if "board" in found:
        info = g.move_info(*found["board"])
        assert info.why in ("why.tokyo_metro.board", "why.tokyo_metro.boardShareholder")
        assert info.cost == info.params.get("fare_yen", 0)


def test_a_sealed_jasmine_tea_bid_says_only_the_highest_pays():
    g = GAMES["jasmine_tea"]
    state = g.setup({"names": ["Aki", "Ben"], "seed": 1})
    bid = next(m for m in g.legal_moves(state, 0) if m.args["amount"] == 300)
    info = g.move_info(state, bid, 0)
    assert (info.cost, info.why) == (300, "why.sealedBid")
    assert "only if it is the highest bid" in _words("en", "jasmine_tea", info)
    assert "nur bezahlt, wenn es das höchste Gebot ist" in _words("de", "jasmine_tea", info)


def test_a_view_names_the_rule_each_kind_of_move_offered_follows(store):
    session = TableSession.create(store, "pocari_bet", ["Aki", "Ben", "Chie"], seed=5)
    # The outcome the table enters (who starts) follows a rule too.
    assert session.compute_view(None)["rules"] == {"start_player": "002 POCARI BET: VORBEREITUNG"}
    assert session.compute_view(0)["rules"] == {}  # a phone enters no start player
    session.submit(Move("start_player", CHANCE, {"seat": 1}), None)
    view = session.compute_view(None)
    assert {m["move"]["kind"] for m in view["moves"]} == {"draw"}
    assert view["rules"] == {"draw": "002 POCARI BET: SPIELABLAUF 1"}
    assert session.compute_view(None, acting=False)["rules"] == {}  # a spectator is offered nothing
