import sys, time, numpy as np, cv2
sys.path.insert(0, "benchmarks"); sys.path.insert(0, ".")
from board import reference_of, sample_board
from companion.board_layout import BoardLayout
from companion.sim.board_looks import BoardLook
from companion.sim.board_render import BoardRenderer
from companion.vision import board_read as br
cv2.setNumThreads(1)
layout = BoardLayout.default()
fam, first, n, boards = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rows = []
for seed in range(first, first + n):
    r = BoardRenderer(layout, BoardLook.from_seed(seed, fam))
    rng = np.random.default_rng([seed, 77])
    ref, tracker = reference_of(r, layout, seed)
    if ref is None: continue
    reader = br.BoardReader(layout, ref, tracker=tracker)
    cref = reader._coarse_ref()
    # the reference's own contrast per coarse cell: its range within the cell (as a share of the paper)
    h, w = reader.reference.shape[:2]
    k = br.COARSE
    blocks = reader.reference[:h//k*k, :w//k*k].reshape(h//k, k, w//k, k, 3)
    con = (blocks.max(axis=(1,3)) - blocks.min(axis=(1,3))).sum(axis=2) / float(reader.paper.sum())
    for b in range(boards):
        pieces = sample_board(rng, layout, None)
        for hand in (False, True):
            frame, truth = r.render(pieces, hand=hand, rng=rng)
            if hand and not truth["hand"]: continue
            pose = reader.tracker.locate(frame)
            if pose.state == "lost": continue
            sheet = reader.sheet(frame, pose)
            small = cv2.resize(sheet, (w // k, h // k), interpolation=cv2.INTER_AREA)
            d = np.abs(small - cref).sum(axis=2) / float(reader.paper.sum())
            c = con[:d.shape[0], :d.shape[1]]
            hi = c > np.quantile(c, 0.75)
            ratio = float(np.median(d[hi] / np.maximum(c[hi], 1e-3)))
            out = [seed, b, int(hand)]
            base = max(0.12, 4 * float(np.median(d)))
            VAR = (("now", 0.0), ("r2", 2.0 * ratio), ("gate", 2.0 * ratio if ratio > 0.15 else 0.0), ("soft", 3.0 * max(0.0, ratio - 0.1)))
            for name, extra in VAR:
                mask = (d > base + extra * c).astype(np.uint8)
                m = 2
                mask[:m], mask[-m:], mask[:, :m], mask[:, -m:] = 0, 0, 0, 0
                mask[reader._drink_stands(pose, mask.shape)] = 0
                nn, _, st, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
                if nn <= 1: out.append(0); continue
                areas = st[1:, cv2.CC_STAT_AREA] * k * k
                spans = np.maximum(st[1:, cv2.CC_STAT_WIDTH], st[1:, cv2.CC_STAT_HEIGHT]) * k
                out.append(int(areas.max() > br.HAND_MM2 or spans.max() > br.HAND_SPAN))
            out.append(round(ratio, 3))
            rows.append(out)
            print(out, flush=True)
a = np.array(rows)
for j, name in enumerate(("now", "r2", "gate", "soft")):
    hands = a[:, 2] == 1
    print(name, "hands seen", int(a[hands, 3 + j].sum()), "/", int(hands.sum()), "false", int(a[~hands, 3 + j].sum()), "/", int((~hands).sum()))
