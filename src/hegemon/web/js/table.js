// The table page, the same for every game: the websocket of this seat (or a spectator), the header, the log,
// refusals, the turn timer, the end of the game and the replay viewer. The board and the move controls come
// from a game module in ./boards/<game>.js (createBoard(root, ctx) → {render, controls, players, describe…}).
import { api, boardName, botLabel, clear, COLOUR_NAMES, COLOURS, h, icon, inkOf, langButton } from "./common.js";
import { initLang, t, touch } from "./i18n.js";
import { linkRow, renderWaiting, takeSeatFirst } from "./invite.js";
import { errorText } from "./errors.js";
import { reasonText } from "./reasons.js";
import { tableRules } from "./rules.js";
import { confirmMove, showDice, toast } from "./happen.js";
import { initTooltips } from "./tooltips.js";
import { maybeTutorial, relabelTutorial } from "./tutorial.js";
import { fitList, renderSince } from "./since.js";
import { initSocial } from "./social.js";

initLang(); // the table page's entry point (table.html): the page's language first
const m = location.pathname.match(/^\/(t|r)\/([A-Za-z0-9_-]+)/);
const MODE = m ? m[1] : "t";
const ID = m ? m[2] : "";
const hash = new URLSearchParams(location.hash.slice(1));
if (hash.get("seat")) {
  localStorage.setItem(`hegemon.seat.${ID}`, hash.get("seat"));
  history.replaceState(null, "", location.pathname);
}
let TOKEN = localStorage.getItem(`hegemon.seat.${ID}`); // a new one once a private seat's link takes the seat

const el = (id) => document.getElementById(id);
let board = null;
let msg = null; // the last state message
let log = []; // every log entry received
let ws = null;
let sentVersion = -1;
let auto = null;
let retry = 0;
let deadline = null;
let replay = null; // {step, target, steps, seat}
let inbox = Promise.resolve();
let rules = null; // the rules button, drawer and linked rule tags (rules.js)

const ctx = {
  id: ID,
  token: TOKEN,
  t,
  get msg() { return msg; },
  send,
  setAuto(fn) { auto = fn; },
  seatName,
  seatColour,
  ownerName,
  odds: (params) => api(`/api/tables/${ID}/odds?${new URLSearchParams(params)}`),
  rerender: () => render(),
};

// the chat, the undo and the "your turn" notification (social.js): seated players only
const social = initSocial({
  id: ID,
  get msg() { return msg; },
  sendRaw: (obj) => { if (!ws || ws.readyState !== 1 || MODE !== "t") return false; ws.send(JSON.stringify(obj)); return true; },
  myTurn: () => myTurn(),
  seatName: (i) => seatName(i),
  seatColour: (i) => seatColour(i),
  title: () => (board ? board.title : ""),
  rerender: () => render(),
});

function setToken(token) {
  TOKEN = token;
  ctx.token = token;
  localStorage.setItem(`hegemon.seat.${ID}`, token);
}

function seatName(i) {
  if (i === null || i === undefined || i < 0) return t("table.dice");
  const s = msg && msg.seats && msg.seats[i];
  if (!s) return `P${i + 1}`;
  const label = board?.seatLabel ? board.seatLabel(i) : null;
  if (s.kind === "bot") return `${label ?? `P${i + 1}`} (${botLabel(s.bot)})`;
  if (s.name === `Player ${i + 1}`) return label ?? t("table.playern", { n: i + 1 }); // the server's default name
  return label ? `${label} (${s.name})` : s.name;
}

/** An owner on the map as a screen reader says it: the seat's side or colour, then who plays it ("Red (you)",
 * "Blue (Ada)", "Sparta (easy)"): the colour first, since that is what the map shows. */
function ownerName(i) {
  const s = msg && msg.seats && msg.seats[i];
  const colour = t(`colour.${COLOUR_NAMES[i % COLOUR_NAMES.length]}`);
  const side = board?.seatLabel ? board.seatLabel(i) : colour.charAt(0).toUpperCase() + colour.slice(1);
  let who = "";
  if (msg && msg.seat === i && MODE === "t") who = t("map.you");
  else if (s && s.kind === "bot") who = botLabel(s.bot);
  else if (s && s.name !== `Player ${i + 1}`) who = s.name; // the server's default name says nothing
  return who ? `${side} (${who})` : side;
}

