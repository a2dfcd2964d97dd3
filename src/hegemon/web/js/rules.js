// The rules of each game for players, in English and Italian: Markdown files shipped in /static/rules/
// (<game>.<lang>.md), drawn here with DOM calls (never as HTML). Used by the rules page (/rules/<game>) and by
// the drawer that opens beside the board at the table. Headings carry the rule tags they explain
// ("## Land attacks {R 13 R 13.6}"): each tag becomes an anchor, so a refusal's "[R 13.6]" links to it.
import { api, boardName, clear, h, s as svg } from "./common.js";
import { has, lang, setLang, t } from "./i18n.js";

export const GAMES = ["spqrisiko", "polis"];
const TAG_RE = /\[((?:R \d+(?:\.\d+)*)|(?:\u00a7\d+(?:\.\d+)*))\]/g;

/** "R 13.6" → "R13.6", "\u00a74.3" → "S4.3": the id of a rule tag's anchor. */
export function tagId(tag) {
  return String(tag).trim().replace(/^\u00a7/, "S").replace(/\s+/g, "");
}

/** The rules page address of a tag, for this language (and this table, when known). */
export function rulesHref(game, tag, tableId) {
  const q = new URLSearchParams({ lang });
  if (tableId) q.set("table", tableId);
  return `/rules/${game}?${q}${tag ? `#${tagId(tag)}` : ""}`;
}

/** Text with its rule tags as links ("… [R 13.6]" → "… " + <a>R 13.6</a>); `onTag(tag, event)` may open the
 * drawer instead of following the link. */
export function linkTags(text, game, tableId, onTag) {
  const out = [];
  let last = 0;
  for (const m of String(text).matchAll(TAG_RE)) {
    if (m.index > last) out.push(String(text).slice(last, m.index));
    const tag = m[1];
    out.push(h("a", {
      class: "ruletag", href: rulesHref(game, tag, tableId), "data-tag": tag, target: "_blank", rel: "noopener",
      title: t("rules.tagtitle", { tag }),
      onclick: onTag ? (e) => { if (!e.ctrlKey && !e.metaKey && !e.shiftKey && e.button === 0) { e.preventDefault(); onTag(tag, e); } } : null,
    }, tag));
    last = m.index + m[0].length;
  }
  if (last < String(text).length) out.push(String(text).slice(last));
  return out;
}

// ------------------------------------------------------------------ a small Markdown subset

