// The tutorial (the lobby's "Learn to play", learn.js): a lesson table with a fixed seed and no secret salt
// (CreateTable.tutorial), so the dice and the easy bots tell the same story every time, and a script of steps.
// Each step says what to click and why, highlights the real control, and lets through only the move it teaches
// (any other click is answered with a hint): the lesson advances when the player makes that move. At the end it
// offers a real game against an easy bot (a new table with its own secret dice) or to play this one on.
import { api, DEFAULT_BOT, h } from "./common.js";
import { t } from "./i18n.js";

const phase = (msg) => String(msg.view.phase);
const maxOf = (msg, type, field) => Math.max(...(msg.view.legal_actions || []).filter((a) => a.type === type).map((a) => a[field]));

/** S.P.Q.RisiKo!, seed 20051: you hold Italia; 4 reinforcements, the conquest of Cisalpina in two rolls. */
const SPQR = [
  { id: "welcome" },
  { id: "wait", until: (msg, mine) => mine },
  { id: "reinforce", hl: ["#a-italia", "#actions [data-per=all]"], allow: (a) => a.type === "reinforce" && a.province === "italia",
    until: (msg) => phase(msg) !== "reinforcements: place" },
  { id: "navy", hl: ["#done"], allow: (a) => a.type === "done", until: (msg) => !phase(msg).startsWith("reinforcements") },
  { id: "attack", hl: ["#a-italia", "#a-cisalpina", "#attack"], allow: (a) => a.type === "attack" && a.source === "italia" && a.target === "cisalpina",
    until: (msg) => phase(msg) === "land attack: roll" },
  { id: "roll", hl: (msg) => [`#actions .roll[data-dice="${maxOf(msg, "roll_dice", "dice")}"]`],
    allow: (a, msg) => a.type === "roll_dice" && a.dice === maxOf(msg, "roll_dice", "dice"), until: (msg) => phase(msg) !== "land attack: roll" },
  { id: "movein", hl: (msg) => [`#actions .count-btn[data-count="${maxOf(msg, "move_in", "count")}"]`, "#confirm"],
    allow: (a, msg) => a.type === "move_in" && a.count === maxOf(msg, "move_in", "count"), until: (msg) => phase(msg) !== "land attack: move in" },
  { id: "endattacks", hl: ["#done"], allow: (a) => a.type === "done", until: (msg) => phase(msg) !== "land attacks" },
  { id: "strategic", hl: ["#a-cisalpina", "#a-italia", "#done"], allow: () => true, until: (msg, mine) => !mine },
  { id: "finish", hl: ["#dicetray", "#log"] },
];

/** Polis, seed 485: you are Athens; Sparta starts the round. Both sides end it with prestige to spare (Sparta gives
 * up two poleis at the supply), so the game goes on into round 2 with Athens to move. */
const POLIS = [
  { id: "welcome" },
  { id: "wait", until: (msg, mine) => mine && phase(msg) === "action" },
  { id: "collect", hl: ["#a-attika", "#actions [data-type=collect]"], allow: (a) => a.type === "collect" && a.territory === "attika",
    until: (msg) => msg.view.actions_this_turn >= 1 },
  { id: "hoplite", hl: ["#p-chalkis", "#actions [data-type=create_hoplites]"],
    allow: (a) => a.type === "create_hoplites" && a.polis === "chalkis" && a.count === 1 && a.silver === 0, until: (msg, mine) => !mine },
  { id: "watch", until: (msg, mine) => mine && phase(msg) === "action" },
  { id: "trade", hl: ["#markets button[data-market=persia]"], allow: (a) => a.type === "trade" && a.market === "persia" && !a.purchase,
    until: (msg) => msg.view.actions_this_turn >= 1 },
  { id: "project", hl: ["#p-athinae", "#actions [data-type=start_project][data-project=shipyards]"],
    allow: (a) => a.type === "start_project" && a.polis === "athinae" && a.project === "shipyards", until: (msg, mine) => !mine },
  { id: "watch", until: (msg, mine) => mine && phase(msg) === "action" },
  { id: "pass", hl: ["#actions [data-type=pass]"], allow: (a) => a.type === "pass", until: (msg, mine) => !mine || phase(msg) !== "action" },
  { id: "endround", until: (msg, mine) => mine && phase(msg) !== "action" },
  { id: "supply", hl: ["#actions [data-type=pay_supply]"], allow: (a) => a.type === "pay_supply",
    until: (msg, mine) => phase(msg) === "phoros" || (phase(msg) !== "supply" && !mine) },
  { id: "phoros", hl: ["#actions .count-btn[data-count=\"0\"]"], allow: (a) => a.type === "phoros" && a.amount === 0,
    until: (msg) => phase(msg) !== "phoros" },
  { id: "finish", hl: ["#roundend", "#players .side[data-seat=\"0\"] > p:first-child"] },
];

