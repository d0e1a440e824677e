"""Build the default TOKYO METRO board (``tokyo_board.json``) from the public-domain station lists.

Run from the repository root (it reads ``../shared/data/tokyo-subway`` only here, at build time;
the package loads the committed JSON at run time)::

    .venv/bin/python companion/rules/metro/data/build_board.py [--source DIR] [--out FILE]

What it does, step by step (every step is an approximation, and the board says so):

1. Reads the stations of the 12 game lines G M H T C Y Z N A I S E (not F, not the Marunouchi
   branch) in their order along each line.
2. Groups stops into stations: stops with the same name, plus the interchange complexes of
   ``transitions.csv`` whose two halves have different names (listed in ``COMPLEXES``; that file
   numbers the Hibiya line from before Toranomon Hills opened, so it is read by name here).
3. Removes smaller stations, as the printed board does: terminals and interchanges stay; in each
   run of plain stops between them every other stop stays (a run of 1 stays, 2 keeps 1, 3 keeps 2).
4. Gives every station a position: interchanges, terminals and a few bends have approximate
   coordinates (``ANCHORS``, latitude/longitude from general knowledge of the city); the other
   stops are spaced evenly along their line between anchors. The centre is spread out (distances
   from Otemachi are raised to the power 0.62) the way schematic metro maps do.
5. Snaps the stations onto the half-field lattice of a ``COLS`` x ``ROWS`` grid, nearest free point
   first, keeping different stations at least one field apart. A station with several stops gets
   1 to 3 stop circles next to each other (2 stops share 1 circle where two lines cross, 3-4 stops
   get 2 circles, 5 or more get 3); a line with two stops in one station uses two circles.
6. Lists for each circle the fields that touch it (a circle on a corner touches 4 fields, on an edge
   2, inside a field 1), and marks the central fields as the round-1 placement area.
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_SOURCE = HERE.parents[3].parent / "shared" / "data" / "tokyo-subway"

GAME_LINES = ("G", "M", "H", "T", "C", "Y", "Z", "N", "A", "I", "S", "E")
COLOURS = {"G": "#F39700", "M": "#E60012", "H": "#9CAEB7", "T": "#00A7DB", "C": "#009944",
           "Y": "#C1A470", "Z": "#8F76D6", "N": "#00AC9B", "A": "#E85298", "I": "#0079C2",
           "S": "#6CBB5A", "E": "#B6007A"}
COLS, ROWS = 24, 17
START_AREA = {"col": 8, "row": 5, "cols": 8, "rows": 6}
DISC_SPACES = 3
SHARES = 3

# Interchange complexes whose parts carry different names (step 2).
COMPLEXES = [
    ("Tameike-sanno", "Kokkai-gijidomae"),
    ("Akasaka-mitsuke", "Nagatacho"),
    ("Hibiya", "Yurakucho"),
    ("Shin-ochanomizu", "Ogawamachi", "Awajicho"),
    ("Kasuga", "Korakuen"),
    ("Shinjuku", "Shinjuku-nishiguchi"),
    ("Higashi-Nihombashi", "Bakuro yokoyama"),
    ("Ueno-okachimachi", "Ueno-hirokoji", "Naka-okachimachi"),
]

# Approximate latitude/longitude of interchanges, terminals and bends (step 4).
ANCHORS = {
    "Otemachi": (35.6867, 139.7640), "Iidabashi": (35.7020, 139.7450), "Shinjuku": (35.6905, 139.7000),
    "Omote-sando": (35.6652, 139.7123), "Nihombashi": (35.6820, 139.7740),
    "Akasaka-mitsuke": (35.6772, 139.7375), "Kudanshita": (35.6955, 139.7515),
    "Kasumigaseki": (35.6735, 139.7505), "Jimbocho": (35.6960, 139.7575), "Ichigaya": (35.6915, 139.7355),
    "Hibiya": (35.6745, 139.7605), "Ginza": (35.6717, 139.7650), "Aoyama-itchome": (35.6727, 139.7240),
    "Yotsuya": (35.6860, 139.7300), "Ueno": (35.7115, 139.7770), "Tsukishima": (35.6645, 139.7840),
    "Tameike-sanno": (35.6730, 139.7425), "Sumiyoshi": (35.6895, 139.8155),
    "Shirokanedai": (35.6380, 139.7260), "Shirokane-takanawa": (35.6430, 139.7345),
    "Shinjuku-sanchome": (35.6905, 139.7065), "Shimbashi": (35.6665, 139.7585), "Shibuya": (35.6585, 139.7015),
    "Roppongi": (35.6630, 139.7320), "Oshiage <SKYTREE>": (35.7105, 139.8135), "Ningyocho": (35.6865, 139.7820),
    "Nakano-sakaue": (35.6970, 139.6830), "Morishita": (35.6880, 139.7970),
    "Monzen-nakacho": (35.6720, 139.7960), "Mitsukoshimae": (35.6865, 139.7730), "Mita": (35.6485, 139.7485),
    "Meguro": (35.6335, 139.7155), "Kuramae": (35.7030, 139.7910), "Kasuga": (35.7085, 139.7525),
    "Kiyosumi-shirakawa": (35.6820, 139.7990), "Kita-senju": (35.7495, 139.8050),
    "Kayabacho": (35.6800, 139.7800), "Ikebukuro": (35.7300, 139.7110), "Hongo-sanchome": (35.7075, 139.7600),
    "Higashi-ginza": (35.6695, 139.7670), "Daimon": (35.6565, 139.7550), "Azabu-juban": (35.6545, 139.7370),
    "Asakusa": (35.7110, 139.7970), "Shin-ochanomizu": (35.6965, 139.7665),
    "Ueno-okachimachi": (35.7080, 139.7735), "Higashi-Nihombashi": (35.6920, 139.7845),
    # terminals
    "Ogikubo": (35.7045, 139.6200), "Naka-meguro": (35.6440, 139.6985), "Nakano": (35.7065, 139.6655),
    "Nishi-funabashi": (35.7080, 139.9590), "Yoyogi-uehara": (35.6690, 139.6800),
    "Kita-ayase": (35.7770, 139.8315), "Wakoshi": (35.7880, 139.6125), "Shin-kiba": (35.6460, 139.8270),
    "Akabane-iwabuchi": (35.7835, 139.7220), "Hikarigaoka": (35.7585, 139.6285),
    "Motoyawata": (35.7215, 139.9270), "Nishi-takashimadaira": (35.7920, 139.6460),
    "Nishi-magome": (35.5870, 139.7060),
    # bends
    "Takadanobaba": (35.7125, 139.7040), "Kiba": (35.6695, 139.8065), "Urayasu": (35.6660, 139.8935),
    "Nishi-nippori": (35.7320, 139.7670), "Machiya": (35.7425, 139.7805),
    "Meiji-jingumae <Harajuku>": (35.6685, 139.7050), "Kotake-mukaihara": (35.7430, 139.6800),
    "Edogawabashi": (35.7095, 139.7335), "Toyosu": (35.6550, 139.7960), "Kinshicho": (35.6965, 139.8145),
    "Suitengumae": (35.6830, 139.7850), "Todaimae": (35.7170, 139.7580), "Komagome": (35.7365, 139.7470),
    "Oji": (35.7535, 139.7380), "Roppongi-itchome": (35.6655, 139.7390),
    "Higashi-shinjuku": (35.6990, 139.7075), "Ushigome-kagurazaka": (35.7000, 139.7370),
    "Ryogoku": (35.6970, 139.7975), "Kachidoki": (35.6590, 139.7765), "Shiodome": (35.6630, 139.7600),
    "Akabanebashi": (35.6550, 139.7440), "Kokuritsu-kyogijo": (35.6800, 139.7150),
    "Tochomae": (35.6905, 139.6925), "Higashi-nakano": (35.7060, 139.6820), "Netima": (35.7375, 139.6545),
    "Ochiai-minami-nagasaki": (35.7245, 139.6750), "Akebonobashi": (35.6925, 139.7230),
    "Nishi-ojima": (35.6895, 139.8265), "Funabori": (35.6835, 139.8645), "Mizue": (35.6930, 139.8975),
    "Uchisaiwaicho": (35.6700, 139.7555), "Onairimon": (35.6610, 139.7515), "Sugamo": (35.7335, 139.7395),
    "Itabashi-kuyakushomae": (35.7510, 139.7095), "Takashimadaira": (35.7880, 139.6610),
    "Gotanda": (35.6260, 139.7235), "Sengakuji": (35.6385, 139.7395), "Nakanobu": (35.6110, 139.7125),
    "Asakusabashi": (35.6975, 139.7865), "Honjo-azumabashi": (35.7080, 139.8040),
    "Toranomon": (35.6700, 139.7495), "Kanda": (35.6935, 139.7710), "Gaiemmae": (35.6705, 139.7175),
    "Ebisu": (35.6470, 139.7100), "Kamiyacho": (35.6630, 139.7440), "Tsukiji": (35.6680, 139.7725),
    "Akihabara": (35.6985, 139.7745), "Minami-senju": (35.7330, 139.7985), "Iriya": (35.7205, 139.7840),
    "Ochanomizu": (35.7000, 139.7640), "Tokyo": (35.6815, 139.7665), "Shin-otsuka": (35.7255, 139.7300),
}
CENTRE = (35.6840, 139.7600)
POWER = 0.45


def norm(name: str) -> str:
    return re.sub(r"\s+", " ", name.replace("\u3000", " ")).strip()


def read_stops(source: Path) -> dict[str, list[tuple[int, str, str]]]:
    names_ja = {(l, int(n)): norm(name) for l, n, name in csv.reader(open(source / "stations_jap.csv", encoding="utf-8"))}
    lines: dict[str, list[tuple[int, str, str]]] = {l: [] for l in GAME_LINES}
    for letter, number, name in csv.reader(open(source / "stations_eng.csv", encoding="utf-8")):
        if letter in lines:
            lines[letter].append((int(number), norm(name), names_ja.get((letter, int(number)), "")))
    for letter in lines:
        lines[letter].sort()
    return lines


def line_names(source: Path) -> dict[str, str]:
    return {row[0]: norm(row[1]) for row in csv.reader(open(source / "lines_eng.csv", encoding="utf-8"))}


def group_of(name: str) -> str:
    for complex_ in COMPLEXES:
        if name in complex_:
            return complex_[0]
    return name


ANCHOR_GROUPS = {group_of(name) for name in ANCHORS}


def thin(lines, group=None):
    """Step 3: the stops each line keeps (a list of (number, name, name_ja) per line); ``group``
    names the station a stop belongs to (this board's complexes by default)."""
    group_of = group or globals()["group_of"]
    serving: dict[str, set[str]] = {}
    for letter, stops in lines.items():
        for _, name, _ in stops:
            serving.setdefault(group_of(name), set()).add(letter)
    kept = {}
    for letter, stops in lines.items():
        important = [i == 0 or i == len(stops) - 1 or len(serving[group_of(s[1])]) > 1
                     or sum(group_of(t[1]) == group_of(s[1]) for t in stops) > 1
                     for i, s in enumerate(stops)]
        keep, i = [], 0
        while i < len(stops):
            if important[i]:
                keep.append(stops[i])
                i += 1
                continue
            j = i
            while j < len(stops) and not important[j]:
                j += 1
            run = stops[i:j]
            first = 0 if len(run) % 2 else 1
            keep.extend(run[first::2])
            i = j
        kept[letter] = keep
    return kept


def project(lat: float, lon: float, centre=CENTRE, power: float = POWER) -> tuple[float, float]:
    """km east and south of ``centre``, spread out like a schematic map (distance ** ``power``)."""
    x = (lon - centre[1]) * 111.32 * math.cos(math.radians(centre[0]))
    y = (centre[0] - lat) * 110.57
    r = math.hypot(x, y)
    if r == 0:
        return 0.0, 0.0
    scale = r ** power / r
    return x * scale, y * scale


def positions(kept) -> dict[str, tuple[float, float]]:
    """Step 4: a projected position for every station group."""
    pos: dict[str, tuple[float, float]] = {}
    for name, (lat, lon) in ANCHORS.items():
        pos[group_of(name)] = project(lat, lon)
    for letter, stops in kept.items():
        groups = [group_of(s[1]) for s in stops]
        numbers = [s[0] for s in stops]
        anchored = [i for i, g in enumerate(groups) if g in ANCHOR_GROUPS]
        if anchored[0] != 0 or anchored[-1] != len(stops) - 1:
            raise SystemExit(f"line {letter}: its terminals need anchors")
        for a, b in zip(anchored, anchored[1:]):
            pa, pb = pos[groups[a]], pos[groups[b]]
            for i in range(a + 1, b):
                if groups[i] in pos:
                    continue
                t = (numbers[i] - numbers[a]) / (numbers[b] - numbers[a])
                pos[groups[i]] = (pa[0] + t * (pb[0] - pa[0]), pa[1] + t * (pb[1] - pa[1]))
    return pos


def circle_count(stop_count: int) -> int:
    return 1 if stop_count <= 2 else 2 if stop_count <= 4 else 3


def relax(stations, pos, rounds: int = 600, cols: int = COLS, rows: int = ROWS) -> dict[str, tuple[float, float]]:
    """Fit the projected positions to the grid (field units), then push apart stations that are
    closer than about one field, while a weak pull keeps each near its projected place."""
    groups = sorted(stations)
    xs = [pos[g][0] for g in groups]
    ys = [pos[g][1] for g in groups]
    margin = 1.2
    sx = (cols - 2 * margin) / (max(xs) - min(xs))
    sy = (rows - 2 * margin) / (max(ys) - min(ys))
    home = [(margin + (x - min(xs)) * sx, margin + (y - min(ys)) * sy) for x, y in zip(xs, ys)]
    size = [0.5 * (circle_count(len(stations[g]["stops"])) - 1) for g in groups]
    p = [list(h) for h in home]
    n = len(groups)
    for step in range(rounds):
        move = [[0.02 * (home[i][0] - p[i][0]), 0.02 * (home[i][1] - p[i][1])] for i in range(n)]
        for i in range(n):
            for j in range(i + 1, n):
                dx, dy = p[j][0] - p[i][0], p[j][1] - p[i][1]
                d = math.hypot(dx, dy) or 1e-6
                need = 1.15 + 0.7 * (size[i] + size[j])
                if d < need:
                    push = 0.2 * (need - d) / d
                    move[i][0] -= dx * push
                    move[i][1] -= dy * push
                    move[j][0] += dx * push
                    move[j][1] += dy * push
        for i in range(n):
            p[i][0] = min(cols - 0.6, max(0.6, p[i][0] + move[i][0]))
            p[i][1] = min(rows - 0.6, max(0.6, p[i][1] + move[i][1]))
    return {g: (p[i][0], p[i][1]) for i, g in enumerate(groups)}


def layout(kept, pos, group=None, cols: int = COLS, rows: int = ROWS):
    """Step 5: lattice points (half-field units) for each station's circles."""
    group_of = group or globals()["group_of"]
    stations: dict[str, dict] = {}
    for letter, stops in kept.items():
        for number, name, name_ja in stops:
            g = group_of(name)
            st = stations.setdefault(g, {"names": [], "names_ja": [], "stops": []})
            if name not in st["names"]:
                st["names"].append(name)
                st["names_ja"].append(name_ja)
            st["stops"].append((letter, number))
    placed = relax(stations, pos, cols=cols, rows=rows)
    taken: dict[tuple[int, int], str] = {}

    def free(points, owner):
        for (px, py) in points:
            if not (1 <= px <= 2 * cols - 1 and 1 <= py <= 2 * rows - 1):
                return False
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    other = taken.get((px + dx, py + dy))
                    if other is not None and other != owner:
                        return False
        return True

    order = sorted(stations, key=lambda g: (-len(stations[g]["stops"]), g))
    for g in order:
        st = stations[g]
        n = circle_count(len(st["stops"]))
        fx, fy = placed[g]
        cx, cy = round(2 * fx), round(2 * fy)
        shapes = {1: [[(0, 0)]], 2: [[(0, 0), (1, 0)], [(0, 0), (0, 1)], [(-1, 0), (0, 0)], [(0, -1), (0, 0)]],
                  3: [[(-1, 0), (0, 0), (1, 0)], [(0, -1), (0, 0), (0, 1)], [(0, 0), (1, 0), (0, 1)],
                      [(-1, 0), (0, 0), (0, 1)]]}[n]
        best = None
        for radius in range(0, 12):
            for dx in range(-radius, radius + 1):
                for dy in range(-radius, radius + 1):
                    if max(abs(dx), abs(dy)) != radius:
                        continue
                    for shape in shapes:
                        pts = [(cx + dx + a, cy + dy + b) for a, b in shape]
                        if free(pts, g):
                            d = math.hypot(cx + dx - 2 * fx, cy + dy - 2 * fy)
                            if best is None or d < best[0]:
                                best = (d, pts)
            if best is not None:
                break
        if best is None:
            raise SystemExit(f"no room for station {g}")
        for p in best[1]:
            taken[p] = g
        st["points"] = best[1]
    return stations


def touching(px: int, py: int, cols: int = COLS, rows: int = ROWS) -> list[list[int]]:
    """The fields [col, row] that touch a circle at lattice point (px, py)."""
    cols_ = [px // 2] if px % 2 else [px // 2 - 1, px // 2]
    rows_ = [py // 2] if py % 2 else [py // 2 - 1, py // 2]
    return [[c, r] for r in rows_ for c in cols_ if 0 <= c < cols and 0 <= r < rows]


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def circles_of(stations, line_order, cols: int = COLS, rows: int = ROWS):
    """Step 6: each station's circles (ids, positions in field units, touching fields) and which
    circle each stop uses. Returns (stations as written to the file, circle ids per station group,
    circle number per (letter, number) stop)."""
    out_stations, circle_of = [], {}
    for g in sorted(stations, key=lambda g: slug(g)):
        st = stations[g]
        points = st["points"]
        circles = [{"id": f"{slug(g)}-{k + 1}" if len(points) > 1 else slug(g),
                    "x": px / 2, "y": py / 2, "fields": touching(px, py, cols, rows)}
                   for k, (px, py) in enumerate(points)]
        # Assign the station's stops to circles: a line's stops in one station go to different circles,
        # and a circle takes two lines before a third.
        load = [0] * len(circles)
        for letter, number in sorted(st["stops"], key=lambda s: (line_order.index(s[0]), s[1])):
            used = {circle_of[s] for s in st["stops"] if s[0] == letter and s in circle_of}
            choices = [k for k in range(len(circles)) if k not in used] or list(range(len(circles)))
            k = min(choices, key=lambda k: (load[k], k))
            load[k] += 1
            circle_of[(letter, number)] = k
        st["circle_ids"] = [c["id"] for c in circles]
        out_stations.append({"id": slug(g), "name": " / ".join(st["names"]),
                             "name_ja": " / ".join(n for n in st["names_ja"] if n),
                             "circles": circles})
    return out_stations, {g: stations[g]["circle_ids"] for g in stations}, circle_of


def build(source: Path) -> dict:
    lines = read_stops(source)
    names = line_names(source)
    kept = thin(lines)
    pos = positions(kept)
    stations = layout(kept, pos)
    out_stations, ids, circle_of = circles_of(stations, GAME_LINES)
    out_lines = []
    for letter in GAME_LINES:
        stops = [ids[group_of(name)][circle_of[(letter, number)]] for number, name, _ in kept[letter]]
        out_lines.append({"letter": letter, "name": names[letter], "colour": COLOURS[letter],
                          "shares": SHARES, "disc_spaces": DISC_SPACES, "stops": stops,
                          "source_numbers": [number for number, _, _ in kept[letter]]})
    return {
        "format": "tokyo-table-companion/metro-board", "version": 1,
        "name": "Tokyo Metro (approximate)", "approximate": True,
        "note": ("Generated by build_board.py from the public-domain station lists in "
                 "shared/data/tokyo-subway: real stations of the 12 game lines, smaller ones thinned out, "
                 "positions approximate. The printed board differs; a table may record its own."),
        "grid": {"cols": COLS, "rows": ROWS},
        "start_area": START_AREA,
        "lines": out_lines,
        "stations": out_stations,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--out", type=Path, default=HERE / "tokyo_board.json")
    args = parser.parse_args()
    board = build(args.source)
    args.out.write_text(json.dumps(board, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    from build_layout import add_layout  # noqa: E402 - a script beside this one
    add_layout(args.out)   # where everything lies in millimetres, for the board camera
    stops = sum(len(l["stops"]) for l in board["lines"])
    circles = sum(len(s["circles"]) for s in board["stations"])
    print(f"wrote {args.out}: {len(board['stations'])} stations, {circles} circles, {stops} stops")


if __name__ == "__main__":
    main()
