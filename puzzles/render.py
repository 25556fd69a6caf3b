"""Pictures of a puzzle: text for the terminal and plain SVG (no dependency) for the service.

The SVG draws the table from the player's chair: the player at the bottom,
the others clockwise round the table, the current trick in the middle. Cards
are rounded rectangles with rank and suit; tiles are dominoes with pips.
"""

from __future__ import annotations

from html import escape

from solver import Position
from solver.cards import RANKS, SUIT_SYMBOLS, rank_of, suit_of, tile_ends
from solver.display import picture, seat_name

from .puzzle import Puzzle

# --- text ----------------------------------------------------------------------------


def show_text(puzzle: Puzzle, answer: bool = False, number: int | None = None) -> str:
    """The position, the task, and (when ``answer``) the solved answer."""
    pos = puzzle.to_position()
    task = puzzle.task()
    title = f"Puzzle {puzzle.id}" + (f" (#{number})" if number is not None else "")
    if puzzle.single_dummy is not None:  # the player's view only: hidden cards stay hidden
        from .single_dummy import answer_text, view_text
        lines = [f"{title}  level {puzzle.level}  [{puzzle.pool}]", view_text(puzzle),
                 task.describe(pos.game) + f", with the best card in at least "
                 f"{100 * puzzle.single_dummy['threshold']:.0f}% of the layouts."]
        return "\n".join(lines + ([answer_text(puzzle)] if answer else []))
    lines = [f"{title}  level {puzzle.level}  [{puzzle.pool}]", picture(pos), task.describe(pos.game) + "."]
    if not answer:
        return "\n".join(lines)
    unit = pos.objective.measure
    side = "+".join(seat_name(pos, s) for s in pos.objective.side(pos.game))
    lines.append(f"Answer: {' or '.join(puzzle.key)} ({side}: {puzzle.value} {unit})")
    for token, value in puzzle.moves:
        if token not in puzzle.key:
            lines.append(f"  {token}: {value} {unit} instead of {puzzle.value}")
    lines.append(f"Line: {_by_trick(pos, puzzle.line)}")
    lines.append(f"Decisions: {puzzle.decisions}; tree: {puzzle.tree.number_of_nodes()} positions; "
                 f"difficulty {puzzle.difficulty}")
    if puzzle.tags:
        lines.append(f"Tags: {', '.join(puzzle.tags)}")
    fails = [f"{name} ({f['move']} after {' '.join(f['after']) or 'the start'})"
             for name, f in puzzle.policies.items() if f is not None]
    if fails:
        lines.append(f"Simple play that fails: {'; '.join(fails)}")
    return "\n".join(lines)


def _by_trick(pos: Position, line: list[str]) -> str:
    """Moves grouped by trick: ``HQ HA H9 | DA DT DQ``."""
    n = pos.n_players
    first = n - len(pos.trick)  # the trick under way ends after this many moves
    groups = [line[:first]] + [line[i:i + n] for i in range(first, len(line), n)]
    return " | ".join(" ".join(g) for g in groups if g)


# --- SVG ----------------------------------------------------------------------------

CARD_W, CARD_H, GAP = 34, 50, 6
WIDTH, HEIGHT = 720, 520
RED = "#c0392b"
PIPS = {0: [], 1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
        5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)], 6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]}


def _card(x: float, y: float, piece: int, pos: Position, mark: bool = False) -> str:
    stroke = "#e67e22" if mark else "#333"
    width = 3 if mark else 1
    if pos.game.pieces == "tiles":
        return _tile(x, y, piece, stroke, width)
    suit = suit_of(piece)
    colour = RED if suit in (1, 2) else "#111"
    rank = "10" if RANKS[rank_of(piece)] == "T" else RANKS[rank_of(piece)]
    return (f'<g class="card"><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="4" fill="#fff" '
            f'stroke="{stroke}" stroke-width="{width}"/>'
            f'<text x="{x + CARD_W / 2}" y="{y + 21}" text-anchor="middle" font-size="16" fill="{colour}" '
            f'font-family="sans-serif">{rank}</text>'
            f'<text x="{x + CARD_W / 2}" y="{y + 42}" text-anchor="middle" font-size="18" fill="{colour}" '
            f'font-family="sans-serif">{SUIT_SYMBOLS[suit]}</text></g>')


def _back(x: float, y: float) -> str:
    return (f'<g class="back"><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="4" fill="#2c4f8c" '
            f'stroke="#333"/></g>')