function seatColour(i) {
  return board?.colour ? board.colour(i) : COLOURS[i % COLOURS.length];
}

function myTurn() {
  return msg && msg.seat !== null && msg.view.legal_actions && msg.view.legal_actions.length > 0 && msg.status === "playing";
}

function send(action) {
  if (!ws || ws.readyState !== 1 || !msg) return false;
  if (ctx.guard && !ctx.guard(action)) return false; // a lesson lets through only the move it teaches (tutorial.js)
  if (sentVersion === msg.version) return false;
  // a move that loses the game, spends the last prestige or gives up a polis asks first (the game says which)
  const danger = board && board.danger ? board.danger(action, msg) : null;
  if (danger) {
    const v = msg.version;
    auto = null;
    confirmMove(danger, board.label(action)).then((ok) => { if (ok && msg && msg.version === v) sendNow(action); });
    return true;
  }
  return sendNow(action);
}

function sendNow(action) {
  if (!ws || ws.readyState !== 1 || !msg) return false;
  if (sentVersion === msg.version) return false;
  sentVersion = msg.version;
  ws.send(JSON.stringify({ version: msg.version, undos: msg.undos ?? 0, action }));
  return true;
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const q = TOKEN ? `?token=${encodeURIComponent(TOKEN)}` : "";
  ws = new WebSocket(`${proto}://${location.host}/ws/tables/${ID}${q}`);
  el("conn").textContent = retry ? t("table.reconnecting") : t("table.connecting");
  el("conn").className = "warn";
  ws.onopen = () => { retry = 0; el("conn").textContent = ""; el("conn").className = ""; };
  // one message at a time, in order (the first one waits for the board module to load)
  ws.onmessage = (ev) => { const data = JSON.parse(ev.data); inbox = inbox.then(() => onMessage(data)).catch(console.error); };
  ws.onclose = (ev) => {
    if (ev.code === 4004 || ev.code === 4003) return;
    retry += 1;
    el("conn").textContent = t("table.reconnecting");
    el("conn").className = "warn";
    setTimeout(connect, Math.min(5000, 300 * retry));
  };
}

async function onMessage(data) {
  if (data.type === "error" && data.code === "unauthorized" && !msg && TOKEN) {
    // a token this table does not know (an old link): watch as a spectator instead
    localStorage.removeItem(`hegemon.seat.${ID}`);
    location.reload();
    return;
  }
  if (data.type === "seat") { // this link took its seat: the seat's new token, for this page alone
    setToken(data.token);
    return;
  }
  if (data.type === "error" && data.detail === "seat_taken") {
    // someone else took this seat with its link: this page holds nothing of it any more; watch instead
    localStorage.removeItem(`hegemon.seat.${ID}`);
    showError(data);
    setTimeout(() => location.reload(), 4000);
    return;
  }
  if (MODE === "t" && social.onMessage(data)) return;
  if (data.type === "error") return showError(data);
  if (data.type === "status") { // the server's health: the database is not taking moves, or is back
    const down = data.code === "storage_down";
    el("conn").textContent = down ? t("table.storagedown") : "";
    el("conn").className = down ? "warn" : "";
    return;
  }
  if (data.type !== "state") return;
  if (!board) await loadBoard(data.game);
  // an older position (unless an undo took the table back: then the whole log comes again)
  const undone = msg && (data.undos ?? 0) !== (msg.undos ?? 0);
  if (msg && !undone && data.version < msg.version && !(data.log.length && data.log[0].i === 0)) return;
  if ((data.log.length && data.log[0].i === 0) || undone) log = [];
  for (const e of data.log) if (e.i === log.length) log.push(e);
  const newLog = data.log;
  const prev = msg;
  msg = data;
  sentVersion = -1;
  deadline = data.seconds_left === null ? null : Date.now() + data.seconds_left * 1000;
  render(newLog);
  if (!prev && board.home) centreOn(board.home(msg));
  if (MODE === "t") social.onState(prev, msg);
  if (prev && board.happenings && !undone) {
    const { toasts, dice } = board.happenings(prev, msg, newLog);
    for (const x of toasts) toast(x.text, x.kind);
    if (dice !== undefined) showDice(dice);
  }
  if (auto && myTurn()) {
    const a = auto(msg);
    if (a) send(a);
    else { auto = null; render(); }
  } else if (!myTurn()) {
    auto = null;
  }
}

