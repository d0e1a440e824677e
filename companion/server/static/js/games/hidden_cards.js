// The hidden cards: a guess is a pick of the colour, then a tap on the shape (instead of 36
// buttons); the phone shows what its own cards leave possible for the hidden pair.
import { h } from "../dom.js";
import { t, cardName } from "../i18n.js";
import { cardSvg } from "../drinks.js";
import { pairPicker } from "../pair_picker.js";
import generic from "./generic.js";

const card = (id) => h("span", { class: "pair-card" }, cardSvg(id, "card-sm"), cardName(id));

function guessButtons(moves, view, run) {
  return pairPicker(moves, run, { first: "colour", second: "shape", key: "hc-guess", label: t("hc.pickColour"),
    hint: t("hc.guessHint"), showFirst: card, showSecond: card });
}

export default { ...generic, moveBuilders: { ...generic.moveBuilders, guess: guessButtons } };
