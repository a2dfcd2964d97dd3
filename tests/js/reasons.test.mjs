// Refusal reasons (web/js/reasons.js): an illegal_action error's reason id (`detail`) and arguments (`args`) are
// said from the dictionaries in the player's language, the arguments that name action kinds, phases and owners
// translated too; an id the dictionaries lack is shown in the engine's English. No sentence is parsed.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { DICTS, setLang } from "../../src/hegemon/web/js/i18n.js";
import { reasonText } from "../../src/hegemon/web/js/reasons.js";

afterEach(() => setLang("en"));

const err = (detail, args, reason = "the engine's English") => ({ code: "illegal_action", detail, args, reason });

test("in Italian: numbers, names and the translated parts", () => {
  setLang("it");
  assert.equal(reasonText("spqrisiko", err("last_legionary", { place: "Italia", n: 1 })),
    "Italia ha 1 legionario: l'ultimo non attacca mai");
  assert.equal(reasonText("spqrisiko", err("taken", { place: "Dacia", whose: 2 })),
    `Dacia è già occupata (${DICTS.it["why.whose.player"].replace("{n}", "3")})`); // seats count from 1 for people
  assert.equal(reasonText("spqrisiko", err("taken", { place: "Dacia", whose: "neutral" })),
    `Dacia è già occupata (${DICTS.it["why.whose.neutral"]})`);
  const said = reasonText("polis", err("p_not_now", { action: "trade", kinds: ["collect", "pass"] }));
  assert.ok(said.startsWith(`${DICTS.it["kind.polis.trade"]} non è possibile ora`), said);
  assert.ok(said.endsWith(`puoi: ${DICTS.it["kind.polis.collect"]}, ${DICTS.it["kind.polis.pass"]}`), said);
  assert.equal(reasonText("polis", err("p_collect_prestige", {})),
    "una riscossione fuori dalla tua regione costa 1 prestigio e non ne hai");
});

test("an empty list of kinds says what comes next in the game's words", () => {
  setLang("it");
  const said = reasonText("spqrisiko", err("kind_not_now", { phase: "land attack", kinds: [] }));
  assert.ok(said.endsWith(DICTS.it["why.nothing.spqrisiko"]), said);
});

test("in English the dictionaries say what the engine said", () => {
  assert.equal(reasonText("spqrisiko", err("last_legionary", { place: "Italia", n: 1 })),
    "Italia has 1 legionary: the last one never attacks");
  assert.equal(reasonText("polis", err("p_no_polis", { place: "Troia" })), "there is no polis Troia");
});

test("an id no dictionary knows, or none, is shown in the engine's English", () => {
  setLang("it");
  assert.equal(reasonText("spqrisiko", err("a_brand_new_reason", { n: 1 }, "a brand new reason")), "a brand new reason");
  assert.equal(reasonText("spqrisiko", { code: "illegal_action", reason: "no id at all" }), "no id at all");
});