function showError(e) {
  if (e.code === "stale_version") return; // the new state is on its way
  auto = null;
  const box = el("error");
  clear(box);
  box.hidden = false;
  // a refused move: the engine's reason in the player's language, with its rule tag (a link to the rules)
  const text = e.reason ? `${t("table.notallowed", { reason: reasonText(msg ? msg.game : "", e) })}${e.rule ? ` [${e.rule}]` : ""}`
    : errorText(e, seatName);
  box.append(h("p", { id: "errortext" }, rules ? rules.link(text) : text));
  if (e.legal_actions && e.legal_actions.length && board) {
    const list = e.legal_actions.slice(0, 12).map((a) => board.label(a)).join(" · ");
    box.append(h("p", { class: "hint" }, t("table.legal", { list })));
  }
  setTimeout(() => { box.hidden = true; }, 8000);
}

async function loadBoard(game) {
  const mod = await import(`./boards/${game}.js`);
  board = await mod.createBoard(el("board"), ctx);
  if (!rules) rules = tableRules(game, ID);
  initTooltips(game, ID).catch(console.error);
  if (MODE === "t") maybeTutorial(game, ID, ctx);
  // phones: the map pans at a readable scale (centred at first); a button shows it whole
  const b = el("board");
  b.scrollLeft = (b.scrollWidth - b.clientWidth) / 2;
  const zoom = h("button", { type: "button", class: "mapzoom", id: "mapzoom", onclick: () => {
    document.body.classList.toggle("fitmap");
    const fit = document.body.classList.contains("fitmap");
    zoom.textContent = t(fit ? "table.zoommap" : "table.fitmap");
    // the names are small on the whole map: a tap names the place (tapNames); say so for a few seconds
    let tip = el("fithint");
    if (!tip) { tip = h("div", { id: "fithint", role: "status" }); el("boardwrap").append(tip); }
    tip.textContent = t("table.tapnames");
    tip.hidden = !fit;
    clearTimeout(zoom.hintTimer);
    if (fit) zoom.hintTimer = setTimeout(() => { tip.hidden = true; }, 4000);
    else if (board.home) centreOn(board.home(msg));
  } }, t("table.fitmap"));
  el("boardwrap").append(zoom);
  phoneSheet();
  tapNames();
}

/** Phones: the map pans at a readable scale; start it (and come back to it) on the player's home. */
function centreOn(target) {
  const b = el("board");
  const node = target ? document.querySelector(target) : null;
  if (!b || !node || document.body.classList.contains("fitmap")) return;
  const r = node.getBoundingClientRect();
  const w = b.getBoundingClientRect();
  b.scrollLeft += r.left + r.width / 2 - (w.left + w.width / 2);
  b.scrollTop += r.top + r.height / 2 - (w.top + w.height / 2);
}

/** Phones: the controls are a bottom sheet under the map (both in view); its handle makes it taller or
 * shorter. */
function phoneSheet() {
  const side = el("side");
  if (!side || el("sheethandle")) return;
  const label = () => t(document.body.classList.contains("sheet-full") ? "sheet.less" : "sheet.more");
  const handle = h("button", { type: "button", id: "sheethandle", class: "sheethandle", "aria-controls": "side",
    onclick: () => {
      document.body.classList.toggle("sheet-full");
      handle.setAttribute("aria-label", label());
      handle.title = label();
      handle.setAttribute("aria-expanded", String(document.body.classList.contains("sheet-full")));
    } }, h("span", { class: "grip" }));
  handle.setAttribute("aria-label", label());
  handle.title = label();
  side.prepend(handle);
}

