// Tooltips for every card, event, project, combat card and power centre: what it does and its numbers, in the
// player's language. An element says what it shows with data-tip ("event:holy_war", "project:parthenon",
// "projects:a,b", "card:phalanx:2", "cards:phalanx:2,flank:0", "combat", "pc", "spqrcard:banner", "spqrhand:…",
// "set:legionary,banner,trireme"); the numbers come from the table's board (GET /api/tables/<id>/glossary: a
// corrected board file's own numbers), or the game's shipped board (GET /api/games/<game>/glossary).
// Hover or keyboard focus shows it; a tap shows it on a phone (a second tap, or a tap elsewhere, hides it).
import { api, h } from "./common.js";
import { has, t } from "./i18n.js";

let G = null; // the glossary
let game = "";
let box = null;
let shownFor = null;

const RES = ["metal", "wood", "wine", "oil", "wheat", "silver"];
const resName = (r) => (r === "prestige" ? t("tip.prestige") : has(`res.${r}`) ? t(`res.${r}`) : r);
const sideName = (s) => (has(`polis.${s}`) ? t(`polis.${s}`) : s);
const nm = (id) => (G && G.names && G.names[id]) || id;
const num = (n) => h("span", { class: "tip-num" }, String(n));

function costText(cost) {
  return RES.filter((r) => cost[r]).map((r) => `${cost[r]} ${resName(r)}`).join(", ");
}

function effectText(e) {
  switch (e.type) {
    case "gain": return t("tip.eff.gain", { side: sideName(e.side), n: e.amount, what: resName(e.resource) });
    case "lose": return t("tip.eff.lose", { side: sideName(e.side), n: e.amount, what: resName(e.resource) });
    case "place_units": return t(`tip.eff.place_${e.unit}`, { side: sideName(e.side), n: e.count, where: nm(e.territory) });
    case "remove_units": return t("tip.eff.remove", { side: sideName(e.side), n: e.count, units: (e.units || []).map((u) => t(`tip.unit.${u}`)).join(t("tip.or")) });
    case "close_market": return t("tip.eff.close_market", { market: nm(e.market) });
    case "exhaust_tribute": return t("tip.eff.exhaust", { where: nm(e.territory) });
    case "first_player": return t("tip.eff.first", { side: sideName(e.side) });
    case "polis_population": return t(e.delta > 0 ? "tip.eff.pop_up" : "tip.eff.pop_down", { polis: nm(e.polis), n: Math.abs(e.delta) });
    case "market_shift": return t(e.steps < 0 ? "tip.eff.cheaper" : "tip.eff.dearer", { goods: (e.goods || []).map(resName).join(", "), n: Math.abs(e.steps) });
    default: return e.type;
  }
}

function eventName(id) {
  const key = `event.${String(id).replace(/^no_event_.*/, "no_event")}`;
  return has(key) ? t(key) : (G.events[id] && G.events[id].name) || id;
}

function formationName(f) {
  const fm = G.formations[f];
  const land = has(`card.${f}`) ? t(`card.${f}`) : fm ? fm.land : f;
  const sea = has(`card.${f}.sea`) ? t(`card.${f}.sea`) : fm ? fm.sea : f;
  return { land, sea };
}

