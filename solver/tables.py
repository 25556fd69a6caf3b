"""Compile a game, its options and an objective into flat tables for the engine.

The engine knows no game: it sees pieces 0..63, trump states 0..4 (a suit, or
``NONE`` = 4) and, per state, the lead class of each piece, the pieces that
follow each class and each piece's power in a trick of each class. Scoring is
an additive per-trick amount for the hero side (``trick_value`` per trick won
plus ``points`` of the pieces won) and a few flags for what is not additive
(Minimo's zero-trick rule, Jass's trump fixed in play). Everything here is
derived from the game's own rule hooks, so the tables say what ``solver.games``
says.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from . import cards as C
from .games import Game, Jass, Minimo, Moon
from .games.moon import TRUMP_SUIT

NONE = 4          # the "no trump" state
N_STATES = 5
N_CLASSES = 8     # cards: suits 0..3; Moon: numbers 0..6 and the trump suit 7
MAX_EQ = 16       # candidates kept per piece for the equivalence test

KIND_ADDITIVE = 0  # the side's measure is a sum over the tricks it wins
KIND_MINIMO = 1    # Minimo points: the zero-trick rule needs who has taken a trick
KIND_JASS = 2      # Jass points: values depend on the final trump


@dataclass
class Tables:
    """Everything the engine needs, as plain lists of ints (copied into C arrays)."""

    n: int
    kind: int
    jass: int                        # 1: Jass's legal-play hook
    hero: int
    side_mask: int                   # bit per seat of the hero's side
    max_mask: int                    # bit per seat that maximises the measure
    trick_value: int                 # added per trick the side wins
    bonus_last: int                  # added when the side wins the last trick
    eights: int                      # Jass: value of each 8 the side took if no trump is ever fixed
    states: list[int]                # trump states this game can be in
    piece_suit: list[int]            # suit of each card (card games; no meaning for tiles)
    suit_mask: list[int]             # per suit, its cards (card games; 0 for tiles)
    jack: list[int]                  # per suit, its jack (Jass)
    lead_class: list[list[int]]      # [state][piece]
    follow: list[list[int]]          # [state][class] -> mask
    power: list[list[list[int]]]     # [state][class][piece], 0 = cannot win
    points: list[list[int]]          # [state][piece] added when the side wins the piece
    max_future: list[list[int]]      # [state][piece] the most the piece can still add
    sum_bit: list[list[int]]         # [state][piece] bits of the score key set when the side wins it
    qt_ok: int = 0                   # quick-trick bounds hold: the measure is tricks, one a trick
    partition: int = 0               # partition search: legality by suit, winners by suit and rank
    trump_class: list[int] = field(default_factory=lambda: [-1] * N_STATES)
    lead_mask: list[list[int]] = field(default_factory=lambda: [[0] * N_CLASSES for _ in range(N_STATES)])
    pointed: list[int] = field(default_factory=lambda: [0] * N_STATES)  # pieces that may still score
    norm: list[int] = field(default_factory=lambda: [0] * N_STATES)  # [state] relative-rank keys allowed
    keep: list[int] = field(default_factory=lambda: [0] * N_STATES)  # [state] pieces a relative key names
    perm_suit: list[int] = field(default_factory=lambda: [-1] * N_STATES)  # [state] suit keyed in trump order
    perm_lut: list[int] = field(default_factory=lambda: [0] * 512)  # 9 bits (6..A) -> trump order
    place: list[list[int]] = field(default_factory=lambda: [[0] * 4 for _ in range(N_STATES)])  # see _build
    eq: list[list[list[tuple[int, int, int]]]] = field(default_factory=list)  # [state][b] -> [(a, between, diff)]
    order: list[int] = field(default_factory=list)  # the engine's bit -> piece, where it relabels ([]: none)


def trump_state(trump: int | None) -> int:
    return NONE if trump is None else trump


def _reachable(game: Game, ts: int) -> list[int]:
    """The states play can still lead to from ``ts`` (itself included)."""
    if isinstance(game, Jass) and ts == NONE:
        return [NONE, 0, 1, 2, 3]
    return [ts]


@lru_cache(maxsize=64)
def _cached(game: Game, side: tuple[int, ...], measure: str, goal: str) -> Tables:
    return _build(game, side, measure, goal)


def compile_tables(game: Game, side: tuple[int, ...], measure: str, goal: str) -> Tables:
    """The tables for ``game`` with ``side`` pursuing ``goal`` on ``measure`` (cached)."""
    return _cached(game, tuple(side), measure, goal)


def _build(game: Game, side: tuple[int, ...], measure: str, goal: str) -> Tables:
    n = game.n_players
    deck = game.deck
    pieces = list(C.bits(deck))
    side_mask = sum(1 << s for s in side)
    max_mask = sum(1 << s for s in range(n) if (s in side) == (goal == "max"))
    jass = isinstance(game, Jass)
    points_measure = measure == "points"
    kind = KIND_ADDITIVE
    if points_measure and isinstance(game, Minimo):
        kind = KIND_MINIMO
        if len(side) != 1:
            raise ValueError("Minimo has no partnerships")
    elif points_measure and jass:
        kind = KIND_JASS

    if isinstance(game, Moon):
        states = [0]
    elif jass:
        states = [NONE, 0, 1, 2, 3]
    else:
        states = [trump_state(game.initial_trump())]

    lead_class = [[0] * 64 for _ in range(N_STATES)]
    follow = [[0] * N_CLASSES for _ in range(N_STATES)]
    power = [[[0] * 64 for _ in range(N_CLASSES)] for _ in range(N_STATES)]
    points = [[0] * 64 for _ in range(N_STATES)]
    sum_bit = [[0] * 64 for _ in range(N_STATES)]
    for ts in states:
        trump = None if ts == NONE else ts
        for p in pieces:
            if isinstance(game, Moon):
                lead_class[ts][p] = game.led_suit(p)
                for cls in range(N_CLASSES):
                    if game.is_trump(p):
                        power[ts][cls][p] = 100 + game.trump_rank(p)
                    elif cls != TRUMP_SUIT and game.follows(p, cls):
                        power[ts][cls][p] = 50 + game.suit_rank(p, cls)
                    if game.follows(p, cls):
                        follow[ts][cls] |= 1 << p
            else:
                s = C.suit_of(p)
                lead_class[ts][p] = s
                follow[ts][s] |= 1 << p
                for cls in range(4):
                    if trump is not None and s == trump:
                        power[ts][cls][p] = 100 + game.trump_rank(p)  # type: ignore[attr-defined]
                    elif s == cls:
                        power[ts][cls][p] = 50 + C.rank_of(p)
            if points_measure:
                points[ts][p] = _points(game, p, ts)
            if kind == KIND_JASS and ts == NONE:
                sum_bit[ts][p] = _jass_bits(game, p)
    trick_value = 0
    if measure == "tricks" or kind == KIND_MINIMO or (points_measure and type(game).scores is Game.scores):
        trick_value = 1  # Moon and bridge score tricks; Minimo adds 1 a trick
    bonus_last = 5 if kind == KIND_JASS else 0
    eights = game.no_trump_eights if kind == KIND_JASS else 0  # type: ignore[attr-defined]

    max_future = [[0] * 64 for _ in range(N_STATES)]
    for ts in states:
        for p in pieces:
            max_future[ts][p] = max(_final_points(game, p, t, points_measure, eights) for t in _reachable(game, ts))

    t = Tables(n=n, kind=kind, jass=int(jass), hero=side[0], side_mask=side_mask, max_mask=max_mask,
               trick_value=trick_value, bonus_last=bonus_last, eights=eights, states=states,
               piece_suit=[C.suit_of(p) if p < 52 else 0 for p in range(64)],
               suit_mask=[C.suit_bits(s) & deck if not isinstance(game, Moon) else 0 for s in range(4)],
               jack=[C.card(s, C.JACK) for s in range(4)],
               lead_class=lead_class, follow=follow, power=power, points=points,
               max_future=max_future, sum_bit=sum_bit)
    t.eq = _equivalences(game, t, pieces, points_measure)
    t.qt_ok = int(kind == KIND_ADDITIVE and trick_value == 1 and bonus_last == 0
                  and not any(points[ts][p] for ts in states for p in pieces))
    for ts in states:
        t.pointed[ts] = sum(1 << p for p in pieces if max_future[ts][p])
        for p in pieces:
            t.lead_mask[ts][lead_class[ts][p]] |= 1 << p
        if isinstance(game, Moon):
            t.trump_class[ts] = TRUMP_SUIT if follow[ts][TRUMP_SUIT] else -1
        else:
            t.trump_class[ts] = -1 if ts == NONE else ts
    if not isinstance(game, Moon) and not jass:
        # Plain card games: within a suit, power follows the index, so only the
        # relative ranks of the remaining cards matter, and the scoring cards.
        for ts in states:
            t.norm[ts] = 1
            t.keep[ts] = sum(1 << p for p in pieces if any(max_future[r][p] or points[r][p]
                                                             for r in _reachable(game, ts)))
        # Partition search pays where suits are long (13 cards, 4 hands); in Minimo's 8-card
        # suits it saves about 20% of the nodes but no time, each node costing more
        # (minimo-s/full tricks: 97k vs 122k nodes, medians within the noise).
        t.partition = int(n == 4)
    if jass:
        # Once trump is fixed, the same holds with the trump suit's bits put in trump
        # order; the trump jack keeps its name (the Bauer exception is about that card).
        order = sorted(range(C.SIX, C.ACE + 1), key=lambda r: game.trump_rank(C.card(0, r)))  # type: ignore
        for x in range(512):
            t.perm_lut[x] = sum(1 << i for i, r in enumerate(order) if x >> (r - C.SIX) & 1)
        # Partition search once trump is fixed (before, entries keep every card: see the
        # engine): jass/after3 tricks, 16 positions, 280k vs 365k nodes a solve.
        t.partition = 1
        for ts in range(4):
            t.norm[ts] = 1
            t.perm_suit[ts] = ts
            t.keep[ts] = (1 << C.card(ts, C.JACK)) | sum(1 << p for p in pieces if max_future[ts][p] or points[ts][p])
        # Before trump is fixed: plain order, with every J and 9 named. An order-keeping
        # map that fixes the J and the 9 keeps the trump order too (J, 9, then plain).
        every = lambda *ranks: sum(1 << C.card(s, r) for s in range(4) for r in ranks)  # noqa: E731
        t.norm[NONE] = 1
        t.keep[NONE] = every(C.JACK, C.NINE) | sum(
            1 << p for p in pieces if any(max_future[r][p] or points[r][p] for r in _reachable(game, NONE)))
        # A partition key names the J and 9, but unnamed cards (the 10, the 6-8s) sit
        # between them: while a J or 9 remains, the key keeps its place too, as the count of
        # unnamed cards of its suit below it. Without that, positions whose J or 9 sat at
        # different places shared entries, and answers were wrong.
        if t.keep[NONE] == every(C.JACK, C.NINE):
            t.place[NONE] = [every(C.NINE), every(C.SIX, C.SEVEN, C.EIGHT),
                             every(C.JACK), every(C.SIX, C.SEVEN, C.EIGHT, C.TEN)]
        else:
            t.partition = 0  # more named cards (points) would need places too: exact keys
    if isinstance(game, Moon):
        t.order = plain_order(t, pieces)
    # Partition search generalises over the cards a key does not name; where the scoring
    # names most of them it only costs (Jass points: 3.7M vs 1.9M nodes a solve on
    # jass/after3; Minimisere hard points: 10.8M vs 8.1M on minimisere-hard/after6).
    if any(2 * C.popcount(t.keep[ts]) > len(pieces) for ts in states):
        t.partition = 0
    return t


def plain_order(t: Tables, pieces: list[int]) -> list[int]:
    """An order of ``pieces`` (the engine's bits from 0 up) in which, in every state and
    class, power rises with the bit among the pieces that follow the class and among the
    trumps: the engine then reads a class's best and lowest piece off a mask, as in card
    games, where the pieces' own order already does that. Dominoes have one: tiles that are
    no doubles by the sum of their ends, then the doubles by pip (a tile ranks in each of
    its two suits by its other end, a double above every tile of its suit, doubles as trumps
    by pip). [] where the pieces' own order does it already, or where no order does."""
    after: dict[int, set[int]] = {p: set() for p in pieces}  # p -> pieces that must lie above it
    for ts in t.states:
        trumps = t.follow[ts][t.trump_class[ts]] if t.trump_class[ts] >= 0 else 0
        for cls in range(N_CLASSES):
            if not t.follow[ts][cls]:
                continue
            for group in (t.follow[ts][cls], trumps & ~t.follow[ts][cls]):
                ranked = sorted(C.bits(group), key=lambda p: t.power[ts][cls][p])
                after_each = list(zip(ranked, ranked[1:]))
                if any(t.power[ts][cls][a] == t.power[ts][cls][b] for a, b in after_each):
                    return []  # two pieces of one power: no strict order
                for a, b in after_each:
                    after[a].add(b)
    # Kahn's sort, the lowest piece first among those free: the pieces' own order where it works
    below = {p: 0 for p in pieces}
    for p in pieces:
        for q in after[p]:
            below[q] += 1
    free = sorted(p for p in pieces if not below[p])
    order: list[int] = []
    while free:
        p = free.pop(0)
        order.append(p)
        for q in sorted(after[p]):
            below[q] -= 1
            if not below[q]:
                free.append(q)
        free.sort()
    if len(order) < len(pieces) or order == list(range(len(pieces))):
        return []  # a cycle, or nothing to relabel
    return order


def _points(game: Game, p: int, ts: int) -> int:
    """What the side adds to its running total when it wins ``p`` in state ``ts``.

    Jass before trump is fixed: the plain value with 8s at 0 (what a card is
    worth under every final trump but its own suit's, and the 8s); the rest is
    added from the score key when the trump is fixed or the hand ends.
    """
    trump = None if ts == NONE else ts
    if isinstance(game, Jass):
        if trump is None:
            return game.card_value(p, 0) if C.suit_of(p) != 0 else game.card_value(p, 1)
        return game.card_value(p, trump)
    return game.card_points(1 << p, trump)


def _final_points(game: Game, p: int, ts: int, points_measure: bool, eights: int) -> int:
    """The most ``p`` is worth to the side if the hand ends in state ``ts``."""
    if not points_measure:
        return 0
    if isinstance(game, Jass) and ts == NONE:
        return eights if C.rank_of(p) == C.EIGHT else _points(game, p, ts)
    return _points(game, p, ts)


def _jass_bits(game: Jass, p: int) -> int:
    """Score-key bits (Jass, no trump yet): 3 per suit, for its J, 9 and (if they count) 8."""
    s, r = C.suit_of(p), C.rank_of(p)
    if r == C.JACK:
        return 1 << (3 * s)
    if r == C.NINE:
        return 1 << (3 * s + 1)
    if r == C.EIGHT and game.no_trump_eights:
        return 1 << (3 * s + 2)
    return 0


def _equivalences(game: Game, t: Tables, pieces: list[int], points_measure: bool
                  ) -> list[list[list[tuple[int, int, int]]]]:
    """For each state and piece ``b``: the pieces ``a > b`` it is interchangeable with, as
    ``(a, between, diff)``: when they share a holder, no piece still in play lies in
    ``between`` and no class in ``diff`` can still be led.

    Two pieces qualify when they behave alike in every state play can still reach:
    same lead class, same points, the same membership of every class that can still
    be led, and no piece of the deck between them in power in any class where both
    can win. Cards belong to one suit, so ``diff`` is empty for them; a domino
    belongs to two, and 6-5 and 6-4 become interchangeable once nothing can lead a 5
    or a 4 (``diff`` = {5, 4}). A Jass jack that is or may become the trump jack never
    qualifies (holding it alone changes what is legal); once the trump is fixed, the
    other suits' jacks do.
    """
    moon = isinstance(game, Moon)
    eq: list[list[list[tuple[int, int, int]]]] = [[[] for _ in range(64)] for _ in range(N_STATES)]
    for ts in t.states:
        reach = _reachable(game, ts)

        def signature(p: int) -> tuple:
            sig = []
            for r in reach:
                sig.append(t.lead_class[r][p])
                if moon:  # memberships may differ, in classes nothing can lead any more
                    sig.append((t.follow[r][TRUMP_SUIT] >> p) & 1)
                else:
                    sig.append(tuple((t.follow[r][c] >> p) & 1 for c in range(N_CLASSES)))
                    sig.append(tuple(t.power[r][c][p] > 0 for c in range(N_CLASSES)))
                sig.append(_final_points(game, p, r, points_measure, t.eights) if points_measure else 0)
                sig.append(t.points[r][p])
            sig.append(t.sum_bit[ts][p])
            return tuple(sig)

        # a J that is, or may become, the trump J (whose lone holder need not follow trumps)
        bauer = {C.card(r, C.JACK) for r in reach if r != NONE} if t.jass else set()
        for b in pieces:
            if b in bauer:
                continue
            sb = signature(b)
            cands = []
            for a in pieces:
                if a <= b or a in bauer or signature(a) != sb:
                    continue
                between = diff = 0
                for r in reach:
                    for c in range(N_CLASSES):
                        pa, pb = t.power[r][c][a], t.power[r][c][b]
                        if (pa > 0) != (pb > 0) or (t.follow[r][c] >> a & 1) != (t.follow[r][c] >> b & 1):
                            diff |= 1 << c
                            continue
                        if pa == 0:
                            continue
                        lo, hi = min(pa, pb), max(pa, pb)
                        for q in pieces:
                            if lo < t.power[r][c][q] < hi:
                                between |= 1 << q
                cands.append((a, between, diff))
            cands.sort(key=lambda x: (x[2] != 0, C.popcount(x[1])))
            eq[ts][b] = cands[:MAX_EQ]
    return eq
