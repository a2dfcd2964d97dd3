"""What a designer reads first: the lab's findings (plain sentences, each with its effect size, 95% interval
and test), its warnings (when a comparison cannot tell), the games needed to detect a 5-point change in the
main rates, and the human names of the measures in English and Italian.

Everything here reads a summary (`report.summarise`) only, so it can be tested on synthetic summaries."""

from __future__ import annotations

import functools
from typing import Any

from hegemon.core.errors import ConfigError
from hegemon.core.game import Game
from hegemon.games import game_names, get_game
from hegemon.lab import design, stats

LANGS = ("en", "it")

# human names of the measures every game has (each game's own are in its measures module: `NAMES`), and of the rates
MEASURE_NAMES: dict[str, tuple[str, str]] = {
    "length": ("game length (turns or rounds)", "durata della partita (turni o round)"),
    # the designer's metrics (`lab.design`)
    **{k: words[0] for k, words in design.WORDS.items()},
}
RATE_NAMES: dict[str, tuple[str, str]] = {
    "first_player": ("the first player's win rate", "il tasso di vittoria del primo giocatore"),
    "skill": ("the stronger bot's win rate", "il tasso di vittoria del bot più forte"),
}
NEAR_ZERO = 0.1  # per game
# how a game ended (`core.game.Termination`), in words
TERMINATION_NAMES: dict[str, tuple[str, str]] = {
    "vp_target": ("the VP target", "obiettivo di punti vittoria"),
    "round_limit": ("the round limit", "limite di round"),
    "action_limit": ("the action limit", "limite di azioni"),
    "elimination": ("elimination", "eliminazione"),
    "prestige": ("prestige", "prestigio"),
    "conquest": ("conquest", "conquista"),
    "end_of_rounds": ("the end of the last round", "fine dell'ultimo round"),
    "score": ("score", "punteggio"),
    "unfinished": ("unfinished", "non finita"),
}
REASON_NAMES: dict[str, tuple[str, str]] = {
    "elimination": ("elimination", "eliminazione"),
    "prestige": ("prestige", "prestigio"),
    "conquest": ("conquest", "conquista"),
}


@functools.cache
def game_words() -> tuple[
    dict[str, tuple[str, str]],
    dict[str, tuple[str, str]],
    dict[str, tuple[str, ...]],
    dict[str, tuple[str, str]],
]:
    """The lab's words of every registered game, from each game's measures module: (measure names, option value
    names, the measures each option switch is about, end reasons), each name as (English, Italian)."""
    names, reasons = dict(MEASURE_NAMES), dict(REASON_NAMES)
    values: dict[str, tuple[str, str]] = {}
    switches: dict[str, tuple[str, ...]] = {}
    for name in game_names():
        game = get_game(name)
        words = game.roles.lab()
        if words is None:
            continue
        names.update(words.names)
        values.update(words.value_names)
        switches.update(words.switch_measures)
        reasons.update(words.reason_names)
    return names, values, switches, reasons


def _i(lang: str) -> int:
    return LANGS.index(lang) if lang in LANGS else 0


def measure_name(key: str, lang: str = "en") -> str:
    pair = game_words()[0].get(key)
    return pair[_i(lang)] if pair else key.replace("_", " ")


def _game(name: str) -> Game | None:
    """The registered game of a summary (None for a name no game has: a summary from elsewhere)."""
    try:
        return get_game(name)
    except ConfigError:
        return None


def side_names(game: str) -> tuple[tuple[str, str], ...]:
    """The game's named sides, (English, Italian) per seat; empty when seats are only numbered."""
    g = _game(game)
    return g.side_names if g is not None else ()


def seat_name(game: str, seat: int, lang: str = "en") -> str:
    sides = side_names(game)
    if sides and seat < len(sides):
        return sides[seat][_i(lang)]
    return f"{'seat' if lang == 'en' else 'posto'} {seat}"


def seat_rate_name(game: str, seat: int, lang: str = "en") -> str:
    who = seat_name(game, seat, lang)
    if lang == "it":
        return f"il tasso di vittoria di {who}" if side_names(game) else f"il tasso di vittoria del {who}"
    if side_names(game):
        return f"{who}' win rate" if who.endswith("s") else f"{who}'s win rate"
    return f"the win rate of {who}"


