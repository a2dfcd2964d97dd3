// Playing with friends over days (table page, seated players only): the table chat, the undo of one's own last
// action (and the others' answer to such a request), and the "your turn" notification and sound while the tab
// is hidden. Everything a person typed is shown with textContent (never as HTML). Spectators see none of it:
// the server sends them no chat, and they are never notified.
import { clear, h, inkOf, s as svg } from "./common.js";
import { errorText } from "./errors.js";
import { toast } from "./happen.js";
import { t } from "./i18n.js";

const CHAT_MAX = 300; // the server's limit (tables.CHAT_MAX): longer lines are refused there too
const NOTIFY_KEY = "hegemon.notify"; // "1": notify on my turn (asked for after a click on the bell)
const SOUND_KEY = "hegemon.sound"; // "1": a short sound on my turn (off by default)

// inline drawings (Debian's Chromium has no emoji font): a bell, a speaker, and the stroke that says "off"
const DRAW = {
  bell: "M8 1.5a1 1 0 0 1 1 1v.6a4.5 4.5 0 0 1 3.5 4.4v3l1.5 1.8v.7H2v-.7l1.5-1.8v-3A4.5 4.5 0 0 1 7 3.1v-.6a1 1 0 0 1 1-1zM6.3 14h3.4a1.7 1.7 0 0 1-3.4 0z",
  speaker: "M1.5 6h3l4-3.5v11l-4-3.5h-3z",
  waves: "M10.5 5.2a4 4 0 0 1 0 5.6l-1-1a2.6 2.6 0 0 0 0-3.6zM12.3 3.4a6.5 6.5 0 0 1 0 9.2l-1-1a5.1 5.1 0 0 0 0-7.2z",
  cross: "M10 5.8l1-1l1.8 1.8l1.8-1.8l1 1l-1.8 1.8l1.8 1.8l-1 1l-1.8-1.8l-1.8 1.8l-1-1l1.8-1.8z",
  slash: "M1.6 2.6l1-1l11.8 11.8l-1 1z",
};
function drawing(parts) {
  return svg("svg", { class: "icon", viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true" },
    parts.map((p) => svg("path", { d: DRAW[p], fill: "currentColor" })));
}

/** The chat, undo and notification parts of the table page. `ctx`: {id, msg (getter), sendRaw(obj), myTurn(),
 * seatName(i), seatColour(i), title()}. Returns {onMessage(data) → handled?, onState(prev, msg), render()}. */
export function initSocial(ctx) {
  const lines = []; // the chat lines received, oldest first
  let seen = Number(localStorage.getItem(`hegemon.chatseen.${ctx.id}`) || 0); // the newest line id read
  let wasTurn = null;
  let undoNote = ""; // the last answer about an undo (a refusal's reason, "refused by…")
  const el = (id) => document.getElementById(id);

  // ------------------------------------------------------------------ header: bell and sound
  const bell = h("button", { type: "button", id: "bell", class: "hdrbtn", hidden: true, onclick: toggleNotify });
  const sound = h("button", { type: "button", id: "soundbtn", class: "hdrbtn", hidden: true, onclick: toggleSound });
  const slot = el("langslot");
  if (slot) slot.before(bell, sound);

  function notifyOn() {
    return localStorage.getItem(NOTIFY_KEY) === "1" && typeof Notification !== "undefined" && Notification.permission === "granted";
  }
  function soundOn() { return localStorage.getItem(SOUND_KEY) === "1"; }

  async function toggleNotify() {
    if (typeof Notification === "undefined") { toast(t("notify.unsupported")); return; }
    if (notifyOn()) { localStorage.setItem(NOTIFY_KEY, "0"); labelHeader(); return; }
    // asked only now, after this click (browsers refuse a request made without a user gesture)
    const perm = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
    localStorage.setItem(NOTIFY_KEY, perm === "granted" ? "1" : "0");
    if (perm !== "granted") toast(t("notify.denied"));
    labelHeader();
  }
  function toggleSound() {
    localStorage.setItem(SOUND_KEY, soundOn() ? "0" : "1");
    if (soundOn()) beep(); // hear what it will sound like (and let the browser allow audio after this click)
    labelHeader();
  }
  function labelHeader() {
    const seated = ctx.msg && ctx.msg.seat !== null && ctx.msg.seat !== undefined;
    bell.hidden = !seated;
    sound.hidden = !seated;
    const on = notifyOn();
    clear(bell).append(drawing(on ? ["bell"] : ["bell", "slash"]));
    bell.title = t(on ? "notify.on" : "notify.off");
    bell.setAttribute("aria-label", bell.title);
    bell.setAttribute("aria-pressed", String(on));
    const s = soundOn();
    clear(sound).append(drawing(s ? ["speaker", "waves"] : ["speaker", "cross"]));
    sound.title = t(s ? "sound.on" : "sound.off");
    sound.setAttribute("aria-label", sound.title);
    sound.setAttribute("aria-pressed", String(s));
  }

  let audio = null;
  function beep() {
    try {
      audio ??= new AudioContext();
      const o = audio.createOscillator();
      const g = audio.createGain();
      o.frequency.value = 660;
      g.gain.setValueAtTime(0.0001, audio.currentTime);
      g.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
      o.connect(g).connect(audio.destination);
      o.start();
      o.stop(audio.currentTime + 0.4);
    } catch { /* no audio here */ }
  }

  /** My turn came while the tab is hidden: a notification (if allowed) and a sound (if chosen). Never for a
   * spectator. */
  function onState(prev, msg) {
    const turn = msg.seat !== null && msg.seat !== undefined && ctx.myTurn();
    const came = prev !== null && wasTurn === false && turn;
    wasTurn = turn;
    if (!came || !document.hidden) return;
    if (notifyOn()) {
      const n = new Notification(t("notify.title", { game: ctx.title() }), { body: t("notify.body"), tag: `hegemon-${ctx.id}` });
      n.onclick = () => { window.focus(); n.close(); };
    }
    if (soundOn()) beep();
  }

  // ------------------------------------------------------------------ undo
  const undoBox = h("section", { id: "undo", class: "card undo", hidden: true });

  /** Whether my own last decision is the last thing played (forced moves and draws after it aside): then the
   * undo button is offered; the server decides (and says why not: a die rolled since, a card shown…). */
  function mineIsLast(msg, log) {
    for (let i = log.length - 1; i >= 0; i--) {
      const e = log[i];
      if (e.actor < 0 || e.note === "auto") continue;
      return e.actor === msg.seat && !e.note;
    }
    return false;
  }

  function renderUndo(msg, log) {
    clear(undoBox);
    const seated = msg.seat !== null && msg.seat !== undefined;
    const req = msg.undo_request;
    if (!seated || !msg.undo || msg.undo === "off" || msg.status !== "playing") { undoBox.hidden = true; return; }
    if (req && req.seat === msg.seat) {
      undoBox.append(h("p", { id: "undostatus" }, t("undo.asked")),
        h("button", { type: "button", id: "undowithdraw", onclick: () => ctx.sendRaw({ type: "undo_answer", accept: false }) }, t("undo.withdraw")));
    } else if (req) {
      const agreed = req.agreed.includes(msg.seat);
      undoBox.append(h("p", { id: "undostatus", class: "ask" }, t("undo.request", { who: ctx.seatName(req.seat) })));
      if (!agreed) {
        undoBox.append(h("div", { class: "btns" },
          h("button", { type: "button", id: "undoagree", class: "primary", onclick: () => ctx.sendRaw({ type: "undo_answer", accept: true }) }, t("undo.agree")),
          h("button", { type: "button", id: "undorefuse", onclick: () => ctx.sendRaw({ type: "undo_answer", accept: false }) }, t("undo.refuse"))));
      } else undoBox.append(h("p", { class: "hint" }, t("undo.waiting")));
    } else if (mineIsLast(msg, log)) {
      undoBox.append(h("button", { type: "button", id: "undobtn", onclick: () => { undoNote = ""; ctx.sendRaw({ type: "undo" }); } },
        "\u21B6 ", t("undo.button")), h("span", { class: "hint" }, ` ${t(`undo.rule.${msg.undo}`)}`),
        h("p", { class: "hint", id: "undohelp" }, t("undo.help")));
    }
    if (undoNote) undoBox.append(h("p", { id: "undonote", class: "hint", role: "status" }, undoNote));
    undoBox.hidden = !undoBox.childElementCount;
  }

  // ------------------------------------------------------------------ chat
  const chatLog = h("ol", { id: "chatlog", "aria-live": "polite" });
  const input = h("input", { id: "chatinput", type: "text", maxlength: CHAT_MAX, autocomplete: "off" });
  const count = h("span", { id: "chatcount", class: "hint" });
  const err = h("p", { id: "chaterror", class: "error", role: "alert", hidden: true });
  const summary = h("summary", { id: "chatsummary" });
  const form = h("form", { id: "chatform", class: "chatform" }, input, h("button", { type: "submit", id: "chatsend" }), count);
  const chatHelp = h("p", { id: "chathelp", class: "hint" });
  const chatBox = h("details", { id: "chat", class: "card chat", hidden: true }, summary, chatLog, form, err, chatHelp);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    err.hidden = true; // a refusal stays in view until the next line is sent
    if (ctx.sendRaw({ type: "chat", text })) { input.value = ""; showCount(); }
  });
  input.addEventListener("input", showCount);
  chatBox.addEventListener("toggle", () => { if (chatBox.open) markRead(); labelChat(); });
  function showCount() {
    const n = input.value.length;
    count.textContent = n > CHAT_MAX - 60 ? t("chat.left", { n: CHAT_MAX - n }) : "";
  }
  function markRead() {
    const last = lines.length ? lines[lines.length - 1].id || 0 : 0;
    if (last > seen) { seen = last; localStorage.setItem(`hegemon.chatseen.${ctx.id}`, String(seen)); }
  }
  function unread() {
    return lines.filter((x) => (x.id || 0) > seen && ctx.msg && x.seat !== ctx.msg.seat).length;
  }
  function labelChat() {
    const n = chatBox.open ? 0 : unread();
    summary.textContent = n ? `${t("chat.title")} · ${t("chat.unread", { n })}` : t("chat.title");
    summary.classList.toggle("unread", n > 0);
    input.placeholder = t("chat.placeholder");
    input.setAttribute("aria-label", t("chat.placeholder"));
    form.querySelector("button").textContent = t("chat.send");
    chatHelp.textContent = t("chat.help", { max: CHAT_MAX });
  }
  function lineEl(x) {
    const when = new Date(x.at * 1000);
    const stamp = when.toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
    // the text is a text node: whatever was typed (markup too) shows as typed
    return h("li", { "data-id": x.id ?? "" }, h("time", { datetime: when.toISOString(), class: "hint" }, stamp), " ",
      h("b", { style: `color:${inkOf(ctx.seatColour(x.seat))}` }, ctx.seatName(x.seat)), ": ", h("span", { class: "chattext" }, x.text));
  }
  /** The chat's lines: all of them again, or only `added` at the end (a screen reader hears only those). */
  function renderChat(added) {
    if (added && lines.length && chatLog.querySelector("li:not(.empty)")) {
      for (const x of added) chatLog.append(lineEl(x));
      while (chatLog.childElementCount > lines.length) chatLog.firstElementChild.remove();
    } else {
      clear(chatLog);
      if (!lines.length) chatLog.append(h("li", { class: "hint empty" }, t("chat.empty")));
      for (const x of lines) chatLog.append(lineEl(x));
    }
    chatLog.scrollTop = chatLog.scrollHeight;
    if (chatBox.open) markRead();
    labelChat();
  }

  function inView() {
    if (!chatBox.open || chatBox.hidden) return false;
    const r = chatLog.getBoundingClientRect();
    return r.height > 0 && r.top < window.innerHeight && r.bottom > 0;
  }

  function place() {
    const side = el("side");
    if (!side) return;
    const logwrap = el("logwrap");
    if (chatBox.parentNode !== side) { if (logwrap) logwrap.before(chatBox); else side.append(chatBox); }
    // at the top of the side panel (under "what now"): a request to answer is seen first, on a phone too
    const now = el("now");
    if (now && undoBox.previousElementSibling !== now) now.after(undoBox);
  }

  function render(msg, log) {
    if (!msg) return;
    place();
    labelHeader();
    const seated = msg.seat !== null && msg.seat !== undefined;
    chatBox.hidden = !seated;
    if (seated && !chatBox.dataset.ready) {
      chatBox.dataset.ready = "1";
      chatBox.open = !window.matchMedia("(max-width: 820px)").matches; // a phone keeps it folded
      renderChat();
    } else if (seated && chatBox.dataset.lang !== document.documentElement.lang) renderChat(); // names and times
    chatBox.dataset.lang = document.documentElement.lang;
    labelChat();
    renderUndo(msg, log);
  }

  /** The messages this module handles (chat lines, undo requests and answers, their refusals). */
  function onMessage(data) {
    if (data.type === "chat") {
      if (data.history) lines.length = 0;
      const added = [];
      for (const x of data.lines) {
        if (x.id !== null && lines.some((y) => y.id === x.id)) continue;
        lines.push(x);
        added.push(x);
        // a friend's new line, while the chat is folded or scrolled away: said in a toast too
        if (!data.history && ctx.msg && x.seat !== ctx.msg.seat && !inView()) {
          toast(`${ctx.seatName(x.seat)}: ${x.text.length > 120 ? `${x.text.slice(0, 119)}\u2026` : x.text}`);
        }
      }
      while (lines.length > 200) lines.shift();
      renderChat(data.history ? null : added);
      return true;
    }
    if (data.type === "undo_request") {
      const r = data.request;
      if (!r && data.why === "refused") undoNote = t("undo.refused", { who: ctx.seatName(data.by) });
      else if (!r && data.why === "moved") undoNote = t("undo.cancelled");
      else if (!r && data.why === "withdrawn") undoNote = t("undo.withdrawn");
      else undoNote = "";
      if (ctx.msg) ctx.msg.undo_request = r ? { ...r } : null;
      if (r && ctx.msg && r.seat !== ctx.msg.seat && !r.agreed.includes(ctx.msg.seat)) toast(t("undo.request", { who: ctx.seatName(r.seat) }));
      ctx.rerender();
      return true;
    }
    if (data.type === "undone") {
      undoNote = "";
      toast(t("undo.done", { who: ctx.seatName(data.seat) }));
      return true;
    }
    if (data.type === "error" && data.detail && /^(chat_|not_seated)/.test(data.detail)) {
      err.textContent = errorText(data, ctx.seatName);
      err.hidden = false;
      chatBox.open = true;
      return true;
    }
    if (data.type === "error" && data.detail && data.detail.startsWith("undo_")) {
      undoNote = errorText(data, ctx.seatName);
      ctx.rerender();
      return true;
    }
    return false;
  }

  return { onMessage, onState, render };
}
