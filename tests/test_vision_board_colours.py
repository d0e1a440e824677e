"""The player colours as one table shows them (companion/vision/board_colours.py): learned from
the pieces the place network read surely, they settle a piece whose colour alone it doubted, and
nothing less clear."""
from __future__ import annotations

import numpy as np

from companion.board_layout import BoardLayout
from companion.vision import board_model
from companion.vision.board_colours import STANDING, TablePalette
from companion.vision.board_pose import PX_PER_MM
from companion.vision.board_read import BoardReader

RED, BLUE, PURPLE = (0.09, 1.41), (0.69, -0.78), (0.96, 0.68)     # hues near the model's palette


def test_a_colour_is_settled_only_among_its_own_and_far_from_the_others():
    palette = TablePalette(("red", "blue", "purple"))
    palette.learn(["red", "red", "blue", "blue"], np.array([RED, RED, BLUE, BLUE]) + [[0, 0], [0.02, 0], [0, 0], [0, 0.02]])
    assert not palette.ready() and not palette.settles("blue", np.array(BLUE))   # no purple piece seen yet
    # purple, none of its pieces read surely yet, by elimination: far from both known colours ...
    assert palette.settles("purple", np.array(PURPLE))
    assert not palette.settles("purple", np.array(BLUE) + (0.0, 0.3))      # ... not merely outside blue's
    palette.learn(["purple", "purple", "yellow"], np.array([PURPLE, PURPLE, (-1.3, 0.16)]))   # yellow: not in play
    assert palette.ready()
    assert palette.settles("blue", np.array(BLUE) + 0.05)
    assert not palette.settles("blue", np.array(BLUE) + 0.3)                       # beyond its own
    assert not palette.settles("purple", np.array(BLUE))                          # among another colour's
    assert not palette.settles("blue", (np.array(BLUE) + PURPLE) / 2)              # between two colours
    assert not palette.settles("yellow", np.array((-1.3, 0.16)))
    palette.learn(["blue"], np.array([[np.nan, 0.0]]))                             # a broken hue is not learned
    assert palette.settles("blue", np.array(BLUE))
    # the latest pieces count: the light changed and the blue pieces with it
    palette.learn(["blue"] * 100, np.tile(np.array(BLUE) + (0.0, 0.4), (100, 1)))
    assert palette.settles("blue", np.array(BLUE) + (0.0, 0.4)) and not palette.settles("blue", np.array(BLUE))


def _reader(players=None) -> BoardReader:
    layout = BoardLayout.default()
    w, h = int(round(layout.sheet[0] * PX_PER_MM)), int(round(layout.sheet[1] * PX_PER_MM))
    return BoardReader(layout, np.full((h, w, 3), 200, np.uint8), players=players)


def _places(reader, rows):
    """Probabilities and measured numbers of every place: all empty, but ``rows`` {place index:
    (name, confidence, hue)} -- a piece surely standing, its colour read at that confidence."""
    names = board_model.feature_names()
    n = len(reader._sampling.spots)
    p = np.zeros((n, len(board_model.CLASSES)))
    p[:, 0] = 1.0
    x = np.zeros((n, len(names)))
    for i, (name, conf, hue) in rows.items():
        p[i] = 0.0
        p[i, board_model.CLASSES.index(name)] = conf
        p[i, board_model.CLASSES.index("purple" if name == "blue" else "blue")] = 1.0 - conf
        x[i, [names.index("chroma_bg"), names.index("chroma_rg")]] = hue
    return p, x


def test_the_reader_settles_a_doubted_colour_by_the_pieces_it_read_surely():
    reader = _reader(players=("red", "blue", "purple"))
    stations = [i for i, s in enumerate(reader._sampling.spots) if s.kind == "pyramid"]
    sure = max(reader.model.sure, 0.999)
    doubt = reader.model.sure - 0.002        # below the bar
    seen = {stations[k]: (c, sure, hue) for k, (c, hue) in enumerate(
        [("red", RED), ("red", RED), ("blue", BLUE), ("blue", BLUE), ("purple", PURPLE), ("purple", PURPLE)])}
    doubted = {stations[10]: ("blue", doubt, BLUE), stations[11]: ("blue", doubt, PURPLE)}
    p, x = _places(reader, {**seen, **doubted})
    settled = reader._settled_colours(p, x)
    # the first is blue as the network leans; the second's hue is this table's purple, the
    # network's runner-up, far from its blue: purple
    blue, purple = board_model.CLASSES.index("blue"), board_model.CLASSES.index("purple")
    assert settled[stations[10]] == blue and settled[stations[11]] == purple and (settled >= 0).sum() == 2
    pieces, unsure, _, _ = reader._assemble(p, x, settled=settled)
    sid = reader._sampling.spots[stations[10]].id
    assert pieces["pyramids"][sid.partition(":")[2]] == "blue" and sid not in unsure
    sid = reader._sampling.spots[stations[11]].id
    assert pieces["pyramids"][sid.partition(":")[2]] == "purple" and sid not in unsure
    # what a table settles it does not learn from: only the network's sure readings teach it
    assert [len(v) for v in reader.table_colours._seen.values()] == [2, 2, 2]
    # a hue between the two (neither colour's on this table) stays in doubt
    p3, x3 = _places(reader, {**seen, stations[13]: ("blue", doubt, tuple((np.array(BLUE) + PURPLE) / 2))})
    settled = reader._settled_colours(p3, x3)
    assert settled[stations[13]] == -1
    assert reader._sampling.spots[stations[13]].id in reader._assemble(p3, x3, settled=settled)[1]
    # a place that may be empty is not settled, however its hue
    p2, x2 = _places(reader, {stations[12]: ("blue", doubt, BLUE)})
    p2[stations[12], 0], p2[stations[12], board_model.CLASSES.index("blue")] = STANDING + 0.03, doubt - STANDING - 0.03
    assert reader._settled_colours(p2, x2)[stations[12]] == -1


def test_a_fresh_table_settles_nothing_until_every_colour_in_play_was_seen():
    reader = _reader()                      # all five colours in play
    stations = [i for i, s in enumerate(reader._sampling.spots) if s.kind == "pyramid"]
    doubt = reader.model.sure - 0.002
    p, x = _places(reader, {stations[0]: ("blue", 0.9999, BLUE), stations[1]: ("blue", 0.9999, BLUE),
                            stations[2]: ("blue", doubt, BLUE)})
    assert (reader._settled_colours(p, x) == -1).all()
