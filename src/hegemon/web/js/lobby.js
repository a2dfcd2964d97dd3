// The lobby: create a table (game, rule options with their one-line explanations, seats), get the private
// seat links, list the open and running tables, join or watch one.
import { api, boardName, botLabel, clear, COLOUR_NAMES, DEFAULT_BOT, h, langButton } from "./common.js";
import { has, initLang, lang, t } from "./i18n.js";
import { absolute, linkRow, rememberLinks } from "./invite.js";

let GAMES = null;
let BOTS = [];
// per game: the options the user changed (only those are sent), and what the form held when it was last drawn,
// so that a redraw (another number of players, another language, a switch to the other game and back) keeps
// every choice
const touchedBy = {};
const keptBy = {};
const touchedOf = (name) => (touchedBy[name] ||= {});

function optLabel(o) {
  const key = `opt.${o.name}`;
  const label = t(key);
  return label === key ? o.name.replace(/_/g, " ") : label;
}

const MAIN_OPTIONS = ["rules", "siege", "vp_target", "max_rounds"];
const BOT_ORDER = ["random", "beginner", "mcts:easy", "mcts:normal", "mcts:hard"];
// a newcomer's Polis table: the board where Athens and Sparta have an even chance (on the reconstructed one
// Athens wins about one game in four)
const FAIR_BOARD = "balanced";

function applyPreset(game, value) {
  // a rule set sets the defaults of its switches (those the user has not changed)
  const preset = (game.presets || {})[value] || {};
  const touched = touchedOf(game.name);
  for (const [name, v] of Object.entries(preset)) {
    if (touched[name]) continue;
    const el = document.getElementById(`opt-${name}`);
    if (!el) continue;
    if (el.type === "checkbox") el.checked = !!v;
    else el.value = v === null ? "" : String(v);
  }
}

function optInput(o, game) {
  const gameName = game.name;
  const id = `opt-${o.name}`;
  const mark = (e) => {
    touchedOf(gameName)[o.name] = true;
    if (o.name === game.preset_field) applyPreset(game, e.target.value);
  };
  let input;
  if (o.choices) {
    input = h("select", { id, name: o.name, onchange: mark },
      o.choices.map((c) => h("option", { value: c, selected: c === o.default }, has(`choice.${o.name}.${c}`) ? t(`choice.${o.name}.${c}`) : c)));
  } else if (o.type === "bool") {
    input = h("input", { id, name: o.name, type: "checkbox", checked: !!o.default, onchange: mark });
  } else if (o.type === "int") {
    input = h("input", {
      id, name: o.name, type: "number", min: o.min, max: o.max,
      value: o.default ?? "", placeholder: o.nullable ? t("lobby.none_value") : "", oninput: mark,
    });
  } else {
    input = h("input", { id, name: o.name, type: "text", value: o.default ?? "", oninput: mark });
  }
  const help = lang === "it" && o.help_it ? o.help_it : o.help;
  // a rule choice (rule set, siege rule): one plain sentence on what the chosen value changes
  const choiceHelp = (lang === "it" ? o.choice_help_it : o.choice_help) || {};
  const said = Object.keys(choiceHelp).length ? h("small", { class: "help choicehelp", id: `${id}-choice` }, choiceHelp[input.value] || "") : null;
  if (said) {
    const say = () => { said.textContent = choiceHelp[input.value] || ""; };
    input.addEventListener("change", say);
    input.addEventListener("restored", say);
  }
  return h("div", { class: "opt", "data-game": gameName },
    h("label", { for: id }, optLabel(o)), input, h("small", { class: "help" }, help), said);
}

function readOptions(game) {
  const out = {};
  const touched = touchedOf(game.name);
  for (const o of game.options) {
    if (o.name === "players" || !touched[o.name]) continue;
    const el = document.getElementById(`opt-${o.name}`);
    if (!el) continue;
    if (o.type === "bool") out[o.name] = el.checked;
    else if (o.type === "int") out[o.name] = el.value === "" ? null : Number(el.value);
    else out[o.name] = el.value;
  }
  return out;
}

