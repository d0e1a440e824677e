"""The feed of the night (companion/table/feed.py, issue 28): every move of a computer seat in words
for the table, bid winners announced, train-phase payouts per player, secrets kept by every path
(views to each seat, the table, the feed route, an undo), the yen changes adding up to the yen the
view shows, and the same feed from a replayed log. The real table session over a real SQLite
store, the simulated table wired in as `companion serve` does."""
from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api_support import post_move, seat, start_game
from api_support import view_of as view
from companion.rules.engine import CHANCE, ChanceChoice, ChanceDrop, Move
from companion.rules.games import GAMES
from companion.rules.metro import game as metro
from companion.sim.table import SIM_TABLE
from companion.table.feed import shown_yen
from companion.table.log import fold, read_jsonl, start
from companion.table.session import TableSession
from companion.table.views import FEED_IN_VIEW


def entry_at(feed: list[dict], seq: int) -> dict:
    return next(e for e in feed if e["seq"] == seq)


def whole_feed(session, viewer) -> list[dict]:
    return session.feed_for(viewer, limit=len(session.records))


def test_every_computer_move_of_a_metro_game_is_in_the_table_feed_with_its_board_changes(store):
    session = TableSession.create(store, metro.NAME, ["Aki", "Ben", "Chie"], bots=[0, 1, 2], seed=7,
                                  automation=SIM_TABLE)
    assert session.over
    feed = whole_feed(session, None)
    assert [e["seq"] for e in feed] == sorted((e["seq"] for e in feed), reverse=True)
    computer = [(seq, r) for seq, r in enumerate(session.records, start=1) if r.get("by") == "bot"]
    assert len(computer) > 50
    for seq, record in computer:
        entry = entry_at(feed, seq)
        assert entry["by"] == "computer" and entry["seat"] == record["move"]["player"]
        if record["move"]["kind"] == "bid":  # a sealed bid: the table learns only that it was made
            assert entry["secret"] is True and "move" not in entry
        else:
            assert entry["move"] == record["move"]
    built = [e for e in feed if any(ev["kind"] == "station_built" for ev in e.get("events", []))]
    assert built and all(e["board"] and all(ev.get("on_board") for ev in e["events"]
                                            if ev["kind"] == "station_built") for e in built)
    # The bids open when the last one is in: the table is told every bid and the order.
    opened = [e for e in feed if any(ev["kind"] == "bids" for ev in e.get("events", []))]
    assert opened and all(e["secret"] for e in opened)
    # The view carries the latest few, newest first.
    assert session.view(None)["feed"] == feed[:FEED_IN_VIEW]


def test_a_metro_train_phase_tells_what_it_paid_each_player(store):
    session = TableSession.create(store, metro.NAME, ["Aki", "Ben", "Chie"], bots=[0, 1, 2], seed=7,
                                  automation=SIM_TABLE)
    feed = whole_feed(session, None)
    runs = [e for e in feed if e.get("move", {}).get("kind") == "run_trains"]
    paid = [e for e in runs if any(ev["kind"] == "station_payout" for ev in e["events"])]
    assert paid, "no train phase paid a station's owner"
    for entry in paid:
        to_owner = [0, 0, 0]
        for ev in entry["events"]:
            if ev["kind"] == "station_payout" and ev.get("owner") is not None:
                to_owner[ev["owner"]] += ev["to_owner"]
        # what the stations paid, and nothing else, is each player's change (the final scoring
        # of the last phase aside)
        if not any(ev["kind"] == "game_over" for ev in entry["events"]):
            assert entry["yen"] == to_owner, entry
        assert any(entry["yen"])