const SCRIPTS = { spqrisiko: SPQR, polis: POLIS };

let ctx = null;
let game = "";
let tableId = "";
let steps = [];
let at = 0; // the current step
let box = null;
let closed = false;
let lastVersion = -1;
let scrolledFor = -1; // the step whose control was scrolled into view

function key() { return `hegemon.tutorial.${tableId}`; }

function myTurn(msg) {
  return !!(msg && msg.status === "playing" && msg.seat !== null && (msg.view.legal_actions || []).length > 0);
}

const current = () => steps[at] || steps[steps.length - 1];

/** Advance past every step whose goal the table has reached (a move can complete one and skip none). */
function advance() {
  const msg = ctx.msg;
  if (!msg || current().id === "welcome") return;
  if (msg.status === "finished" && current().id !== "finish") { at = steps.length - 1; return; }
  while (at < steps.length - 1 && current().until && current().until(msg, myTurn(msg))) at += 1;
}

/** The table asks before sending a move: during a step that teaches a move, only that move goes. */
function guard(action) {
  if (closed) return true;
  const s = current();
  if (s.id === "welcome") { hint(); return false; }
  if (!s.allow || s.allow(action, ctx.msg)) return true;
  // the story went another way (the game changed since the script was written): never lock the player in
  if (!(ctx.msg.view.legal_actions || []).some((a) => s.allow(a, ctx.msg))) return true;
  hint();
  return false;
}

function hint() {
  if (!box) return;
  let p = box.querySelector(".tut-hint");
  if (!p) { p = h("p", { class: "tut-hint", role: "alert" }); box.append(p); }
  p.textContent = t(current().id === "welcome" ? "tut.hint.start" : "tut.hint");
  p.classList.remove("flash");
  void p.offsetWidth;
  p.classList.add("flash");
}

const watching = []; // [observer, element]: redraws of the controls and the map

function highlight() {
  for (const [o] of watching) o.disconnect();
  document.querySelectorAll(".tut-hl").forEach((el) => el.classList.remove("tut-hl"));
  if (!closed && ctx.msg) {
    const s = current();
    const sels = typeof s.hl === "function" ? s.hl(ctx.msg) : s.hl || [];
    for (const sel of sels) document.querySelectorAll(sel).forEach((el) => el.classList.add("tut-hl"));
    // once per step: bring the control it points at into view (it may be below the fold of the side panel); of
    // several, the step's first one
    if (scrolledFor !== at) {
      const target = sels.flatMap((sel) => [...document.querySelectorAll(sel)]).find((el) => el.closest("#actions, #players"));
      if (target) { target.scrollIntoView({ block: "nearest" }); scrolledFor = at; }
    }
  }
  if (!closed) for (const [o, el] of watching) o.observe(el, { childList: true, subtree: true, attributes: true, attributeFilter: ["class"] });
}

