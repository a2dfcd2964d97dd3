// S.P.Q.RisiKo!'s click logic (web/js/boards/spqrisiko.js): which map clicks make which action, on hand-made
// action lists and on the legal actions of real positions from the engine.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";

import { autoRoll, clickStep, clickTargets, keyAction, locs, losses, reinforceTimes, repeatAction } from "../../src/hegemon/web/js/boards/spqrisiko.js";
import { realPositions } from "./helpers.mjs";

const attack = (source, target) => ({ type: "attack", source, target });
const DONE = { type: "done" };

/** Click the locations one after the other: every step's result. */
function clicks(acts, ids) {
  let sel = [];
  return ids.map((id) => {
    const step = clickStep(acts, sel, id);
    sel = step ? step.sel : [];
    return step;
  });
}

describe("hand-made action lists", () => {
  test("a province to claim is played by one click", () => {
    const acts = [{ type: "claim", province: "italia" }, { type: "claim", province: "dacia" }];
    const step = clickStep(acts, [], "dacia");
    assert.equal(step.outcome, "send");
    assert.deepEqual(step.full, [{ type: "claim", province: "dacia" }]);
    assert.equal(clickStep(acts, [], "aegyptus"), null); // not one to claim: nothing starts
  });

  test("an attack takes two clicks, source then target, and then asks for confirmation (with the odds)", () => {
    const acts = [attack("italia", "dacia"), attack("italia", "gallia"), attack("hispania", "gallia"), DONE];
    assert.deepEqual(clickTargets(acts, []), new Set(["italia", "hispania"]));
    const [first, second] = clicks(acts, ["italia", "gallia"]);
    assert.equal(first.outcome, "more");
    assert.deepEqual(first.sel, ["italia"]);
    assert.deepEqual(clickTargets(acts, first.sel), new Set(["dacia", "gallia"]));
    assert.equal(second.outcome, "choose");
    assert.deepEqual(second.full, [attack("italia", "gallia")]);
  });

  test("a click that continues nothing starts again from that location, or drops the selection", () => {
    const acts = [attack("italia", "dacia"), attack("hispania", "gallia")];
    const [, again] = clicks(acts, ["italia", "hispania"]);
    assert.deepEqual(again.sel, ["hispania"]); // hispania is no target of italia, but a source of its own
    assert.equal(again.outcome, "more");
    const [, same] = clicks(acts, ["italia", "italia"]);
    assert.deepEqual(same.sel, ["italia"]);
    const [, none] = clicks(acts, ["italia", "aegyptus"]);
    assert.equal(none, null);
  });

  test("a naval move asks how many triremes; a strategic move and a new trireme go at once", () => {
    const moves = [1, 2, 3].map((count) => ({ type: "naval_move", source: "tyrrenum", dest: "ionium", count }));
    const [, step] = clicks([...moves, DONE], ["tyrrenum", "ionium"]);
    assert.equal(step.outcome, "choose");
    assert.deepEqual(step.full.map((a) => a.count), [1, 2, 3]);
    const fortify = { type: "fortify", source: "italia", dest: "gallia" };
    assert.equal(clicks([fortify, DONE], ["italia", "gallia"])[1].outcome, "send");
    const build = { type: "build", province: "italia", sea: "tyrrenum" };
    assert.deepEqual(locs(build), ["italia", "tyrrenum"]);
    const [b1, b2] = clicks([build, { type: "build", province: "italia", sea: "adriaticum" }], ["italia", "tyrrenum"]);
    assert.equal(b1.outcome, "more");
    assert.deepEqual([b2.outcome, b2.full], ["send", [build]]);
  });

  test("a sea attack is confirmed even when it is the only one; two ways across the sea are both offered", () => {
    const a = { type: "sea_attack", source: "africa", target: "sicilia", sea: "tyrrenum" };
    const b = { ...a, sea: "ionium" };
    assert.equal(clicks([a], ["africa", "sicilia"])[1].outcome, "choose");
    assert.deepEqual(clicks([a, b], ["africa", "sicilia"])[1].full, [a, b]);
    const naval = { type: "naval_attack", sea: "tyrrenum", opponent: 2 };
    assert.deepEqual(clickStep([naval, DONE], [], "tyrrenum"), { sel: ["tyrrenum"], full: [naval], outcome: "choose" });
  });

  test("a disband starts at the sea and ends in the province", () => {
    const d = { type: "disband", sea: "tyrrenum", province: "italia" };
    assert.equal(clickStep([d], [], "italia"), null);
    assert.deepEqual(clicks([d], ["tyrrenum", "italia"]).map((s) => s.outcome), ["more", "send"]);
  });

  test("reinforcements: one click places 1, 3, 5 or all, never more than the pool", () => {
    const r = { type: "reinforce", province: "italia" };
    assert.equal(clickStep([r, { type: "reinforce", province: "gallia" }], [], "italia").outcome, "reinforce");
    assert.equal(reinforceTimes(1, 7), 1);
    assert.equal(reinforceTimes(5, 7), 5);
    assert.equal(reinforceTimes(5, 3), 3);
    assert.equal(reinforceTimes("all", 7), 7);
    assert.equal(reinforceTimes(3, 0), 1); // an unknown pool: one
  });

  test("the repeat plays the same action until the count is reached or it is no longer legal", () => {
    const r = { type: "reinforce", province: "italia" };
    const m = (acts) => ({ view: { legal_actions: acts } });
    const next = repeatAction(r, 3); // the first was sent by the click: two more
    assert.deepEqual(next(m([{ type: "reinforce", province: "gallia" }, { ...r }])), r);
    assert.deepEqual(next(m([r])), r);
    assert.equal(next(m([r])), null);
    const stop = repeatAction(r, 5);
    assert.equal(stop(m([{ type: "reinforce", province: "gallia" }])), null); // italia cannot take more
  });

  test("roll until…: the most dice each time, a withdrawal at the limit, nothing after the battle", () => {
    const view = (armies, acts, phase = "land attack: roll") => ({ view: {
      phase, legal_actions: acts, battle: { kind: "land", source: "italia", target: "dacia" },
      provinces: [{ id: "italia", armies }, { id: "dacia", armies: 2 }] } });
    const rolls = [1, 2, 3].map((dice) => ({ type: "roll_dice", dice }));
    const withdraw = { type: "withdraw" };
    const next = autoRoll(2);
    assert.deepEqual(next(view(5, [...rolls, withdraw])), { type: "roll_dice", dice: 3 });
    assert.deepEqual(next(view(2, [...rolls, withdraw])), withdraw);
    assert.equal(next(view(2, rolls)), null); // at the limit and no withdrawal offered: stop
    assert.equal(next(view(5, [{ type: "move_in", count: 3 }], "land attack: move in")), null);
    const naval = { view: { phase: "naval combat: roll", legal_actions: rolls.slice(0, 2), battle: { kind: "naval", sea: "tyrrenum" }, provinces: [] } };
    assert.deepEqual(autoRoll(1)(naval), { type: "roll_dice", dice: 2 });
  });

  test("keys: D ends the phase, R rolls the most dice (A too, and goes on), W withdraws, others nothing", () => {
    const rolls = [1, 2, 3].map((dice) => ({ type: "roll_dice", dice }));
    const battle = [...rolls, { type: "withdraw" }];
    assert.deepEqual(keyAction("r", battle), { type: "roll_dice", dice: 3 });
    assert.deepEqual(keyAction("a", battle), { type: "roll_dice", dice: 3 });
    assert.deepEqual(keyAction("w", battle), { type: "withdraw" });
    assert.equal(keyAction("d", battle), null);
    const attacks = [attack("italia", "dacia"), DONE];
    assert.deepEqual(keyAction("d", attacks), DONE);
    for (const k of ["r", "a", "w", "x", "enter"]) assert.equal(keyAction(k, attacks), null, k);
  });

  test("the dice tray's losses: a tie loses the attacker's die on land and nobody's at sea", () => {
    assert.deepEqual(losses([6, 4, 2], [5, 4], false), [[false, true, false], [true, false]]);
    assert.deepEqual(losses([6, 4, 2], [5, 4], true), [[false, false, false], [true, false]]);
    assert.deepEqual(losses([3], [6, 1], false), [[true], [false, false]]);
  });
});

