// Module hygiene of the client (web/js): only the page entry points (the scripts the HTML pages load) act on
// import; every other module loads in Node, with no page, no localStorage and no navigator, and no module
// imports an entry point.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

import { WEB } from "./helpers.mjs";

const JS = path.join(WEB, "js");
const modules = readdirSync(JS, { recursive: true }).filter((f) => f.endsWith(".js")).map((f) => f.split(path.sep).join("/")).sort();
// the pages: web/*.html, and the API docs page that server/pages.py writes
const pages = [...readdirSync(WEB).filter((f) => f.endsWith(".html")).map((f) => path.join(WEB, f)), path.join(WEB, "..", "server", "pages.py")];
const entries = new Set(pages.flatMap((f) => [...readFileSync(f, "utf8").matchAll(/<script[^>]*\ssrc="\/static\/js\/([^"]+)"/g)].map((m) => m[1])));

test("the page entry points are the scripts of the pages", () => {
  assert.deepEqual([...entries].sort(), ["apidocs.js", "learn.js", "lobby.js", "rules-page.js", "table.js"]);
  for (const e of entries) assert.ok(modules.includes(e), e);
});

test("no module imports a page entry point", () => {
  for (const f of modules) {
    const src = readFileSync(path.join(JS, f), "utf8");
    for (const m of src.matchAll(/^import\s[^;]*?["']([^"']+)["'];?$/gm)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(f), m[1]));
      assert.ok(!entries.has(target), `${f} imports the entry point ${target}`);
    }
  }
});

test("every other module imports without a page", async () => {
  assert.equal(typeof globalThis.document, "undefined");
  const libs = modules.filter((f) => !entries.has(f));
  assert.ok(libs.length >= 10, libs);
  for (const f of libs) {
    await assert.doesNotReject(import(pathToFileURL(path.join(JS, f)).href), f);
  }
});