/** [title, [lines]] of a tooltip spec, or null when it names nothing known. */
export function tipContent(spec) {
  if (!G) return null;
  const [kind, ...rest] = String(spec).split(":");
  const arg = rest.join(":");
  if (kind === "event") {
    const e = G.events[arg];
    if (!e) return null;
    const pile = e.pile.replace("pile_", "");
    const lines = e.effects.length ? e.effects.map(effectText) : [t("tip.noeffect")];
    return [eventName(arg), [...lines, t("tip.eventwhen", { r: pile === "5" ? "5\u03b1/5\u03b2" : pile })]];
  }
  if (kind === "project") {
    const p = G.projects[arg];
    if (!p) return null;
    return [has(`project.${arg}`) ? t(`project.${arg}`) : p.name, [
      t("tip.proj.symbol", { s: t(`tip.symbol.${p.symbol}`) }),
      t("tip.proj.cost", { cost: costText(p.cost) }),
      t("tip.proj.immediate", { n: p.immediate }),
      t("tip.proj.posterity", { n: p.posterity }),
    ]];
  }
  if (kind === "projects" || kind === "built") {
    const ids = arg.split(",").filter((x) => G.projects[x]);
    if (!ids.length) return null;
    return [t(kind === "built" ? "tip.built" : "tip.offer"), ids.map((x) => { const p = G.projects[x]; return t("tip.proj.short", {
      name: has(`project.${x}`) ? t(`project.${x}`) : p.name, s: t(`tip.symbol.${p.symbol}`), cost: costText(p.cost), a: p.immediate, b: p.posterity }); })];
  }
  if (kind === "card" || kind === "cards") {
    const cards = kind === "card" ? [arg] : arg.split(",").filter(Boolean);
    const lines = [];
    const seen = new Set();
    for (const c of cards) {
      const [f, v] = c.split(":");
      if (!G.formations[f]) continue;
      const nmf = formationName(f);
      if (v !== undefined && v !== "") lines.push(t("tip.card.one", { land: nmf.land, sea: nmf.sea, v }));
      if (!seen.has(f)) { seen.add(f); lines.push(t("tip.card.deck", { land: nmf.land, values: G.formations[f].values.join(", ") })); }
    }
    if (!lines.length) return tipContent("combat"); // no card in hand yet: how combat cards work
    return [t("tip.combat"), [...lines, t("tip.card.unanswered"), t("tip.card.answered")]];
  }
  if (kind === "combat") return [t("tip.combat"), [t("tip.card.play"), t("tip.card.unanswered"), t("tip.card.answered"), t("tip.card.deckall")]];
  if (kind === "pc") {
    return [t("tip.pc.title"), [t("tip.pc.vp", { n: G.power_centre.vp }), t("tip.pc.leg", { n: G.power_centre.legionaries }),
      t("tip.pc.owner"), t("tip.pc.place", { n: G.power_centres })]];
  }
  if (kind === "spqrcard" || kind === "spqrhand") {
    const syms = kind === "spqrcard" ? [arg] : Object.keys(G.cards);
    return [t("tip.cards.title"), [...syms.map((sym) => t(`tip.cards.${sym}`, { n: G.cards[sym] })),
      t("tip.cards.sets", { a: G.set_alike, d: G.set_different })]];
  }
  if (kind === "set") {
    const cs = arg.split(",");
    const alike = cs.every((c) => c === cs[0]);
    const base = alike ? G.set_alike : G.set_different;
    const extra = 2 * cs.filter((c) => c === "banner").length;
    const tri = cs.filter((c) => c === "trireme").length;
    const pcs = cs.filter((c) => c === "arena").length;
    const lines = [t(alike ? "tip.set.alike" : "tip.set.different", { n: base })];
    if (extra) lines.push(t("tip.set.banner", { n: extra }));
    if (tri) lines.push(t("tip.set.trireme", { n: tri }));
    if (pcs) lines.push(t("tip.set.arena", { n: pcs }));
    lines.push(t("tip.set.total", { n: base + extra }));
    return [t("tip.set.title"), lines];
  }
  return null;
}

function ensureBox() {
  if (!box) {
    box = h("div", { class: "tip", id: "tooltip", role: "tooltip", hidden: true });
    document.body.append(box);
  }
  return box;
}

function show(el) {
  if (!G) { if (loading) loading.then(() => { if (el.isConnected && el.matches(":hover, :focus")) show(el); }); return; }
  const c = tipContent(el.getAttribute("data-tip"));
  if (!c) return;
  const b = ensureBox();
  b.replaceChildren(h("strong", {}, c[0]), ...c[1].map((line) => h("span", { class: "tip-line" }, line)));
  b.hidden = false;
  shownFor = el;
  el.setAttribute("aria-describedby", "tooltip");
  place(el);
}

function place(el) {
  const b = box;
  const r = el.getBoundingClientRect();
  const bw = b.offsetWidth;
  const bh = b.offsetHeight;
  let x = Math.min(window.innerWidth - bw - 6, Math.max(6, r.left + r.width / 2 - bw / 2));
  let y = r.bottom + 8;
  if (y + bh > window.innerHeight - 6) y = Math.max(6, r.top - bh - 8);
  b.style.left = `${Math.round(x)}px`;
  b.style.top = `${Math.round(y)}px`;
}

export function hideTip() {
  if (box) box.hidden = true;
  if (shownFor) shownFor.removeAttribute("aria-describedby");
  shownFor = null;
}

const tipped = (target) => (target instanceof Element ? target.closest("[data-tip]") : null);
const interactive = (el) => el.matches("button, a, input, select, [role=button]");

/** Load the glossary of `game` and watch the whole page for tipped elements. */
let loading = null;

export async function initTooltips(gameName, tableId = null) {
  if (game === gameName) return;
  game = gameName;
  // a table's own board (a corrected board file has its own numbers); the game's shipped board elsewhere
  const own = `/api/games/${gameName}/glossary`;
  loading = (tableId ? api(`/api/tables/${encodeURIComponent(tableId)}/glossary`).catch(() => api(own)) : api(own)).then((g) => { G = g; });
  document.addEventListener("pointerover", (e) => {
    if (e.pointerType === "touch") return;
    const el = tipped(e.target);
    if (el && el !== shownFor) show(el);
    else if (!el && shownFor) hideTip();
  });
  document.addEventListener("focusin", (e) => { const el = tipped(e.target); if (el) show(el); });
  document.addEventListener("focusout", (e) => { if (shownFor && tipped(e.target) === shownFor) hideTip(); });
  // a tap on a tipped text (not a button: a tap there plays it) shows its tip; a second tap hides it
  document.addEventListener("click", (e) => {
    const el = tipped(e.target);
    if (el && !interactive(el)) { if (el === shownFor) hideTip(); else show(el); return; }
    if (!el && shownFor) hideTip();
  });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") hideTip(); });
  // the tip follows its element when the page or a panel scrolls
  window.addEventListener("scroll", () => { if (shownFor && shownFor.isConnected) place(shownFor); }, true);
  await loading;
}
