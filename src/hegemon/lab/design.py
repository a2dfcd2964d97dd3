"""The game metrics a designer expects (issue 27 item 3), per game from a per-decision *lead signal*.

Each game's measures module names its lead signal, `lead_scores(state)`: every seat's standing by the game's own
score (Polis: population + prestige + posterity, §9.2; S.P.Q.RisiKo!: victory points). The lab samples it at
every decision (a state where a player, not chance, acts) and once more at the end, with the number of legal
actions at each decision, and reduces the series to a few numbers per game (`design_metrics`). The *leader* at a
point is the seat with the strictly highest score (none on a tie). The definitions follow Ludii's game
evaluation metrics (Browne 2008; Ludii's `Evaluation/src/metrics`) where they match:

- `completed`: 1 when the game reached an end its rules define (any way but the lab's action limit; Ludii's
  *Completion* also counts a draw as not completed, which here is a shared win);
- `decided_at`: the share of the game's decisions played before the eventual winner took the lead for good
  (leads at every later decision and at the end); 0 = led from the first decision, 1 = decided at the very
  end or won without leading on score (Polis: a starved capital). Like Ludii's *Decisiveness Moves* (the
  share of moves before a winner's evaluation passes what any loser reached), with the lead as the threshold.
  Games with a shared win have none;
- `lead_changes`: how many times the lead passed from one seat to another (a tie pauses the lead: it does not
  change it); Ludii's *Lead Change* counts the same changes (of the set of leaders) divided by the moves;
- `drama`: the most the eventual winner trailed the leader by, in the game's score (0: never behind); Ludii's
  *Drama Maximum* (the difference between the leading player's and the winner's evaluation);
- `behind_share`: the share of decisions at which the eventual winner was behind (Ludii's *Drama*, "number of
  moves where the eventual winner was behind", as a share);
- `margin`: the final score of the winner less the best other score (0 for a shared win; negative when the
  game was won otherwise than on score); Ludii's *Score Difference* at the end;
- `branching`: the mean number of legal actions per decision, forced ones included (Ludii's *Branching
  Factor*, average).

Duration (rounds, decisions) and the seat and first-player advantage (Ludii's *Balance* and *AdvantageP1*)
are the lab's own length and win rates."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from hegemon.core.game import State
from hegemon.games import get_game
from hegemon.lab import stats

# every per-game metric, in the report's order; `completed` is a rate, the others means
METRICS = ("completed", "decided_at", "lead_changes", "drama", "behind_share", "margin", "branching")
RATES = frozenset({"completed"})
INCOMPLETE = frozenset({"action_limit", "unfinished"})

# (name, one plain sentence) in English and Italian
WORDS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "rounds": (
        ("rounds per game", "round per partita"),
        ("How many rounds a game lasts.", "Quanti round dura una partita."),
    ),
    "decisions": (
        ("decisions per game", "decisioni per partita"),
        (
            "How many choices the players make in a game, forced ones included.",
            "Quante scelte fanno i giocatori in una partita, comprese quelle obbligate.",
        ),
    ),
    "completed": (
        ("games completed", "partite concluse"),
        (
            "The share of games that reach an end the rules define, rather than being cut off by the "
            "lab's action limit.",
            "La quota di partite che arrivano a una fine prevista dalle regole, invece di essere "
            "interrotte dal limite di azioni del laboratorio.",
        ),
    ),
    "decided_at": (
        ("decided at (share of the game)", "decisa a (quota della partita)"),
        (
            "How far into the game the eventual winner takes the lead for good: 0 means from the "
            "first move, 1 means only at the very end.",
            "A che punto della partita il vincitore prende il comando per non lasciarlo più: 0 vuol dire "
            "dalla prima mossa, 1 solo alla fine.",
        ),
    ),
    "lead_changes": (
        ("lead changes per game", "cambi di comando per partita"),
        (
            "How many times the lead on score passes from one player to another.",
            "Quante volte il comando nel punteggio passa da un giocatore a un altro.",
        ),
    ),
    "drama": (
        ("drama (winner's worst deficit)", "dramma (massimo svantaggio del vincitore)"),
        (
            "The most points the eventual winner was ever behind the leader.",
            "Il massimo numero di punti di cui il vincitore è stato dietro al primo.",
        ),
    ),
    "behind_share": (
        ("winner behind (share of decisions)", "vincitore in svantaggio (quota di decisioni)"),
        (
            "The share of the game the eventual winner spent behind on score.",
            "La quota di partita che il vincitore ha passato in svantaggio nel punteggio.",
        ),
    ),
    "margin": (
        ("final score margin", "scarto finale di punteggio"),
        (
            "How many points the winner finishes ahead of the best other player.",
            "Di quanti punti il vincitore chiude davanti al migliore degli altri.",
        ),
    ),
    "branching": (
        ("branching factor", "fattore di ramificazione"),
        (
            "How many legal moves a player has to choose from, on average.",
            "Tra quante mosse legali sceglie in media un giocatore.",
        ),
    ),
    "seat": (
        ("seat advantage", "vantaggio del posto"),
        (
            "How often each seat wins, a tie a share of a win; an even game gives each the same share.",
            "Quanto spesso vince ciascun posto, un pareggio una quota di vittoria; in un gioco equilibrato "
            "ogni posto ha la stessa quota.",
        ),
    ),
    "first_player": (
        ("first player's win rate", "vittorie del primo giocatore"),
        ("How often the player who moves first wins.", "Quanto spesso vince chi muove per primo."),
    ),
}


def name(key: str, lang: str = "en") -> str:
    return WORDS[key][0][1 if lang == "it" else 0]


def explain(key: str, lang: str = "en") -> str:
    return WORDS[key][1][1 if lang == "it" else 0]


def _leader(scores: Sequence[float]) -> int | None:
    """The seat with the strictly highest score; None on a tie for the top."""
    if not scores:
        return None
    top = max(scores)
    leaders = [j for j, s in enumerate(scores) if s == top]
    return leaders[0] if len(leaders) == 1 else None


def design_metrics(
    leads: Sequence[Sequence[float]],
    legal: Sequence[int],
    final: Sequence[float] | None,
    winners: Sequence[int],
    outcome_scores: Sequence[float],
    termination: str,
) -> dict[str, Any]:
    """The per-game metrics (see the module) from the lead signal at each decision (`leads`, one score per seat),
    the legal actions at each decision, the signal at the end (`final`), the winners, the final scores of the
    outcome and how the game ended. Metrics that a game cannot give are None."""
    points = [list(map(float, x)) for x in leads] + ([list(map(float, final))] if final is not None else [])
    leaders = [_leader(p) for p in points]
    changes = 0
    last: int | None = None
    for who in leaders:
        if who is None:
            continue
        if last is not None and who != last:
            changes += 1
        last = who
    out: dict[str, Any] = {
        "completed": 0 if termination in INCOMPLETE else 1,
        "decided_at": None,
        "lead_changes": changes,
        "drama": None,
        "behind_share": None,
        "margin": None,
        "branching": sum(legal) / len(legal) if legal else None,
    }
    decisions = len(leads)
    if len(winners) == 1 and points:
        w = winners[0]
        t = len(points)  # the first point from which w leads at every later one
        while t > 0 and leaders[t - 1] == w:
            t -= 1
        if decisions:
            out["decided_at"] = min(t, decisions) / decisions
            out["behind_share"] = sum(1 for p in points[:decisions] if p[w] < max(p)) / decisions
        out["drama"] = max(max(p) - p[w] for p in points)
    if outcome_scores and winners and termination not in INCOMPLETE:
        others = [s for j, s in enumerate(outcome_scores) if j not in winners]
        best = min(float(outcome_scores[j]) for j in winners)
        out["margin"] = best - max(others) if others else 0.0
    return out


LeadFn = Callable[[State], Sequence[float]]


def lead_for(game: str) -> LeadFn | None:
    """The game's lead signal (`lead_scores` in its measures module), None for a game without one."""
    g = get_game(game)
    lab = g.roles.lab()
    return None if lab is None else lab.lead_scores


