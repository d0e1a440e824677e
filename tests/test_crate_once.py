"""Each drink stands once (companion/vision/crate_once.py): a field torn between two drinks is
told by a field sure of one of them, two fields sure of one drink both lose their sureness, and
the weighing keeps every field's probabilities a distribution over the same names."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from companion.vision.crate_net import CLASSES, DRINK_COLUMNS, GRID_COLUMNS
from companion.vision.crate_once import by_frame, one_of_each

EMPTY_COL = CLASSES.index("empty")
SHORT, TALL = CLASSES.index("red-short_can"), CLASSES.index("red-tall_can")


def row(**named) -> np.ndarray:
    p = np.full(len(CLASSES), 1e-4)
    for name, v in named.items():
        p[CLASSES.index(name.replace("_", "-", 1))] = v
    return p / p.sum()


def test_the_other_height_standing_elsewhere_settles_a_torn_field():
    prob = np.stack([row(red_short_can=0.55, red_tall_can=0.44), row(red_tall_can=0.995)])
    out = one_of_each(prob, DRINK_COLUMNS)
    assert out[0].argmax() == SHORT and out[0, SHORT] > 0.98
    assert out[1].argmax() == TALL and out[1, TALL] > 0.99
    # on its own the torn field stays torn
    alone = one_of_each(prob[:1], DRINK_COLUMNS)
    assert np.allclose(alone, prob[:1])


def test_two_fields_sure_of_one_drink_are_both_left_in_doubt():
    prob = np.stack([row(red_tall_can=0.99, red_short_can=0.009), row(red_tall_can=0.98, empty=0.019)])
    out = one_of_each(prob, DRINK_COLUMNS)
    assert out[:, TALL].max() < 0.9


def test_empty_fields_are_not_weighed():
    prob = np.stack([row(empty=0.97, red_tall_can=0.02), row(red_tall_can=0.999)])
    out = one_of_each(prob, DRINK_COLUMNS)
    assert out[0, EMPTY_COL] > prob[0, EMPTY_COL] and out[0].argmax() == EMPTY_COL


def test_a_drink_taken_elsewhere_does_not_make_a_field_no_slot():
    """Whether a field is a slot at all is the network's alone: a field doubting between "no
    slot" and a drink another field surely holds stays as doubtful of the slot, and its slot
    share goes to the slot's other names."""
    prob = np.stack([row(none=0.6, red_tall_can=0.35, empty=0.04), row(red_tall_can=0.999)])
    out = one_of_each(prob, DRINK_COLUMNS, GRID_COLUMNS)
    none = CLASSES.index("none")
    assert out[0, none] == prob[0, none]
    assert out[0, EMPTY_COL] > 0.3
    # normalised over every name, the drink's share went to "no slot" as well
    assert one_of_each(prob, DRINK_COLUMNS)[0, none] > 0.9


def test_frames_are_weighed_apart():
    """Two frames each with the red tall can: a frame's fields are not told by another frame's."""
    prob = np.stack([row(red_tall_can=0.995), row(red_tall_can=0.995)])
    out = by_frame(prob, np.array([7, 8]), DRINK_COLUMNS)
    assert np.allclose(out, prob)


@settings(max_examples=60, deadline=None)
@given(arrays(np.float64, st.tuples(st.integers(1, 12), st.just(len(CLASSES))),
              elements=st.floats(1e-6, 1.0, allow_nan=False)))
def test_rows_stay_distributions_and_other_names_keep_their_order(raw):
    prob = raw / raw.sum(axis=1, keepdims=True)
    out = one_of_each(prob, DRINK_COLUMNS)
    assert np.all(np.isfinite(out)) and np.all(out >= 0)
    assert np.allclose(out.sum(axis=1), 1.0)
    # the names that are not drinks are only scaled, each field by one factor
    rest = [i for i in range(len(CLASSES)) if i not in set(DRINK_COLUMNS.tolist())]
    ratio = out[:, rest] / prob[:, rest]
    assert np.allclose(ratio, ratio[:, :1], rtol=1e-6)
    # and no drink gains against the field's other names
    kept = one_of_each(prob, DRINK_COLUMNS, GRID_COLUMNS)
    assert np.allclose(kept.sum(axis=1), 1.0)
    assert np.array_equal(kept[:, list(GRID_COLUMNS)], prob[:, list(GRID_COLUMNS)])
    assert np.all(out[:, DRINK_COLUMNS] / out[:, rest[:1]] <= prob[:, DRINK_COLUMNS] / prob[:, rest[:1]] * (1 + 1e-9))