def variant_name(summary: dict[str, Any], v: int, lang: str = "en") -> str:
    """A variant by its option values in words ("Diceless Sacrifice"), or its label."""
    entry = summary["variants"][v]
    opts = entry.get("options") or {}
    label = str(entry.get("label", v))
    if v == 0 and len(summary["variants"]) > 1 and label.startswith("baseline"):
        words = [game_words()[1].get(str(x), (f"{k}={x}", f"{k}={x}"))[_i(lang)] for k, x in opts.items()]
        return ("baseline" if lang == "en" else "riferimento") + (f" ({', '.join(words)})" if words else "")
    if v > 0 and len(opts) > 0 and label.count("=") == 1:
        key, _, value = label.partition("=")
        if key in opts:
            return game_words()[1].get(value, (label, label))[_i(lang)]
    if len(opts) == 1:
        (value,) = opts.values()
        return game_words()[1].get(str(value), (label, label))[_i(lang)]
    return label


# --------------------------------------------------------------------------- numbers in words


def _num(x: float, lang: str, digits: int = 2) -> str:
    s = f"{x:.{digits}f}"
    return s.replace(".", ",") if lang == "it" else s


def _signed(x: float, lang: str, digits: int = 2) -> str:
    s = f"{x:+.{digits}f}".replace("-", "−")
    return s.replace(".", ",") if lang == "it" else s


def _pct(x: float, lang: str) -> str:
    return _num(100 * x, lang, 1) + "%"


def _p(p: float, lang: str) -> str:
    if p < 0.001:
        return "p < " + _num(0.001, lang, 3)
    return "p = " + (f"{p:.2g}".replace(".", ",") if lang == "it" else f"{p:.2g}")


def _ci(lo: float, hi: float, lang: str, fmt: Any) -> str:
    word = "95% CI" if lang == "en" else "IC 95%"
    sep = " to " if lang == "en" else " a "
    return f"{word} {fmt(lo)}{sep}{fmt(hi)}"


TEST_NAMES = {
    "paired_cluster_t": ("paired t-test clustered by deal", "test t appaiato raggruppato per distribuzione"),
    "mcnemar_exact": ("McNemar's exact test", "test esatto di McNemar"),
    "paired_t": ("paired t-test", "test t appaiato"),
}


def test_name(name: str, lang: str = "en") -> str:
    """A test's name in words."""
    return TEST_NAMES.get(name, (name, name))[_i(lang)]


def _p_of(c: dict[str, Any]) -> float:
    """The p-value a finding goes by: adjusted for the report's many tests (`adjust_tests`) when it is."""
    p = c.get("p_adjusted")
    return float(c["p_value"] if p is None else p)


def _test(c: dict[str, Any], lang: str) -> str:
    """ "paired t-test clustered by deal, Holm-adjusted p = 0.03" (the raw p when no adjustment was made)."""
    name = test_name(c["test"], lang)
    if c.get("p_adjusted") is None:
        return f"{name} {_p(c['p_value'], lang)}"
    method = stats.MULTIPLE_TESTING_NAMES.get(c.get("p_method", stats.MULTIPLE_TESTING), ("Holm", "Holm"))[
        _i(lang)
    ]
    word = f"{method}-adjusted" if lang == "en" else f"corretto ({method})"
    return f"{name}, {word} {_p(c['p_adjusted'], lang)}"


# --------------------------------------------------------------------------- findings


def _rate_change(name: str, before: float | None, c: dict[str, Any], lang: str) -> str:
    """ "Sparta's win rate 80.0% → 75.0% (−5.0 points, 95% CI …, paired t-test clustered by deal, Holm-adjusted
    p = 0.2): no clear change"."""
    pts = "points" if lang == "en" else "punti"
    after = None if before is None else before + c["diff"]
    head = (
        f"{name} {_pct(before, lang)} → {_pct(after, lang)}"
        if before is not None and after is not None
        else name
    )
    body = (
        f"{_signed(100 * c['diff'], lang, 1)} {pts}, "
        f"{_ci(c['low'], c['high'], lang, lambda x: _signed(100 * x, lang, 1))}, "
        f"{_test(c, lang)}"
    )
    return f"{head} ({body}){_verdict(_p_of(c), lang)}"


def _verdict(p: float, lang: str) -> str:
    if p < 0.05:
        return ""
    return ": no clear change" if lang == "en" else ": nessun cambiamento chiaro"


