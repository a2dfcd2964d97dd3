// An exact probability as a player reads it (web/js/common.js chance): a percentage, with the fraction only
// when it is short (issue 12: a new player should not face "1104254418115/1253826625536").
import assert from "node:assert/strict";
import { test } from "node:test";

import { chance } from "../../src/hegemon/web/js/common.js";

test("an exact chance reads as a percentage, with its fraction only when it is short", () => {
  assert.equal(chance({ decimal: 0.625, fraction: "5/8" }), "62.5% (5/8)");
  assert.equal(chance({ decimal: 1295 / 1296, fraction: "1295/1296" }), "99.9% (1295/1296)");
  assert.equal(chance({ decimal: 1104254418115 / 1253826625536, fraction: "1104254418115/1253826625536" }), "88.1%");
});

test("a floating-point chance (armies too large for exact fractions: no fraction) is a plain percentage", () => {
  assert.equal(chance({ decimal: 0.011866631467141142, fraction: null }), "1.2%");
  assert.equal(chance({ decimal: 0.5, fraction: undefined }), "50.0%");
});

test("decimals follow the reader's language: a comma in Italian (Intl.NumberFormat)", async () => {
  const { setLang } = await import("../../src/hegemon/web/js/i18n.js");
  const { num } = await import("../../src/hegemon/web/js/common.js");
  try {
    setLang("it");
    assert.equal(chance({ decimal: 0.625, fraction: "5/8" }), "62,5% (5/8)");
    assert.equal(chance({ decimal: 0.011866631467141142, fraction: null }), "1,2%");
    assert.equal(num(1.4567), "1,46");
    setLang("en");
    assert.equal(num(1.4567), "1.46");
    assert.equal(chance({ decimal: 0.625, fraction: "5/8" }), "62.5% (5/8)");
  } finally {
    setLang("en");
  }
});