def test_the_jasmine_tea_start_bid_winner_is_announced_and_the_bid_stays_its_owners(client):
    gid, tokens = start_game(client, game="jasmine_tea", names=["Aki", "Ben", "Chie"], bots=[1, 2], seed=5)
    bid = next(m["move"] for m in view(client, gid, tokens[0])["moves"] if m["move"]["args"]["amount"] == 300)
    r = post_move(client, gid, bid, tokens[0])
    assert r.status_code == 200, r.text
    # (the computer seats play on after it: the bid is the entry Aki's phone made)
    seq = next(e["seq"] for e in view(client, gid, tokens[0])["feed"] if e.get("from_seat") == 0)
    table = entry_at(view(client, gid)["feed"], seq)
    won = [ev for ev in table["events"] if ev["kind"] == "start_bid_won"]
    assert len(won) == 1 and won[0]["paid"] > 0, table
    opened = next(ev for ev in table["events"] if ev["kind"] == "bids_opened")
    assert opened["bids"]["0"] == 300            # every bid opens at once: Aki's too
    assert table["secret"] is True and "move" not in table
    assert table["yen"][won[0]["seat"]] == -won[0]["paid"]
    mine = entry_at(view(client, gid, tokens[0])["feed"], seq)
    assert mine["move"] == bid
    # The computer seats' earlier bids: a secret move for everyone (no phone holds them).
    for token in (None, tokens[0]):
        earlier = [e for e in view(client, gid, token)["feed"] if e["seq"] < seq]
        assert earlier and all(e["secret"] and "move" not in e and not e["events"] for e in earlier)


def test_a_pocari_secret_card_reaches_its_owners_feed_alone_and_so_does_its_undo(client):
    gid, tokens = start_game(client, game="pocari_bet", names=["Aki", "Ben", "Chie"], seed=5, simulated=False)
    owner, other = 1, 2
    v = view(client, gid)
    start_move = next(m["move"] for m in v["chance"]["outcomes"] if m["move"]["args"]["seat"] == owner)
    assert post_move(client, gid, start_move).status_code == 200
    draw = {"kind": "draw", "player": owner, "args": {"deck": "colour"}}
    assert post_move(client, gid, draw, tokens[owner]).status_code == 200
    card = view(client, gid, tokens[owner])["chance"]["outcomes"][-1]["move"]
    r = post_move(client, gid, card, tokens[owner])
    assert r.status_code == 200, r.text
    seq = r.json()["view"]["seq"]
    secret = json.dumps(card["args"]["card"])

    def pages(token):
        headers = seat(token) if token else {}
        first = client.get(f"/api/games/{gid}/feed", params={"limit": 1, "as": "player"}, headers=headers).json()
        rest = client.get(f"/api/games/{gid}/feed", params={"before": first["next"], "as": "player"},
                          headers=headers).json()
        assert rest["next"] is None
        return first["entries"] + rest["entries"]

    assert entry_at(pages(tokens[owner]), seq)["move"] == card
    assert entry_at(view(client, gid, tokens[owner])["feed"], seq)["move"] == card
    for token in (None, tokens[other], tokens[0]):
        for feed in (view(client, gid, token)["feed"], pages(token)):
            told = entry_at(feed, seq)
            assert told == {"seq": seq, "type": "move", "by": "seat", "from_seat": owner, "seat": owner,
                            "secret": True, "events": [], "yen": [0, 0, 0], "board": False}
            assert secret not in json.dumps([e for e in feed if e["seq"] >= seq])

    r = client.post(f"/api/games/{gid}/undo")
    assert r.status_code == 200, r.text
    undo = r.json()["view"]["seq"]
    for token in (None, tokens[other]):
        told = entry_at(view(client, gid, token)["feed"], undo)
        assert told["type"] == "undo" and told["secret"] and told["seat"] == owner and "move" not in told
        assert told["takes_back"] == [seq] and told["by"] == "table"
    assert entry_at(view(client, gid, tokens[owner])["feed"], undo)["move"] == card


def test_the_feed_route_refuses_bad_pages(client):
    gid, _tokens = start_game(client, game="pocari_bet", names=["Aki", "Ben", "Chie"], seed=5)
    assert client.get(f"/api/games/{gid}/feed", params={"limit": 0}).status_code == 422
    assert client.get(f"/api/games/{gid}/feed", params={"before": "x"}).status_code == 422
    assert client.get("/api/games/nope/feed").status_code == 404   # strangers: tests/test_trust.py