/** A tap on the map names the place tapped (the whole map on a phone is too small to read every name). */
function tapNames() {
  const map = el("map");
  if (!map) return;
  let timer = null;
  map.addEventListener("pointerdown", (e) => {
    if (e.pointerType === "mouse" && !document.body.classList.contains("fitmap")) return;
    const area = e.target.closest && e.target.closest(".area, .polis, .army");
    const title = area && area.querySelector("title");
    if (!title) return;
    let tip = el("tapname");
    if (!tip) { tip = h("div", { id: "tapname", role: "status" }); el("boardwrap").append(tip); }
    tip.textContent = title.textContent;
    const wrap = el("boardwrap").getBoundingClientRect();
    tip.style.left = `${Math.max(4, Math.min(wrap.width - 140, e.clientX - wrap.left - 40))}px`;
    tip.style.top = `${Math.max(4, e.clientY - wrap.top - 44)}px`;
    tip.hidden = false;
    clearTimeout(timer);
    timer = setTimeout(() => { tip.hidden = true; }, 2500);
  });
}

/** The board the table plays on, beside the game's title, when the game has several (or it is a corrected file). */
function showBoardName() {
  const name = boardName(msg.game, msg.board);
  el("boardname").textContent = name ? t("table.board", { name }) : "";
  el("boardname").hidden = !name;
  if (msg.board) document.body.dataset.board = msg.board;
}

/** The round, as the game says it ("Round 3", "Round 1 of 4 · …"): in the header of a table and of a replay. The
 * set-up before the first round ("Round 0") says only its phase. */
function roundParts(v) {
  if (v.round === undefined || v.round === null) return [];
  if (board.roundText) return [board.roundText(v)];
  return v.round === 0 ? [] : [t("table.round", { n: v.round })];
}

function renderHeader() {
  const v = msg.view;
  el("title").textContent = board.title;
  showBoardName();
  const parts = roundParts(v);
  if (msg.status !== "finished") parts.push(t("table.phase", { p: board.phaseText(v.phase) })); // "game over · finished" says it twice
  parts.push(t(`status.${msg.status}`));
  el("status").textContent = parts.join(" · ");
  const banner = el("banner");
  banner.className = "";
  if (msg.status === "finished") banner.textContent = t("table.over");
  else if (msg.status === "waiting") banner.textContent = t("table.waitingjoin");
  else if (myTurn()) { banner.textContent = t("table.yourturn"); banner.className = "mine"; }
  else {
    const cur = board.currentSeat(v);
    banner.textContent = cur === null ? "" : t("table.turn", { who: seatName(cur) });
  }
  if (msg.timed_out !== null && msg.timed_out !== undefined) banner.textContent += ` — ${t("table.timeout")}`;
  turnSignal();
  document.body.dataset.version = msg.version;
  document.body.dataset.status = msg.status;
  document.body.dataset.myturn = myTurn() ? "1" : "0";
  document.body.dataset.phase = v.phase;
  document.body.dataset.round = v.round;
  document.body.dataset.seat = msg.seat === null ? "" : msg.seat;
}

// ------------------------------------------------------------------ your turn, in another tab
// The tab's title and icon say when it is your turn, so that a player on another tab (or another window) sees it:
// "(Your turn) Polis — hegemon" and an icon with a bright mark; back to the plain ones when it is not.

const ICON_PLAIN = "#5a5f6b";
const ICON_TURN = "#e8590c";

