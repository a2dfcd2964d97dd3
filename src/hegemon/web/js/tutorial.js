// The guided first game (started from the lobby's "Learn to play", learn.js): a real table against an easy bot
// where a box walks the new player through their first turn step by step, highlighting the real controls to
// click and saying why; the player makes every move. When the first turn is over the box says so and the game
// goes on against the bot. The steps follow the table's phase, so a skipped phase never leaves the box behind.
import { h } from "./common.js";
import { t } from "./i18n.js";

const SPQR = [
  { id: "welcome", hl: ["#rulesbtn"] },
  { id: "wait" },
  { id: "reinforce", phase: /^reinforcements: place$/, hl: ["#map .area.clickable", "#actions [data-per]"] },
  { id: "cards", phase: /^reinforcements: (cards|card bonus)$/, hl: ["#actions .trade", "#actions .btns button", "#done", "#forgo"] },
  { id: "navy", phase: /^reinforcements: navy$|^naval |^sea attack/, hl: ["#done"] },
  { id: "attack", phase: /^land attacks$/, first: true, hl: ["#map .area.clickable", "#autoattack", "#attack"] },
  { id: "roll", phase: /^land attack: roll$/, hl: ["#actions .roll", "#autoroll", "#withdraw"] },
  { id: "movein", phase: /^land attack: move in$/, hl: ["#actions .count-btn", "#count", "#confirm"] },
  { id: "attack_more", phase: /^land attacks$/, hl: ["#map .area.clickable", "#done"] },
  { id: "strategic", phase: /^strategic move/, hl: ["#map .area.clickable", "#actions .count-btn", "#confirm", "#done"] },
  { id: "finish" },
];

const POLIS = [
  { id: "welcome", hl: ["#rulesbtn"] },
  { id: "wait" },
  { id: "p_first", phase: /^action$/, test: (v) => v.actions_this_turn === 0, hl: ["#a-attika", "#actions [data-type=collect]"] },
  { id: "p_second", phase: /^action$/, test: (v) => v.actions_this_turn >= 1, hl: ["#p-chalkis", "#actions [data-type=create_hoplites]", "#actions [data-type=pass]"] },
  { id: "p_other", phase: /./, hl: ["#actions button.act", "#actions button.confirm"] },
  { id: "finish" },
];

const CORE = { spqrisiko: ["reinforce", "attack", "strategic"], polis: ["p_first", "p_second"] };

let ctx = null;
let game = "";
let tableId = "";
let steps = [];
let started = false;
let seen = new Set(); // steps of the player's own turn shown so far
let current = null;
let box = null;
let closed = false;

function key() { return `hegemon.tutorial.${tableId}`; }

function myTurn(msg) {
  return msg && msg.status === "playing" && msg.seat !== null && (msg.view.legal_actions || []).length > 0;
}

/** The step for the table as it is now. */
function stepNow() {
  const msg = ctx.msg;
  if (!started) return "welcome";
  if (current === "finish") return "finish"; // the guide is over: it stays until closed
  if (!msg) return "wait";
  if (msg.status === "finished") return "finish";
  // the guide ends with the player's first real turn (a choice forced by an event is not one)
  if (!myTurn(msg)) return CORE[game].some((x) => seen.has(x)) ? "finish" : "wait";
  const v = msg.view;
  for (const s of steps) {
    if (!s.phase || !s.phase.test(String(v.phase))) continue;
    if (s.test && !s.test(v)) continue;
    if (s.first && seen.has(s.id)) continue; // the first attack is explained once, then "attack again or end"
    if (s.id === "attack_more" && !seen.has("attack")) continue;
    return s.id;
  }
  return game === "polis" ? "p_other" : "navy";
}

const watching = []; // [observer, element]: redraws of the controls and the map

