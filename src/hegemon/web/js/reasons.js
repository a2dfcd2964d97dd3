// Refusal reasons in the player's language. The engines explain a refused move in English (games/*/explain.py);
// the server sends that text alone as `reason` with the rule tag as `rule`. Each engine sentence is matched here
// against its template and said again from the dictionaries (why.<id>, with plurals), its parts translated too:
// action kinds, phase names, "yours/neutral/free". A sentence no template matches is shown as it came.
// (tests/server/test_reasons.py checks that every sentence explain.py can return has a template here.)
import { has, t } from "./i18n.js";

/** id → the engine's English sentence, {name} marking each variable part. */
export const TEMPLATES = {
  over: "the game is over",
  // S.P.Q.RisiKo!
  kind_elsewhere: "{kind} belongs to {where}; now, in {phase}, you may: {kinds}",
  kind_not_now: "in {phase} you may: {kinds}",
  not_one_of: "not one of the {n} legal choices of this kind now",
  no_sea: "there is no sea area {place}",
  no_province: "there is no province {place}",
  taken: "{place} is taken already ({whose})",
  reinforce_own: "reinforcements go to your own provinces; {place} is {whose}",
  not_a_set: "you do not hold those cards, or they are not a set (three alike or three different)",
  pc_own: "a power centre goes in a province of yours; {place} is {whose}",
  pc_all_built: "every power centre is on the board already",
  pc_near: "{place} has a power centre, or a land neighbour has one",
  bonus_trireme: "a bonus trireme goes in a sea area bordering one of your provinces",
  build_own: "the 3 legionaries come from a province of yours; {place} is {whose}",
  build_coast: "{place} does not border {sea}",
  build_garrison: "{place} has {n} legionaries: a trireme takes 3 and the province must keep its garrison [R 14.1]",
  disband_after_build: "you have built a trireme this turn; disbanding is no longer allowed",
  disband_own: "you may disband only your own trireme into a province of yours on that sea (limit per turn)",
  naval_moved: "one naval move per turn: you have moved already",
  naval_step: "{dest} is not next to {source}: one step only",
  naval_count: "you have {have} trireme(s) that may move in {sea}, not {n}",
  naval_fought: "at most one naval combat per sea area per turn: {sea} has had its combat",
  naval_both: "both fleets must be in {sea}",
  naval_dice: "you may not roll fewer dice than the defender ({mine} against {theirs})",
  attack_from_own: "attacks start from a province of yours; {place} is {whose}",
  attack_own: "{place} is yours already",
  protected: "{place} is its owner's only province, which cannot be attacked before round {n}",
  no_land_border: "{source} and {target} share no land border (across the sea it is a sea attack, R 12)",
  last_legionary: "{place} has {n} legionary: the last one never attacks",
  house_garrison: "{place} borders another enemy province: an attack from it needs at least {n} legionaries, so that {keep} stay after moving in (house garrison rule)",
  attack_dice: "{source} cannot roll as many dice as {target}'s {n} defender(s) while keeping its garrison",
  no_bridge: "{source} and {target} do not border the same sea area",
  sea_attacked: "{place} has been attacked by sea this turn already",
  sea_conquered: "{place} was conquered by sea this turn: it may attack by land, not by sea",
  more_triremes: "you need strictly more triremes than the defender in {sea} ({mine} against {theirs})",
  sea_none: "{place} has {n} legionaries and must keep its garrison: none may sail",
  sea_declare_max: "{source} can declare at most {n} legionaries (keeping its garrison [R 14.3]): fewer than the {dice} dice {target} defends with, and the declared force never rolls fewer dice than the defender",
  fortify_own: "the strategic move goes from one of your provinces to another of yours",
  fortify_link: "{source} and {target} share no land border and no sea area you control",
  fortify_garrison: "{place} must keep its garrison",
  declare_least: "declare at least {n}: the declared force never rolls fewer dice than the defender's {dice}",
  between: "choose between {lo} and {hi}",
  // Polis
  p_not_now: "{action} is not possible now (its conditions or costs are not met); you may: {kinds}",
  p_finish: "finish the {phase} step first; now you may: {kinds}",
  p_in_step: "in the {phase} step you may: {kinds}",
  p_values: "not possible with these values now; legal: {legal}",
  p_diceless: "under the diceless siege rules a siege is started (start siege) and continued, not rolled",
  p_classic: "under the classic and sacrifice siege rules a siege is one action with the d4 (besiege)",
  p_different: "the two actions of a turn must be different: you have taken '{action}' already",
  p_prestige: "{action} costs 1 prestige and you have {n}",
  p_prestige_n: "{action} costs {cost} prestige and you have {n}",
  p_extra: "after the opponent has passed every action costs one extra resource, and you have none",
  p_no_polis: "there is no polis {place}",
  p_not_yours: "{action}: {place} is not your polis",
  p_no_port: "{place} has no port: galleys are built in a polis on the sea",
  p_not_commercial: "{place} is not a commercial polis",
  p_all_merchants: "you have all {n} merchants already",
  p_yours: "{place} is yours",
  p_capital: "{place} is a capital: capitals cannot be besieged",
  p_siege_hoplites: "a siege of {place} (fortification {f}) needs at least {f2} of your hoplites in {territory}; you have {n}",
  p_control: "you must control {territory} (more hoplites there than the opponent)",
  p_no_territory: "there is no territory {territory}",
  p_collect_hoplite: "a collection needs at least one of your hoplites in {territory}",
  p_collected: "{territory} has been collected already this round",
  p_opp_controls: "the opponent controls {territory}",
  p_collect_prestige: "a collection outside your home region costs 1 prestige and you have none",
  p_collect_away: "a collection outside your home region costs {cost} prestige and you have {n}",
  p_collect_home: "a collection in your home region costs {cost} prestige and you have {n}",
  p_merchant: "a trade needs a merchant in port",
};

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const COMPILED = Object.entries(TEMPLATES).map(([id, tpl]) => {
  const names = [];
  const src = tpl.split(/(\{\w+\})/).map((part) => {
    const m = part.match(/^\{(\w+)\}$/);
    if (!m) return esc(part);
    names.push(m[1]);
    return "(.+?)";
  }).join("");
  return { id, names, re: new RegExp(`^${src}$`), fixed: tpl.replace(/\{\w+\}/g, "").length };
}).sort((a, b) => b.fixed - a.fixed); // the most specific sentence first ("a collection … costs 1 prestige" before "{action} costs 1 prestige")

