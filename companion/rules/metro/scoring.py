"""TOKYO METRO end scoring: speculation payouts, share payouts, loans, the winner.

Works on any state (duck-typed: ``rules``, ``seats``, ``lines``, ``order``), so the same
function gives the final result and, during the game, what everyone would get if it ended now.

Line by line, in train order (G first):

1. Each speculation on the line pays up to twice its stake, at most the lower number beside the
   line's value on the revenue track; the stake comes back too. The line's value then falls by
   what the speculations were paid (not below 0).
2. The shares pay from the value left: one holder takes it all; two holders take the higher and
   the lower number beside that value; with three, share #1 takes half (rounded up to 100), the
   value falls by that, and #2 and #3 split the rest by the two numbers beside it.
   (Four holders, for boards with 4 shares: #1 to #3 each take half of what is left, #4 the rest.)
3. OSAKA METRO: the yen each player set aside by selling shares join their totals.
4. Each loan still held costs 1,500. Bid bonus yen not yet used go back to the bank.

A speculation and a share of the same line in one hand (which the engine never allows) are
both worth nothing. Ties are won by the player further left on the order track.
"""
from __future__ import annotations

from typing import Any


def half_up(value: int) -> int:
    """50 % rounded up to the next 100."""
    return -(-value // 200) * 100


def speculation_pays(track, value: int, stake: int) -> int:
    """What a speculation pays on a line worth ``value`` (the stake comes back besides): twice the
    stake, at most the lower number beside the value."""
    return min(2 * stake, track.numbers(value)[1])


def share_payouts(track, value: int, holders: int) -> list[int]:
    """What share #1, #2, ... pay for a line worth ``value`` with that many holders."""
    if holders <= 0:
        return []
    if holders == 1:
        return [value]
    if holders == 2:
        return list(track.numbers(value))
    if holders == 3:
        first = half_up(value)
        return [first, *track.numbers(value - first)]
    out, left = [], value
    for _ in range(holders - 1):
        part = half_up(left)
        out.append(part)
        left -= part
    return out + [left]


def line_result(state: Any, i: int) -> dict:
    rules = state.rules
    track, line, ls = rules.track, rules.board.lines[i], state.lines[i]
    value = ls.value
    conflict = {p for p, _ in ls.specs if p in ls.holders}
    low = track.numbers(value)[1]
    specs = []
    for p, stake in ls.specs:
        paid = 0 if p in conflict else speculation_pays(track, value, stake)
        specs.append({"seat": p, "stake": stake, "paid": paid})
    spec_total = sum(s["paid"] for s in specs)
    after = max(0, value - spec_total)
    valid = [p for p in ls.holders if p not in conflict]
    pays = share_payouts(track, after, len(valid))
    shares = []
    k = 0
    for number, p in enumerate(ls.holders, start=1):
        if p in conflict:
            shares.append({"seat": p, "share": number, "paid": 0, "void": True})
        else:
            shares.append({"seat": p, "share": number, "paid": pays[k]})
            k += 1
    return {"line": line.letter, "value": value, "speculation_cap": low, "speculations": specs,
            "value_after_speculation": after, "shares": shares}


def final(state: Any) -> dict:
    """The end scoring of ``state`` as it stands (the final result once the game is over)."""
    rules = state.rules
    n = len(state.seats)
    lines = [line_result(state, i) for i in range(len(rules.board.lines))]
    speculation = [0] * n
    stakes = [0] * n
    shares = [0] * n
    for res in lines:
        for s in res["speculations"]:
            speculation[s["seat"]] += s["paid"]
            stakes[s["seat"]] += s["stake"]
        for s in res["shares"]:
            shares[s["seat"]] += s["paid"]
    set_aside = [s.set_aside for s in state.seats]   # after speculations and shares, before loans
    loans = [s.loans * rules.options.loan_end_cost for s in state.seats]
    totals = [s.yen + speculation[p] + stakes[p] + shares[p] + set_aside[p] - loans[p]
              for p, s in enumerate(state.seats)]
    position = {p: i for i, p in enumerate(state.order)}
    ranking = sorted(range(n), key=lambda p: (-totals[p], position[p]))
    return {
        "lines": lines,
        "yen": [s.yen for s in state.seats],
        "speculation": speculation, "stakes_returned": stakes, "shares": shares, "set_aside": set_aside, "loans": loans,
        "totals": totals, "ranking": ranking, "winner": ranking[0],
    }