function favicon(turn) {
  const mark = turn ? `<circle cx='24' cy='8' r='7.5' fill='${ICON_TURN}' stroke='white' stroke-width='1.5'/>` : "";
  const svg = `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect x='1' y='3' width='28' height='28' rx='6' fill='${turn ? "#1f4fa3" : ICON_PLAIN}'/>`
    + "<path d='M8 10h4v6h6v-6h4v16h-4v-6h-6v6H8z' fill='white'/>" + `${mark}</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

let signalled = null;
function turnSignal() {
  const turn = MODE === "t" && myTurn();
  const plain = `${board.title} — hegemon`;
  document.title = turn ? `(${t("title.yourturn")}) ${plain}` : plain;
  if (signalled === turn) return;
  signalled = turn;
  let link = document.querySelector("link[rel~='icon']");
  if (!link) { link = h("link", { rel: "icon" }); document.head.append(link); }
  link.setAttribute("type", "image/svg+xml");
  link.setAttribute("href", favicon(turn));
  link.dataset.turn = turn ? "1" : "0";
}

/** A seated player's own private link (built from the token this browser holds now), to open the seat on another
 * device; the same element across redraws, so that it stays open and its copy button keeps its state. */
let myLink = null;
function myLinkBox() {
  const token = localStorage.getItem(`hegemon.seat.${ID}`);
  if (!token || msg.seat === null || localStorage.getItem(`hegemon.tutorial.${ID}`)) return null;
  const url = `${location.origin}/t/${ID}#seat=${token}`;
  if (!myLink || myLink.dataset.url !== url) {
    myLink = h("details", { class: "mylink", id: "mylink", "data-url": url }, h("summary", {}, t("table.mylink")),
      h("p", { class: "hint" }, t("table.mylinkhelp")), h("ul", { class: "links" }, linkRow(url, "mine", seatName(msg.seat))));
  }
  myLink.querySelector("summary").textContent = t("table.mylink");
  myLink.querySelector(".hint").textContent = t("table.mylinkhelp");
  return myLink;
}

function logLine(e) {
  const who = e.actor >= 0 ? seatName(e.actor) : icon("die", t("table.dice"));
  const note = e.note ? ` ${t(`note.${e.note}`)}` : "";
  // what it changed (public facts the server computed: conquests, losses, VP, sieges…), in words
  const changes = board.changeText ? (e.changes || []).map((c) => board.changeText(c)).filter(Boolean).join(" · ") : "";
  const text = board.describe(e.action, e.actor) + note + (changes ? ` \u2014 ${changes}` : "");
  const a = e.action || {};
  const tip = a.event ? `event:${a.event}` : a.project ? `project:${a.project}` : null; // tooltips.js
  const li = h("li", { "data-i": e.i, "data-key": `${e.actor}|${text}`, "data-tip": tip, class: e.actor < 0 ? "chance" : "" },
    h("span", { class: "who", style: e.actor >= 0 ? `color:${inkOf(seatColour(e.actor))}` : "" }, who),
    " ", text, h("span", { class: "times" }));
  return li;
}

/** Append a log line, or count it on the last one when it repeats it ("reinforces Lusitania ×17"). */
function appendLog(ol, e) {
  const li = logLine(e);
  const last = ol.lastElementChild;
  if (last && last.dataset.key === li.dataset.key && e.actor >= 0) {
    const n = Number(last.dataset.n || 1) + 1;
    last.dataset.n = String(n);
    last.dataset.i = String(e.i);
    last.querySelector(".times").textContent = ` ${t("log.times", { n })}`;
    return;
  }
  ol.append(li);
}

function renderLog(entries, upto) {
  const ol = el("log");
  el("logtitle").textContent = t("table.log");
  const shown = upto === undefined ? log : log.slice(0, upto);
  const lastI = ol.lastElementChild ? Number(ol.lastElementChild.dataset.i) : -1;
  if (entries === undefined || lastI >= shown.length || (entries.length && entries[0].i === 0)) {
    clear(ol);
    for (const e of shown.slice(-600)) appendLog(ol, e);
  } else {
    for (const e of entries) if (e.i >= (ol.lastElementChild ? Number(ol.lastElementChild.dataset.i) + 1 : 0)) appendLog(ol, e);
  }
  while (ol.childElementCount > 300) ol.firstElementChild.remove();
  ol.scrollTop = ol.scrollHeight;
}

function renderSeats(root) {
  root.append(h("p", { class: "seats" }, msg.seats.map((s) => h("span", { class: `seat ${s.connected ? "on" : ""}` },
    h("i", { class: "dot", style: `background:${seatColour(s.seat)}` }), s.kind === "bot" ? [icon("bot", t("table.bot")), " "] : null, seatName(s.seat),
    s.kind === "human" ? ` · ${s.connected ? t("table.online") : t("table.offline")}` : ""))));
}