def _tile(x: float, y: float, piece: int, stroke: str, width: int) -> str:
    hi, lo = tile_ends(piece)
    half = CARD_H / 2
    out = [f'<g class="tile"><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="4" fill="#fdfbf2" '
           f'stroke="{stroke}" stroke-width="{width}"/>',
           f'<line x1="{x + 3}" y1="{y + half}" x2="{x + CARD_W - 3}" y2="{y + half}" stroke="#333"/>']
    for end, top in ((hi, y), (lo, y + half)):
        for r, c in PIPS[end]:
            cx, cy = x + 8 + c * (CARD_W - 16) / 2, top + 5 + r * (half - 10) / 2
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="2.6" fill="#111"/>')
    out.append("</g>")
    return "".join(out)


def _places(n: int) -> list[tuple[float, float, str]]:
    """Hand anchors (centre x, y, text anchor) by seat offset from the player, clockwise from the bottom."""
    bottom = (WIDTH / 2, HEIGHT - CARD_H - 30, "middle")
    left, top, right = (150, HEIGHT / 2 - 40, "middle"), (WIDTH / 2, 60, "middle"), (WIDTH - 150, HEIGHT / 2 - 40, "middle")
    return [bottom, left, right] if n == 3 else [bottom, left, top, right]


def svg(puzzle: Puzzle, answer: bool = False) -> str:
    """The puzzle position as an SVG document (the key outlined when ``answer``)."""
    pos = puzzle.to_position()
    shown = backs = None
    if puzzle.single_dummy is not None:  # draw the player's view: the others' hidden cards as backs
        from solver.single_dummy import View
        view = View.from_json(puzzle.single_dummy["view"])
        shown, backs = view.known, view.hidden
    return position_svg(pos, puzzle.player, puzzle.task().describe(pos.game),
                        puzzle.key if answer else [], shown, backs)


def position_svg(pos: Position, viewer: int, caption: str = "", marked: list[str] | tuple[str, ...] = (),
                 shown: list[int] | None = None, backs: list[int] | None = None) -> str:
    """Any position as an SVG table seen from seat ``viewer``; pieces in ``marked`` are outlined.

    ``shown`` (per seat, the pieces to draw face up; default the whole hand) and ``backs`` (per seat,
    how many face-down cards to add) draw a partial view: nothing else of the hands is written.
    """
    game = pos.game
    n = pos.n_players
    marks = {game.parse_piece(t) for t in marked}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}">',
             f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#1e6b3a"/>',
             f'<text x="12" y="22" font-size="15" fill="#fff" font-family="sans-serif">'
             f'{escape(game.title)} — {escape(_options(pos))}</text>']
    if caption:
        parts.append(f'<text x="12" y="{HEIGHT - 8}" font-size="13" fill="#fff" font-family="sans-serif">'
                     f'{escape(caption)}</text>')
    places = _places(n)
    taken = pos.tricks_taken()
    for seat in range(n):
        cx, cy, _ = places[(seat - viewer) % n]
        pieces = game.sorted_pieces(pos.hands[seat] if shown is None else shown[seat])
        down = backs[seat] if backs is not None else 0
        total = (len(pieces) + down) * (CARD_W + 2) - 2
        x0 = cx - total / 2
        label = f"{seat_name(pos, seat)}{' to move' if seat == pos.to_move else ''} · {taken[seat]} taken"
        weight = "bold" if seat == pos.to_move else "normal"
        parts.append(f'<text x="{cx}" y="{cy - 8}" text-anchor="middle" font-size="13" fill="#fff" '
                     f'font-weight="{weight}" font-family="sans-serif">{escape(label)}</text>')
        for i, p in enumerate(pieces):
            parts.append(_card(x0 + i * (CARD_W + 2), cy, p, pos, p in marks))
        for i in range(len(pieces), len(pieces) + down):
            parts.append(_back(x0 + i * (CARD_W + 2), cy))
    # The trick in the middle, each piece nudged toward the seat that played it.
    for i, p in enumerate(pos.trick):
        seat = (pos.leader + i) % n
        cx, cy, _ = places[(seat - viewer) % n]
        tx = WIDTH / 2 + (cx - WIDTH / 2) * 0.25 - CARD_W / 2
        ty = HEIGHT / 2 + (cy - HEIGHT / 2) * 0.25 - CARD_H / 2
        parts.append(_card(tx, ty, p, pos))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _options(pos: Position) -> str:
    shown = pos.game.options_for(pos.trump, pos.hands)
    return ", ".join(f"{k} {v}" for k, v in shown.items() if k != "open")
