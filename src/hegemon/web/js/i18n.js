// Interface texts in English and Italian. Place names stay as printed on the boards (they come from the maps).
// The dictionaries are JSON files (web/i18n/<lang>.json), imported as JSON modules: the browser and Node load
// them the same way, with no fetch before the app starts. Importing this module touches neither the page nor
// localStorage: a page entry point calls initLang() first (the saved choice, else the browser's language).
// t(key, vars) fills {name} placeholders; a missing Italian text falls back to English, then to the key.
import en from "../i18n/en.json" with { type: "json" };
import it from "../i18n/it.json" with { type: "json" };

export const DICTS = { en, it };

/** The language a page starts in: the one saved by the language button, else the browser's. */
export function preferredLang(saved, languages) {
  if (saved && DICTS[saved]) return saved;
  const nav = (languages && languages[0]) || "en";
  return String(nav).toLowerCase().startsWith("it") ? "it" : "en";
}

export let lang = "en";

/** Called once by each page entry point, before anything is drawn. */
export function initLang() {
  const nav = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  lang = preferredLang(localStorage.getItem("hegemon.lang"), nav);
  document.documentElement.lang = lang;
  return lang;
}

/** Switch the language (the language button); remembered in the browser when there is one. */
export function setLang(l) {
  lang = DICTS[l] ? l : "en";
  if (typeof localStorage !== "undefined") localStorage.setItem("hegemon.lang", lang);
  if (typeof document !== "undefined") document.documentElement.lang = lang;
}

export function has(key) {
  return key in DICTS[lang] || key in en;
}

const pluralRules = {};
/** The plural category of `n` in the current language ("one", "other"…), from Intl.PluralRules. */
export function pluralOf(n) {
  pluralRules[lang] ??= new Intl.PluralRules(lang);
  // a signed change ("+1", "\u22121") takes the form of its size
  const x = typeof n === "number" ? n : Number(String(n).replace(/[^\d.]/g, ""));
  return pluralRules[lang].select(Math.abs(x));
}

/** Expand "{n, plural, one {# die} other {# dice}}" (ICU style; "=0 {…}" matches exactly, # is the number). */
function plurals(s, vars) {
  let out = "";
  let i = 0;
  for (;;) {
    const m = /\{(\w+), plural,/g;
    m.lastIndex = i;
    const hit = m.exec(s);
    if (!hit) return out + s.slice(i);
    out += s.slice(i, hit.index);
    // the options run to the brace that closes this block
    let depth = 1;
    let j = m.lastIndex;
    for (; j < s.length && depth; j++) {
      if (s[j] === "{") depth++;
      else if (s[j] === "}") depth--;
    }
    const body = s.slice(m.lastIndex, j - 1);
    const forms = {};
    for (const f of body.matchAll(/\s*(=\d+|\w+)\s*\{([^{}]*)\}/g)) forms[f[1]] = f[2];
    const n = vars[hit[1]];
    const form = forms[`=${n}`] ?? forms[pluralOf(n)] ?? forms.other ?? "";
    out += form.replace(/#/g, String(n));
    i = j;
  }
}

let coarse = null;
/** A touch screen (no hover, a coarse pointer): its texts say "tap", not "click", and it shows no key hints. */
export function touch() {
  if (coarse === null) coarse = typeof matchMedia === "function" ? matchMedia("(hover: none) and (pointer: coarse)") : false;
  return Boolean(coarse && coarse.matches);
}

export function t(key, vars) {
  // a text that says "click" has a "key@touch" twin that says "tap"
  const tap = touch() ? DICTS[lang][`${key}@touch`] ?? en[`${key}@touch`] : undefined;
  let s = tap ?? DICTS[lang][key] ?? en[key] ?? key;
  if (vars) {
    if (s.includes(", plural,")) s = plurals(s, vars);
    s = s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
    // Italian euphony: the preposition "a" before a name that starts with a becomes "ad" ("ad Athinae")
    if (lang === "it") s = s.replace(/(^|\s)a (?=[AaÀà])/g, "$1ad ");
  }
  return s;
}

