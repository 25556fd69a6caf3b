"""Glicko-2 (Glickman, 2012), one game at a time, as lichess rates puzzles against players.

A puzzle attempt is a game between the player and the puzzle: the player
scores 1 for solving it, 0 for failing; both ratings move.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178
TAU = 0.5  # how fast volatility may change (Glickman suggests 0.3 .. 1.2)


@dataclass(frozen=True)
class Rating:
    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06


def update(player: Rating, opponent: Rating, score: float) -> Rating:
    """``player``'s new rating after one game against ``opponent`` with ``score`` (1 win, 0 loss)."""
    mu, phi = (player.rating - 1500) / SCALE, player.rd / SCALE
    mu_j, phi_j = (opponent.rating - 1500) / SCALE, opponent.rd / SCALE
    g = 1 / math.sqrt(1 + 3 * phi_j ** 2 / math.pi ** 2)
    expected = 1 / (1 + math.exp(-g * (mu - mu_j)))
    v = 1 / (g ** 2 * expected * (1 - expected))
    delta = v * g * (score - expected)

    # New volatility: the root of f by the Illinois method (step 5 of the paper).
    a = math.log(player.volatility ** 2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2) - (x - a) / TAU ** 2

    lo = a
    if delta ** 2 > phi ** 2 + v:
        hi = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        hi = a - k * TAU
    f_lo, f_hi = f(lo), f(hi)
    while abs(hi - lo) > 1e-6:
        mid = lo + (lo - hi) * f_lo / (f_hi - f_lo)
        f_mid = f(mid)
        if f_mid * f_hi <= 0:
            lo, f_lo = hi, f_hi
        else:
            f_lo /= 2
        hi, f_hi = mid, f_mid
    volatility = math.exp(lo / 2)

    phi_star = math.sqrt(phi ** 2 + volatility ** 2)
    new_phi = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    new_mu = mu + new_phi ** 2 * g * (score - expected)
    return Rating(SCALE * new_mu + 1500, SCALE * new_phi, volatility)


def initial_for_level(level: int) -> Rating:
    """A puzzle's starting rating from the generator's 1..5 difficulty level."""
    return Rating(1500.0 + 200.0 * (level - 3), 300.0, 0.06)