function seatRows(game, n) {
  const rows = [];
  for (let i = 0; i < n; i++) {
    const sel = h("select", { id: `seat-${i}`, class: "seat" },
      h("option", { value: "you", selected: i === 0 }, t("lobby.you")),
      h("option", { value: "human" }, t("lobby.person")),
      h("option", { value: "open" }, t("lobby.anyone")),
      BOTS.map((b) => h("option", { value: `bot:${b}`, selected: i > 0 && b === defaultBot() }, t("lobby.bot", { name: botLabel(b) }))));
    const label = game.name === "polis" ? t(i === 0 ? "polis.athens" : "polis.sparta") : t("lobby.seat", { n: i + 1 });
    rows.push(h("div", { class: "seatrow" }, h("label", { for: `seat-${i}` }, label), sel));
  }
  return rows;
}

function defaultBot() {
  return BOTS.includes(DEFAULT_BOT) ? DEFAULT_BOT : BOTS[0];
}

/** The board file input: choosing a file picks the upload (where the game has a board choice) and shows its name. */
function newFileInput() {
  const file = h("input", { id: "boardfile", type: "file", accept: ".toml,text/plain" });
  file.addEventListener("change", () => {
    const upload = document.getElementById("board-upload");
    if (upload && file.files.length) upload.checked = true;
    const shown = document.getElementById("boardfilename");
    if (shown) shown.textContent = file.files.length ? file.files[0].name : t("lobby.nofile");
  });
  return file;
}

/** The file input with a button and the chosen file's name in the page's language (the browser's own button
 * speaks the browser's language). */
function filePicker(file) {
  return h("span", { class: "filepick" }, file,
    h("label", { for: "boardfile", class: "button", id: "boardfilebtn" }, t("lobby.choosefile")),
    h("span", { id: "boardfilename", class: "hint" }, file.files.length ? file.files[0].name : t("lobby.nofile")));
}

/** The board of a game with several (Polis): each board that ships with it, with one line on what it is, or a
 * corrected board file. `file` is the file input (kept across a redraw, with the file chosen in it). */
function boardChoice(game, prev, file) {
  const choices = [...game.boards, "upload"];
  const chosen = choices.includes(prev) ? prev : game.boards[0];
  const rows = choices.map((c) => {
    const id = `board-${c}`;
    const label = c === "upload" ? t("board.uploaded") : boardName(game.name, c) || c;
    const key = c === "upload" ? "boardhelp.uploaded" : `boardhelp.${game.name}.${c}`;
    return h("div", { class: "boardopt" },
      h("input", { type: "radio", name: "board", id, value: c, checked: c === chosen }),
      h("label", { for: id }, h("span", { class: "boardname" }, label),
        c === FAIR_BOARD ? h("span", { class: "badge rec" }, ` ${t("lobby.recommended")}`) : null,
        has(key) ? h("small", { class: "help" }, t(key)) : null),
      c === "upload" ? filePicker(file) : null);
  });
  return h("fieldset", { class: "boards", id: "boardchoice" }, h("legend", {}, t("lobby.boardchoice")), rows);
}

/** What the form of `gameName` holds now: every field, so that a redraw puts it back as it was. */
function snapshot(gameName) {
  const form = document.getElementById("createform");
  if (!form) return;
  const opts = {};
  for (const el of form.querySelectorAll("input[id^='opt-'], select[id^='opt-']")) {
    opts[el.id] = el.type === "checkbox" ? el.checked : el.value;
  }
  keptBy[gameName] = {
    players: Number(document.getElementById("players")?.value) || 0,
    seats: [...document.querySelectorAll("select.seat")].map((x) => x.value),
    board: document.querySelector("input[name=board]:checked")?.value,
    file: document.getElementById("boardfile"),
    opts,
    timer: document.getElementById("timer")?.value ?? "",
    undo: document.getElementById("undo")?.value ?? "agree",
    seed: document.getElementById("seed")?.value ?? "",
    more: !!document.getElementById("moreoptions")?.open,
  };
}

