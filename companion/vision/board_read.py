"""Reading the TOKYO METRO board from a camera frame: what stands on every place (issue 29).

:class:`BoardReader` follows the board by its markers (:class:`~.board_pose.BoardTracker`),
rectifies the frame once (the sheet at one pixel per mm, as the empty board's ``reference``
was kept) and reads every place of the layout against the empty board's own look:

1. **Light.** The lamps of a game night change (a lamp switched on, the evening darkening), so
   each frame is first brought to the reference's light: per colour channel, a smooth gain over
   the sheet (a quadratic in x and y of the log ratio frame / reference, fitted robustly: the
   pieces and hands are a small share of the sheet and fall out as outliers).
2. **Hands.** What differs from the empty board is marked on a coarse grid; a region of change
   larger than any group of pieces (an arm, a hand, its shadow) means hands over the board:
   the frame's pieces are not taken (``hands=True``).
3. **Places.** Every place (``layout.spots()``: meeples on fields, pyramids at stations,
   trains at stops, riders beside the track) is described by a few numbers measured in a small
   disc at its middle (where a piece's body always covers its base, seen from any side): how
   much and how much of it differs from the reference, the colour there relative to the sheet's
   paper, the reference's own colour there, and the kind of place. A place whose base barely
   changed is empty; the others are named by a small convolutional network from a square of the
   sheet and of the reference round them and those numbers (``board_net.py``, weights in
   ``models/board_net.npz``, trained by ``tools/learn_board.py`` on rendered boards of the
   training-only "varied" family and the development family; numpy alone at run time): empty,
   one of the five player colours, or a train. A reading less sure than the model's bar
   (``models/board_spots.json``: for empty, a colour, a train -- the train's apart beside a
   drink) is ``unsure``, unless it is a piece surely standing whose colour this table's own
   pieces settle (``board_colours.TablePalette``); a piece whose colour is far from every
   player's colour of the palette (the model's, learned from the training looks, or the table's
   calibrated ``colours``) is unsure and said in ``problems``.
4. **Values.** Each line's value marker is found along its lane of the revenue track by the
   value network (``board_value_net.py``; the rules of ``board_values.py`` when no value model
   is committed): its value space, no marker, or ``value:<L>`` unsure.
5. **The whole board.** A colour's meeple at two places: both unsure. A line's train at two
   stops: both unsure. A colour no player has (``players``): unsure and a problem.
6. **Drinks** (METRO DRINKS). Each station's drink place is read apart (``board_drinks.py``):
   empty or a drink's colour, or ``drink:<id>`` unsure.

The reading is a :class:`~companion.board_pieces.BoardReading`; ``unsure`` places are left out of
every comparison by the table, so a confident reading must be right and a doubtful one says so.
"""
from __future__ import annotations

import time
from functools import partial

import cv2
import numpy as np

from ..board_layout import BoardLayout
from ..board_pieces import PLAYER_COLOURS, BoardReading, Pieces
from .board_align import FrameAlign
from .board_colours import STANDING, TablePalette, far_from_palette, hue_palette
from .board_drinks import DrinkSpots, Maps
from .board_hands import HandSearch
from .board_model import CLASSES, SpotModel, feature_names, spot_model
from .board_model import asked as asked_places  # (``asked`` is a local name below)
from .board_net import PAPER_EPS, patches
from .board_pose import PX_PER_MM, BoardTracker, Pose, rectify
from .board_sampling import ONES, edges_of, indices, lean_at, median_of, outside, relight, sampling
from .board_value_net import LearnedLanes, value_model
from .board_values import ValueLanes

_CHROMA = [feature_names().index("chroma_bg"), feature_names().index("chroma_rg")]   # a place's hue

DRINK_TOP_MM = 35.0      # the tallest drink (METRO DRINKS): how far up a drink place's change may reach
BESIDE_DRINK_MM = 12.0   # a field whose middle lies this near a drink (base to leaning top) is in its way
TOLERANCE = 2            # px (mm): how far the pose may be off and a thin printed line still be the board's
MARKERS_WORDS = ("No board markers found: lay the printed markers at the board's corners "
                 "(companion calibrate print-board-markers) and keep them in the camera's view.")


# --- the reader ---------------------------------------------------------------------------------