function renderNow() {
  const box = el("now");
  if (!box) return;
  let text = "";
  if (MODE === "r") text = "";
  else if (msg.status === "finished") text = t("now.over");
  else if (msg.status === "waiting") text = t("table.waitingjoin");
  else if (myTurn()) text = board.nowText ? board.nowText(msg) : "";
  else if (msg.seat === null) text = t("now.watch");
  else {
    const cur = board.currentSeat(msg.view);
    text = cur === null ? "" : t("now.wait", { who: seatName(cur) });
  }
  box.textContent = text;
  box.hidden = !text;
  box.className = myTurn() ? "mine" : "";
}

// ------------------------------------------------------------------ the focus across a redraw
// The controls are drawn again after every move: a keyboard user's focus goes back to the same control when it
// is drawn again, else to the map (when a place can be chosen there), else to the first control, else to the
// controls' card: never to the page itself, which would send the next Tab back to the top.

const FOCUS_ATTRS = ["data-per", "data-count", "data-dice", "data-type", "data-project", "data-market"];

/** A selector that finds the same control after a redraw (null when it has none). */
function focusKey(node) {
  if (node.id) return `#${CSS.escape(node.id)}`;
  const attrs = FOCUS_ATTRS.filter((a) => node.hasAttribute(a));
  return attrs.length ? `${node.tagName.toLowerCase()}${attrs.map((a) => `[${a}="${CSS.escape(node.getAttribute(a))}"]`).join("")}` : null;
}

function restoreFocus(root, had) {
  let target = null;
  if (had.key) target = root.querySelector(had.key);
  if (!target && had.text) target = [...root.querySelectorAll("button")].find((b) => b.textContent === had.text) || null;
  // (a control in a closed "All legal actions" takes no focus: then the next in this list)
  const took = (node) => { if (!node || node.disabled) return false; node.focus({ preventScroll: true }); return document.activeElement === node; };
  if (took(target)) return;
  if (myTurn() && board.focusMap && board.focusMap()) return;
  // a count to choose (its slider), else the step's main button, else the first control
  const first = root.querySelector("[data-countfocus]") || root.querySelector("button.primary:not([disabled])")
    || root.querySelector("button:not([disabled]), input, select, summary");
  if (myTurn() && took(first)) return;
  root.setAttribute("tabindex", "-1");
  root.focus({ preventScroll: true });
}

function renderActions() {
  const box = el("actions");
  const active = document.activeElement;
  // a control of the card had the focus (or the card itself, where it waited for the player's turn)
  const had = active && box.contains(active) ? { key: active === box ? null : focusKey(active), text: active === box ? "" : active.textContent } : null;
  renderActionsIn(clear(box));
  if (had && (active !== box || myTurn())) restoreFocus(box, had);
}

function renderActionsIn(root) {
  renderNow();
  if (MODE === "r") return;
  if (msg.status === "finished") return renderOver(root);
  if (msg.status === "waiting") renderWaiting(root, msg, ID, seatName);
  if (msg.seat === null) root.append(h("p", {}, t("table.spectator")));
  else {
    // who you are, with your colour on the map (a game whose seats have no names of their own says the colour)
    const named = board.seatLabel ? "" : ` (${t(`colour.${COLOUR_NAMES[msg.seat % COLOUR_NAMES.length]}`)})`;
    root.append(h("p", { class: "you" }, h("i", { class: "dot", style: `background:${seatColour(msg.seat)}` }),
      t("table.seat", { who: seatName(msg.seat) }), named));
  }
  if (myTurn()) {
    root.append(h("h2", {}, t("table.actions")));
    board.controls(root, msg);
    const legal = msg.view.legal_actions;
    root.append(h("details", { class: "all" }, h("summary", {}, t("table.all")),
      h("div", { class: "btns" }, legal.slice(0, 200).map((a) => h("button", { type: "button", class: "legal", onclick: () => send(a) }, board.label(a))))));
  } else if (msg.status === "playing") {
    const cur = board.currentSeat(msg.view);
    if (cur !== null) root.append(h("p", { class: "wait" }, t("table.wait", { who: seatName(cur) })));
  }
  const mine = myLinkBox();
  if (mine) root.append(mine);
}

