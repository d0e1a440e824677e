// "What happened": the feed of the night (the view's `feed`, newest first; the server says what an
// entry holds and keeps secrets: table/feed.py). Each entry in words: who, what (its events through
// the catalogue: `ev.<game>.<kind>` or `ev.<kind>` with the event's fields as {slots}; the move's
// own label where no event has words), each seat's yen change, and the changes a person copies
// onto the real board set apart ("On the board: …"). A compact panel shows the latest few with
// "more"; a new entry made by someone else (a computer seat, a phone, the tower) flashes briefly.
import { h, island } from "./dom.js";
import { api } from "./api.js";
import { t, template, yen, onLangChange, wordsOf } from "./i18n.js";
import { actionLabel, seatName, tNodes, valueNodes } from "./values.js";

const COMPACT = 3;     // entries the closed panel shows
const FLASH_MS = 6000;
const FLASH_EVENTS = 4;  // events the flash tells of one entry (the panel has them all)

// Who made an entry's move, in words: a seat's name (a computer's marked), or the table's devices.
function whoNodes(e, ctx) {
  if (e.seat !== null && e.seat !== undefined) {
    const name = seatName(ctx, e.seat);
    return e.by === "computer" ? t("happened.computer", { name }) : name;
  }
  return t(`happened.by.${e.by}`);
}

// A move the board camera saw: who confirmed it (the table, a seat's phone, the auto mode).
function confirmedNode(e, ctx) {
  if (!e.confirmed) return null;
  const who = e.confirmed === "auto" ? t("happened.confirmed.auto")
    : Number.isInteger(e.confirmed_seat) ? seatName(ctx, e.confirmed_seat) : t("happened.confirmed.table");
  return h("div", { class: "feed-confirmed", testid: "feed-confirmed", dataset: { confirmed: e.confirmed } },
    t("happened.boardConfirmed", { who }));
}

// One event in words, or null when the catalogue has none for it.
function eventNodes(ev, ctx) {
  const text = template(`ev.${wordsOf(ctx.game)}.${ev.kind}`) ?? template(`ev.${ev.kind}`);
  if (!text) return null;
  const params = {};
  for (const [k, v] of Object.entries(ev)) {
    // a field of a grid (TOKYO METRO's [column, row]) reads as the map names it: 8·5
    const field = k === "field" && Array.isArray(v) && v.length === 2 && v.every(Number.isInteger);
    // a station by the name the map gives it
    const station = k === "station" && ((ctx.board && ctx.board.stations) || []).find((x) => x.id === v);
    params[k] = h("span", { class: "arg" }, field ? v.join("·") : station ? station.name : valueNodes(v, k, ctx));
  }
  return tNodes(text, params);
}

function yenChips(e, ctx) {
  const chips = (e.yen || []).map((d, seat) => (d ? h("span", {
    class: `yen-change ${d > 0 ? "up" : "down"}`, dataset: { seat: String(seat) },
  }, `${seatName(ctx, seat)} ${d > 0 ? "+" : "−"}${yen(Math.abs(d))}`) : null)).filter(Boolean);
  return chips.length ? h("div", { class: "yen-changes" }, chips) : null;
}

// A piece moved step by step (a METRO train: M16 to M17, M17 to M18, ...) is told as one move,
// from its first stop to its last: a person moves the marker once. Steps join when they are
// events of one kind, each starting where the one before ended, alike in everything else.
function joinSteps(events) {
  const same = (a, b) => a.kind === b.kind && "from" in a && "to" in a && a.to === b.from
    && Object.keys(a).every((k) => ["from", "to", "dir"].includes(k) || JSON.stringify(a[k]) === JSON.stringify(b[k]));
  const out = [];
  for (const ev of events) {
    const last = out[out.length - 1];
    if (last && same(last, ev)) out[out.length - 1] = { ...last, to: ev.to };
    else out.push(ev);
  }
  return out;
}

// What the entry says happened: its events' words, the board changes apart.
function whatNodes(e, ctx) {
  const who = whoNodes(e, ctx);
  if (e.type === "undo") {
    const key = e.secret ? "happened.undoSecret" : e.seat === null || e.seat === undefined ? "happened.undoTable" : "happened.undo";
    return { head: t(key, { name: who }), plain: [], board: [] };
  }
  if (e.type === "dismiss" || e.type === "end") return { head: t(`happened.${e.type}`), plain: [], board: [] };
  const plain = [];
  const board = [];
  for (const ev of joinSteps(e.events || [])) {
    const words = eventNodes(ev, ctx);
    if (words) (ev.on_board ? board : plain).push(h("li", { dataset: { kind: ev.kind } }, words));
  }
  let head = who;
  if (e.secret && !e.move) head = t("happened.secret", { name: who });
  // the move's own words where no event has any, and always for its owner's secret move (the bid's amount)
  else if (e.move && (e.secret || (!plain.length && !board.length))) {
    head = [who, ": ", actionLabel(e.move.player === "chance" ? "chance" : "move", e.move, ctx)];
  }
  return { head, plain, board };
}