def _mean_change(key: str, before: float | None, c: dict[str, Any], lang: str) -> str:
    """ "sieges taken per game 2.30 → 1.10 (−52%, 95% CI −1.50 to −0.90, paired t-test clustered by deal,
    Holm-adjusted p < 0.001)"."""
    name = measure_name(key, lang)
    d = c["diff"]
    rel = ""
    if before:
        rel = f"{_signed(100 * d / before, lang, 0)}%, "
    elif d:
        rel = "from zero, " if lang == "en" else "da zero, "
    head = f"{name} {_num(before, lang)} → {_num(before + d, lang)}" if before is not None else name
    body = f"{rel}{_ci(c['low'], c['high'], lang, lambda x: _signed(x, lang))}, {_test(c, lang)}"
    return f"{head} ({body}){_verdict(_p_of(c), lang)}"


def _ending_name(kind: str, lang: str) -> str:
    word = TERMINATION_NAMES.get(kind, (kind.replace("_", " "), kind.replace("_", " ")))[_i(lang)]
    return f"games ending by {word}" if lang == "en" else f"partite finite per {word}"


def _first_player(
    summary: dict[str, Any], v: dict[str, Any], r: dict[str, Any], n_players: int, lang: str
) -> str:
    """ "Baseline: the first player wins 31.0% of games (95% CI …, Wilson, 200 games); an even share is 25.0%"."""
    where = variant_name(summary, v["variant"], lang)
    fair = 1 / n_players
    ci = _ci(r["low"], r["high"], lang, lambda x: _pct(x, lang))
    even = r["low"] <= fair <= r["high"]
    if lang == "en":
        tail = (
            f", consistent with an even share ({_pct(fair, lang)})."
            if even
            else f"; an even share is {_pct(fair, lang)}."
        )
        s = f"{where}: the first player wins {_pct(r['rate'], lang)} of games ({ci}, Wilson, {r['n']} games){tail}"
    else:
        tail = (
            f", compatibile con una quota equa ({_pct(fair, lang)})."
            if even
            else f"; una quota equa è {_pct(fair, lang)}."
        )
        s = f"{where}: il primo giocatore vince il {_pct(r['rate'], lang)} delle partite ({ci}, Wilson, {r['n']} partite){tail}"
    return s[0].upper() + s[1:]


def _endings(summary: dict[str, Any], v: dict[str, Any], lang: str) -> str:
    """ "Baseline: games end by the VP target 92.0% (95% CI …) and by the round limit 8.0% (…)"."""
    where = variant_name(summary, v["variant"], lang)
    ends = sorted((v.get("endings") or {}).items(), key=lambda ke: -(ke[1].get("rate") or 0))
    word = TERMINATION_NAMES
    items = [
        f"{word.get(k, (k, k))[_i(lang)]} {_pct(e['rate'], lang)} ({_ci(e['low'], e['high'], lang, lambda x: _pct(x, lang))})"
        for k, e in ends
        if e.get("rate") is not None
    ]
    if len(items) == 1:
        head = "every game ends by " if lang == "en" else "ogni partita finisce per "
    else:
        head = "games end by " if lang == "en" else "le partite finiscono per "
    s = f"{where}: {head}{_where(items, lang)}" + (
        f", Wilson, {v['games']} games." if lang == "en" else f", Wilson, {v['games']} partite."
    )
    return s[0].upper() + s[1:]