function renderOver(root) {
  const out = msg.outcome || msg.view.outcome;
  root.append(h("h2", { id: "gameover" }, t("table.over")));
  if (out) {
    root.append(h("p", { class: "winner" }, t("table.winner", { who: out.winners.map(seatName).join(", ") })));
    const why = board.endReason ? board.endReason(msg.view, out) : "";
    if (why) root.append(h("h3", {}, t("end.why")), h("p", { class: "endreason", id: "endreason", "data-termination": out.termination }, why));
    root.append(h("h3", {}, t("table.ranking")));
    root.append(h("ol", { class: "ranking" }, out.ranking.map((grp) => h("li", {},
      grp.map((p) => `${seatName(p)} — ${t("table.score", { n: out.scores[p] })}`).join(" = ")))));
    const by = board.scoreSources ? board.scoreSources(msg.view, out) : null;
    if (by) {
      root.append(h("h3", {}, t("end.score")), h("table", { class: "scores bysource", id: "bysource" },
        h("thead", {}, h("tr", {}, h("th"), by.columns.map((c) => h("th", {}, c)), h("th", {}, t("end.total")))),
        h("tbody", {}, by.rows.map((r) => h("tr", { "data-seat": r.seat }, h("td", {}, seatName(r.seat)),
          r.values.map((x) => h("td", {}, String(x))), h("td", { class: "total" }, String(r.total)))))));
    }
  }
  root.append(h("a", { class: "button primary", id: "openreplay", href: `/r/${ID}` }, t("table.openreplay")));
}

const sinceOpen = new Set(); // the turns of the "since your turn" panel whose moves are unfolded
// a new window size (a phone turned): the turns' box is cut again where no heading is left alone at its foot
window.addEventListener("resize", () => { const ol = el("sincelist"); if (ol && !ol.hidden) fitList(ol); });

/** What the others did since this seat's last move, turn by turn and in words (since.js). */
function renderSincePanel() {
  const box = el("since");
  if (!box) return;
  if (MODE === "r" || !board.changeText || msg.status === "waiting") { box.hidden = true; return; }
  // above the controls (read what happened, then play); on a phone below them (the sheet shows the controls first)
  const anchor = window.matchMedia("(max-width: 820px)").matches ? el("players") : el("actions");
  if (anchor && box.nextElementSibling !== anchor) anchor.before(box);
  renderSince(box, { log, seat: msg.seat, board, seatName, seatColour, view: msg.view, open: sinceOpen });
}

function render(newLog) {
  if (!msg || !board) return;
  renderHeader();
  board.render(msg);
  renderActions();
  renderSincePanel();
  const pl = clear(el("players"));
  pl.append(h("h2", {}, t("table.players")));
  renderSeats(pl);
  board.players(pl, msg);
  renderLog(newLog); // in a replay `log` is already the window of lines before the step
  if (MODE === "t") social.render(msg, log);
  // key hints are for a keyboard: a touch screen has none to press
  el("keys").textContent = touch() ? "" : board.keys ? board.keys() : t("table.keys");
  if (el("mapzoom")) el("mapzoom").textContent = t(document.body.classList.contains("fitmap") ? "table.zoommap" : "table.fitmap");
}

function tick() {
  const tm = el("timer");
  if (deadline === null || !msg || msg.status !== "playing") { tm.textContent = ""; return; }
  const s = Math.max(0, Math.round((deadline - Date.now()) / 1000));
  clear(tm).append(icon("clock"), " ", t("table.timer", { s }));
  tm.className = s <= 10 ? "warn" : "";
}

document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.ctrlKey || e.metaKey) return;
  if (document.querySelector("dialog[open]")) return; // a confirmation is asked: only its buttons answer
  if (MODE === "r") {
    if (e.key === "ArrowLeft") stepReplay(replay.target - 1);
    else if (e.key === "ArrowRight") stepReplay(replay.target + 1);
    else if (e.key === "Home") stepReplay(0);
    else if (e.key === "End") stepReplay(replay.steps);
    return;
  }
  if (!board || !msg) return;
  if (e.key === "Escape") { auto = null; board.cancel(); render(); return; }
  if (!myTurn()) return;
  if (board.onKey(e.key.toLowerCase(), msg)) e.preventDefault();
});

// ------------------------------------------------------------------ replay

let replayBusy = false;