function highlight() {
  // our own class changes must not wake the observers that call us
  for (const [o] of watching) o.disconnect();
  document.querySelectorAll(".tut-hl").forEach((el) => el.classList.remove("tut-hl"));
  if (current && !closed) {
    const s = steps.find((x) => x.id === current);
    for (const sel of (s && s.hl) || []) document.querySelectorAll(sel).forEach((el) => el.classList.add("tut-hl"));
  }
  if (!closed) for (const [o, el] of watching) o.observe(el, { childList: true, subtree: true, attributes: true, attributeFilter: ["class"] });
}

function render() {
  if (closed) return;
  const id = stepNow();
  if (id !== current) {
    current = id;
    if (!["welcome", "wait", "finish"].includes(id)) seen.add(id);
  }
  if (!box) {
    // in the side panel, above the controls it points at: the map stays free
    const side = document.getElementById("side");
    box = h("aside", { class: `tut-box${side ? " tut-inline" : ""}`, id: "tut-box", role: "status", "aria-live": "polite" });
    if (side) side.prepend(box);
    else document.body.append(box);
  }
  // rebuild the box only when the step or the language changes (the bots' moves redraw the table often)
  const stamp = `${id}|${document.documentElement.lang}`;
  if (box.dataset.stamp === stamp) { highlight(); return; }
  box.dataset.stamp = stamp;
  const order = steps.filter((s) => s.phase || s.id === "finish").map((s) => s.id);
  const n = order.indexOf(id);
  box.dataset.step = id;
  document.body.dataset.tutorial = id === "finish" ? "done" : id;
  const why = t(`tut.${game}.${id}.why`);
  box.replaceChildren(...[
    h("p", { class: "tut-step" }, t("tut.title"), n >= 0 ? ` · ${t("tut.stepof", { i: n + 1, n: order.length })}` : ""),
    h("h3", {}, t(`tut.${game}.${id}.title`)),
    h("p", { class: "tut-do" }, t(`tut.${game}.${id}.do`)),
    why && why !== `tut.${game}.${id}.why` ? h("p", { class: "tut-why" }, why) : null,
    id === "welcome" ? h("button", { type: "button", class: "primary", id: "tut-start", onclick: () => { started = true; render(); } }, t("tut.start")) : null,
    id === "finish" ? h("button", { type: "button", class: "primary", id: "tut-close", onclick: close }, t("tut.keepplaying")) : null,
    id === "finish" ? h("a", { class: "button", id: "tut-rules", href: `/rules/${game}`, target: "_blank", rel: "noopener" }, t("learn.read")) : null,
    id !== "finish" ? h("button", { type: "button", id: "tut-skip", onclick: close }, t("tut.skip")) : null,
  ].filter(Boolean));
  highlight();
}

function close() {
  closed = true;
  localStorage.removeItem(key());
  for (const [o] of watching) o.disconnect();
  document.querySelectorAll(".tut-hl").forEach((el) => el.classList.remove("tut-hl"));
  if (box) box.remove();
  box = null;
  document.body.dataset.tutorial = "closed";
}

/** Start the guided game at this table if the lobby asked for it. `tableCtx` is the table's context (msg…). */
export function maybeTutorial(gameName, id, tableCtx) {
  if (localStorage.getItem(`hegemon.tutorial.${id}`) !== gameName) return false;
  ctx = tableCtx;
  game = gameName;
  tableId = id;
  steps = gameName === "polis" ? POLIS : SPQR;
  seen = new Set();
  // follow every new position and every redraw of the controls (the highlights go on the new elements)
  new MutationObserver(() => render()).observe(document.body, { attributes: true, attributeFilter: ["data-version", "data-phase", "data-myturn", "data-status"] });
  let queued = false;
  const again = () => { if (!queued) { queued = true; requestAnimationFrame(() => { queued = false; highlight(); }); } };
  for (const el of [document.getElementById("actions"), document.getElementById("board")]) {
    if (el) watching.push([new MutationObserver(again), el]);
  }
  render();
  return true;
}

/** Redraw after a language switch. */
export function relabelTutorial() {
  if (ctx && !closed) render();
}
