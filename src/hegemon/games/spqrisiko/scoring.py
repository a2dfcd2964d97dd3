"""Phase 1, victory-point scoring [R 5.6]: largest empire (>= 4 land-connected provinces), most provinces,
most sea areas controlled (ties score nothing), and 1 VP per power centre held."""

from __future__ import annotations

from collections.abc import Sequence

from hegemon.games.spqrisiko.board import Board

NEUTRAL = -1
FREE = -2


def empire_sizes(board: Board, owner: Sequence[int]) -> dict[int, int]:
    """The largest set of provinces connected by land borders of every owner on the board, in one pass
    [R 5.6.1] (islands never connect)."""
    seen = [False] * len(owner)
    best: dict[int, int] = {}
    land = board.land
    for start, o in enumerate(owner):
        if o == FREE or seen[start]:
            continue
        size = component_size(land, owner, seen, start, o)
        if size > best.get(o, 0):
            best[o] = size
    return best


def component_size(
    land: Sequence[Sequence[int]], owner: Sequence[int], seen: list[bool], start: int, o: int
) -> int:
    """The size of `o`'s land-connected set of provinces holding `start`, marking them in `seen`."""
    seen[start] = True
    stack = [start]
    size = 0
    while stack:
        p = stack.pop()
        size += 1
        for q in land[p]:
            if not seen[q] and owner[q] == o:
                seen[q] = True
                stack.append(q)
    return size


def largest_empire(board: Board, owner: Sequence[int], who: int) -> int:
    """Size of `who`'s largest set of provinces connected by land borders [R 5.6.1]."""
    return empire_sizes(board, owner).get(who, 0)


def sea_controller(triremes: Sequence[Sequence[int]], sea: int) -> int | None:
    """The player with strictly more triremes in `sea` than anyone else [R 5.6.3], or None."""
    best, who, tie = 0, None, False
    for p, row in enumerate(triremes):
        n = row[sea]
        if n > best:
            best, who, tie = n, p, False
        elif n == best and n > 0:
            tie = True
    return None if tie else who


def strictly_most(values: dict[int, int], who: int) -> bool:
    """Whether `who` has strictly more than every other competitor."""
    mine = values.get(who, 0)
    return all(mine > v for k, v in values.items() if k != who)


def score_turn(
    board: Board,
    owner: Sequence[int],
    triremes: Sequence[Sequence[int]],
    power_centre: Sequence[bool],
    who: int,
    competitors: Sequence[int],
    sizes: dict[int, int] | None = None,
) -> dict[str, int]:
    """The VP `who` scores at the start of a turn, by source [R 5.6]; `competitors` are the other parties
    compared (players still in the game, plus the neutrals when they compete, U5). `sizes`: the
    `empire_sizes` of `owner` when the caller has them already (else only the empires that can decide the
    comparison are searched)."""
    counts, pcs = _tally(owner, power_centre, len(triremes))
    return _score(board, owner, who, competitors, counts, pcs, seas_controlled(board, triremes), sizes)


def next_scores(
    board: Board,
    owner: Sequence[int],
    triremes: Sequence[Sequence[int]],
    power_centre: Sequence[bool],
    players: Sequence[int],
    competitors: Sequence[int],
    sizes: dict[int, int],
) -> dict[int, dict[str, int]]:
    """`score_turn` of each of `players` in one position (`sizes`: its `empire_sizes`), counting provinces and
    seas once and comparing each player with the best of the others (for bots that value every player's next
    scoring; tests check it against `score_turn`)."""
    counts, pcs = _tally(owner, power_centre, len(triremes))
    seas = seas_controlled(board, triremes)
    empires = {c: sizes.get(c, 0) for c in competitors}
    held = {c: counts[c] for c in competitors}
    seas_held = {c: seas[c] for c in competitors}
    tops = (_top_two(empires), _top_two(held), _top_two(seas_held))
    return {who: compared_scores(who, empires, held, seas_held, tops, pcs[who]) for who in players}


