// A stock card as its owner reads it on a phone: the card, its name in words and, for a colour
// card, a drink of that colour (a white swatch on a white card is easy to miss; the word and
// the drink are not).
import { h } from "./dom.js";
import { cardName } from "./i18n.js";
import { cardSvg, drinkSvg, COLOURS } from "./drinks.js";

export function namedCard(id, cls = "card-xl") {
  return h("div", { class: "named-card", testid: "secret-card-face", dataset: { card: id } },
    cardSvg(id, cls),
    h("span", { class: "named-card-name", testid: "secret-card-name" },
      COLOURS.includes(id) ? drinkSvg(`${id}-tall_can`, "drink-xs") : null, cardName(id)));
}