function render() {
  if (closed) return;
  const msg = ctx.msg;
  if (msg && msg.version !== lastVersion) { lastVersion = msg.version; advance(); }
  const s = current();
  if (!box) {
    // in the side panel, above the controls it points at: the map stays free
    const side = document.getElementById("side");
    box = h("aside", { class: `tut-box${side ? " tut-inline" : ""}`, id: "tut-box", role: "status", "aria-live": "polite" });
    if (side) side.prepend(box);
    else document.body.append(box);
  }
  // rebuild the box only when the step or the language changes (the bots' moves redraw the table often)
  const stamp = `${s.id}|${document.documentElement.lang}`;
  if (box.dataset.stamp === stamp) { highlight(); return; }
  box.dataset.stamp = stamp;
  box.dataset.step = s.id;
  document.body.dataset.tutorial = s.id === "finish" ? "done" : s.id;
  const n = steps.length - 1; // the welcome is not counted
  const why = `tut.${game}.${s.id}.why`;
  box.replaceChildren(...[
    h("p", { class: "tut-step" }, t("tut.title"), at > 0 ? ` · ${t("tut.stepof", { i: at, n })}` : ""),
    h("h3", {}, t(`tut.${game}.${s.id}.title`)),
    h("p", { class: "tut-do" }, t(`tut.${game}.${s.id}.do`)),
    t(why) !== why ? h("p", { class: "tut-why" }, t(why)) : null,
    s.id === "welcome" ? h("button", { type: "button", class: "primary", id: "tut-start", onclick: () => { at = 1; lastVersion = -1; render(); } }, t("tut.start")) : null,
    s.id === "finish" ? h("button", { type: "button", class: "primary", id: "tut-real", onclick: realGame }, t("tut.realgame")) : null,
    s.id === "finish" ? h("button", { type: "button", id: "tut-close", onclick: close }, t(msg && msg.status === "finished" ? "tut.closebox" : "tut.keepplaying")) : null,
    s.id === "finish" ? h("a", { class: "button", id: "tut-rules", href: `/rules/${game}`, target: "_blank", rel: "noopener" }, t("learn.read")) : null,
    s.id !== "finish" ? h("button", { type: "button", id: "tut-skip", onclick: close }, t("tut.skip")) : null,
  ].filter(Boolean));
  highlight();
}

/** The table of the real game a lesson offers at its end: the person in seat 0 against the lobby's default bot
 * (the easy level, one ply; the random one is no opponent, and in Polis ends most games in round 1 by its own
 * ostracism), with the lesson's number of players. */
export function realGameBody(gameName) {
  return gameName === "polis"
    ? { game: "polis", players: 2, options: {}, seats: [{ human: true }, { bot: DEFAULT_BOT }], claim: 0 }
    : { game: "spqrisiko", players: 3, options: { random_deal: true }, seats: [{ human: true }, { bot: DEFAULT_BOT }, { bot: DEFAULT_BOT }], claim: 0 };
}

/** A real game: a new table (its own secret dice). */
async function realGame(e) {
  e.target.disabled = true;
  const body = realGameBody(game);
  const name = localStorage.getItem("hegemon.name");
  if (name) body.seats[0].name = name;
  try {
    const res = await api("/api/tables", { method: "POST", body });
    localStorage.setItem(`hegemon.seat.${res.id}`, res.seats[0].token);
    localStorage.removeItem(key());
    location.href = `/t/${res.id}`;
  } catch (err) {
    e.target.disabled = false;
    e.target.textContent = `${t("tut.realgame")} — ${err.message}`;
  }
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

/** Start the lesson at this table if the lobby asked for it. `tableCtx` is the table's context (msg, guard…). */
export function maybeTutorial(gameName, id, tableCtx) {
  if (localStorage.getItem(`hegemon.tutorial.${id}`) !== gameName || !SCRIPTS[gameName]) return false;
  ctx = tableCtx;
  game = gameName;
  tableId = id;
  steps = SCRIPTS[gameName];
  at = 0;
  ctx.guard = guard;
  // follow every new position and every redraw of the controls (the highlights go on the new elements)
  new MutationObserver(() => render()).observe(document.body, { attributes: true, attributeFilter: ["data-version", "data-phase", "data-myturn", "data-status"] });
  let queued = false;
  const again = () => { if (!queued) { queued = true; requestAnimationFrame(() => { queued = false; highlight(); }); } };
  for (const el of [document.getElementById("actions"), document.getElementById("board"), document.getElementById("players")]) {
    if (el) watching.push([new MutationObserver(again), el]);
  }
  render();
  return true;
}

/** Redraw after a language switch. */
export function relabelTutorial() {
  if (ctx && !closed) render();
}
