// Shared by tests/js/*.test.mjs (not a test file itself): where the client lives, and real positions from the
// engines (tests/js/positions.py, run with the same Python as pytest when PYTHON is set).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const WEB = path.join(ROOT, "src", "hegemon", "web");

/** {game: {phase: view}}: the view of the player to move, the first time each phase comes up. */
export function realPositions() {
  const env = { ...process.env, PYTHONPATH: [path.join(ROOT, "src"), process.env.PYTHONPATH].filter(Boolean).join(path.delimiter) };
  const r = spawnSync(process.env.PYTHON || "python3", [path.join(ROOT, "tests", "js", "positions.py")],
    { env, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`tests/js/positions.py failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** A shipped map (web/maps/<game>.json). */
export const map = (game) => JSON.parse(readFileSync(path.join(WEB, "maps", `${game}.json`), "utf8"));

/** A dictionary as shipped (web/i18n/<lang>.json). */
export const dictionary = (lang) => JSON.parse(readFileSync(path.join(WEB, "i18n", `${lang}.json`), "utf8"));