function inline(text) {
  // **bold**, *emphasis*; everything else is text
  const out = [];
  const re = /\*\*([^*]+)\*\*|\*([^*]+)\*/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(m[1] !== undefined ? h("strong", {}, m[1]) : h("em", {}, m[2]));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function cells(line) {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
}

/** Parse the Markdown subset: {title, intro: [nodes], sections: [{level, title, tags, id, nodes}]}. */
export function parseRules(md) {
  const lines = md.replace(/\r/g, "").split("\n");
  const doc = { title: "", intro: [], sections: [] };
  let target = doc.intro;
  let para = [];
  let list = null;
  let table = null;
  const flushPara = () => { if (para.length) { target.push(h("p", {}, inline(para.join(" ")))); para = []; } };
  const flushList = () => { if (list) { target.push(list); list = null; } };
  const flushTable = () => { if (table) { target.push(table); table = null; } };
  const flush = () => { flushPara(); flushList(); flushTable(); };
  for (const raw of lines) {
    const line = raw.trimEnd();
    const head = line.match(/^(#{1,3})\s+(.*?)\s*(?:\{([^}]*)\})?$/);
    if (head) {
      flush();
      if (head[1].length === 1) { doc.title = head[2]; continue; }
      const tags = head[3] ? head[3].match(/R \d+(?:\.\d+)*|\u00a7\d+(?:\.\d+)*/g) || [] : [];
      const sec = { level: head[1].length, title: head[2], tags, nodes: [] };
      sec.id = tags.length ? tagId(tags[0]) : `s-${doc.sections.length}`;
      doc.sections.push(sec);
      target = sec.nodes;
      continue;
    }
    if (/^\s*$/.test(line)) { flush(); continue; }
    if (/^\s*\|/.test(line)) {
      flushPara(); flushList();
      if (/^\s*\|[\s:|-]+\|\s*$/.test(line)) continue; // the |---| line
      if (!table) table = h("table", { class: "rules-table" }, h("thead", {}, h("tr", {}, cells(line).map((c) => h("th", {}, inline(c))))), h("tbody"));
      else table.tBodies[0].append(h("tr", {}, cells(line).map((c) => h("td", {}, inline(c)))));
      continue;
    }
    const item = line.match(/^\s*[-*]\s+(.*)$/);
    if (item) {
      flushPara(); flushTable();
      if (!list) list = h("ul");
      list.append(h("li", {}, inline(item[1])));
      continue;
    }
    flushList(); flushTable();
    para.push(line.trim());
  }
  flush();
  return doc;
}

// ------------------------------------------------------------------ this table's rules

function optLabel(o) {
  return has(`opt.${o.name}`) ? t(`opt.${o.name}`) : o.name.replace(/_/g, " ");
}

function valueText(o, v) {
  if (v === null || v === undefined) return t("lobby.none_value");
  if (typeof v === "boolean") return t(v ? "rules.yes" : "rules.no");
  return has(`choice.${o.name}.${v}`) ? t(`choice.${o.name}.${v}`) : String(v);
}

/** The box "This table": its rule set (or siege rule) in one plain sentence, then each option that differs from
 * the rule set's defaults, with what it changes. */
export function tableBox(gameInfo, options) {
  const box = h("section", { class: "rules-thistable", id: "thistable" }, h("h2", {}, t("rules.thistable")));
  const help = (o) => ((lang === "it" ? o.choice_help_it : o.choice_help) || {});
  const byName = Object.fromEntries(gameInfo.options.map((o) => [o.name, o]));
  const presetField = gameInfo.preset_field;
  const preset = presetField ? (gameInfo.presets || {})[options[presetField]] || {} : {};
  const main = presetField ? byName[presetField] : byName.siege;
  if (main) {
    const v = options[main.name] ?? main.default;
    // the sentence starts with the value's name ("Classic: …"), already said in bold
    const said = (help(main)[v] || "").replace(/^[^:]{1,40}:\s*/, "");
    box.append(h("p", { class: "rules-main", "data-option": main.name, "data-value": v },
      h("strong", {}, `${optLabel(main)}: ${valueText(main, v)}. `), said.charAt(0).toUpperCase() + said.slice(1)));
  }
  // the board: a shipped one by its name, or a corrected file (shown when the game has several boards)
  const shipped = gameInfo.boards || [];
  const onBoard = !options.board ? shipped[0] : shipped.includes(options.board) ? options.board : "uploaded";
  const boardSaid = boardName(gameInfo.name, onBoard);
  if (boardSaid) {
    const key = onBoard === "uploaded" ? "boardhelp.uploaded" : `boardhelp.${gameInfo.name}.${onBoard}`;
    box.append(h("p", { class: "rules-board", "data-board": onBoard },
      h("strong", {}, `${t("table.board", { name: boardSaid })}. `), has(key) && onBoard !== "uploaded" ? t(key) : ""));
  }
  const changed = [];
  for (const o of gameInfo.options) {
    if (o === main || o.name === "board" || o.name === "players" || !(o.name in options)) continue;
    const base = o.name in preset ? preset[o.name] : o.default;
    if (JSON.stringify(options[o.name]) === JSON.stringify(base)) continue;
    const v = options[o.name];
    const what = help(o)[v] || (lang === "it" ? o.help_it : o.help);
    changed.push(h("li", { "data-option": o.name }, h("strong", {}, `${optLabel(o)}: ${valueText(o, v)}`), ` — ${what}`));
  }
  if (changed.length) box.append(h("p", {}, t("rules.changed")), h("ul", {}, changed));
  else if (presetField) box.append(h("p", { class: "hint" }, t("rules.nochange")));
  return box;
}

// ------------------------------------------------------------------ rendering

const cache = new Map();

async function fetchRules(game, l) {
  const key = `${game}.${l}`;
  if (!cache.has(key)) {
    const r = await fetch(new URL(`../rules/${key}.md`, import.meta.url)); // this version of the client (assets.py)
    if (!r.ok) throw new Error(`${r.status}`);
    cache.set(key, await r.text());
  }
  return cache.get(key);
}

let gamesInfo = null;
async function gameInfo(game) {
  if (!gamesInfo) gamesInfo = api("/api/games").then((r) => r.games);
  return (await gamesInfo).find((g) => g.name === game);
}

/** Draw the rules of `game` in the current language into `root`, with the box of this table when `options`
 * are given. Returns the root. */
export async function renderRules(root, game, options) {
  const doc = parseRules(await fetchRules(game, lang));
  clear(root);
  root.classList.add("rules");
  root.dataset.game = game;
  root.dataset.lang = lang;
  root.append(h("h1", { class: "rules-title" }, doc.title), ...doc.intro);
  if (options) {
    const info = await gameInfo(game);
    if (info) root.append(tableBox(info, options));
  }
  // a list without numbers of its own: the rules number their phases in the titles ("1. Scoring…"), not the rest
  const toc = h("ul", { class: "rules-toc" });
  root.append(h("nav", { class: "rules-nav", "aria-label": t("rules.contents") }, h("h2", {}, t("rules.contents")), toc));
  for (const sec of doc.sections) {
    if (sec.level === 2) toc.append(h("li", {}, h("a", { href: `#${sec.id}` }, sec.title)));
    const tagline = sec.tags.length ? h("span", { class: "rules-tags" }, sec.tags.map((tg) => h("a", { class: "ruletag", href: `#${tagId(tg)}` }, tg))) : null;
    const anchors = sec.tags.slice(1).map((tg) => h("span", { id: tagId(tg), class: "rules-anchor", "data-tag": tg }));
    const heading = h(`h${sec.level}`, { id: sec.id, "data-tag": sec.tags[0] || null }, sec.title, " ", tagline);
    root.append(h("section", { class: `rules-sec level${sec.level}` }, anchors, heading, sec.nodes));
  }
  return root;
}

/** Scroll to a tag's paragraph (or its nearest parent: R 13.6 → R 13) and mark it. */
export function showTag(root, tag) {
  if (!tag) return null;
  let id = tagId(tag);
  let el = null;
  while (id && !(el = root.querySelector(`[id="${CSS.escape(id)}"]`))) {
    const cut = id.lastIndexOf(".");
    if (cut < 0) break;
    id = id.slice(0, cut);
  }
  if (!el) return null;
  root.querySelectorAll(".rules-sec.target").forEach((x) => x.classList.remove("target"));
  const sec = el.closest(".rules-sec") || el;
  sec.classList.add("target");
  sec.scrollIntoView({ block: "start" });
  return sec;
}

// ------------------------------------------------------------------ the drawer at the table

let drawer = null;

/** Open (or refresh) the rules beside the board; `tag` scrolls to a paragraph. The game goes on behind it. */
export async function openRulesDrawer(game, tableId, options, tag) {
  if (!drawer) {
    const body = h("div", { class: "drawer-body", id: "rulesbody", tabindex: "-1" });
    drawer = h("aside", { class: "rules-drawer", id: "rulesdrawer", role: "dialog", "aria-label": t("rules.title") },
      h("div", { class: "drawer-head" },
        h("strong", { id: "rulesdrawertitle" }, t("rules.title")),
        h("span", { class: "grow" }),
        h("a", { id: "rulesnewtab", class: "button", target: "_blank", rel: "noopener", href: rulesHref(game, null, tableId) }, t("rules.newtab")),
        h("button", { type: "button", id: "rulesclose", "aria-label": t("rules.close"), onclick: closeRulesDrawer }, t("rules.close"))),
      body);
    document.body.append(drawer);
    document.addEventListener("keydown", (e) => { if (e.key === "Escape" && drawer && !drawer.hidden) closeRulesDrawer(); });
  }
  drawer.hidden = false;
  document.body.classList.add("rules-open");
  // below the table's header, so its buttons (rules, language) stay in reach
  const head = document.querySelector("header.top");
  drawer.style.top = head && window.innerWidth >= 700 ? `${Math.round(head.getBoundingClientRect().bottom)}px` : "0";
  const body = drawer.querySelector(".drawer-body");
  drawer.querySelector("#rulesdrawertitle").textContent = t("rules.title");
  drawer.querySelector("#rulesnewtab").textContent = t("rules.newtab");
  drawer.querySelector("#rulesnewtab").href = rulesHref(game, tag, tableId);
  drawer.querySelector("#rulesclose").textContent = t("rules.close");
  if (body.dataset.lang !== lang || body.dataset.game !== game) await renderRules(body, game, options);
  if (tag) showTag(body, tag);
  else body.scrollTop = 0;
  return drawer;
}

export function closeRulesDrawer() {
  if (drawer) drawer.hidden = true;
  document.body.classList.remove("rules-open");
}

// ------------------------------------------------------------------ the rules page (/rules/<game>, started by rules-page.js)

export async function rulesPage() {
  const game = location.pathname.split("/")[2];
  const q = new URLSearchParams(location.search);
  if (q.get("lang")) setLang(q.get("lang"));
  const tableId = q.get("table");
  let options = null;
  if (tableId && /^[A-Za-z0-9_-]{1,40}$/.test(tableId)) {
    try { options = (await api(`/api/tables/${tableId}`)).options; } catch { options = null; }
  }
  const root = document.getElementById("rules");
  const draw = async () => {
    document.title = `${t("rules.title")} — ${game === "polis" ? "Polis" : "S.P.Q.RisiKo!"}`;
    await renderRules(root, game, options);
    const other = GAMES.find((g) => g !== game);
    const nav = document.getElementById("rulesgames");
    clear(nav).append(h("a", { href: `/rules/${other}?lang=${lang}`, id: "othergame" }, t(`rules.other.${other}`)));
    if (location.hash) showTag(root, decodeURIComponent(location.hash.slice(1)).replace(/^S/, "\u00a7").replace(/^R(?=\d)/, "R "));
    document.body.dataset.ready = "1";
  };
  const b = document.getElementById("langslot");
  b.append(h("button", { class: "lang", id: "lang", type: "button", onclick: async () => {
    setLang(lang === "it" ? "en" : "it");
    document.getElementById("lang").textContent = t("lang.switch");
    const u = new URL(location.href);
    u.searchParams.set("lang", lang);
    history.replaceState(null, "", u);
    await draw();
  } }, t("lang.switch")));
  window.addEventListener("hashchange", () => showTag(root, decodeURIComponent(location.hash.slice(1)).replace(/^S/, "\u00a7").replace(/^R(?=\d)/, "R ")));
  await draw();
}

/** The rules at a table: the header button (before the language button), refusal texts with linked tags that
 * open the drawer at their paragraph, and a relabel after a language switch. */
export function tableRules(game, tableId) {
  let opts = null;
  const options = async () => {
    if (opts === null) opts = api(`/api/tables/${tableId}`).then((d) => d.options).catch(() => null);
    return opts;
  };
  const open = async (tag) => openRulesDrawer(game, tableId, await options(), tag);
  // an open book and the word; a phone shows the book only (the word stays the button's name, read aloud)
  const label = h("span", { class: "hdrlabel" }, t("rules.button"));
  const book = svg("svg", { class: "icon", viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true" },
    svg("path", { fill: "currentColor", d: "M1 3c2.2-.9 4.4-.9 6.5.3V14c-2.1-1.1-4.3-1.1-6.5-.3zM15 3c-2.2-.9-4.4-.9-6.5.3V14c2.1-1.1 4.3-1.1 6.5-.3z" }));
  const b = h("button", { type: "button", class: "rulesbtn", id: "rulesbtn", "aria-controls": "rulesdrawer" }, book, label);
  b.addEventListener("click", () => { if (drawer && !drawer.hidden) closeRulesDrawer(); else open(null); });
  const slot = document.getElementById("langslot");
  if (slot) slot.before(b);
  return {
    open,
    link: (text) => linkTags(text, game, tableId, (tag) => open(tag)),
    relabel: () => {
      label.textContent = t("rules.button");
      if (drawer && !drawer.hidden) open(null);
    },
  };
}
