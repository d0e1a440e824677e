// The games scored by where thrown drinks land (the upside-down tower, LEMON SQUASH) draw as the
// generic renderer does, with the landing camera's panel leading the side column (js/landings.js).
import generic from "./generic.js";
import { landingPanel } from "../landings.js";

export default {
  side: (view) => [landingPanel(view), ...generic.side(view)].filter(Boolean),
};