/** Put back what the form of this game held (values only: what counts as changed by the user stays as it was). */
function restore(kept) {
  for (const [id, v] of Object.entries(kept.opts)) {
    const el = document.getElementById(id);
    if (!el) continue;
    if (el.type === "checkbox") el.checked = v;
    else el.value = v;
    el.dispatchEvent(new Event("restored"));
  }
  document.getElementById("timer").value = kept.timer;
  if (kept.undo) document.getElementById("undo").value = kept.undo;
  document.getElementById("seed").value = kept.seed;
  if (kept.more) document.getElementById("moreoptions").open = true;
}

/** The bot levels in words, under the seats. */
function botHelp() {
  // weakest first: the order a newcomer climbs
  const order = (b) => { const i = BOT_ORDER.indexOf(b); return i < 0 ? BOT_ORDER.length : i; };
  const known = BOTS.filter((b) => has(`bothelp.${b}`)).sort((a, b) => order(a) - order(b));
  if (!known.length) return null;
  return h("details", { class: "bothelp", id: "bothelp" }, h("summary", {}, t("lobby.bothelp")),
    h("dl", {}, known.flatMap((b) => [h("dt", {}, botLabel(b)), h("dd", {}, t(`bothelp.${b}`))])));
}

/** Whether a player may take back their own last action (the server's CreateTable.undo); friends' default:
 * when the others agree. */
function undoChoice() {
  return h("div", { class: "opt undoopt" }, h("label", { for: "undo" }, t("lobby.undo")),
    h("select", { id: "undo", "aria-describedby": "undohelp" },
      ["agree", "always", "off"].map((v) => h("option", { value: v }, t(`lobby.undo.${v}`)))),
    h("p", { class: "hint", id: "undohelp" }, t("lobby.undohelp")));
}

/** The board a newcomer gets: the one whose two sides have an even chance, where the game ships one. */
function defaultBoard(game) {
  return game.boards.includes(FAIR_BOARD) ? FAIR_BOARD : game.boards[0];
}

function renderCreate() {
  const prevForm = document.getElementById("createform");
  if (prevForm) snapshot(prevForm.dataset.game);
  const gameSel = document.getElementById("game")?.value || "spqrisiko";
  const prevName = document.getElementById("name")?.value ?? (localStorage.getItem("hegemon.name") || "");
  const root = clear(document.getElementById("create"));
  const game = GAMES.find((g) => g.name === gameSel) || GAMES[0];
  const kept = keptBy[game.name] || null;
  const playersOpt = game.options.find((o) => o.name === "players");
  const nDefault = playersOpt ? playersOpt.default : game.min_players;
  const prevN = (kept && kept.players) || nDefault;
  const n = Math.min(game.max_players, Math.max(game.min_players, prevN));
  const file = kept && kept.file ? kept.file : newFileInput();
  const choose = (game.boards || []).length > 1; // several boards ship with the game: a choice of its own
  const form = h("form", { id: "createform", "data-game": game.name },
    h("h2", {}, t("lobby.create")),
    h("div", { class: "row" },
      h("label", { for: "game" }, t("lobby.game")),
      h("select", { id: "game", onchange: renderCreate },
        GAMES.map((g) => h("option", { value: g.name, selected: g.name === game.name }, g.title)))),
    h("div", { class: "row" },
      h("label", { for: "players" }, t("lobby.players")),
      h("input", { id: "players", type: "number", min: game.min_players, max: game.max_players, value: n,
        disabled: game.min_players === game.max_players, onchange: renderCreate })),
    h("div", { class: "row" }, h("label", { for: "name" }, t("lobby.name")),
      h("input", { id: "name", type: "text", maxlength: 40, value: prevName })),
    h("fieldset", { class: "seats" }, seatRows(game, n), botHelp()),
    h("div", { class: "options main" },
      game.options.filter((o) => MAIN_OPTIONS.includes(o.name)).map((o) => optInput(o, game))),
    undoChoice(),
    choose ? boardChoice(game, kept ? kept.board : defaultBoard(game), file) : null,
    h("details", { class: "options", id: "moreoptions" },
      h("summary", {}, t(choose ? "lobby.options_noboard" : "lobby.options")),
      game.options.filter((o) => o.name !== "players" && !MAIN_OPTIONS.includes(o.name)).map((o) => optInput(o, game)),
      h("div", { class: "opt" }, h("label", { for: "timer" }, t("lobby.timer")),
        h("input", { id: "timer", type: "number", min: 5, max: 86400, placeholder: t("lobby.none_value") })),
      h("div", { class: "opt" }, h("label", { for: "seed" }, t("lobby.seed")),
        h("input", { id: "seed", type: "number", min: 0 })),
      choose ? null : h("div", { class: "opt" }, h("label", { for: "boardfile" }, t("lobby.board")), filePicker(file))),
    h("p", { id: "createerror", class: "error", hidden: true }),
    h("button", { id: "createbtn", type: "submit", class: "primary" }, t("lobby.submit")));
  form.addEventListener("submit", (e) => { e.preventDefault(); create(game, n); });
  root.append(form);
  if (!kept) return;
  restore(kept);
  // the seats already chosen stay when only the number of players changes
  kept.seats.forEach((v, i) => { const el = document.getElementById(`seat-${i}`); if (el) el.value = v; });
}

