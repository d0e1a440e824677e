"""Small OSAKA METRO-like data for the engine tests (until and besides the real Osaka files):
Tokyo's board with line G a pair of trams (4 shares, 4 disc spaces, a small stop after G1),
line H a pair of buses (a small stop too), line M with one share; share cards with the flat 300
surcharge; five sets of eight action cards (dots 1-2) where start, bid_bonus and card became
invest_disc, sell and copy, plus a few more of them."""
from __future__ import annotations

import copy
import json
from functools import lru_cache

from companion.rules.metro.board import DATA, default_board_data


def _read(name: str) -> dict:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def _circle(data: dict, cid: str) -> dict:
    return next(c for st in data["stations"] for c in st["circles"] if c["id"] == cid)


@lru_cache(maxsize=1)
def _board() -> dict:
    data = default_board_data()
    data["small_stops"] = []
    for letter, vehicle in (("G", "tram"), ("H", "bus")):
        line = next(ln for ln in data["lines"] if ln["letter"] == letter)
        a, b = _circle(data, line["stops"][0]), _circle(data, line["stops"][1])
        small = {"id": f"{letter.lower()}-small", "x": (a["x"] + b["x"]) / 2, "y": (a["y"] + b["y"]) / 2,
                 "fields": b["fields"]}
        data["small_stops"].append(small)
        line["stops"].insert(1, small["id"])
        line.pop("source_numbers", None)
        line.update(vehicle=vehicle, vehicles=2)
    for line in data["lines"]:
        if line["letter"] == "G":
            line.update(shares=4, disc_spaces=4)
        if line["letter"] == "M":
            line.update(shares=1, disc_spaces=1)
    data.pop("layout", None)   # no camera layout for this board
    return data


@lru_cache(maxsize=1)
def _stock() -> dict:
    cards = [{"line": ln["letter"], "number": n, "surcharge": 0 if n == 1 else 300}
             for ln in _board()["lines"] for n in range(1, ln["shares"] + 1)]
    return {"format": "tokyo-table-companion/metro-stock-cards", "version": 1, "cards": cards}


RENAMED = {"start": ("invest_disc", None), "bid_bonus": ("sell", None), "card": ("copy", 100)}
EXTRA = {"GM2": [{"kind": "copy", "spaces": 1, "amount": 0}], "HT3": [{"kind": "sell", "spaces": 1}],
         "CY2": [{"kind": "invest_disc", "spaces": 1}], "AI1": [{"kind": "copy", "spaces": 1, "amount": 200}]}


@lru_cache(maxsize=1)
def _cards() -> dict:
    data = _read("action_cards.json")
    sets = []
    for s in data["sets"][:5]:
        cards = []
        for k, card in enumerate(s["cards"][:8]):
            actions = EXTRA.get(card["id"]) or card["actions"]
            out = []
            for a in actions:
                kind, amount = RENAMED.get(a["kind"], (a["kind"], a.get("amount")))
                out.append({"kind": kind, "spaces": a["spaces"], **({"amount": amount} if amount is not None else {})})
            cards.append({"id": card["id"], "dots": 1 if k < 4 else 2, "actions": out})
        sets.append({"id": s["id"], "colours": s["colours"], "cards": cards})
    return {"format": data["format"], "version": data["version"], "sets": sets}


def board() -> dict:
    return copy.deepcopy(_board())


def stock() -> dict:
    return copy.deepcopy(_stock())


def cards() -> dict:
    return copy.deepcopy(_cards())


def osaka_files(cards_too: bool = True) -> dict:
    """The options giving this data as the table's own files (board, share cards; cards if asked)."""
    out = {"board": board(), "stock_cards": stock(), "revenue_track": _read("revenue_track.json")}
    if cards_too:
        out["action_cards"] = cards()
    return out