def findings(summary: dict[str, Any], lang: str = "en") -> list[str]:
    """Plain sentences: for each variant against the baseline, every measure that changed clearly (p < 0.05)
    and the side/seat win rates whether or not they changed; for the baseline, who wins and how often."""
    out: list[str] = []
    adjust_tests(summary)  # findings go by the p-values adjusted for the report's many tests
    game = summary.get("game", "")
    vs = summary.get("variants") or []
    played = [v for v in vs if v.get("games")]
    if not played:
        return out
    base = played[0]
    n_players = summary.get("players") or len(base.get("seat_win_rate") or [])
    # the baseline: seat advantage and the bots' gap
    seats = base.get("seat_win_rate") or []
    if seats:
        best = max(range(len(seats)), key=lambda j: seats[j]["rate"] or 0)
        r = seats[best]
        fair = 1 / max(1, n_players)
        where = variant_name(summary, base["variant"], lang)
        if lang == "en":
            s = (
                f"{where}: {seat_rate_name(game, best, lang)} is {_pct(r['rate'], lang)} "
                f"({_ci(r['low'], r['high'], lang, lambda x: _pct(x, lang))}, Wilson, {r['n']} games)"
            )
            s += (
                f"; an even game would give {_pct(fair, lang)}."
                if not (r["low"] <= fair <= r["high"])
                else f", consistent with an even game ({_pct(fair, lang)})."
            )
        else:
            s = (
                f"{where}: {seat_rate_name(game, best, lang)} è {_pct(r['rate'], lang)} "
                f"({_ci(r['low'], r['high'], lang, lambda x: _pct(x, lang))}, Wilson, {r['n']} partite)"
            )
            s += (
                f"; un gioco equilibrato darebbe {_pct(fair, lang)}."
                if not (r["low"] <= fair <= r["high"])
                else f", compatibile con un gioco equilibrato ({_pct(fair, lang)})."
            )
        out.append(s[0].upper() + s[1:])
    fp = base.get("first_player_win_rate")
    if n_players > 2 and fp and fp.get("rate") is not None:
        # with two sides the side's rate says it; with more seats, who moves first is its own question
        out.append(_first_player(summary, base, fp, n_players, lang))
    if base.get("endings"):
        out.append(_endings(summary, base, lang))
    for e in base.get("luck_vs_skill") or []:
        r = e.get("skill_rate")
        if not r or r.get("rate") is None or e.get("stronger") == e.get("weaker"):
            continue  # the same bot twice: no skill to compare
        if lang == "en":
            out.append(
                f"{e['stronger']} beats {e['weaker']} in {_pct(r['rate'], lang)} of games "
                f"({_ci(r['low'], r['high'], lang, lambda x: _pct(x, lang))}, Wilson, {r['n']} games)."
            )
        else:
            out.append(
                f"{e['stronger']} batte {e['weaker']} nel {_pct(r['rate'], lang)} delle partite "
                f"({_ci(r['low'], r['high'], lang, lambda x: _pct(x, lang))}, Wilson, {r['n']} partite)."
            )
    for c in summary.get("comparisons") or []:
        v = c["variant"]
        name = variant_name(summary, v, lang)
        against = variant_name(summary, 0, lang)
        if str(vs[0].get("label", "")).startswith("baseline"):
            # several switches: the baseline's values are spelled out once, in its own findings
            against = "the baseline" if lang == "en" else "al riferimento"
        parts: list[str] = []
        base_measures = base.get("measures") or {}
        changed = [
            (k, m)
            for k, m in (c.get("measures") or {}).items()
            if m.get("diff") is not None and _p_of(m) < 0.05
        ]
        changed.sort(key=lambda km: _p_of(km[1]))
        for k, m in changed:
            parts.append(_mean_change(k, (base_measures.get(k) or {}).get("mean"), m, lang))
        base_design = base.get("design") or {}
        for k, m in sorted((c.get("design") or {}).items(), key=lambda km: _p_of(km[1])):
            if m.get("diff") is None or _p_of(m) >= 0.05:
                continue
            before = (base_design.get(k) or {}).get("rate" if k in design.RATES else "mean")
            parts.append(
                _rate_change(measure_name(k, lang), before, m, lang)
                if k in design.RATES
                else _mean_change(k, before, m, lang)
            )
            changed.append((k, m))
        ln = c.get("length")
        if ln and ln.get("diff") is not None and _p_of(ln) < 0.05:
            parts.append(
                _mean_change(
                    "length", (base.get("length") or {}).get("turns_or_rounds", {}).get("mean"), ln, lang
                )
            )
        base_ends = base.get("endings") or {}
        for kind, e in sorted((c.get("endings") or {}).items(), key=lambda ke: _p_of(ke[1])):
            if _p_of(e) < 0.05:
                parts.append(
                    _rate_change(
                        _ending_name(kind, lang), (base_ends.get(kind) or {}).get("rate", 0.0), e, lang
                    )
                )
        f = c.get("first_player_win_rate")
        if n_players > 2 and f and _p_of(f) < 0.05:
            parts.append(
                _rate_change(
                    RATE_NAMES["first_player"][_i(lang)],
                    (base.get("first_player_win_rate") or {}).get("rate"),
                    f,
                    lang,
                )
            )
        seat_changes = c.get("seat_win_rate") or []
        # two sides: one seat's rate says it all (the other is its complement but for draws)
        shown = seat_changes[1:2] if n_players == 2 else seat_changes
        for e in shown:
            j = e["seat"]
            parts.append(
                _rate_change(
                    seat_rate_name(game, j, lang), seats[j]["rate"] if j < len(seats) else None, e, lang
                )
            )
        if not changed:
            parts.append(
                "no game measure changed clearly (all adjusted p ≥ 0.05)"
                if lang == "en"
                else "nessuna misura di gioco è cambiata chiaramente (tutti i p corretti ≥ 0,05)"
            )
        vs_word = "against" if lang == "en" else ("rispetto" if against == "al riferimento" else "rispetto a")
        out.append(f"{name} {vs_word} {against}: " + "; ".join(parts) + ".")
    return out