async function create(game, n) {
  const seats = [];
  let claim = null;
  const name = document.getElementById("name").value.trim();
  if (name) localStorage.setItem("hegemon.name", name);
  for (let i = 0; i < n; i++) {
    const v = document.getElementById(`seat-${i}`).value;
    if (v === "you") {
      if (claim === null) { claim = i; seats.push({ human: true, name: name || null }); }
      else seats.push({ human: true });
    } else if (v === "human") seats.push({ human: true });
    else if (v === "open") seats.push({ human: true, open: true });
    else seats.push({ bot: v.slice(4) });
  }
  const body = { game: game.name, players: n, seats, options: readOptions(game) };
  if (claim !== null) body.claim = claim;
  const timer = document.getElementById("timer").value;
  if (timer) body.turn_timer = Number(timer);
  body.undo = document.getElementById("undo").value;
  const seed = document.getElementById("seed").value;
  if (seed) body.seed = Number(seed);
  const errEl = document.getElementById("createerror");
  const fail = (msg) => { errEl.textContent = t("lobby.error", { msg }); errEl.hidden = false; };
  // a board that ships with the game goes by its name; a corrected board as the file's text
  const chosen = document.querySelector("input[name=board]:checked")?.value;
  const file = document.getElementById("boardfile").files[0];
  if (chosen && chosen !== "upload" && chosen !== game.boards[0]) body.options.board = chosen;
  if (chosen === "upload" && !file) { fail(t("err.board_data")); return; }
  if (file && (!chosen || chosen === "upload")) body.board_data = await file.text();
  try {
    const res = await api("/api/tables", { method: "POST", body });
    errEl.hidden = true;
    showLinks(res, claim, game, n);
    refresh();
    refreshMine();
  } catch (e) {
    fail(e.message);
  }
}

/** After "Create table": a card that says the table is ready, in view and with the focus on its button; the
 * creator's own seat link (to reopen the seat on another device), the friends' private links, the spectator link. */
function showLinks(res, claim, game, n) {
  const root = clear(document.getElementById("links"));
  root.hidden = false;
  root.dataset.table = res.id;
  const mine = claim !== null ? res.seats[claim] : null;
  if (mine) localStorage.setItem(`hegemon.seat.${res.id}`, mine.token);
  rememberLinks(res, claim);
  const others = res.seats.filter((s) => s.kind === "human" && s.seat !== claim && !s.open);
  const open = res.seats.filter((s) => s.kind === "human" && s.open);
  const name = document.getElementById("name")?.value.trim();
  root.append(h("h2", { id: "readytitle" }, t("lobby.ready", { game: game.title, n })),
    h("p", { class: "hint tableid" }, t("lobby.tableid", { id: res.id })));
  const go = h("a", { href: `/t/${res.id}`, class: "button primary", id: "go" }, mine ? t("lobby.go") : t("lobby.watch"));
  root.append(h("p", {}, go));
  if (mine) {
    root.append(h("p", {}, t("lobby.mylink")),
      h("ul", { class: "links", id: "mylink" }, linkRow(absolute(mine.url), claim, name || t("lobby.you"))),
      h("p", { class: "hint" }, t("lobby.mylinkhelp")));
  }
  if (others.length) {
    root.append(h("p", {}, t("lobby.links")),
      h("ul", { class: "links" }, others.map((s) => linkRow(absolute(s.url), s.seat, s.name))));
  }
  const watch = absolute(res.spectator_url);
  if (open.length) {
    root.append(h("p", {}, t("invite.tablelink")), h("ul", { class: "links" }, linkRow(watch, "table", t("invite.thistable"))));
  }
  root.append(h("p", {}, `${t("lobby.spectator")}: `, h("a", { href: watch, id: "spectator" }, watch)));
  root.scrollIntoView({ block: "start" });
  go.focus({ preventScroll: true });
}

