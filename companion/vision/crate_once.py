"""Each drink stands once: the field network's probabilities told what the other fields hold
(issue 31).

The field network (:mod:`.crate_net`) names each field from its own patch. Its colours are
nearly always right; its doubt is between the shapes of one colour, mostly neighbouring heights
(a short or a tall can). But a table has one drink of each colour and shape: when another field
is surely the red tall can, a field torn between the red short and the red tall can holds the
short one.

The probabilities of every field under "each drink at most once" are a sum over all ways of
giving the drinks to the fields (a permanent: too many to count). Mean field instead: field c's
probability of drink d is weighed by the chance that no other field holds d, the product over
the other fields c' of ``1 - q(c', d)``, and the field's probabilities normalised again; ``q`` are
the other fields' probabilities of the round before, starting from the network's. A few rounds
settle it. Two fields both sure of one drink pull each other down (both come out unsure, where
the rule before kept the surer one sure).

Each drink once tells WHICH drink a slot holds, not WHETHER the field is a slot: the names of
the grid (``kept``: no slot, a patch cut between fields) keep the network's probabilities, and
only the rest (empty and the drinks) is weighed and normalised again within the share the
network left it. (Normalised over all names, a drink taken by another field handed its share
to "no slot" too, and an edge field the network doubted came out surely no slot: a field of
the crates dropped from the reading, measured on varied and dev frames, docs/performance.md.)

The bars of a sure reading are set on held-out frames with this applied
(``tools/learn_crates.py``), as the reader reads.

>>> import numpy as np
>>> p = np.array([[0.0, 0.0, 0.50, 0.50],      # torn between drinks 2 and 3
...               [0.0, 0.0, 0.99, 0.01]])     # surely drink 2
>>> q = one_of_each(p, np.array([2, 3]))
>>> bool(q[0, 3] > 0.95), bool(q[1, 2] > 0.95)
(True, True)
"""
from __future__ import annotations

import numpy as np

ROUNDS = 3          # rounds of the mean field (measured: docs/performance.md, "One drink of each")
_CAP = 1 - 1e-9     # a field sure to the last digit still leaves the others a trace of the drink


def one_of_each(prob: np.ndarray, drinks: np.ndarray, kept=(), rounds: int = ROUNDS) -> np.ndarray:
    """``prob`` (fields, classes), each row summing to one, with the columns ``drinks`` (each
    at most once among the fields) weighed by the chance that no other field holds them; the
    columns ``kept`` as they are, the others normalised within the share they had."""
    prob = np.asarray(prob, np.float64)
    free = np.ones(prob.shape[1], bool)
    free[list(kept)] = False
    share = prob[:, free].sum(axis=1, keepdims=True)
    q = prob
    for _ in range(rounds):
        logs = np.log1p(-np.clip(q[:, drinks], 0.0, _CAP))
        others = logs.sum(axis=0, keepdims=True) - logs        # every other field's, not its own
        new = prob.copy()
        new[:, drinks] = prob[:, drinks] * np.exp(others)
        new[:, free] *= share / np.maximum(new[:, free].sum(axis=1, keepdims=True), 1e-300)
        q = new
    return q


def by_frame(prob: np.ndarray, frames: np.ndarray, drinks: np.ndarray, kept=(), rounds: int = ROUNDS) -> np.ndarray:
    """:func:`one_of_each` within each frame (``frames``: a frame id a row), for held-out data
    that holds many frames' fields together."""
    out = np.empty_like(prob, dtype=np.float64)
    for f in np.unique(frames):
        rows = frames == f
        out[rows] = one_of_each(prob[rows], drinks, kept, rounds)
    return out