describe("real positions from the engine", () => {
  let positions;
  before(() => { positions = realPositions().spqrisiko; });

  test("the positions cover the phases that are played on the map", () => {
    for (const ph of ["setup: claim", "reinforcements: place", "land attacks", "strategic move", "naval movement", "sea attacks", "naval combat"]) {
      assert.ok(positions[ph], ph);
    }
  });

  test("every legal action on the map is reached by clicking its locations, and nothing else is sent", () => {
    let checked = 0;
    for (const [phase, view] of Object.entries(positions)) {
      const acts = view.legal_actions;
      for (const a of acts) {
        const path = locs(a);
        if (!path.length) continue;
        let sel = [];
        for (const [i, id] of path.entries()) {
          assert.ok(clickTargets(acts, sel).has(id), `${phase}: ${id} clickable after ${sel}`);
          const step = clickStep(acts, sel, id);
          assert.ok(step, `${phase}: a click on ${id}`);
          if (i < path.length - 1) {
            assert.equal(step.outcome, "more", `${phase}: ${JSON.stringify(a)} stops at ${id}`);
          } else {
            assert.ok(step.full.some((x) => JSON.stringify(x) === JSON.stringify(a)), `${phase}: ${JSON.stringify(a)}`);
            assert.notEqual(step.outcome, "more");
            if (step.outcome === "send") assert.deepEqual(step.full, [a]);
            for (const x of step.full) assert.ok(acts.includes(x)); // only listed actions are ever sent
          }
          sel = step.sel;
        }
        checked += 1;
      }
    }
    assert.ok(checked > 30, checked);
  });

  test("what each phase's click does", () => {
    const first = (ph) => positions[ph].legal_actions.find((a) => locs(a).length);
    const outcome = (ph) => { const a = first(ph); return clicks(positions[ph].legal_actions, locs(a)).at(-1).outcome; };
    assert.equal(outcome("setup: claim"), "send");
    assert.equal(outcome("reinforcements: place"), "reinforce");
    assert.equal(outcome("land attacks"), "choose");
    assert.equal(outcome("strategic move"), "send");
    const place = positions["reinforcements: place"];
    assert.equal(reinforceTimes("all", place.pool), place.pool);
  });

  test("roll until… on a real battle plays the largest roll offered", () => {
    for (const ph of ["land attack: roll", "naval combat: roll"]) {
      const view = positions[ph];
      assert.ok(view, ph);
      const rolls = view.legal_actions.filter((a) => a.type === "roll_dice");
      const best = Math.max(...rolls.map((a) => a.dice));
      assert.equal(autoRoll(1)({ view }).dice, best, ph);
    }
  });
});
