// What happened, shown to every player and spectator: short announcements (toasts) over the map, the dice of
// the last roll drawn beside the map, a confirmation before a move that loses the game, and the log's repeats
// grouped. The game modules say what happened (board.happenings); this module only shows it.
import { clear, h, s } from "./common.js";
import { t } from "./i18n.js";

const PIPS = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
  5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] };

/** One die drawn as an SVG square with pips (no font glyphs); `lost` greys it with a slash. */
export function die(n, side, lost) {
  const g = s("svg", { class: `die ${side}${lost ? " lost" : ""}`, viewBox: "0 0 24 24", width: 26, height: 26, role: "img", "data-value": n },
    s("title", { text: t("dice.die", { n }) }),
    s("rect", { x: 1, y: 1, width: 22, height: 22, rx: 4, class: "face" }));
  for (const [x, y] of PIPS[n] || []) g.append(s("circle", { cx: x * 5 + 2, cy: y * 5 + 2, r: 2.1, class: "pip" }));
  if (!PIPS[n]) g.append(s("text", { x: 12, y: 16.5, class: "num", text: String(n) }));
  if (lost) g.append(s("line", { x1: 3, y1: 21, x2: 21, y2: 3, class: "slash" }));
  return g;
}

/** The dice tray: `roll` = {title, attacker: [..], defender: [..], lostA: [bool], lostD: [bool], losses: text}. */
export function showDice(roll) {
  const tray = document.getElementById("dicetray");
  if (!tray) return;
  clear(tray);
  if (!roll) { tray.hidden = true; return; }
  tray.hidden = false;
  tray.append(h("strong", {}, roll.title || t("dice.title")));
  const row = (label, dice, lost, side) => h("span", { class: `dicerow ${side}` }, h("span", { class: "dlabel" }, label),
    dice.map((n, i) => die(n, side, lost && lost[i])));
  if (roll.attacker) tray.append(row(roll.attackerName || t("dice.attacker"), roll.attacker, roll.lostA, "att"));
  if (roll.defender && roll.defender.length) tray.append(row(roll.defenderName || t("dice.defender"), roll.defender, roll.lostD, "def"));
  if (roll.losses) tray.append(h("span", { class: "losses" }, roll.losses));
  tray.classList.remove("fresh");
  void tray.offsetWidth; // restart the highlight
  tray.classList.add("fresh");
}

/** Short announcements stacked over the map, each shown for a few seconds (or until a click). At most 4 at once
 * (2 on a phone, which keeps the map in view); the others wait their turn, never dropped before they were shown:
 * while some wait, each stays less long. Everything announced is also in the "since your turn" panel. */
const waiting = [];
const MOST_WAITING = 40; // a very long burst (a reconnection after a long absence): the oldest plain news go first

function toastBox() {
  return document.getElementById("toasts");
}

function showing(box) {
  return box.querySelectorAll(".toast:not(.going)").length;
}

export function toast(text, kind = "") {
  const box = toastBox();
  if (!box || !text) return;
  const queued = waiting[waiting.length - 1];
  const last = box.lastElementChild;
  if (!queued && last && last.dataset.text === text && !last.classList.contains("going")) {
    // the same news again (a bot's quick turns): counted on the one shown
    last.dataset.n = String(Number(last.dataset.n || 1) + 1);
    last.textContent = `${text} ${t("log.times", { n: last.dataset.n })}`;
    return;
  }
  if (queued && queued.text === text) { queued.n += 1; return; }
  waiting.push({ text, kind, n: 1 });
  if (waiting.length > MOST_WAITING) {
    const k = waiting.findIndex((x) => !x.kind);
    waiting.splice(k >= 0 ? k : 0, 1);
  }
  pump();
}

function pump() {
  const box = toastBox();
  if (!box) return;
  const most = window.matchMedia("(max-width: 820px)").matches ? 2 : 4;
  while (waiting.length && showing(box) < most) {
    const x = waiting.shift();
    const text = x.n > 1 ? `${x.text} ${t("log.times", { n: x.n })}` : x.text;
    const el = h("div", { class: `toast ${x.kind}`, role: "status", "data-text": x.text }, text);
    if (x.n > 1) el.dataset.n = String(x.n);
    let gone = false;
    const go = () => { if (gone) return; gone = true; el.remove(); pump(); };
    el.addEventListener("click", go);
    box.append(el);
    // long enough to read; shorter while others wait (a bot's round announces a lot at once)
    const life = waiting.length ? Math.max(2500, 6000 - 500 * waiting.length) : 6000;
    setTimeout(() => el.classList.add("going"), life - 800);
    setTimeout(go, life);
  }
}

/** Ask before a move that loses the game or costs the last prestige: resolves true to play it. */
export function confirmMove(text, label) {
  return new Promise((resolve) => {
    const dlg = h("dialog", { id: "confirm-move", class: "confirm" });
    const done = (ok) => { dlg.close(); dlg.remove(); resolve(ok); };
    dlg.append(h("h2", {}, t("confirm.title")), h("p", { class: "danger" }, text), label ? h("p", { class: "hint" }, label) : null,
      h("div", { class: "btns" },
        h("button", { type: "button", id: "confirm-no", class: "primary", onclick: () => done(false) }, t("confirm.no")),
        h("button", { type: "button", id: "confirm-yes", onclick: () => done(true) }, t("confirm.yes"))));
    dlg.addEventListener("cancel", (e) => { e.preventDefault(); done(false); });
    document.body.append(dlg);
    dlg.showModal();
  });
}

/** "+2 prestige · −1 population": a signed number in a text; no change is a plain "0" (never "−0"). */
export function signed(n) {
  if (n > 0) return `+${n}`;
  return n < 0 ? `\u2212${-n}` : "0";
}
