// Which renderer draws which game. A game without one of its own gets the generic renderer,
// which makes any game playable from its view alone; a game's own renderer overrides only the
// parts it draws better (its moves, its chance pickers, its players, its result).
//
// A renderer is an object of optional parts (see generic.js):
//   playerCard(player, view, {compact}) · side(view) -> [panels] · result(view, {compact})
//   moveBuilders: {kind: (moves, view, run) -> nodes} · choice(view, outcomes, ui, act) -> node|null
//   movesHead(view, act) -> node|null (above the moves; act.estimates() asks for move estimates)
//   secretChoice(view, outcomes, act) (phone) · phoneMe(view) · phoneExtra(view) -> [panels]
//   overExtra(view) · overTitle (catalogue key)
//   joinAtTop: before the first move the join panel leads the whole table (else: the side column's top)
//   feedBesideMoves: the feed of the night right under the moves (else: at the side column's top)
import bottleSquare from "./bottle_square.js";
import colourSort from "./colour_sort.js";
import crateDraft from "./crate_draft.js";
import crateDuel from "./crate_duel.js";
import generic from "./generic.js";
import explodingCans from "./exploding_cans.js";
import grapeSoda from "./grape_soda.js";
import hiddenCards from "./hidden_cards.js";
import genmaicha from "./genmaicha.js";
import goldenRunner from "./golden_runner.js";
import izakaya from "./izakaya.js";
import landingSide from "./landing_side.js";
import pocariBet from "./pocari_bet.js";
import shoppingMall from "./shopping_mall.js";
import tokyoMetro from "./tokyo_metro.js";
import yuzu from "./yuzu.js";

const RENDERERS = {
  exploding_cans: explodingCans,
  bottle_square: bottleSquare,
  colour_sort: colourSort,
  crate_draft: crateDraft,
  crate_duel: crateDuel,
  grape_soda: grapeSoda,
  hidden_cards: hiddenCards,
  genmaicha,
  golden_runner: goldenRunner,
  izakaya,
  pocari_bet: pocariBet,
  shopping_mall: shoppingMall,
  tokyo_metro: tokyoMetro,
  yuzu,
  // Drinks scored by where they land: the landing camera's panel beside the generic parts.
  upside_down_tower: landingSide,
  lemon_squash: landingSide,
  // One METRO engine plays three games; their views differ only in what the variant adds.
  osaka_metro: tokyoMetro,
  metro_drinks: tokyoMetro,
};

export function rendererFor(gameId) {
  return { ...generic, ...(RENDERERS[gameId] || {}), id: gameId };
}