class Tracker:
    """Fed each decision's state by the lab's play loop (`sweep.play_measured`): the lead signal and the number of
    legal actions; `result` gives the game's metrics."""

    def __init__(self, lead: LeadFn | None) -> None:
        self.lead = lead
        self.leads: list[list[float]] = []
        self.legal: list[int] = []

    def decision(self, state: State) -> None:
        self.legal.append(len(state.legal_actions()))
        if self.lead is not None:
            self.leads.append([float(x) for x in self.lead(state)])

    def result(self, state: State) -> dict[str, Any]:
        out = state.outcome()
        final = [float(x) for x in self.lead(state)] if self.lead is not None else None
        if self.lead is None:
            m = design_metrics(
                [], self.legal, None, [], [], out.termination if out is not None else "unfinished"
            )
            return {k: m[k] for k in ("completed", "branching")}
        return design_metrics(
            self.leads,
            self.legal,
            final,
            list(out.winners) if out is not None else [],
            list(out.scores) if out is not None else [],
            str(out.termination) if out is not None else "unfinished",
        )


def summarise(metrics: Sequence[dict[str, Any] | None], deals: Sequence[Hashable]) -> dict[str, Any]:
    """Per variant: each metric's mean (a rate for `completed`) over the games that have it, with its 95% interval
    clustered by deal (`stats.mean_ci`, `stats.rate_of`); empty for records from before the metrics were kept."""
    out: dict[str, Any] = {}
    for key in METRICS:
        pairs = [
            (float(m[key]), d) for m, d in zip(metrics, deals, strict=True) if m and m.get(key) is not None
        ]
        if not pairs:
            continue
        xs, ds = [x for x, _ in pairs], [d for _, d in pairs]
        out[key] = stats.rate_of(xs, ds) if key in RATES else stats.mean_ci(xs, ds)
    return out
