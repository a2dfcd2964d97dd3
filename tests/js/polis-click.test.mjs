// Polis's click logic (web/js/boards/polis.js): a click on a polis, territory or sea lists the legal actions
// there; actions that differ only by their numbers share one control (a count, the silver part of a price).
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";

import { actionsAt, cheapest, countField, groups, keyAction, places, sortActions, toggleSelection } from "../../src/hegemon/web/js/boards/polis.js";
import { map, realPositions } from "./helpers.mjs";

const terrOf = Object.fromEntries(map("polis").poleis.map((p) => [p.id, p.territory]));
const NAMES = map("polis").names;
const hoplites = (polis, count, silver) => ({ type: "create_hoplites", polis, count, silver });

describe("hand-made action lists", () => {
  test("a polis's action is listed at the polis and at its territory", () => {
    const a = hoplites("athinae", 1, 0);
    assert.equal(terrOf.athinae, "attika");
    assert.deepEqual(places(a, terrOf), ["athinae", "attika"]);
    assert.deepEqual(places({ type: "collect", territory: "attika" }, terrOf), ["attika"]);
    assert.deepEqual(places({ type: "move_galleys", to: "kyklades" }, terrOf), ["kyklades"]);
    assert.deepEqual(places({ type: "pass" }, terrOf), []);
    assert.deepEqual(places({ type: "move_from", source: "attika", count: 2 }, terrOf), ["attika"]);
  });

  test("the controls: trades in the markets, map actions after a click, the rest always", () => {
    const trade = { type: "trade", market: "aigyptos", purchase: true };
    const collect = { type: "collect", territory: "attika" };
    const create = hoplites("athinae", 1, 0);
    const pass = { type: "pass" };
    const { trades, located, other } = sortActions([pass, trade, collect, create], terrOf);
    assert.deepEqual(trades, [trade]);
    assert.deepEqual(located, [collect, create]);
    assert.deepEqual(other, [pass]);
    assert.deepEqual(actionsAt(located, "attika", terrOf), [collect, create]); // the territory: both
    assert.deepEqual(actionsAt(located, "athinae", terrOf), [create]); // the polis: its own
    assert.deepEqual(actionsAt(located, "euboia", terrOf), []);
  });

  test("a click selects a place, a second click on it unselects it", () => {
    assert.equal(toggleSelection(null, "attika"), "attika");
    assert.equal(toggleSelection("attika", "attika"), null);
    assert.equal(toggleSelection("attika", "euboia"), "euboia");
  });

  test("actions that differ only by count, silver or amount are one group, in the order listed", () => {
    const list = [hoplites("athinae", 1, 0), hoplites("athinae", 1, 1), hoplites("athinae", 2, 0), hoplites("chalkis", 1, 0),
      { type: "phoros", amount: 0 }, { type: "phoros", amount: 2 }, { type: "trade", market: "aigyptos", purchase: true },
      { type: "trade", market: "aigyptos", purchase: false }];
    const gs = groups(list);
    assert.deepEqual(gs.map((g) => g.length), [3, 1, 2, 1, 1]);
    assert.deepEqual(gs[0].map((a) => [a.count, a.silver]), [[1, 0], [1, 1], [2, 0]]);
  });

  test("a group's count choice: one number that varies, else none", () => {
    assert.equal(countField([{ type: "phoros", amount: 0 }, { type: "phoros", amount: 3 }]), "amount");
    assert.equal(countField([{ type: "move_from", source: "attika", count: 1 }, { type: "move_from", source: "attika", count: 4 }]), "count");
    // creating units: the count and the silver part both vary (the two-step control)
    assert.equal(countField([hoplites("athinae", 1, 0), hoplites("athinae", 2, 1)]), null);
  });

  test("creating units starts from the price with the least silver", () => {
    const list = [hoplites("athinae", 2, 2), hoplites("athinae", 2, 0), hoplites("athinae", 2, 1), hoplites("athinae", 1, 1)];
    assert.deepEqual(cheapest(list, 2), hoplites("athinae", 2, 0));
    assert.deepEqual(cheapest(list, 1), hoplites("athinae", 1, 1));
  });

  test("the D key ends the step when an action does, and does nothing otherwise", () => {
    const grow = { type: "grow", polis: "athinae" };
    assert.deepEqual(keyAction("d", [grow, { type: "end_growth" }]), { type: "end_growth" });
    assert.deepEqual(keyAction("d", [{ type: "move_from", source: "attika", count: 1 }, { type: "end_move" }]), { type: "end_move" });
    assert.equal(keyAction("d", [{ type: "pass" }, grow]), null); // "pass" ends no step: no key plays it
    assert.equal(keyAction("x", [{ type: "end_growth" }]), null);
  });
});

describe("real positions from the engine", () => {
  let positions;
  before(() => { positions = realPositions().polis; });

  test("every legal action is in exactly one part of the controls, and every map action is found by a click", () => {
    let located = 0;
    for (const [phase, view] of Object.entries(positions)) {
      const acts = view.legal_actions;
      const parts = sortActions(acts, terrOf);
      assert.equal(parts.trades.length + parts.located.length + parts.other.length, acts.length, phase);
      for (const a of parts.located) {
        const at = places(a, terrOf);
        for (const p of at) assert.ok(actionsAt(parts.located, p, terrOf).includes(a), `${phase}: ${JSON.stringify(a)} at ${p}`);
        for (const p of at) assert.ok(p in NAMES, `${phase}: ${p} is a place of the map`);
        located += 1;
      }
    }
    assert.ok(located > 20, located);
  });

  test("the groups split the actions without losing or repeating one", () => {
    for (const [phase, view] of Object.entries(positions)) {
      const gs = groups(view.legal_actions);
      assert.deepEqual(gs.flat().sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
        [...view.legal_actions].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))), phase);
      for (const g of gs) {
        const field = countField(g);
        if (field) assert.equal(new Set(g.map((a) => a[field])).size, g.length, `${phase}: one value per action`);
      }
    }
  });

  test("the action phase: a click on a polis lists its units and projects, its territory more", () => {
    const acts = positions.action.legal_actions;
    const { located } = sortActions(acts, terrOf);
    const create = acts.find((a) => a.type === "create_hoplites");
    assert.ok(create);
    const atPolis = actionsAt(located, create.polis, terrOf);
    const atTerritory = actionsAt(located, terrOf[create.polis], terrOf);
    assert.ok(atPolis.includes(create) && atTerritory.includes(create));
    assert.ok(atPolis.every((a) => atTerritory.includes(a)));
    const units = groups(acts.filter((a) => a.type === "create_hoplites" && a.polis === create.polis))[0];
    const least = cheapest(units, create.count);
    assert.equal(least.silver, Math.min(...units.filter((a) => a.count === create.count).map((a) => a.silver)));
  });
});
