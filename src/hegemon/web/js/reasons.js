// Refusal reasons in the player's language. An engine refuses a move with a reason id and its arguments
// (`hegemon.core.errors.Refusal`); the server sends them unchanged in the illegal_action error as `detail` and
// `args`, with the rule tag as `rule` and the same reason in English as `reason`. The text is why.<id> of the
// dictionaries, filled with the arguments, which are said in the language too: action kinds (`kind`, `action`,
// the list `kinds`), phase names (`phase`, `where`) and whose a province is (`whose`: "yours", "neutral", "free" or
// a seat). An id the dictionaries do not know is shown in the engine's English. Nothing here parses a sentence.
import { has, t } from "./i18n.js";

function kindText(game, k) {
  const kind = String(k);
  return has(`kind.${game}.${kind}`) ? t(`kind.${game}.${kind}`) : kind.replace(/_/g, " ");
}

function phaseText(game, p) {
  if (has(`whyphase.${p}`)) return t(`whyphase.${p}`);
  const key = game === "polis" ? `polisphase.${p}` : `phase.${p}`;
  return has(key) ? t(key) : String(p);
}

function kindsText(game, list) {
  if (!Array.isArray(list) || !list.length) return t(`why.nothing.${game}`);
  return list.map((k) => kindText(game, k)).join(", ");
}

function whoseText(w) {
  if (typeof w === "number") return t("why.whose.player", { n: w + 1 }); // seats count from 1 for people
  return has(`why.whose.${w}`) ? t(`why.whose.${w}`) : String(w);
}

/** The arguments of a refusal said in the current language (names and numbers as they are). */
export function reasonArgs(game, args) {
  const v = {};
  for (const [k, val] of Object.entries(args || {})) {
    if (k === "kinds") v[k] = kindsText(game, val);
    else if (k === "kind" || k === "action") v[k] = kindText(game, val);
    else if (k === "phase" || k === "where") v[k] = phaseText(game, val);
    else if (k === "whose") v[k] = whoseText(val);
    else v[k] = val;
  }
  return v;
}

/** The reason of an illegal_action error `e` ({detail, args, reason}) in the current language: why.<detail>
 * filled with its arguments, else the engine's English `reason`. */
export function reasonText(game, e) {
  const id = e && typeof e.detail === "string" ? e.detail : "";
  if (!id || !has(`why.${id}`)) return String((e && e.reason) || "");
  return t(`why.${id}`, reasonArgs(game, e.args));
}
