// Refusal reasons (web/js/reasons.js): each engine sentence is matched against its template and said again
// from the dictionaries in the player's language, its parts (action kinds, phases, whose) translated too.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { DICTS, setLang } from "../../src/hegemon/web/js/i18n.js";
import { matchReason, reasonText, TEMPLATES } from "../../src/hegemon/web/js/reasons.js";

afterEach(() => setLang("en"));

test("every template has a text in both dictionaries with the same placeholders", () => {
  const names = (s) => new Set([...s.matchAll(/\{(\w+)(?:\}|, plural,)/g)].map((m) => m[1]));
  for (const [id, tpl] of Object.entries(TEMPLATES)) {
    for (const l of ["en", "it"]) {
      const text = DICTS[l][`why.${id}`];
      assert.ok(text, `why.${id} in ${l}`);
      assert.deepEqual(names(text), names(tpl), `why.${id} in ${l}`);
    }
  }
});

test("a sentence is matched with its variable parts", () => {
  assert.deepEqual(matchReason("Italia has 1 legionary: the last one never attacks", "spqrisiko"),
    { id: "last_legionary", vars: { place: "Italia", n: "1" } });
  assert.deepEqual(matchReason("you need strictly more triremes than the defender in Mare Nostrum (2 against 3)", "spqrisiko"),
    { id: "more_triremes", vars: { sea: "Mare Nostrum", mine: "2", theirs: "3" } });
});

test("the templates are literal text: brackets, parentheses and dots match only themselves", () => {
  const ok = "Italia has 2 legionaries: a trireme takes 3 and the province must keep its garrison [R 14.1]";
  assert.equal(matchReason(ok, "spqrisiko").id, "build_garrison");
  assert.equal(matchReason(ok.replace("[R 14.1]", "XR 14x1Y"), "spqrisiko"), null);
  assert.equal(matchReason("you do not hold those cards, or they are not a set (three alike or three different)", "spqrisiko").id, "not_a_set");
  assert.equal(matchReason("you do not hold those cards, or they are not a set Xthree alike or three differentY", "spqrisiko"), null);
});

test("each game's sentences only match for that game (the game over one for both)", () => {
  const polis = "there is no polis Troia";
  assert.equal(matchReason(polis, "polis").id, "p_no_polis");
  assert.equal(matchReason(polis, "spqrisiko"), null);
  assert.equal(matchReason("there is no province Atlantis", "polis"), null);
  assert.equal(matchReason("the game is over", "polis").id, "over");
  assert.equal(matchReason("the game is over", "spqrisiko").id, "over");
});

test("the most specific template wins", () => {
  const text = "a collection outside your home region costs 1 prestige and you have none";
  assert.equal(matchReason(text, "polis").id, "p_collect_prestige"); // not "{action} costs 1 prestige and you have {n}"
  assert.equal(matchReason("collection costs 1 prestige and you have 0", "polis").id, "p_prestige");
});

test("in Italian: numbers, names and the translated parts", () => {
  setLang("it");
  assert.equal(reasonText("spqrisiko", "Italia has 1 legionary: the last one never attacks"),
    "Italia ha 1 legionario: l'ultimo non attacca mai");
  assert.equal(reasonText("spqrisiko", "Dacia is taken already (player 2's)"),
    `Dacia è già occupata (${DICTS.it["why.whose.player"].replace("{n}", "3")})`); // seats count from 1 for people
  assert.equal(reasonText("spqrisiko", "Dacia is taken already (neutral)"), `Dacia è già occupata (${DICTS.it["why.whose.neutral"]})`);
  // action kinds and phase names of a refusal in another phase
  const said = reasonText("polis", "trade is not possible now (its conditions or costs are not met); you may: collection, pass");
  assert.ok(said.startsWith(`${DICTS.it["kind.polis.trade"]} non è possibile ora`), said);
  assert.ok(said.endsWith(`puoi: ${DICTS.it["kind.polis.collect"]}, ${DICTS.it["kind.polis.pass"]}`), said);
  // "none" is the number 0 for the plural forms
  assert.equal(reasonText("polis", "a collection outside your home region costs 1 prestige and you have none"),
    "una riscossione fuori dalla tua regione costa 1 prestigio e non ne hai");
});

test("in English the text comes back as the engine said it", () => {
  for (const text of ["Italia has 3 legionary: the last one never attacks", "there is no polis Troia"]) {
    const game = text.includes("polis") ? "polis" : "spqrisiko";
    assert.equal(reasonText(game, text), text.replace("3 legionary", "3 legionaries"));
  }
});

test("a sentence no template knows is shown as it came, in any language", () => {
  setLang("it");
  assert.equal(reasonText("spqrisiko", "a brand new reason"), "a brand new reason");
  assert.equal(matchReason("a brand new reason", "spqrisiko"), null);
});