class BoardReader:
    """Reads frames of one board under one camera. ``reference``: the empty board rectified by
    ``board_pose.rectify`` (the calibration keeps it). ``colours``: the table's calibrated piece
    colours (colour -> BGR of the piece under the reference's light), else the model's palette.
    ``players``: the colours in play (a piece of another colour is a problem); all five by
    default. ``tracker``: the pose follower (one per camera stream; made here by default)."""

    def __init__(self, layout: BoardLayout, reference: np.ndarray, colours: dict | None = None,
                 players: tuple[str, ...] | None = None, model: SpotModel | None = None,
                 tracker: BoardTracker | None = None):
        if reference is None or reference.ndim != 3 or reference.shape[2] != 3:
            raise ValueError("the reference is the empty board rectified to the sheet (a colour image)")
        self.layout = layout
        w, h = int(round(layout.sheet[0] * PX_PER_MM)), int(round(layout.sheet[1] * PX_PER_MM))
        if reference.shape[:2] != (h, w):
            reference = cv2.resize(reference, (w, h), interpolation=cv2.INTER_AREA)
        self.reference = reference.astype(np.float32)
        self.model = model or spot_model()
        self.tracker = tracker or BoardTracker(layout)
        self.last_pose: Pose | None = None      # where the board lay in the latest frame read
        self.players = tuple(players) if players else PLAYER_COLOURS
        self._sampling = sampling(layout)
        self._station_index = {s.id: i for i, s in enumerate(self._sampling.spots) if s.kind == "pyramid"}
        self._shape = (h, w)
        flat = self.reference.reshape(-1, 3)
        # the paper: the sheet's brightest common colour (its median is print and paper mixed)
        luma = flat.sum(axis=1)
        self.paper = np.median(flat[luma >= np.quantile(luma, 0.6)], axis=0)
        # the reference's darkest and lightest within TOLERANCE mm of each pixel: a pixel inside
        # that range is the empty board's own (a pose a pixel off, a thin line resampled
        # otherwise after a bump, make no change)
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * TOLERANCE + 1, 2 * TOLERANCE + 1))
        self._lo_img = cv2.erode(self.reference, kernel)
        self._hi_img = cv2.dilate(self.reference, kernel)
        self._lo, self._hi = self._lo_img.reshape(-1, 3), self._hi_img.reshape(-1, 3)
        self._flat_ref = flat
        self._ref_luma = flat @ ONES
        # the empty board's edges (their strength), with the same tolerance: a piece brings
        # edges of its own and hides the print's (a pale piece on a pale stop shows by its outline)
        g = edges_of(self.reference)
        self._edge_lo = cv2.erode(g, kernel).ravel()
        self._edge_hi = cv2.dilate(g, kernel).ravel()
        self._probe = np.random.default_rng(0).choice(len(flat), size=min(len(flat), 8000), replace=False)
        self.palette = hue_palette(colours, self.paper, self.model)
        self.table_colours = TablePalette(self.players)     # the colours as this table shows them
        # the value markers: the learned lanes when a value model is committed, else the rules' way
        learned = value_model()
        self.lanes = (LearnedLanes(layout, self.reference, self.paper, learned) if learned is not None
                      else ValueLanes(layout, self.reference, self.paper, self._probe))
        self.drink_spots = DrinkSpots(layout, self.reference, self.paper, PX_PER_MM)
        # per place and drink place: whether a drink there stands within the model's clear_mm
        # (the places beside it are read with the bars of places near a drink)
        places = np.array([(spot.x, spot.y) for spot in self._sampling.spots], np.float64).reshape(-1, 2)
        drinks = np.array([(spot.x, spot.y) for spot in self.drink_spots.spots], np.float64).reshape(-1, 2)
        self._drink_index = {spot_id: i for i, spot_id in enumerate(self.drink_spots.ids)}
        self._near_drink = np.hypot(*(places[:, None, :] - drinks[None, :, :]).transpose(2, 0, 1)) < self.model.clear_mm
        self.hand_search = HandSearch(self.reference, self.paper)
        # a frame held by fewer than three markers: its pose checked against the print (board_align.py)
        self.align = FrameAlign(layout, self.reference)

    # --- public -------------------------------------------------------------------------------

    def read(self, frame: np.ndarray) -> BoardReading:
        t0 = time.perf_counter()
        if frame is None or frame.ndim != 3 or frame.shape[2] != 3 or min(frame.shape[:2]) < 32:
            words = "The board camera's frame is empty or not a colour image."
            return BoardReading(pose="lost", problems=[words], codes={"camera_error": words})
        pose = self.tracker.locate(frame)
        if pose.state == "lost":
            self.last_pose = pose
            return self._lost(pose, t0)
        pose = self.last_pose = self.align.pose(frame, pose)
        sheet = self.sheet(frame, pose)
        return self.read_sheet(sheet, pose, t0)

    def lean(self, pose: Pose | None) -> np.ndarray:
        """Per place: how far (px, x and y) the part of its piece worth looking at appears from
        its base in the rectified sheet (away from the point under the camera)."""
        return lean_at(pose, self._sampling.centres, self._sampling.heights)

    def sheet(self, frame: np.ndarray, pose: Pose) -> np.ndarray:
        """The frame's sheet in the reference's light (float32 BGR, 1 px per mm)."""
        rect = rectify(frame, pose, self.layout).astype(np.float32)
        return relight(rect, self.reference)

    def read_sheet(self, sheet: np.ndarray, pose: Pose, t0: float | None = None) -> BoardReading:
        t0 = time.perf_counter() if t0 is None else t0
        hands, changed = self._hands(sheet, pose)
        problems: list[str] = []
        if pose.state == "held":
            problems.append(f"Only {pose.markers} of the 4 board markers in view: the board's last place is held.")
        if hands:
            return BoardReading(hands=True, markers=pose.markers, pose=pose.state, problems=problems,
                                ms=self._ms(t0))
        noise = self._noise(sheet.reshape(-1, 3))
        lean = self.lean(pose)
        maps = self.maps(sheet)
        x = self.features(sheet, noise, lean, maps)
        p = self.names(x, sheet, self._sampling.centres + lean)
        settled = self._settled_colours(p, x)
        drinks: dict[str, str] = {}
        d_unsure: list[str] = []
        if self.drink_spots.spots:
            # first with the bars of places near a drink everywhere: the pyramids the drinks stand by
            pieces, unsure, _, _ = self._assemble(p, x, settled=settled)
            lean_of = partial(lean_at, pose)      # (centres, heights) -> how far those points show from them
            dx = self.drink_spots.features(sheet, maps, noise, lean_of)
            # a vending machine stands only at a station with a pyramid; a station read with
            # doubt makes its drink place doubtful, unless the doubt is only which colour the
            # pyramid is (the pose and lens that found it there found the drink place too)
            doubtful = {u.partition(":")[2] for u in unsure if u.startswith("station:")}
            standing = self._surely_standing(p, doubtful)
            drinks, d_unsure = self.drink_spots.read(dx, set(pieces["pyramids"]) | standing, doubtful - standing,
                                                     lambda rows: self.drink_spots.squares(sheet, lean_of, rows))
        # then every place with its own bars: those clear of the drinks read and of the drink places
        # left in doubt with the bars of places clear of drinks (a station beside its own drink
        # keeps the first's)
        clear = self._clear_of(drinks, d_unsure) if self.model.clear_mm > 0 else None
        pieces, unsure, more, codes = self._assemble(p, x, clear, settled)
        problems += more
        unsure += d_unsure
        if drinks:
            unsure = self._beside_drinks(unsure, p, drinks, pose)
        values, v_unsure = self.lanes.read(sheet, pose, self.model.value_peak)
        unsure += v_unsure
        pieces = Pieces(pyramids=pieces["pyramids"], meeples=pieces["meeples"], trains=pieces["trains"],
                        values=values, drinks=drinks)
        return BoardReading(pieces=pieces, unsure=sorted(set(unsure))[:2000], hands=False, markers=pose.markers,
                            pose=pose.state, problems=problems[:20], ms=self._ms(t0),
                            codes=codes)

    def names(self, x: np.ndarray, sheet: np.ndarray, at: np.ndarray) -> np.ndarray:
        """Per place, the probability of each name (CLASSES). A place whose base shows next to no
        change is empty (``NO_CHANGE``: the network is not asked); the others are named by the
        network from their squares round ``at`` (where each place's piece is looked at) and their
        measured numbers ``x``."""
        p = np.zeros((len(x), len(CLASSES)))
        p[:, 0] = 1.0
        asked = np.flatnonzero(asked_places(x))
        if len(asked):
            squares = patches(sheet, self.reference, self.paper, at[asked])
            p[asked] = self.model.probabilities_of(squares, x[asked])
        return p

    # --- features -----------------------------------------------------------------------------

    def maps(self, sheet: np.ndarray) -> Maps:
        """Per pixel, once a frame: how far the sheet lies outside the empty board's local range
        (darker and lighter, against the paper), the change of the print's edges, the brightness."""
        scale = float(self.paper.sum())
        edges = edges_of(sheet).ravel()
        return Maps(darker=(np.maximum(self._lo_img - sheet, 0) @ ONES).ravel() / scale,
                    lighter=(np.maximum(sheet - self._hi_img, 0) @ ONES).ravel() / scale,
                    edges=np.maximum(edges - self._edge_hi, 0) + np.maximum(self._edge_lo - edges, 0),
                    luma=(sheet @ ONES).ravel())

    def features(self, sheet: np.ndarray, noise: float | None = None, lean: np.ndarray | None = None,
                 maps: Maps | None = None) -> np.ndarray:
        """Every place's inputs to the model (n x N_FEATURES), relative to the reference and the
        sheet's paper: no absolute colour or brightness goes in. ``lean``: per place, where its
        piece is looked at from its base (:meth:`lean`); ``maps``: the frame's :meth:`maps`."""
        flat = sheet.reshape(-1, 3)
        s = self._sampling
        at = s.centres if lean is None else s.centres + lean
        inner = indices(at, s.inner, self._shape)
        ring_i = indices(at, s.ring, self._shape)
        px, ref = flat[inner], self._flat_ref[inner]          # (n, k, 3)
        scale = float(self.paper.sum())
        # per pixel once (one channel each), then gathered: quicker than gathering colours
        maps = self.maps(sheet) if maps is None else maps
        darker_map, lighter_map, edge_map, luma_map = maps.darker, maps.lighter, maps.edges, maps.luma
        change_map = darker_map + lighter_map
        base_i = indices(at, s.base, self._shape)
        darker, lighter = darker_map[base_i], lighter_map[base_i]
        base_d = darker + lighter
        edge_change = edge_map[base_i]
        noise = self._noise(flat) if noise is None else noise
        d = change_map[inner]                                  # (n, k)
        med = median_of(px)
        paper = self.paper + PAPER_EPS
        colour = np.log((med + PAPER_EPS) / paper)
        # hue against the paper's: the lamp's own colour (warm, cool) cancels out
        chroma_bg = colour[:, 0] - colour[:, 1]
        chroma_rg = colour[:, 2] - colour[:, 1]
        bright = np.log((med.sum(axis=1) + 3 * PAPER_EPS) / paper.sum())
        ref_med = median_of(ref)
        refc = np.log((ref_med + PAPER_EPS) / paper)
        diff = (med - ref_med) / paper
        luma = luma_map[inner] / scale
        spread = luma.std(axis=1)
        ring_change = change_map[ring_i].mean(axis=1)
        ring_bright = np.log((luma_map[ring_i].mean(axis=1) + 3 * PAPER_EPS) / (self._ref_luma[ring_i].mean(axis=1) + 3 * PAPER_EPS))
        return np.column_stack([
            d.mean(axis=1), (d > 3 * noise).mean(axis=1), (d > 6 * noise).mean(axis=1), spread,
            base_d.mean(axis=1), (base_d > 3 * noise).mean(axis=1), edge_change.mean(axis=1) / scale,
            darker.mean(axis=1), lighter.mean(axis=1),
            colour, chroma_bg, chroma_rg, bright, refc, diff, ring_change, ring_bright, s.kinds])

    def _noise(self, flat: np.ndarray) -> float:
        """The frame's typical difference from the reference on the bare sheet (relative to the
        paper): the sensor's noise and what the light's fit left; a floor against a perfect match."""
        d = outside(flat[self._probe], self._lo[self._probe], self._hi[self._probe]) / float(self.paper.sum())
        return max(float(np.partition(d, len(d) // 2)[len(d) // 2]), 0.01)

    # --- hands --------------------------------------------------------------------------------

    def _hands(self, sheet: np.ndarray, pose: Pose | None = None) -> tuple[bool, np.ndarray]:
        """Whether a hand is over the board, and the coarse grid of change (``board_hands.py``);
        the drink places' tallest drinks lean as the pose says."""
        centres = self.drink_spots.centres
        tops = centres + lean_at(pose, centres, np.full(len(centres), DRINK_TOP_MM)) if len(centres) else centres
        return self.hand_search.find(sheet, centres, tops)

    def _clear_of(self, drinks: dict[str, str], doubtful: list[str]) -> np.ndarray:
        """Per place: no drink read, and no drink place left in doubt, within the model's clear_mm."""
        at = self._drink_index
        maybe = [at[f"drink:{sid}"] for sid in drinks] + [at[d] for d in doubtful if d in at]
        return ~self._near_drink[:, maybe].any(axis=1)

    def _surely_standing(self, p: np.ndarray, stations: set[str]) -> set[str]:
        """Those of ``stations`` where a pyramid surely stands, whatever its colour: the place
        network's p(empty) at most STANDING (as for settling a colour by the table's own)."""
        index = self._station_index
        return {sid for sid in stations if f"station:{sid}" in index and p[index[f"station:{sid}"], 0] <= STANDING}

    def _beside_drinks(self, unsure: list[str], p: np.ndarray, drinks: dict[str, str], pose: Pose) -> list[str]:
        """A meeple field, station or train stop read with doubt, more likely empty, where a drink
        read surely stands over it (its body leaning that way, or its shadow) is empty: the drink
        is what changed there (a second opinion: the place network has seen drinks since its sixth
        session's training, but not every drink's lean and shadow). A place more likely holding a
        piece stays unsure, and a station's own drink says nothing of its own pyramid."""
        s = self._sampling
        index = {spot.id: i for i, spot in enumerate(s.spots)}
        doubtful = [u for u in unsure if u.startswith(("field:", "station:", "stop:")) and u in index
                    and p[index[u]].argmax() == 0]
        if not doubtful:
            return unsure
        stations = list(drinks)
        at = self._drink_index
        base = self.drink_spots.centres[[at[f"drink:{sid}"] for sid in stations]]
        top = base + lean_at(pose, base, np.full(len(base), DRINK_TOP_MM))
        clear = set()
        for u in doubtful:
            c = s.centres[index[u]]
            ab = top - base
            t = np.clip(((c - base) * ab).sum(1) / np.maximum((ab * ab).sum(1), 1e-9), 0, 1)
            dist = np.hypot(*(base + t[:, None] * ab - c).T) / PX_PER_MM
            # a station's own drink says nothing against its own pyramid (it needs one)
            own = np.array([u == f"station:{sid}" for sid in stations], bool)
            d = dist[~own].min() if (~own).any() else np.inf
            if d <= BESIDE_DRINK_MM:
                clear.add(u)
        return [u for u in unsure if u not in clear]

    # --- the whole board ----------------------------------------------------------------------

    def _far_from_palette(self, x: np.ndarray) -> np.ndarray:
        """Per place: its colour's distance from the nearest player colour, as a share of that
        colour's bar (above 1: no player's colour)."""
        return far_from_palette(x[:, _CHROMA], self.palette, self.model)

    def _settled_colours(self, p: np.ndarray, x: np.ndarray) -> np.ndarray:
        """Per place: the colour (a CLASSES index; -1: none) of a piece surely standing whose
        colour, read below the bar, this table's own pieces settle (``board_colours.py``): the
        colour the network leans to, or else its runner-up (a table's lamp can push one colour's
        pieces towards another's look on every piece of it; the table's own hues still part
        them). The pieces read surely first join what the table has shown (those settled do
        not: the palette learns from the network's sure readings)."""
        order = np.argsort(-p, axis=1)
        best, second = order[:, 0], order[:, 1]
        conf = p[np.arange(len(p)), best]
        chroma = x[:, _CHROMA]
        colours = [CLASSES.index(c) for c in self.players]
        in_play = np.isin(best, colours)
        fits = in_play & (self._far_from_palette(x) <= 1.0)      # not "no player's colour"
        sure = fits & (conf >= self.model.bars(best))
        self.table_colours.learn([CLASSES[b] for b in best[sure]], chroma[sure])
        doubted = np.flatnonzero(fits & ~sure & (p[:, 0] <= STANDING))
        settled = np.full(len(p), -1)
        for i in doubted:
            for c in (best[i], second[i]):
                if c in colours and self.table_colours.settles(CLASSES[c], chroma[i]):
                    settled[i] = c
                    break
        return settled

    def _assemble(self, p: np.ndarray, x: np.ndarray, clear: np.ndarray | None = None,
                  settled: np.ndarray | None = None):
        """The pieces, the places read with doubt, problems and their codes, from the places'
        probabilities ``p`` (``clear``: which places are read with the bars clear of drinks;
        ``settled``: per place the colour the table's own settled, read as sure; -1: none)."""
        s = self._sampling
        best = p.argmax(axis=1)
        conf = p[np.arange(len(p)), best]
        sure = conf >= self.model.bars(best, clear)
        if settled is not None:
            sure |= settled >= 0
            best = np.where(settled >= 0, settled, best)
        far = self._far_from_palette(x)
        unsure: list[str] = []
        problems: list[str] = []
        colour_words: list[str] = []     # the pieces of no player's colour (code unknown_colour)
        pyramids: dict[str, str] = {}
        meeple_at: dict[str, list[tuple[str, str]]] = {}
        train_at: dict[str, list[int]] = {}
        doubtful_stops: dict[str, list[tuple[str, str]]] = {}
        occupied = p[:, 0] < 0.5
        for i, spot in enumerate(s.spots):
            name = CLASSES[best[i]]
            if spot.kind != "train" and occupied[i] and far[i] > 1.0:
                # a piece, but of no player's colour (whatever the model made of it)
                unsure.append(spot.id)
                colour_words.append(f"A piece at {spot.id} matches no player's colour.")
                if len(problems) < 10:
                    problems.append(colour_words[-1])
                continue
            if not sure[i]:
                if spot.kind == "train":        # settled below, with the line's other stops
                    doubtful_stops.setdefault(spot.id.split(":")[1], []).append((spot.id, name))
                else:
                    unsure.append(spot.id)
                continue
            if name == "empty":
                continue
            if name in PLAYER_COLOURS and name not in self.players:
                unsure.append(spot.id)
                colour_words.append(f"A piece at {spot.id} matches no player's colour (it looks {name}, not in play).")
                if len(problems) < 10:
                    problems.append(colour_words[-1])
                continue
            kind, _, rest = spot.id.partition(":")
            if spot.kind == "pyramid":
                pyramids[rest] = name
            elif spot.kind in ("meeple", "rider"):
                place = spot.id if spot.kind == "meeple" else "ride:" + rest.split(":")[0]
                meeple_at.setdefault(name, []).append((place, spot.id))
            elif spot.kind == "train":
                letter, k = rest.split(":")
                train_at.setdefault(letter, []).append(int(k))
        meeples = {}
        for colour, places in meeple_at.items():
            if len(places) == 1:
                meeples[colour] = places[0][0]
            else:
                unsure += [sid for _, sid in places]
                problems.append(f"The {colour} meeple is seen at {len(places)} places.")
        trains = {}
        for letter, ks in train_at.items():
            if len(ks) == 1:
                trains[letter] = ks[0]
            else:
                unsure += [f"stop:{letter}:{k}" for k in ks]
        # a line has one train: where it stands surely, a doubtful stop of the same line that is
        # more likely empty is empty (a pale stop beside a pyramid, a neighbour's shadow)
        for letter, stops in doubtful_stops.items():
            for sid, name in stops:
                if not (len(train_at.get(letter, ())) == 1 and name == "empty"):
                    unsure.append(sid)
        codes = {"unknown_colour": colour_words[0]} if colour_words else {}
        return {"pyramids": pyramids, "meeples": meeples, "trains": trains}, unsure, problems, codes

    # --- no board -----------------------------------------------------------------------------

    def _lost(self, pose: Pose, t0: float) -> BoardReading:
        if pose.markers == 0:
            words = MARKERS_WORDS
        else:
            words = (f"Only {pose.markers} of the 4 board markers found: the board cannot be placed. "
                     "Keep at least two markers (better all four) in the camera's view, uncovered.")
        return BoardReading(pose="lost", markers=pose.markers, problems=[words], ms=self._ms(t0))

    @staticmethod
    def _ms(t0: float) -> float:
        return round((time.perf_counter() - t0) * 1000.0, 2)
