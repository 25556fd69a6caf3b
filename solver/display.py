"""Text pictures of positions and results for the terminal (strings only: no I/O here)."""

from __future__ import annotations

from . import cards as C
from .games.bridge import SEAT_NAMES
from .position import Position
from .result import SolveResult


def seat_name(position: Position, seat: int) -> str:
    if position.game.name == "bridge":
        return SEAT_NAMES[seat]
    return f"seat {seat}"


def holding(position: Position, mask: int) -> str:
    """A hand by suit (``♠ A K 7  ♥ -  ...``) for cards, or a list of tiles."""
    g = position.game
    if g.pieces == "tiles":
        return " ".join(g.format_hand(mask)) or "-"
    parts = []
    for s in range(4):
        ranks = [C.RANKS[C.rank_of(c)] for c in g.sorted_pieces(mask & C.suit_bits(s))]
        parts.append(f"{C.SUIT_SYMBOLS[s]} {' '.join(ranks) or '-'}")
    return "  ".join(parts)


def header(position: Position) -> str:
    g = position.game
    shown = g.options_for(position.trump, position.hands)
    opts = ", ".join(f"{k} {v}" for k, v in shown.items()
                     if k in ("trump", "contract") or (k != "open" and v != g.defaults[k]))
    return f"{g.title}" + (f" ({opts})" if opts else "")


def picture(position: Position) -> str:
    """Every hand, the trick so far, what each seat has taken, and who is to move."""
    g = position.game
    lines = [header(position)]
    width = max(len(seat_name(position, s)) for s in range(position.n_players))
    faceup = getattr(g, "open", None)
    for s, hand in enumerate(position.hands):
        mark = "*" if s == position.to_move else " "
        line = f"{mark} {seat_name(position, s):<{width}}  {holding(position, hand)}"
        if faceup is not None:
            line += f"   face up: {' '.join(g.format_hand(faceup[s] & hand)) or '-'}"
        lines.append(line)
    if position.trick:
        played = ", ".join(f"{seat_name(position, (position.leader + i) % position.n_players)} "
                           f"{g.format_piece(c)}" for i, c in enumerate(position.trick))
        lines.append(f"trick: {played}")
    if any(position.taken):
        tricks = position.tricks_taken()
        lines.append("taken: " + ", ".join(f"{seat_name(position, s)} {t}" for s, t in enumerate(tricks))
                     + " tricks")
    if position.is_over():
        lines.append(f"hand over; scores: {position.scores()}")
    else:
        lines.append(f"{seat_name(position, position.to_move)} to move (* above)")
    return "\n".join(lines)


def result_table(position: Position, result: SolveResult) -> str:
    """A readable solve result: value, every move with its value, the best line."""
    g, obj = position.game, result.objective
    side = "+".join(seat_name(position, s) for s in obj.side(g))
    lines = [f"{side}: {obj.goal} {obj.measure}; {seat_name(position, result.to_move)} to move",
             f"value: {result.value}" + ("" if result.complete else "  (search stopped early: not exact)")]
    if result.moves:
        lines.append("move   value")
        for piece, value in result.moves:
            star = "  best" if piece in result.best else ""
            lines.append(f"{g.format_piece(piece):<6} {'?' if value is None else value:>5}{star}")
    if result.pv:
        n = position.n_players
        first = n - len(position.trick)  # the current trick ends after this many moves
        groups, rest = [result.pv[:first]], result.pv[first:]
        groups += [rest[i:i + n] for i in range(0, len(rest), n)]
        lines.append("line: " + " | ".join(" ".join(g.format_piece(c) for c in grp) for grp in groups if grp))
    stats = result.stats
    lines.append(f"nodes {stats.get('nodes', '?')}, {stats.get('seconds', 0) * 1000:.1f} ms, "
                 f"engine {stats.get('engine', '?')}")
    return "\n".join(lines)
