// Run the client's i18n.js and reasons.js under Node (no browser, no DOM: the modules touch none on import):
// argv[2] = JSON {lang, game, texts, calls}. Prints JSON {reasons, matched, calls, templates} for
// tests/server/test_reasons.py.
const input = JSON.parse(process.argv[2]);
const web = new URL(input.web);
const i18n = await import(new URL("js/i18n.js", web));
const reasons = await import(new URL("js/reasons.js", web));
i18n.setLang(input.lang);
const out = {
  reasons: input.texts.map((x) => reasons.reasonText(input.game, x)),
  matched: input.texts.map((x) => (reasons.matchReason(x, input.game) || {}).id || null),
  calls: input.calls.map(([k, v]) => i18n.t(k, v)),
  templates: reasons.TEMPLATES,
};
console.log(JSON.stringify(out));
