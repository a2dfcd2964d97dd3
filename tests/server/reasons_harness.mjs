// Run the client's i18n.js and reasons.js under Node (no browser, no DOM: the modules touch none on import):
// argv[2] = JSON {web, lang, game, errors, calls}, each error an illegal_action's {detail, args, reason}. Prints
// JSON {reasons, calls} for tests/server/test_reasons.py.
const input = JSON.parse(process.argv[2]);
const web = new URL(input.web);
const i18n = await import(new URL("js/i18n.js", web));
const reasons = await import(new URL("js/reasons.js", web));
i18n.setLang(input.lang);
const out = {
  reasons: input.errors.map((e) => reasons.reasonText(input.game, e)),
  calls: input.calls.map(([k, v]) => i18n.t(k, v)),
};
console.log(JSON.stringify(out));
