// Small helpers shared by the lobby and the table. Text is always set with textContent (never as HTML),
// so names and any other text from the server cannot inject markup.
import { lang, setLang, t } from "./i18n.js";

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
    const err = new Error((data && data.message) || r.statusText);
    err.code = data && data.code;
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

export const COLOURS = ["#d33c32", "#2f6fd0", "#e3b21b", "#2e9b49", "#9b3fb5"];
export const COLOUR_NAMES = ["red", "blue", "yellow", "green", "purple"];

export function clear(el) {
  el.replaceChildren();
  return el;
}

export function pct(x) {
  return `${(100 * x).toFixed(1)}%`;
}
