// Inviting friends: the links of the seats still free (each with a copy button) on the waiting screen, the
// name a person gives when opening a seat's link, and joining a seat the creator opened to anyone.
// Private seats are taken only through their link (POST /seat); open seats from the lobby or this page
// (POST /join, which mints a token for the joiner alone).
import { api, clear, h } from "./common.js";
import { t } from "./i18n.js";

const linksKey = (id) => `hegemon.links.${id}`;

// a link the server handed out, whole: the server gives relative links (/t/ID#seat=…) unless it was told its
// public address (hegemon serve --public-url), so this page's own origin goes before them
export const absolute = (url) => new URL(url, location.origin).href;

// the creator's lobby keeps the links it was given, so that the waiting screen can show them again
export function rememberLinks(res, claim) {
  const links = res.seats.filter((s) => s.kind === "human" && s.seat !== claim)
    .map((s) => ({ seat: s.seat, name: s.name, url: absolute(s.url), open: !!s.open }));
  localStorage.setItem(linksKey(res.id), JSON.stringify(links));
}

function knownLinks(id) {
  try { return JSON.parse(localStorage.getItem(linksKey(id)) || "[]"); } catch { return []; }
}

async function copy(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // no clipboard API (a page served over plain http on a network address): select and copy
    input.focus();
    input.select();
    try { return document.execCommand("copy"); } catch { return false; }
  }
}

// one link with its copy button; the button says when it worked
export function linkRow(url, seat, label) {
  const input = h("input", { class: "link", readonly: true, value: url, "data-seat": seat, onfocus: (e) => e.target.select() });
  const btn = h("button", { type: "button", class: "copy", "data-seat": seat }, t("invite.copy"));
  btn.addEventListener("click", async () => {
    const ok = await copy(url, input);
    btn.textContent = ok ? t("invite.copied") : t("invite.copyfailed");
    btn.classList.toggle("done", ok);
    setTimeout(() => { btn.textContent = t("invite.copy"); btn.classList.remove("done"); }, 2500);
  });
  return h("li", { class: "invite", "data-seat": seat }, h("span", { class: "who" }, label), h("span", { class: "linkbox" }, input, btn));
}

function nameForm(id, title, text, button, onName) {
  const input = h("input", { id: "joinname", type: "text", maxlength: 40, required: true, autocomplete: "nickname",
    value: localStorage.getItem("hegemon.name") || "", placeholder: t("invite.nameholder") });
  const err = h("p", { class: "error", id: "joinerror", hidden: true });
  const form = h("form", { id, class: "joinform" },
    h("h2", {}, title), h("p", {}, text),
    h("label", { for: "joinname" }, t("lobby.name")), input,
    h("button", { type: "submit", class: "primary", id: `${id}btn` }, button), err);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (!name) { input.focus(); return; }
    localStorage.setItem("hegemon.name", name);
    form.querySelector("button").disabled = true;
    try {
      await onName(name);
    } catch (ex) {
      err.textContent = ex.message;
      err.hidden = false;
      form.querySelector("button").disabled = false;
    }
  });
  setTimeout(() => input.focus(), 0);
  return form;
}

// Before the table page connects: a person who opened the link of a seat not yet taken gives a name first.
// Resolves once the seat is theirs (or at once when there is nothing to ask), with the seat's token: taking
// a seat mints a new one for the taker alone (the link's token, which the creator has too, holds nothing then).
export async function takeSeatFirst(id, token) {
  if (!token) return token;
  let d;
  try { d = await api(`/api/tables/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`); } catch { return token; }
  if (d.you === null || d.you === undefined || d.status === "finished" || d.seats[d.you].claimed) return token;
  const root = clear(document.getElementById("actions"));
  return new Promise((resolve) => {
    root.append(nameForm("takeseat", t("invite.invited", { game: d.title }), t("invite.seatof", { n: d.you + 1 }), t("invite.take"),
      async (name) => {
        const res = await api(`/api/tables/${encodeURIComponent(id)}/seat`, { method: "POST", body: { token, name } });
        localStorage.setItem(`hegemon.seat.${id}`, res.token);
        clear(root);
        resolve(res.token);
      }));
  });
}

// The waiting screen: who is seated, the links of the free seats (to the creator, who has them), and a
// join form for a seat open to anyone (to anybody watching without a seat).
export function renderWaiting(root, msg, id, seatName) {
  const free = msg.seats.filter((s) => s.kind === "human" && !s.claimed);
  const box = h("div", { class: "waiting", id: "waiting" },
    h("h2", {}, t("invite.waiting", { n: msg.seats.length - free.length, m: msg.seats.length })));
  const links = knownLinks(id);
  const rows = [];
  for (const s of free) {
    const link = links.find((l) => l.seat === s.seat);
    if (s.open) rows.push(h("li", { class: "invite open", "data-seat": s.seat }, h("span", { class: "who" }, seatName(s.seat)), ` ${t("invite.openseat")}`));
    else if (link) rows.push(linkRow(link.url, s.seat, seatName(s.seat)));
    else rows.push(h("li", { class: "invite", "data-seat": s.seat }, h("span", { class: "who" }, seatName(s.seat)), ` ${t("invite.privateseat")}`));
  }
  if (links.some((l) => !l.open && free.some((s) => s.seat === l.seat))) box.append(h("p", {}, t("invite.sendlinks")));
  box.append(h("ul", { class: "links" }, rows));
  if (free.some((s) => s.open)) {
    box.append(h("p", {}, t("invite.tablelink")), h("ul", { class: "links" }, linkRow(`${location.origin}/t/${id}`, "table", t("invite.thistable"))));
  }
  if (msg.seat === null && free.some((s) => s.open)) {
    // the same form across re-renders, so that a name being typed is kept
    if (!joinForm) {
      joinForm = nameForm("joinseat", t("invite.joinhere"), t("invite.joinhelp"), t("lobby.join"), async (name) => {
        const res = await api(`/api/tables/${encodeURIComponent(id)}/join`, { method: "POST", body: { name } });
        localStorage.setItem(`hegemon.seat.${id}`, res.token);
        history.replaceState(null, "", `/t/${id}`);
        location.reload();
      });
    }
    box.append(joinForm);
  }
  root.append(box);
}

let joinForm = null;
