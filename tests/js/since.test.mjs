// "Since your turn" (web/js/since.js): the log cut into the turns since a seat's own last choice, and a turn's
// changes added up (VP by source, losses, prestige, a siege's last count).
import assert from "node:assert/strict";
import { test } from "node:test";

import { mergeChanges, sinceSegments, turnNews } from "../../src/hegemon/web/js/since.js";

const line = (i, actor, type, note = "", changes) => ({ i, actor, action: { type }, note, ...(changes ? { changes } : {}) });

test("the turns since my last own choice, chance lines in the turn they happen in", () => {
  const log = [
    line(0, 0, "done"), line(1, 1, "attack"), line(2, -1, "roll"), line(3, 1, "done"), line(4, 2, "reinforce"),
    line(5, 2, "done"), line(6, -1, "draw"),
  ];
  const { segments, earlier } = sinceSegments(log, 0);
  assert.equal(earlier, 0);
  assert.deepEqual(segments.map((s) => [s.actor, s.entries.map((e) => e.i)]), [[1, [1, 2, 3]], [2, [4, 5, 6]]]);
  // a forced move of mine (played for me) is not my choice: what came before it stays in view
  const forced = [...log, line(7, 0, "done", "auto")];
  assert.deepEqual(sinceSegments(forced, 0).segments.map((s) => s.actor), [1, 2, 0]);
  // after my own choice: nothing yet
  assert.deepEqual(sinceSegments([...log, line(7, 0, "done")], 0).segments, []);
  // a spectator: the latest turns
  assert.deepEqual(sinceSegments(log, null).segments.map((s) => s.actor), [0, 1, 2]);
});

test("many turns: the latest are kept and the others counted", () => {
  const log = Array.from({ length: 40 }, (_, i) => line(i, 1 + (i % 2), "done"));
  const { segments, earlier } = sinceSegments(log, 0);
  assert.equal(segments.length + earlier, 40);
  assert.ok(segments.length >= 4 && segments.at(-1).entries[0].i === 39);
});

test("a turn's changes added up", () => {
  const merged = mergeChanges([
    { k: "lost", who: 1, legionaries: 1, triremes: 0 },
    { k: "conquest", place: "gallia", from: 1, to: 0 },
    { k: "lost", who: 1, legionaries: 2, triremes: 1 },
    { k: "vp", who: 0, n: 1, total: 3, sources: { provinces: 1 } },
    { k: "vp", who: 0, n: 2, total: 5, sources: { provinces: 1, seas: 1 } },
    { k: "prestige", side: "athens", n: -1, total: 6 },
    { k: "prestige", side: "athens", n: 1, total: 7 },
    { k: "siege", polis: "megara", side: "athens", n: 1, of: 2 },
    { k: "siege", polis: "korinthos", side: "sparta", n: 1, of: 3 },
    { k: "siege", polis: "korinthos", side: "sparta", n: 2, of: 3 },
    { k: "polis", polis: "megara", from: "neutral", to: "athens" },
  ]);
  assert.deepEqual(merged, [
    { k: "lost", who: 1, legionaries: 3, triremes: 1 },
    { k: "conquest", place: "gallia", from: 1, to: 0 },
    { k: "vp", who: 0, n: 3, total: 5, sources: { provinces: 2, seas: 1 } },
    // a net prestige of 0 says nothing; Megara's siege is said by its capture
    { k: "siege", polis: "korinthos", side: "sparta", n: 2, of: 3 },
    { k: "polis", polis: "megara", from: "neutral", to: "athens" },
  ]);
});

test("VP scored as a turn begins are said in the scorer's turn", () => {
  const vp = { k: "vp", who: 2, n: 1, total: 1, sources: { provinces: 1 } };
  const segs = [
    { actor: 1, entries: [line(0, 1, "attack", "", [{ k: "conquest", place: "gallia", from: 0, to: 1 }]), line(1, 1, "done", "", [vp])] },
    { actor: 2, entries: [line(2, 2, "reinforce")] },
  ];
  assert.deepEqual(turnNews(segs), [[{ k: "conquest", place: "gallia", from: 0, to: 1 }], [vp]]);
  // my own VP, scored as my turn begins, stay in the last turn before it (there is no turn of mine to say them in)
  const mine = { ...vp, who: 0 };
  assert.deepEqual(turnNews([{ actor: 1, entries: [line(0, 1, "done", "", [mine])] }]), [[mine]]);
});
