// Small helpers shared by the lobby and the table. Text is always set with textContent (never as HTML),
// so names and any other text from the server cannot inject markup.
import { errorText } from "./errors.js";
import { has, lang, setLang, t } from "./i18n.js";

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const SVGNS = "http://www.w3.org/2000/svg";
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) if (c) el.append(c);
  return el;
}

export async function api(path, opts = {}) {
  const init = { headers: { "Content-Type": "application/json" }, ...opts };
  if (opts.body && typeof opts.body !== "string") init.body = JSON.stringify(opts.body);
  const r = await fetch(path, init);
  const ct = r.headers.get("content-type") || "";
  const data = ct.includes("json") ? await r.json() : await r.text();
  if (!r.ok) {
    // the message in the player's language (errors.js); the server's own words stay in `serverMessage`
    const err = new Error(data && data.code ? errorText(data) : r.statusText);
    err.code = data && data.code;
    err.detail = data && data.detail;
    err.status = r.status;
    err.serverMessage = data && data.message;
    throw err;
  }
  return data;
}

export function langButton(onChange) {
  const b = h("button", { class: "lang", id: "lang", type: "button", text: t("lang.switch") });
  b.addEventListener("click", () => {
    setLang(lang === "it" ? "en" : "it");
    b.textContent = t("lang.switch");
    onChange();
  });
  return b;
}

// The players' colours: Okabe & Ito's palette, which people with a red-green or blue-yellow colour deficiency
// still tell apart (tests/e2e/test_glance.py checks it under a simulated deficiency). NEUTRAL is a dark grey
// that no simulated deficiency confuses with the bluish green.
export const COLOURS = ["#d55e00", "#0072b2", "#f0e442", "#009e73", "#cc79a7"];
export const NEUTRAL = "#5f5a50";
/** A light fill that takes dark text (the yellow). */
export const LIGHT = new Set(["#f0e442"]);
/** A colour as text on the light page: the yellow darkened to keep 4.5:1 (a seat's name in the log). */
export function inkOf(colour) {
  return LIGHT.has(colour) ? "#6b6000" : colour;
}

// a second cue beside the colour: each owner's areas are filled with its own texture (lines, dots, grid…)
const TEXTURES = [
  "M0 6L6 0M-1 1L1 -1M5 7L7 5", // diagonal lines
  "M1.5 1.5h.01M4.5 4.5h.01", // dots
  "M0 1.5H6M0 4.5H6", // horizontal lines
  "M0 0L6 6M-1 5L1 7M5 -1L7 1", // the other diagonal
  "M0 3H6M3 0V6", // a grid
];
/** <defs> of one <pattern id="fill-{key}"> per entry of `fills` ({key: [colour, texture index or null]}): the
 * colour with the texture drawn over it in a translucent dark line. An area takes it as fill="url(#fill-key)". */
export function textures(fills) {
  const defs = s("defs");
  for (const [key, [colour, k]] of Object.entries(fills)) {
    const pat = s("pattern", { id: `fill-${key}`, patternUnits: "userSpaceOnUse", width: 6, height: 6 },
      s("rect", { width: 6, height: 6, fill: colour }));
    if (k !== null) pat.append(s("path", { d: TEXTURES[k % TEXTURES.length], stroke: "rgba(0,0,0,.35)", "stroke-width": k === 1 ? 2.2 : 0.9, "stroke-linecap": "round", fill: "none" }));
    defs.append(pat);
  }
  return defs;
}
export const COLOUR_NAMES = ["red", "blue", "yellow", "green", "purple"];

export function clear(el) {
  el.replaceChildren();
  return el;
}

const formats = {};
/** A decimal in the reader's language ("0.75" in English, "0,75" in Italian), with `digits` decimals. */
export function num(x, digits = 2, style = "decimal") {
  const key = `${lang}/${digits}/${style}`;
  formats[key] ??= new Intl.NumberFormat(lang, { style, minimumFractionDigits: digits, maximumFractionDigits: digits });
  return formats[key].format(x);
}

/** A probability as a percentage with one decimal: "98.4%", "98,4%" in Italian. */
export function pct(x) {
  return num(x, 1, "percent");
}

/** An exact probability {decimal, fraction} as a player reads it: "88.1%", with the fraction when it is short
 * ("62.5% (5/8)"); a long one ("1104254418115/1253826625536") only frightens, so it goes to the tooltip title. */
export function chance(p) {
  // an exact fraction when it is short; a floating-point answer (too large for fractions) has none
  const short = p.fraction != null && String(p.fraction).length <= 11;
  return short ? `${pct(p.decimal)} (${p.fraction})` : pct(p.decimal);
}