function join(id) {
  // the table page asks for the name and takes the open seat
  location.href = `/t/${encodeURIComponent(id)}`;
}

function seatText(s) {
  return s.kind === "bot" ? t("lobby.bot", { name: botLabel(s.bot) }) : s.name + (s.claimed ? "" : " (…)");
}

/** Which board a listed table plays on, when its game has several or the board is a corrected file. */
function boardTag(tb) {
  const name = boardName(tb.game, tb.board);
  return name ? h("small", { class: "boardtag", "data-board": tb.board }, name) : null;
}

function tableRow(tb) {
  const mine = localStorage.getItem(`hegemon.seat.${tb.id}`);
  const btns = [];
  if (mine && tb.status !== "finished") btns.push(h("a", { class: "button", href: `/t/${tb.id}` }, t("lobby.open")));
  else if (tb.joinable > 0) btns.push(h("button", { type: "button", class: "join", onclick: () => join(tb.id) }, t("lobby.join")));
  btns.push(h("a", { class: "button", href: `/t/${tb.id}` }, t("lobby.watch")));
  if (tb.status === "finished") btns.push(h("a", { class: "button", href: `/r/${tb.id}` }, t("lobby.replay")));
  const status = [t(`status.${tb.status}`)];
  if (tb.joinable > 0) status.push(h("span", { class: "badge open" }, ` ${t("lobby.openbadge")} ×${tb.joinable}`));
  return h("tr", { "data-table": tb.id, class: tb.joinable > 0 ? "joinable" : "" },
    h("td", {}, tb.title, boardTag(tb)), h("td", {}, tb.id), h("td", {}, status),
    // the seats apart with a dot: a bot's name may have a comma of its own ("bot: search, 400")
    h("td", { class: "seatlist" }, tb.seats.map(seatText).join(" · ")), h("td", { class: "btns" }, btns));
}

async function refresh() {
  let list = [];
  try { list = await api("/api/tables"); } catch { return; }
  const root = clear(document.getElementById("tables"));
  // tables with a seat open to anyone come first, in a list of their own
  const joinable = list.filter((tb) => tb.joinable > 0 && !localStorage.getItem(`hegemon.seat.${tb.id}`));
  if (joinable.length) {
    root.append(h("h2", {}, t("lobby.joinable")),
      h("table", { class: "list", id: "joinable" }, h("tbody", {}, joinable.map(tableRow))));
  }
  root.append(h("h2", {}, t("lobby.tables")));
  if (!list.length) { root.append(h("p", {}, t("lobby.none"))); return; }
  root.append(h("table", { class: "list", id: "alltables" }, h("tbody", {}, list.map(tableRow))));
}

// ------------------------------------------------------------------ my tables
// The tables this browser holds a seat at (the seat tokens kept in localStorage by the lobby, a private link
// or a join), each with its state asked of the server as that seat: whose turn, waiting for players, over.

const SEAT_KEY = "hegemon.seat.";
const MY_MAX = 30; // a bounded number of reads, however many links this browser has opened
const MY_EVERY = 15000;

function heldSeats() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (k && k.startsWith(SEAT_KEY)) out.push({ id: k.slice(SEAT_KEY.length), token: localStorage.getItem(k) });
  }
  return out.slice(0, MY_MAX);
}