async function stepReplay(step) {
  if (!replay) return;
  step = Math.max(0, Math.min(replay.steps, step));
  replay.target = step; // quick clicks add up even before the answers come back
  if (replayBusy) return; // one request at a time: the one in flight asks for the latest step when it is back
  replayBusy = true;
  try {
    for (;;) {
      const want = `${replay.target}|${replay.seat ?? ""}`;
      const q = new URLSearchParams({ step: replay.target });
      if (TOKEN) q.set("token", TOKEN);
      if (replay.seat !== null && replay.seat !== undefined && replay.seat !== "") q.set("seat", replay.seat);
      let r;
      try {
        r = await api(`/api/tables/${ID}/replay?${q}`);
      } catch (e) {
        if (e.detail !== "rate_limit") throw e;
        await new Promise((ok) => setTimeout(ok, 1000)); // too many requests: wait, then ask again
        continue;
      }
      if (want !== `${replay.target}|${replay.seat ?? ""}`) continue; // a later step was asked for meanwhile
      showReplay(r);
      return;
    }
  } finally {
    replayBusy = false;
  }
}

function showReplay(r) {
  replay.step = r.step;
  replay.steps = r.steps;
  log = r.log; // the log lines just before the step (from r.log_start)
  const pov = r.view.you ?? r.view.player ?? null;
  msg = { ...msg, view: r.view, version: r.step, log: [], seat: pov };
  el("replaystep").textContent = t("replay.step", { i: r.step, n: r.steps });
  el("replayrange").max = r.steps;
  el("replayrange").value = r.step;
  board.render(msg);
  const pl = clear(el("players"));
  pl.append(h("h2", {}, t("table.players")));
  board.players(pl, msg);
  el("status").textContent = [...roundParts(r.view), t("table.phase", { p: board.phaseText(r.view.phase) })].join(" · ");
  document.body.dataset.round = r.view.round ?? "";
  showBoardName();
  clear(el("log"));
  renderLog(undefined);
  document.body.dataset.step = r.step;
}

async function startReplay() {
  const detail = await api(`/api/tables/${ID}`);
  await loadBoard(detail.game);
  msg = { seats: detail.seats, seat: null, status: detail.status, view: detail.view, version: detail.version, log: [],
    game: detail.game, board: detail.board };
  el("title").textContent = `${board.title} — ${t("replay.title")}`;
  const bar = el("replaybar");
  bar.hidden = false;
  bar.append(
    h("button", { type: "button", id: "rfirst", onclick: () => stepReplay(0) }, icon("first"), " ", t("replay.first")),
    h("button", { type: "button", id: "rprev", onclick: () => stepReplay(replay.target - 1) }, icon("prev"), " ", t("replay.prev")),
    h("input", { type: "range", id: "replayrange", min: 0, max: detail.version, value: 0, oninput: (e) => stepReplay(Number(e.target.value)) }),
    h("button", { type: "button", id: "rnext", onclick: () => stepReplay(replay.target + 1) }, t("replay.next"), " ", icon("next")),
    h("button", { type: "button", id: "rlast", onclick: () => stepReplay(replay.steps) }, t("replay.last"), " ", icon("last")),
    h("span", { id: "replaystep" }),
    detail.status === "finished" ? h("label", {}, `${t("replay.pov")} `, h("select", { id: "pov", onchange: (e) => { replay.seat = e.target.value; stepReplay(replay.target); } },
      h("option", { value: "" }, t("replay.spectator")),
      detail.seats.map((st) => h("option", { value: st.seat }, seatName(st.seat))))) : null,
    h("a", { href: `/t/${ID}`, class: "button" }, t("replay.back")));
  replay = { step: 0, target: 0, steps: detail.version, seat: null };
  clear(el("actions")).append(h("h2", {}, t("replay.title")), touch() ? "" : h("p", { class: "hint" }, t("replay.keys")));
  await stepReplay(0);
}

el("langslot").append(langButton(() => {
  if (rules) rules.relabel();
  relabelTutorial();
  if (MODE === "r") stepReplay(replay.target);
  else render();
}));
if (MODE === "r") startReplay();
else takeSeatFirst(ID, TOKEN).then((token) => { if (token) setToken(token); connect(); setInterval(tick, 500); });