// ------------------------------------------------------------------ icons
// Small inline SVG icons instead of emoji or symbol characters: Debian's Chromium has no emoji font, and an
// icon drawn from a path looks the same in every browser. Each is a 16×16 drawing in the text colour.
const ICONS = {
  die: "M3 1.5h10A1.5 1.5 0 0 1 14.5 3v10a1.5 1.5 0 0 1-1.5 1.5H3A1.5 1.5 0 0 1 1.5 13V3A1.5 1.5 0 0 1 3 1.5zM4.8 3.6a1.2 1.2 0 1 0 0 2.4a1.2 1.2 0 1 0 0-2.4zM11.2 3.6a1.2 1.2 0 1 0 0 2.4a1.2 1.2 0 1 0 0-2.4zM8 6.8a1.2 1.2 0 1 0 0 2.4a1.2 1.2 0 1 0 0-2.4zM4.8 10a1.2 1.2 0 1 0 0 2.4a1.2 1.2 0 1 0 0-2.4zM11.2 10a1.2 1.2 0 1 0 0 2.4a1.2 1.2 0 1 0 0-2.4z",
  clock: "M8 1.5a6.5 6.5 0 1 1 0 13a6.5 6.5 0 1 1 0-13zM8 3a5 5 0 1 0 0 10a5 5 0 1 0 0-10zM7.3 4.5h1.4v3.2l2.3 1.6l-.8 1.1l-2.9-2z",
  first: "M2.5 3h1.8v10H2.5zM13.5 3v10L5.5 8z",
  prev: "M12 3v10L4 8z",
  next: "M4 3v10l8-5z",
  last: "M11.7 3h1.8v10h-1.8zM2.5 3v10l8-5z",
  turn: "M5 3v10l7-5z",
  grid: "M2 2h5.2v5.2H2zM8.8 2H14v5.2H8.8zM2 8.8h5.2V14H2zM8.8 8.8H14V14H8.8z",
  sword: "M13.8 1.2l1 1l-7.6 7.6l1.2 1.2l-1 1l-1.1-1.1l-2.6 2.6l.5.5l-1 1l-2.6-2.6l1-1l.5.5l2.6-2.6l-1.1-1.1l1-1l1.2 1.2z",
  anchor: "M8 1a1.9 1.9 0 0 1 .8 3.6V6H11v1.4H8.8v5.5a4.6 4.6 0 0 0 3.9-3.5l-1.3.3l2.2-2.6l.9 3.3l-.9-.8A6.2 6.2 0 0 1 8 14.8A6.2 6.2 0 0 1 2.4 9.6l-.9.8l.9-3.3l2.2 2.6l-1.3-.3a4.6 4.6 0 0 0 3.9 3.5V7.4H5V6h2.2V4.6A1.9 1.9 0 0 1 8 1zm0 1.3a.6.6 0 1 0 0 1.2a.6.6 0 1 0 0-1.2z",
  cards: "M5.2 1.5l7.6 1.3l-1.9 11.7l-7.6-1.3zM2.3 4.1l1.4.2l-1.3 8.1l5 .9l-.2 1.3l-6.4-1.1z",
  star: "M8 1l2 4.6l5 .5l-3.8 3.3l1.1 4.9L8 11.8l-4.3 2.5l1.1-4.9L1 6.1l5-.5z",
  bot: "M7.3 1h1.4v2H12a2 2 0 0 1 2 2v6a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h3.3zM5.8 6.2a1.2 1.2 0 1 0 0 2.4a1.2 1.2 0 1 0 0-2.4zM10.2 6.2a1.2 1.2 0 1 0 0 2.4a1.2 1.2 0 1 0 0-2.4zM5.5 10.2v1.2h5v-1.2zM0 6.5h1.3v3H0zM14.7 6.5H16v3h-1.3z",
};

