// The lessons (web/js/tutorial.js) as a new player reads them (issue 28 item 9): the step counter is the only
// numbering of the steps, and the real game offered at the end seats the lobby's default bot.
import assert from "node:assert/strict";
import { test } from "node:test";

import { DEFAULT_BOT } from "../../src/hegemon/web/js/common.js";
import { realGameBody } from "../../src/hegemon/web/js/tutorial.js";
import { dictionary } from "./helpers.mjs";

test("no lesson step title carries a number of its own (\"step 2 of 9\" above \"1. Reinforcements\")", () => {
  for (const lang of ["en", "it"]) {
    const titles = Object.entries(dictionary(lang)).filter(([k]) => /^tut\.\w+\.\w+\.title$/.test(k));
    assert.ok(titles.length >= 20, lang);
    for (const [k, v] of titles) assert.doesNotMatch(v, /^\s*\d/, `${lang} ${k}: ${v}`);
  }
});

test("the real game after a lesson seats the lobby's default bot, the easy level, in both games", () => {
  assert.equal(DEFAULT_BOT, "mcts:easy");
  for (const game of ["spqrisiko", "polis"]) {
    const body = realGameBody(game);
    assert.equal(body.game, game);
    assert.deepEqual(body.seats[0], { human: true });
    assert.ok(body.seats.length >= 2);
    for (const s of body.seats.slice(1)) assert.deepEqual(s, { bot: DEFAULT_BOT }, game);
  }
});

test("Italian names a round one way: the header's \"Round 6\" is the \"Inizia il round 6\" of the news, not \"Turno 6\"", () => {
  const it = dictionary("it");
  assert.match(it["toast.round"], /\bround\b/);
  assert.match(it["table.round"], /^Round \{n\}$/);
});
