// The rules page's entry point (rules.html): the page's language, then the page.
import { initLang } from "./i18n.js";
import { rulesPage } from "./rules.js";

initLang();
rulesPage();
