// Run the client's i18n.js and reasons.js under Node (no browser): argv[2] = JSON {lang, game, texts, keys}.
// Prints JSON {reasons: [...translated texts], plurals: {key: text}} for tests/server/test_reasons.py.
const store = new Map();
globalThis.localStorage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, String(v)) };
globalThis.navigator = { languages: ["en"], language: "en" };
globalThis.document = { documentElement: {} };
const input = JSON.parse(process.argv[2]);
const web = new URL(input.web);
const i18n = await import(new URL("js/i18n.js", web));
await import(new URL("js/texts-show.js", web)); // more texts merged into the same dictionaries
const reasons = await import(new URL("js/reasons.js", web));
i18n.setLang(input.lang);
const out = {
  reasons: input.texts.map((x) => reasons.reasonText(input.game, x)),
  matched: input.texts.map((x) => (reasons.matchReason(x, input.game) || {}).id || null),
  calls: input.calls.map(([k, v]) => i18n.t(k, v)),
  templates: reasons.TEMPLATES,
};
console.log(JSON.stringify(out));