// `testid`: the panel's entries have one (feed-<seq>); the flash's copy has none.
// `limit`: the most events told (the flash's: a train phase has dozens); the rest counted.
export function entryNode(e, ctx, takenBack, testid = true, limit = Infinity) {
  const told = whatNodes(e, ctx);
  const { head } = told;
  let { plain, board } = told;
  const hidden = Math.max(0, plain.length + board.length - limit);
  if (hidden) {
    board = board.slice(0, limit);
    plain = plain.slice(0, Math.max(0, limit - board.length));
    (board.length ? board : plain).push(h("li", { class: "feed-hidden" }, t("happened.andMore", { n: hidden })));
  }
  return h("li", { class: `feed-entry${takenBack ? " taken-back" : ""}${board.length ? " has-board" : ""}`,
    testid: testid ? `feed-${e.seq}` : null, dataset: { seq: String(e.seq), type: e.type, by: e.by } },
  h("div", { class: "feed-head" }, head),
  confirmedNode(e, ctx),
  plain.length ? h("ul", { class: "feed-events" }, plain) : null,
  board.length ? h("div", { class: "on-board", testid: "on-board" },
    h("span", { class: "on-board-label" }, t("happened.onBoard")), h("ul", { class: "feed-events" }, board)) : null,
  yenChips(e, ctx));
}

// The panel and its flash, kept across renders. `own(entry)`: whether this device made it (no flash).
// The view carries the latest entries; "Earlier" fetches the ones before them, a page at a time.
export function feedKeeper(gameId, { own = () => false } = {}) {
  let open = false;
  let earlier = [];    // entries fetched beyond the view's, newest first
  let fetchedBefore = null;  // the seq they were fetched before (the view's oldest then)
  let more = true;     // whether the server may hold entries before those
  let seen = null;     // the newest seq shown so far (null: nothing yet, no flash for the first view)
  let flashEl = null;
  let flashTimer = null;

  function flash(e, ctx) {
    if (flashEl) flashEl.remove();
    clearTimeout(flashTimer);
    flashEl = h("div", { class: "feed-flash", role: "status", "aria-live": "polite", testid: "feed-flash",
      onclick: () => flashEl && flashEl.remove() }, h("ol", { class: "feed-list" }, entryNode(e, ctx, false, false, FLASH_EVENTS)));
    document.body.append(flashEl);
    flashTimer = setTimeout(() => { if (flashEl) flashEl.remove(); flashEl = null; }, FLASH_MS);
  }

  // A flash in the language just left goes at once (the panel is drawn anew in the new one).
  onLangChange(() => { if (flashEl) flashEl.remove(); flashEl = null; });

  function announce(view) {
    const feed = view.feed || [];
    const newest = feed.length ? feed[0].seq : 0;
    if (seen !== null && newest > seen) {
      const fresh = feed.find((e) => e.seq > seen && !own(e));
      if (fresh) flash(fresh, view.state);
    }
    seen = Math.max(seen ?? 0, newest);
  }

  async function fetchEarlier(view, box) {
    const known = [...(view.feed || []), ...earlier];
    if (!known.length) return;
    const before = known[known.length - 1].seq;
    const page = await api.happened(gameId, before).catch(() => null);
    if (!page) return;
    if (!earlier.length) fetchedBefore = before;
    earlier = earlier.concat(page.entries);
    more = page.next !== null;
    if (box.isConnected) box.replaceWith(panel(view));
  }

  function panel(view) {
    announce(view);
    const latest = view.feed || [];
    const oldest = latest.length ? latest[latest.length - 1].seq : 0;
    // The view's entries moved on past those fetched: a gap between them; fetch again when asked.
    if (earlier.length && oldest > fetchedBefore) { earlier = []; fetchedBefore = null; more = true; }
    const feed = open ? latest.concat(earlier.filter((e) => e.seq < oldest)) : latest;
    const ctx = view.state;
    const takenBack = new Set(feed.flatMap((e) => e.takes_back || []));
    const shown = open ? feed : feed.slice(0, COMPACT);
    const box = h("section", { class: `panel feed${open ? " open" : ""}`, testid: "feed" },
      h("h2", {}, t("happened.title")),
      feed.length ? h("ol", { class: "feed-list", testid: "feed-list" },
        shown.map((e) => entryNode(e, ctx, takenBack.has(e.seq))))
        : h("p", { class: "hint" }, t("happened.none")),
      feed.length > COMPACT ? h("button", { class: "feed-more", testid: "feed-more", "aria-expanded": String(open),
        onclick: () => { open = !open; box.replaceWith(panel(view)); } },
      open ? t("happened.less") : t("happened.more", { n: feed.length - COMPACT })) : null,
      open && more && feed.length && feed[feed.length - 1].seq > 1
        ? h("button", { class: "feed-more", testid: "feed-earlier", onclick: () => fetchEarlier(view, box) },
          t("happened.earlier")) : null);
    return island(box);  // its buttons redraw or extend this very box
  }

  return { panel };
}
