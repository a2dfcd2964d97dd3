// Polis board: the drawn Greek map (territories and seas), each polis with its owner, population,
// fortification, siege discs and the proxenos; hoplites and galleys of both sides; each side's resources,
// prestige and hand. Clicking a territory, polis or sea lists the legal actions there; sieges show the odds.
import { chance, clear, countChoice, h, icon, NEUTRAL, s, textures } from "../common.js";
import { has, t } from "../i18n.js";
import { signed } from "../happen.js";
import { mapNav } from "../mapnav.js";

// Okabe & Ito's blue and vermilion (common.js COLOURS): told apart under any simulated colour deficiency
const SIDE_COLOUR = { athens: "#0072b2", sparta: "#d55e00", neutral: NEUTRAL };
// a territory's tint by whose hoplites stand there, each with its own texture (a cue that needs no colour vision)
const TINT = { athens: ["#c9daf5", 1], sparta: ["#f6d3bd", 0], both: ["#e4d3ee", 4] };
const SIDES = ["athens", "sparta"];
const PLACE_FIELDS = ["polis", "territory", "to", "source", "market"];

// ------------------------------------------------------------------ click logic (no DOM: tests/js/ runs it in Node)
/** The map places an action is about (a polis stands for its territory too); `terrOf`: polis → territory. */
export function places(a, terrOf) {
  const out = [];
  for (const f of PLACE_FIELDS) if (typeof a[f] === "string") { out.push(a[f]); if (terrOf[a[f]]) out.push(terrOf[a[f]]); }
  return out;
}

/** A click on a place selects it; a click on the selected place unselects it. */
export const toggleSelection = (sel, id) => (sel === id ? null : id);

/** The legal actions as the controls show them: trades (in the markets panel), actions tied to a place on the
 * map (listed when it is clicked) and the others (always shown). */
export function sortActions(acts, terrOf) {
  return {
    trades: acts.filter((a) => a.type === "trade"),
    located: acts.filter((a) => places(a, terrOf).length && a.type !== "trade"),
    other: acts.filter((a) => !places(a, terrOf).length),
  };
}

/** The actions listed after a click on `place`. */
export const actionsAt = (located, place, terrOf) => located.filter((a) => places(a, terrOf).includes(place));

const NUMERIC = ["count", "silver", "amount"];
const groupKey = (a) => JSON.stringify(Object.entries(a).filter(([k]) => !NUMERIC.includes(k)));

/** Actions that differ only by their numbers (count, silver, amount) make one group: one control. */
export function groups(acts) {
  const out = new Map();
  for (const a of acts) {
    const k = groupKey(a);
    if (!out.has(k)) out.set(k, []);
    out.get(k).push(a);
  }
  return [...out.values()];
}

/** The one number a group's count choice sets, or null when its actions differ in more than one number. */
export function countField(list) {
  const a0 = list[0];
  const field = NUMERIC.find((k) => typeof a0[k] === "number");
  return field && list.every((a) => NUMERIC.every((k) => k === field || a[k] === a0[k])) ? field : null;
}

// the actions that end a step (the primary buttons, and the D key)
const END_STEP = ["end_move", "end_growth", "stand", "pay_supply", "stop_forcing"];

/** The action a key plays (d: end the step), or null. */
export function keyAction(key, acts) {
  return key === "d" ? acts.find((x) => END_STEP.includes(x.type)) || null : null;
}

/** Creating `count` units: the way with the least silver (the player may then pay more of it in silver). */
export function cheapest(list, count) {
  return list.filter((a) => a.count === count).reduce((x, y) => (y.silver < x.silver ? y : x));
}

// distinct unit shapes (SVG, no glyphs): a hoplite's shield, a galley's hull and sail, a merchant's amphora
const UNIT_PATHS = {
  hoplite: "M0,-5L4.2,-3.6L3.6,1.6L0,5L-3.6,1.6L-4.2,-3.6ZM0,-3.2L0,3.2M-2.6,-1.5L2.6,-1.5",
  galley: "M-5,1.2L5,1.2L3.2,4.2L-3.2,4.2ZM0,1.2L0,-5M0.6,-4.6L4,-0.6L0.6,-0.6Z",
  merchant: "M-1.6,-5L1.6,-5L1.6,-3.6Q4.4,-1.6 3,2.2Q1.6,5 0,5Q-1.6,5 -3,2.2Q-4.4,-1.6 -1.6,-3.6ZM-1.6,-3.6L-3.6,-2.4M1.6,-3.6L3.6,-2.4",
};
export function unitIcon(kindOf, x, y, cls = "unit-icon") {
  return s("path", { d: UNIT_PATHS[kindOf], transform: `translate(${x},${y})`, class: `${cls} ${kindOf}` });
}
/** A small SVG of a unit shape, for the side panel and the legend. */
function unitSvg(kindOf, title) {
  return s("svg", { class: `icon unit ${kindOf}`, viewBox: "-6 -6 12 12", width: 14, height: 14, role: "img" },
    s("title", { text: title }), unitIcon(kindOf, 0, 0, "unit-icon solo"));
}

