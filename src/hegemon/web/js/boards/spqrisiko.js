// S.P.Q.RisiKo! board: the drawn map (provinces coloured by owner with legionaries and power centres, sea
// areas with each player's triremes), clicking on the map to act, and controls for the compound moves:
// reinforcement counter, odds before attacks, auto-roll until…, sliders for declare / move-in / move counts.
import { chance, clear, COLOURS, countChoice, h, icon, LIGHT, NEUTRAL, num, s, textures } from "../common.js";
import { has, t, touch } from "../i18n.js";
import { signed } from "../happen.js";
import { mapNav } from "../mapnav.js";

const FREE = "#efe8d6";

// ------------------------------------------------------------------ click logic (no DOM: tests/js/ runs it in Node)
/** The map locations an action names, in the order the player clicks them. */
export function locs(a) {
  switch (a.type) {
    case "claim": case "claim_neutral": case "reinforce": case "place_power_centre": return [a.province];
    case "place_trireme": return [a.sea];
    case "disband": return [a.sea, a.province];
    case "build": return [a.province, a.sea];
    case "naval_move": return [a.source, a.dest];
    case "naval_attack": return [a.sea];
    case "sea_attack": case "attack": return [a.source, a.target];
    case "fortify": return [a.source, a.dest];
    default: return [];
  }
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The legal actions whose locations start with the clicked ones. */
export function candidates(acts, prefix) {
  return acts.filter((a) => {
    const l = locs(a);
    return l.length > prefix.length - 1 && prefix.every((x, i) => l[i] === x);
  });
}

/** The locations a next click may choose, after the clicks `sel`. */
export function clickTargets(acts, sel) {
  const out = new Set();
  for (const a of candidates(acts, sel)) {
    const l = locs(a);
    if (l.length > sel.length) out.add(l[sel.length]);
  }
  return out;
}

// a battle is confirmed (with its odds) even when it is the only one
const CONFIRMED = ["attack", "sea_attack", "naval_attack"];

/** A click on `id` after the clicks `sel`: null when it starts nothing (the selection is dropped), else the
 * new selection and what happens: "more" (another click is needed), "reinforce" (place `full[0]` one or more
 * times), "send" (play `full[0]`) or "choose" (the player picks among `full`, or confirms a battle). A click
 * that continues no selection starts a new one. */
export function clickStep(acts, sel, id) {
  let next = [...sel, id];
  let cands = candidates(acts, next);
  if (!cands.length) {
    next = [id];
    cands = candidates(acts, next);
    if (!cands.length) return null;
  }
  const full = cands.filter((a) => locs(a).length === next.length);
  const longer = cands.filter((a) => locs(a).length > next.length);
  let outcome = "more";
  if (full.length && !longer.length) {
    if (full[0].type === "reinforce") outcome = "reinforce";
    else if (full.length === 1 && !CONFIRMED.includes(full[0].type)) outcome = "send";
    else outcome = "choose";
  }
  return { sel: next, full, outcome };
}

/** How many legionaries one click on a province places: the per-click setting (1, 3, 5 or "all"), at most the pool. */
export function reinforceTimes(perClick, pool) {
  const p = pool || 1;
  return perClick === "all" ? p : Math.min(perClick, p);
}

/** The automatic follow-up that plays `a0` again until it has been played `times` times in all (or it is no
 * longer legal). */
export function repeatAction(a0, times) {
  let n = times;
  return (m) => {
    n -= 1;
    if (n <= 0) return null;
    return (m.view.legal_actions || []).find((a) => same(a, a0)) || null;
  };
}

/** The automatic follow-up of "roll until…": the most dice each time, withdrawing once the attacking province
 * is down to `limit` legionaries; it stops when the battle is over. */
export function autoRoll(limit) {
  return (m) => {
    const v = m.view;
    const acts = v.legal_actions || [];
    if (v.phase === "land attack: roll" || v.phase === "naval combat: roll") {
      const rolls = acts.filter((a) => a.type === "roll_dice");
      const bt = v.battle;
      if (bt && bt.kind === "land") {
        const src = v.provinces.find((p) => p.id === bt.source);
        if (src && src.armies <= limit) return acts.find((a) => a.type === "withdraw") || null;
      }
      return rolls.length ? rolls[rolls.length - 1] : null;
    }
    return null;
  };
}

/** The action a key plays (d: done, r: the most dice, a: the same and the rolls go on, w: withdraw), or null. */
export function keyAction(key, acts) {
  const rolls = acts.filter((x) => x.type === "roll_dice");
  if (key === "d") return acts.find((x) => x.type === "done") || null;
  if (key === "r" || key === "a") return rolls.length ? rolls[rolls.length - 1] : null;
  if (key === "w") return acts.find((x) => x.type === "withdraw") || null;
  return null;
}

/** Which dice lose, pair by pair (highest against highest): ties go to the defender on land, to nobody at sea. */
export function losses(att, dfn, naval) {
  const la = att.map(() => false);
  const ld = dfn.map(() => false);
  for (let i = 0; i < Math.min(att.length, dfn.length); i++) {
    if (att[i] > dfn[i]) ld[i] = true;
    else if (att[i] < dfn[i] || !naval) la[i] = true;
  }
  return [la, ld];
}

export async function createBoard(root, ctx) {
  const map = await (await fetch(new URL("../../maps/spqrisiko.json", import.meta.url))).json();
  const names = map.names;
  const nm = (id) => names[id] || id;
  let sel = []; // clicked locations
  let pending = null; // complete actions waiting for a choice or a confirmation
  let perClick = 1;
  let stopAt = null;
  let oddsToken = 0;

  // ------------------------------------------------------------------ drawing
  const svg = s("svg", { viewBox: `0 0 ${map.width} ${map.height}`, id: "map", class: "map spqr", role: "img" });
  const gSea = s("g", { class: "seas" });
  const gProv = s("g", { class: "provinces" });
  // the drawn names and numbers say what each place's own name says (mapnav.js): hidden from screen readers
  const gLab = s("g", { class: "labels", "aria-hidden": "true" });
  // each owner's provinces in its colour and its own texture (a cue that does not need colour vision)
  svg.append(textures({ ...Object.fromEntries(COLOURS.map((c, i) => [`own-${i}`, [c, i]])), "own-neutral": [NEUTRAL, null] }),
    s("rect", { x: 0, y: 0, width: map.width, height: map.height, class: "water" }),
    s("path", { d: map.land, class: "land" }), gSea, gProv, gLab);
  const shapes = {};
  const badges = {};
  for (const sea of map.seas) {
    const p = s("path", { d: sea.d, class: "sea area", "data-id": sea.id, id: `a-${sea.id}` });
    p.addEventListener("click", () => click(sea.id));
    p.append(s("title", { text: sea.name }));
    gSea.append(p);
    shapes[sea.id] = p;
    // name and fleets where scripts/make_maps.py placed them (inside the sea, over nothing else)
    gLab.append(s("text", { x: sea.lx ?? sea.x, y: sea.ly ?? sea.y - 10, class: "sealabel", text: sea.name, "data-label": sea.id }));
    const g = s("g", { class: "fleet", transform: `translate(${sea.ux ?? sea.x},${sea.uy ?? sea.y})` });
    gLab.append(g);
    badges[sea.id] = g;
  }
  for (const pr of map.provinces) {
    const p = s("path", { d: pr.d, class: "prov area", "data-id": pr.id, id: `a-${pr.id}` });
    p.addEventListener("click", () => click(pr.id));
    p.append(s("title", { text: pr.name }));
    gProv.append(p);
    shapes[pr.id] = p;
    gLab.append(s("text", { x: pr.lx ?? pr.x, y: pr.ly ?? pr.y - 9, class: "plabel", text: pr.name, "data-label": pr.id }));
    const g = s("g", { class: "army", transform: `translate(${pr.ux ?? pr.x},${pr.uy ?? pr.y + 3})`, "data-id": pr.id });
    g.addEventListener("click", () => click(pr.id));
    const c = s("circle", { r: 8 });
    const tx = s("text", { y: 3.5, text: "" });
    const star = icon("star");
    for (const [k, val] of Object.entries({ x: 7, y: -6, width: 11, height: 11, class: "pc" })) star.setAttribute(k, val);
    star.style.display = "none";
    star.setAttribute("data-tip", "pc");
    g.append(c, tx, star);
    gLab.append(g);
    badges[pr.id] = { g, c, tx, star };
  }
  clear(root).append(svg);

  // ------------------------------------------------------------------ keyboard (mapnav.js)
  const nav = mapNav(svg, {
    places: [...map.seas, ...map.provinces].map((a) => ({ id: a.id, el: shapes[a.id], x: a.x, y: a.y })),
    targets: () => (ctx.msg ? clickable(ctx.msg) : new Set()),
    choose: (id) => keyChoose(id),
    key: (id, k) => placeKey(id, k),
    label: () => t("map.spqr"),
    ringAfter: gProv,
  });

  /** Enter on a place: what a click does; a choice that follows (a battle to confirm, a count) takes the focus. */
  function keyChoose(id) {
    click(id);
    if (!pending) return;
    const next = document.querySelector("#actions #autoattack, #actions .count-btn, #actions [data-countfocus], #actions button.primary");
    if (next) next.focus();
  }

  /** A digit on one of your provinces while reinforcing places that many legionaries there (at most the pool). */
  function placeKey(id, k) {
    const msg = ctx.msg;
    if (!msg || !/^[1-9]$/.test(k) || sel.length) return false;
    const a0 = legal(msg).find((a) => a.type === "reinforce" && a.province === id);
    if (!a0) return false;
    ctx.setAuto(repeatAction(a0, Math.min(Number(k), msg.view.pool || 1)));
    ctx.send(a0);
    return true;
  }

  /** A place as a screen reader names it: "Italia, Red (you), 5 legionaries, power centre". */
  function provinceName(p) {
    const owner = p.owner === null || p.owner === undefined ? t("map.free") : p.owner === "neutral" ? t("spqr.neutral") : ctx.ownerName(p.owner);
    return [nm(p.id), owner, p.armies ? t("n.legionary", { n: p.armies }) : "", p.power_centre ? t("map.pc") : "",
      sel.includes(p.id) ? t("map.selected") : ""].filter(Boolean).join(", ");
  }
  function seaName(sea) {
    const ctl = sea.controller !== null && sea.controller !== undefined ? t("map.controlled", { owner: ctx.ownerName(sea.controller) }) : "";
    const fleets = sea.triremes.map((n, p) => (n ? `${ctx.ownerName(p)}: ${t("n.trireme", { n })}` : "")).filter(Boolean);
    return [nm(sea.id), t("map.sea"), ctl, fleets.length ? fleets.join("; ") : t("map.nofleet"),
      sel.includes(sea.id) ? t("map.selected") : ""].filter(Boolean).join(", ");
  }

  function colour(o) {
    if (o === "neutral") return NEUTRAL;
    if (o === null || o === undefined) return FREE;
    return COLOURS[o % COLOURS.length];
  }

  function legal(msg) {
    return msg.seat !== null && msg.status === "playing" ? msg.view.legal_actions || [] : [];
  }

  function clickable(msg) {
    return pending ? new Set() : clickTargets(legal(msg), sel);
  }

  function render(msg) {
    const v = msg.view;
    const can = clickable(msg);
    for (const p of v.provinces) {
      const sh = shapes[p.id];
      if (!sh) continue;
      sh.style.fill = p.owner === null || p.owner === undefined ? FREE
        : `url(#fill-own-${p.owner === "neutral" ? "neutral" : p.owner % COLOURS.length})`;
      const b = badges[p.id];
      b.tx.textContent = p.armies ? String(p.armies) : "";
      b.c.style.display = p.armies ? "" : "none";
      b.c.style.fill = p.owner === null ? "#fff" : colour(p.owner);
      b.tx.style.fill = LIGHT.has(colour(p.owner)) ? "#222" : "";
      b.star.style.display = p.power_centre ? "" : "none";
      sh.dataset.owner = p.owner === null ? "" : String(p.owner);
      sh.dataset.armies = String(p.armies);
      sh.setAttribute("aria-label", provinceName(p));
    }
    for (const sea of v.seas) {
      const g = clear(badges[sea.id]);
      let x = -((sea.triremes.filter((n) => n > 0).length - 1) * 11);
      sea.triremes.forEach((n, p) => {
        if (!n) return;
        g.append(s("rect", { x: x - 9, y: -7, width: 18, height: 14, rx: 3, fill: COLOURS[p] }),
          s("text", { x, y: 4, text: `${n}` }));
        x += 22;
      });
      const ctl = sea.controller !== null && sea.controller !== undefined;
      shapes[sea.id].style.fill = ctl ? COLOURS[sea.controller] : "";
      shapes[sea.id].style.fillOpacity = ctl ? "0.22" : "";
      shapes[sea.id].setAttribute("aria-label", seaName(sea));
    }
    for (const [id, sh] of Object.entries(shapes)) {
      sh.classList.toggle("clickable", can.has(id));
      sh.classList.toggle("selected", sel.includes(id));
    }
    const bt = v.battle;
    for (const sh of Object.values(shapes)) sh.classList.remove("battle");
    if (bt) for (const id of [bt.source, bt.target, bt.sea]) if (id && shapes[id]) shapes[id].classList.add("battle");
    nav.sync();
  }

  function reset() { sel = []; pending = null; stopAt = null; }

  function click(id) {
    const msg = ctx.msg;
    if (!msg || !legal(msg).length) return;
    const step = clickStep(legal(msg), sel, id);
    if (!step) { reset(); ctx.rerender(); return; }
    sel = step.sel;
    pending = null;
    const a0 = step.full[0];
    if (step.outcome === "reinforce") {
      ctx.setAuto(repeatAction(a0, reinforceTimes(perClick, msg.view.pool)));
      ctx.send(a0);
      reset();
    } else if (step.outcome === "send") {
      ctx.send(a0);
      reset();
    } else if (step.outcome === "choose") {
      pending = step.full;
    }
    ctx.rerender();
  }

  // ------------------------------------------------------------------ controls
  function oddsBox(params, kindLabel) {
    const box = h("div", { class: "odds", id: "odds" }, h("span", { class: "hint" }, "…"));
    const my = ++oddsToken;
    ctx.odds(params).then((o) => {
      if (my !== oddsToken) return;
      clear(box);
      // exact fractions, or (armies too large for them: "exact": false) floating point, said as such
      const exact = o.exact !== false;
      box.append(h("strong", { class: exact ? "exact" : "float", title: exact ? "" : t("odds.float") },
        t(exact ? "odds.title" : "odds.title_float")), h("br"));
      if (!o.attack_possible) { box.append(t("odds.impossible")); return; }
      box.append(h("span", { class: "pwin", "data-p": o.p_win.decimal, title: o.p_win.fraction || t("odds.float") },
        t(kindLabel === "naval" ? "odds.win_naval" : "odds.win", { p: chance(o.p_win) })));
      box.append(h("br"), t("odds.loss", {
        a: num(o.expected_attacker_losses.decimal), d: num(o.expected_defender_losses.decimal) }));
    }).catch((e) => {
      // refused (too many requests, the odds busy): say so rather than show nothing
      if (my === oddsToken) clear(box).append(h("span", { class: "hint" }, e.message || ""));
    });
    return box;
  }

  function slider(id, lo, hi, value, onChange, onEnter) {
    const out = h("output", { for: id }, String(value));
    const inp = h("input", { type: "range", id, min: lo, max: hi, value, oninput: (e) => { out.textContent = e.target.value; onChange(Number(e.target.value)); },
      onkeydown: (e) => { if (e.key === "Enter" && onEnter) { e.preventDefault(); onEnter(); } } });
    return h("span", { class: "slider" }, inp, out);
  }

  function countControls(root, msg, type, label, extraOdds) {
    const acts = legal(msg).filter((a) => a.type === type);
    const bt = msg.view.battle;
    if (bt && bt.source && bt.target) root.append(h("p", { class: "sel" }, `${nm(bt.source)} → ${nm(bt.target)}`));
    root.append(countChoice({
      key: `spqr:${type}:${msg.version}`, id: "count", label, items: acts.map((a) => ({ value: a.count, action: a })),
      confirmText: t("spqr.confirm"), confirmId: "confirm", extra: extraOdds,
      onPick: (a) => { reset(); ctx.send(a); },
    }));
  }

  function controls(root, msg) {
    const v = msg.view;
    const acts = legal(msg);
    const types = new Set(acts.map((a) => a.type));
    const me = msg.seat;
    // pending choice after clicks
    if (pending) {
      const a0 = pending[0];
      if (a0.type === "attack") {
        const src = v.provinces.find((p) => p.id === a0.source);
        const keep = 1;
        if (stopAt === null) stopAt = keep;
        const oddsSlot = h("div");
        const refresh = () => clear(oddsSlot).append(oddsBox({ kind: "land", source: a0.source, target: a0.target, stop_at: stopAt }, "land"));
        root.append(h("p", { class: "sel" }, t("spqr.battle", { src: nm(a0.source), tgt: nm(a0.target) })));
        root.append(h("div", { class: "row" }, h("label", { for: "stopat" }, t("spqr.stopat")),
          slider("stopat", 1, Math.max(1, src.armies - 1), stopAt, (x) => { stopAt = x; refresh(); },
            () => { const limit = stopAt; ctx.setAuto(autoRoll(limit)); reset(); ctx.send(a0); })));
        refresh();
        root.append(oddsSlot,
          h("button", { type: "button", class: "primary", id: "autoattack", onclick: () => {
            const limit = stopAt; ctx.setAuto(autoRoll(limit)); reset(); ctx.send(a0); } }, t("spqr.autoroll", { n: stopAt })),
          h("button", { type: "button", id: "attack", onclick: () => { reset(); ctx.send(a0); } }, t("spqr.attack")),
          h("button", { type: "button", id: "cancel", onclick: () => { reset(); ctx.rerender(); } }, t("table.cancel")));
        return;
      }
      root.append(h("p", { class: "sel" }, sel.map(nm).join(" → ")));
      if (a0.type === "naval_move") {
        root.append(countChoice({
          key: `spqr:naval_move:${sel.join(">")}`, id: "count", label: t("spqr.count_triremes"),
          items: pending.map((a) => ({ value: a.count, action: a })), confirmText: t("spqr.confirm"), confirmId: "confirm",
          onPick: (a) => { reset(); ctx.send(a); },
        }));
      } else {
        for (const a of pending) {
          const wrap = h("div", { class: "choice" }, h("button", { type: "button", class: "primary", onclick: () => { reset(); ctx.send(a); } }, label(a)));
          if (a.type === "naval_attack") wrap.append(oddsBox({ kind: "naval", sea: a.sea, opponent: a.opponent }, "naval"));
          root.append(wrap);
        }
      }
      root.append(h("button", { type: "button", id: "cancel", onclick: () => { reset(); ctx.rerender(); } }, t("table.cancel")));
      return;
    }
    // phase controls
    const ph = v.phase;
    if (ph === "land attack: roll" || ph === "naval combat: roll") {
      const bt = v.battle;
      if (bt && bt.kind === "land") {
        root.append(h("p", { class: "sel" }, t("spqr.battle", { src: nm(bt.source), tgt: nm(bt.target) })));
        root.append(oddsBox({ kind: "land", source: bt.source, target: bt.target }, "land"));
      } else if (bt) {
        root.append(h("p", { class: "sel" }, t("spqr.naval_battle", { sea: nm(bt.sea), opp: ctx.seatName(bt.opponent) })));
        root.append(oddsBox({ kind: "naval", sea: bt.sea, opponent: bt.opponent }, "naval"));
      }
      const rolls = acts.filter((a) => a.type === "roll_dice");
      root.append(h("div", { class: "btns" },
        rolls.map((a) => h("button", { type: "button", class: "roll", "data-dice": a.dice, onclick: () => ctx.send(a) }, t("spqr.rollonce", { d: a.dice }))),
        h("button", { type: "button", id: "autoroll", onclick: () => { ctx.setAuto(autoRoll(1)); ctx.send(rolls[rolls.length - 1]); } }, t("spqr.autoroll", { n: 1 })),
        types.has("withdraw") ? h("button", { type: "button", id: "withdraw", onclick: () => ctx.send({ type: "withdraw" }) }, t("spqr.withdraw")) : null));
      return;
    }
    if (types.has("move_in")) return countControls(root, msg, "move_in", t("spqr.count_move_in"));
    if (types.has("move")) return countControls(root, msg, "move", t("spqr.count_move"));
    if (types.has("declare")) {
      const bt = v.battle;
      return countControls(root, msg, "declare", t("spqr.count_declare"),
        (k) => oddsBox({ kind: "sea", source: bt.source, target: bt.target, declared: k }, "sea"));
    }
    if (types.has("reinforce")) {
      root.append(h("p", { class: "hint" }, t("spqr.click_reinforce")), h("p", {}, t("spqr.pool", { n: v.pool })),
        h("div", { class: "row", role: "group", "aria-label": t("spqr.perclick") }, h("span", { "aria-hidden": "true" }, t("spqr.perclick")),
          ...[1, 3, 5, "all"].map((k) => h("button", { type: "button", class: perClick === k ? "on" : "", "data-per": k, "aria-pressed": String(perClick === k),
            onclick: () => { perClick = k; ctx.rerender(); } }, k === "all" ? t("spqr.all") : String(k)))));
    } else if (types.has("claim") || types.has("claim_neutral")) {
      // the "what you can do now" line says which: claiming a province or placing a neutral group
    } else if (acts.some((a) => locs(a).length)) {
      root.append(h("p", { class: "hint" }, sel.length ? t("spqr.click_next") : t("spqr.click_source")));
    }
    const trades = acts.filter((a) => a.type === "trade_set");
    if (trades.length) root.append(h("div", { class: "btns" }, trades.map((a) => h("button", { type: "button", class: "trade", "data-tip": `set:${a.cards.join(",")}`, onclick: () => ctx.send(a) },
      withFx(t("spqr.trade", { cards: a.cards.map((c) => t(`sym.${c}`)).join("+") }), a)))));
    if (types.has("forgo")) root.append(h("button", { type: "button", id: "forgo", onclick: () => ctx.send({ type: "forgo" }) }, withFx(t("spqr.forgo"), acts.find((a) => a.type === "forgo"))));
    if (types.has("done")) root.append(h("button", { type: "button", id: "done", class: "primary", onclick: () => { reset(); ctx.send({ type: "done" }); } }, touch() ? t("table.done") : `${t("table.done")} (D)`));
    if (me === null) return;
  }

  function players(root, msg) {
    const v = msg.view;
    const rows = [];
    const order = v.order && v.order.length ? v.order : v.players.map((p) => p.seat);
    for (const seat of order) {
      const p = v.players[seat];
      const active = v.active === seat;
      rows.push(h("tr", { class: `${active ? "active" : ""} ${p.eliminated ? "out" : ""}`, "data-seat": seat },
        h("td", {}, active ? icon("turn", t("table.active")) : ""),
        h("td", {}, h("i", { class: "dot", style: `background:${COLOURS[seat]}` }), ctx.seatName(seat)),
        h("td", { class: "vp" }, String(p.vp)), h("td", {}, String(p.provinces)), h("td", {}, String(p.legionaries)),
        h("td", {}, String(p.triremes)), h("td", {}, String(p.cards))));
    }
    root.append(h("table", { class: "scores" },
      h("thead", {}, h("tr", {}, h("th"), h("th"), h("th", { title: t("spqr.vp") }, t("spqr.vp")),
        h("th", { title: t("spqr.provinces") }, icon("grid", t("spqr.provinces"))),
        h("th", { title: t("spqr.legionaries") }, icon("sword", t("spqr.legionaries"))),
        h("th", { title: t("spqr.triremes") }, icon("anchor", t("spqr.triremes"))),
        h("th", { title: t("spqr.cards") }, icon("cards", t("spqr.cards"))))),
      h("tbody", {}, rows)));
    if (msg.seat !== null && v.players[msg.seat] && v.players[msg.seat].hand) {
      const hand = v.players[msg.seat].hand;
      const txt = Object.entries(hand).filter(([, n]) => n).map(([k, n]) => t(`n.${k}`, { n })).join(", ") || "—";
      root.append(h("p", { id: "hand", "data-tip": "spqrhand:" }, t("spqr.hand", { h: txt })));
    }
    // the next scoring: none after the end (a finished game has no next turn)
    if (v.score_preview && msg.status !== "finished") root.append(h("p", { id: "preview", class: "hint" }, t("spqr.preview", v.score_preview)));
  }

  function vars(a) {
    const vars = {};
    for (const [k, val] of Object.entries(a)) {
      if (k === "type") continue;
      if (["province", "source", "target", "dest", "sea"].includes(k)) vars[k] = nm(val);
      else if (["opponent", "player"].includes(k)) vars[k] = ctx.seatName(val);
      else if (k === "owner") vars[k] = val < 0 ? t("spqr.neutral") : ctx.seatName(val);
      else if (k === "seats") vars[k] = val.map((x) => ctx.seatName(x)).join(", ");
      else if (k === "cards") vars[k] = val.map((c) => t(`sym.${c}`)).join("+");
      else if (k === "card") vars[k] = val === "?" ? "" : ` (${t(`sym.${val}`)})`;
      else if (Array.isArray(val)) vars[k] = val.join(" ");
      else vars[k] = val;
    }
    return vars;
  }

  // ------------------------------------------------------------------ costs and effects (computed by the rules)
  const FX = ["legionaries", "pool", "triremes", "power_centres", "cards", "vp", "bonus_triremes", "bonus_power_centres"];
  function effectOf(a) {
    const v = ctx.msg && ctx.msg.view;
    if (!a || !v || !v.action_effects || !v.legal_actions) return null;
    const k = JSON.stringify(a);
    const i = v.legal_actions.findIndex((x) => JSON.stringify(x) === k);
    return i < 0 ? null : v.action_effects[i];
  }
  function fxText(e) {
    if (!e) return "";
    return FX.filter((k) => e[k]).map((k) => t(`fx.${k}`, { n: signed(e[k]) })).join(" · ");
  }
  const withFx = (text, a) => { const fx = fxText(effectOf(a)); return fx ? `${text} — ${fx}` : text; };

  // a log line (what someone did) and a button label (what you can do)
  const describe = (a) => t(`act.spqrisiko.${a.type}`, vars(a));
  const label = (a) => withFx(t(`do.spqrisiko.${a.type}`, vars(a)), a);

  // ------------------------------------------------------------------ what happened (announced to everyone)
  const MAIN = ["reinforcements: cards", "reinforcements: place", "reinforcements: navy", "naval movement", "naval combat",
    "sea attacks", "land attacks", "strategic move"];
  // a step within a phase belongs to its phase
  const PARENT = { "reinforcements: card bonus": "reinforcements: cards", "naval combat: roll": "naval combat",
    "sea attack: declare": "sea attacks", "sea attack: roll": "sea attacks", "land attack: roll": "land attacks",
    "land attack: move in": "land attacks", "strategic move: count": "strategic move" };
  const mainOf = (p) => MAIN.indexOf(PARENT[p] || p);
  const who = (o) => (o === "neutral" ? t("spqr.neutral") : ctx.seatName(o));
  /** The dice of the roll `entries[k]` for the dice tray, with the losses: the battle is the attack before it in
   * `entries` (else `battle`, the one going on); the defender, the owner of the target before the attack (from a
   * conquest said later, else `view`'s owner). `attacker`: the seat that rolls. Null when `entries[k]` is no roll. */
  function rollDice(entries, k, view, attacker, battle) {
    const r = entries[k] && entries[k].action;
    if (!r || r.type !== "roll") return null;
    let bt = battle || null;
    for (let j = k; j >= 0; j--) {
      const a = entries[j].action;
      if (a.type === "naval_attack") { bt = { kind: "naval", sea: a.sea, opponent: a.opponent }; break; }
      if (a.type === "attack" || a.type === "sea_attack") {
        const taken = entries.slice(j).flatMap((e) => e.changes || []).find((c) => c.k === "conquest" && c.place === a.target);
        const tgt = view && view.provinces ? view.provinces.find((p) => p.id === a.target) : null;
        bt = { kind: "land", source: a.source, target: a.target, defender: taken ? taken.from : tgt ? tgt.owner : null };
        break;
      }
    }
    const naval = bt && bt.kind === "naval";
    const [la, ld] = losses(r.attacker, r.defender, naval);
    const nA = la.filter(Boolean).length;
    const nD = ld.filter(Boolean).length;
    const defender = bt ? (naval ? bt.opponent : bt.defender) : null;
    const where = bt ? (naval ? nm(bt.sea) : `${nm(bt.source)} \u2192 ${nm(bt.target)}`) : "";
    return { title: `${t("dice.title")}${where ? `: ${where}` : ""}`, attacker: r.attacker, defender: r.defender, lostA: la, lostD: ld,
      attackerName: attacker !== null && attacker !== undefined && attacker >= 0 ? ctx.seatName(attacker) : t("dice.attacker"),
      defenderName: defender !== null && defender !== undefined ? who(defender) : t("dice.defender"),
      losses: t("dice.losses", { a: nA, d: nD }), nA, nD };
  }

  /** One change an action made (a log line's `changes`, computed by the server), in words. */
  function changeText(c) {
    if (c.k === "conquest") return t("chg.conquest", { who: who(c.to), place: nm(c.place), from: who(c.from) });
    if (c.k === "lost") {
      const units = [c.legionaries ? t("n.legionary", { n: c.legionaries }) : "", c.triremes ? t("n.trireme", { n: c.triremes }) : ""].filter(Boolean).join(", ");
      return units ? t("chg.lost", { who: who(c.who), units }) : "";
    }
    if (c.k === "vp") {
      const src = Object.entries(c.sources || {}).filter(([, n]) => n).map(([k, n]) => t(`src.${k}`, { n })).join(", ");
      return t(src ? "chg.vp" : "chg.vpplain", { who: ctx.seatName(c.who), n: c.n, src, total: c.total });
    }
    if (c.k === "eliminated") return t("toast.eliminated", { who: ctx.seatName(c.who) });
    if (c.k === "round") return t("toast.round", { n: c.n });
    return "";
  }

  function happenings(prev, cur, entries) {
    const toasts = [];
    let dice;
    const pv = prev.view;
    const v = cur.view;
    if (!pv || !v || !v.provinces || cur.version <= prev.version) return { toasts };
    // the dice of the last roll, with the losses (the battle is the one before the roll)
    const rolls = entries.filter((e) => e.action.type === "roll");
    if (rolls.length) {
      const k = entries.indexOf(rolls[rolls.length - 1]);
      dice = rollDice(entries, k, pv, pv.active, pv.battle || v.battle);
      toasts.push({ text: t("toast.roll", { who: ctx.seatName(pv.active), a: dice.nA, d: dice.nD }) });
    }
    const before = Object.fromEntries(pv.provinces.map((p) => [p.id, p.owner]));
    if (pv.order && pv.order.length) {
      for (const p of v.provinces) {
        const o = before[p.id];
        if (o === undefined || o === p.owner || p.owner === null || o === null) continue;
        toasts.push({ kind: "big", text: t("toast.conquered", { who: who(p.owner), place: nm(p.id) }) });
      }
    }
    v.players.forEach((p, i) => {
      const q = pv.players[i];
      if (!q) return;
      if (p.eliminated && !q.eliminated) toasts.push({ kind: "big", text: t("toast.eliminated", { who: ctx.seatName(i) }) });
      if (p.vp > q.vp) {
        const src = i === v.active ? Object.entries(v.last_score || {}).filter(([, n]) => n).map(([k, n]) => t(`src.${k}`, { n })).join(", ") : "";
        toasts.push({ kind: "big", text: t("toast.vp", { who: ctx.seatName(i), n: p.vp - q.vp, src: src || "" }) });
      }
    });
    // phases passed over because they offered no choice (said to the player whose turn it is): between the
    // phase left and the one entered, before the first phase of a turn that begins, after the last of one that ends
    const me = cur.seat;
    if (me !== null && me !== undefined && (v.active === me || pv.active === me)) {
      const from = mainOf(pv.phase);
      const to = mainOf(v.phase);
      let skipped = [];
      if (v.active === me && pv.active === me) {
        const dones = entries.filter((e) => e.action.type === "done").length;
        if (dones <= 1 && from >= 0 && to > from + 1) skipped = MAIN.slice(from + 1, to);
      } else if (v.active === me && to > 0) skipped = MAIN.slice(0, to); // my turn began
      else if (pv.active === me && from >= 0 && from < MAIN.length - 1 && entries.some((e) => e.actor === me)) {
        skipped = MAIN.slice(from + 1); // my turn ended before its last phase: the rest offered nothing
      }
      for (const ph of skipped) toasts.push({ kind: "skip", text: t("toast.skipped", { phase: t(`phase.${ph}`) }) });
    }
    return { toasts, dice };
  }

  function onKey(key, msg) {
    const a = keyAction(key, legal(msg));
    if (a) {
      if (key === "d") reset();
      if (key === "a") ctx.setAuto(autoRoll(1));
      ctx.send(a);
      return true;
    }
    if (key === "a" && pending && pending[0].type === "attack") { const a0 = pending[0]; ctx.setAuto(autoRoll(stopAt || 1)); reset(); ctx.send(a0); return true; }
    if (key === "enter" && pending && pending.length === 1) { const only = pending[0]; reset(); ctx.send(only); return true; }
    return false;
  }

  return {
    title: "S.P.Q.RisiKo!",
    render,
    controls,
    players,
    describe,
    label,
    onKey,
    keys: () => t("spqr.keys"),
    cancel: reset,
    // the focus goes to the map when a place can be chosen there (table.js, after a redraw of the controls)
    focusMap: () => {
      if (!ctx.msg || !clickable(ctx.msg).size) return false;
      nav.focus();
      return true;
    },
    colour: (i) => COLOURS[i % COLOURS.length],
    phaseText: (p) => t(`phase.${p}`),
    // the place a phone's map starts on: the player's strongest province (a spectator's: the middle)
    home: (msg) => {
      const mine = (msg.view.provinces || []).filter((p) => msg.seat !== null && p.owner === msg.seat);
      return mine.length ? `#a-${mine.reduce((a, b) => (b.armies > a.armies ? b : a)).id}` : null;
    },
    currentSeat: (v) => (v.current_player === null || v.current_player === undefined ? null : v.current_player),
    nowText: (msg) => (has(`now.spqr.${msg.view.phase}`) ? t(`now.spqr.${msg.view.phase}`, { n: msg.view.pool }) : ""),
    endReason: (v, out) => t(`end.${out.termination}`, { who: out.winners.map((w) => ctx.seatName(w)).join(", ") }),
    scoreSources: (v) => {
      const keys = ["empire", "provinces", "seas", "power_centres"];
      return {
        columns: keys.map((k) => t(`spqr.src.${k}`)),
        rows: v.players.map((p) => ({ seat: p.seat, values: keys.map((k) => (p.vp_sources || {})[k] || 0), total: p.vp })),
      };
    },
    happenings,
    changeText,
    rollDice: (entries, k, view, actor) => rollDice(entries, k, view, actor, null),
  };
}