def compared_scores(
    who: int,
    empires: dict[int, int],
    counts: dict[int, int],
    seas: dict[int, int],
    tops: tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]],
    power_centres: int,
) -> dict[str, int]:
    """`who`'s next scoring by source, compared with the best of the other competitors (`empires`, `counts`,
    `seas`: the competitors' largest empires, provinces and seas held; `tops`: `_top_two` of the empires, province counts and seas held)."""
    top_empires, top_counts, top_seas = tops
    if who in empires:
        mine_empire = empires[who]
        empire = int(mine_empire >= 4 and mine_empire > _best_other(top_empires, who))
        provinces = int(counts[who] > _best_other(top_counts, who))
        mine_seas = seas[who]
        sea_vp = int(mine_seas > 0 and mine_seas > _best_other(top_seas, who))
    else:  # not compared: only a rule every other party fails could score
        empire = sea_vp = 0
        provinces = int(top_counts[0] < 0)
    return {"empire": empire, "provinces": provinces, "seas": sea_vp, "power_centres": power_centres}


def _top_two(values: dict[int, int]) -> tuple[int, int, int]:
    """(best value, its party, second best value) of `values` by party; -1 for a missing value."""
    best, party, second = -1, -2, -1
    for c, v in values.items():
        if v > best:
            best, party, second = v, c, best
        elif v > second:
            second = v
    return best, party, second


def _best_other(top: tuple[int, int, int], who: int) -> int:
    """The best value among the parties other than `who`."""
    return top[2] if top[1] == who else top[0]


def seas_controlled(board: Board, triremes: Sequence[Sequence[int]]) -> list[int]:
    """Sea areas controlled per party [R 5.6.3]: players 0..n-1, then the neutrals (index -1, never any)."""
    n = len(triremes)
    seas = [0] * (n + 1)
    for s in range(board.n_seas):
        best, ctrl = 0, -1
        for p in range(n):
            k = triremes[p][s]
            if k > best:
                best, ctrl = k, p
            elif k == best and k > 0:
                ctrl = -1
        if ctrl >= 0:
            seas[ctrl] += 1
    return seas


def _tally(owner: Sequence[int], power_centre: Sequence[bool], n: int) -> tuple[list[int], list[int]]:
    """Provinces and power centres per party: players 0..n-1, the neutrals at index -1 (= n)."""
    counts = [0] * (n + 1)
    pcs = [0] * (n + 1)
    for p, o in enumerate(owner):
        if o >= NEUTRAL:
            counts[o] += 1
            if power_centre[p]:
                pcs[o] += 1
    return counts, pcs


def _score(
    board: Board,
    owner: Sequence[int],
    who: int,
    competitors: Sequence[int],
    counts: list[int],
    pcs: list[int],
    seas: list[int],
    sizes: dict[int, int] | None,
) -> dict[str, int]:
    member = who in competitors
    others = [c for c in competitors if c != who]
    mine = counts[who] if member else 0
    provinces = int(all(mine > counts[c] for c in others))
    mine_seas = seas[who] if member else 0
    sea_vp = int(mine_seas > 0 and all(mine_seas > seas[c] for c in others))
    if not member:
        empire = 0
    elif sizes is not None:
        mine_empire = sizes.get(who, 0)
        empire = int(mine_empire >= 4 and all(mine_empire > sizes.get(c, 0) for c in others))
    else:
        empire = int(_largest_decides(board, owner, who, others))
    return {"empire": empire, "provinces": provinces, "seas": sea_vp, "power_centres": pcs[who]}


def _largest_decides(board: Board, owner: Sequence[int], who: int, others: Sequence[int]) -> bool:
    """Whether `who`'s largest land-connected empire has at least 4 provinces and more than every empire of
    `others` [R 5.6.1]: `who`'s empires first, the others' only while none reaches it."""
    land = board.land
    seen = [False] * len(owner)

    def component(start: int, o: int) -> int:
        return component_size(land, owner, seen, start, o)

    mine = 0
    for p, o in enumerate(owner):
        if o == who and not seen[p]:
            size = component(p, who)
            if size > mine:
                mine = size
    if mine < 4:
        return False
    rivals = set(others)
    for p, o in enumerate(owner):
        if o in rivals and not seen[p] and component(p, o) >= mine:
            return False
    return True


def land_reinforcements(provinces: int) -> int:
    """Legionaries for the provinces held [R 6.1]-[R 6.3]: fewer than 3 -> 1, 3-11 -> 3, more -> floor(n/3)."""
    if provinces < 3:
        return 1
    if provinces <= 11:
        return 3
    return provinces // 3