export async function createBoard(root, ctx) {
  const map = await (await fetch(new URL("../../maps/polis.json", import.meta.url))).json();
  const names = map.names;
  const nm = (id) => names[id] || String(id).replace(/_/g, " ");
  const terrOf = Object.fromEntries(map.poleis.map((p) => [p.id, p.territory]));
  let sel = null;

  const svg = s("svg", { viewBox: `0 0 ${map.width} ${map.height}`, id: "map", class: "map polis", role: "img" });
  const gArea = s("g");
  const gLab = s("g");
  svg.append(textures(TINT), s("rect", { x: 0, y: 0, width: map.width, height: map.height, class: "water" }),
    s("path", { d: map.land, class: "land" }), gArea, gLab);
  if (map.inset) gArea.append(s("path", { d: map.inset, class: "inset" }));
  const shapes = {};
  const centre = {};
  const areaOf = Object.fromEntries([...map.seas, ...map.provinces].map((a) => [a.id, a]));
  const unitG = {};
  for (const a of [...map.seas.map((x) => ({ ...x, sea: true })), ...map.provinces]) {
    const p = s("path", { d: a.d, class: `${a.sea ? "sea" : "prov"} area`, "data-id": a.id, id: `a-${a.id}` });
    p.append(s("title", { text: a.name }));
    p.addEventListener("click", () => select(a.id));
    gArea.append(p);
    shapes[a.id] = p;
    centre[a.id] = [a.x, a.y];
    // where the name and the stack go inside the region (scripts/make_maps.py places them so nothing overlaps)
    const lx = a.lx ?? a.x;
    const ly = a.ly ?? a.y - (a.sea ? 10 : 13);
    gLab.append(s("text", { x: lx, y: ly, class: a.sea ? "sealabel" : "plabel", text: a.name, "data-label": a.id, style: a.ls ? `font-size:${a.ls}px` : null }));
    const g = s("g", { class: "units", transform: `translate(${a.ux ?? a.x},${a.uy ?? a.y + (a.sea ? 4 : 27)})`, "data-units": a.id });
    gLab.append(g);
    unitG[a.id] = g;
  }
  const polisG = {};
  const byTerr = {};
  for (const p of map.poleis) (byTerr[p.territory] ||= []).push(p.id);
  for (const [terr, list] of Object.entries(byTerr)) {
    const [cx, cy] = centre[terr] || [0, 0];
    list.forEach((pid, i) => {
      const dx = (i - (list.length - 1) / 2) * 34;
      const at = map.poleis.find((q) => q.id === pid);
      const [px, py] = at && at.x !== undefined ? [at.x, at.y] : [cx + dx, cy];
      const g = s("g", { class: "polis", transform: `translate(${px},${py})`, "data-id": pid, id: `p-${pid}` });
      g.addEventListener("click", (e) => { e.stopPropagation(); select(pid); });
      const c = s("circle", { r: 8 });
      const pop = s("text", { y: 3, class: "pop", text: "" });
      const name = s("text", { y: 19, class: "pname", text: nm(pid) });
      const fort = s("text", { x: 12, y: 9, class: "fort", text: "" });
      const discs = s("text", { x: -13, y: 9, class: "discs", text: "" });
      const prox = icon("star");
      for (const [k, val] of Object.entries({ x: 6, y: -13, width: 9, height: 9, class: "prox" })) prox.setAttribute(k, val);
      g.append(c, pop, name, fort, discs, prox);
      const title = s("title", { text: nm(pid) });
      g.append(title);
      gLab.append(g);
      polisG[pid] = { g, c, pop, fort, discs, prox, title };
    });
  }
  clear(root).append(svg);

  // ------------------------------------------------------------------ zoom (a laptop: the whole map fits, names small)
  // steps of the map's width; from the first step in a polis name reads at 11 px or more on a 1400 px screen
  const ZOOMS = [1, 1.6, 2.2, 3];
  let zi = Math.max(0, Math.min(ZOOMS.length - 1, Number(localStorage.getItem("hegemon.polis.zoom")) || 0));
  const zoomOut = h("button", { type: "button", id: "zoomout", class: "zoomstep", onclick: () => setZoom(zi - 1) }, "\u2212");
  const zoomIn = h("button", { type: "button", id: "zoomin", class: "zoomstep", onclick: () => setZoom(zi + 1) }, "+");
  const zoomBar = h("div", { class: "polzoom", id: "polzoom", role: "group" }, zoomOut, zoomIn);
  function zoomLabels() {
    zoomBar.setAttribute("aria-label", t("polis.zoom"));
    for (const [b, key] of [[zoomIn, "polis.zoomin"], [zoomOut, "polis.zoomout"]]) { b.title = t(key); b.setAttribute("aria-label", t(key)); }
    zoomIn.disabled = zi >= ZOOMS.length - 1;
    zoomOut.disabled = zi <= 0;
  }
  function setZoom(i) {
    const box = root;
    const cx = box.scrollWidth ? (box.scrollLeft + box.clientWidth / 2) / box.scrollWidth : 0.5;
    const cy = box.scrollHeight ? (box.scrollTop + box.clientHeight / 2) / box.scrollHeight : 0.5;
    zi = Math.max(0, Math.min(ZOOMS.length - 1, i));
    localStorage.setItem("hegemon.polis.zoom", String(zi));
    svg.style.width = zi ? `${ZOOMS[zi] * 100}%` : "";
    document.body.classList.toggle("polis-zoomed", zi > 0);
    box.scrollLeft = cx * box.scrollWidth - box.clientWidth / 2;
    box.scrollTop = cy * box.scrollHeight - box.clientHeight / 2;
    zoomLabels();
  }
  if (root.parentElement) root.parentElement.append(zoomBar);
  setZoom(zi);

  // ------------------------------------------------------------------ keyboard and screen readers (mapnav.js)
  // the drawn names, numbers and stacks say what each place's own name says: hidden from screen readers
  for (const node of gLab.children) if (!node.classList.contains("polis")) node.setAttribute("aria-hidden", "true");
  for (const { g } of Object.values(polisG)) for (const node of g.children) node.setAttribute("aria-hidden", "true");
  const nav = mapNav(svg, {
    places: [
      ...[...map.seas, ...map.provinces].map((a) => ({ id: a.id, el: shapes[a.id], x: a.x, y: a.y })),
      ...Object.entries(polisG).map(([pid, { g }]) => {
        const m = /translate\(([-\d.]+),([-\d.]+)\)/.exec(g.getAttribute("transform"));
        return { id: pid, el: g, x: Number(m[1]), y: Number(m[2]) };
      }),
    ],
    targets: () => (ctx.msg ? new Set(legal(ctx.msg).flatMap(placesOf)) : new Set()),
    choose: (id) => {
      sel = id; // Enter shows the place's actions (a second Enter keeps them: it does not toggle them away)
      ctx.rerender();
      // the focus goes to the first of them (in the action phase under "At …", else the place's own controls)
      const here = document.querySelector(`#actions #here, #actions [data-place="${CSS.escape(id)}"]`);
      const next = here && [...document.querySelectorAll("#actions button, #actions input")]
        .find((b) => here.contains(b) || here.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
      if (next) next.focus();
    },
    label: () => t("map.polis"),
    ringAfter: gArea,
  });
  const sideIndex = (side) => SIDES.indexOf(side);
  const ownerOf = (side) => (side === "neutral" || sideIndex(side) < 0 ? t("polis.neutral") : ctx.ownerName(sideIndex(side)));
  /** Each place as a screen reader names it: "Athinae, Athens (you), population 3, fortification 2";
   * "Attika, Athens (you): 3 hoplites; Sparta (easy): 1 hoplite". */
  function placeNames(v) {
    const units = {};
    v.sides.forEach((side) => {
      for (const [kindOf, list] of [["hoplite", side.hoplites], ["galley", side.galleys]]) {
        for (const [area, n] of Object.entries(list)) if (n) (units[area] ||= []).push(`${ownerOf(side.side)}: ${t(`n.${kindOf}`, { n })}`);
      }
    });
    for (const a of [...map.seas, ...map.provinces]) {
      const isSea = seaIds.has(a.id);
      shapes[a.id].setAttribute("aria-label", [nm(a.id), isSea ? t("map.sea") : "", (units[a.id] || []).join("; ") || t("map.nounits"),
        sel === a.id ? t(isSea ? "map.selected.sea" : "map.selected") : ""].filter(Boolean).join(", "));
    }
    const prox = Object.fromEntries(v.sides.filter((sd) => sd.proxenos).map((sd) => [sd.proxenos, sd.side]));
    for (const p of v.poleis) {
      const g = polisG[p.id];
      if (!g) continue;
      const sieges = Object.entries(p.siege_discs || {}).map(([side, n]) => siegeText(p.id, side, n, p.fortification, v.siege, "polis.siegetip"));
      g.g.setAttribute("aria-label", [nm(p.id), ownerOf(p.owner), p.owner === "neutral" ? "" : t("map.population", { n: p.population }),
        t("map.fortification", { n: p.fortification }), ...sieges, prox[p.id] ? t("map.proxenos", { owner: ownerOf(prox[p.id]) }) : "",
        sel === p.id ? t("map.selected") : ""].filter(Boolean).join(", "));
    }
    nav.sync();
  }

  function legal(msg) {
    return msg.seat !== null && msg.status === "playing" ? msg.view.legal_actions || [] : [];
  }

  const placesOf = (a) => places(a, terrOf);

  let turnSeen = "";
  let shownSel = null; // the place whose actions were last brought into view
  function render(msg) {
    const v = msg.view;
    zoomLabels();
    minePanel(msg);
    // a new turn starts with nothing selected (the last turn's place would hide the panel's other controls)
    const turn = `${v.round_number}|${v.turns_this_round}|${v.current_player}`;
    if (turn !== turnSeen) { turnSeen = turn; sel = null; }
    const can = new Set(legal(msg).flatMap(placesOf));
    for (const [id, sh] of Object.entries(shapes)) {
      sh.classList.toggle("clickable", can.has(id));
      sh.classList.toggle("selected", sel === id);
    }
    for (const p of v.poleis) {
      const g = polisG[p.id];
      if (!g) continue;
      g.c.style.fill = SIDE_COLOUR[p.owner] || "#fff";
      g.c.setAttribute("r", String(5.5 + p.fortification));
      g.pop.textContent = p.owner === "neutral" ? "" : String(p.population);
      g.fort.textContent = `F${p.fortification}`;
      // the siege markers, in the besieger's colour ("2/3": 2 markers of the 3 that take it), named in words
      clear(g.discs);
      const sieges = Object.entries(p.siege_discs || {});
      sieges.forEach(([side, n], k) => g.discs.append(s("tspan", { fill: SIDE_COLOUR[side], "data-side": side, text: `${k ? " " : ""}${n}/${p.fortification}` })));
      g.discs.dataset.siege = sieges.length ? "1" : "";
      g.title.textContent = [nm(p.id), ...sieges.map(([side, n]) => siegeText(p.id, side, n, p.fortification, v.siege, "polis.siegetip"))].join(" \u2014 ");
      g.g.classList.toggle("clickable", can.has(p.id));
      g.c.style.strokeWidth = can.has(p.id) ? "2.5" : "1";
      g.c.dataset.owner = p.owner;
    }
    for (const pid of Object.keys(polisG)) polisG[pid].prox.style.display = "none";
    for (const side of v.sides) if (side.proxenos && polisG[side.proxenos]) {
      polisG[side.proxenos].prox.style.display = "";
      polisG[side.proxenos].prox.style.color = SIDE_COLOUR[side.side];
    }
    const tint = {};
    v.sides.forEach((side) => { for (const terr of Object.keys(side.hoplites)) tint[terr] = tint[terr] ? "both" : side.side; });
    for (const a of map.provinces) {
      const k = tint[a.id];
      shapes[a.id].style.fill = TINT[k] ? `url(#fill-${k})` : "#ece3c9";
    }
    for (const g of Object.values(unitG)) clear(g);
    v.sides.forEach((side, i) => {
      for (const [kindOf, units] of [["hoplite", side.hoplites], ["galley", side.galleys]]) {
        for (const [terr, n] of Object.entries(units)) {
          const g = unitG[terr];
          if (!g) continue;
          // side by side, or one above the other where the territory is narrow (the map says "uv")
          const vert = areaOf[terr] && areaOf[terr].uv;
          const x = vert ? 0 : i === 0 ? -12 : 12;
          const y = vert ? (i === 0 ? -8 : 8) : 0;
          g.append(s("g", { class: `stack ${kindOf}`, "data-side": side.side, "data-n": n },
            s("title", { text: `${t(`polis.${side.side}`)}: ${n} ${t(kindOf === "hoplite" ? "polis.hoplites" : "polis.galleys")}` }),
            s("rect", { x: x - 11, y: y - 7.5, width: 22, height: 15, rx: 3, fill: SIDE_COLOUR[side.side] }),
            unitIcon(kindOf, x - 5.5, y),
            s("text", { x: x + 4.5, y: y + 3.5, text: String(n) })));
        }
      }
    });
    if (v.battle && shapes[v.battle.territory]) shapes[v.battle.territory].classList.add("battle");
    else for (const sh of Object.values(shapes)) sh.classList.remove("battle");
    placeNames(v);
  }

  function select(id) {
    sel = toggleSelection(sel, id);
    ctx.rerender();
  }

  function siegeOdds(pid) {
    const box = h("div", { class: "odds", id: "odds" }, "…");
    ctx.odds({ polis: pid }).then((o) => {
      clear(box).append(h("strong", {}, t("odds.title")), h("br"));
      // the die of this action first (a 3-in-4 roll reads 75%), then the chance over later turns
      const roll = o.first_action_success;
      if (roll) box.append(h("span", { class: "proll", "data-p": roll.decimal, title: roll.fraction }, t("odds.roll", { p: chance(roll) })), h("br"));
      box.append(h("span", { class: "pwin", "data-p": o.success.decimal, title: o.success.fraction }, t("odds.siege", { p: chance(o.success) })));
    }).catch(() => clear(box));
    return box;
  }

  // ------------------------------------------------------------------ your goods and prestige, always in view
  const resList = (o) => Object.entries(o).map(([r, n]) => `${n} ${t(`res.${r}`)}`).join(", ");
  /** What the end of the round would do to you if it came now (view.round_forecast, computed by the rules). */
  function forecastBox(f) {
    let supply;
    if (f.pay === "wheat") supply = t("fc.wheat", { need: f.need, wheat: f.wheat });
    else if (f.pay === "prestige") supply = t("fc.prestige", { need: f.need, wheat: f.wheat, short: f.short, left: f.prestige_after });
    else if (f.pay === "release") supply = t("fc.release", { need: f.need, wheat: f.wheat, short: f.short, pp: f.prestige });
    else supply = t("fc.starve", { need: f.need, wheat: f.wheat, cap: f.capital_need, pp: f.prestige });
    const more = [];
    const proj = f.projects.reduce((a, p) => a + p.prestige, 0);
    if (proj) more.push(t("fc.projects", { n: proj }));
    if (f.megalopolis) more.push(t("fc.mega", { n: f.megalopolis }));
    const halved = Object.entries(f.storage || {});
    if (halved.length) more.push(t("fc.storage", { list: halved.map(([r, [a, b]]) => `${t(`res.${r}`)} ${a}\u2192${b}`).join(", ") }));
    const zero = f.pay === "prestige" && f.prestige_after === 0 && !f.megalopolis;
    return h("div", { class: `forecast${f.pay === "wheat" ? "" : " short"}`, id: "forecast", "data-pay": f.pay, title: t("fc.help") },
      h("strong", {}, `${t("fc.title")}: `), h("span", { class: "supply" }, supply), zero ? h("span", { class: "zero" }, ` \u2014 ${t("fc.zero")}`) : null,
      more.length ? h("span", { class: "more" }, ` \u00b7 ${more.join(" \u00b7 ")}`) : null);
  }

  /** Your side's prestige and goods (and, in the action phase, the forecast) at the top of the side panel, sticky:
   * in view whatever the panel scrolls to, on a laptop and in a phone's bottom sheet. */
  function minePanel(msg) {
    const sideEl = document.getElementById("side");
    if (!sideEl) return;
    let box = document.getElementById("mine");
    const v = msg.view;
    const me = msg.seat !== null && msg.seat !== undefined && v.sides ? v.sides[msg.seat] : null;
    if (!me) { if (box) box.remove(); sideEl.style.removeProperty("--stuck"); return; }
    if (!box) {
      box = h("section", { id: "mine", class: "card mine" });
      // what stays stuck at the top of the panel (the sheet's handle, this card): a control scrolled or focused
      // into view stops below it (#side's scroll-padding-top), never under it
      if (typeof ResizeObserver !== "undefined") {
        new ResizeObserver(() => {
          if (!box.isConnected) return;
          const top = parseFloat(getComputedStyle(box).top) || 0;
          sideEl.style.setProperty("--stuck", `${Math.ceil(top + box.offsetHeight + 6)}px`);
        }).observe(box);
      }
    }
    const handle = document.getElementById("sheethandle");
    const first = handle && handle.parentElement === sideEl ? handle.nextElementSibling : sideEl.firstElementChild;
    if (first !== box) sideEl.insertBefore(box, first);
    clear(box);
    box.dataset.prestige = me.prestige;
    box.append(h("p", { class: "minehead" }, h("i", { class: "dot", style: `background:${SIDE_COLOUR[me.side]}` }),
      h("span", {}, t("mine.title", { side: t(`polis.${me.side}`) })), " \u00b7 ",
      h("strong", { class: "pp" }, t("mine.prestige", { n: me.prestige }))),
    h("p", { class: "goods" }, Object.entries(me.resources).map(([k, n]) => h("span", { class: "res", "data-res": k, "data-n": n }, `${t(`res.${k}`)} ${n}`))));
    const f = v.phase === "action" && v.round_forecast ? v.round_forecast[me.side] : null;
    if (f) box.append(forecastBox(f));
  }

  // ------------------------------------------------------------------ why not (view.blocked, computed by the rules)
  function whyText(w) {
    const vars = { ...w };
    if (w.missing) vars.list = resList(w.missing);
    if (w.symbol) vars.symbol = has(`tip.symbol.${w.symbol}`) ? t(`tip.symbol.${w.symbol}`) : w.symbol;
    return t(`blk.why.${w.why}`, vars);
  }
  /** What cannot be done at `place` now and why: a territory also lists what its poleis cannot do. */
  function blockedAt(place) {
    const b = ctx.msg.view.blocked;
    if (!b || !b.places) return [];
    const out = [];
    for (const [where, items] of Object.entries(b.places)) {
      if (where === place || terrOf[where] === place) for (const w of items) out.push({ ...w, where });
    }
    return out;
  }
  function blockedList(items) {
    return h("div", { class: "blocked", id: "blocked" }, h("p", { class: "blocktitle" }, t("blk.title")),
      h("ul", {}, items.map((w) => h("li", { "data-kind": w.kind, "data-why": w.why, "data-where": w.where },
        `${t(`blk.kind.${w.kind}`, { polis: nm(w.polis || w.where), territory: nm(w.territory || w.where) })}${w.kind.startsWith("create_") ? ` (${nm(w.where)})` : ""}: ${whyText(w)}`))));
  }
  /** Every offered project: the ones you can start as buttons, the others shown disabled with the reason. */
  function projectsPanel(root, v, acts) {
    const offer = v.project_offer || [];
    if (!offer.length) return;
    const bl = (v.blocked && v.blocked.projects) || {};
    const box = h("div", { class: "projects", id: "projects" }, h("h3", {}, t("blk.projects")));
    for (const pid of offer) {
      const starts = acts.filter((a) => a.type === "start_project" && a.project === pid);
      if (starts.length) {
        box.append(h("div", { class: "btns", "data-project": pid }, starts.map((a) => actButton(a, false))));
        continue;
      }
      const w = bl[pid];
      if (!w) continue;
      box.append(h("div", { class: "projectoff", "data-project": pid, "data-why": w.why, "data-tip": `project:${pid}` },
        h("button", { type: "button", class: "offoffer", disabled: true, "data-project": pid, "aria-describedby": `why-${pid}` },
          `${projectName(pid)} \u2014 ${t("blk.cost", { cost: resList(w.cost) })}`),
        h("p", { class: "hint why", id: `why-${pid}` }, t("blk.projectwhy", { project: projectName(pid), why: whyText(w) }))));
    }
    root.append(box);
  }

  // ------------------------------------------------------------------ names of game terms
  const seaIds = new Set(map.seas.map((x) => x.id));
  function atSea() {
    const bt = ctx.msg && ctx.msg.view && ctx.msg.view.battle;
    return !!(bt && seaIds.has(bt.territory));
  }
  /** "phalanx:2" → "Phalanx 2" (at sea the formation's naval name: "Kyklos 2"); "" → none. */
  function cardName(c) {
    if (!c) return t("polis.nocard");
    if (c === "?") return "";
    const [f, pv] = String(c).split(":");
    const key = atSea() ? `card.${f}.sea` : `card.${f}`;
    return t("polis.card", { f: has(key) ? t(key) : f, p: pv });
  }
  const eventName = (id) => {
    const key = `event.${String(id).replace(/^no_event_.*/, "no_event")}`;
    return has(key) ? t(key) : nm(id);
  };
  const projectName = (id) => (has(`project.${id}`) ? t(`project.${id}`) : nm(id));
  const UNIT_RES = { create_hoplites: "metal", create_galleys: "wood", create_merchants: "wood" };
  function cost(a) {
    const parts = [];
    if (a.count - a.silver) parts.push(`${a.count - a.silver} ${t(`res.${UNIT_RES[a.type]}`)}`);
    if (a.silver) parts.push(`${a.silver} ${t("res.silver")}`);
    return parts.join(" + ");
  }

  function vars(a) {
    const out = {};
    for (const [k, val] of Object.entries(a)) {
      if (k === "type") continue;
      if (k === "side") out[k] = ctx.seatName(val);
      else if (k === "resource") out[k] = t(`res.${val}`);
      else if (k === "card") out[k] = val === "?" ? "" : ` (${cardName(val)})`;
      else if (k === "first" || k === "second") out[k] = cardName(val);
      else if (k === "event") out[k] = eventName(val);
      else if (k === "project") out[k] = projectName(val);
      else if (typeof val === "string") out[k] = nm(val);
      else out[k] = val;
    }
    if (a.type === "trade") out.how = t(a.purchase ? "polis.purchase" : "polis.exchange");
    if (UNIT_RES[a.type]) out.cost = cost(a);
    return out;
  }
  function kind(a) {
    return a.type === "garrison" && !a.yes ? "garrison_no" : a.type;
  }
  /** A log line: what someone did. */
  const describe = (a) => t(`act.polis.${kind(a)}`, vars(a));
  // ------------------------------------------------------------------ costs and effects (computed by the rules)
  const actKey = (a) => JSON.stringify(a);
  let fxFor = new Map();
  function effects(msg) {
    const v = msg && msg.view;
    const m = new Map();
    if (v && v.legal_actions && v.action_effects) v.legal_actions.forEach((a, i) => m.set(actKey(a), v.action_effects[i]));
    fxFor = m;
  }
  const effectOf = (a) => fxFor.get(actKey(a));
  /** "−1 prestige · −1 population · +1 hoplites · −1 metal": the whole cost and effect of an action. */
  function fxText(e) {
    if (!e) return "";
    const parts = [];
    for (const k of ["prestige", "population", "hoplites", "galleys", "merchants"]) if (e[k]) parts.push(t(`fx.${k}`, { n: signed(e[k]) }));
    for (const [r, n] of Object.entries(e.resources || {})) parts.push(`${signed(n)} ${t(`res.${r}`)}`);
    if (e.opponent_prestige) parts.push(t("fx.opponent_prestige", { n: signed(e.opponent_prestige) }));
    // a capture's reward apart from the price (a forced marker: 1 prestige and 1 hoplite, then +F on taking it)
    if (e.reward) parts.push(t("fx.reward", { polis: nm(e.reward.polis), n: e.reward.prestige }));
    const gained = (e.gained || []).filter((p) => !e.reward || p !== e.reward.polis);
    if (gained.length) parts.push(t("fx.gained", { p: gained.map(nm).join(", ") }));
    if (e.lost) parts.push(t("fx.lost", { p: e.lost.map(nm).join(", ") }));
    if (e.game_over) parts.push(e.game_over.lose ? t("fx.lose") : t("fx.ends"));
    else if (e.ostracism) parts.push(t("fx.ostracism"));
    if (e.then) parts.push(t(String(e.then).endsWith("roll") ? "fx.chance" : "fx.draw"));
    // what the end of the round then does by itself is the round's, not this action's: said apart, as a pointer
    if (e.round && !e.game_over) {
      const acting = ctx.msg && ctx.msg.view && ctx.msg.view.phase === "action"; // the forecast is in view then
      parts.push(t(acting ? "fx.roundend" : "fx.roundgoes"));
    }
    return parts.join(" · ");
  }
  function endWhy(reason, loserSide) {
    const who = loserSide ? t(`polis.${loserSide}`) : "";
    return has(`end.${reason}`) ? t(`end.${reason}`, { who }) : t("end.other", { why: reason });
  }
  /** The confirmation asked before an action that loses the game, spends the last prestige or gives up a polis. */
  function danger(a, msg) {
    const e = effectOf(a);
    if (!e || msg.seat === null) return null;
    if (e.game_over && e.game_over.lose) return t("confirm.lose", { why: endWhy(e.game_over.reason, SIDES[msg.seat]) });
    if (e.ostracism) return t("confirm.ostracism");
    if (e.lost) return t("confirm.lost", { p: e.lost.map(nm).join(", ") });
    return null;
  }
  /** A button: what you can do, and what it costs and brings. */
  const label = (a) => {
    const base = t(`do.polis.${kind(a)}`, vars(a));
    const e = effectOf(a);
    if (a.type === "pay_extra") return base; // the label is its whole cost already
    if (e) { const fx = fxText(e); return fx ? `${base} — ${fx}` : base; }
    return base + (UNIT_RES[a.type] ? ` — ${t("polis.pay", { cost: cost(a) })}` : "");
  };

  // ------------------------------------------------------------------ controls
  function actButton(a, primary) {
    const e = effectOf(a);
    const warn = e && ((e.game_over && e.game_over.lose) || e.ostracism || e.lost);
    return h("button", { type: "button", class: `act${primary ? " primary" : ""}${warn ? " warn" : ""}`, "data-type": a.type, "data-market": a.market || null, "data-project": a.project || null, title: a.project ? null : describe(a), "data-tip": a.project ? `project:${a.project}` : null, onclick: () => ctx.send(a) }, label(a));
  }

  let uid = 0;
  /** The control of one group of actions that differ only by their numbers: a button, a count choice, or
   * (to create units) how many plus how much of the price in silver. */
  function groupControl(list) {
    const a0 = list[0];
    if (list.length === 1) return actButton(a0, false);
    const key = `polis:${groupKey(a0)}`;
    const id = `count-${++uid}`;
    const box = h("div", { class: "group", "data-type": a0.type });
    box.append(h("p", { class: "grouptitle" }, t(`grp.polis.${a0.type}`, vars(a0))));
    if (UNIT_RES[a0.type]) {
      const counts = [...new Set(list.map((a) => a.count))];
      let chosen = null;
      const silverSlot = h("div");
      const go = h("button", { type: "button", class: "primary confirm", "data-type": a0.type });
      const pickSilver = (c) => {
        const opts = list.filter((a) => a.count === c);
        chosen = cheapest(list, c);
        const update = () => { go.textContent = `${t("polis.confirm")}: ${label(chosen)}`; };
        clear(silverSlot);
        if (opts.length > 1) {
          silverSlot.append(countChoice({
            key: `${key}:silver:${c}`, id: `${id}-silver`, label: t("polis.silver_part"), preferred: "min",
            items: opts.map((a) => ({ value: a.silver, action: a })),
            onChange: (sv) => { chosen = opts.find((a) => a.silver === sv); update(); },
            onEnter: () => go.click(),
          }));
        }
        update();
      };
      box.append(countChoice({
        key: `${key}:count`, id, label: t("polis.how_many"), items: counts.map((c) => ({ value: c, action: null })),
        preferred: "min", // a unit costs population: one tap never spends more than one unless chosen
        onChange: (c) => pickSilver(c),
        onEnter: () => go.click(),
      }), silverSlot);
      go.addEventListener("click", () => { if (chosen) ctx.send(chosen); });
      box.append(go);
      return box;
    }
    const field = countField(list);
    if (field) {
      box.append(countChoice({
        key, id, label: t(field === "amount" ? "polis.how_much" : "polis.how_many"), items: list.map((a) => ({ value: a[field], action: a })),
        confirmText: t("polis.confirm"), preferred: a0.type === "phoros" ? "min" : "max",
        onPick: (a) => ctx.send(a),
        extra: (val) => { const a = list.find((x) => x[field] === val); const fx = a && fxText(effectOf(a)); return fx ? h("p", { class: "fx" }, fx) : null; },
      }));
      return box;
    }
    box.append(h("div", { class: "btns" }, list.map((a) => actButton(a, false))));
    return box;
  }

  function placeInfo(id) {
    const v = ctx.msg.view;
    const p = v.poleis.find((x) => x.id === id);
    if (p) {
      const owner = p.owner === "neutral" ? t("polis.neutral") : t(`polis.${p.owner}`);
      const projects = (p.projects || []).filter(Boolean).map(projectName).join(", ");
      const built = (p.projects || []).filter(Boolean);
      const sieges = Object.entries(p.siege_discs || {}).map(([side, n]) => siegeText(p.id, side, n, p.fortification, v.siege));
      return h("p", { class: "hint placeinfo", "data-tip": built.length ? `built:${built.join(",")}` : null }, `${owner} · ${t("polis.pop", { p: p.population, m: p.max_population, f: p.fortification })}${projects ? ` · ${projects}` : ""}${sieges.map((x) => ` · ${x}`).join("")}`);
    }
    const units = v.sides.map((sd) => [sd.side, (sd.hoplites[id] || 0) + (sd.galleys[id] || 0)]).filter(([, n]) => n);
    if (!units.length) return null;
    return h("p", { class: "hint placeinfo" }, units.map(([sd, n]) => `${t(`polis.${sd}`)}: ${t(seaIds.has(id) ? "n.galley" : "n.hoplite", { n })}`).join(" · "));
  }

  function battlePanel(root, v) {
    const bt = v.battle;
    if (!bt) return;
    const box = h("div", { class: "odds battle", id: "battle", "data-tip": "combat" },
      h("strong", {}, t(atSea() ? "polis.seabattle" : "polis.battle", { territory: nm(bt.territory) })), h("br"),
      t("polis.attacker", { side: t(`polis.${bt.attacker}`) }));
    if (bt.played) box.append(h("br"), t("polis.played", { first: cardName(bt.played[0]), second: cardName(bt.played[1]) }));
    root.append(box);
  }

  function marketPanel(root, v, trades) {
    const vals = Object.entries(v.market_values || {}).map(([r, n]) => `${t(`res.${r}`)} ${n}`).join(" · ");
    const box = h("div", { class: "markets", id: "markets" }, h("h3", {}, t("polis.markets")),
      vals ? h("p", { class: "hint" }, t("polis.marketvalues", { v: vals })) : null,
      h("ul", { class: "marketlist" }, (v.markets || []).map((mk) => h("li", { "data-market": mk.id, class: mk.closed ? "closed" : "" },
        h("strong", {}, nm(mk.id)), " ",
        mk.closed ? t("polis.marketclosed") : t("polis.shiploads", { n: mk.shiploads - mk.shiploads_taken, of: mk.shiploads })))));
    if (trades.length) {
      box.append(h("div", { class: "btns" }, trades.map((a) => actButton(a, false))));
    } else if (v.phase === "action") box.append(h("p", { class: "hint" }, t("polis.notrade")));
    root.append(box);
  }

  function controls(root, msg) {
    const v = msg.view;
    effects(msg);
    const acts = legal(msg);
    const { trades, located, other } = sortActions(acts, terrOf);
    battlePanel(root, v);
    // (what to do in this phase is said by the "what you can do now" line above)
    if (v.phase !== "action") {
      // few choices, all tied to the map: list them by place right away (the map still works)
      const byPlace = new Map();
      for (const a of located) {
        const pl = placesOf(a)[0];
        if (!byPlace.has(pl)) byPlace.set(pl, []);
        byPlace.get(pl).push(a);
      }
      for (const [pl, list] of byPlace) {
        const gs = groups(list);
        if (gs.length === 1 && gs[0].length === 1) { root.append(h("div", { class: "btns", "data-place": pl }, actButton(gs[0][0], false))); continue; }
        root.append(h("div", { class: `placegroup${sel === pl ? " selected" : ""}`, "data-place": pl }, h("h3", {}, nm(pl)), gs.map(groupControl)));
      }
    } else {
      if (located.length) root.append(h("p", { class: "hint" }, t("polis.click")));
      if (sel) {
        const here = actionsAt(located, sel, terrOf);
        const heading = h("h3", { id: "here" }, t("polis.here", { place: nm(sel) }));
        root.append(heading);
        // a place just chosen on the map: its actions come into view (on a phone they are in the sheet below)
        if (sel !== shownSel) { shownSel = sel; requestAnimationFrame(() => { if (heading.isConnected) heading.scrollIntoView({ block: window.matchMedia("(max-width: 820px)").matches ? "start" : "nearest" }); }); }
        const info = placeInfo(sel);
        if (info) root.append(info);
        // what cannot be done here, and why (a project too dear, a siege short of hoplites, not your action type…)
        const why = blockedAt(sel);
        if (!here.length) root.append(h("p", { class: "hint", id: "nothing" }, why.length ? t("polis.nothing") : t("blk.nothing")));
        const sieges = new Set(here.filter((a) => ["besiege", "start_siege", "continue_siege"].includes(a.type)).map((a) => a.polis));
        for (const pid of sieges) root.append(siegeOdds(pid));
        const gs = groups(here);
        root.append(h("div", { class: "btns" }, gs.filter((g) => g.length === 1).map((g) => actButton(g[0], false))));
        for (const g of gs.filter((x) => x.length > 1)) root.append(groupControl(g));
        if (why.length) root.append(blockedList(why)); // after what can be done here
      }
    }
    if (other.length) {
      const gs = groups(other);
      root.append(h("h3", {}, t(v.phase === "action" ? "polis.other" : "polis.choose")));
      root.append(h("div", { class: "btns" }, gs.filter((g) => g.length === 1).map((g) => actButton(g[0], END_STEP.includes(g[0].type)))));
      for (const g of gs.filter((x) => x.length > 1)) root.append(groupControl(g));
    }
    if (v.phase === "action") {
      projectsPanel(root, v, acts);
      marketPanel(root, v, trades);
    }
  }

  function handText(hand) {
    const n = {};
    for (const c of hand) n[c] = (n[c] || 0) + 1;
    return Object.entries(n).map(([c, k]) => (k > 1 ? `${k} × ${cardName(c)}` : cardName(c))).join(", ");
  }

  function players(root, msg) {
    const v = msg.view;
    for (const [i, side] of v.sides.entries()) {
      const res = Object.entries(side.resources).map(([k, n]) => `${n} ${t(`res.${k}`)}`).join(", ");
      const active = v.current_player === i;
      root.append(h("div", { class: `side ${active ? "active" : ""}`, "data-seat": i },
        h("p", {}, h("i", { class: "dot", style: `background:${SIDE_COLOUR[side.side]}` }),
          active ? icon("turn", t("table.active")) : null,
          h("strong", {}, ctx.seatName(i)),
          ` — ${side.prestige} ${t("polis.prestige")}${side.passed ? ` · ${t("polis.passed")}` : ""}`),
        h("p", { class: "hint" }, res),
        side.score ? h("p", { class: "score", "data-total": side.score.total }, t(msg.status === "finished" ? "polis.scorefinal" : "polis.scoreline", side.score)) : null,
        h("p", { class: "hint units-line" },
          unitSvg("hoplite", t("polis.hoplites")), ` ${t("n.hoplite", { n: Object.values(side.hoplites).reduce((a, b) => a + b, 0) })} · `,
          unitSvg("galley", t("polis.galleys")), ` ${t("n.galley", { n: Object.values(side.galleys).reduce((a, b) => a + b, 0) })} · `,
          unitSvg("merchant", t("polis.merchants")), ` ${t("n.merchant", { n: side.merchants })}`),
        h("p", { class: "hint" }, `${t("n.combatcard", { n: side.hand_size })} · ${t("polis.proxenos")}: ${nm(side.proxenos)}`)));
    }
    if (v.hand) root.append(h("p", { id: "hand", "data-tip": `cards:${v.hand.join(",")}` }, t("polis.yourhand", { h: handText(v.hand) || "—" })));
    if (v.event) root.append(h("p", { class: "hint", id: "event", "data-tip": `event:${v.event}` }, t("polis.event", { e: eventName(v.event) })));
    siegePanel(root, v);
    roundEndPanel(root, v);
    if (v.project_offer && v.project_offer.length) root.append(h("p", { class: "hint", id: "offer", "data-tip": `projects:${v.project_offer.join(",")}` }, t("polis.offer", { p: v.project_offer.map(projectName).join(", ") })));
  }

  // ------------------------------------------------------------------ what happened (announced to everyone)
  /** The steps the last end of round took by itself (view.round_end), one line each, grouped by side:
   * [[side, [lines]]]. */
  function roundEndLines(rep) {
    const by = new Map();
    for (const st of (rep && rep.steps) || []) {
      const vars = { n: st.prestige ?? st.wheat ?? 0 };
      let line;
      if (st.step === "project") line = t("rep.project", { ...vars, project: projectName(st.project) });
      else if (st.step === "starved") line = t("rep.starved", { ...vars, need: st.wheat_needed, n: st.wheat });
      else if (st.step === "no_growth") line = t(`rep.no_growth.${st.why}`, vars);
      else if (st.step === "megalopolis") line = t("rep.megalopolis", { ...vars, k: st.poleis });
      else if (st.step === "storage") {
        line = t("rep.storage", { ...vars, list: Object.entries(st.halved).map(([r, [a, b]]) => `${t(`res.${r}`)} ${a}\u2192${b}`).join(", ") });
      } else line = t(`rep.${st.step}`, vars);
      if (!by.has(st.side)) by.set(st.side, []);
      by.get(st.side).push(line);
    }
    return [...by.entries()];
  }

  /** The last end of round's automatic steps, kept in the side panel until the next one. */
  function roundEndPanel(root, v) {
    const rep = v.round_end;
    if (!rep) return;
    const groups = roundEndLines(rep);
    root.append(h("details", { class: "roundend", id: "roundend", open: true },
      h("summary", {}, t("rep.title", { n: rep.round ?? rep.round_number })),
      groups.length ? h("ul", {}, groups.map(([side, lines]) => h("li", { "data-side": side },
        h("strong", { style: `color:${SIDE_COLOUR[side]}` }, t(`polis.${side}`)), `: ${lines.join(" · ")}`)))
        : h("p", { class: "hint" }, t("rep.none"))));
  }

  // ------------------------------------------------------------------ what changed (the log's words)
  const sideName = (sd) => (sd === "neutral" ? t("polis.neutral") : t(`polis.${sd}`));
  /** A siege in words: "siege of Megara by Athens: 1 of 2 markers; forcing costs 1 prestige + 1 hoplite per
   * marker" (the last part under the rule that lets the besieger force). */
  function siegeText(polis, side, n, of, rule, key = "chg.siege") {
    const parts = [t(key, { polis: nm(polis), side: sideName(side), n, of })];
    if (rule === "diceless_sacrifice") parts.push(t("chg.force"));
    return parts.join("; ");
  }
  /** One change an action made (a log line's `changes`, computed by the server), in words. */
  function changeText(c) {
    if (c.k === "polis") {
      const now = c.to === "neutral" ? t("chg.polisneutral", { polis: nm(c.polis) }) : t("chg.polis", { polis: nm(c.polis), who: sideName(c.to) });
      return `${now} ${c.from === "neutral" ? t("chg.wasneutral") : t("chg.was", { from: sideName(c.from) })}`;
    }
    if (c.k === "siege") return c.n ? siegeText(c.polis, c.side, c.n, c.of, c.rule) : t("chg.siegelifted", { polis: nm(c.polis), side: sideName(c.side) });
    if (c.k === "lost") return t("chg.lostat", { side: sideName(c.side), units: t(`n.${c.unit}`, { n: c.n }), places: (c.places || []).map(nm).join(", ") });
    if (c.k === "prestige") return t("chg.prestige", { side: sideName(c.side), n: signed(c.n), total: c.total });
    if (c.k === "proxenos") return t("chg.proxenos", { side: sideName(c.side) });
    if (c.k === "round") return t("toast.round", { n: c.name ?? c.n });
    return "";
  }
  /** The die of a siege or market roll (`entries[k]`), for the dice tray; null for another line. */
  function rollDice(entries, k) {
    const a = entries[k] && entries[k].action;
    if (!a || (a.type !== "siege_roll" && a.type !== "market_roll")) return null;
    return { title: t(a.type === "siege_roll" ? "dice.siege" : "dice.market"), attacker: [a.roll], attackerName: " " };
  }

  /** Every siege going on, in words and in its side's colour (the map shows its markers). */
  function siegePanel(root, v) {
    const lines = [];
    for (const p of v.poleis) {
      for (const [side, n] of Object.entries(p.siege_discs || {})) {
        lines.push(h("li", { "data-polis": p.id, "data-side": side, style: `border-left-color:${SIDE_COLOUR[side]}` },
          h("i", { class: "dot", style: `background:${SIDE_COLOUR[side]}` }), siegeText(p.id, side, n, p.fortification, v.siege)));
      }
    }
    if (lines.length) root.append(h("div", { class: "sieges", id: "sieges" }, h("h3", {}, t("polis.sieges")), h("ul", {}, lines)));
  }

  const unitsAt = (v, terr) => v.sides.map((sd) => (sd.hoplites[terr] || 0) + (sd.galleys[terr] || 0));
  function happenings(prev, cur, entries) {
    const toasts = [];
    let dice;
    const pv = prev.view;
    const v = cur.view;
    if (!pv || !v || !v.poleis || cur.version <= prev.version) return { toasts };
    const before = Object.fromEntries((pv.poleis || []).map((p) => [p.id, p.owner]));
    for (const p of v.poleis) {
      const o = before[p.id];
      if (o === undefined || o === p.owner) continue;
      toasts.push({ kind: "big", text: p.owner === "neutral" ? t("toast.polisneutral", { polis: nm(p.id) })
        : t("toast.polis", { polis: nm(p.id), who: t(`polis.${p.owner}`) }) });
    }
    const rep = v.round_end;
    if (rep) {
      // what the end of round did by itself: one announcement per side, of the steps not announced yet (a step the
      // end of round takes alone can follow a choice it asked for, e.g. growth after the supply paid by hand)
      const old = pv.round_end && pv.round_end.round_number === rep.round_number ? new Map(roundEndLines(pv.round_end)) : new Map();
      for (const [side, lines] of roundEndLines(rep)) {
        const fresh = lines.slice((old.get(side) || []).length);
        if (fresh.length) toasts.push({ kind: "auto", text: `${t("rep.toast", { n: rep.round ?? rep.round_number, who: t(`polis.${side}`) })} ${fresh.join(" · ")}` });
      }
    }
    if (v.round !== pv.round) toasts.push({ text: t("toast.round", { n: v.round }) });
    if (v.event && v.event !== pv.event) toasts.push({ text: t("toast.event", { e: eventName(v.event) }) });
    if (v.battle && (!pv.battle || pv.battle.territory !== v.battle.territory)) {
      toasts.push({ kind: "big", text: t("toast.battle", { place: nm(v.battle.territory) }) });
    }
    const bt = pv.battle || v.battle;
    if (bt) {
      const a = unitsAt(pv, bt.territory);
      const b = unitsAt(v, bt.territory);
      if (a[0] !== b[0] || a[1] !== b[1]) {
        const loss = SIDES.map((sd, i) => `${t(`polis.${sd}`)} ${signed(b[i] - a[i])}`).join(", ");
        toasts.push({ kind: "big", text: `${t(v.battle ? "toast.battle" : "toast.battleend", { place: nm(bt.territory) })}: ${loss}` });
      }
    }
    for (const e of entries) {
      const ty = e.action.type;
      if (ty === "siege_roll" || ty === "market_roll") {
        dice = { title: t(ty === "siege_roll" ? "dice.siege" : "dice.market"), attacker: [e.action.roll], attackerName: " " };
      }
    }
    return { toasts, dice };
  }

  function onKey(key, msg) {
    const a = keyAction(key, legal(msg));
    if (a) { ctx.send(a); return true; }
    return false;
  }

  return {
    title: "Polis",
    render,
    controls,
    players,
    describe,
    label,
    onKey,
    keys: () => t("polis.keys"),
    cancel: () => { sel = null; },
    // the focus goes to the map when a place can be chosen there (table.js, after a redraw of the controls)
    focusMap: () => {
      if (!ctx.msg || !legal(ctx.msg).some((a) => placesOf(a).length)) return false;
      nav.focus();
      return true;
    },
    colour: (i) => SIDE_COLOUR[SIDES[i]] || "#888",
    seatLabel: (i) => t(`polis.${SIDES[i]}`),
    phaseText: (p) => t(`polisphase.${p}`),
    // the rule book's round names (3, 4, 5 alpha, 5 beta: each its stacking limit) everywhere, with the one to come
    roundText: (v) => {
      if (!v.round_number) return t("polis.round", { r: v.round });
      const next = (v.round_names || [])[v.round_number];
      return next ? t("polis.roundof", { r: v.round, k: v.stacking_limit, next }) : t("polis.roundlast", { r: v.round, k: v.stacking_limit });
    },
    danger,
    nowText: (msg) => {
      const v = msg.view;
      if (!has(`now.polis.${v.phase}`)) return "";
      const text = t(`now.polis.${v.phase}`, { e: v.event ? eventName(v.event) : "" });
      // which of the turn's two actions this is
      return v.phase === "action" ? `${t("now.polis.actionof", { i: Math.min(2, (v.actions_this_turn || 0) + 1) })} ${text}` : text;
    },
    endReason: (v, out) => {
      const why = v.end_reason || out.termination;
      const losers = SIDES.filter((_, i) => !out.winners.includes(i));
      return endWhy(why, why === "final" ? null : losers[0]);
    },
    scoreSources: (v) => ({
      columns: ["population", "prestige", "posterity"].map((k) => t(`polis.src.${k}`)),
      rows: v.sides.map((sd, i) => ({ seat: i, values: [sd.score.population, sd.score.prestige, sd.score.posterity], total: sd.score.total })),
    }),
    happenings,
    changeText,
    rollDice,
    headline: (a) => a.type === "draw_event",
    // the place a phone's map starts on: the player's capital (a spectator's: Athens)
    home: (msg) => `#p-${msg.seat === 1 ? "sparti" : "athinae"}`,
    currentSeat: (v) => (typeof v.current_player === "number" ? v.current_player : null),
  };
}
