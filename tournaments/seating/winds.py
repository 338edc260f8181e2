"""Winds: who sits East, South, West and North at each table, so that everyone sits each wind equally.

Independent of who meets whom: :func:`balance_winds` only reorders the seats of a table, so any seating
(constructed, searched, edited by hand, reseated after a late change) can be balanced afterwards.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from .schedule import TABLE_SIZE, Rounds, freeze, validate_rounds


def balance_winds(rounds: Sequence[Sequence[Sequence[int]]]) -> Rounds:
    """Reorder the seats of every table so that every player sits every wind ``R/4`` times.

    Exactly: each player ends with each wind ``floor(k/4)`` or ``ceil(k/4)`` times (``k`` = rounds they
    sit, so exactly ``R/4`` when ``R`` is a multiple of 4) and moreover sits each wind once in each block
    of four of their rounds (1-4, 5-8, ...). Who sits at which table is unchanged.

    Why it always works: cut each player's appearances, in round order, into blocks of at most four
    ("player copies"). Join every copy to the round-tables it sits at. This bipartite graph has maximum
    degree 4 (a table has 4 players, a copy at most 4 rounds), so by König's edge-colouring theorem its
    edges can be coloured with 4 colours so that no two edges at a vertex share one. Read the colour as
    the wind: a table gets four different winds and a copy of four rounds gets each wind once. The
    colouring is built edge by edge, flipping an alternating two-colour path (a Kempe chain) when the
    two ends have no free colour in common. A seat's current wind is kept whenever it is free at both
    ends, so already-balanced input (and in particular the first round) keeps its seat order.
    """
    validate_rounds(rounds)
    # Vertices: tables get ids 0..T-1, player copies T.. ; colour_at[v][c] = neighbour along colour c.
    table_ids: list[list[int]] = []
    next_id = 0
    for round_ in rounds:
        table_ids.append(list(range(next_id, next_id + len(round_))))
        next_id += len(round_)
    copy_id: dict[tuple[int, int], int] = {}
    appearances: dict[int, int] = {}
    edges: list[tuple[int, int, int]] = []  # (player copy, table vertex, preferred colour)
    for r, round_ in enumerate(rounds):
        for t, table in enumerate(round_):
            for seat, player in enumerate(table):
                k = appearances.get(player, 0)
                appearances[player] = k + 1
                key = (player, k // TABLE_SIZE)
                if key not in copy_id:
                    copy_id[key] = next_id
                    next_id += 1
                edges.append((copy_id[key], table_ids[r][t], seat))
    colour_at: list[list[int | None]] = [[None] * TABLE_SIZE for _ in range(next_id)]

    def free(v: int) -> int:
        return colour_at[v].index(None)

    for u, v, preferred in edges:
        if colour_at[u][preferred] is None and colour_at[v][preferred] is None:
            alpha = preferred
        else:
            alpha, beta = free(u), free(v)
            if colour_at[v][alpha] is not None:
                # Flip the alpha/beta path that starts at v with its alpha edge. In a bipartite graph it
                # cannot reach u (u lacks alpha and the path reaches u's side only by alpha edges), so
                # afterwards alpha is free at both u and v.
                path = [v]
                colour = alpha
                while (nxt := colour_at[path[-1]][colour]) is not None:
                    path.append(nxt)
                    colour = beta if colour == alpha else alpha
                colour = alpha
                for x, y in itertools.pairwise(path):
                    colour_at[x][colour] = colour_at[y][colour] = None
                    colour = beta if colour == alpha else alpha
                colour = beta
                for x, y in itertools.pairwise(path):
                    colour_at[x][colour], colour_at[y][colour] = y, x
                    colour = beta if colour == alpha else alpha
        colour_at[u][alpha], colour_at[v][alpha] = v, u

    inverse = {vertex: player for (player, _), vertex in copy_id.items()}
    result = []
    for r, round_ in enumerate(rounds):
        tables = []
        for t in range(len(round_)):
            seats = colour_at[table_ids[r][t]]  # all four colours are used: a table has four players
            tables.append([inverse[v] for v in seats if v is not None])
        result.append(tables)
    return freeze(result)
