// "Since your turn": what every other player did since this seat last chose a move, turn by turn and in words,
// with what it changed (the log lines' `changes`: public facts the server computed, the same for everybody):
// conquests and captures, units lost, VP scored and from what, sieges, prestige, eliminations, new rounds. Each
// roll of a battle can be shown again in the dice tray. A spectator sees the latest turns. Nothing here goes away
// before this seat's next move.
import { clear, h, inkOf } from "./common.js";
import { t } from "./i18n.js";
import { die, showDice } from "./happen.js";

const BIG = new Set(["conquest", "polis", "vp", "eliminated", "proxenos", "round"]);
const MOST_SEGMENTS = 12; // older turns are in the log
const SEEN_KEY = "hegemon.sinceseen"; // the turns last shown (table, first and last line): on a phone, folded when shown again
const folds = new Map(); // this page's fold of each set of turns (the player's own taps)
const SCAN = 1500; // log lines looked at, at most (a spectator's latest turns; a seat's turns since its move)

/** The log lines since `seat` last chose a move itself (forced and timed-out moves do not count), cut into turns:
 * [{actor, entries}] where a chance line (a roll, a draw) belongs to the turn it happens in. A spectator (seat
 * null): the latest turns. Returns {segments, earlier} (earlier: turns left out, in the log). */
export function sinceSegments(log, seat) {
  const from = Math.max(0, log.length - SCAN);
  let start = from;
  if (seat !== null && seat !== undefined) {
    for (let i = log.length - 1; i >= from; i--) {
      if (log[i].actor === seat && !log[i].note) { start = i + 1; break; }
    }
  }
  const segs = [];
  for (let i = start; i < log.length; i++) {
    const e = log[i];
    const last = segs[segs.length - 1];
    if (last && (e.actor < 0 || e.actor === last.actor)) last.entries.push(e);
    else segs.push({ actor: e.actor, entries: [e] });
  }
  const most = seat === null || seat === undefined ? 4 : MOST_SEGMENTS;
  return { segments: segs.slice(-most), earlier: Math.max(0, segs.length - most) };
}

/** A turn's changes added up: VP, losses and prestige summed by player (VP by source too), a siege's last count;
 * conquests, captures, eliminations and rounds in order. A siege that ended with its polis taken is said by the
 * capture. */
export function mergeChanges(list) {
  const out = [];
  const at = new Map();
  for (const c of list) {
    let key = null;
    if (c.k === "vp") key = `vp|${c.who}`;
    else if (c.k === "lost") key = `lost|${c.who ?? c.side}|${c.unit ?? ""}`;
    else if (c.k === "prestige") key = `pp|${c.side}`;
    else if (c.k === "siege") key = `siege|${c.polis}|${c.side}`;
    const old = key === null ? null : at.get(key);
    if (!old) {
      const copy = { ...c };
      if (c.sources) copy.sources = { ...c.sources };
      if (c.places) copy.places = [...c.places];
      if (key !== null) at.set(key, copy);
      out.push(copy);
    } else if (c.k === "vp") {
      old.n += c.n;
      old.total = c.total;
      for (const [k, n] of Object.entries(c.sources || {})) old.sources[k] = (old.sources[k] || 0) + n;
    } else if (c.k === "lost") {
      for (const f of ["legionaries", "triremes", "n"]) if (c[f] !== undefined) old[f] = (old[f] || 0) + c[f];
      for (const p of c.places || []) if (!old.places.includes(p)) old.places.push(p);
    } else if (c.k === "prestige") {
      old.n += c.n;
      old.total = c.total;
    } else Object.assign(old, c); // a siege: its latest count
  }
  const taken = new Set(out.filter((c) => c.k === "polis").map((c) => `${c.polis}|${c.to}`));
  return out.filter((c) => !(c.k === "prestige" && c.n === 0) && !(c.k === "siege" && c.n > 0 && taken.has(`${c.polis}|${c.side}`)));
}

/** Draw the panel into `box`. `board`: the game module (describe, changeText, rollDice, headline);
 * `open`: the keys of the turns whose moves are unfolded (kept across redraws). */
export function renderSince(box, { log, seat, board, seatName, seatColour, view, open }) {
  const { segments, earlier } = sinceSegments(log, seat);
  clear(box);
  box.hidden = !segments.length; // nothing since this seat's last move: no panel
  if (!segments.length) return;
  // folded by its title; on a phone (where it shares the sheet with the controls under the map) also once it was
  // read: the same turns opened again later start folded, newer turns unfold it
  const lastSeg = segments[segments.length - 1];
  const readKey = `${location.pathname}|${segments[0].entries[0].i}|${lastSeg.entries[lastSeg.entries.length - 1].i}`;
  if (!folds.has(readKey)) {
    const phone = typeof matchMedia !== "undefined" && matchMedia("(max-width: 820px)").matches;
    folds.set(readKey, phone && localStorage.getItem(SEEN_KEY) === readKey);
    localStorage.setItem(SEEN_KEY, readKey);
  }
  const folded = folds.get(readKey);
  const ol = h("ol", { class: "since", id: "sincelist", hidden: folded });
  const more = earlier ? h("p", { class: "hint", id: "sinceearlier", hidden: folded }, t("since.earlier", { n: earlier })) : null;
  const fold = h("button", { type: "button", class: "fold", id: "sincefold", "aria-controls": "sincelist", "aria-expanded": String(!folded),
    title: t(folded ? "since.unfold" : "since.fold") }, t(seat === null || seat === undefined ? "since.titlewatch" : "since.title"),
  h("span", { class: "chev", "aria-hidden": "true" }));
  fold.addEventListener("click", () => {
    const now = !ol.hidden;
    ol.hidden = now;
    if (more) more.hidden = now;
    fold.setAttribute("aria-expanded", String(!now));
    fold.title = t(now ? "since.unfold" : "since.fold");
    folds.set(readKey, now);
    if (!now) fitList(ol);
  });
  box.append(h("h2", { id: "sincetitle" }, fold));
  const news = turnNews(segments);
  segments.forEach((seg, k) => ol.append(segmentItem(seg, news[k], { seat, board, seatName, seatColour, view, open })));
  box.append(ol);
  if (more) box.append(more);
  if (!folded) fitList(ol);
}

