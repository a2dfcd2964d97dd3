// Small helpers the table's buttons and links use (common.js, rules.js, happen.js): a refusal's rule tag links
// to its paragraph in the player's language, bot names and signed changes read right in both languages.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { botLabel, pct } from "../../src/hegemon/web/js/common.js";
import { signed } from "../../src/hegemon/web/js/happen.js";
import { DICTS, setLang } from "../../src/hegemon/web/js/i18n.js";
import { rulesHref, tagId } from "../../src/hegemon/web/js/rules.js";

afterEach(() => setLang("en"));

test("a rule tag's anchor: R 13.6 -> R13.6, section 4.3 -> S4.3", () => {
  assert.equal(tagId("R 13.6"), "R13.6");
  assert.equal(tagId(" R 12 "), "R12");
  assert.equal(tagId("\u00a74.3"), "S4.3");
});

test("a tag links to the rules page of its game, in the player's language, with this table's options", () => {
  assert.equal(rulesHref("spqrisiko", "R 13.6"), "/rules/spqrisiko?lang=en#R13.6");
  setLang("it");
  assert.equal(rulesHref("polis", "\u00a74.3", "abc_12"), "/rules/polis?lang=it&table=abc_12#S4.3");
  assert.equal(rulesHref("polis", null), "/rules/polis?lang=it"); // the rules button: the top of the page
});

test("bots by name and strength in both languages, with no brackets (a seat puts it in some); an unknown kind as it is", () => {
  // a named level reads as its name alone, as random and beginner do (the ladder: random, beginner, easy, normal, hard)
  assert.equal(botLabel("mcts:hard"), DICTS.en["level.hard"]);
  assert.equal(botLabel("mcts:easy"), "easy");
  assert.equal(botLabel("random"), DICTS.en["bot.random"]);
  // any other setting of the search keeps the bot's name
  assert.equal(botLabel("mcts:400"), `${DICTS.en["bot.mcts"]}, 400`);
  setLang("it");
  assert.equal(botLabel("mcts:hard"), DICTS.it["level.hard"]);
  assert.equal(botLabel("mcts:normal"), "media");
  assert.notEqual(botLabel("mcts:hard"), DICTS.en["level.hard"]);
  assert.equal(botLabel("oracle:ultra"), "oracle, ultra");
  assert.doesNotMatch(`Sparta (${botLabel("mcts:easy")})`, /\(.*\(/); // not "Sparta (search (easy))" (issue 28)
});

test("signed changes use the minus sign, and odds one decimal", () => {
  assert.equal(signed(2), "+2");
  assert.equal(signed(-3), "\u22123");
  // no change (a battle where one side lost nothing) is a plain 0, never "\u22120"
  assert.equal(signed(0), "0");
  assert.equal(signed(-0), "0");
  assert.equal(pct(0.3333), "33.3%");
  assert.equal(pct(1), "100.0%");
});
