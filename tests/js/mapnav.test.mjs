// Keyboard play on the map (web/js/mapnav.js): the arrows go to the nearest place ahead, Home/End and the arrows
// with nothing ahead follow the reading order.
import assert from "node:assert/strict";
import { test } from "node:test";

import { nearestInDirection, readingOrder } from "../../src/hegemon/web/js/mapnav.js";

const P = [
  { id: "a", x: 0, y: 0 }, { id: "b", x: 100, y: 10 }, { id: "c", x: 100, y: 200 }, { id: "d", x: -50, y: 120 },
  { id: "e", x: 60, y: -90 },
];

test("the nearest place ahead in each direction, a sideways step counting double, within 45° first", () => {
  assert.equal(nearestInDirection(P, P[0], "right").id, "b");
  assert.equal(nearestInDirection(P, P[0], "down").id, "d"); // b is nearer, but more to the right than below
  assert.equal(nearestInDirection([P[0], P[1]], P[0], "down").id, "b"); // else any place below
  assert.equal(nearestInDirection(P, P[0], "up").id, "e");
  assert.equal(nearestInDirection(P, P[0], "left").id, "d");
  assert.equal(nearestInDirection(P, P[2], "down"), null); // nothing below the lowest place
  assert.equal(nearestInDirection([P[0]], P[0], "right"), null); // never the place itself
});

test("reading order: top to bottom in bands, then left to right", () => {
  assert.deepEqual(readingOrder(P).map((p) => p.id), ["e", "a", "b", "d", "c"]);
  assert.deepEqual(readingOrder([{ id: "x", x: 50, y: 5 }, { id: "y", x: 10, y: 30 }]).map((p) => p.id), ["y", "x"]);
});