/** The list scrolls in a box of bounded height: it never ends on a turn's heading with nothing of the turn under
 * it, or a line of it (the box is cut before that turn instead; the rest is a scroll away). */
export function fitList(ol) {
  ol.style.maxHeight = "";
  const limit = ol.clientHeight;
  if (!limit || ol.scrollHeight <= limit + 1) return;
  const top0 = ol.getBoundingClientRect().top - ol.scrollTop;
  for (const li of ol.children) {
    const top = li.getBoundingClientRect().top - top0;
    if (top >= limit) break;
    const under = li.children[1]; // what the turn changed (or "no change"), under its heading
    const r = under ? under.getBoundingClientRect() : null;
    // the heading shown with less than two lines of its turn under it
    if (r && r.bottom - top0 > limit && r.top - top0 > limit - 40 && top > 0) {
      ol.style.maxHeight = `${Math.floor(top)}px`;
      break;
    }
  }
  ol.classList.add("scrolls");
}

/** Each turn's changes. VP are scored as a turn begins (on the last line of the turn before): they are said in
 * the turn of the player who scored them when it follows. */
export function turnNews(segments) {
  const out = segments.map((seg) => seg.entries.flatMap((e) => e.changes || []));
  for (let k = 0; k + 1 < segments.length; k++) {
    const next = segments[k + 1].actor;
    const move = out[k].filter((c) => c.k === "vp" && c.who === next && segments[k].actor !== next);
    if (!move.length) continue;
    out[k] = out[k].filter((c) => !move.includes(c));
    out[k + 1] = [...move, ...out[k + 1]];
  }
  return out;
}

function segmentItem(seg, changes, { seat, board, seatName, seatColour, view, open }) {
  const key = String(seg.entries[0].i);
  const whoName = seg.actor < 0 ? t("since.chance") : seg.actor === seat ? `${seatName(seg.actor)} (${t("since.you")})` : seatName(seg.actor);
  const li = h("li", { class: "turn", "data-actor": seg.actor, "data-from": key },
    h("strong", { class: "who", style: seg.actor >= 0 ? `color:${inkOf(seatColour(seg.actor))}` : "" }, whoName));
  // what it changed, added up over the turn (and the round's event)
  const lines = [];
  for (const e of seg.entries) if (board.headline && board.headline(e.action)) lines.push({ text: board.describe(e.action, e.actor), big: true, k: "event" });
  for (const c of mergeChanges(changes)) {
    const text = board.changeText ? board.changeText(c) : "";
    if (text) lines.push({ text, big: BIG.has(c.k), k: c.k });
  }
  li.append(lines.length
    ? h("ul", { class: "news" }, lines.map((x) => h("li", { class: x.big ? "big" : "", "data-k": x.k }, x.text)))
    : h("p", { class: "hint" }, t("since.nochange")));
  // every move, each roll with its dice (shown again in the tray on a click)
  const moves = h("ol", { class: "moves" });
  let last = null;
  seg.entries.forEach((e, k) => {
    const dice = board.rollDice ? board.rollDice(seg.entries, k, view, seg.actor) : null;
    const words = (e.changes || []).map((c) => (board.changeText ? board.changeText(c) : "")).filter(Boolean).join(" · ");
    const text = `${board.describe(e.action, e.actor)}${words ? ` — ${words}` : ""}`;
    if (!dice && last && last.dataset.text === text) {
      last.dataset.n = String(Number(last.dataset.n || 1) + 1);
      last.querySelector(".times").textContent = ` ${t("log.times", { n: last.dataset.n })}`;
      return;
    }
    const item = h("li", { "data-i": e.i, "data-text": text, class: e.actor < 0 ? "chance" : "" }, text, h("span", { class: "times" }));
    if (dice) {
      item.classList.add("roll");
      item.prepend(h("button", { type: "button", class: "replaydice", title: t("since.replay"), "aria-label": t("since.replay"),
        onclick: () => showDice(dice) }, dice.attacker.map((n, j) => die(n, "att", dice.lostA && dice.lostA[j])),
      (dice.defender || []).map((n, j) => die(n, "def", dice.lostD && dice.lostD[j]))), " ");
    }
    moves.append(item);
    last = item;
  });
  const det = h("details", { class: "movelist", "data-key": key }, h("summary", {}, t("since.moves", { n: seg.entries.length })), moves);
  if (open.has(key)) det.open = true;
  det.addEventListener("toggle", () => { if (det.open) open.add(key); else open.delete(key); });
  li.append(det);
  return li;
}
