// The lobby: create a table (game, rule options with their one-line explanations, seats), get the private
// seat links, list the open and running tables, join or watch one.
import { api, boardName, botLabel, clear, h, langButton } from "./common.js";
import { has, initLang, lang, t } from "./i18n.js";
import { linkRow, rememberLinks } from "./invite.js";

let GAMES = null;
let BOTS = [];
const touched = {};

function optLabel(o) {
  const key = `opt.${o.name}`;
  const label = t(key);
  return label === key ? o.name.replace(/_/g, " ") : label;
}

const MAIN_OPTIONS = ["rules", "siege", "vp_target", "max_rounds"];
// a new table's bot seats: the easy search bot, a real opponent (the random bot stays on the list)
const DEFAULT_BOT = "mcts:easy";

function applyPreset(game, value) {
  // a rule set sets the defaults of its switches (those the user has not changed)
  const preset = (game.presets || {})[value] || {};
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
    touched[o.name] = true;
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
  if (said) input.addEventListener("change", () => { said.textContent = choiceHelp[input.value] || ""; });
  return h("div", { class: "opt", "data-game": gameName },
    h("label", { for: id }, optLabel(o)), input, h("small", { class: "help" }, help), said);
}

function readOptions(game) {
  const out = {};
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
      h("label", { for: id }, h("span", { class: "boardname" }, label), has(key) ? h("small", { class: "help" }, t(key)) : null),
      c === "upload" ? filePicker(file) : null);
  });
  return h("fieldset", { class: "boards", id: "boardchoice" }, h("legend", {}, t("lobby.boardchoice")), rows);
}

function renderCreate() {
  const gameSel = document.getElementById("game")?.value || "spqrisiko";
  const prevPlayers = Number(document.getElementById("players")?.value) || 0;
  const prevName = document.getElementById("name")?.value ?? (localStorage.getItem("hegemon.name") || "");
  const prevSeats = [...document.querySelectorAll("select.seat")].map((x) => x.value);
  const prevBoard = document.querySelector("input[name=board]:checked")?.value;
  const prevFile = document.getElementById("boardfile");
  const root = clear(document.getElementById("create"));
  const game = GAMES.find((g) => g.name === gameSel) || GAMES[0];
  const playersOpt = game.options.find((o) => o.name === "players");
  const nDefault = playersOpt ? playersOpt.default : game.min_players;
  const prevN = prevPlayers || nDefault;
  const n = Math.min(game.max_players, Math.max(game.min_players, prevN));
  const same = gameSel === game.name;
  const file = same && prevFile ? prevFile : newFileInput();
  const choose = (game.boards || []).length > 1; // several boards ship with the game: a choice of its own
  const form = h("form", { id: "createform" },
    h("h2", {}, t("lobby.create")),
    h("div", { class: "row" },
      h("label", { for: "game" }, t("lobby.game")),
      h("select", { id: "game", onchange: () => { for (const k in touched) delete touched[k]; renderCreate(); } },
        GAMES.map((g) => h("option", { value: g.name, selected: g.name === game.name }, g.title)))),
    h("div", { class: "row" },
      h("label", { for: "players" }, t("lobby.players")),
      h("input", { id: "players", type: "number", min: game.min_players, max: game.max_players, value: n,
        disabled: game.min_players === game.max_players, onchange: renderCreate })),
    h("div", { class: "row" }, h("label", { for: "name" }, t("lobby.name")),
      h("input", { id: "name", type: "text", maxlength: 40, value: prevName })),
    h("fieldset", { class: "seats" }, seatRows(game, n)),
    h("div", { class: "options main" },
      game.options.filter((o) => MAIN_OPTIONS.includes(o.name)).map((o) => optInput(o, game))),
    choose ? boardChoice(game, same ? prevBoard : null, file) : null,
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
  // keep the seats already chosen when only the number of players changes
  if (same) prevSeats.forEach((v, i) => { const el = document.getElementById(`seat-${i}`); if (el) el.value = v; });
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
    showLinks(res, claim);
    refresh();
  } catch (e) {
    fail(e.message);
  }
}

function showLinks(res, claim) {
  const root = clear(document.getElementById("links"));
  root.hidden = false;
  const mine = claim !== null ? res.seats[claim] : null;
  if (mine) localStorage.setItem(`hegemon.seat.${res.id}`, mine.token);
  rememberLinks(res, claim);
  const others = res.seats.filter((s) => s.kind === "human" && s.seat !== claim && !s.open);
  const open = res.seats.filter((s) => s.kind === "human" && s.open);
  root.append(h("h2", {}, res.id));
  if (others.length) {
    root.append(h("p", {}, t("lobby.links")),
      h("ul", { class: "links" }, others.map((s) => linkRow(s.url, s.seat, s.name))));
  }
  if (open.length) {
    root.append(h("p", {}, t("invite.tablelink")), h("ul", { class: "links" }, linkRow(res.spectator_url, "table", t("invite.thistable"))));
  }
  root.append(h("p", {}, `${t("lobby.spectator")}: `, h("a", { href: res.spectator_url, id: "spectator" }, res.spectator_url)));
  root.append(h("a", { href: `/t/${res.id}`, class: "button primary", id: "go" }, mine ? t("lobby.go") : t("lobby.watch")));
}

function join(id) {
  // the table page asks for the name and takes the open seat
  location.href = `/t/${encodeURIComponent(id)}`;
}

function seatText(s) {
  return s.kind === "bot" ? `${t("table.bot")} ${botLabel(s.bot)}` : s.name + (s.claimed ? "" : " (…)");
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
    h("td", {}, tb.seats.map(seatText).join(", ")), h("td", { class: "btns" }, btns));
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

async function main() {
  document.getElementById("langslot").append(langButton(() => { renderCreate(); refresh(); subtitle(); }));
  subtitle();
  const g = await api("/api/games");
  GAMES = g.games.sort((a, b) => (a.name === "spqrisiko" ? -1 : b.name === "spqrisiko" ? 1 : 0));
  BOTS = g.bots;
  renderCreate();
  refresh();
  setInterval(refresh, 3000);
}

function subtitle() {
  document.getElementById("subtitle").textContent = t("app.title");
  document.title = t("app.title");
}

// the lobby page's entry point (index.html): the page's language first, then the page
initLang();
main();
