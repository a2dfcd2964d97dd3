// The server's refusals in the player's language. Every error the server sends has a code (illegal_action,
// not_your_turn, stale_version, game_over, unknown_table, bad_request, unauthorized, unavailable) and, for the
// cases a player can meet, a `detail` naming the case and `args` with its variable parts: the text is
// err.<detail> of the dictionaries. A refusal without a known detail says its code in the player's language,
// with the server's English message after it. (Rule refusals — illegal_action with a reason id — are reasons.js.)
import { has, t } from "./i18n.js";

/** The text of an error object {code, message, detail, args}; `seatName(i)` names a seat (the table's). */
export function errorText(e, seatName) {
  const args = { ...(e && e.args) };
  if (e && e.detail === "turn_of") args.who = seatName ? seatName(args.seat) : t("table.playern", { n: Number(args.seat) + 1 });
  if (e && e.detail && has(`err.${e.detail}`)) return t(`err.${e.detail}`, args);
  const code = e && e.code && has(`code.${e.code}`) ? t(`code.${e.code}`) : (e && e.code) || "";
  const msg = (e && e.message) || "";
  return code && msg ? `${code[0].toUpperCase()}${code.slice(1)}: ${msg}` : code || msg;
}