# --- over random games: the yen add up, secrets stay, replay gives the same feed -------------------

def _random_records(game_name: str, names: list[str], rng: random.Random, steps: int) -> list[dict]:
    """Records of a random game: seats' legal moves (made from their phones), chance outcomes,
    drops, and now and then an undo by the table."""
    game = GAMES[game_name]
    folded = start(game_name, {"names": names, "seed": 1})
    records = []
    for _ in range(steps):
        if game.is_over(folded.state):
            break
        if folded.last_personal_move() is not None and rng.random() < 0.08:
            record = {"type": "undo", "by": "table"}
        else:
            pending = rng.choice(game.pending(folded.state))
            if pending.actor == CHANCE:
                spec = game.chance(folded.state)
                if isinstance(spec, ChanceDrop):
                    move = Move(spec.move_kind, CHANCE, {"out": [d for d in spec.candidates if rng.random() < 0.6]})
                else:
                    assert isinstance(spec, ChanceChoice)
                    move = rng.choice([m for m, _ in spec.outcomes])
                by = f"seat {pending.secret_for}" if pending.secret_for is not None else "sim"
            else:
                move, by = rng.choice(game.legal_moves(folded.state, pending.actor)), f"seat {pending.actor}"
            record = {"type": "move", "move": move.to_json(), "by": by}
        folded.step(record)
        records.append(record)
    return records


RANDOM_GAMES = [("pocari_bet", 3), ("jasmine_tea", 3), ("upside_down_tower", 3), ("tokyo_metro", 3),
                ("vending_poker", 2), ("melon_soda", 2)]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(RANDOM_GAMES) - 1), seed=st.integers(0, 10_000))
def test_the_feed_adds_up_keeps_secrets_and_replays_alike(which, seed):
    game_name, n = RANDOM_GAMES[which]
    names = [f"P{i}" for i in range(n)]
    records = _random_records(game_name, names, random.Random(seed), 160)
    folded = fold(game_name, {"names": names, "seed": 1}, records)
    game = folded.game
    start_yen = shown_yen(game, game.setup({"names": names, "seed": 1}))
    for viewer in (None, *range(n)):
        feed = folded.feed.for_viewer(viewer, limit=len(records))
        # What the entries say each seat gained and paid is what the table view shows now.
        shown = shown_yen(game, folded.state)
        for p in range(n):
            if shown[p] is not None and start_yen[p] is not None:
                assert start_yen[p] + sum(e["yen"][p] for e in feed) == shown[p], (viewer, p)
        by_seq = {e["seq"]: e for e in feed}
        for e in feed:
            if e.get("takes_back") and game_name != "upside_down_tower":
                # An undo gives back, itself, what the entries it took back moved (the upside-down
                # tower hides yen while bidding: there a change is told once the yen show again).
                gone = [sum(by_seq[s]["yen"][p] for s in e["takes_back"]) for p in range(n)]
                assert all(e["yen"][p] == -gone[p] for p in range(n) if shown[p] is not None), (e, gone)
            if e.get("secret") and e["seat"] != viewer:
                assert "move" not in e, e
                open_kinds = set().union(*(game.open_events(Move.from_json(r["move"])) for r in records
                                           if r.get("move")))
                assert all(ev["kind"] in open_kinds for ev in e["events"]), e
    again = fold(game_name, {"names": names, "seed": 1}, records)
    assert again.feed.entries == folded.feed.entries
    assert read_jsonl(_jsonl(game_name, names, records)).feed.entries == folded.feed.entries


def _jsonl(game_name, names, records) -> list[str]:
    header = {"type": "game", "game": game_name, "config": {"names": names, "seed": 1}}
    return [json.dumps(r) for r in [header, *records]]
