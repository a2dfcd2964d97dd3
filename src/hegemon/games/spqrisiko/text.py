"""A readable text board for the terminal: VP table, your provinces with the threats against them, sea
control, power centres and your hand (Rich markup)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hegemon.core.roles import TextRole
from hegemon.games.spqrisiko.board import SYMBOLS
from hegemon.games.spqrisiko.scoring import NEUTRAL, sea_controller

if TYPE_CHECKING:
    from hegemon.core.actions import Action
    from hegemon.games.spqrisiko.state import SpqrState

COLOURS = ("red", "blue", "yellow", "green", "magenta")


def who(p: int) -> str:
    if p == NEUTRAL:
        return "[dim]neutral[/dim]"
    if p < 0:
        return "-"
    return f"[bold {COLOURS[p % 5]}]P{p + 1}[/]"


def render(state: SpqrState, player: int | None) -> str:
    """The board as `player` sees it (None: spectator)."""
    b = state.board
    lines: list[str] = []
    active = state.order[state.turn] if state.order else None
    lines.append(
        f"[bold]S.P.Q.RisiKo![/bold]  round {state.round}  ·  {state.phase_name()}"
        + (f"  ·  turn of {who(active)}" if active is not None else "")
        + (f"  ·  VP target {state.opts.vp_target}" if state.opts.vp_target else "")
    )
    lines.append("player  VP  prov  legion  trireme  cards")
    for p in range(state.n):
        prov = state.owner.count(p)
        leg = sum(a for a, o in zip(state.armies, state.owner, strict=True) if o == p)
        tri = sum(state.triremes[p])
        mark = " (you)" if p == player else ""
        dead = " [dim]eliminated[/dim]" if state.eliminated[p] else ""
        lines.append(
            f"{who(p)}     {state.vp[p]:>3}  {prov:>4}  {leg:>6}  {tri:>7}  {sum(state.hands[p]):>5}{mark}{dead}"
        )
    if player is not None and 0 <= player < state.n:
        hand = state.hands[player]
        lines.append(
            "your hand: " + (", ".join(f"{hand[i]} {SYMBOLS[i]}" for i in range(4) if hand[i]) or "no cards")
        )
        mine = [p for p in range(b.n_provinces) if state.owner[p] == player]
        if mine:
            lines.append("your provinces (legionaries; threat = enemy legionaries next door by land):")
            row = []
            for p in mine:
                threat = sum(state.armies[q] for q in b.land[p] if state.owner[q] not in (player,))
                pc = " ★" if state.power_centre[p] else ""
                t = f" [red]⚔{threat}[/red]" if threat else ""
                row.append(f"{b.province_names[p]} {state.armies[p]}{pc}{t}")
            for i in range(0, len(row), 4):
                lines.append("  " + "  ·  ".join(row[i : i + 4]))
    seas = []
    for s in range(b.n_seas):
        counts = [f"{who(p)}:{state.triremes[p][s]}" for p in range(state.n) if state.triremes[p][s]]
        if counts:
            c = sea_controller(state.triremes, s)
            ctrl = f" → {who(c)}" if c is not None else " (contested)"
            seas.append(f"{b.sea_names[s]} {' '.join(counts)}{ctrl}")
    lines.append("seas: " + ("; ".join(seas) if seas else "no triremes at sea"))
    pcs = [
        f"{b.province_names[p]} ({who(state.owner[p])})"
        for p in range(b.n_provinces)
        if state.power_centre[p]
    ]
    lines.append("power centres: " + (", ".join(pcs) if pcs else "none yet"))
    if state.pool:
        lines.append(f"legionaries to place: {state.pool}")
    if state.terminal is not None:
        out = state.terminal
        lines.append(
            f"[bold]game over[/bold] ({out.termination.value}): winner(s) "
            + ", ".join(who(w) for w in out.winners)
        )
    return "\n".join(lines)


def render_map(state: SpqrState) -> str:
    """Every province: owner, legionaries, power centre, and its neighbours by land and its seas."""
    b = state.board
    rows = []
    for p in range(b.n_provinces):
        pc = " ★" if state.power_centre[p] else ""
        rows.append(f"{b.province_names[p]:<18} {who(state.owner[p])} {state.armies[p]}{pc}")
        rows.append("    land: " + (", ".join(b.province_names[q] for q in b.land[p]) or "-")
                    + "  ·  seas: " + (", ".join(b.sea_names[s] for s in b.coasts[p]) or "-"))  # fmt: skip
    return "\n".join(rows)


def action_odds(state: SpqrState, action: Action) -> str | None:
    """The exact odds of an attack before it is made (the game's own `odds` functions on this position)."""
    from hegemon.games.spqrisiko import odds
    from hegemon.games.spqrisiko.actions import Attack, Declare, NavalAttack
    from hegemon.games.spqrisiko.records import BattleKind

    b = state.board
    if isinstance(action, Attack):
        r = odds.land_position(state, b.province_index[action.source], b.province_index[action.target])
        what = f"attack {action.source} -> {action.target}"
    elif isinstance(action, NavalAttack):
        me = state.order[state.turn]
        s = b.sea_index[action.sea]
        r = odds.naval_combat(state.triremes[me][s], state.triremes[action.opponent][s])
        what = f"naval combat in {b.sea_names[s]}"
    elif isinstance(action, Declare) and state.battle is not None and state.battle.kind == BattleKind.SEA:
        t = state.battle.target
        r = odds.sea_attack(action.count, state.armies[t],
                            continue_below_defender=state.opts.sea_attack_below_defender)  # fmt: skip
        what = f"sea attack on {b.province_names[t]} with {action.count}"
    else:
        return None
    if not r.attack_possible:
        return f"{what}: no roll is possible"
    return (
        f"{what}: win {float(r.p_win):.1%} ({r.p_win.numerator}/{r.p_win.denominator}); expected losses "
        f"{float(r.expected_attacker_losses):.2f} yours, {float(r.expected_defender_losses):.2f} theirs"
    )


TEXT = TextRole(render=render, render_map=render_map, action_odds=action_odds)
"""The terminal role (`Roles.text`)."""