# --------------------------------------------------------------------------- games needed


def games_for_change(p: float, delta: float = 0.05, deff: float = 1.0) -> int:
    """Games per variant to detect a change of `delta` in a rate `p` with independent samples (see
    `stats.games_for_change`)."""
    return stats.games_for_change(p, delta, deff)


def _paired_need(summary: dict[str, Any], pick: Any) -> int | None:
    """The games per variant a paired comparison needs, from the spread of the per-deal differences that this
    run's comparisons show for one rate (`pick(comparison)` gives its test entry): the largest over variants."""
    out: list[int] = []
    for c in summary.get("comparisons") or []:
        e = pick(c)
        if e and e.get("sd_deal") and e.get("deals"):
            n = stats.games_paired(e["sd_deal"], max(1, round(e["pairs"] / e["deals"])))
            if n is not None:
                out.append(n)
    return max(out) if out else None


def games_needed(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """The games per variant needed to detect a 5-point change in each main rate of the baseline: `games_paired`
    from this run's per-deal differences between variants (when it compares any), `games_independent` for
    unpaired games (with the design effect of the clustering by deal), and `games`, the first of them known."""
    played = [v for v in summary.get("variants") or [] if v.get("games")]
    if not played:
        return []
    base = played[0]
    game = summary.get("game", "")
    out = []

    def item(r: dict[str, Any], pick: Any, **kw: Any) -> dict[str, Any]:
        ind = games_for_change(r["rate"], deff=r.get("design_effect", 1.0))
        paired = _paired_need(summary, pick)
        return {
            **kw,
            "value": r["rate"],
            "games_paired": paired,
            "games_independent": ind,
            "games": paired if paired is not None else ind,
        }

    def seat_entry(c: dict[str, Any], j: int) -> dict[str, Any] | None:
        return next((e for e in c.get("seat_win_rate") or [] if e.get("seat") == j), None)

    seats = base.get("seat_win_rate") or []
    for j, r in enumerate(seats[: 1 if len(seats) == 2 else len(seats)]):
        if r.get("rate") is not None:
            out.append(
                item(
                    r,
                    lambda c, j=j: seat_entry(c, j),
                    rate="seat",
                    seat=j,
                    name=seat_rate_name(game, j),
                    name_it=seat_rate_name(game, j, "it"),
                )
            )
    fp = base.get("first_player_win_rate")
    if fp and fp.get("rate") is not None:
        out.append(
            item(
                fp,
                lambda c: c.get("first_player_win_rate"),
                rate="first_player",
                name=RATE_NAMES["first_player"][0],
                name_it=RATE_NAMES["first_player"][1],
            )
        )
    for e in base.get("luck_vs_skill") or []:
        r = e.get("skill_rate")
        if r and r.get("rate") is not None and e.get("stronger") != e.get("weaker"):
            out.append(
                item(
                    r,
                    lambda c, p=e["pair"]: next(
                        (x for x in c.get("skill_rate") or [] if x["pair"] == p), None
                    ),
                    rate="skill",
                    pair=e["pair"],
                    name=f"{e['stronger']} beats {e['weaker']}",
                    name_it=f"{e['stronger']} batte {e['weaker']}",
                )
            )
    return out


def adjust_tests(summary: dict[str, Any], method: str = stats.MULTIPLE_TESTING) -> dict[str, Any]:
    """Adjust every test of the summary's comparisons with the baseline together for multiple testing (Holm by
    default): each test entry gets `p_adjusted` (and `p_method`), the summary `multiple_testing`."""
    entries: list[dict[str, Any]] = []
    for c in summary.get("comparisons") or []:
        entries += list(c.get("skill_rate") or []) + list(c.get("seat_win_rate") or [])
        if c.get("first_player_win_rate"):
            entries.append(c["first_player_win_rate"])
        entries += list((c.get("endings") or {}).values())
        if c.get("length"):
            entries.append(c["length"])
        entries += [m for m in (c.get("measures") or {}).values() if m.get("diff") is not None]
        entries += [m for m in (c.get("design") or {}).values() if m.get("diff") is not None]
    for e, p in zip(entries, stats.adjust([e["p_value"] for e in entries], method), strict=True):
        e["p_adjusted"] = p
        e["p_method"] = method
    summary["multiple_testing"] = {
        "method": method,
        "name": stats.MULTIPLE_TESTING_NAMES[method][0],
        "tests": len(entries),
        "alpha": stats.ALPHA,
    }
    return summary


# --------------------------------------------------------------------------- warnings

WARNING_TEXT: dict[str, tuple[str, str]] = {
    "dominant_bot": (
        "{where}: {bot} wins {rate} of its games. When one bot wins nearly every game, the result measures the "
        "gap between the bots, not the rule; pair bots of closer strength (for example the same bot twice).",
        "{where}: {bot} vince il {rate} delle sue partite. Quando un bot vince quasi sempre, il risultato misura "
        "la distanza tra i bot, non la regola; fai giocare bot di forza simile (per esempio lo stesso bot due volte).",
    ),
    "short_games": (
        "{where}: {rate} of games end before the last round ({reasons}). A rule that acts over the whole game "
        "cannot show its effect in games that stop early.",
        "{where}: il {rate} delle partite finisce prima dell'ultimo round ({reasons}). Una regola che agisce "
        "lungo tutta la partita non può mostrare il suo effetto in partite che finiscono presto.",
    ),
    "capped_games": (
        "{where}: {rate} of games were cut short by the round limit. The outcome of a capped game is decided by "
        "the cap, not by play; raise the limit or use bots that finish.",
        "{where}: il {rate} delle partite è stato interrotto dal limite di round. L'esito di una partita "
        "interrotta lo decide il limite, non il gioco; alza il limite o usa bot che concludono.",
    ),
    "variant_measure_zero": (
        "{where}: {measure} is {value} — the {switch} switch this comparison is about hardly happens, so its "
        "effect cannot be measured with these bots.",
        "{where}: {measure} vale {value}: l'opzione {switch} su cui verte il confronto quasi non entra in gioco, "
        "quindi con questi bot il suo effetto non si può misurare.",
    ),
    "seat_imbalance": (
        "{where}: {seat} wins {rate} of games ({ci}); the seats are far from even, which can hide or mimic a "
        "rule's effect.",
        "{where}: {seat} vince il {rate} delle partite ({ci}); i posti sono molto squilibrati, il che può "
        "nascondere o simulare l'effetto di una regola.",
    ),
    "too_few_games": (
        "{games} games per variant: no difference from the baseline is clear (all adjusted p ≥ 0.05), and "
        "detecting a 5-point change in {rate} needs about {needed} games per variant. Run more games before "
        "concluding that the variants play alike.",
        "{games} partite per variante: nessuna differenza dal riferimento è chiara (tutti i p corretti ≥ 0,05), e "
        "per rilevare un cambiamento di 5 punti nel {rate} servono circa {needed} partite per variante. Gioca più "
        "partite prima di concludere che le varianti si equivalgono.",
    ),
    "same_bot_skill": (
        "{pairs}: both sides are played by one bot. Two copies of one bot have no stronger one, so no skill rate "
        "is given (whichever copy won more is noise). To measure skill, let bots of known, different strength "
        "meet: one search at increasing budgets, with greedy and random.",
        "{pairs}: entrambi i lati sono giocati dallo stesso bot. Due copie dello stesso bot non hanno un più "
        "forte, quindi non si dà un tasso di abilità (quale copia abbia vinto di più è rumore). Per misurare "
        "l'abilità fai incontrare bot di forza nota e diversa: la stessa ricerca a budget crescenti, con greedy "
        "e random.",
    ),
    "identical_rotations": (
        "{where}: {rate} of the deals were played move for move alike in both seat rotations (per variant: "
        "{shares}). The bots play the same game whoever sits where, so the dice share would measure how "
        "deterministic the bots are, not the dice: it is withheld there.",
        "{where}: nel {rate} delle distribuzioni le due rotazioni dei posti sono state giocate mossa per mossa "
        "uguali (per variante: {shares}). I bot giocano la stessa partita chiunque sieda dove, quindi la quota "
        "dei dadi misurerebbe quanto sono deterministici i bot, non i dadi: lì non è data.",
    ),
}
IDENTICAL_SHARE = 0.05  # identical seat rotations from this share of deals on: the dice share is withheld
DOMINANT = 0.95
SEAT_GAP = 0.20  # a seat's rate this far above 1/n, with its interval excluding 1/n


def _warn(code: str, lang: str, **kw: Any) -> str:
    return WARNING_TEXT[code][_i(lang)].format(**kw)


def _where(names: list[str], lang: str) -> str:
    if len(names) == 1:
        return names[0]
    last = " and " if lang == "en" else " e "
    return ", ".join(names[:-1]) + last + names[-1]


def _span(rates: list[float], lang: str) -> str:
    lo, hi = min(rates), max(rates)
    return _pct(lo, lang) if abs(hi - lo) < 5e-4 else f"{_pct(lo, lang)}–{_pct(hi, lang)}"


def warnings(summary: dict[str, Any], lang: str = "en") -> list[tuple[str, str]]:
    """(code, sentence) of every warning that applies; empty when none does. A rule that fires in several
    variants gives one sentence naming them all."""
    out: list[tuple[str, str]] = []
    adjust_tests(summary)  # warnings go by the adjusted p-values
    game = summary.get("game", "")
    known = _game(game)
    fixed_length = known is not None and known.ends_after_rounds
    played = [v for v in summary.get("variants") or [] if v.get("games")]
    n_players = summary.get("players") or 0
    dominant: dict[str, list[tuple[str, float]]] = {}
    short: list[tuple[str, float, dict[str, float]]] = []
    capped_in: list[tuple[str, float]] = []
    seat_off: dict[int, list[tuple[str, float, float, float]]] = {}
    for v in played:
        where = variant_name(summary, v["variant"], lang)
        for b in v.get("bot_win_rate") or []:
            if b.get("rate") is not None and b["rate"] >= DOMINANT and b["n"] >= 10:
                dominant.setdefault(b["bot"], []).append((where, b["rate"]))
                break
        endings = v.get("endings") or {}
        if "end_of_rounds" in endings or fixed_length:
            early = 1 - (endings.get("end_of_rounds") or {}).get("rate", 0.0)
            if early > 0.5:
                why = {
                    k: e["rate"]
                    for k, e in (v.get("end_reasons") or endings).items()
                    if k not in ("final", "end_of_rounds")
                }
                short.append((where, early, why))
        capped = sum(
            (endings.get(k) or {}).get("rate", 0.0) for k in ("round_limit", "action_limit", "unfinished")
        )
        if capped > 0.5:
            capped_in.append((where, capped))
        seats = v.get("seat_win_rate") or []
        if n_players >= 2 and seats:
            fair = 1 / n_players
            for j, r in enumerate(seats):
                if r.get("rate") is not None and r["rate"] - fair >= SEAT_GAP and r["low"] > fair:
                    seat_off.setdefault(j, []).append((where, r["rate"], r["low"], r["high"]))
                    break
    same = list(
        dict.fromkeys(
            " vs ".join(e["bots"]) for v in played for e in v.get("luck_vs_skill") or [] if e.get("same_bot")
        )
    )
    if same:
        out.append(("same_bot_skill", _warn("same_bot_skill", lang, pairs=_where(same, lang))))
    ident = [
        (variant_name(summary, v["variant"], lang), v["identical_rotations"]["share"])
        for v in played
        if (v.get("identical_rotations") or {}).get("share") is not None
    ]
    hit = [(w, x) for w, x in ident if x >= IDENTICAL_SHARE]
    if hit:
        out.append(
            (
                "identical_rotations",
                _warn(
                    "identical_rotations",
                    lang,
                    where=_where([w for w, _ in hit], lang),
                    rate=_span([x for _, x in hit], lang),
                    shares=", ".join(f"{w} {_pct(x, lang)}" for w, x in ident),
                ),
            )
        )
    for bot, dom in dominant.items():
        out.append(
            (
                "dominant_bot",
                _warn(
                    "dominant_bot",
                    lang,
                    where=_where([w for w, _ in dom], lang),
                    bot=bot,
                    rate=_span([r for _, r in dom], lang),
                ),
            )
        )
    if short:
        reasons: dict[str, list[float]] = {}
        for _, _, rs in short:
            for k, x in rs.items():
                reasons.setdefault(k, []).append(x)
        text = ", ".join(
            f"{game_words()[3].get(k, (k, k))[_i(lang)]} {_span(x, lang)}" for k, x in sorted(reasons.items())
        )
        out.append(
            (
                "short_games",
                _warn(
                    "short_games",
                    lang,
                    where=_where([w for w, _, _ in short], lang),
                    rate=_span([e for _, e, _ in short], lang),
                    reasons=text,
                ),
            )
        )
    if capped_in:
        out.append(
            (
                "capped_games",
                _warn(
                    "capped_games",
                    lang,
                    where=_where([w for w, _ in capped_in], lang),
                    rate=_span([c for _, c in capped_in], lang),
                ),
            )
        )
    for j, hits in sorted(seat_off.items()):
        if len(hits) == 1:
            ci = _ci(hits[0][2], hits[0][3], lang, lambda x: _pct(x, lang))
        else:
            ci = (
                "95% Wilson intervals all above "
                if lang == "en"
                else "intervalli di Wilson al 95% tutti sopra il "
            ) + _pct(1 / n_players, lang)
        out.append(
            (
                "seat_imbalance",
                _warn(
                    "seat_imbalance",
                    lang,
                    where=_where([h[0] for h in hits], lang),
                    seat=seat_name(game, j, lang),
                    rate=_span([h[1] for h in hits], lang),
                    ci=ci,
                ),
            )
        )
    # the switches a compare varies, and the measures they are about
    if len(played) > 1:
        switches = {
            k
            for v in played[1:]
            for k, x in (v.get("options") or {}).items()
            if x != (played[0].get("options") or {}).get(k)
        }
        for key in sorted(switches):
            for mkey in game_words()[2].get(key, ()):
                present = [v for v in played if mkey in (v.get("measures") or {})]
                if not present:
                    continue
                for v in present:
                    mean = v["measures"][mkey].get("mean")
                    if mean is not None and mean < NEAR_ZERO:
                        out.append(
                            (
                                "variant_measure_zero",
                                _warn(
                                    "variant_measure_zero",
                                    lang,
                                    where=variant_name(summary, v["variant"], lang),
                                    measure=measure_name(mkey, lang),
                                    value=_num(mean, lang),
                                    switch=key,
                                ),
                            )
                        )
                break  # the first measure of the switch that the game records
        comps = summary.get("comparisons") or []
        if comps:
            ps = [
                _p_of(e) for c in comps for e in (c.get("seat_win_rate") or []) + (c.get("skill_rate") or [])
            ]
            ps += [
                _p_of(m)
                for c in comps
                for m in (c.get("measures") or {}).values()
                if m.get("diff") is not None
            ]
            need = games_needed(summary)
            main = max(need, key=lambda x: x["games"]) if need else None
            n = min(v["games"] for v in played)
            if ps and min(ps) >= 0.05 and main is not None and n < main["games"]:
                out.append(
                    (
                        "too_few_games",
                        _warn(
                            "too_few_games",
                            lang,
                            games=n,
                            needed=main["games"],
                            rate=main["name"] if lang == "en" else main["name_it"],
                        ),
                    )
                )
    return out


def annotate(summary: dict[str, Any]) -> dict[str, Any]:
    """Add `findings`, `warnings` (and their Italian `findings_it`, `warnings_it`, with `warning_codes`) and
    `games_needed` to a summary, in place, after adjusting its tests for multiple testing (`adjust_tests`);
    returns it."""
    summary["findings"] = findings(summary, "en")
    summary["findings_it"] = findings(summary, "it")
    w_en = warnings(summary, "en")
    summary["warnings"] = [t for _, t in w_en]
    summary["warning_codes"] = [c for c, _ in w_en]
    summary["warnings_it"] = [t for _, t in warnings(summary, "it")]
    summary["games_needed"] = games_needed(summary)
    return summary
