"""Finite fields GF(q), q a prime power, as addition and multiplication tables over codes 0 .. q-1.

The geometries and transversal designs of :mod:`tournaments.seating.construction` are built over them.
Tables rather than a field class, because the constructions only ever add and multiply small codes and a
list lookup is the cheapest way to do that in pure Python.
"""

from __future__ import annotations

import functools


def prime_power(q: int) -> tuple[int, int] | None:
    """``(p, k)`` with ``q == p ** k`` and ``p`` prime, or None."""
    for p in range(2, q + 1):
        if q % p == 0:
            k = 0
            while q % p == 0:
                q //= p
                k += 1
            return (p, k) if q == 1 else None
    return None


def _poly_mod(a: list[int], m: list[int], p: int) -> list[int]:
    """``a`` modulo the monic polynomial ``m`` over Z_p (coefficients lowest first)."""
    a = list(a)
    while len(a) >= len(m):
        lead = a[-1]
        shift = len(a) - len(m)
        for i, c in enumerate(m):
            a[shift + i] = (a[shift + i] - lead * c) % p
        a.pop()
    return a


@functools.cache
def field(q: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """Addition and multiplication tables of GF(q), elements coded 0..q-1, or None if q is no prime power.

    Elements are polynomials over Z_p of degree < k, coded by their base-p digits; the modulus is the
    first monic degree-k polynomial with no monic factor of degree 1..k/2 (found by trial division).
    """
    pk = prime_power(q)
    if pk is None:
        return None
    p, k = pk

    def digits(e: int, length: int) -> list[int]:
        return [(e // p**i) % p for i in range(length)]

    def code(c: list[int]) -> int:
        return sum(x * p**i for i, x in enumerate(c))

    modulus: list[int] = []
    for low in range(p**k):
        candidate = digits(low, k) + [1]
        if all(
            any(_poly_mod(candidate, digits(f, d) + [1], p))
            for d in range(1, k // 2 + 1)
            for f in range(p**d)
        ):
            modulus = candidate
            break
    add = [
        [code([(x + y) % p for x, y in zip(digits(a, k), digits(b, k), strict=True)]) for b in range(q)]
        for a in range(q)
    ]
    mul = [[0] * q for _ in range(q)]
    for a in range(q):
        da = digits(a, k)
        for b in range(q):
            db = digits(b, k)
            product = [0] * (2 * k - 1)
            for i, x in enumerate(da):
                for j, y in enumerate(db):
                    product[i + j] = (product[i + j] + x * y) % p
            mul[a][b] = code(_poly_mod(product, modulus, p)[:k] + [0] * k)
    return add, mul
