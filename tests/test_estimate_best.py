"""The estimate's star: only on a move that its playouts tell clearly apart from the runner-up
(rules/estimate.py, clearly_best), not on whichever mean came out highest by chance."""
from __future__ import annotations

import random

from companion.rules.engine import Move
from companion.rules.estimate import clearly_best
from companion.rules.games import GAMES


def test_a_clear_lead_gets_the_star_and_noise_does_not():
    rng = random.Random(1)
    worlds = [rng.gauss(2000, 600) for _ in range(10)]
    same = [[round(w + rng.gauss(0, 30)) for w in worlds] for _ in range(3)]   # three moves alike, noisy
    assert clearly_best(same, paired=True) is None
    ahead = same + [[round(w + 150 + rng.gauss(0, 30)) for w in worlds]]    # better by 150 in every world
    assert clearly_best(ahead, paired=True) == 3
    # Unpaired, the same lead is lost in the spread of the worlds: ten playouts cannot tell.
    assert clearly_best(ahead, paired=False) is None
    assert clearly_best([[100, 120, 110], [900, 950, 920]], paired=False) == 1
    assert clearly_best([[500, 700]], paired=True) is None           # no runner-up
    assert clearly_best([[500], [100]], paired=True) is None         # one playout each: no spread known
    assert clearly_best([[], [300, 310]], paired=True) is None


def test_a_pocari_bet_draft_estimate_stars_at_most_one_move_and_only_a_clear_one():
    game = GAMES["pocari_bet"]
    state = game.setup({"names": ["Aki", "Ben", "Chie"], "seed": 4})
    rng = random.Random(7)
    for _ in range(200):  # to the first pick of the draft, by random legal moves and chance outcomes
        if state.phase == "draft":
            break
        actor = game.pending(state)[0].actor
        state, _ = game.apply(state, rng.choice(game.legal_moves(state, actor)))
    assert state.phase == "draft"
    seat = game.pending(state)[0].actor
    moves = game.legal_moves(state, seat)
    answer = game.estimate(state, seat, moves, random.Random(3), playouts=40, viewer=seat)
    starred = [m for m in answer["moves"] if m["best"]]
    assert len(starred) <= 1 and all(isinstance(m["best"], bool) for m in answer["moves"] + answer["groups"])
    for m in starred:  # a star is on the highest mean
        assert m["mean"] == max(x["mean"] for x in answer["moves"] if x["n"])
    assert all(isinstance(Move.from_json(m["move"]), Move) for m in answer["moves"])