export function icon(name, title) {
  const el = s("svg", { class: `icon icon-${name}`, viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": title ? null : "true", role: title ? "img" : null },
    title ? s("title", { text: title }) : null, s("path", { d: ICONS[name], fill: "currentColor", "fill-rule": "evenodd" }));
  return el;
}

// ------------------------------------------------------------------ count choices
// A compound move's count (how many to move, create, declare…): buttons when there are 2 to 4 legal counts,
// otherwise a slider over the legal values only, with the number shown, ←/→ to change it and Enter (or the
// confirm button) to play it. `items`: [{value, action}] — only actions the server listed, so nothing else can
// be sent. Remembers the last value per `key` across re-renders.
const remembered = new Map();

export function countChoice({ key, id, label, items, fmt = String, onPick, onChange, onEnter, confirmText, confirmId, preferred = "max", extra }) {
  const list = [...items].sort((a, b) => a.value - b.value);
  const values = list.map((x) => x.value);
  let idx = values.indexOf(remembered.get(key));
  if (idx < 0) idx = preferred === "min" ? 0 : values.length - 1;
  const wrap = h("div", { class: "count", "data-key": key });
  const extraSlot = h("div", { class: "count-extra" });
  const pick = () => {
    if (onChange) { if (onEnter) onEnter(); return; }
    remembered.delete(key);
    onPick(list[idx].action, list[idx].value);
  };
  const changed = () => {
    remembered.set(key, values[idx]);
    if (onChange) onChange(values[idx]);
    if (extra) clear(extraSlot).append(extra(values[idx]) || "");
  };
  if (label) wrap.append(h("span", { class: "count-label", id: `${id}-label` }, label));
  if (list.length <= 4) {
    // a few counts: one button each (that plays it, or with onChange only selects it)
    const btns = list.map((x, i) => h("button", {
      type: "button", class: `count-btn${onChange && i === idx ? " on" : ""}`, "data-count": x.value,
      "aria-describedby": label ? `${id}-label` : null, "aria-pressed": onChange ? String(i === idx) : null,
      onclick: () => {
        idx = i;
        if (!onChange) return pick();
        btns.forEach((b, j) => { b.classList.toggle("on", j === i); b.setAttribute("aria-pressed", String(j === i)); });
        changed();
      },
      onmouseenter: extra && !onChange ? () => { idx = i; changed(); } : null,
      onfocus: extra && !onChange ? () => { idx = i; changed(); } : null,
    }, fmt(x.value)));
    wrap.append(h("span", { class: "btns" }, btns));
    if (extra) wrap.append(extraSlot);
    changed();
    return wrap;
  }
  const out = h("output", { for: id, class: "count-value" }, fmt(values[idx]));
  const inp = h("input", {
    type: "range", id, min: 0, max: list.length - 1, step: 1, value: idx, "data-countfocus": "1",
    "aria-labelledby": label ? `${id}-label` : null, "aria-valuetext": fmt(values[idx]),
  });
  const sync = () => {
    inp.value = String(idx);
    out.textContent = fmt(values[idx]);
    inp.setAttribute("aria-valuetext", fmt(values[idx]));
    changed();
  };
  inp.addEventListener("input", () => { idx = Number(inp.value); sync(); });
  inp.addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); pick(); }
  });
  const step = (d) => h("button", { type: "button", class: "step", "aria-label": d < 0 ? "−1" : "+1",
    onclick: () => { idx = Math.max(0, Math.min(list.length - 1, idx + d)); sync(); } }, d < 0 ? "−" : "+");
  wrap.append(h("span", { class: "slider" }, step(-1), inp, step(1), out));
  if (extra) wrap.append(extraSlot);
  if (!onChange) wrap.append(h("button", { type: "button", class: "primary confirm", id: confirmId || null, "data-count-confirm": key, onclick: pick }, confirmText || "OK"));
  changed();
  // keyboard first: the slider takes the focus unless the user is somewhere else on the page
  requestAnimationFrame(() => {
    const a = document.activeElement;
    if (inp.isConnected && (!a || a === document.body || (a.dataset && a.dataset.countfocus))) inp.focus({ preventScroll: true });
  });
  return wrap;
}

/** The bot a new table's seats get (the lobby's default, a lesson's "real game" after it): the easy level, one
 * ply (the greedy bot), a real opponent that never throws the game away (the random bot stays on the list; normal
 * and hard are a choice away). */
export const DEFAULT_BOT = "mcts:easy";

/** The named levels of the search bot (`ai/levels.LADDER`): a seat reads the level's name alone. */
const NAMED_LEVELS = new Set(["easy", "normal", "hard"]);

/** A bot kind as a person reads it: a named level by its name ("mcts:hard" → "hard", as "random" and
 * "beginner" read by theirs: the lobby lists the ladder random, beginner, easy, normal, hard), any other setting
 * with the bot's name ("mcts:400" → "search, 400"). No brackets: a seat's name puts it in some, "Sparta (hard)". */
export function botLabel(kind) {
  const [name, level] = String(kind).split(":");
  if (name === "mcts" && NAMED_LEVELS.has(level) && has(`level.${level}`)) return t(`level.${level}`);
  const base = has(`bot.${name}`) ? t(`bot.${name}`) : name;
  return level ? t("bot.withlevel", { bot: base, level: has(`level.${level}`) ? t(`level.${level}`) : level }) : base;
}

/** The name of the board a table plays on (`board`: a shipped board's name, "default" for the game's own, or
 * "uploaded"), in the player's language; null when there is nothing to tell apart (a game's only board). */
export function boardName(game, board) {
  if (!board) return null;
  if (board === "uploaded") return t("board.uploaded");
  if (has(`board.${game}.${board}`)) return t(`board.${game}.${board}`);
  return board === "default" ? null : board;
}
