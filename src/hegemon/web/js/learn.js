// The lobby's "Learn to play": the rules of each game (in the lobby's language) and a lesson, which creates a
// lesson table (a fixed seed and no secret salt: the same story every time) against easy bots and opens it with
// the tutorial's script (tutorial.js) switched on.
import { api, clear, h } from "./common.js";
import { initLang, lang, t } from "./i18n.js";

/** The lesson tables: the scripts of tutorial.js are written for these seeds, options and seats. */
export const TUTORIALS = {
  spqrisiko: {
    title: "S.P.Q.RisiKo!",
    body: {
      game: "spqrisiko", players: 3, seed: 20051,
      options: { random_deal: true, vp_target: 10 },
      seats: [{ human: true }, { bot: "random" }, { bot: "random" }], claim: 0, tutorial: true,
    },
  },
  polis: {
    title: "Polis",
    body: {
      game: "polis", players: 2, seed: 485,
      options: {},
      seats: [{ human: true }, { bot: "random" }], claim: 0, tutorial: true,
    },
  },
};

export async function startTutorial(game) {
  const spec = TUTORIALS[game];
  const name = localStorage.getItem("hegemon.name") || null;
  const body = structuredClone(spec.body);
  body.seats[0].name = name;
  const res = await api("/api/tables", { method: "POST", body });
  localStorage.setItem(`hegemon.seat.${res.id}`, res.seats[0].token);
  localStorage.setItem(`hegemon.tutorial.${res.id}`, game);
  location.href = `/t/${res.id}`;
}

function render() {
  const root = document.getElementById("learn");
  if (!root) return;
  clear(root).append(h("h2", {}, t("learn.title")), h("p", { class: "hint" }, t("learn.intro")));
  for (const [game, spec] of Object.entries(TUTORIALS)) {
    root.append(h("div", { class: "learnrow", "data-game": game },
      h("strong", {}, spec.title),
      h("button", { type: "button", class: "primary", id: `tutorial-${game}`, onclick: (e) => {
        e.target.disabled = true;
        startTutorial(game).catch((err) => { e.target.disabled = false; e.target.textContent = `${t("learn.tutorial")} — ${err.message}`; });
      } }, t("learn.tutorial")),
      h("a", { class: "button", id: `rules-${game}`, href: `/rules/${game}?lang=${lang}` }, t("learn.read"))));
  }
}

// an entry point of the lobby page (index.html), like lobby.js
initLang();
render();
// the lobby's language button redraws the lobby; redraw this section with it
document.addEventListener("click", (e) => { if (e.target instanceof Element && e.target.closest("#lang")) setTimeout(render, 0); });
