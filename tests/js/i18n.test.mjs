// The client's texts (web/js/i18n.js): it loads without a page, falls back Italian → English → key, fills
// placeholders, and says plurals with Intl.PluralRules in both languages.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";

import { DICTS, has, initLang, lang, pluralOf, preferredLang, setLang, t } from "../../src/hegemon/web/js/i18n.js";
import { dictionary } from "./helpers.mjs";

afterEach(() => setLang("en"));

describe("loading", () => {
  test("importing touches no page (Node has no document): the language waits for initLang()", () => {
    assert.equal(typeof globalThis.document, "undefined");
    assert.equal(lang, "en"); // nothing detected on import; a page entry point calls initLang()
    assert.equal(typeof initLang, "function");
  });

  test("the dictionaries are the shipped JSON files, with the same keys in both languages", () => {
    assert.deepEqual(DICTS.en, dictionary("en"));
    assert.deepEqual(DICTS.it, dictionary("it"));
    assert.deepEqual(Object.keys(DICTS.it).sort(), Object.keys(DICTS.en).sort());
    assert.ok(Object.keys(DICTS.en).length > 800);
  });

  test("the starting language: a saved choice, else the browser's first language, else English", () => {
    assert.equal(preferredLang("it", ["en-GB"]), "it");
    assert.equal(preferredLang("en", ["it-IT"]), "en");
    assert.equal(preferredLang("fr", ["it-CH", "en"]), "it"); // an unknown saved value is ignored
    assert.equal(preferredLang(null, ["IT"]), "it");
    assert.equal(preferredLang(null, ["de-DE", "it"]), "en"); // only the first language counts
    assert.equal(preferredLang(null, []), "en");
    assert.equal(preferredLang(null, undefined), "en");
  });

  test("setLang works without a browser and refuses an unknown language", () => {
    setLang("it");
    assert.equal(lang, "it");
    assert.equal(t("lang.switch"), "English");
    setLang("xx");
    assert.equal(lang, "en");
    assert.equal(t("lang.switch"), "Italiano");
  });
});

describe("fallback and placeholders", () => {
  test("a text missing in Italian comes in English, a missing key as the key itself", () => {
    DICTS.en["test.only_english"] = "only in {lang}";
    try {
      setLang("it");
      assert.equal(t("test.only_english", { lang: "English" }), "only in English");
      assert.ok(has("test.only_english"));
      assert.equal(t("test.nowhere"), "test.nowhere");
      assert.ok(!has("test.nowhere"));
    } finally {
      delete DICTS.en["test.only_english"];
    }
  });

  test("placeholders are filled; an unknown one stays as written", () => {
    assert.equal(t("table.round", { n: 3 }), "Round 3");
    setLang("it");
    assert.equal(t("table.round", { n: 3 }), DICTS.it["table.round"].replace("{n}", "3"));
    assert.equal(t("table.round", { m: 3 }), DICTS.it["table.round"]);
    assert.equal(t("table.round"), DICTS.it["table.round"]); // no vars: the text as written
  });

  test("Italian euphony: 'a' before a name starting with a becomes 'ad', only in Italian", () => {
    setLang("it");
    assert.equal(t("invite.invited", { game: "Atene" }), "Sei invitato ad Atene");
    assert.equal(t("invite.invited", { game: "Polis" }), "Sei invitato a Polis");
    setLang("en");
    assert.equal(t("invite.invited", { game: "Athens" }), "You are invited to Athens");
  });
});

describe("plurals", () => {
  test("Intl.PluralRules picks the form in each language", () => {
    assert.equal(pluralOf(1), "one");
    assert.equal(pluralOf(0), "other"); // English: "0 galleys"
    setLang("it");
    assert.equal(pluralOf(1), "one");
    assert.equal(pluralOf(0), "other"); // Italian: "0 galee"
    assert.equal(pluralOf(1000000), "many"); // Italian has a "many" category for a million
  });

  test("dice, galleys and the remaining legionaries in both languages", () => {
    const cases = [
      ["act.spqrisiko.roll_dice", { dice: 1 }, "rolls 1 die", "tira 1 dado"],
      ["act.spqrisiko.roll_dice", { dice: 3 }, "rolls 3 dice", "tira 3 dadi"],
      ["n.galley", { n: 0 }, "0 galleys", "0 galee"],
      ["n.galley", { n: 1 }, "1 galley", "1 galea"],
      ["n.hoplite", { n: 2 }, "2 hoplites", "2 opliti"],
      ["why.last_legionary", { place: "Italia", n: 1 }, "Italia has 1 legionary: the last one never attacks",
        "Italia ha 1 legionario: l'ultimo non attacca mai"],
    ];
    for (const [key, vars, en, it] of cases) {
      setLang("en");
      assert.equal(t(key, vars), en, key);
      setLang("it");
      assert.equal(t(key, vars), it, key);
    }
    // a plural only in Italian: English has one form for any number
    setLang("it");
    assert.equal(t("spqr.autoroll", { n: 1 }), "Tira finché conquisti o ne resta 1");
    assert.equal(t("spqr.autoroll", { n: 2 }), "Tira finché conquisti o ne restano 2");
  });

  test("a signed change takes the form of its size", () => {
    assert.equal(t("fx.hoplites", { n: "+1" }), "+1 hoplite");
    assert.equal(t("fx.galleys", { n: "\u22122" }), "\u22122 galleys");
    setLang("it");
    assert.equal(t("fx.galleys", { n: "\u22121" }), "\u22121 galea");
    assert.equal(t("fx.hoplites", { n: "+3" }), "+3 opliti");
  });

  test("an exact form (=0) wins over the category, and several plural blocks in one text", () => {
    DICTS.en["test.plural"] = "{n, plural, =0 {no ships} one {# ship} other {# ships}} and {m, plural, one {# die} other {# dice}}";
    try {
      assert.equal(t("test.plural", { n: 0, m: 1 }), "no ships and 1 die");
      assert.equal(t("test.plural", { n: 1, m: 2 }), "1 ship and 2 dice");
      assert.equal(t("test.plural", { n: 7, m: 0 }), "7 ships and 0 dice");
    } finally {
      delete DICTS.en["test.plural"];
    }
  });
});