function myStatus(d) {
  if (d.status === "finished" || d.status === "stopped") return h("span", { class: "badge over" }, t(`status.${d.status}`));
  if (d.status === "waiting") {
    const seated = d.seats.filter((s) => s.kind !== "human" || s.claimed).length;
    return h("span", { class: "badge wait" }, t("invite.waiting", { n: seated, m: d.seats.length }));
  }
  const mine = (d.view.legal_actions || []).length > 0;
  return mine ? h("span", { class: "badge turn" }, t("lobby.yourturn")) : h("span", { class: "badge" }, t("lobby.theirturn"));
}

/** Who this browser plays at the table: "Athens (Ada)", "blue (Ada)". */
function mySeat(d) {
  const me = d.seats[d.you];
  if (!me) return "";
  const side = d.game === "polis" ? t(d.you === 0 ? "polis.athens" : "polis.sparta")
    : t(`colour.${COLOUR_NAMES[d.you % COLOUR_NAMES.length]}`);
  return me.name === `Player ${d.you + 1}` ? side : `${side} (${me.name})`; // the server's default name says nothing
}

function myRow(d) {
  const over = d.status === "finished" || d.status === "stopped";
  const lesson = localStorage.getItem(`hegemon.tutorial.${d.id}`);
  const forget = h("button", { type: "button", class: "forget", title: t("lobby.forgethelp"), onclick: () => {
    localStorage.removeItem(SEAT_KEY + d.id);
    localStorage.removeItem(`hegemon.links.${d.id}`);
    refreshMine();
  } }, t("lobby.forget"));
  const turn = !over && d.status === "playing" && (d.view.legal_actions || []).length > 0;
  return h("tr", { "data-table": d.id, class: turn ? "myturn" : "" },
    h("td", {}, h("strong", {}, d.title), boardTag(d), lesson ? h("small", { class: "boardtag" }, t("lobby.lesson")) : null),
    h("td", { class: "myseat" }, mySeat(d)),
    h("td", { class: "mystatus" }, myStatus(d)),
    h("td", { class: "btns" },
      over ? h("a", { class: "button", href: `/r/${d.id}` }, t("lobby.replay"))
        : h("a", { class: `button${turn ? " primary" : ""}`, href: `/t/${d.id}` }, t(turn ? "lobby.play" : "lobby.open")),
      forget));
}

let mineBusy = false;
async function refreshMine() {
  if (mineBusy) return;
  mineBusy = true;
  try {
    const held = heldSeats();
    const found = [];
    for (const { id, token } of held) {
      try {
        const d = await api(`/api/tables/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`);
        found.push({ d });
      } catch (e) {
        // a table that is gone (expired, deleted) or a token it no longer knows: forgotten here too
        if (e.code === "unknown_table" || e.code === "unauthorized") localStorage.removeItem(SEAT_KEY + id);
      }
    }
    const root = clear(document.getElementById("mytables"));
    root.hidden = !found.length;
    if (!found.length) return;
    found.sort((x, y) => y.d.created - x.d.created);
    root.append(h("h2", {}, t("lobby.mytables")),
      h("table", { class: "list", id: "mylist" }, h("tbody", {}, found.map((x) => myRow(x.d)))));
  } finally {
    mineBusy = false;
  }
}

async function main() {
  document.getElementById("langslot").append(langButton(() => { renderCreate(); refresh(); refreshMine(); subtitle(); }));
  subtitle();
  const g = await api("/api/games");
  GAMES = g.games.sort((a, b) => (a.name === "spqrisiko" ? -1 : b.name === "spqrisiko" ? 1 : 0));
  BOTS = g.bots;
  renderCreate();
  refresh();
  refreshMine();
  setInterval(refresh, 3000);
  setInterval(() => { if (!document.hidden) refreshMine(); }, MY_EVERY);
}

function subtitle() {
  document.getElementById("subtitle").textContent = t("app.title");
  document.title = t("app.title");
}

// the lobby page's entry point (index.html): the page's language first, then the page
initLang();
main();