/** {id, vars} of an engine sentence of `game`, or null. */
export function matchReason(text, game) {
  for (const c of COMPILED) {
    if (game && c.id !== "over" && (game === "polis") !== c.id.startsWith("p_")) continue;
    const m = String(text).match(c.re);
    if (m) return { id: c.id, vars: Object.fromEntries(c.names.map((n, i) => [n, m[i + 1]])) };
  }
  return null;
}

// the engine's English action names (polis explain.py ACTIONS) → action kinds
const ACTION_NAMES = {
  "create hoplites": "create_hoplites", "create galleys": "create_galleys", "create merchants": "create_merchants",
  "start a project": "start_project", "move hoplites": "move_hoplites", "move galleys": "move_galleys",
  "besiege a polis": "besiege", "start a siege": "start_siege", "continue a siege": "continue_siege",
  collection: "collect", trade: "trade", "move the proxenos": "move_proxenos", "redeem the proxenos": "redeem_proxenos",
  "instigate a civil war": "civil_war",
};

function kindText(game, k) {
  const id = ACTION_NAMES[k] || k.replace(/ /g, "_");
  return has(`kind.${game}.${id}`) ? t(`kind.${game}.${id}`) : k;
}

function phaseText(game, p) {
  if (has(`whyphase.${p}`)) return t(`whyphase.${p}`);
  const key = game === "polis" ? `polisphase.${p}` : `phase.${p}`;
  return has(key) ? t(key) : p;
}

function kindsText(game, list) {
  if (/^nothing \(/.test(list)) return t(`why.nothing.${game}`);
  return list.split(", ").map((k) => kindText(game, k)).join(", ");
}

function whoseText(w) {
  const m = w.match(/^player (\d+)'s$/);
  if (m) return t("why.whose.player", { n: Number(m[1]) + 1 });
  return has(`why.whose.${w}`) ? t(`why.whose.${w}`) : w;
}

/** The reason in the current language (the engine's text when no template matches). */
export function reasonText(game, text) {
  const hit = matchReason(text, game);
  if (!hit || !has(`why.${hit.id}`)) return String(text);
  const v = { ...hit.vars };
  for (const [k, val] of Object.entries(v)) {
    if (k === "kinds") v[k] = kindsText(game, val);
    else if (k === "kind" || k === "action") v[k] = kindText(game, val);
    else if (k === "phase" || k === "where") v[k] = phaseText(game, val);
    else if (k === "whose") v[k] = whoseText(val);
    else if (/^\d+$/.test(val)) v[k] = Number(val);
    else if (val === "none") v[k] = 0;
    else v[k] = val.replace(/^'(.*)'$/, "$1");
  }
  return t(`why.${hit.id}`, v);
}
