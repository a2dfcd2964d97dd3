// Polis board: the drawn Greek map (territories and seas), each polis with its owner, population,
// fortification, siege discs and the proxenos; hoplites and galleys of both sides; each side's resources,
// prestige and hand. Clicking a territory, polis or sea lists the legal actions there; sieges show the odds.
import { clear, h, pct, s } from "../common.js";
import { t } from "../i18n.js";

const SIDE_COLOUR = { athens: "#2f6fd0", sparta: "#d33c32", neutral: "#8d8778" };
const SIDES = ["athens", "sparta"];
const PLACE_FIELDS = ["polis", "territory", "to", "source", "market"];

export async function createBoard(root, ctx) {
  const map = await (await fetch("/static/maps/polis.json")).json();
  const names = map.names;
  const nm = (id) => names[id] || String(id).replace(/_/g, " ");
  const terrOf = Object.fromEntries(map.poleis.map((p) => [p.id, p.territory]));
  let sel = null;

  const svg = s("svg", { viewBox: `0 0 ${map.width} ${map.height}`, id: "map", class: "map polis", role: "img" });
  const gArea = s("g");
  const gLab = s("g");
  svg.append(s("rect", { x: 0, y: 0, width: map.width, height: map.height, class: "water" }),
    s("path", { d: map.land, class: "land" }), gArea, gLab);
  if (map.inset) gArea.append(s("path", { d: map.inset, class: "inset" }));
  const shapes = {};
  const centre = {};
  const unitG = {};
  for (const a of [...map.seas.map((x) => ({ ...x, sea: true })), ...map.provinces]) {
    const p = s("path", { d: a.d, class: `${a.sea ? "sea" : "prov"} area`, "data-id": a.id, id: `a-${a.id}` });
    p.append(s("title", { text: a.name }));
    p.addEventListener("click", () => select(a.id));
    gArea.append(p);
    shapes[a.id] = p;
    centre[a.id] = [a.x, a.y];
    gLab.append(s("text", { x: a.x, y: a.y - (a.sea ? 10 : 13), class: a.sea ? "sealabel" : "plabel", text: a.name }));
    const g = s("g", { class: "units", transform: `translate(${a.x},${a.y + (a.sea ? 4 : 27)})` });
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
      const g = s("g", { class: "polis", transform: `translate(${cx + dx},${cy})`, "data-id": pid, id: `p-${pid}` });
      g.addEventListener("click", (e) => { e.stopPropagation(); select(pid); });
      const c = s("circle", { r: 8 });
      const pop = s("text", { y: 3, class: "pop", text: "" });
      const name = s("text", { y: 19, class: "pname", text: nm(pid) });
      const fort = s("text", { x: 12, y: 9, class: "fort", text: "" });
      const discs = s("text", { x: -13, y: 9, class: "discs", text: "" });
      const prox = s("text", { x: 11, y: -5, class: "prox", text: "" });
      g.append(c, pop, name, fort, discs, prox);
      g.append(s("title", { text: nm(pid) }));
      gLab.append(g);
      polisG[pid] = { g, c, pop, fort, discs, prox };
    });
  }
  clear(root).append(svg);

  function legal(msg) {
    return msg.seat !== null && msg.status === "playing" ? msg.view.legal_actions || [] : [];
  }

  function places(a) {
    const out = [];
    for (const f of PLACE_FIELDS) if (typeof a[f] === "string") { out.push(a[f]); if (terrOf[a[f]]) out.push(terrOf[a[f]]); }
    return out;
  }

  function render(msg) {
    const v = msg.view;
    const can = new Set(legal(msg).flatMap(places));
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
      const d = Object.entries(p.siege_discs || {}).map(([side, n]) => `${side[0].toUpperCase()}${n}`).join(" ");
      g.discs.textContent = d;
      g.g.classList.toggle("clickable", can.has(p.id));
      g.c.style.strokeWidth = can.has(p.id) ? "2.5" : "1";
      g.c.dataset.owner = p.owner;
    }
    for (const pid of Object.keys(polisG)) polisG[pid].prox.textContent = "";
    for (const side of v.sides) if (side.proxenos && polisG[side.proxenos]) {
      polisG[side.proxenos].prox.textContent = "✦";
      polisG[side.proxenos].prox.style.fill = SIDE_COLOUR[side.side];
    }
    const tint = {};
    v.sides.forEach((side) => { for (const terr of Object.keys(side.hoplites)) tint[terr] = tint[terr] ? "both" : side.side; });
    for (const a of map.provinces) {
      const k = tint[a.id];
      shapes[a.id].style.fill = k === "athens" ? "#c9daf5" : k === "sparta" ? "#f3cdc9" : k === "both" ? "#e4d3ee" : "#ece3c9";
    }
    for (const g of Object.values(unitG)) clear(g);
    v.sides.forEach((side, i) => {
      for (const [terr, n] of Object.entries({ ...side.hoplites, ...side.galleys })) {
        const g = unitG[terr];
        if (!g) continue;
        const x = i === 0 ? -12 : 12;
        g.append(s("rect", { x: x - 10, y: -7, width: 20, height: 14, rx: 3, fill: SIDE_COLOUR[side.side] }),
          s("text", { x, y: 3.5, text: String(n) }));
      }
    });
    if (v.battle && shapes[v.battle.territory]) shapes[v.battle.territory].classList.add("battle");
    else for (const sh of Object.values(shapes)) sh.classList.remove("battle");
  }

  function select(id) {
    sel = sel === id ? null : id;
    ctx.rerender();
  }

  function siegeOdds(pid) {
    const box = h("div", { class: "odds", id: "odds" }, "…");
    ctx.odds({ polis: pid }).then((o) => {
      clear(box).append(h("strong", {}, t("odds.title")), h("br"),
        h("span", { class: "pwin", "data-p": o.success.decimal }, t("odds.siege", { p: `${pct(o.success.decimal)} (${o.success.fraction})` })));
    }).catch(() => clear(box));
    return box;
  }

  function controls(root, msg) {
    const acts = legal(msg);
    const located = acts.filter((a) => places(a).length);
    const other = acts.filter((a) => !places(a).length);
    if (located.length) root.append(h("p", { class: "hint" }, t("polis.click")));
    if (sel) {
      const here = located.filter((a) => places(a).includes(sel));
      if (here.length) {
        root.append(h("h3", {}, t("polis.here", { place: nm(sel) })));
        const sieges = new Set(here.filter((a) => ["besiege", "start_siege", "continue_siege"].includes(a.type)).map((a) => a.polis));
        for (const pid of sieges) root.append(siegeOdds(pid));
        root.append(h("div", { class: "btns" }, here.map((a) => h("button", { type: "button", class: "act", "data-type": a.type, onclick: () => { ctx.send(a); } }, describe(a)))));
      }
    }
    if (other.length) {
      root.append(h("h3", {}, t("polis.other")),
        h("div", { class: "btns" }, other.map((a) => h("button", { type: "button", class: "act", "data-type": a.type, onclick: () => ctx.send(a) }, describe(a)))));
    }
  }

  function players(root, msg) {
    const v = msg.view;
    for (const [i, side] of v.sides.entries()) {
      const res = Object.entries(side.resources).map(([k, n]) => `${n} ${t(`res.${k}`)}`).join(", ");
      const active = v.current_player === i;
      root.append(h("div", { class: `side ${active ? "active" : ""}`, "data-seat": i },
        h("p", {}, h("i", { class: "dot", style: `background:${SIDE_COLOUR[side.side]}` }),
          h("strong", {}, `${active ? "▶ " : ""}${ctx.seatName(i)}`),
          ` — ${side.prestige} ${t("polis.prestige")}${side.passed ? ` · ${t("polis.passed")}` : ""}`),
        h("p", { class: "hint" }, res),
        side.score ? h("p", { class: "score", "data-total": side.score.total }, t("polis.scoreline", side.score)) : null,
        h("p", { class: "hint" }, `${side.merchants} ${t("polis.merchants")} · ${side.hand_size} ${t("polis.hand")} · ${t("polis.proxenos")}: ${nm(side.proxenos)}`)));
    }
    if (v.hand) root.append(h("p", { id: "hand" }, t("polis.yourhand", { h: v.hand.join(", ") || "—" })));
    if (v.event) root.append(h("p", { class: "hint" }, t("polis.event", { e: nm(v.event) })));
  }

  function describe(a, actor) {
    const vars = {};
    for (const [k, val] of Object.entries(a)) {
      if (k === "type") continue;
      if (k === "side") vars[k] = ctx.seatName(val);
      else if (k === "resource") vars[k] = t(`res.${val}`);
      else if (k === "card") vars[k] = val === "?" ? "" : ` (${val})`;
      else if (typeof val === "string") vars[k] = nm(val);
      else vars[k] = val;
    }
    let txt = t(`act.polis.${a.type}`, vars);
    if (a.silver) txt += ` (+${a.silver} ${t("res.silver")})`;
    if (a.type === "trade" && a.purchase !== undefined) txt += a.purchase ? " ($)" : "";
    return txt;
  }

  function onKey(key, msg) {
    const acts = legal(msg);
    if (key === "d" || key === "p") {
      const a = acts.find((x) => ["end_move", "end_growth", "pass", "stand", "pay_supply"].includes(x.type));
      if (a) { ctx.send(a); return true; }
    }
    return false;
  }

  return {
    title: "Polis",
    render,
    controls,
    players,
    describe,
    onKey,
    cancel: () => { sel = null; },
    colour: (i) => SIDE_COLOUR[SIDES[i]] || "#888",
    seatLabel: (i) => t(`polis.${SIDES[i]}`),
    phaseText: (p) => t(`polisphase.${p}`),
    roundText: (v) => t("polis.round", { r: v.round }),
    currentSeat: (v) => (typeof v.current_player === "number" ? v.current_player : null),
  };
}
