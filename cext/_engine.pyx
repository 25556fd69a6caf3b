# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The double-dummy search core: alpha-beta over bitmask hands, games as tables.

Everything inside the search is C: the game arrives as a ``Tab`` struct filled
once from ``solver.tables``; the search runs without the GIL. The transposition
table is probed at trick boundaries only, keyed on the hands, the leader, the
trump state and the score key (what the rest of the hand's score depends on
beyond the running total), and stores bounds *relative* to the running total
so that one entry serves every history that reaches the same key. Where legality
goes by suit and a trick's winner by suit and rank, and suits are long (bridge,
Minimisere), it is a partition search: an entry keeps only the ranks its result
depended on.
"""

from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int8_t, int16_t, int32_t, int64_t, UINT32_MAX
from libc.stdlib cimport calloc, free
from libc.string cimport memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from cpython.exc cimport PyErr_CheckSignals
from cpython.pythread cimport PyThread_get_thread_ident

import threading

cdef extern from *:
    int popcount64 "__builtin_popcountll"(unsigned long long) nogil
    int ctz64 "__builtin_ctzll"(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil
    void prefetch "__builtin_prefetch"(const void*) nogil

cdef extern from "table_memory.h":
    void* oh_table_alloc(size_t n)
    void oh_table_free(void* p)

cdef extern from "bits.h":
    uint64_t oh_pext(uint64_t x, uint64_t m) nogil
    uint64_t oh_pdep(uint64_t x, uint64_t m) nogil
    void oh_bits_init()
    int oh_bmi2

oh_bits_init()
cdef int HW_BMI2 = oh_bmi2  # what the CPU has; ``Engine.use_bmi2`` may turn it off for tests

DEF NONE = 4
DEF NSTATES = 5
DEF NCLASSES = 8
DEF MAXEQ = 16
DEF INF = 1000000
DEF KIND_ADDITIVE = 0
DEF KIND_MINIMO = 1
DEF KIND_JASS = 2
DEF BUCKET = 4

ctypedef uint64_t u64

cdef struct Tab:
    int n
    uint8_t seatmod[16]        # seatmod[x] = x % n for x < 2n: a table lookup, not a division
    int kind
    int jass
    int hero
    u64 side_mask
    u64 max_mask
    int trick_value
    int bonus_last
    int scored                 # 1: some piece has points or a score bit in some state
    int eights
    uint8_t piece_suit[64]
    u64 suit_mask[4]
    int jack[4]
    uint8_t lead_class[NSTATES][64]
    u64 follow[NSTATES][NCLASSES]
    uint8_t power[NSTATES][NCLASSES][64]
    int16_t points[NSTATES][64]
    int16_t max_future[NSTATES][64]
    uint16_t sum_bit[NSTATES][64]
    uint8_t eq_n[NSTATES][64]
    uint8_t eq_a[NSTATES][64][MAXEQ]
    u64 eq_between[NSTATES][64][MAXEQ]
    uint8_t eq_diff[NSTATES][64][MAXEQ]   # classes that must not be leadable any more
    u64 eq_any[NSTATES][64]               # every piece ``eq_a`` names: none in hand, no test
    int norm[NSTATES]          # 1: table keys by relative rank in this state
    u64 keep[NSTATES]          # pieces whose identity a relative key keeps (points)
    int qt_ok                  # 1: quick-trick bounds hold (tricks are the measure)
    int trump_class[NSTATES]   # the class of the trumps, -1 if none
    u64 lead_mask[NSTATES][NCLASSES]  # pieces that lead each class
    u64 pointed[NSTATES]       # pieces that can still score points
    int perm_suit[NSTATES]     # Jass: the trump suit, whose bits go to trump order first (-1: none)
    uint16_t perm_lut[512]     # Jass: the 9 bits of a suit (6..A) in trump order
    uint16_t perm_inv[512]     # and back
    int partition              # 1: partition search (legality and winners go by suit and rank only)
    u64 place[NSTATES][4]      # Jass before trump: the 9s and the unnamed cards below them (6-8), the
                               # Js and those below them (6-8, 10): each count places a named card
                               # among its suit's remaining cards (a partition key keeps them)
    uint32_t mid_qt            # the seats, wanting tricks, for which the quick trick inside a
                               # trick holds (trick_is_won): worked out once, not at every node
    int plain                  # 1: in every class, power rises with the bit index among the cards that
                               # follow it, then among the trumps above them; every other card has 0
    int later_ok               # 1: two teams of partners facing each other that both want tricks, in a
                               # plain card game (DDS's later-tricks rule holds: ``misses_one``)
    int lone_min               # 1: the side is one seat that avoids tricks (the lone hero's loss
                               # tests, ``lone_exits`` and ``hero_safe``, can apply)
    int ncls                   # classes 0..ncls-1 hold every piece's classes in every state (the
                               # loops over classes stop there: 4 for cards, 7 for Moon)
    u64 kin_meta               # key meta bits that a hash ignores, so that keys differing only there
                               # share a bucket and bound each other (Minimo: who has a trick; see
                               # ``kin_bounds``); 0: none
    int shape                  # the search compiled for these tables (``shape_of``; SHAPE_ANY: none)
    u64 gaps                   # cards: a bit no card uses just above each suit's top card (Minimo,
                               # Jass; 0 where some suit has none: bridge, Minimisere), which keeps
                               # ``drop_equivalents``' runs from crossing from one suit into the next
    int gap_meta               # 1: ``make_key`` writes the suit lengths as the gaps' places among the
                               # cards left (``gaps`` set and at most 34 cards: bits 24-61 of a key's meta)
    int gap_lens               # 1: ``pmake_key`` writes each hand's suit lengths so too (``gaps`` set and
                               # at most 12 cards a hand: 16 bits a hand)

cdef struct State:
    u64 hands[4]
    int trick[4]
    int tlen
    int leader
    int ts
    int acc          # the side's running total (additive part)
    uint32_t skey    # score key: what the final score needs beyond acc

cdef struct Entry:
    u64 k[5]
    u64 meta
    int16_t lo
    int16_t hi
    uint8_t best

cdef struct Slot:
    # partition search: a base slot per (suit lengths, point cards out, leader/trump/score
    # state), and under it a sub-slot per set of covered suits and their top cards' holders
    u64 lens
    u64 keep
    u64 meta            # sub-slots: with bit 63 set, and the covered suits and holders
    int32_t head        # sub-slots: first entry of the chain in the pool, -1: none
    uint16_t gen
    uint16_t count      # sub-slots: entries in the chain; base slots: which covers have one

cdef struct PEntry:
    # 32 bytes, so that with the pool aligned no entry straddles two cache lines: a probe
    # walks several entries of a chain, each a likely cache miss
    u64 own1            # owner bits of the cards in ``msk`` (see pmake_key)
    u64 own2
    u64 msk             # the remaining cards (by rank order) the bounds depend on
    uint32_t link       # the next entry of the chain (low 24 bits, NIL: none), and the best
                        # move as its place in the rank order of the remaining cards (top 8)
    int16_t lo
    int16_t hi

cdef struct Ctx:
    Tab* t
    Entry* tt
    uint32_t* tags      # per entry: a 12-bit hash tag, its depth (4 bits) and generation (16), packed
                        # apart from the entries so that a probe reads one cache line, not four
    Slot* dir           # partition search: the same memory as ``tt``, split into a directory
    PEntry* pool        # and a pool of entries filled from the start, wiped when full
    u64 dir_mask
    int32_t pool_size
    int32_t pool_used
    int64_t tt_walked
    u64 tt_mask          # bucket count - 1
    uint16_t gen
    int64_t nodes
    int64_t tt_hits
    int64_t tt_probes
    int use_part
    int64_t max_nodes
    int64_t next_check
    double deadline
    int aborted
    int use_eq
    int use_tt
    int use_bounds
    int use_order
    int use_norm
    int tt_min
    int use_qt
    int use_small        # partition search: one small card of a suit stands for the others
    int use_exits        # a lone hero's sure losing leads (lone_exits)
    int use_kin          # table entries bound their kin (kin_bounds)
    int use_shapes       # search with the code compiled for the game's shape (``dispatch``)
    int8_t killer[16][2] # the lead that last cut at a trick start, by cards left and whether the
                         # hero's side led; -1: none (cleared with the table and at each solve)
    uint32_t lead_cost[16][64]  # trick starts: the nodes each lead's cutoffs took (a moving
                                # average), by cards left; all ones: none yet (cleared with the
                                # killers)
    u64 kin_meta         # the loaded tables' ``kin_meta`` where ``use_kin``, else 0
    int order_mode       # 4: the heuristics below; 0: the first, plainer ones (for comparison)
    int64_t searches
    int64_t trick_nodes  # nodes at a trick's start: what DDS counts (``futureTricks.nodes``)
    int check_signals    # 1: the search runs in the main thread, where Python handles signals
    double sig_next      # when to look at signals next (``now()``)


# --- game shapes -----------------------------------------------------------------------
# The search is compiled once per shape of game (Cython fused types, one C function per
# shape): the seat count, Jass's rules, partition search and plain powers, which the tables
# otherwise give at run time, are constants there, so GCC folds their tests away and inlines
# more. ``Tab.shape`` names the shape a game's tables have (``Engine._fill``); ``Any`` reads
# every one of them from the tables, as the search did before it was compiled per shape.
# The same nodes; engine instructions (callgrind, ``python -m benchmarks.nodes SET --count
# N``): Minimo (30) 958.9M to 814.3M (-15%), Moon 3p (100) -15%, Moon 4p (20) -12%, Jass
# (2) -12%, Minimisere cut to 8 cards (5) -12%, bridge (3) -7%. Functions that read none
# of these constants, and calls from Python (test hooks), take no shape or ``Any``.

ctypedef struct Three:      # three players, exact keys, plain powers (Minimo, Moon 3p)
    char unused
ctypedef struct Four:       # four players, exact keys, plain powers (Moon 4p, Minimisere hard)
    char unused
ctypedef struct FourParts:  # four players, partition search, plain powers (bridge, Minimisere)
    char unused
ctypedef struct JassParts:  # Mittlere Jass, partition search (tricks)
    char unused
ctypedef struct JassExact:  # Mittlere Jass, exact keys (points)
    char unused
ctypedef struct Any:        # nothing fixed: what the tables say
    char unused

ctypedef fused Shape:
    Three
    Four
    FourParts
    JassParts
    JassExact
    Any

DEF SHAPE_ANY = 0
DEF SHAPE_THREE = 1
DEF SHAPE_FOUR = 2
DEF SHAPE_FOUR_PARTS = 3
DEF SHAPE_JASS_PARTS = 4
DEF SHAPE_JASS_EXACT = 5
SHAPE_NAMES = ("any", "three", "four", "four-parts", "jass-parts", "jass-exact")


cdef inline int seats(Shape* shape, Tab* t) noexcept nogil:
    if Shape is Three or Shape is JassParts or Shape is JassExact:
        return 3
    elif Shape is Four or Shape is FourParts:
        return 4
    else:
        return t.n


cdef inline int jass_rules(Shape* shape, Tab* t) noexcept nogil:
    if Shape is JassParts or Shape is JassExact:
        return 1
    elif Shape is Any:
        return t.jass
    else:
        return 0


cdef inline int parted(Shape* shape, Tab* t) noexcept nogil:
    if Shape is FourParts or Shape is JassParts:
        return 1
    elif Shape is Any:
        return t.partition
    else:
        return 0


cdef inline int plain(Shape* shape, Tab* t) noexcept nogil:
    if Shape is JassParts or Shape is JassExact:
        return 0
    elif Shape is Any:
        return t.plain
    else:
        return 1


cdef inline bint fits(Shape* shape, Tab* t) noexcept nogil:
    """Whether the constants compiled into ``Shape`` are ``t``'s own."""
    return (seats(shape, t) == t.n and jass_rules(shape, t) == t.jass
            and parted(shape, t) == t.partition and plain(shape, t) == t.plain)


cdef int shape_of(Tab* t) noexcept nogil:
    """The shape whose constants are ``t``'s (``SHAPE_ANY``, which reads them, where none's
    are): asked of the accessors above, so that the two cannot disagree."""
    if fits(<Three*>NULL, t):
        return SHAPE_THREE
    if fits(<Four*>NULL, t):
        return SHAPE_FOUR
    if fits(<FourParts*>NULL, t):
        return SHAPE_FOUR_PARTS
    if fits(<JassParts*>NULL, t):
        return SHAPE_JASS_PARTS
    if fits(<JassExact*>NULL, t):
        return SHAPE_JASS_EXACT
    return SHAPE_ANY


cdef object _pending = None  # what a signal's handler raised during a search, raised after it
cdef unsigned long _MAIN = threading.main_thread().ident


cdef int signalled() noexcept nogil:
    """1 when a signal's Python handler raised (Ctrl-C: KeyboardInterrupt), kept for the
    caller to raise once the search has unwound. The search runs without the GIL, so Python
    would otherwise run the handler only when the search ends, minutes later on a hard deal."""
    global _pending
    with gil:
        try:
            PyErr_CheckSignals()
        except BaseException as e:
            _pending = e
            return 1
    return 0


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


# --- rules ---------------------------------------------------------------------

cdef inline u64 beats(Tab* t, int ts, int cls, u64 m, int pw) noexcept nogil:
    """The pieces of ``m`` whose power in class ``cls`` is above ``pw``."""
    cdef u64 out = 0
    cdef int p
    while m:
        p = ctz64(m)
        m &= m - 1
        if t.power[ts][cls][p] > pw:
            out |= (<u64>1) << p
    return out


cdef inline u64 jass_legal(Tab* t, State* s, u64 hand) noexcept nogil:
    """Mittlere Jass: plain must-follow until trump is fixed, then may-trump, the
    Bauer exception and the undertrump ban (RULES.md §3)."""
    cdef int led = t.piece_suit[s.trick[0]]
    cdef u64 follow = hand & t.suit_mask[led]
    if s.ts == NONE:
        return follow if follow else hand
    cdef int T = s.ts
    cdef u64 trumps = hand & t.suit_mask[T]
    if led == T:
        if trumps and trumps != ((<u64>1) << t.jack[T]):
            return trumps
        return hand
    cdef u64 allowed = trumps
    cdef int i, top = -1, p
    if hand != trumps:
        for i in range(s.tlen):
            p = s.trick[i]
            if t.piece_suit[p] == T and t.power[T][led][p] > top:
                top = t.power[T][led][p]
        if top >= 0:
            allowed = beats(t, T, led, trumps, top)
    if follow:
        return follow | allowed
    return (hand & ~trumps) | allowed


cdef inline u64 legal(Shape* shape, Tab* t, State* s, int seat) noexcept nogil:
    cdef u64 hand = s.hands[seat]
    if s.tlen == 0:
        return hand
    if jass_rules(shape, t):
        return jass_legal(t, s, hand)
    cdef u64 f = hand & t.follow[s.ts][t.lead_class[s.ts][s.trick[0]]]
    return f if f else hand


cdef inline int jass_fix_bonus(Tab* t, uint32_t skey, int T) noexcept nogil:
    """What the side's J and 9 of ``T``, won before ``T`` became trump, add once it is."""
    return 18 * ((skey >> (3 * T)) & 1) + 14 * ((skey >> (3 * T + 1)) & 1)


cdef inline void play(Shape* shape, Tab* t, State* s, int p) noexcept nogil:
    cdef int n = seats(shape, t)
    cdef int seat = t.seatmod[s.leader + s.tlen]
    cdef int i, cls, w, best, pw, winner, T
    s.hands[seat] &= ~((<u64>1) << p)
    if jass_rules(shape, t) and s.ts == NONE and s.tlen > 0 and t.piece_suit[p] != t.piece_suit[s.trick[0]]:
        T = t.piece_suit[p]
        s.ts = T
        if t.kind == KIND_JASS:
            s.acc += jass_fix_bonus(t, s.skey, T)
            s.skey = 0
    s.trick[s.tlen] = p
    s.tlen += 1
    if s.tlen < n:
        return
    cls = t.lead_class[s.ts][s.trick[0]]
    w = 0
    best = -1
    for i in range(n):
        pw = t.power[s.ts][cls][s.trick[i]]
        if pw > best:
            best = pw
            w = i
    winner = t.seatmod[s.leader + w]
    if (t.side_mask >> winner) & 1:
        s.acc += t.trick_value
        if t.scored:
            for i in range(n):
                s.acc += t.points[s.ts][s.trick[i]]
                s.skey |= t.sum_bit[s.ts][s.trick[i]]
        if t.bonus_last and (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]) == 0:
            s.acc += t.bonus_last
    if t.kind == KIND_MINIMO:
        s.skey |= (<uint32_t>1) << winner
    s.leader = winner
    s.tlen = 0


cdef inline int final_value(Shape* shape, Tab* t, State* s) noexcept nogil:
    """The side's measure once every piece is played."""
    if t.kind == KIND_MINIMO:
        if not ((s.skey >> t.hero) & 1):
            return 0
        return s.acc + 5 * (seats(shape, t) - popcount64(s.skey))
    if t.kind == KIND_JASS and s.ts == NONE:
        return s.acc + t.eights * popcount64(s.skey & 0x924)  # the 8 bits: 3s+2
    return s.acc


cdef inline int best_power(Shape* shape, Tab* t, int ts, int cls, u64 m) noexcept nogil:
    """The highest power in class ``cls`` of the pieces in ``m`` (0 for none)."""
    cdef int p, best = 0, tc
    cdef u64 f
    if plain(shape, t):
        tc = t.trump_class[ts]
        if tc >= 0 and tc != cls:
            f = m & t.follow[ts][tc] & ~t.follow[ts][cls]
            if f:
                return t.power[ts][cls][63 - __builtin_clzll(f)]
        f = m & t.follow[ts][cls]
        return t.power[ts][cls][63 - __builtin_clzll(f)] if f else 0
    while m:
        p = ctz64(m)
        m &= m - 1
        if t.power[ts][cls][p] > best:
            best = t.power[ts][cls][p]
    return best


cdef inline int low_power(Shape* shape, Tab* t, int ts, int cls, u64 m) noexcept nogil:
    """The lowest power in class ``cls`` of the pieces in ``m``, all of which follow it."""
    cdef int p, low = 1 << 30
    if plain(shape, t):
        return t.power[ts][cls][ctz64(m)]
    while m:
        p = ctz64(m)
        m &= m - 1
        if t.power[ts][cls][p] < low:
            low = t.power[ts][cls][p]
    return low


cdef inline u64 above(u64 f) noexcept nogil:
    """The bits above the highest of ``f`` (all of them where ``f`` is empty): in a plain
    card game's class, the cards that beat every card of ``f``."""
    return ~((((<u64>1) << (63 - __builtin_clzll(f))) << 1) - 1) if f else ~(<u64>0)


cdef inline int quick_tricks(Shape* shape, Tab* t, State* s, int r, int need, u64* mark) noexcept nogil:
    """Tricks the leader can cash at once, whatever the others do: in each class, the
    leader's cards above every other card of that class still out, and in plain card games
    all of his cards of it where nobody else holds more of it than that (``cashes``);
    side classes count only where nobody else can ruff (no trumps out, or the leader's top
    trumps draw them); or his team's, cashing together (``partner_tricks``), asked only
    where his own come to fewer than ``need``, the count that would cut. ``mark`` gets
    the cards counted (the ranks the bound depends on)."""
    cdef int L = s.leader, ts = s.ts, tc = t.trump_class[ts]
    cdef int cls, k, ktrump = 0, side = 0, i, maxlen = 0, ln
    cdef int cards = plain(shape, t) and not jass_rules(shape, t) and t.suit_mask[0] != 0
    cdef u64 oth = 0, mine, mk = 0, ms = 0
    if jass_rules(shape, t) and ts == NONE:
        return 0  # any void seat fixes a trump and wins
    for i in range(seats(shape, t)):
        if i != L:
            oth |= s.hands[i]
            if tc >= 0:
                ln = popcount64(s.hands[i] & t.follow[ts][tc])
                if ln > maxlen:
                    maxlen = ln
    for cls in range(t.ncls):
        mine = s.hands[L] & t.lead_mask[ts][cls]
        if not mine:
            continue
        if cls == tc:
            ktrump = cashes(shape, t, s, L, cls, mine, oth, cards, &mk)
        else:
            side += cashes(shape, t, s, L, cls, mine, oth, cards, &ms)
    if maxlen > ktrump:
        side = 0  # someone keeps a trump to ruff with
    else:
        mk |= ms
    k = ktrump + side
    if cards and k < need:
        k = partner_tricks(shape, t, s, k, &mk)
    mark[0] |= mk
    return k if k < r else r


cdef inline int cashes(Shape* shape, Tab* t, State* s, int W, int cls, u64 mine, u64 oth, int cards,
                       u64* mark) noexcept nogil:
    """Of ``mine``, seat ``W``'s pieces leading class ``cls``, how many win a trick each
    when he leads them: the ones above every piece of the class in ``oth`` (the other
    seats'), and, in plain card games (``cards``), all of them where no other seat holds
    more of the class than that (``long_enough``). ``mark`` gets the top ones: the rest
    win by lengths alone, which the keys hold."""
    cdef u64 m = mine & above(oth & t.follow[s.ts][cls]) if plain(shape, t) else \
        beats(t, s.ts, cls, mine, best_power(shape, t, s.ts, cls, oth & t.follow[s.ts][cls]))
    if oth & t.follow[s.ts][cls]:
        mark[0] |= m  # (with no other card of the class out, its ranks do not matter)
    if cards and m and m != mine and long_enough(shape, t, s, W, cls, popcount64(m)):
        return popcount64(mine)
    return popcount64(m)


cdef inline int long_enough(Shape* shape, Tab* t, State* s, int W, int cls, int k) noexcept nogil:
    """1 when no seat but ``W`` holds more than ``k`` cards of class ``cls``: after ``k``
    rounds led with ``W``'s top cards his other cards of it are the last ones out."""
    cdef int i
    for i in range(seats(shape, t)):
        if i != W and popcount64(s.hands[i] & t.follow[s.ts][cls]) > k:
            return 0
    return 1


cdef inline int partner_tricks(Shape* shape, Tab* t, State* s, int k, u64* mark) noexcept nogil:
    """The most of ``k`` (the leader's quick tricks) and what his team of two cashes
    together (a team that wants tricks, in a plain card game): a plan that plays each class
    at most once, without a break, every round won. Where an opponent holds a trump, the
    plan first plays the trump class from the leader for at least as many rounds as any
    opponent has trumps (each must follow, so none is left), then the side classes (with
    trumps cycling, cut to 9 and 11 cards, 5.0% and 2.7% fewer nodes, full deals 1.2-1.5%).
    Per class (``team_class``) the rounds it gives starting with the leader on lead and
    ending there (``LL``), starting and ending with the partner (``PP``), or crossing from
    leader to partner (``LP``); the plan cashes every ``LL`` class, then at most one ``LP``
    class, then every ``PP`` class (a crossing back never gives more than ``LL``).
    Discards are free: a hand plays, in a class's rounds, the cards of it the rounds need;
    over ``K`` rounds it plays ``K`` cards, so with ``K <= r`` (the caller caps the sum at
    ``r``; a plan's first ``r`` rounds are a plan) every discard can be a card no round
    needs. The opponents only ever shed cards, which no round's win depends on. ``mark``
    gets the top cards of the classes the plan uses, in place of the leader's count's:
    what a cut names decides how widely the table and the small-card rule above reuse
    it (naming more cost the plan its gain with trumps). Nodes,
    every lead, the side on lead maximising, the same answers: see benchmarks/README.md,
    "A team's quick tricks together"."""
    cdef int L = s.leader, ts = s.ts, tc = t.trump_class[ts], P = -1, i, cls
    cdef int ll, pp, lp, sum_ll = 0, sum_max = 0, gain = -1, mx, cross = 0
    cdef u64 team, opp = 0, m_ll = 0, m_max = 0, m_pp = 0, cm, cm_t = 0
    cdef int ll_t = 0, pp_t = 0, lp_t = -1, mo_t = 0, sum_pp = 0, draw = 0, tot, n
    cdef u64 cms[NCLASSES]
    team = t.side_mask if (t.side_mask >> L) & 1 else (((<u64>1) << seats(shape, t)) - 1) & ~t.side_mask
    if popcount64(team) != 2:
        return k
    for i in range(seats(shape, t)):
        if i != L and (team >> i) & 1:
            P = i
    if not s.hands[P]:
        return k
    for i in range(seats(shape, t)):
        if not (team >> i) & 1:
            opp |= s.hands[i]
    if tc >= 0 and opp & t.follow[ts][tc]:
        # trumps against the team: a plan that first draws them, the trump class played from
        # the leader until no opponent has a trump left, then the side classes as below
        if not (s.hands[L] | s.hands[P]) & t.follow[ts][tc]:
            return k
        cm_t = team_class(shape, t, s, L, P, team, opp, tc, &ll_t, &pp_t, &lp_t)
        for i in range(seats(shape, t)):
            if not (team >> i) & 1:
                n = popcount64(s.hands[i] & t.follow[ts][tc])
                if n > mo_t:
                    mo_t = n
        if ll_t < mo_t and lp_t < mo_t:
            return k
        draw = 1
    for cls in range(t.ncls):
        cms[cls] = 0
        if (draw and cls == tc) or not (s.hands[L] | s.hands[P]) & t.follow[ts][cls]:
            continue
        cm = team_class(shape, t, s, L, P, team, opp, cls, &ll, &pp, &lp)
        cms[cls] = cm
        sum_ll += ll
        if ll:
            m_ll |= cm
        if pp:
            m_pp |= cm
        sum_pp += pp
        mx = ll if ll > pp else pp
        if mx:
            m_max |= cm
        sum_max += mx
        if lp - mx > gain:
            gain = lp - mx
            cross = cls
    if gain >= 0 and sum_max + gain > sum_ll:
        sum_ll = sum_max + gain
        m_ll = m_max | cms[cross]
    if draw:
        # from the leader's trumps the plan goes on from the leader; from the partner's, his
        # classes only (a crossing back never gives more)
        tot = ll_t + sum_ll if ll_t >= mo_t else -1
        if lp_t >= mo_t and lp_t + sum_pp > tot:
            tot = lp_t + sum_pp
            m_ll = m_pp
        if tot > k:
            mark[0] = m_ll | cm_t
            return tot
        return k
    if sum_ll > k:
        mark[0] = m_ll  # (the leader's own count's cards no longer matter)
        return sum_ll
    return k


cdef inline u64 team_class(Shape* shape, Tab* t, State* s, int L, int P, u64 team, u64 opp, int cls, int* ll,
                           int* pp, int* lp) noexcept nogil:
    """The rounds that leader ``L`` and partner ``P`` surely win in class ``cls`` played
    without a break: ``ll`` from ``L`` back to ``L``, ``pp`` from ``P`` to ``P``, ``lp``
    from ``L`` to ``P`` (-1: no way); ``opp``: the opponents' cards. The opponents keep
    their top card to the last (any other play only lowers what the team must beat) and
    run out after as many rounds as the longer of them has cards. One hand's cards above every other card of the class
    win a round each, led by it or, with the other hand on lead, by overtaking a card it
    leads; where no other seat holds more cards than that, the rest follow (the leader's
    rule of ``cashes``). The top two cards split between the hands, each with two cards
    or more (DDS's "Ax opposite Kx"): two rounds, any hand to any, one hand cashing its
    top card under which the other plays low, then leading low to the other's; and where
    the opponents hold two or fewer and one hand exactly two, as many rounds as the
    longer hand has cards, ending there (the short hand's top card first where it
    starts, else a low card to it and back). A finesse: the partner's top and third cards
    over the second, held by the opponent who plays before him on the leader's lead, win
    two rounds from the leader to the partner (DDS's ``QuickTricksPartnerHandNT``), all the
    partner's cards where the leader and the opponents hold two or fewer. Returns the
    cards whose ranks the counts rest on: the top ones (the rest win by lengths, which the
    keys hold), none where no other seat holds the class."""
    cdef u64 F = t.follow[s.ts][cls], Ls = s.hands[L] & F, Ps = s.hands[P] & F, Os = opp & F, a, b
    cdef u64 t1, t2, t3, m = 0
    cdef int between = t.seatmod[L + 1]  # plays second on L's lead
    cdef int x, y, mo = 0, i, n, pa, pb, v
    ll[0] = 0
    pp[0] = 0
    lp[0] = -1
    if not top_card(Ls | Ps | Os) & (Ls | Ps):
        return 0  # every rule below needs the class's top card
    x = popcount64(Ls)
    y = popcount64(Ps)
    if Os:
        for i in range(seats(shape, t)):
            if not (team >> i) & 1:
                n = popcount64(s.hands[i] & F)
                if n > mo:
                    mo = n
    a = Ls & above(Ps | Os)
    pa = popcount64(a)
    if pa:
        if Ps | Os:
            m |= a  # (the rest win by lengths, which the keys hold)
        ll[0] = x if y <= pa and mo <= pa else pa
    b = Ps & above(Ls | Os)
    pb = popcount64(b)
    if pb:
        if Ls | Os:
            m |= b
        pp[0] = y if x <= pb and mo <= pb else pb
        if x:
            lp[0] = pp[0]
    if x and y >= 2:
        # the finesse: whatever the opponent plays before him, the partner wins and his
        # other card is then the top one
        t1 = top_card(Ls | Ps | Os)
        t2 = top_card((Ls | Ps | Os) & ~t1)
        t3 = top_card((Ls | Ps | Os) & ~t1 & ~t2)
        if (t1 & Ps) and (t3 & Ps) and (s.hands[between] & t2) and not (team >> between) & 1:
            m |= t1 | t2 | t3
            v = 2
            if x <= 2 and mo <= 2:
                v = y
            if lp[0] < v:
                lp[0] = v
    if x >= 2 and y >= 2:
        t1 = top_card(Ls | Ps | Os)
        t2 = top_card((Ls | Ps | Os) & ~t1)
        if ((t1 & Ls) and (t2 & Ps)) or ((t1 & Ps) and (t2 & Ls)):
            m |= t1 | t2
            v = 2
            if mo <= 2 and (x == 2 or y == 2) and x != y:
                v = x if x > y else y
            if ll[0] < 2:
                ll[0] = 2
            if pp[0] < 2:
                pp[0] = 2
            if lp[0] < 2:
                lp[0] = 2
            if v > 2:
                if x > y:
                    ll[0] = v if v > ll[0] else ll[0]
                else:
                    pp[0] = v if v > pp[0] else pp[0]
                    lp[0] = v if v > lp[0] else lp[0]
    return m


cdef inline int trick_is_won(Shape* shape, Tab* t, State* s, int seat, u64* mark) noexcept nogil:
    """1 when the side of ``seat``, to move in a trick under way, wins it whatever the others
    do: its card winning so far, or one of the led suit that it still holds, beats every card
    of the led suit that the other side's seats still to play hold, and none of them can
    ruff (DDS's quick trick for the second hand, for any seat). ``mark``: that card, the rank
    the result rests on. Plain card games with plain must-follow."""
    cdef int ts = s.ts, cls = t.lead_class[ts][s.trick[0]], tc = t.trump_class[ts], side, i, o, p
    cdef int wp = -1, wi = 0, best = -1, opp = 0, pw
    cdef u64 f
    side = (t.side_mask >> seat) & 1
    for i in range(s.tlen):
        pw = t.power[ts][cls][s.trick[i]]
        if pw > wp:
            wp = pw
            wi = i
    if ((t.side_mask >> t.seatmod[s.leader + wi]) & 1) == side:
        best = wp
        mark[0] = (<u64>1) << s.trick[wi]
    for i in range(s.tlen, seats(shape, t)):
        o = t.seatmod[s.leader + i]
        f = s.hands[o] & t.follow[ts][cls]
        if ((t.side_mask >> o) & 1) == side:
            if f:
                p = 63 - __builtin_clzll(f)
                pw = t.power[ts][cls][p]
                if pw > best:
                    best = pw
                    mark[0] = (<u64>1) << p
        elif f:
            pw = t.power[ts][cls][63 - __builtin_clzll(f)]
            if pw > opp:
                opp = pw
        elif tc >= 0 and tc != cls and s.hands[o] & t.follow[ts][tc]:
            return 0  # void, and could ruff
    return best > opp and best >= wp


cdef inline u64 top_card(u64 m) noexcept nogil:
    """The highest bit of ``m`` (0 if none)."""
    return ((<u64>1) << (63 - __builtin_clzll(m))) if m else 0


cdef inline int holder_of(State* s, u64 b) noexcept nogil:
    """The seat that holds card ``b`` (-1 if none)."""
    cdef int i
    if b:
        for i in range(4):
            if s.hands[i] & b:
                return i
    return -1


cdef inline int trumps_out(Tab* t, State* s) noexcept nogil:
    """The trump suit while some trump is still in a hand, else -1."""
    cdef int T = t.trump_class[s.ts]
    if T >= 0 and (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]) & t.suit_mask[T]:
        return T
    return -1


cdef inline bint cashing_rules(Shape* shape, Tab* t, State* s) noexcept nogil:
    """Whether a top card surely wins the trick it is led to: plain card games with no trumps
    out, but Mittlere Jass (a void seat's card there fixes a trump)."""
    return plain(shape, t) and t.suit_mask[0] != 0 and not jass_rules(shape, t) and trumps_out(t, s) < 0


cdef inline int cash_after_trick(Tab* t, State* s, u64* mark) noexcept nogil:
    """With no trumps out: the tricks the side whose card ``mark[0]`` (a card still in a hand)
    wins the trick under way then surely cashes, as DDS counts them for the second hand in
    no-trump (``QuickTricksSecondHand``), here for any seat: its holder, on lead, takes a
    trick with the next card of the led suit where that is the top one left, one with each
    other suit's top card, and every card of a suit that no one else holds. Each wins, so it
    stays on lead; the others' plays meanwhile only spend their cards. ``mark`` gets the top
    cards counted (lengths are keyed). Where ``cashing_rules`` holds."""
    cdef int k = 0, hh, S, x
    cdef u64 w = mark[0], rem, R, H, m
    hh = holder_of(s, w)
    if hh < 0:
        return 0  # won by a card already played: who holds what next is less plain
    S = t.piece_suit[ctz64(w)]
    rem = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    H = s.hands[hh]
    R = top_card(rem & t.suit_mask[S] & ~w)
    if R & H:
        k += 1
        mark[0] |= R
    for x in range(4):
        m = H & t.suit_mask[x]
        if x == S or not m:
            continue
        R = rem & t.suit_mask[x]
        if R == m:
            k += popcount64(m)
        elif top_card(R) & m:
            k += 1
            mark[0] |= top_card(R)
    return k


cdef inline int outmatched(u64 A, u64 B) noexcept nogil:
    """The most cards of ``A`` that can each be paired with a distinct higher card of ``B``
    (trumps as power bits): pairing each of ``A`` from the top with the highest of ``B``
    left is optimal, as any card of ``B`` above a higher card of ``A`` is above a lower one."""
    cdef int k = 0, h, o
    while A and B:
        h = 63 - __builtin_clzll(A)
        o = 63 - __builtin_clzll(B)
        if o > h:
            k += 1
            B &= ~((<u64>1) << o)
        A &= ~((<u64>1) << h)
    return k


cdef inline int trump_tricks(Shape* shape, Tab* t, State* s, int* mine, int* theirs, u64* mmark,
                             u64* tmark) noexcept nogil:
    """Sure trump tricks of the hero's side (``mine``) and of the others (``theirs``); 1 when
    a trump is fixed. A trump wins its trick unless a higher trump is in it, and every card
    is played, each of a seat's cards in a trick of its own. Two counts, the larger holds:

    - one seat's trumps, less the most of them that can each be paired with a distinct
      higher trump of the other side (each of those beats at most one of them, one card
      of each seat to a trick); ranks: that seat's trumps, closed upwards (none when the
      other side holds no trump: the count is then a suit length);
    - a side's trumps above all of the other side's, at most one a seat of it to a trick;
      ranks: the other side's top trump, closed upwards (none when it holds no trump)."""
    cdef int tc = t.trump_class[s.ts], p, pw, i, k, nS = 0, topS = -1, topO = -1
    cdef u64 P[4]
    cdef u64 CS[4]
    cdef u64 PS = 0, PO = 0, m, cS = 0, cO = 0
    mine[0] = 0
    theirs[0] = 0
    mmark[0] = 0
    tmark[0] = 0
    if tc < 0 or (jass_rules(shape, t) and s.ts == NONE):
        return 0
    for i in range(seats(shape, t)):
        P[i] = 0
        CS[i] = s.hands[i] & t.follow[s.ts][tc]
        m = CS[i]
        while m:
            p = ctz64(m)
            m &= m - 1
            pw = t.power[s.ts][tc][p] - 100  # trumps: 100 + their rank among trumps (solver.tables)
            P[i] |= (<u64>1) << pw
            if (t.side_mask >> i) & 1:
                if pw > topS:
                    topS = pw
                    cS = (<u64>1) << p
            elif pw > topO:
                topO = pw
                cO = (<u64>1) << p
        if (t.side_mask >> i) & 1:
            PS |= P[i]
            nS += 1
        else:
            PO |= P[i]
    for i in range(seats(shape, t)):
        if (t.side_mask >> i) & 1:
            k = popcount64(P[i]) - outmatched(P[i], PO)
            if k > mine[0]:
                mine[0] = k
                mmark[0] = CS[i] if PO else 0
        else:
            k = popcount64(P[i]) - outmatched(P[i], PS)
            if k > theirs[0]:
                theirs[0] = k
                tmark[0] = CS[i] if PS else 0
    k = (popcount64(PS >> (topO + 1)) + nS - 1) // nS
    if k > mine[0]:
        mine[0] = k
        mmark[0] = cO
    k = (popcount64(PO >> (topS + 1)) + seats(shape, t) - nS - 1) // (seats(shape, t) - nS)
    if k > theirs[0]:
        theirs[0] = k
        tmark[0] = cS
    return 1


cdef inline void trump_points(Shape* shape, Tab* t, State* s, int* mine, int* theirs, u64* mmark,
                              u64* tmark) noexcept nogil:
    """Points of trumps that surely go one way (Minimo's K of trumps, and Q or A where
    spades or hearts are trumps; Jass's, once its trump is fixed): a trump above all of
    the others' is the hero's when he plays it (``mine``, the points he gets; ranks: their
    top trump, closed upwards), one of theirs above all of his never is (``theirs``, the
    most it could have given him; ranks: his top trump, closed upwards)."""
    cdef int tc = t.trump_class[s.ts], hero = t.hero, p, htop, otop, i
    cdef u64 T = t.follow[s.ts][tc], H = s.hands[hero] & T, O = 0, m
    for i in range(seats(shape, t)):
        if i != hero:
            O |= s.hands[i] & T
    htop = best_power(shape, t, s.ts, tc, H)
    otop = best_power(shape, t, s.ts, tc, O)
    mine[0] = 0
    theirs[0] = 0
    mmark[0] = 0
    tmark[0] = 0
    m = (H | O) & t.pointed[s.ts]
    while m:
        p = ctz64(m)
        m &= m - 1
        if (H >> p) & 1:
            if t.power[s.ts][tc][p] > otop:
                mine[0] += t.points[s.ts][p]
                if O:
                    mmark[0] = (<u64>1) << (63 - __builtin_clzll(O)) if plain(shape, t) else O
        elif t.power[s.ts][tc][p] > htop:
            theirs[0] += t.max_future[s.ts][p]
            if H:
                tmark[0] = (<u64>1) << (63 - __builtin_clzll(H)) if plain(shape, t) else H


cdef inline int must_win_lead(Shape* shape, Tab* t, State* s) noexcept nogil:
    """1 when the leader's team wins this trick whatever it leads, as long as the other
    team never beats a card unless forced to. Nobody must overtake or trump in these
    games, so a seat is forced only when every card it may play would win: all its
    cards of the led class are higher, or it is void and holds nothing but trumps."""
    cdef int L = s.leader, o, x, q, ts = s.ts, lo, tc = t.trump_class[ts]
    cdef u64 m, f, low, tm
    if plain(shape, t) or (t.suit_mask[0] and not jass_rules(shape, t)):
        # power rises with the bit among the pieces that follow a class (cards in suits; Moon's
        # relabelled tiles), the trumps above them: the leader's lowest piece of each class
        # decides, compared as bits, and a void seat is forced where it holds only trumps (a
        # trick start: no hand is empty). For tiles, against the per-piece loop below: Moon
        # 3p and 4p full deals, the same nodes, 0.5% fewer instructions
        for x in range(t.ncls):
            m = s.hands[L] & t.lead_mask[ts][x]
            if not m:
                continue
            low = m & (~m + 1)
            tm = t.follow[ts][tc] & ~t.follow[ts][x] if tc >= 0 else 0
            for o in range(seats(shape, t)):
                if ((t.side_mask >> o) & 1) == ((t.side_mask >> L) & 1):
                    continue
                f = s.hands[o] & t.follow[ts][x]
                if f:
                    if (f & (~f + 1)) > low:
                        return 0
                elif not (s.hands[o] & ~tm):
                    return 0  # void, and nothing but trumps
        return 1
    # Tiles whose power does not follow the bits: a lead forces an opponent when all that he
    # may play is above it, so the leader's lowest piece of each class decides
    for x in range(t.ncls):
        m = s.hands[L] & t.lead_mask[ts][x]
        if not m:
            continue
        lo = low_power(shape, t, ts, x, m)
        for o in range(seats(shape, t)):
            if ((t.side_mask >> o) & 1) == ((t.side_mask >> L) & 1):
                continue
            f = s.hands[o] & t.follow[ts][x]
            if not f:
                f = s.hands[o]  # void: forced only if every piece would win (all trumps)
            while f:
                q = ctz64(f)
                f &= f - 1
                if t.power[ts][x][q] <= lo:
                    break
            else:
                return 0  # this lead forces an opponent to win the trick
    return 1


cdef inline int short_of_all(Tab* t, State* s, int side, int r, u64* mark) noexcept nogil:
    """1 when ``side`` (1: the hero's, 0: the other), a team of two partners facing each other
    in a plain card game with no trump left in play, cannot take all of the ``r`` tricks left
    against the other team playing to take one: the longer of its two holdings, summed over
    the suits whose top card it holds, comes to fewer than ``r`` (DDS's later-tricks rule in
    no-trump). ``mark``: the top cards the other team holds of suits the side holds cards of.

    Why it holds: let the other side play a top card it holds whenever its suit is led (or
    lead it), and discard one only when all its cards are top cards of suits other than the
    one led. If the side took every trick, each trick until such a discard would be led in a
    suit whose top card it held from the start, and a suit's tricks spend a card of each of
    its hands holding it, so there are at most the longer holding's count of them; the
    discard comes with k <= 3 tricks left (one top card a suit, none in the suit led), where
    the claim for the k-card ending (checked on every such ending: tests/test_engine.py)
    takes the count the rest of the way. Nodes, every lead, the same answers: bridge cut to
    8 and 10 cards, no trump, 8.7% and 7.7% fewer, full deals in no-trump (20) 6.9%, the
    bridge set's 100 full deals 4.0% (its trump deals 1.9%); Minimisere partners cut to 7,
    8.6%. Instructions (callgrind, 7 no-trump full deals): 14.7% fewer."""
    cdef int x, o, o2, top, ln, most, total = 0
    cdef u64 rem = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3], m, tops = 0
    for x in range(4):
        m = rem & t.suit_mask[x]
        if not m:
            continue
        top = 63 - __builtin_clzll(m)
        o = 0
        while not (s.hands[o] >> top) & 1:
            o += 1
        most = 0
        for o2 in range(4):
            if ((t.side_mask >> o2) & 1) == side:
                ln = popcount64(s.hands[o2] & t.suit_mask[x])
                if ln > most:
                    most = ln
        if ((t.side_mask >> o) & 1) != side:
            if most:
                # the other side's top card keeps the side's cards of the suit out of the
                # count; where the side holds the top card the count only grows with it, and
                # a position that agrees on the ranks marked holds no more of them
                tops |= (<u64>1) << top
            continue
        total += most
        if total >= r:
            return 0
    mark[0] = tops
    return 1


cdef inline int king_over_ace(Tab* t, State* s, int side, u64 tr, u64* mark) noexcept nogil:
    """1 when ``side`` (1: the hero's, 0: the other) surely can take a trick with its trumps
    though the other side holds the top trump: it holds the second trump, with another
    trump, in the seat right after the top trump's holder, and is not on lead (DDS's
    later-tricks rule with trumps). Until its side takes a trick that seat does not lead, so
    the top trump's holder plays before it in every trick: it plays its second trump the
    first time it plays a trump to a trick without the top trump in it (which it then wins),
    its other trump under the top trump, after which its own is top. On lead it could be
    made to spend its other trump and play the second one under the top (found by checking
    the rule against exact values on random play-outs). ``mark``: the two top trumps.
    Nodes, every lead, the same answers: bridge cut to 8 cards with trumps cycling (60) 3.0%
    fewer, cut to 10 with spades trumps (40) 0.8%, the bridge set's 100 full deals 0.6%."""
    cdef int a, k, ha = 0, hk = 0
    cdef u64 rest
    if not tr or not (tr & (tr - 1)):
        return 0
    a = 63 - __builtin_clzll(tr)
    rest = tr & ~((<u64>1) << a)
    k = 63 - __builtin_clzll(rest)
    while not (s.hands[ha] >> a) & 1:
        ha += 1
    while not (s.hands[hk] >> k) & 1:
        hk += 1
    if ((t.side_mask >> hk) & 1) != side or ((t.side_mask >> ha) & 1) == side or hk == s.leader \
            or t.seatmod[ha + 1] != hk or popcount64(s.hands[hk] & tr) < 2:
        return 0
    mark[0] = ((<u64>1) << a) | ((<u64>1) << k)
    return 1


cdef inline int misses_one(Tab* t, State* s, int side, int r, u64 tr, u64* mark) noexcept nogil:
    """1 when ``side`` (1: the hero's, 0: the other) cannot take all of the ``r`` tricks left
    against the other team playing to take one (DDS's later-tricks rule): with trumps
    ``tr`` in play, where the other team's second trump sits over the top one
    (``king_over_ace``); with none, where the side's holdings under its top cards fall short
    (``short_of_all``)."""
    if tr:
        return king_over_ace(t, s, 1 - side, tr, mark)
    return short_of_all(t, s, side, r, mark)


cdef inline u64 low_piece(Shape* shape, Tab* t, int ts, int cls, u64 m) noexcept nogil:
    """The piece of ``m`` (all following ``cls``) lowest in it, as a mask."""
    cdef int p, low = 1 << 30
    cdef u64 out = 0
    if plain(shape, t):
        return m & (~m + 1)
    while m:
        p = ctz64(m)
        m &= m - 1
        if t.power[ts][cls][p] < low:
            low = t.power[ts][cls][p]
            out = (<u64>1) << p
    return out


cdef int loses_two(Shape* shape, Ctx* c, Tab* t, State* s) noexcept nogil:
    """1 when a lone hero who avoids tricks, with three players, surely loses two of the
    tricks to come, as a search of the trick at hand proves (``lose_trick_then_one``).
    Not on lead, the search runs only where he can lose this trick against every class the
    leader can lead (``ducks_every_lead``), which nearly every position it proves passes.
    With tiles it replaced a static test of the next two tricks that saw neither which seat
    wins the first nor which pieces that trick spends: moon3 full deals, 100, 33% fewer
    nodes and 6.7% fewer instructions (the search's own plays, about 8 a call, are not
    nodes). With cards it runs where the static count (``exits_after_trick``) falls short:
    see ``lone_exits``."""
    cdef u64 hero = (<u64>1) << t.hero
    if s.leader != t.hero and not ducks_every_lead(shape, t, s, hero):
        return 0
    return lose_trick_then_one(shape, c, t, s, hero)


cdef int lose_trick_then_one(Shape* shape, Ctx* c, Tab* t, State* s, u64 team) noexcept nogil:
    """1 when ``team`` (the lone hero's seat, or a team of two that avoids tricks) can play
    the trick in progress so that, whatever the other side plays, it surely loses two of
    the tricks from this one on: it does not win it and then surely loses the next
    (``ducks_every_lead``; a lone hero also by ``lone_exits``), or, a lone hero, he wins it
    and the table already holds that he loses two of the tricks after (``table_loses``:
    moon3 full deals, 100, 6% fewer nodes and 3% fewer instructions). Of equivalent cards
    one is tried (without that, the search cost Minimo more time than it saved); of tiles
    every legal piece: dropping equivalent ones cost more than the plays it spared."""
    cdef int seat = t.seatmod[s.leader + s.tlen], p, ok, mine = (team >> seat) & 1
    cdef int lone = team == t.side_mask == (<u64>1) << t.hero  # the lone hero's own losses
    cdef u64 moves = legal(shape, t, s, seat), mark = 0
    cdef State ch
    if t.suit_mask[0] and moves & (moves - 1):
        moves = drop_equivalents(shape, t, s, moves)
    while moves:
        p = ctz64(moves)
        moves &= moves - 1
        ch = s[0]
        play(shape, t, &ch, p)
        if ch.tlen:
            ok = lose_trick_then_one(shape, c, t, &ch, team)
        elif not (team >> ch.leader) & 1:
            ok = ducks_every_lead(shape, t, &ch, team) or (lone and lone_exits(shape, c, t, &ch, &mark, 1) > 0)
        else:
            ok = lone and table_loses(shape, c, t, &ch, 2)
        if ok == mine:
            return ok  # a play of the team's that works, or one of the others' that refutes
    return not mine


cdef inline int table_loses(Shape* shape, Ctx* c, Tab* t, State* s, int need) noexcept nogil:
    """1 when an exact-key table entry for this trick start holds that the side, wanting no
    tricks, takes at most all but ``need`` of those left (tricks the measure)."""
    cdef int r = popcount64(s.hands[s.leader])
    cdef Key key
    cdef u64 h
    cdef Entry* e
    if r <= c.tt_min or parted(shape, t) or not (c.use_tt and t.qt_ok):
        return 0
    make_key(shape, c, t, s, &key)
    h = hash_of(c, &key)
    e = tt_find(c, &key, h)
    return e != NULL and e.hi <= r - need


cdef inline int loses_led(Shape* shape, Tab* t, State* s, int q, u64 team, int x, u64 Lx, u64 tm,
                          u64* used) noexcept nogil:
    """1 when seat ``q`` of ``team`` (the lone hero, or a seat of a team), not on lead, surely
    plays under a piece of the other side to a trick the leader leads in class ``x`` (from
    ``Lx``; ``tm``: the trumps): it holds a piece of it that ``ducks_lead``, or, void, a
    piece that is no trump to discard (any piece where trumps are led and it has none)."""
    cdef u64 hx = s.hands[q] & t.follow[s.ts][x]
    if hx:
        return ducks_lead(shape, t, s, team, x, Lx, hx, used)
    return x == t.trump_class[s.ts] or (s.hands[q] & ~tm) != 0


cdef inline int bad_leader(Shape* shape, Tab* t, State* s, int w, u64 H, int lag, u64* used) noexcept nogil:
    """1 when seat ``w`` leads nothing, after ``lag`` more tricks, that a lone hero holding
    ``H`` cannot play under: in each suit ``w`` holds, his lowest card is below its lowest,
    or below the lowest of another seat that holds more than ``lag`` of the suit and must
    follow (lowest cards only rise), or he has none and a card that is no trump to shed.
    Cards in suits, rank order = bit order; ``used`` gets the lowest cards compared. (The
    test of ``ducks_lead``, for a seat that leads later; written on ``ducks_lead`` itself,
    with a leading seat and the lag as arguments, it cost Minimisere cut to 9 cards 1.9% more
    instructions and 0.16% more nodes, through its marks made before the test.)"""
    cdef int x, o, ts = s.ts
    cdef u64 Wx, hx, h, f, tm = t.suit_mask[ts] if ts != NONE else 0
    for x in range(4):
        Wx = s.hands[w] & t.suit_mask[x]
        if not Wx:
            continue
        hx = H & t.suit_mask[x]
        if hx:
            h = hx & (~hx + 1)
            if h < (Wx & (~Wx + 1)):
                used[0] |= h | (Wx & (~Wx + 1))
                continue
            for o in range(seats(shape, t)):
                f = s.hands[o] & t.suit_mask[x]
                if o != w and o != t.hero and popcount64(f) > lag and h < (f & (~f + 1)):
                    used[0] |= h | (f & (~f + 1))
                    break
            else:
                return 0
        elif x != ts and tm and not (H & ~tm):
            return 0
    return 1


cdef inline int all_lead_into(Shape* shape, Tab* t, State* s, u64 H, u64* used) noexcept nogil:
    """1 when every other seat holding cards is a ``bad_leader`` after one trick."""
    cdef int o
    for o in range(seats(shape, t)):
        if o != t.hero and s.hands[o] and not bad_leader(shape, t, s, o, H, 1, used):
            return 0
    return 1


cdef inline int exit_to_bad_leader(Shape* shape, Tab* t, State* s, u64 H, int spare, u64* mark) noexcept nogil:
    """On lead with ``H``, a lone hero who avoids tricks surely loses two: he leads his
    lowest card of a suit in which some seat holds only higher cards (it must beat it), and
    every seat that could win that trick is a ``bad_leader`` for what he keeps. With
    ``spare``, the test holds after any one trick more: that seat must hold two, and a seat
    with one card of the suit may be void of it by then and trump. ``mark``: the lowest
    cards compared."""
    cdef int y, o, w, hero = t.hero, ts = s.ts, ok
    cdef u64 Hy, e, f, used
    cdef u64 tm = t.suit_mask[ts] if ts != NONE else 0
    for y in range(4):
        Hy = H & t.suit_mask[y]
        if not Hy:
            continue
        e = Hy & (~Hy + 1)
        used = e
        ok = 0
        for o in range(seats(shape, t)):
            f = s.hands[o] & t.suit_mask[y]
            if o != hero and f and (f & (~f + 1)) > e and (not spare or f & (f - 1)):
                ok = 1
                used |= f & (~f + 1)
                break
        if not ok:
            continue
        for w in range(seats(shape, t)):
            if w == hero:
                continue
            f = s.hands[w] & t.suit_mask[y]
            if not (f & ~(e - 1)) and not (y != ts and s.hands[w] & tm and (not f or spare and not (f & (f - 1)))):
                continue  # it cannot win the exit trick (nor trump it, void by then)
            if not bad_leader(shape, t, s, w, H & ~e, 1 + spare, &used):
                ok = 0
                break
        if ok:
            mark[0] = used
            return 1
    return 0


cdef inline int lone_exits(Shape* shape, Ctx* c, Tab* t, State* s, u64* mark, int need) noexcept nogil:
    """Tricks a lone hero who avoids them can surely lose of those to come (nobody must
    overtake, everyone must follow). An exit: a class, ``a`` of his pieces leading it,
    below every piece of it that some other seat holds, and ``b`` of that seat's pieces:
    those of the class, or all of them where it has none and nothing but trumps. On lead
    with ``a, b >= 1`` he leads one and the seat must beat it. Each trick takes at most one
    from each count, and one he is made to win puts him on lead: so he loses ceil(m/2) on
    lead, floor(m/2) not, with m = min(a, b) (the best exit). With cards, outside trumps,
    a trick he is made to win spends none of his ``a`` (a card of the class, played or
    discarded, would lose it), so only ``b`` runs down twice as fast: min(a, ceil(b/2)) on
    lead, min(a, floor(b/2)) not (tiles follow two classes, trumps can be made to win:
    those keep m). Such exits of cards against one seat add up: with P the sum over them of
    min(b, 2a), he loses ceil(P/2) on lead and floor(P/2) not, by induction on the tricks:
    the seat plays one card a trick, so a trick he is made to win (never with an exit card)
    lowers P by at most 1, one he loses by at most 2, and on lead he exits where b < 2a,
    lowering P by exactly 1; where there is no such exit, P is even and an exit lowers it by
    2 (Minimisere cut to 9 cards, 20 positions: 7.4% fewer nodes, 9% fewer instructions;
    Minimo full deals 1.5% fewer nodes). With cards, on lead, two are also lost where an
    exit's trick goes to seats that can only lead into him (``exit_to_bad_leader``). Not on
    lead, one trick is also lost when, whatever class the leader leads, he can lose that
    trick (``ducks_lead``) or an exit survives it (``exit_after``); two or more, where that
    trick leaves enough of an exit or its winner must lead into him (``exits_after_trick``). Asked
    for two with three players, the search of the trick at hand (``loses_two``): with
    tiles alone (one exit's count seldom reaches 2), with cards where the count above falls
    short (Minimo full deals, 100, tricks 8-11% and points 2.6% fewer nodes, the same
    instructions, about 4% less time), not with partition search (its proof names no ranks). ``need``:
    the count that would decide the caller's window (the search stops once it is reached,
    and looks past the next trick only for more than one); 0: the best count, without that
    look. Jass: once its trump is fixed, and outside trumps (a lone trump
    J need not follow): a seat holding the suit follows it or trumps, either beats him, and
    only a void seat discards; not ``exit_after``, whose follow rules are plain ones
    (jass/after3 tricks, 20 positions, 7.0% fewer nodes; jass/full, 6 deals, 4.5%; with the
    weaker count of halved min(a, b) it had cost nodes). ``mark``: the lowest pieces
    of the classes the result rests on, his and the leader's (closed upwards, they fix who
    holds what above; lengths are keyed)."""
    cdef int hero = t.hero, ts = s.ts, tc = t.trump_class[ts], x, y, o, p, lo, k, best = 0, L = s.leader
    cdef int lead = L == hero, ne = 0, cards = t.suit_mask[0] != 0, bits
    cdef int ea[32]
    cdef int eb[32]
    cdef int ev[32]      # 1: the seat is void in the class and holds nothing but trumps
    cdef int ey[32]
    cdef int eo[32]
    cdef u64 el[32]
    cdef u64 H, f, m, tm, hx, Lx, used = 0
    cdef int pp[4]       # per seat: the sum P of its exits (see above)
    cdef u64 pm[4]
    if (jass_rules(shape, t) and ts == NONE) or not t.lone_min:
        return 0
    memset(pp, 0, sizeof(pp))
    memset(pm, 0, sizeof(pm))
    if need == 2 and not cards:
        return 2 if seats(shape, t) == 3 and loses_two(shape, c, t, s) else 0
    tm = t.follow[ts][tc] if tc >= 0 else 0
    # (Jass outside trumps, all these look at: a suit ranks in bit order)
    bits = plain(shape, t) or jass_rules(shape, t)
    for y in range(t.ncls):
        H = s.hands[hero] & t.lead_mask[ts][y]
        if not H or (jass_rules(shape, t) and y == tc):
            continue
        for o in range(seats(shape, t)):
            if o == hero or not s.hands[o]:
                continue
            f = s.hands[o] & t.follow[ts][y]
            if f:
                ev[ne] = 0
                eb[ne] = popcount64(f)
                if bits:
                    ea[ne] = popcount64(H & ((f & (~f + 1)) - 1))  # power follows the bits
                else:
                    lo = low_power(shape, t, ts, y, f)
                    ea[ne] = 0
                    m = H
                    while m:
                        p = ctz64(m)
                        m &= m - 1
                        ea[ne] += t.power[ts][y][p] < lo
                if not ea[ne]:
                    continue
                if parted(shape, t):  # marks: partition search only
                    el[ne] = H & (~H + 1) if bits else low_piece(shape, t, ts, y, H)
                else:
                    el[ne] = 0
            elif y != tc and not (s.hands[o] & ~tm):
                ev[ne] = 1  # void, and nothing but trumps: lengths decide
                eb[ne] = popcount64(s.hands[o])
                ea[ne] = popcount64(H)
                el[ne] = 0
            else:
                continue
            k = f_exit(ea[ne], eb[ne], lead, cards and y != tc)
            if k > best:
                best = k
                mark[0] = el[ne]
                if need and best >= need:
                    return best
            if cards and y != tc and not ev[ne]:
                # a seat's exits add up (see the docstring)
                pp[o] += eb[ne] if eb[ne] < 2 * ea[ne] else 2 * ea[ne]
                pm[o] |= el[ne]
                k = (pp[o] + lead) >> 1
                if k > best:
                    best = k
                    mark[0] = pm[o]
                    if need and best >= need:
                        return best
            ey[ne] = y
            eo[ne] = o
            ne += 1
    if lead and best < 2 and need != 1 and cards and not jass_rules(shape, t) and popcount64(s.hands[hero]) >= 2 \
            and exit_to_bad_leader(shape, t, s, s.hands[hero], 0, &used):
        mark[0] = used
        return 2
    if lead or jass_rules(shape, t):
        return best
    if need > 1:
        k = exits_after_trick(shape, t, s, ne, ea, eb, ev, ey, eo, el, &used, need)
        if k > best:
            mark[0] = used
            return k
        if need == 2 and seats(shape, t) == 3 and not parted(shape, t) and loses_two(shape, c, t, s):
            return 2
        return best
    if best:
        return best
    # Not on lead, no exit that two tricks leave: the classes the leader can make him win
    for x in range(t.ncls):
        Lx = s.hands[L] & t.lead_mask[ts][x]
        if not Lx:
            continue
        if loses_led(shape, t, s, hero, (<u64>1) << hero, x, Lx, tm, &used):
            continue
        if parted(shape, t) and not s.hands[hero] & t.follow[ts][x]:
            used |= low_piece(shape, t, ts, x, Lx)  # void, with only trumps
        k = exit_after(shape, t, s, x, ne, ea, eb, ev, ey, eo)
        if k < 0:
            return 0
        used |= el[k]
    mark[0] = used
    return 1


cdef inline int ducks_lead(Shape* shape, Tab* t, State* s, u64 team, int x, u64 Lx, u64 hx,
                           u64* used) noexcept nogil:
    """1 when a seat of ``team`` (the lone hero's, or one of a team's) holding ``hx`` of class
    ``x`` surely plays under a piece of the other side to a trick the leader leads in it: its
    lowest piece of it is below the leader's lowest (``Lx``), or below every piece of it that
    some other seat of the leader's side, before or after it, must follow with. ``used`` gets the
    lowest pieces compared (partition search). Not on lead, the leader's lowest alone left
    tricks unproved in which a later seat had to beat him (moon3 full deals, 100: 3.6% fewer
    nodes, 2.4% fewer instructions; minimisere/after6, 30: 1.1% and 0.9%)."""
    cdef int ts = s.ts, lo, o
    cdef u64 f, h
    if plain(shape, t):
        # power rises with the bit within a class: the lowest pieces compare as bits (with
        # the class loops stopping at ``ncls``: the same nodes, 1.1-1.2% fewer instructions
        # on Minimisere cut to 8 cards and Minimo full deals, 0.4-0.9% on the other games)
        h = hx & (~hx + 1)
        if parted(shape, t):
            used[0] |= h | (Lx & (~Lx + 1))
        if h < (Lx & (~Lx + 1)):
            return 1
        for o in range(seats(shape, t)):
            if o == s.leader or (team >> o) & 1:
                continue
            f = s.hands[o] & t.follow[ts][x]
            if f and (f & (~f + 1)) > h:
                if parted(shape, t):
                    used[0] |= f & (~f + 1)
                return 1
        return 0
    lo = low_power(shape, t, ts, x, hx)
    if parted(shape, t):
        used[0] |= low_piece(shape, t, ts, x, hx) | low_piece(shape, t, ts, x, Lx)
    if lo < low_power(shape, t, ts, x, Lx):
        return 1
    for o in range(seats(shape, t)):
        if o == s.leader or (team >> o) & 1:
            continue
        f = s.hands[o] & t.follow[ts][x]
        if f and low_power(shape, t, ts, x, f) > lo:
            if parted(shape, t):
                used[0] |= low_piece(shape, t, ts, x, f)
            return 1
    return 0


cdef inline int f_exit(int a, int b, int lead, int plain) noexcept nogil:
    """What one exit surely loses (``lone_exits``' count)."""
    cdef int k
    if a <= 0 or b <= 0:
        return 0
    if plain:
        k = (b + lead) // 2
        return a if a < k else k
    k = a if a < b else b
    return (k + lead) // 2


cdef inline int exits_after_trick(Shape* shape, Tab* t, State* s, int ne, int* ea, int* eb,
                                  int* ev, int* ey, int* eo,
                                  u64* el, u64* mark, int need) noexcept nogil:
    """Not on lead: the least, over the classes the leader can lead, of what he surely loses
    from here (0 where that is below ``need``): 1 for this trick where he can lose it
    (``ducks_lead``, or a discard) and then, not on lead, the best exit's count on what the
    trick leaves of it; where he may be made to win it, the count on lead instead (losing it
    would leave him no less: 1 + floor(m/2) >= ceil(m/2)). What the trick leaves: as in
    ``exit_b_after``, the worst each seat's play can take off, whoever wins. Only exits that
    could reach ``need`` are looked at. Card games only, and only where one exit count could
    not decide (minimo full deals, 100: 5.0% fewer nodes; minimisere/after6, 30: 12%; both
    about as many instructions; Moon 3p 0.7% fewer nodes and 5% more instructions). With
    cards, two also where, he playing his lowest card of the class, the trick's winner can
    only lead into him (``bad_leader``), and, where he may be made to win it, the exit he
    then has gives the lead to such seats too (``exit_to_bad_leader``, allowing for this
    trick: found unsound without the first half, where the others let him lose and shed
    the exit's cards; see the tests)."""
    cdef int ts = s.ts, tc = t.trump_class[ts], L = s.leader, hero = t.hero, x, i, y, o
    cdef int a1, a2, b1, v, vx, total = 1 << 20, duck, cards = t.suit_mask[0] != 0, plain, spend
    cdef u64 Lx, hx, used = 0, cand, H = s.hands[hero], d
    cdef u64 tm = t.follow[ts][tc] if tc >= 0 else 0
    cdef int use[32]
    cdef int nu = 0, j
    for i in range(ne):
        if need <= 1 or 1 + f_exit(ea[i], eb[i], 0, cards and ey[i] != tc) >= need:
            use[nu] = i
            nu += 1
            used |= el[i]
    if need > 1 and not nu:
        return 0
    for x in range(t.ncls):
        Lx = s.hands[L] & t.lead_mask[ts][x]
        if not Lx:
            continue
        hx = H & t.follow[ts][x]
        if hx:
            duck = ducks_lead(shape, t, s, (<u64>1) << t.hero, x, Lx, hx, &used)
        else:
            duck = x == tc or (H & ~tm) != 0
            if not duck and parted(shape, t):
                used |= low_piece(shape, t, ts, x, Lx)
        vx = 1 if duck else 0
        for j in range(nu):
            i = use[j]
            y = ey[i]
            o = eo[i]
            plain = cards and y != tc
            if hx:
                a1 = ea[i] - (1 if hx & t.lead_mask[ts][y] else 0)
            elif duck:
                cand = H & ~tm
                a1 = ea[i] - (0 if cand & ~t.lead_mask[ts][y] else 1)
            else:
                a1 = ea[i] - (0 if popcount64(H) > ea[i] else 1)  # only trumps: a non-exit one if any
            b1 = exit_b_after(shape, t, s, x, y, o, eb[i], ev[i], &spend)
            if duck:
                v = 1 + f_exit(a1, b1 - spend, 0, plain)  # (he loses the trick either way)
            else:
                v = f_exit(a1, b1, 1, plain)
                if spend:
                    a2 = a1 if hx else ea[i] - 1
                    a2 = 1 + f_exit(a2, eb[i] - 1, 0, plain)
                    if a2 < v:
                        v = a2
            if v > vx:
                vx = v
                if vx >= need:
                    break
        if vx < 2 and need >= 2 and duck and cards and not jass_rules(shape, t) and popcount64(H) >= 2:
            # he loses this trick, and its winner leads into him
            d = hx & (~hx + 1) if hx else (<u64>1) << (63 - __builtin_clzll(H & ~tm))
            if all_lead_into(shape, t, s, H & ~d, &used):
                vx = 2
        if vx < 2 and need >= 2 and not duck and hx and cards and not jass_rules(shape, t) and popcount64(H) >= 3 \
                and exit_to_bad_leader(shape, t, s, H & ~(hx & (~hx + 1)), 1, &used) \
                and all_lead_into(shape, t, s, H & ~(hx & (~hx + 1)), &used):
            # he plays his lowest card of the suit: made to win, the exit above (two tricks
            # after this one); let lose, the trick's winner leads into him
            vx = 2
        if vx < total:
            total = vx
            if total < need:
                return 0
    mark[0] = used
    return total


cdef inline int exit_b_after(Shape* shape, Tab* t, State* s, int x, int y, int o, int eb, int ev,
                             int* spend) noexcept nogil:
    """What is surely left of an exit's ``eb`` (class ``y``, seat ``o``; ``ev``: void there, all
    trumps) after a trick the leader leads in class ``x``: one less where the seat's play
    could be one of its count. ``spend``: 1 where that play would be a trump above his exit
    trumps, spent by a seat void in ``x`` in a trick he must follow or plays after it in, so
    that he loses that trick (the count is then left whole for a trick he wins)."""
    cdef int ts = s.ts, L = s.leader, n = seats(shape, t), tc = t.trump_class[ts]
    cdef u64 f = s.hands[o] & t.follow[ts][y]
    spend[0] = 0
    if ev:
        return eb - 1
    if o == L:
        return eb - (1 if f & t.lead_mask[ts][x] else 0)
    if s.hands[o] & t.follow[ts][x]:
        return eb - (1 if f & t.follow[ts][x] else 0)
    if y == tc and x != tc and (s.hands[t.hero] & t.follow[ts][x] or t.seatmod[o + n - L] < t.seatmod[t.hero + n - L]):
        spend[0] = 1
        return eb
    return eb - 1


cdef inline int exit_after(Shape* shape, Tab* t, State* s, int x, int ne, int* ea, int* eb, int* ev, int* ey,
                           int* eo) noexcept nogil:
    """The first of the exits (``lone_exits``) that survives a trick of class ``x`` that the
    leader leads and the hero wins, or -1: his piece (of those following ``x``) and the
    leader's (leading ``x``) come off the counts where they could; another seat's, where it
    could follow ``x`` with one of the exit's class, or is void and may play anything. But
    a trump that a seat void in ``x`` spends on the trick is above his exit trumps, so he
    loses that trick where he must follow ``x`` or plays after that seat (he plays an exit
    trump under it): there it spends none of the seat's count (moon3 full deals, 100:
    5.9% fewer nodes, the median 20% fewer; Minimo 0.1%)."""
    cdef int i, a, b, ts = s.ts, o, y, spend
    for i in range(ne):
        y = ey[i]
        o = eo[i]
        a = ea[i] - (1 if s.hands[t.hero] & t.lead_mask[ts][y] & t.follow[ts][x] else 0)
        b = exit_b_after(shape, t, s, x, y, o, eb[i], ev[i], &spend)
        if a >= 1 and b >= 1:
            return i
    return -1


cdef inline int ducks_all(u64 H, u64 O) noexcept nogil:
    """1 when, in one suit, the j-th lowest of ``H`` is below the j-th lowest of ``O`` for
    every j up to the shorter's length (cards of one suit in rank order)."""
    cdef u64 h, o
    while H and O:
        h = H & (~H + 1)
        o = O & (~O + 1)
        if h > o:
            return 0
        H ^= h
        O ^= o
    return 1


cdef inline int team_loses_one(Shape* shape, Tab* t, State* s, u64 team) noexcept nogil:
    """1 when the seats of ``team``, wanting no tricks, surely lose the trick at hand (a trick
    start). Nobody must overtake or trump, so a seat beats a piece only when forced.

    Team on lead: a class where, its lowest lead led and each partner playing its lowest
    piece of the class (or, void, a piece that is no trump, or anything where trumps are
    led), some seat of the other side must beat them all (all its pieces of the class are
    higher than the team's top one, or it holds only trumps, void in a plain class). The
    team chooses those plays, whatever the other side plays, so that seat wins the trick
    or another of its side does (Moon 4p, 30 deals: with partners held below the lead
    instead, 1.8% more nodes).

    Other side on lead: for every class the leader can lead, each seat of the team plays
    under a piece of the other side's (``ducks_every_lead``). The team's top piece is then
    below one of theirs, whatever is led."""
    cdef int x, o, q, L = s.leader, ts = s.ts, tc = t.trump_class[ts], top, ok, k
    cdef u64 Lx, f, tm = t.follow[ts][tc] if tc >= 0 else 0
    if (team >> L) & 1:
        for x in range(t.ncls):
            Lx = s.hands[L] & t.lead_mask[ts][x]
            if not Lx:
                continue
            top = low_power(shape, t, ts, x, Lx)  # the team's top piece: its lead, then its partners'
            ok = 1
            for q in range(seats(shape, t)):
                if q == L or not (team >> q) & 1:
                    continue
                f = s.hands[q] & t.follow[ts][x]
                if f:
                    k = low_power(shape, t, ts, x, f)
                    if k > top:
                        top = k
                elif x != tc and not (s.hands[q] & ~tm):
                    ok = 0  # void with only trumps: he would trump
                    break
            if not ok:
                continue
            for o in range(seats(shape, t)):
                if (team >> o) & 1 or not s.hands[o]:
                    continue
                f = s.hands[o] & t.follow[ts][x]
                if f:
                    if low_power(shape, t, ts, x, f) > top:
                        return 1
                elif x != tc and not (s.hands[o] & ~tm):
                    return 1  # void, nothing but trumps: he must trump it
        return 0
    return ducks_every_lead(shape, t, s, team)


cdef inline int ducks_every_lead(Shape* shape, Tab* t, State* s, u64 team) noexcept nogil:
    """1 when every seat of ``team`` (the lone hero's, or a team's), not on lead, surely
    plays under a piece of the other side whatever class the leader leads (``loses_led``
    for each)."""
    cdef int x, q, ts = s.ts, tc = t.trump_class[ts]
    cdef u64 Lx, m = team, used = 0, tm = t.follow[ts][tc] if tc >= 0 else 0
    while m:
        q = ctz64(m)
        m &= m - 1
        for x in range(t.ncls):
            Lx = s.hands[s.leader] & t.lead_mask[ts][x]
            if Lx and not loses_led(shape, t, s, q, team, x, Lx, tm, &used):
                return 0
    return 1


cdef inline int team_ducks_after(Shape* shape, Tab* t, State* s, u64 team) noexcept nogil:
    """1 when, after any one trick that the other side wins (each seat spends one piece of
    those it holds now), ``team`` surely loses the next as well: whichever seat of the other
    side leads it and whatever class, each seat of the team can play below that leader's
    lowest lead of it now (his lowest then is no lower): with the second lowest of its
    pieces of the class (the lowest may be gone), with the one it has and, should that be
    gone, a piece that is no trump to shed, or, void, with two such pieces (or anything
    where trumps are led)."""
    cdef int x, o, q, ts = s.ts, tc = t.trump_class[ts], lo, k
    cdef u64 Lx, f, g, tm = t.follow[ts][tc] if tc >= 0 else 0
    for o in range(seats(shape, t)):
        if (team >> o) & 1 or not s.hands[o]:
            continue
        for x in range(t.ncls):
            Lx = s.hands[o] & t.lead_mask[ts][x]
            if not Lx:
                continue
            lo = low_power(shape, t, ts, x, Lx)
            for q in range(seats(shape, t)):
                if not (team >> q) & 1:
                    continue
                f = s.hands[q] & t.follow[ts][x]
                k = popcount64(f)
                if k >= 2:
                    g = f & ~low_piece(shape, t, ts, x, f)
                    if low_power(shape, t, ts, x, g) >= lo:
                        return 0
                elif k == 1:
                    if t.power[ts][x][ctz64(f)] >= lo or (x != tc and not (s.hands[q] & ~f & ~tm)):
                        return 0
                elif x != tc and popcount64(s.hands[q] & ~tm) < 2:
                    return 0
    return 1


cdef inline int hero_safe(Shape* shape, Tab* t, State* s) noexcept nogil:
    """1 when a lone hero who avoids tricks and holds no trump can lose every trick to come
    (Jass: once its trump is fixed; the others' right to trump only ever beats him).

    Not on lead: enough that in each suit his j-th lowest card is below the others' j-th
    lowest (``ducks_all``). The others then lead every trick; each lead of a suit spends at
    least one of their cards of it, so the j-th time it is led the card led is at least
    their j-th lowest and he has a lower card to play (the highest below it), or none of
    the suit left and a discard. Cards the others spend otherwise only raise their j-th
    lowest. Also enough, with one suit that fails, a card of it whose going mends it and
    that he can shed in the first trick whatever is led: the leader leads nothing he must
    follow but that suit, and the card is below the leader's lowest of it. On lead: as
    well, a card that one of them must beat (all of that player's cards of its suit are
    higher), after which his hand, that card gone, ducks all. The ranks this rests on: his
    cards and everything above them (with the suit lengths, always keyed, they fix how many
    of each other hand's cards lie below each of his; holding no trump is a length too)."""
    cdef int x, y, hero = t.hero, tc = t.trump_class[s.ts], bad = 0, badx = -1
    cdef u64 H, O = 0, F, low, m, d, Lb
    if (jass_rules(shape, t) and s.ts == NONE) or not t.lone_min \
            or not t.suit_mask[0] or (tc >= 0 and s.hands[hero] & t.suit_mask[tc]):
        return 0
    for x in range(seats(shape, t)):
        if x != hero:
            O |= s.hands[x]
    for x in range(4):
        if not ducks_all(s.hands[hero] & t.suit_mask[x], O & t.suit_mask[x]):
            bad += 1
            badx = x
    if bad > 1:
        return 0
    if s.leader != hero:
        if bad == 0 or jass_rules(shape, t):
            # (Jass: 0.5-1% more nodes with the shed card below, jass/after3 and full deals)
            return bad == 0
        # (minimisere/after6, 30 positions: tricks 7.8%, points 14% fewer nodes)
        for x in range(4):
            if x != badx and s.hands[s.leader] & t.suit_mask[x] and s.hands[hero] & t.suit_mask[x]:
                return 0  # a lead he must follow keeps the failing suit as it is
        H = s.hands[hero] & t.suit_mask[badx]
        Lb = s.hands[s.leader] & t.suit_mask[badx]
        m = H & ((Lb & (~Lb + 1)) - 1) if Lb else H  # below whatever the leader leads of it
        while m:
            d = (<u64>1) << (63 - __builtin_clzll(m))
            m ^= d
            if ducks_all(H & ~d, O & t.suit_mask[badx]):
                return 1
        return 0
    for x in range(4):
        if bad and x != badx:
            continue
        H = s.hands[hero] & t.suit_mask[x]
        F = 0  # the highest of the others' lowest cards of this suit: below it, someone must beat
        for y in range(seats(shape, t)):
            m = s.hands[y] & t.suit_mask[x]
            if y != hero and m:
                low = m & (~m + 1)
                if low > F:
                    F = low
        m = H & (F - 1) if F else 0
        if m:
            d = (<u64>1) << (63 - __builtin_clzll(m))
            if ducks_all(H & ~d, O & t.suit_mask[x]):
                return 1
    return 0


cdef inline int jass_exit_after(Shape* shape, Tab* t, State* s, u64* mark) noexcept nogil:
    """Mittlere Jass before its trump, a lone hero who avoids tricks, two or more cards a
    hand: 1 when he surely loses one of the tricks left. In some suit his lowest card ``h``
    is no J or 9, another seat holds two cards of the suit besides the J, all above ``h``,
    and he need not spend ``h`` on the trick at hand (he holds another card of the suit, or
    the leader none: another led suit he follows with another card, or, void, plays
    another card, or, where a trump fixed before him bans his others, sheds ``h`` and loses).
    Losing the trick at hand is one loss; winning it, he leads ``h``, and that seat, still
    holding a card of the suit above it (and besides the J), beats it: it must follow the
    suit or trump before the trump is fixed and after (no third suit), and should the suit
    have become trump, those cards are still above ``h`` (trump order keeps the order of
    the cards other than the J and 9, which are above all) and it must play one (it holds a
    trump besides the J). ``mark``: his and that seat's cards of the suit."""
    cdef int x, o, hero = t.hero
    cdef u64 hx, ox, h, J
    for x in range(4):
        hx = s.hands[hero] & t.suit_mask[x]
        if not hx:
            continue
        h = hx & (~hx + 1)
        J = (<u64>1) << t.jack[x]
        if h & (J | (J >> 2)):
            continue  # the J or the 9: not below the others once the suit is trump
        if not (hx & (hx - 1)) and s.leader != hero and s.hands[s.leader] & t.suit_mask[x]:
            continue  # the suit may be led now, and ``h`` is his only card of it
        for o in range(seats(shape, t)):
            if o == hero:
                continue
            ox = s.hands[o] & t.suit_mask[x]
            if popcount64(ox & ~J) >= 2 and (ox & (~ox + 1)) > h:
                mark[0] = hx | ox
                return 1
    return 0


cdef inline int jass_exits(Shape* shape, Tab* t, State* s, u64* mark) noexcept nogil:
    """Mittlere Jass before its trump, a lone hero who avoids tricks: tricks left that he
    surely loses by exits against one seat ``o`` that add up, as ``lone_exits`` counts them
    once a trump is fixed. In each suit, ``a``: his cards below all of ``o``'s cards of it,
    no J or 9 (they would top the suit as trump); ``b``: ``o``'s cards of it besides the J.
    Led, such a card loses whatever becomes trump: ``o`` follows above it, or trumps, or, the
    suit trump, must play one of its trumps above it (it holds one besides the J); a void
    seat's card off suit takes the trick as trump. So with P the sum of min(b, 2a) he loses
    (P + 1) // 2 on lead and P // 2 not, as there, with one catch: made to win a trick while
    void in the suit led, he may play any card, and before the trump a card off suit is a
    trump that can win it, so he must keep a card whose going spares P (one outside the
    exits, or one of a suit beyond ceil(b/2) of its ``a``, with 2(a - 1) >= b). Until the
    k-th loss at most 2k - 1 tricks are played, one of them won, he never wins two running
    (each win puts him on lead to exit), and such cards only grow scarce as tricks go by:
    with N his cards beyond the sum of min(a, ceil(b/2)), he has one to spare while
    2k - 1 <= N, so the count is capped at (N + 1) // 2. ``mark``: his and ``o``'s cards."""
    cdef int x, o, hero = t.hero, best = 0, k, P, E, a, b, lead = s.leader == hero
    cdef int r = popcount64(s.hands[hero])
    cdef u64 ox, J
    for o in range(seats(shape, t)):
        if o == hero:
            continue
        P = 0
        E = 0
        for x in range(4):
            ox = s.hands[o] & t.suit_mask[x]
            if not ox:
                continue
            J = (<u64>1) << t.jack[x]
            a = popcount64(s.hands[hero] & t.suit_mask[x] & ~(J | (J >> 2)) & ((ox & (~ox + 1)) - 1))
            b = popcount64(ox & ~J)
            P += b if b < 2 * a else 2 * a
            E += a if a < (b + 1) >> 1 else (b + 1) >> 1
        k = (P + lead) >> 1
        if k > (r - E + 1) >> 1:
            k = (r - E + 1) >> 1
        if k > best:
            best = k
            mark[0] = s.hands[hero] | s.hands[o]
    return best


cdef inline int exits_asked(Shape* shape, Tab* t, int r) noexcept nogil:
    """The most losses ``lone_exits`` is asked for in the tricks measure with ``r`` cards a
    hand: two with cards (on lead too since its exits add up and ``exit_to_bad_leader``),
    in Jass, which has no ``exits_after_trick``, only from 5 cards (its count of exits alone:
    full deals, 6, 2.6% fewer nodes and 1.4% more instructions at every size; from 5
    cards 2.3% fewer and 0.2% more, cut to 9 cards, 20, 7.8% fewer and 3.7% fewer); with
    tiles, two (``loses_two``) with three players; else one."""
    if t.suit_mask[0]:
        return 2 if not jass_rules(shape, t) or r >= 5 else 1
    return 2 if seats(shape, t) == 3 else 1


cdef inline void bounds(Shape* shape, Ctx* c, Tab* t, State* s, int alpha, int beta, int* lb, int* ub, u64* rlb,
                        u64* rub) noexcept nogil:
    """Cheap bounds on the final value at a trick boundary: points still out, quick
    tricks of a leader who wants them, the sure trump tricks of either side.
    ``rlb`` and ``rub`` get the cards whose ranks each bound depends on (partition
    search); suit lengths, the score state and the named point cards are always keyed.
    A test whose best outcome could not reach the window (``lb >= beta`` or ``ub <= alpha``)
    is skipped: in the null-window searches that do the work, a bound that does not cut
    changes nothing (the must-win test alone took about 5% of a Moon solve, nearly all of it
    where it could not cut)."""
    cdef u64 rem = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    cdef int r = popcount64(s.hands[s.leader])
    cdef int fut = r * t.trick_value + t.bonus_last
    cdef int p, o, T, best, extra, others, qt, L = s.leader, mine = 0, theirs = 0, pmine = 0, ptheirs = 0, tp = 0
    cdef int held, spared
    cdef u64 m = rem & t.pointed[s.ts], mark = 0, tmark = 0, pmark = 0, ptmark = 0, emark = 0
    cdef u64 opp = (((<u64>1) << seats(shape, t)) - 1) & ~t.side_mask  # the seats against the side
    cdef u64 tr = rem & t.follow[s.ts][t.trump_class[s.ts]] if t.trump_class[s.ts] >= 0 else 0  # trumps out
    rlb[0] = 0
    rub[0] = 0
    if t.qt_ok:
        lb[0] = s.acc
        ub[0] = s.acc + r
        if c.use_qt:
            if ((t.max_mask >> L) & 1) == ((t.side_mask >> L) & 1):
                # the leader's team wants tricks: what it can cash is a sure bound
                if (t.side_mask >> L) & 1:
                    qt = quick_tricks(shape, t, s, r, beta - s.acc, &mark) if s.acc + r >= beta else 0
                else:
                    qt = quick_tricks(shape, t, s, r, s.acc + r - alpha, &mark) if s.acc <= alpha else 0
                if qt:
                    if (t.side_mask >> L) & 1:
                        lb[0] = s.acc + qt
                        rlb[0] = mark
                    else:
                        ub[0] = s.acc + r - qt
                        rub[0] = mark
            elif not jass_rules(shape, t) \
                    and (s.acc + 1 >= beta if (t.side_mask >> L) & 1 else s.acc + r - 1 <= alpha) \
                    and must_win_lead(shape, t, s):
                # it wants to lose them, but cannot lose this one (the leader's ranks decide)
                if (t.side_mask >> L) & 1:
                    lb[0] = s.acc + 1
                    rlb[0] = s.hands[L]
                else:
                    ub[0] = s.acc + r - 1
                    rub[0] = s.hands[L]
            if t.later_ok:
                # a team that needs every trick left and cannot have them (``misses_one``)
                if ub[0] > s.acc + r - 1 and s.acc + r - 1 <= alpha and misses_one(t, s, 1, r, tr, &emark):
                    ub[0] = s.acc + r - 1
                    rub[0] = emark
                elif lb[0] <= s.acc and s.acc + 1 >= beta and misses_one(t, s, 0, r, tr, &emark):
                    lb[0] = s.acc + 1
                    rlb[0] = emark
            if c.use_exits and t.side_mask & (t.side_mask - 1) and not jass_rules(shape, t) \
                    and not parted(shape, t) and not (t.max_mask & t.side_mask) and (t.max_mask & opp) == opp:
                # two teams that both avoid tricks (Moon 4p): the sure loss of the trick at
                # hand for either (``team_loses_one``); for the other side, that of the next
                # one too where it holds after any trick (``team_ducks_after``); and for a team
                # not on lead, two losses by a search of this trick (``lose_trick_then_one``).
                # See benchmarks/README.md, "Sure losses for two teams".
                if lb[0] < beta and ub[0] > s.acc + r - 1 and s.acc + r - 2 <= alpha \
                        and team_loses_one(shape, t, s, t.side_mask):
                    if s.acc + r - 1 <= alpha:
                        ub[0] = s.acc + r - 1
                    elif r >= 2 and not (t.side_mask >> L) & 1 \
                            and lose_trick_then_one(shape, c, t, s, t.side_mask):
                        ub[0] = s.acc + r - 2
                if ub[0] > alpha and lb[0] < beta and s.acc + 2 >= beta and team_loses_one(shape, t, s, opp):
                    if s.acc + 1 >= beta:
                        lb[0] = s.acc + 1
                    elif r >= 2 and (team_ducks_after(shape, t, s, opp)
                                     or not (opp >> L) & 1 and lose_trick_then_one(shape, c, t, s, opp)):
                        lb[0] = s.acc + 2
            if c.use_exits and jass_rules(shape, t) and s.ts == NONE and t.lone_min:
                # Mittlere Jass before its trump, a lone hero who avoids tricks
                if r >= 2 and ub[0] > s.acc + r - 1 and s.acc + r - 1 <= alpha \
                        and jass_exit_after(shape, t, s, &mark):
                    # a loss after the trick at hand (a perfect one-loss test there would spare
                    # about a sixth of a full deal's nodes: see benchmarks/README.md, "Moon's
                    # tiles relabelled"). Full deals (20) 5.0% fewer nodes, the median 6.3%
                    ub[0] = s.acc + r - 1
                    rub[0] = mark
                if s.acc <= alpha and ub[0] > alpha:
                    # more losses by exits that add up (``jass_exits``; his and a seat's cards
                    # marked, after the one-loss test above, whose marks are fewer). Full deals
                    # (20) 3.5% fewer nodes, the median 6.6%; 6 deals 2.2% fewer instructions
                    qt = jass_exits(shape, t, s, &mark)
                    if qt and ub[0] > s.acc + r - qt:
                        ub[0] = s.acc + r - qt
                        rub[0] = mark
            if c.use_exits and t.lone_min and ub[0] > s.acc + r - 1 \
                    and s.acc + r - exits_asked(shape, t, r) <= alpha:
                # a lone hero who avoids tricks loses some ("all the tricks left but one" was
                # the bound a minimising search proved at a fifth of the trick starts that
                # failed low: minimo/full tricks, 40 deals)
                qt = lone_exits(shape, c, t, s, &mark, s.acc + r - alpha)
                if qt and ub[0] > s.acc + r - qt:
                    ub[0] = s.acc + r - qt
                    rub[0] = mark
            if tr and lb[0] < beta and ub[0] > alpha:
                # a side's trumps are the most sure trump tricks it can have: count them
                # only where that many could cut, and not once the window is decided (moon3
                # full deals 6% and Minimo's 3% fewer instructions, the same nodes; not so the
                # test below, whose "no more tricks" makes tighter table entries: skipped too,
                # minimisere/after6's median nodes rose 19%)
                for p in range(seats(shape, t)):
                    if (t.side_mask >> p) & 1:
                        mine += popcount64(tr & s.hands[p])
                theirs = popcount64(tr) - mine
            if (s.acc + mine >= beta or s.acc + r - theirs <= alpha) \
                    and trump_tricks(shape, t, s, &mine, &theirs, &mark, &tmark):
                if lb[0] < s.acc + mine:
                    lb[0] = s.acc + mine
                    rlb[0] = mark
                if ub[0] > s.acc + r - theirs:
                    ub[0] = s.acc + r - theirs
                    rub[0] = tmark
            if t.lone_min and ub[0] > s.acc and s.acc <= alpha and hero_safe(shape, t, s):
                ub[0] = s.acc
                rub[0] = s.hands[t.hero]
        return
    while m:
        p = ctz64(m)
        m &= m - 1
        fut += t.max_future[s.ts][p]
    if t.kind == KIND_MINIMO:
        others = seats(shape, t) - popcount64(s.skey | ((<uint32_t>1) << t.hero))
        if others and tr and plain(shape, t):
            # a player whose trumps cannot each be beaten by a higher one of another player
            # (``outmatched``; ranks in bit order) wins a trick with one: no zero-trick player
            # (the top trump's holder alone, before: full deals, 100, points 1.5% more nodes,
            # 0.7% more instructions)
            for o in range(seats(shape, t)):
                m = s.hands[o] & tr
                if m and o != t.hero and not (s.skey >> o) & 1 \
                        and outmatched(m, tr & ~m) < popcount64(m):
                    others -= 1
        ub[0] = s.acc + fut + 5 * others
        lb[0] = s.acc if (s.skey >> t.hero) & 1 else 0
        # (the must-win test assumes the others duck: true when the hero minimises)
        if c.use_qt:
            if tr:
                # the trump tests only where the hero's or the others' trumps, with every
                # trump point, could decide the window
                m = tr & t.pointed[s.ts]
                while m:
                    p = ctz64(m)
                    m &= m - 1
                    tp += t.max_future[s.ts][p]
                held = popcount64(tr & s.hands[t.hero])
                if s.acc + held * t.trick_value + tp >= beta \
                        or ub[0] - (popcount64(tr) - held) * t.trick_value - tp <= alpha:
                    trump_tricks(shape, t, s, &mine, &theirs, &mark, &tmark)
                    if tp:
                        trump_points(shape, t, s, &pmine, &ptheirs, &pmark, &ptmark)
            spared = theirs * t.trick_value + ptheirs  # tricks and points the hero cannot take
            if spared:
                ub[0] -= spared
                rub[0] = tmark | ptmark
            if c.use_exits and t.lone_min and ub[0] > alpha and ub[0] + spared - r * t.trick_value <= alpha:
                # or the tricks he can surely lose, each one the less (whoever takes it, it
                # only lowers his zero-trick charge), where that spares more
                qt = lone_exits(shape, c, t, s, &emark,
                                (ub[0] + spared - alpha + t.trick_value - 1) // t.trick_value)
                if qt * t.trick_value > spared:
                    ub[0] += spared - qt * t.trick_value
                    rub[0] = emark
            if mine:
                # his sure tricks (so no zero-trick escape), and the points of his sure trumps
                lb[0] = s.acc + mine * t.trick_value + pmine
                rlb[0] = mark | pmark
            elif s.leader == t.hero and not ((t.max_mask >> t.hero) & 1) and s.acc + 1 >= beta \
                    and must_win_lead(shape, t, s):
                lb[0] = s.acc + 1
                rlb[0] = s.hands[L]
            else:
                # no more tricks for the hero: nothing more taken, and no zero-trick escape lost
                extra = s.acc + 5 * others if (s.skey >> t.hero) & 1 else 0
                if extra <= alpha and t.lone_min and hero_safe(shape, t, s):
                    ub[0] = extra
                    rub[0] = s.hands[t.hero]
        return
    if t.kind == KIND_JASS and s.ts == NONE:
        best = t.eights * popcount64(s.skey & 0x924)
        for T in range(4):
            extra = jass_fix_bonus(t, s.skey, T)
            if extra > best:
                best = extra
        fut += best
    lb[0] = s.acc
    ub[0] = s.acc + fut
    if c.use_qt and t.kind == KIND_JASS and s.ts != NONE and t.side_mask == ((<u64>1) << t.hero) \
            and tr & t.pointed[s.ts]:
        # a trump above all of the other side's wins wherever it is played (a trump can
        # always be played, and only a higher one beats it): its points go one way
        trump_points(shape, t, s, &pmine, &ptheirs, &pmark, &ptmark)
        lb[0] += pmine
        rlb[0] = pmark
        ub[0] -= ptheirs
        rub[0] = ptmark
    if c.use_qt and t.kind == KIND_ADDITIVE and t.lone_min and s.acc <= alpha and hero_safe(shape, t, s):
        ub[0] = s.acc  # the side scores only from tricks it takes
        rub[0] = s.hands[t.hero]


# --- transposition table -----------------------------------------------------------

cdef struct Key:
    u64 k[5]
    u64 meta


cdef inline u64 permute_trumps(Tab* t, int ts, u64 x, uint16_t* lut) noexcept nogil:
    """``x`` with the 9 bits of state ``ts``'s trump suit mapped through ``lut`` (Jass)."""
    cdef int sh
    if t.perm_suit[ts] < 0:
        return x
    sh = 13 * t.perm_suit[ts] + 4
    return (x & ~(<u64>0x1FF << sh)) | (<u64>lut[(x >> sh) & 0x1FF] << sh)


cdef inline u64 to_power(Shape* shape, Tab* t, int ts, u64 x) noexcept nogil:
    """Cards with the trump suit's bits put in power order (Jass); others unchanged (and in
    the other games' compiled shapes, without a look at the tables: Minimo, 30 full deals,
    1.4% fewer engine instructions)."""
    if not jass_rules(shape, t):
        return x
    return permute_trumps(t, ts, x, t.perm_lut)


cdef inline u64 from_power(Shape* shape, Tab* t, int ts, u64 x) noexcept nogil:
    """The inverse of ``to_power``."""
    if not jass_rules(shape, t):
        return x
    return permute_trumps(t, ts, x, t.perm_inv)


cdef inline void make_key(Shape* shape, Ctx* c, Tab* t, State* s, Key* key) noexcept nogil:
    """The table key of a trick-boundary state. Where the tables allow it, hands are
    written by relative rank (each suit's remaining cards compressed to its low end,
    with the suit lengths in ``meta``), so positions that differ only in which
    equivalent cards are gone share an entry; pieces in ``keep`` (points) stay named."""
    cdef u64 R, P
    cdef int i, n = seats(shape, t)
    if not (t.norm[s.ts] and c.use_norm):
        for i in range(4):
            key.k[i] = s.hands[i]
        key.k[4] = 0
        key.meta = <u64>s.leader | (<u64>s.ts << 2) | (<u64>s.skey << 5)
        return
    R = to_power(shape, t, s.ts, s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3])
    for i in range(5):
        key.k[i] = 0
    for i in range(n - 1):
        key.k[i] = oh_pext(to_power(shape, t, s.ts, s.hands[i]), R)
    P = (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]) & t.keep[s.ts]
    key.k[n - 1] = P
    key.k[n] = oh_pext(to_power(shape, t, s.ts, P), R)
    key.meta = <u64>s.leader | (<u64>s.ts << 2) | (<u64>s.skey << 5) | (<u64>1 << 63)
    if t.gap_meta:
        # the suit lengths as where the gaps fall among the cards left: one PEXT, not four
        # counts (Minimo, 30 full deals: 0.9% fewer engine instructions)
        key.meta |= oh_pext(t.gaps, R | t.gaps) << 24
    else:
        key.meta |= ((<u64>popcount64(R & t.suit_mask[0]) << 24) | (<u64>popcount64(R & t.suit_mask[1]) << 28)
                     | (<u64>popcount64(R & t.suit_mask[2]) << 32) | (<u64>popcount64(R & t.suit_mask[3]) << 36))


cdef inline u64 hash_of(Ctx* c, Key* key) noexcept nogil:
    cdef u64 h = key.k[0] * <u64>0x9E3779B97F4A7C15
    h ^= key.k[1] * <u64>0xC2B2AE3D27D4EB4F
    h = (h ^ (h >> 29)) * <u64>0xBF58476D1CE4E5B9
    h ^= key.k[2] * <u64>0x165667B19E3779F9
    h ^= key.k[3] * <u64>0x94D049BB133111EB
    h ^= key.k[4] * <u64>0x27D4EB2F165667C5
    h ^= (key.meta & ~c.kin_meta) * <u64>0xD6E8FEB86659FD93
    h ^= h >> 32
    return h


cdef inline bint same(Entry* e, Key* key) noexcept nogil:
    return (e.meta == key.meta and e.k[0] == key.k[0] and e.k[1] == key.k[1] and e.k[2] == key.k[2]
            and e.k[3] == key.k[3] and e.k[4] == key.k[4])


DEF TAG_MATCH = 0xFFF0FFFF  # the tag and generation bits of a tag word


cdef inline uint32_t tag_word(Ctx* c, u64 h, int depth) noexcept nogil:
    return (<uint32_t>(h >> 52) << 20) | (<uint32_t>(depth if depth < 15 else 15) << 16) | c.gen


cdef inline void tighten(int16_t* elo, int16_t* ehi, int lo, int hi) noexcept nogil:
    """Merge the bounds ``lo``/``hi`` into a table entry's."""
    if lo > elo[0]:
        elo[0] = lo
    if hi < ehi[0]:
        ehi[0] = hi


cdef inline Entry* tt_find(Ctx* c, Key* key, u64 h) noexcept nogil:
    cdef u64 at = (h & c.tt_mask) * BUCKET
    cdef uint32_t want = tag_word(c, h, 0)
    cdef int i
    for i in range(BUCKET):
        if (c.tags[at + i] & <uint32_t>TAG_MATCH) == want and same(&c.tt[at + i], key):
            return &c.tt[at + i]
    return NULL


cdef inline void kin_bounds(Ctx* c, Tab* t, State* s, Key* key, u64 h, int* lb, int* ub) noexcept nogil:
    """Narrow ``lb``/``ub`` by the entries of the key's bucket for the same cards with another
    set of players who have taken a trick (Minimo points). For any play to the end, a player
    without a trick here and with one there (``U``) adds at most 5 to the hero's score here,
    one with a trick here and not there (``D``) takes at most 5 off; so the value here is
    within [there - 5|D|, there + 5|U|]. The hero's own bit: without a trick he scores 0 if
    he takes none, else as with one (his running total then 0), never more; so an entry
    where he has one bounds from above here where he has none, and from below the other way
    round. Keys that differ only in these bits hash to one bucket (``kin_meta``): the lookup
    reads no further cache line (``Ctx.kin_meta``)."""
    cdef u64 at = (h & c.tt_mask) * BUCKET, d, hb = (<u64>1) << (5 + t.hero)
    cdef uint32_t want = tag_word(c, h, 0)
    cdef int i, lo, hi
    cdef Entry* e
    for i in range(BUCKET):
        if (c.tags[at + i] & <uint32_t>TAG_MATCH) != want:
            continue
        e = &c.tt[at + i]
        d = e.meta ^ key.meta
        if d == 0 or (d & ~c.kin_meta) or e.k[0] != key.k[0] or e.k[1] != key.k[1] \
                or e.k[2] != key.k[2] or e.k[3] != key.k[3] or e.k[4] != key.k[4]:
            continue
        lo = e.lo + s.acc - 5 * popcount64(d & key.meta & ~hb)
        hi = e.hi + s.acc + 5 * popcount64(d & e.meta & ~hb)
        if d & hb:
            if key.meta & hb:
                hi = INF  # he has a trick here, not there: a lower bound only
            else:
                lo = -INF  # there, not here (his running total is 0): an upper bound only
        if lo > lb[0]:
            lb[0] = lo
        if hi < ub[0]:
            ub[0] = hi


cdef inline void tt_store(Ctx* c, Key* key, u64 h, int lo, int hi, int best, int depth) noexcept nogil:
    """Merge bounds (relative to the running total) into the entry, or replace the
    shallowest entry of the bucket (stale generations first)."""
    cdef Entry* e = tt_find(c, key, h)
    if e != NULL:
        tighten(&e.lo, &e.hi, lo, hi)
        e.best = best
        return
    tt_insert(c, key, h, lo, hi, best, depth)


cdef inline void tt_keep_bounds(Ctx* c, Entry* e, Key* key, u64 h, int lo, int hi) noexcept nogil:
    """Keep the bounds that cut at a trick start, in ``e`` (the entry the probe found) or a
    new entry with no best move, so that the next probe of the position answers before the
    bounds are computed again (exact-key tables, which are probed first: moon3 full deals 7%
    and Minimo 7% fewer instructions, the same nodes within 0.1%). A new one goes in at depth
    0, the first of its bucket to be replaced: at the depth left, the entries it pushed out
    cost Jass points 1.1% more nodes, at 0 about half that."""
    if e != NULL:
        tighten(&e.lo, &e.hi, lo, hi)
    else:
        tt_insert(c, key, h, lo, hi, 255, 0)


cdef inline void tt_insert(Ctx* c, Key* key, u64 h, int lo, int hi, int best, int depth) noexcept nogil:
    """A new entry in place of the bucket's shallowest (stale generations first)."""
    cdef u64 at = (h & c.tt_mask) * BUCKET
    cdef uint32_t w
    cdef Entry* e
    cdef int i, worst = 1000, v = 0
    for i in range(BUCKET):
        w = c.tags[at + i]
        if (w & 0xFFFF) != c.gen:
            v = i
            break
        if <int>((w >> 16) & 15) < worst:
            worst = (w >> 16) & 15
            v = i
    e = &c.tt[at + v]
    c.tags[at + v] = tag_word(c, h, depth)
    for i in range(5):
        e.k[i] = key.k[i]
    e.meta = key.meta
    e.lo = lo
    e.hi = hi
    e.best = best


cdef inline void next_generation(Ctx* c) noexcept nogil:
    """Forget every table entry: O(1), entries of older generations are ignored (and wiped
    only when the 16-bit generation wraps)."""
    c.gen += 1
    if c.gen == 0:
        memset(c.tt, 0, (c.tt_mask + 1) * BUCKET * sizeof(Entry))
        memset(c.tags, 0, (c.tt_mask + 1) * BUCKET * sizeof(uint32_t))
        c.gen = 1


# --- move generation ----------------------------------------------------------------

cdef inline int all_dead(Tab* t, State* s, uint32_t classes) noexcept nogil:
    """1 when none of ``classes`` can still be led: no piece in a hand leads one, and the
    current trick was not led in one (asked only for the classes a pair of dominoes differs
    in, where one was found in hand, instead of all eight at every node: with the test
    below, 3% fewer instructions on moon3 full deals and 6% on moon4)."""
    cdef u64 held
    cdef int x
    if not classes:
        return 1
    if s.tlen and (classes >> t.lead_class[s.ts][s.trick[0]]) & 1:
        return 0
    held = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    while classes:
        x = ctz64(classes)
        classes &= classes - 1
        if held & t.lead_mask[s.ts][x]:
            return 0
    return 1


cdef inline int kept_equivalent(Tab* t, State* s, int b, u64 moves, u64 inplay) noexcept nogil:
    """A legal move interchangeable with ``b`` that is kept in its place, or -1."""
    cdef int k, a
    for k in range(t.eq_n[s.ts][b]):
        a = t.eq_a[s.ts][b][k]
        if ((moves >> a) & 1 and not (t.eq_between[s.ts][b][k] & inplay)
                and all_dead(t, s, t.eq_diff[s.ts][b][k])):
            return a
    return -1


cdef inline u64 root_reps(Shape* shape, Tab* t, State* s, int* rep) noexcept nogil:
    """The legal moves of the seat to move (a mask), and in ``rep`` each one's kept
    representative (``kept_equivalent`` followed to a move that has none)."""
    cdef int a, b, m
    cdef u64 moves = legal(shape, t, s, t.seatmod[s.leader + s.tlen]), left = moves
    cdef u64 inplay = in_play(s)
    while left:
        m = ctz64(left)
        left &= left - 1
        b = m
        while True:
            a = kept_equivalent(t, s, b, moves, inplay)
            if a < 0:
                break
            b = a
        rep[m] = b
    return moves


cdef inline u64 in_play(State* s) noexcept nogil:
    cdef u64 inplay = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    cdef int i
    for i in range(s.tlen):
        inplay |= (<u64>1) << s.trick[i]
    return inplay


cdef inline u64 drop_equivalents(Shape* shape, Tab* t, State* s, u64 moves) noexcept nogil:
    """Keep one piece of each run of interchangeable pieces (see tables._equivalences)."""
    cdef u64 inplay = 0  # computed once needed (never 0 then: it holds the moves)
    cdef u64 out = moves, m = moves, plain, bb, above
    cdef int b
    if t.norm[s.ts] and t.suit_mask[0] and not jass_rules(shape, t):
        inplay = in_play(s)
        # Plain card games: rank order is bit order in each suit and the unnamed cards of a
        # suit behave alike, so a run is a stretch of one hand's unnamed cards with no other
        # card in play between: drop each one whose next card up in play is one of them.
        plain = moves & ~t.keep[s.ts]
        if oh_bmi2 and t.gaps:
            # bit-parallel, in play order (PEXT): a card goes when the next one up is one of
            # them; the gap bits, in no hand, end each suit's run (Minimo, 30 full deals: the
            # same moves, 1.8% fewer engine instructions than finding each suit's top card)
            above = inplay | t.gaps
            m = oh_pext(plain, above)
            out &= ~oh_pdep(m & (m >> 1), above)
        elif oh_bmi2:
            # bit-parallel, in play order (PEXT): a card goes when the next one up is one of
            # them and is no other suit's (same moves; minimo/full and minimisere/after6
            # tricks 2-4% less time)
            above = 0  # each suit's top card in play
            for b in range(4):
                m = inplay & t.suit_mask[b]
                if m:
                    above |= (<u64>1) << (63 - __builtin_clzll(m))
            m = oh_pext(plain, inplay)
            out &= ~oh_pdep(m & (m >> 1) & ~oh_pext(above, inplay), inplay)
        else:
            m = plain
            while m:
                bb = m & (~m + 1)
                m ^= bb
                above = inplay & t.suit_mask[t.piece_suit[ctz64(bb)]] & ~(bb | (bb - 1))
                if above & (~above + 1) & plain:
                    out &= ~bb
        m = moves & t.keep[s.ts]  # named cards: by the table
    while m:
        b = ctz64(m)
        m &= m - 1
        if not (moves & t.eq_any[s.ts][b]):
            continue  # no candidate twin in the hand: nothing to test
        if not inplay:
            inplay = in_play(s)
        if kept_equivalent(t, s, b, moves, inplay) >= 0:
            out &= ~((<u64>1) << b)
    return out


# --- partition search (DDS-style) ----------------------------------------------------
#
# In games where legality goes by suit and a trick's winner by suit and rank (bridge,
# Minimisere; Minimo too, but there it does not pay: see solver.tables), a search
# result depends on the ranks of only some cards: those that won a trick against a
# card of their own suit, and those some bound or table entry looked at. An entry
# stores, per suit, the owners of the remaining cards from the top down to the lowest
# such card, plus every hand's suit lengths and the named cards (where unnamed cards can
# rank above them, their places too); it then answers for every position that agrees on
# those, whoever holds the lower cards. Key fields: k[0] the lengths (4 bits
# per hand and suit), k[1] the named point cards still out, k[2]/k[3] two owner bits
# per remaining card (by rank order of all remaining cards). Entries live in a pool,
# chained from directory slots keyed on the lengths, the point cards, the state, and
# which suits' top cards the entry covers and who holds them.

DEF DIR_PROBE = 8        # directory slots tried from a key's home slot
DEF NIL = 0xFFFFFF       # a link's 24 bits all set: no next entry (so a pool holds fewer entries)


cdef inline int32_t pnext(PEntry* e) noexcept nogil:
    cdef uint32_t i = e.link & NIL
    return -1 if i == NIL else <int32_t>i


cdef inline void set_next(PEntry* e, int32_t i) noexcept nogil:
    e.link = (e.link & ~(<uint32_t>NIL)) | (<uint32_t>NIL if i < 0 else <uint32_t>i)


cdef inline void set_best(PEntry* e, int bpos) noexcept nogil:
    e.link = (e.link & NIL) | (<uint32_t>bpos << 24)


cdef inline void pmake_key(Shape* shape, Tab* t, State* s, Key* key, u64 R) noexcept nogil:
    """``R``: the remaining cards in power order (``to_power``)."""
    cdef u64 lens = 0, S, P13 = to_power(shape, t, s.ts, s.hands[1] | s.hands[3]), P23 = to_power(shape, t, s.ts, s.hands[2] | s.hands[3])
    cdef int i, x, tb
    cdef uint32_t sig = 0
    if t.gap_lens:
        # each hand's suit lengths as where the gaps fall among its cards: one PEXT a hand,
        # not four counts (Mittlere Jass, 2 full deals: 1.2% fewer engine instructions)
        for i in range(seats(shape, t)):
            lens |= oh_pext(t.gaps, s.hands[i] | t.gaps) << (16 * i)
    else:
        for i in range(seats(shape, t)):
            for x in range(4):
                lens |= (<u64>popcount64(s.hands[i] & t.suit_mask[x])) << (16 * i + 4 * x)
    for x in range(4):
        S = t.suit_mask[x] & R
        if S:
            tb = 63 - __builtin_clzll(S)
            sig |= <uint32_t>(((P13 >> tb) & 1) | (((P23 >> tb) & 1) << 1)) << (2 * x)
    key.k[0] = lens
    key.k[1] = (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]) & t.keep[s.ts]
    key.k[2] = oh_pext(P13, R)
    key.k[3] = oh_pext(P23, R)
    key.k[4] = sig  # who holds each suit's top card (``top_owners``)
    key.meta = <u64>s.leader | (<u64>s.ts << 2) | (<u64>s.skey << 5)
    if t.place[s.ts][0]:
        # Named cards with unnamed ones above them (Jass before its trump is fixed: the J
        # and 9, which then rank apart from the rest) keep their places among the remaining
        # cards, as the relative ranks of exact keys do: each, while it remains, by the
        # count of unnamed cards of its suit below it (R is in plain order in this state);
        # meta bits 20-39, five a suit, below the sub-slots' bits from 40
        for x in range(4):
            S = R & t.suit_mask[x]
            if S & t.place[s.ts][0]:
                key.meta |= (<u64>popcount64(S & t.place[s.ts][1])) << (20 + 5 * x)
            if S & t.place[s.ts][2]:
                key.meta |= (<u64>popcount64(S & t.place[s.ts][3])) << (22 + 5 * x)


cdef inline u64 phash(Key* key) noexcept nogil:
    cdef u64 h = key.k[0] * <u64>0x9E3779B97F4A7C15
    h ^= key.k[1] * <u64>0xC2B2AE3D27D4EB4F
    h = (h ^ (h >> 29)) * <u64>0xBF58476D1CE4E5B9
    h ^= key.meta * <u64>0xD6E8FEB86659FD93
    h ^= h >> 32
    return h


cdef inline u64 closure(Tab* t, u64 rel, u64 R) noexcept nogil:
    """Every remaining card of a suit at or above its lowest card in ``rel``."""
    cdef u64 out = 0, S, y
    cdef int x
    for x in range(4):
        S = t.suit_mask[x] & R
        y = rel & S
        if y:
            out |= S & ~((y & (~y + 1)) - 1)
    return out


cdef inline Slot* pslot(Ctx* c, Key* key, u64 h, bint create) noexcept nogil:
    """The directory slot of ``key``; with ``create``, a fresh one when absent (in the first
    free slot, else in place of the one with the smallest ``count``: the shortest chain; a
    base slot's cover bitmap compares as a number, a rough stand-in). Slots are freed only
    all at once, so a key is never stored past a free slot: the search stops at the first."""
    cdef Slot* d
    cdef Slot* victim = NULL
    cdef int i
    for i in range(DIR_PROBE):
        d = c.dir + ((h + i) & c.dir_mask)
        if d.gen != c.gen:
            if not create:
                return NULL
            victim = d
            break
        if d.lens == key.k[0] and d.meta == key.meta and d.keep == key.k[1]:
            return d
        if victim == NULL or d.count < victim.count:
            victim = d
    if not create:
        return NULL
    victim.lens = key.k[0]
    victim.keep = key.k[1]
    victim.meta = key.meta
    victim.gen = c.gen
    victim.head = -1
    victim.count = 0
    return victim


cdef inline int top_owners(Tab* t, Key* key, u64 R) noexcept nogil:
    """Two bits per suit: who holds the suit's highest remaining card (worked out with the
    key, ``pmake_key``)."""
    return <int>key.k[4]


cdef inline u64 sub_hash(u64 h, int cov, int sig) noexcept nogil:
    h ^= (<u64>(cov | (sig << 4)) + 1) * <u64>0x94D049BB133111EB
    h ^= h >> 31
    return h * <u64>0xBF58476D1CE4E5B9


cdef inline Slot* sub_slot(Ctx* c, Key* key, u64 h, int cov, int sig, bint create) noexcept nogil:
    """The chain of entries that cover the top card of exactly the suits in ``cov``, whose
    holders are ``sig``: a probe looks at only those chains its position can match."""
    cdef Key k2 = key[0]
    k2.meta = key.meta | (<u64>1 << 63) | (<u64>cov << 40) | (<u64>sig << 44)
    return pslot(c, &k2, sub_hash(h, cov, sig), create)


cdef inline void ptt_probe(Ctx* c, Key* key, u64 h, u64 R, int ts, int acc, int alpha, int beta, int* lb,
                           int* ub, u64* rlb, u64* rub, int* first) noexcept nogil:
    """Tighten ``lb``/``ub`` with the entries that answer for this position (``R`` in power
    order; the cards the bounds rest on come back as cards), until they decide the window
    (alpha, beta); the entry that decides it moves to the head of its chain."""
    cdef Slot* base = pslot(c, key, h, 0)
    cdef Slot* d
    cdef PEntry* e
    cdef int32_t i, prev
    cdef int hit = 0, cov, sig, cmask
    cdef uint32_t used
    c.tt_probes += 1
    if base == NULL:
        return
    sig = top_owners(c.t, key, R)
    used = base.count
    while used:
        # ask for every chain's home slot first, so that the misses overlap
        cov = ctz64(used)
        used &= used - 1
        cmask = ((cov & 1) * 0x3) | ((cov & 2) * 0x6) | ((cov & 4) * 0xC) | ((cov & 8) * 0x18)
        prefetch(c.dir + (sub_hash(h, cov, sig & cmask) & c.dir_mask))
    used = base.count
    while used:
        cov = ctz64(used)
        used &= used - 1
        cmask = ((cov & 1) * 0x3) | ((cov & 2) * 0x6) | ((cov & 4) * 0xC) | ((cov & 8) * 0x18)
        d = sub_slot(c, key, h, cov, sig & cmask, 0)
        if d == NULL:
            continue
        i = d.head
        prev = -1
        while i >= 0:
            e = c.pool + i
            c.tt_walked += 1
            if (((e.own1 ^ key.k[2]) | (e.own2 ^ key.k[3])) & e.msk) == 0:
                if not hit:
                    hit = 1
                    c.tt_hits += 1
                if e.lo + acc > lb[0]:
                    lb[0] = e.lo + acc
                    rlb[0] = from_power(<Any*>NULL, c.t, ts, oh_pdep(e.msk, R))
                if e.hi + acc < ub[0]:
                    ub[0] = e.hi + acc
                    rub[0] = from_power(<Any*>NULL, c.t, ts, oh_pdep(e.msk, R))
                if (e.link >> 24) != 255 and first[0] < 0:
                    first[0] = ctz64(from_power(<Any*>NULL, c.t, ts, oh_pdep((<u64>1) << (e.link >> 24), R)))
                if lb[0] >= ub[0] or lb[0] >= beta or ub[0] <= alpha:
                    if prev >= 0:
                        set_next(c.pool + prev, pnext(e))
                        set_next(e, d.head)
                        d.head = i
                    return
            prev = i
            i = pnext(e)


cdef inline void ptt_store(Ctx* c, Tab* t, Key* key, u64 h, u64 R, int ts, u64 rel, int lo, int hi,
                           int best) noexcept nogil:
    """Store bounds that hold wherever the cards in ``rel`` (closed upwards in power order)
    and the named cards agree. Named cards are closed upwards from too, which places them,
    unless the key holds their places (Jass before its trump is fixed: there the cards
    closed upwards from ``rel`` in plain order are also closed in any suit's trump order,
    as only the J and the 9 change places, and those are named)."""
    cdef u64 closed, S
    if t.place[ts][0]:
        closed = closure(t, to_power(<Any*>NULL, t, ts, rel), R) | to_power(<Any*>NULL, t, ts, key.k[1])
    else:
        closed = closure(t, to_power(<Any*>NULL, t, ts, rel | key.k[1]), R)
    cdef u64 msk = oh_pext(closed, R)
    cdef u64 p2 = key.k[2] & msk, p3 = key.k[3] & msk
    cdef Slot* d
    cdef Slot* base
    cdef PEntry* e
    cdef int32_t i
    cdef int x, cov = 0, cmask = 0
    cdef int bpos = 255 if best == 255 else popcount64(R & (to_power(<Any*>NULL, t, ts, (<u64>1) << best) - 1))
    if c.pool_used >= c.pool_size:
        # full: start again (DDS resets too); the cheap way to forget in O(1)
        next_generation(c)
        c.pool_used = 0
    for x in range(4):
        S = R & t.suit_mask[x]
        if S and closed & ((<u64>1) << (63 - __builtin_clzll(S))):
            # the entry names the holder of the suit's top card: it goes in that holder's chain
            cov |= 1 << x
            cmask |= 3 << (2 * x)
    base = pslot(c, key, h, 1)
    base.count |= <uint16_t>(1 << cov)
    d = sub_slot(c, key, h, cov, top_owners(t, key, R) & cmask, 1)
    i = d.head
    while i >= 0:
        e = c.pool + i
        if e.msk == msk and e.own1 == p2 and e.own2 == p3:
            tighten(&e.lo, &e.hi, lo, hi)
            set_best(e, bpos)
            return
        if (((e.own1 ^ p2) | (e.own2 ^ p3)) & e.msk & msk) == 0:
            if (e.msk & ~msk) == 0 and e.lo >= lo and e.hi <= hi:
                return  # an entry at least as general and as tight says it already
            if (msk & ~e.msk) == 0 and lo >= e.lo and hi <= e.hi:
                # the new bounds are as tight and hold more widely: they take its place
                e.own1 = p2
                e.own2 = p3
                e.msk = msk
                e.lo = lo
                e.hi = hi
                set_best(e, bpos)
                return
        i = pnext(e)
    i = c.pool_used
    c.pool_used += 1
    e = c.pool + i
    e.own1 = p2
    e.own2 = p3
    e.msk = msk
    e.lo = lo
    e.hi = hi
    e.link = (<uint32_t>bpos << 24) | (<uint32_t>NIL if d.head < 0 else <uint32_t>d.head)
    d.head = i
    if d.count < 65535:
        d.count += 1


cdef inline u64 trick_mark(Shape* shape, Tab* t, int ts, int* trick) noexcept nogil:
    """The winner of a finished trick when its rank mattered: it beat a card of its own suit."""
    cdef int cls = t.lead_class[ts][trick[0]], i, w = 0, best = -1, pw
    for i in range(seats(shape, t)):
        pw = t.power[ts][cls][trick[i]]
        if pw > best:
            best = pw
            w = i
    for i in range(seats(shape, t)):
        if i != w and t.piece_suit[trick[i]] == t.piece_suit[trick[w]]:
            return (<u64>1) << trick[w]
    return 0


cdef inline u64 jass_rank_mark(Tab* t, State* s, int seat) noexcept nogil:
    """The one rank comparison Jass's legality makes once trump is fixed: with a trump in a
    trick led in another suit, a seat holding trumps and other cards may not undertrump the
    highest trump so far. That trump then matters (and with it, closed upwards, every
    higher one). Bauer's exception is about the trump jack, which keys keep by name."""
    cdef int T = s.ts, led, i, p, top = -1, bp = -1
    cdef u64 hand = s.hands[seat], trumps
    if T == NONE or s.tlen == 0:
        return 0
    led = t.piece_suit[s.trick[0]]
    trumps = hand & t.suit_mask[T]
    if led == T or not trumps or hand == trumps:
        return 0
    for i in range(s.tlen):
        p = s.trick[i]
        if t.piece_suit[p] == T and t.power[T][led][p] > top:
            top = t.power[T][led][p]
            bp = p
    return 0 if bp < 0 else (<u64>1) << bp


cdef inline u64 widen_equivalents(Tab* t, State* s, u64 legal_moves, u64 kept, u64 rel) noexcept nogil:
    """Cards searched for an equivalent one: a skipped card stands for its kept twin with the
    two swapped, so when either matters, both do."""
    cdef u64 skipped = legal_moves & ~kept, m, before = ~rel
    cdef u64 inplay = in_play(s)
    cdef int y, x
    while skipped and before != rel:
        before = rel
        m = skipped
        while m:
            y = ctz64(m)
            m &= m - 1
            x = kept_equivalent(t, s, y, legal_moves, inplay)
            if x >= 0 and (rel & (((<u64>1) << x) | ((<u64>1) << y))):
                rel |= ((<u64>1) << x) | ((<u64>1) << y)
    return rel


DEF ANSWERS_FIRST = 10000  # a lead's answers outweigh any score of order_moves
DEF ANSWER_WEIGHT = 100    # or weigh against the scores (a sure winner scores 1000)
DEF FIXES_TRUMP = 99       # Jass before its trump: the power given a card off the led suit
DEF POINT_WEIGHT = 4       # a point a card can still score, against a step of power
DEF KILLER_BONUS = 20      # bridge-like leads with trumps out: the killer's weight (``team_lead``)


cdef inline bint wants_tricks(Tab* t, int seat) noexcept nogil:
    """Whether ``seat``'s side wants tricks: the hero's side maximising, or the other one
    where the hero's minimises."""
    return ((t.max_mask >> seat) & 1) == ((t.side_mask >> seat) & 1)


cdef inline bint hero_avoids(Tab* t, int seat) noexcept nogil:
    """Whether ``seat`` is on the hero's side and that side avoids tricks."""
    return (t.side_mask >> seat) & 1 and not wants_tricks(t, seat)


# --- bridge-like leads -----------------------------------------------------------------

cdef inline bint team_lead(Shape* shape, Tab* t, int seat) noexcept nogil:
    """Whether a lead of ``seat`` is weighed as in bridge (``nt_lead_weight``,
    ``trump_lead_weight``): cards in plain rank order, four seats in two teams of partners
    opposite, the side on lead wanting tricks and no points (bridge, Minimisere with partners
    played for the most tricks). Not Moon 4p, whose tiles follow two suits: played for
    the most tricks (30 deals) it took 43% more nodes with them."""
    return seats(shape, t) == 4 and t.suit_mask[0] != 0 and plain(shape, t) and not t.scored \
        and wants_tricks(t, seat) and popcount64(t.side_mask) == 2 and ((t.side_mask >> seat) & 1) == ((t.side_mask >> t.seatmod[seat + 2]) & 1)


cdef struct SuitView:
    int lho, pd, rho          # the seats after the leader, in play order (pd: the partner)
    int nL, nP, nR            # their cards of the suit
    int h1, h2, h3            # who holds the suit's three top cards in play (-1: nobody)
    int lengths               # the opponents' lengths, a void counting all the tricks left and one
    u64 rem, L, P, R, w1, w2  # the suit in play, their cards of it, its two top cards


cdef inline void suit_view(Tab* t, State* s, int seat, int S, SuitView* v) noexcept nogil:
    """What DDS's lead rules (``nt_lead_weight``, ``trump_lead_weight``) ask of suit ``S``
    with ``seat`` on lead."""
    cdef u64 sm = t.suit_mask[S]
    cdef int r = popcount64(s.hands[seat])
    v.lho = t.seatmod[seat + 1]
    v.pd = t.seatmod[seat + 2]
    v.rho = t.seatmod[seat + 3]
    v.rem = (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]) & sm
    v.L = s.hands[v.lho] & sm
    v.P = s.hands[v.pd] & sm
    v.R = s.hands[v.rho] & sm
    v.nL = popcount64(v.L)
    v.nP = popcount64(v.P)
    v.nR = popcount64(v.R)
    v.lengths = (v.nL if v.nL else r + 1) + (v.nR if v.nR else r + 1)
    v.w1 = top_card(v.rem)
    v.w2 = top_card(v.rem ^ v.w1)
    v.h1 = holder_of(s, v.w1)
    v.h2 = holder_of(s, v.w2)
    v.h3 = holder_of(s, top_card(v.rem ^ v.w1 ^ v.w2))


cdef inline bint top_single(SuitView* v) noexcept nogil:
    """An opponent holds the suit's top card alone (both lead rules weigh the suit up)."""
    return (v.nL == 1 and v.h1 == v.lho) or (v.nR == 1 and v.h1 == v.rho)


cdef inline int next_round(SuitView* v, int seat, int both, int split) noexcept nogil:
    """The lead rules' bonus where the leader's side holds the second and third cards, so
    that it holds the top card the next time the suit is led: ``both`` with the partner,
    ``split`` between the two hands (the partner with two cards or more)."""
    if v.h2 == v.pd and v.h3 == v.pd:
        return both
    if v.nP > 1 and ((v.h2 == seat and v.h3 == v.pd) or (v.h2 == v.pd and v.h3 == seat)):
        return split
    return 0


cdef inline bint twin_below(u64 rem, u64 bit, u64 hand) noexcept nogil:
    """The card in play next below ``bit`` (``rem``: the suit in play) is in ``hand`` too:
    DDS's "sequence" (a move stands for its run of interchangeable cards)."""
    return (top_card(rem & (bit - 1)) & hand) != 0


cdef inline int nt_lead_weight(Tab* t, State* s, int seat, int p) noexcept nogil:
    """How promising a lead of card ``p`` is for a team that wants tricks, no trumps out:
    DDS's rules for such leads (Haglund and Hein, ``Moves::WeightAllocNT0``), with their
    weights. A suit in which the opponents hold few cards (a void counts as more than all
    the tricks left) leaves the fewest answers. A card that wins the trick (the suit's top
    card, or the partner's top card is above both opponents') scores higher where no
    opponent can keep the second-best card (it is the side's, or single), highest where it is
    single with the left-hand opponent, lowest where the right-hand one keeps it. One that
    cannot win scores
    higher where the left-hand opponent holds the top card and the partner, behind him, the
    second; where the side holds the second and third; or where an opponent's top card is
    single; lower where the right-hand opponent holds the top or second. Within a weight the
    lower card goes first: DDS adds the card's rank among those in play, which here cost
    nodes (bridge cut to 11 cards, no-trump, 30 positions: 6% more)."""
    cdef SuitView v
    cdef u64 bit = (<u64>1) << p
    cdef int wd
    suit_view(t, s, seat, t.piece_suit[p], &v)
    cdef int lho = v.lho, pd = v.pd, rho = v.rho, nL = v.nL, nP = v.nP, nR = v.nR
    cdef int h1 = v.h1, h2 = v.h2
    cdef u64 rem = v.rem, L = v.L, P = v.P, R = v.R, w1 = v.w1, w2 = v.w2
    wd = -(v.lengths * 128 // 19) - (0 if P else 9)
    if bit == w1 or top_card(P) > top_card(L | R):
        if h2 == rho:
            if nR != 1:
                wd -= 1
        elif h2 == lho:
            wd += 22 if nL != 1 else 16
        if (h2 != lho or nL == 1) and (h2 != rho or nR == 1):
            return wd + 45
        return wd + 18
    if h1 == rho or h2 == rho:
        if nR != 1:
            wd -= 10
    elif h1 == lho and h2 == pd and nP != 1:
        wd += 31
    wd += next_round(&v, seat, 35, 25)
    if top_single(&v):
        return wd + 28
    if h1 == seat:
        return wd - 17
    if not twin_below(rem, bit, s.hands[seat]):
        return wd + 12  # no twin below it in the hand (moves are the tops of their runs)
    if bit == w2:
        return wd + 48
    return wd + 29


cdef inline int trump_lead_weight(Tab* t, State* s, int seat, int p, int T) noexcept nogil:
    """``nt_lead_weight`` with trumps ``T`` out: DDS's rules (``Moves::WeightAllocTrump0``),
    with their weights. Besides the lengths and who holds the top cards: a suit the
    partner can ruff (and the right-hand opponent must follow) scores more, one an opponent
    can ruff less, as does leading a singleton to the partner's top card with trumps left to
    ruff its return; a card wins the trick only where no opponent can ruff it (or the
    partner overruffs). Within a class the lower card first, as there (DDS's rank among the
    cards in play cost 13.5% more nodes, bridge cut to 11 cards, spades trumps, 30 positions),
    except for a card that cannot win and has nothing else for it, where DDS's absolute rank
    is kept."""
    cdef SuitView v
    cdef int S = t.piece_suit[p], bonus = 0, win = 0, wd
    cdef u64 sm = t.suit_mask[S], tm = t.suit_mask[T], bit = (<u64>1) << p
    suit_view(t, s, seat, S, &v)
    cdef int lho = v.lho, pd = v.pd, rho = v.rho, nL = v.nL, nP = v.nP, nR = v.nR
    cdef int h1 = v.h1, h2 = v.h2
    cdef u64 rem = v.rem, L = v.L, P = v.P, R = v.R, w1 = v.w1, w2 = v.w2
    cdef u64 LT = s.hands[lho] & tm, PT = s.hands[pd] & tm, RT = s.hands[rho] & tm
    wd = -(v.lengths * 128 // 13)
    if S != T:
        if (not L and LT) or (not R and RT):
            bonus = -12
        if not P and PT and nR:
            bonus += 17
    if h1 == rho or h2 == rho:
        if nR != 1:
            bonus -= 12
    elif h1 == lho and h2 == pd and nP != 1:
        bonus += 27
    if S != T and popcount64(s.hands[seat] & sm) == 1 and s.hands[seat] & tm and nP > 1 and h1 == pd:
        bonus += 19
    wd += bonus
    if bit == w1:
        if S == T:
            win = 1
        elif P or not PT:
            win = (L or not LT) and (R or not RT)
        else:
            win = (L or top_card(PT) > top_card(LT)) and (R or top_card(PT) > top_card(RT))
    elif top_card(P) > top_card(L | R):
        win = S == T or ((L or not LT) and (R or not RT))
    elif S != T and not P and PT:
        if not L and LT and not R and RT:
            win = top_card(PT) > top_card(LT | RT)
        elif not L and LT:
            win = top_card(PT) > top_card(LT)
        elif not R and RT:
            win = top_card(PT) > top_card(RT)
        else:
            win = 1
    if win:
        if top_single(&v):
            return wd + 35
        if h1 == seat:
            if h2 == pd:
                return wd + 48
            return wd + 31 if bit == w1 else wd - 3
        if h1 == pd:
            return wd + (42 if h2 == seat else 28)
        if twin_below(rem, bit, s.hands[seat]):
            return wd + (40 if bit == w2 else 22)
        return wd + 11
    wd += next_round(&v, seat, 20, 13)
    if top_single(&v):
        return wd + 2
    if h1 == seat:
        if h2 == pd:
            return wd + 33
        return wd + 38 if bit == w1 else wd - 14
    if h1 == pd:
        return wd + 34
    if bit == w2 and twin_below(rem, bit, s.hands[seat]):
        return wd + 35
    return wd + 15 - popcount64(sm & (bit - 1))


cdef inline int second_hand_nt(Tab* t, State* s, int seat, int p) noexcept nogil:
    """How promising the second hand's card ``p`` of the suit led is, for a bridge-like team
    with no trumps out: DDS's rule and weights (``Moves::WeightAllocNTNotvoid1``). Where
    the partner, last to play, beats both opponents' cards, the lowest card; else first a
    card that beats the lead and the third hand's cards, then one from a run (its twin
    below it in the hand: honours split), then the other cards that beat the lead, lowest
    rank first, and last those that cannot matter. Within a class DDS's relative rank
    (``rr``, 1 for the suit's top card in play) orders them. Our order had played the
    cheapest card over the lead first, a low one where a split honour cuts. Nodes, every
    lead, the same answers: bridge cut to 11 cards, no-trump (40) 3.2% fewer; no-trump
    full deals (60 in three sets) 2.7%, 15.7% and 5.9% fewer (the medians from 5% more to
    12% fewer); the bridge set's full deals (20, two sets) 1.2% and 0.6% more; the DDS
    set of no-trump full deals 1.64 to 1.43 times DDS's trick starts in all."""
    cdef int S = t.piece_suit[p], lead = s.trick[0]
    cdef u64 sm = t.suit_mask[S], bit = (<u64>1) << p
    cdef u64 third = s.hands[t.seatmod[seat + 1]] & sm, fourth = s.hands[t.seatmod[seat + 2]] & sm
    cdef u64 rem = (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]) & sm
    cdef int rank = p - 13 * S + 2, rr = popcount64(rem & ~(bit - 1))
    if fourth and top_card(fourth) > ((<u64>1) << lead) and top_card(fourth) > top_card(third):
        return -rank
    if bit > ((<u64>1) << lead) and bit > top_card(third):
        return 81 - rank
    if (third and (third & (~third + 1)) > bit) or (fourth and (fourth & (~fourth + 1)) > bit):
        return -3 + rr
    if p < lead:
        return -11 + rr
    if twin_below(rem, bit, s.hands[seat]):
        return 10 + rr  # (splitting honours)
    return 13 - rank


cdef inline int third_hand_nt(Tab* t, State* s, int seat, int p) noexcept nogil:
    """``second_hand_nt`` for the third hand (DDS's ``Moves::WeightAllocNTNotvoid2``): low
    where the partner's lead holds the trick against the fourth hand, or where no card of
    the hand can matter; else the cheapest card that wins the trick outright, and failing
    that the cheapest one that forces out the fourth hand's top card (over its next group
    of cards, or over the second hand's card where that holds the trick), then low cards.
    Our order had tried the cheapest card over the trick's best first. Nodes, every lead,
    the same answers: bridge cut to 9 and 11 cards, no-trump (40), 4.9% and 6.9% fewer;
    no-trump full deals (seeds 0-11, 100-111, 200-223) 13.0% fewer, 4.9% more and 0.8%
    fewer; the bridge set's full deals 5.3% and 0.1% fewer; Minimisere partners cut to 8
    cards 7.2% fewer; without the card that forces out the top, 6.8% more at 11 cards.
    The DDS set of no-trump full deals: 1.43 to 1.36 times DDS's trick starts in all."""
    cdef int S = t.piece_suit[p], best = s.trick[0]
    cdef u64 sm = t.suit_mask[S], bit = (<u64>1) << p, mine = s.hands[seat] & sm
    cdef u64 f4 = s.hands[t.seatmod[seat + 1]] & sm
    cdef u64 rem = (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]) & sm, top4, below, sec, pick = 0
    cdef int rank = p - 13 * S + 2
    if s.trick[1] > best and t.piece_suit[s.trick[1]] == S:
        best = s.trick[1]
    if best == s.trick[0] and ((<u64>1) << best) > top_card(f4):
        return -rank  # the partner's card holds the trick
    if top_card(mine) < (f4 & (~f4 + 1)) or top_card(mine) < ((<u64>1) << best):
        return -rank  # too low to matter
    if bit > ((<u64>1) << best) and bit > top_card(f4):
        return 60 - rank
    if top_card(f4) > top_card(mine) and top_card(f4) > ((<u64>1) << best):
        # force out the top: the cheapest card over the fourth hand's next group, or over
        # the second hand's card where that holds the trick
        top4 = top_card(f4)
        below = rem & (top4 - 1)
        while below and (top_card(below) & f4):
            below &= ~top_card(below)
        sec = top_card(f4 & (top_card(below) - 1)) if below else 0
        if sec and sec > ((<u64>1) << best):
            pick = mine & ~((sec << 1) - 1)
        elif sec and best == s.trick[1]:
            pick = mine & ~((((<u64>1) << best) << 1) - 1)
        if pick and bit == (pick & (~pick + 1)):
            return 20 - rank
    return -rank


cdef inline bint killer_first(Shape* shape, Tab* t, State* s, int seat) noexcept nogil:
    """Whether the killer lead goes before the order by answers (see ``search``): not for the
    hero's side in card games, unless it wants tricks with no trump (bridge in no-trump:
    full deals, 20: 39% more nodes in all without it, the median 17% fewer); not for a
    bridge-like lead with trumps out, where it only weighs in (``team_lead``)."""
    if team_lead(shape, t, seat):
        return trumps_out(t, s) < 0
    return not (t.suit_mask[0] and (t.side_mask >> seat) & 1
                and not (wants_tricks(t, seat) and t.trump_class[s.ts] < 0))


cdef inline int replies(Shape* shape, Tab* t, State* s, int seat, int cls, u64* inplay) noexcept nogil:
    """How many different answers the side against ``seat`` has to a lead of class ``cls``:
    per seat of that side, its runs of interchangeable cards that follow (cards: no card in
    play between them; tiles: each one), or, void, each piece it holds; multiplied over the
    seats. ``inplay``: the pieces in play, computed here once when still 0."""
    cdef int o, n = 1, side = (t.side_mask >> seat) & 1
    cdef u64 m, cm
    for o in range(seats(shape, t)):
        if ((t.side_mask >> o) & 1) == side:
            continue
        m = s.hands[o] & t.follow[s.ts][cls]
        if m and t.suit_mask[0]:
            if not inplay[0]:
                inplay[0] = in_play(s)
            cm = oh_pext(m, inplay[0])
            n *= popcount64(cm & ~(cm >> 1))
        else:
            n *= popcount64(m) if m else popcount64(s.hands[o])
    return n


cdef inline int answers_after(Shape* shape, Tab* t, State* s, int seat, int p) noexcept nogil:
    """How many different plays the side against ``seat`` still has in this trick after
    ``seat`` plays ``p``: the legal moves of each of its seats still to play, multiplied.
    For Jass, whose legal moves depend on the cards already in the trick (its first card
    off suit fixes the trump; no undertrumping; a trump may be played while holding the
    led suit); elsewhere ``replies`` counts a lead's answers without playing it."""
    cdef State ch = s[0]
    cdef int j, o, n = 1
    play(shape, t, &ch, p)
    for j in range(s.tlen + 1, seats(shape, t)):
        o = t.seatmod[s.leader + j]
        if ((t.side_mask >> o) & 1) != ((t.side_mask >> seat) & 1):
            n *= popcount64(legal(shape, t, &ch, o))
    return n


cdef inline int trump_choice(Shape* shape, Tab* t, State* s, int seat, int p, bint want) noexcept nogil:
    """Jass before its trump is fixed: how well ``p``, a card off the led suit that would fix
    its own suit as trump, suits ``seat`` (``want``: whether it wants tricks). The side
    against a lone hero that avoids tricks wants him long in trumps and itself short, he
    the reverse, and the other way round where he wants them; the J and 9, the top trumps,
    count more; within a suit, the highest card first. (These cards all scored alike
    before, so the lowest card went first. Nodes, the same answers, `tricks` (both sides
    avoid them): Jass full deals, seeds 0-27, 7.9% fewer, the median of seeds 12-27 25%
    fewer; cut to 9 and 10 cards, 30 each, 8.5% and 14.9%; on seeds 0-11, where this saved
    2.0%, the hero's count alone cost 2.3% more, with the rank it saved 1.6%. `points`
    played for the most: full deals, seeds 0-15, 3.5% fewer, the medians of seeds 0-7 and
    8-15 18% and 36% fewer; cut to 8 and 9 cards, 3.6% and 6.8%; the lowest card of the
    suit first saved less. The J and 9 counting more, after that: full deals, seeds 0-11
    and 12-23, 2.5% and 2.1% fewer; cut to 10 cards 0.4%, `points` cut to 9 0.9%.)"""
    cdef int S = t.piece_suit[p], o, k
    # its two top trumps, the J and the 9 two bits below it, as ``jass_exit_after`` and
    # ``jass_exits`` read them (found by power in a loop, Jass full deals took 1.5% more
    # instructions)
    cdef u64 top = (<u64>1) << t.jack[S]
    top |= top >> 2
    k = 16 * popcount64(s.hands[t.hero] & t.suit_mask[S]) + 12 * popcount64(s.hands[t.hero] & top)
    for o in range(seats(shape, t)):
        if o != t.hero:
            k -= 8 * popcount64(s.hands[o] & t.suit_mask[S]) + 6 * popcount64(s.hands[o] & top)
    return t.power[NONE][S][p] + (k if (seat != t.hero) != want else -k)


cdef inline int order_moves(Shape* shape, Ctx* c, Tab* t, State* s, int seat, u64 moves, int* out) noexcept nogil:
    """Moves, most promising first (the table's best move, if any, is searched before this
    is called): for a seat that wants tricks, the cheapest card that no opponent still to
    play can beat (and none over a partner who already holds the trick that way; discards
    from the longest suit), and for one that does not, high ducks. Leads: first those that
    leave the other side fewest answers (``replies``; Jass, its plays after the lead too:
    ``answers_after``), then by the scores below. With points, the side takes what it wins:
    a seat that wants tricks wins with points, one that avoids them wins without and gives
    points away only to a trick that is not surely its side's."""
    cdef int k = 0, i, j, p, cls = 0, wp = -1, wseat = 0, pw, sc, tmp, mf
    cdef int score[64]
    cdef int want = wants_tricks(t, seat)
    cdef int mate_wins = 0
    if s.tlen > 0:
        cls = t.lead_class[s.ts][s.trick[0]]
        for i in range(s.tlen):
            pw = t.power[s.ts][cls][s.trick[i]]
            if pw > wp:
                wp = pw
                wseat = t.seatmod[s.leader + i]
        mate_wins = ((t.side_mask >> wseat) & 1) == ((t.side_mask >> seat) & 1)
    cdef int cp, x, top, o, mw, topo, partner
    cdef u64 opp = 0, m, ownside = 0, hx
    cdef int later = 0  # the best card that an opponent still to play can add to the trick
    cdef int plater = 0  # and a partner
    cdef int under = 0  # for a seat that avoids tricks: a card below this surely loses the trick
    cdef int ours = 0   # and the card of the other side that holds the trick is surely beaten
    cdef int keep = 0   # and the trick is surely its side's (points are better kept than given)
    if s.tlen > 0 and c.order_mode == 4:
        keep = mate_wins and t.scored
        for j in range(s.tlen + 1, seats(shape, t)):  # the seats still to play
            o = t.seatmod[s.leader + j]
            m = s.hands[o] & t.follow[s.ts][cls]
            partner = ((t.side_mask >> o) & 1) == ((t.side_mask >> seat) & 1)
            if not partner:
                keep = 0
            if want:
                pw = best_power(shape, t, s.ts, cls, m if m else s.hands[o])
                if partner:
                    if pw > plater:
                        plater = pw
                elif pw > later:
                    later = pw
            elif m:
                # one that must follow beats every card below its lowest one
                pw = low_power(shape, t, s.ts, cls, m)
                if not partner:
                    if pw > under:
                        under = pw
                elif pw > wp and not mate_wins:
                    ours = 1
    cdef int nrep[NCLASSES]
    cdef u64 inplay = 0
    # Leads of the side against a lone hero who avoids tricks, with four players (Minimisere):
    # the scores first and the answers as a tie-break, and a card he must beat after the
    # cards he need not beat. Forcing him to win at once lets him shed his highest card of
    # the suit and puts him on lead; where the side's first lead failed and a later one cut
    # (a test that the side makes him take the value, Minimisere cut to 10 cards), the
    # first was one he must beat in 88% of the nodes those failures cost. Nodes, the same
    # answers: cut to 8, 9 and 10 cards 3.5%, 3.9% and 3.9% fewer, `points` 0.4%, hard
    # `points` 0.9%, hearts trumps 1.0%; full deals' values (seeds 0, 3-5, 7-10, 12) from
    # 57% fewer to 16% more, the median 6% fewer. Alone, the scores first saved 1.2% (cut to
    # 8) and the card he must beat last cost 0.2%; with three players (Minimo, Jass) both
    # together saved nothing (Minimo `points` 0.8% more).
    cdef bint lone4 = (s.tlen == 0 and c.order_mode == 4 and seats(shape, t) == 4 and t.suit_mask[0] != 0
                       and not want and not (t.side_mask >> seat) & 1 and not (t.side_mask & (t.side_mask - 1)))
    cdef int team = -2  # bridge-like leads: trumps out (or -1), else -2; and the killer
    cdef int killer = -1
    if s.tlen == 0 and c.order_mode == 4 and team_lead(shape, t, seat):
        team = trumps_out(t, s)
        killer = c.killer[popcount64(s.hands[seat])][(t.side_mask >> seat) & 1]
    if s.tlen == 0 and c.order_mode == 4 and team == -2:  # (what the other leads' scores ask)
        memset(nrep, 0, sizeof(nrep))
        for i in range(seats(shape, t)):
            if ((t.side_mask >> i) & 1) != ((t.side_mask >> seat) & 1):
                opp |= s.hands[i]
            else:
                ownside |= s.hands[i]
    # the second and third hands of a bridge-like team, no trumps out: DDS's rules
    # (``second_hand_nt``, ``third_hand_nt``); a card's rank there is its bit in its suit
    cdef bint second_nt = s.tlen == 1 and c.order_mode == 4 and team_lead(shape, t, seat) and trumps_out(t, s) < 0
    cdef bint third_nt = s.tlen == 2 and c.order_mode == 4 and team_lead(shape, t, seat) and trumps_out(t, s) < 0
    while moves:
        p = ctz64(moves)
        moves &= moves - 1
        mf = t.max_future[s.ts][p]  # the points the card can still score
        if c.order_mode != 4:
            if s.tlen == 0:
                pw = t.power[s.ts][t.lead_class[s.ts][p]][p]
                sc = pw if want else -pw
            else:
                pw = t.power[s.ts][cls][p]
                if jass_rules(shape, t) and s.ts == NONE and t.piece_suit[p] != t.piece_suit[s.trick[0]]:
                    pw = FIXES_TRUMP  # fixes trump and wins, for now
                if want:
                    if mate_wins:
                        sc = -pw
                    elif pw > wp:
                        sc = 500 - pw
                    else:
                        sc = 100 - pw
                else:
                    if pw > wp:
                        sc = pw + mf
                    else:
                        sc = 500 + pw + POINT_WEIGHT * mf
        elif team > -2:
            # Bridge-like leads go by DDS's rules (bridge full deals, 20: 24% fewer nodes; see
            # benchmarks/README.md, "Bridge leads by DDS's rules")
            if team < 0:
                sc = nt_lead_weight(t, s, seat, p)
            else:
                sc = trump_lead_weight(t, s, seat, p, team) + (KILLER_BONUS if p == killer else 0)
        elif s.tlen == 0:
            # Lead: a seat that wants tricks cashes cards no opponent can beat in their
            # suit, else leads low, first towards a partner's winner; one that avoids tricks
            # leads cards an opponent beats, first those an opponent must beat, in card games
            # the highest first (a high card is the one that may have to win later), and,
            # where no such card is left, its highest winner first (sheds the worst card).
            cp = t.lead_class[s.ts][p]
            pw = t.power[s.ts][cp][p]
            # the opponents' best card of the class
            topo = best_power(shape, t, s.ts, cp, opp & t.follow[s.ts][cp])
            top = topo > pw
            if want:
                if not top:
                    # a sure winner, those with points first (the side takes what it wins:
                    # Jass `points` full deals, seeds 0-23, 6.5% fewer nodes)
                    sc = 1000 + pw + POINT_WEIGHT * mf
                else:
                    # low towards a partner's winner: the side still takes the trick
                    sc = -pw
                    mw = best_power(shape, t, s.ts, cp, (ownside & ~s.hands[seat]) & t.follow[s.ts][cp])
                    if mw > topo:
                        sc = 500 - pw
            elif top:
                # (Moon: lowest first: highest cut the mean but raised the median moon3/full
                # deal's nodes 15%)
                sc = 1000 + pw if t.suit_mask[0] else 1000 - pw
                # best of all: a card that an opponent must beat (all his cards of the class
                # are higher), the higher the better (it sheds a card that could win later);
                # not in Moon, where it costs nodes (moon3/full, 100 deals: 17.7k vs 16.6k)
                # Only his highest card of the suit: a lower one that must be beaten still
                # leaves him the higher ones (first cuts at a lead went most often to another
                # suit's highest card; Minimo full deals, seeds 1000-1199: 6.8% fewer nodes)
                if lone4:
                    # Four players: a lead the hero (``opp``) must beat goes after those he
                    # need not (see ``lone4`` above)
                    if low_power(shape, t, s.ts, cp, opp & t.follow[s.ts][cp]) > pw:
                        sc = 400 + pw
                elif t.suit_mask[0] and best_power(shape, t, s.ts, cp, s.hands[seat] & t.follow[s.ts][cp]) <= pw:
                    for o in range(seats(shape, t)):
                        if ((t.side_mask >> o) & 1) == ((t.side_mask >> seat) & 1):
                            continue
                        m = s.hands[o] & t.follow[s.ts][cp]
                        if m and low_power(shape, t, s.ts, cp, m) > pw:
                            sc = 2000 + pw
                            break
            elif opp & t.follow[s.ts][cp]:
                # a sure winner that an opponent must follow, spending a low piece of the class
                # (a quarter of the first cuts that the side against a lone hero missed at a
                # lead went to a card he could not beat, and half in Moon): after those he can
                # beat, before the other sure winners (Minimo 2%, moon3 6% fewer nodes; Moon's
                # lowest first as its other leads)
                sc = 500 + pw if t.suit_mask[0] else 500 - pw
            else:
                # (Moon: lowest first, 5% fewer nodes than highest on moon3/full)
                sc = pw - 1000 if t.suit_mask[0] else -pw
            if t.scored and not want and not top:
                # the side takes what it wins: a lead with fewer points first (Minimo `points`
                # 0.9% fewer nodes, Minimisere `points` cut to 9 cards 1.4%)
                sc -= POINT_WEIGHT * mf
            # A proof that a lead holds the bound the search asks for must try every answer
            # of the other side, so leads that leave it fewest go first (of several leads
            # that hold, the cheapest one's proof is often half the one searched first: see
            # ``cheapest_first``). For a seat that avoids tricks, fewest answers first and
            # the scores above breaking ties. Full deals, nodes, the hero's side: Minimo
            # `tricks` (100) 3.7% and (seeds 1000+) 6.5% fewer, `points` 2.0%, Moon 3p (200)
            # 6.3%, Moon 4p (30) 6.9%; cut to 8-9 cards, Minimisere `tricks` 3.7% and
            # `points` 2.5%, Jass `tricks` 3.5%; the other side too, further: Moon 4p 6.9%,
            # Minimo 0.4-1.3%, Moon 3p 1.4%, Minimisere cut to 8 1.0% more. The scores first
            # and answers as tie-break: Minimo 1% fewer only; a void seat's runs instead of
            # its cards, or Jass's trumps counted as answers where the led suit is held:
            # within 1% (Jass: see below). For a seat that wants tricks, the answers weigh
            # against the scores, 100 each (where a sure winner is worth 1000): bridge cut
            # to 9 and 11 cards, trumps 3% and 12% and no-trump 2% and 15% fewer nodes than
            # answers first in trumps and the old order in no-trump, full deals (20) 25%,
            # no-trump full deals (20, seeds 100-119) 11%; weights of 10, 30 and 300 did
            # worse in trumps or in no-trump; answers first in no-trump cost 16% and 12%
            # cut to 9 and 11 cards, and one full deal of 20 went from 29 to 169 million.
            if not jass_rules(shape, t):
                if not nrep[cp]:
                    nrep[cp] = replies(shape, t, s, seat, cp, &inplay)
                if lone4:
                    sc = 16 * sc - nrep[cp]  # the scores first, the answers (at most 13) breaking ties
                else:
                    sc -= (ANSWER_WEIGHT if want else ANSWERS_FIRST) * nrep[cp]
        else:
            pw = t.power[s.ts][cls][p]
            if jass_rules(shape, t) and s.ts == NONE and t.piece_suit[p] != t.piece_suit[s.trick[0]]:
                pw = FIXES_TRUMP  # fixes trump and wins, for now
            # a discard: how dangerous it is to keep, by its power where it leads
            x = pw if pw else t.power[s.ts][t.lead_class[s.ts][p]][p]
            if second_nt and pw:
                sc = second_hand_nt(t, s, seat, p)
            elif third_nt and pw:
                sc = third_hand_nt(t, s, seat, p)
            elif want:
                if plater > wp and plater > later:
                    sc = -x  # a partner still to play takes the trick anyway
                elif mate_wins and wp > later:
                    sc = -x
                elif mate_wins:
                    # the partner's card can still be beaten: take over only for sure
                    sc = (500 - pw) if pw > later else -x
                elif pw > wp and pw > later:
                    # the cheapest sure winner, and of those a card with points (the side takes
                    # what it wins: Jass `points` full deals, seeds 0-23, 22% fewer nodes)
                    sc = 500 - pw + POINT_WEIGHT * mf
                    if pw == FIXES_TRUMP:
                        sc += trump_choice(shape, t, s, seat, p, 1)
                elif pw > wp:
                    sc = 300 - pw
                elif pw == 0 and t.suit_mask[0]:
                    # a discard: from the longest suit, lowest first
                    sc = 100 - x + 4 * popcount64(s.hands[seat] & t.suit_mask[t.piece_suit[p]])
                else:
                    sc = 100 - x
            elif ours and pw:
                # A partner still to play must beat the card that holds the trick: the trick
                # is not the other side's to lose, so the highest card goes first (sheds it).
                # Where the trick was held by a lone hero, the first play of the side against
                # him that failed was most often a duck, the highest card cutting (Minimo full
                # deals: 7% of the nodes). With the test below: see benchmarks/README.md,
                # "Cards that surely lose".
                sc = 3000 + pw - POINT_WEIGHT * mf
            else:
                if pw > wp and pw > under:
                    # (below ``under`` it is a duck like one below the trick's best card; of
                    # winning cards, one with fewer points first: the side takes what it wins)
                    sc = pw - mf
                    if pw == FIXES_TRUMP:
                        sc += trump_choice(shape, t, s, seat, p, 0)
                    if mate_wins and t.side_mask & (t.side_mask - 1):
                        # Two teams: each takes the trick from a partner first (as the side
                        # against a lone hero does, below), highest first, the hero's side only
                        # with a trump (where a partner held the trick, the first play of the
                        # hero's side in Moon 4p failed in 28% of the cuts, most often a
                        # discard where a trump over the partner cut). Moon 4p full deals:
                        # seeds 0-99 13.5% and 1000-1059 10.0% fewer nodes; lowest first,
                        # or the hero's side with any piece, or the other side only with a
                        # trump, saved less; Minimisere partners with spades trumps cut to
                        # 8 cards, 30, 5.1% fewer (see benchmarks/README.md).
                        if not (t.side_mask >> seat) & 1 or not (s.hands[seat] & t.follow[s.ts][cls]):
                            sc += 2000 + pw
                    elif mate_wins and not (t.side_mask >> seat) & 1:
                        # the side against the hero takes the trick from a partner, lowest first,
                        # before ducking: its next lead is what makes him win tricks (Jass full
                        # deals: the commonest cut after a duck at its last seat was a ruff of
                        # the partner's winner; moon3 seeds 1000-1299 5.3% fewer nodes; highest
                        # first: within 1.3% on Moon 3p, Minimo and Minimisere)
                        sc += 2000 - 2 * pw
                else:
                    # a card with points first, unless the trick is surely the side's own
                    sc = 500 + x + (-POINT_WEIGHT if keep or ours else POINT_WEIGHT) * mf
                    if pw == 0 and t.suit_mask[0] and not (t.side_mask >> seat) & 1:
                        # Against the hero, a discard from a suit in which the seat must beat
                        # his lowest card (his exit: ``lone_exits``) goes first: discards
                        # tried before the one that cut took 13% of the nodes (Minimisere cut
                        # to 9 cards; with this, 8.1% fewer nodes on 40 positions)
                        m = s.hands[seat] & t.suit_mask[t.piece_suit[p]]
                        hx = s.hands[t.hero] & t.suit_mask[t.piece_suit[p]]
                        if hx and (hx & (~hx + 1)) < (m & (~m + 1)):
                            sc += 100
        if jass_rules(shape, t) and c.order_mode == 4 and s.tlen < seats(shape, t) - 1:
            # Jass: fewest plays left to the other side first, counted exactly, for the
            # seat's plays after the lead too, where the cards in the trick change what the
            # others may play. Following plays: Jass cut to 9 cards, 30, `tricks` 7.7% and
            # `points` (8 cards) 7.1% fewer nodes; full deals, 8: 13%, the median 23%; for
            # the hero's side alone nearly as much, the other's alone 1%; their runs
            # counted instead of their moves: within 2%. Leads, counted so rather than by
            # ``replies``: cut to 9 cards 10.5%, full deals 19% (the median 15%), `points`
            # 3.4%; with interchangeable cards counted once, 3% fewer saved.
            sc -= ANSWERS_FIRST * answers_after(shape, t, s, seat, p)
        out[k] = p
        score[k] = sc
        k += 1
    for i in range(1, k):
        j = i
        while j > 0 and score[j - 1] < score[j]:
            tmp = score[j]; score[j] = score[j - 1]; score[j - 1] = tmp
            tmp = out[j]; out[j] = out[j - 1]; out[j - 1] = tmp
            j -= 1
    return k


cdef inline void cheapest_first(Ctx* c, int r, int* out, int k) noexcept nogil:
    """Leads in order of the nodes their cutoffs at trick starts with ``r`` cards left took so
    far in the solve (``lead_cost``), fewest first; leads that have not cut yet after them,
    in the order given (stable). Several leads often hold the bound the search asks of them
    (a lone hero who must lose a trick, a side that must take one), and their proofs differ
    in size: with the hero on lead (Minimo, 5-7 cards a hand, 200 positions each), the
    cheapest one's proof took 47-59% of the nodes of the search's own. See ``search`` for
    what this order saved."""
    cdef uint32_t kx
    cdef int i, j, mx
    for i in range(1, k):
        mx = out[i]
        kx = c.lead_cost[r][mx]
        j = i
        while j > 0 and c.lead_cost[r][out[j - 1]] > kx:
            out[j] = out[j - 1]
            j -= 1
        out[j] = mx


cdef inline u64 small_twins(Shape* shape, Tab* t, int ts, int x, u64 moves, u64 crel) noexcept nogil:
    """The moves that the search of ``x`` also answers for (DDS's small-card rule): the
    result of ``x``'s subtree depends on no card of ``x``'s suit below the lowest one in
    ``crel``, so another card of that suit from the same hand, below it too, gives the same
    result with the two swapped. Cards that the key names (points) are never small."""
    cdef int S = t.piece_suit[x]
    cdef u64 suit = t.suit_mask[S] & ~t.keep[ts], px = (<u64>1) << x, low = crel & t.suit_mask[S], m = moves & suit
    # only the trump suit's cards change places in power order (Jass): another suit's go as
    # they are (Jass, 2 full deals: 0.5% fewer engine instructions)
    cdef bint moved = jass_rules(shape, t) and t.perm_suit[ts] == S
    if not (suit & px):
        return 0
    if moved:
        px = to_power(shape, t, ts, px)
        low = to_power(shape, t, ts, low)
        m = to_power(shape, t, ts, m)
    low &= ~low + 1  # the lowest card that mattered, or 0: none did
    if low and px >= low:
        return 0
    if not low:
        low = (<u64>1) << 63
    m &= low - 1
    return (from_power(shape, t, ts, m) if moved else m) & ~((<u64>1) << x)


# --- search -----------------------------------------------------------------------

cdef int search(Shape* shape, Ctx* c, State* s, int alpha, int beta, u64* rel) noexcept nogil:
    """Fail-soft alpha-beta: the exact value inside (alpha, beta), else a bound.

    ``rel`` gets the cards whose ranks the result depends on (partition search;
    suit lengths, score state and named point cards are always part of a key)."""
    cdef Tab* t = c.t
    cdef int n = seats(shape, t)
    cdef int seat, maximizing, k, i, v, best, bestmove = 255, first = -1
    cdef int lb, ub, blb, bub, r = 0, a0, b0, alpha0 = alpha, beta0 = beta, probe = 0
    cdef int part = parted(shape, t) and c.use_part
    cdef Key key
    cdef u64 h = 0, moves, all_moves, rest, R = 0, rlb = 0, rub = 0, crel, nrel = 0, skip = 0
    cdef int small
    cdef int64_t spent = 0
    cdef Entry* e = NULL
    cdef State ch
    cdef int order[64]
    rel[0] = 0
    c.nodes += 1
    if c.nodes >= c.next_check:
        if c.nodes >= c.max_nodes or (c.deadline > 0 and now() > c.deadline):
            c.aborted = 1
        elif c.check_signals and now() >= c.sig_next:
            # a tenth of a second apart: taking the GIL waits while another thread holds
            # it, up to Python's switch interval (5 ms), so not at every check
            c.sig_next = now() + 0.1
            if signalled():
                c.aborted = 1
        c.next_check = c.nodes + 4096
    if c.aborted:
        return 0
    if s.tlen == 0:
        c.trick_nodes += 1
        r = popcount64(s.hands[s.leader])
        if r == 0:
            return final_value(shape, t, s)
        if r == 1:
            ch = s[0]
            for i in range(n):
                seat = t.seatmod[ch.leader + ch.tlen]
                play(shape, t, &ch, ctz64(ch.hands[seat]))
            if part:
                rel[0] = trick_mark(shape, t, ch.ts, ch.trick)
            return final_value(shape, t, &ch)
        probe = c.use_tt and r > c.tt_min
        lb = -INF
        ub = INF
        if probe and not part:
            # Exact-key tables first: a probe reads one bucket, a hit spares the bounds, and
            # its bounds narrow the window the bounds' tests are skipped by (minimo/full
            # tricks, 60 deals: 7-9% less time, 1.4% fewer nodes; partition probes walk
            # chains, and there the order cost time)
            make_key(shape, c, t, s, &key)
            h = hash_of(c, &key)
            c.tt_probes += 1
            e = tt_find(c, &key, h)
            if e != NULL:
                c.tt_hits += 1
                lb = e.lo + s.acc
                ub = e.hi + s.acc
                if lb >= beta or lb == ub:
                    return lb
                if ub <= alpha:
                    return ub
                first = e.best if e.best != 255 else -1
            if c.kin_meta:
                kin_bounds(c, t, s, &key, h, &lb, &ub)
                if lb >= beta or lb == ub:
                    return lb
                if ub <= alpha:
                    return ub
        if c.use_bounds:
            bounds(shape, c, t, s, alpha if alpha > lb else lb, beta if beta < ub else ub, &blb, &bub, &rlb, &rub)
            if blb > lb:
                lb = blb
            if bub < ub:
                ub = bub
            # (an exact value returns too: narrowing (alpha, beta) to it would leave an empty
            # window, where the first move searched would decide; found by the sweep: a pv
            # search's window)
            if lb >= beta or ub <= alpha or lb == ub:
                rel[0] = rlb if lb >= beta else (rub if ub <= alpha else rlb | rub)
                if probe and not part:
                    tt_keep_bounds(c, e, &key, h, lb - s.acc, ub - s.acc)
                return lb if lb >= beta else (ub if ub <= alpha else lb)
        if probe and part:
            R = to_power(shape, t, s.ts, s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3])
            pmake_key(shape, t, s, &key, R)
            h = phash(&key)
            ptt_probe(c, &key, h, R, s.ts, s.acc, alpha, beta, &lb, &ub, &rlb, &rub, &first)
            if lb >= beta:
                rel[0] = rlb
                return lb
            if lb == ub:
                rel[0] = rlb | rub
                return lb
            if ub <= alpha:
                rel[0] = rub
                return ub
        if lb > alpha:
            alpha = lb
        if ub < beta:
            beta = ub
    seat = t.seatmod[s.leader + s.tlen]
    if s.tlen and (t.mid_qt >> seat) & 1 and c.use_bounds and c.use_qt:
        # The side to move wants tricks: this one may be its for sure (bridge full deals,
        # 30: 10% fewer nodes, 11% less time), and with no trumps out those its winner then
        # cashes (``cash_after_trick``), where more than one would cut: bridge cut to 6, 9
        # and 11 cards, no-trump, 20%, 17.5% and 18% fewer nodes (see benchmarks/README.md,
        # "No-trump: the tricks a trick's winner then cashes"; on an earlier engine such a
        # count spared 1% of full deals' nodes and cost time)
        r = popcount64(s.hands[s.leader]) + 1  # tricks left, this one's included
        k = beta - s.acc if (t.side_mask >> seat) & 1 else s.acc + r - alpha  # the side needs
        if (k <= 1 or (k <= r and cashing_rules(shape, t, s))) and trick_is_won(shape, t, s, seat, rel):
            i = 1 + (cash_after_trick(t, s, rel) if k > 1 else 0)
            if i >= k:
                return s.acc + i if (t.side_mask >> seat) & 1 else s.acc + r - i
        rel[0] = 0
    a0 = alpha
    b0 = beta
    maximizing = (t.max_mask >> seat) & 1
    moves = all_moves = legal(shape, t, s, seat)
    if c.use_eq and moves & (moves - 1):
        moves = drop_equivalents(shape, t, s, moves)
    if first < 0 and s.tlen == 0 and c.order_mode == 4 and killer_first(shape, t, s, seat):
        # No best move from the table: the lead that last cut at a trick start with as many
        # cards left, the same side on lead (the killer heuristic). Full deals, nodes: moon3
        # 16-21% and moon4 23% fewer, bridge (10) 16%, Minimo 2.5%; Minimisere and Jass cut
        # to 8-9 cards within 3.5% either way, Jass 8 cards points 8.5% more on seeds 0-29
        # and 8% fewer on 100-129. Following plays ordered the same way lost: Minimo 44% more.
        # Since leads go by the other side's answers (``order_moves``), not for the hero's
        # side in card games, where counting runs makes that order the better guess: Minimo
        # `tricks` 5.1% and (seeds 1000+) 2.3% fewer, `points` 4.4% and 4.3%, bridge cut to
        # 9 and 11 cards 2.5% and 4.9%, Jass cut to 9 2.4% and `points` cut to 8 9.8%,
        # Minimisere cut to 8 1.2%; for Moon's tiles it cost 5-9% (and for the other side
        # too: Moon 4p 13%). The killer as a tie-break among leads as good by answers came out
        # the same for cards and also cost Moon.
        first = c.killer[r][(t.side_mask >> s.leader) & 1]
    # The table's best move goes first and alone: the rest are scored and sorted only if it
    # does not cut (same order, so the same nodes; most probes that name a move cut with it)
    k = 0
    rest = moves
    if first >= 0 and (moves >> first) & 1:
        order[0] = first
        k = 1
        rest &= ~((<u64>1) << first)
    best = -INF if maximizing else INF
    # (Jass before its trump too: its unnamed cards, the J and 9 aside, rank alike in plain and
    # trump order, so one below the ranks a result rests on is so whichever suit becomes
    # trump. Full deals (100) 4.4% fewer nodes, 2.8% fewer instructions; the same answers)
    small = part and c.use_small
    i = -1
    while True:
        i += 1
        if i == k:
            if not rest:
                break
            if rest & (rest - 1):
                k += order_moves(shape, c, t, s, seat, rest, order + k)
                if s.tlen == 0 and c.order_mode == 4 and not part and not hero_avoids(t, seat):
                    # (not after the order by answers: Minimo `tricks` 1.8% and `points`
                    # 2.7% fewer nodes without it there, Moon within 0.3%)
                    cheapest_first(c, r, order + i, k - i)
            else:
                order[k] = ctz64(rest)
                k += 1
            rest = 0
        if (skip >> order[i]) & 1:
            continue
        ch = s[0]
        play(shape, t, &ch, order[i])
        spent = c.nodes
        v = search(shape, c, &ch, alpha, beta, &crel)
        if c.aborted:
            return 0
        if part:
            if s.tlen == n - 1:
                crel |= trick_mark(shape, t, ch.ts, ch.trick)
            nrel |= crel
            if small:
                skip |= small_twins(shape, t, s.ts, order[i], moves, crel)
        if maximizing:
            if v > best:
                best = v
                bestmove = order[i]
                if v > alpha:
                    alpha = v
        else:
            if v < best:
                best = v
                bestmove = order[i]
                if v < beta:
                    beta = v
        if alpha >= beta:
            if part:
                nrel = crel  # a cut: this move alone proves the bound
            if s.tlen == 0:
                c.killer[r][(t.side_mask >> s.leader) & 1] = order[i]
                # what this cutoff took, for ordering the leads after the table's and the
                # killer's (``cheapest_first``; exact-key tables only). Full deals, nodes:
                # Minimo `tricks` (100) 3.4% and `points` 2.5% fewer, Moon 4p 4.3%, Moon 3p
                # (200) 1.2%; seeds 1000+: 3.8%, 7.3%, 3.0% and 1.1%; instructions Minimo
                # (30) 0.8% and Moon 4p (30) 2.5% fewer. Cut to 9 cards, Jass `points` 5.5%
                # fewer; Minimisere hard `points` cut to 7, 1.8% more. With partition
                # search (where a lead's proof stands for its small twins too) bridge cut to
                # 9 cards took 6.3% more, Minimisere 0.9% fewer: not there. Following plays
                # ordered the same way: Minimo 16% more. (Those figures were measured before
                # the hero's side ordered its own leads by the other side's answers; it is
                # now asked only for the other side's leads.)
                spent = c.nodes - spent
                if spent > 0x7FFFFFFF:
                    spent = 0x7FFFFFFF
                if c.lead_cost[r][order[i]] != UINT32_MAX:
                    spent = (3 * <int64_t>c.lead_cost[r][order[i]] + spent) >> 2
                c.lead_cost[r][order[i]] = <uint32_t>spent
            break
    if part:
        if jass_rules(shape, t):
            nrel |= jass_rank_mark(t, s, seat)
        if all_moves != moves:
            nrel = widen_equivalents(t, s, all_moves, moves, nrel)
        rel[0] = nrel
        # a result the caller reads as exact may rest on a bound that narrowed the window
        if best >= b0 and b0 < beta0:
            rel[0] |= rub
        if best <= a0 and a0 > alpha0:
            rel[0] |= rlb
    if probe and ((maximizing and best <= a0) or (not maximizing and best >= b0)):
        # Every move failed for the side to move: the one that failed least is no better a
        # first try next time than the killer (the same answers; nodes: bridge full deals,
        # seeds 0-9 4.9% and 1000-1019 1.5% fewer, Minimo 0.4-0.5% and `points` 1.1%, Moon
        # 4p 0.7%, Moon 3p, Jass and Minimisere cut to 8-9 cards 0.0-0.3%, none more)
        bestmove = 255
    if probe:
        if part:
            if best <= a0:
                ptt_store(c, t, &key, h, R, s.ts, nrel, -30000, best - s.acc, bestmove)
            elif best >= b0:
                ptt_store(c, t, &key, h, R, s.ts, nrel, best - s.acc, 30000, bestmove)
            else:
                ptt_store(c, t, &key, h, R, s.ts, nrel, best - s.acc, best - s.acc, bestmove)
        elif best <= a0:
            tt_store(c, &key, h, -30000, best - s.acc, bestmove, r)
        elif best >= b0:
            tt_store(c, &key, h, best - s.acc, 30000, bestmove, r)
        else:
            tt_store(c, &key, h, best - s.acc, best - s.acc, bestmove, r)
    return best


cdef int mtdf(Shape* shape, Ctx* c, State* s, int guess) noexcept nogil:
    """The exact value by null-window searches (MTD(f) on integers)."""
    cdef int lower = -INF, upper = INF, g = guess, b
    cdef u64 rel
    while lower < upper:
        b = g + 1 if g == lower else g
        g = search(shape, c, s, b - 1, b, &rel)
        c.searches += 1
        if c.aborted:
            return 0
        if g < b:
            upper = g
        else:
            lower = g
    return g


cdef int full(Shape* shape, Ctx* c, State* s) noexcept nogil:
    cdef u64 rel
    return search(shape, c, s, -INF, INF, &rel)


DEF RUN_WINDOW = 0  # one search of the window (a, b)
DEF RUN_MTD = 1     # the exact value by MTD(f) from the guess a
DEF RUN_FULL = 2    # the exact value by one full-window search


cdef inline int run(Shape* shape, Ctx* c, State* s, int how, int a, int b, u64* rel) noexcept nogil:
    if how == RUN_MTD:
        return mtdf(shape, c, s, a)
    if how == RUN_FULL:
        return full(shape, c, s)
    return search(shape, c, s, a, b, rel)


cdef int dispatch(Ctx* c, State* s, int how, int a, int b, u64* rel) noexcept nogil:
    """``run`` as compiled for the loaded tables' shape (``Any`` where shapes are off)."""
    cdef int k = c.t.shape if c.use_shapes else SHAPE_ANY
    if k == SHAPE_THREE:
        return run(<Three*>NULL, c, s, how, a, b, rel)
    if k == SHAPE_FOUR:
        return run(<Four*>NULL, c, s, how, a, b, rel)
    if k == SHAPE_FOUR_PARTS:
        return run(<FourParts*>NULL, c, s, how, a, b, rel)
    if k == SHAPE_JASS_PARTS:
        return run(<JassParts*>NULL, c, s, how, a, b, rel)
    if k == SHAPE_JASS_EXACT:
        return run(<JassExact*>NULL, c, s, how, a, b, rel)
    return run(<Any*>NULL, c, s, how, a, b, rel)


# --- Python side ------------------------------------------------------------------------

cdef inline u64 remap(u64 m, int8_t* to) noexcept nogil:
    """The pieces of ``m`` moved to their bits in ``to``."""
    cdef u64 out = 0
    while m:
        out |= (<u64>1) << to[ctz64(m)]
        m &= m - 1
    return out


cdef class _Tables:
    """One game's ``Tab``, owned: an engine switches between games by pointer, not by copy.
    Where the tables relabel the pieces (``Tables.order``), ``into``/``back`` map a piece to
    the engine's bit and back; the engine's methods speak the caller's pieces."""
    cdef Tab* t
    cdef int8_t into[64]
    cdef int8_t back[64]
    cdef bint moved     # 1: some piece has another bit in the engine

    cdef inline u64 mask_in(self, u64 m):
        return remap(m, self.into) if self.moved else m

    cdef inline u64 mask_out(self, u64 m):
        return remap(m, self.back) if self.moved else m

    cdef void relabel(self, order):
        """``order[k]``: the piece at the engine's bit ``k`` (empty: every piece keeps its
        bit); pieces it leaves out take the free bits above, in order."""
        cdef int k, p, q = len(order)
        for k in range(64):
            self.into[k] = self.back[k] = -1
        for k in range(q):
            self.into[order[k]] = k
            self.back[k] = order[k]
        for p in range(64):
            if self.into[p] < 0:
                while self.back[q] >= 0:
                    q += 1
                self.into[p] = q
                self.back[q] = p
        self.moved = len(order) > 0

    def __cinit__(self):
        self.t = <Tab*>calloc(1, sizeof(Tab))
        if self.t == NULL:
            raise MemoryError()
        self.relabel(())

    def __dealloc__(self):
        free(self.t)


cdef class Engine:
    """One game's tables and a transposition table; solves many positions of it."""

    cdef Tab* t
    cdef _Tables tabs    # owns ``t``
    cdef Ctx c
    cdef int mtd
    cdef public object tables_key
    cdef u64 tt_alloc_mask
    cdef size_t dirty    # bytes at the table's start that a search may have written (the rest are
                         # still zero as allocated, and a clear need not touch them)
    cdef dict kept       # tables key -> _Tables
    cdef int layout_part

    def __cinit__(self, int tt_bits=16):
        self.tabs = _Tables()
        self.t = self.tabs.t
        self.c.tt = <Entry*>oh_table_alloc((<size_t>1 << tt_bits) * BUCKET * sizeof(Entry))
        self.c.tags = <uint32_t*>oh_table_alloc((<size_t>1 << tt_bits) * BUCKET * sizeof(uint32_t))
        if self.c.tt == NULL or self.c.tags == NULL:
            raise MemoryError()
        self.c.tt_mask = ((<u64>1) << tt_bits) - 1
        self.tt_alloc_mask = self.c.tt_mask
        self.c.t = self.t
        self.c.gen = 1
        self.c.use_eq = 1
        self.c.use_tt = 1
        self.c.use_bounds = 1
        self.c.use_order = 1
        self.c.use_norm = 1
        self.c.tt_min = 1
        self.c.use_qt = 1
        self.c.use_part = 1
        self.c.use_small = 1
        self.c.use_exits = 1
        self.c.use_kin = 1
        self.c.use_shapes = 1
        self.c.order_mode = 4
        self.mtd = 1
        self.tables_key = None
        self.kept = {}
        self.layout_part = 0
        self._split()

    cdef void _split(self):
        """Lay out the partition-search directory and pool over the table's memory (up to half
        for the directory); clears it, as old entries would read as garbage in the new layout.
        Half, not a quarter: Jass fills the directory first (its keys before trump is fixed
        hold the J's and 9's places), and with twice the slots it searches 9% fewer nodes on
        20 full deals; bridge and Minimisere, whose pools fill first, keep their node counts."""
        cdef size_t total = (self.c.tt_mask + 1) * BUCKET * sizeof(Entry)
        cdef size_t slots = 1, entries, wipe = total if total < self.dirty else self.dirty
        while slots * 2 * sizeof(Slot) <= total // 2:
            slots *= 2
        self.c.dir = <Slot*>self.c.tt
        self.c.dir_mask = slots - 1
        self.c.pool = <PEntry*>(<char*>self.c.tt + slots * sizeof(Slot))
        entries = (total - slots * sizeof(Slot)) // sizeof(PEntry)
        self.c.pool_size = <int32_t>(entries if entries < NIL else NIL)
        self.c.pool_used = 0
        memset(self.c.tt, 0, wipe)
        memset(self.c.tags, 0, wipe // sizeof(Entry) * sizeof(uint32_t))

    def __dealloc__(self):
        oh_table_free(self.c.tt)
        oh_table_free(self.c.tags)

    @property
    def table_bytes(self):
        return (self.c.tt_mask + 1) * BUCKET * (sizeof(Entry) + sizeof(uint32_t))

    def set_tt_min(self, int r):
        """Probe the table only with more than ``r`` tricks left."""
        self.c.tt_min = r

    def use_table_bits(self, int bits):
        """Use only the first 2**bits buckets (small games stay in cache); forgets the table."""
        cdef u64 m = ((<u64>1) << bits) - 1
        if m > self.tt_alloc_mask:
            m = self.tt_alloc_mask
        if m != self.c.tt_mask:
            self.c.tt_mask = m
            self._split()
            self.new_generation()

    @property
    def shape(self):
        """The shape of game the search is compiled for that the loaded tables use (``Tab.shape``):
        'three', 'four', 'four-parts', 'jass-parts', 'jass-exact', or 'any' (read from the tables,
        as where ``configure(shapes=False)``)."""
        return SHAPE_NAMES[self.t.shape if self.c.use_shapes else SHAPE_ANY]

    @property
    def plain_powers(self):
        """Whether the loaded game's best pieces are read off the masks (plain card games, and
        Moon's relabelled tiles)."""
        return bool(self.t.plain)

    def best_power(self, int ts, int cls, u64 mask):
        """The highest power in class ``cls`` among the pieces of ``mask`` (0 for none)."""
        return best_power(<Any*>NULL, self.t, ts, cls, self.tabs.mask_in(mask))

    @property
    def has_bmi2(self):
        return bool(oh_bmi2)

    def use_bmi2(self, bint on):
        """Use the CPU's PEXT/PDEP where it has them (the default), or the portable loops that
        other CPUs run (tests compare the two); whether BMI2 is in use now."""
        global oh_bmi2
        oh_bmi2 = 1 if on and HW_BMI2 else 0
        return bool(oh_bmi2)

    def configure(self, *, eq=True, tt=True, bounds=True, mtd=True, norm=True, order=4, qt=True,
                  partition=True, small=True, exits=True, kin=True, shapes=True):
        """Switch techniques off, to measure what each one saves (``shapes``: the search as
        compiled for every game alike, which reads the game's shape from its tables)."""
        self.c.use_shapes = int(shapes)
        self.c.use_part = int(partition)
        self.c.use_small = int(small)
        self.c.use_exits = int(exits)
        self.c.use_kin = int(kin)
        self.c.kin_meta = self.t.kin_meta if kin else 0
        self.c.use_eq = int(eq)
        self.c.use_tt = int(tt)
        self.c.use_bounds = int(bounds)
        self.mtd = int(mtd)
        self.c.use_norm = int(norm)
        self.c.order_mode = int(order)
        self.c.use_qt = int(qt)
        self.new_generation()

    def new_generation(self):
        """Forget every table entry (O(1): entries of older generations are ignored)."""
        self.c.pool_used = 0
        next_generation(&self.c)
        self._forget_leads()

    cdef void _forget_leads(self):
        """Clear what ordering learnt from earlier cutoffs (the killers and ``lead_cost``), so
        that a solve's node count depends on it alone."""
        memset(self.c.killer, -1, sizeof(self.c.killer))
        memset(self.c.lead_cost, 0xFF, sizeof(self.c.lead_cost))

    def load(self, key, make_tables):
        """Set the game: ``make_tables()`` gives a ``solver.tables.Tables``, copied into C
        once per ``key`` and kept (up to 64); a new key forgets the transposition table. Kept
        tables are switched to by pointer: copying their 55 KB back cost moon3 full deals, whose
        contract changes from deal to deal, 1% more instructions and 3-4 us a switch."""
        cdef _Tables tabs
        if key == self.tables_key:
            return
        tabs = self.kept.get(key)
        if tabs is None:
            tabs = _Tables()
            self._fill(tabs, make_tables())
            if len(self.kept) > 64:
                self.kept.clear()
            self.kept[key] = tabs
        self.tabs = tabs
        self.t = self.c.t = tabs.t
        self.c.kin_meta = self.t.kin_meta if self.c.use_kin else 0
        if self.t.partition != self.layout_part:
            self.layout_part = self.t.partition
            self._split()  # the other layout's bytes must not be read as entries
        self.new_generation()
        self.tables_key = key

    cdef void _fill(self, _Tables tabs, tb) except *:
        cdef Tab* t = tabs.t
        cdef int ts, p, cl, k, q
        cdef int8_t* P = tabs.into  # the caller's piece -> the engine's bit
        cdef u64 deck
        memset(t, 0, sizeof(Tab))
        # Relabelled pieces (``solver.tables.plain_order``): the engine reads a class's best
        # and lowest piece off the masks, as in card games (the engine's own instructions,
        # callgrind: moon3 full deals, 100, 2.9% fewer, moon4, 30, 1.6%; the root still
        # searches in the caller's order, so nodes within 0.1%)
        tabs.relabel(tb.order)
        t.n = tb.n
        for p in range(16):
            t.seatmod[p] = p % tb.n
        t.kind = tb.kind
        t.jass = tb.jass
        t.hero = tb.hero
        t.side_mask = tb.side_mask
        t.max_mask = tb.max_mask
        t.trick_value = tb.trick_value
        t.bonus_last = tb.bonus_last
        t.scored = 0
        t.eights = tb.eights
        t.qt_ok = tb.qt_ok
        t.partition = tb.partition
        # the score key's bits are who has taken a trick (``make_key`` puts them at bit 5)
        t.kin_meta = (((<u64>1) << t.n) - 1) << 5 if t.kind == KIND_MINIMO else 0
        for p in range(64):
            t.piece_suit[P[p]] = tb.piece_suit[p]
        for p in range(512):
            t.perm_lut[p] = tb.perm_lut[p]
            t.perm_inv[tb.perm_lut[p]] = p
        for k in range(4):
            t.suit_mask[k] = tabs.mask_in(tb.suit_mask[k])
            t.jack[k] = P[tb.jack[k]]
        t.gaps = 0
        deck = t.suit_mask[0] | t.suit_mask[1] | t.suit_mask[2] | t.suit_mask[3]
        for k in range(4):
            if not t.suit_mask[k]:
                continue
            q = 64 - __builtin_clzll(t.suit_mask[k])  # just above the suit's top card
            if q >= 64 or (deck >> q) & 1:
                t.gaps = 0
                break
            t.gaps |= (<u64>1) << q
        t.gap_meta = int(t.gaps != 0 and popcount64(deck) <= 34)
        t.gap_lens = int(t.gaps != 0 and t.n * 16 <= 64 and (popcount64(deck) + t.n - 1) // t.n <= 12)
        for ts in range(NSTATES):
            t.norm[ts] = tb.norm[ts]
            t.perm_suit[ts] = tb.perm_suit[ts]
            t.trump_class[ts] = tb.trump_class[ts]
            t.pointed[ts] = tabs.mask_in(tb.pointed[ts])
            for cl in range(NCLASSES):
                t.lead_mask[ts][cl] = tabs.mask_in(tb.lead_mask[ts][cl])
            t.keep[ts] = tabs.mask_in(tb.keep[ts])
            for k in range(4):
                t.place[ts][k] = tabs.mask_in(tb.place[ts][k])
            for cl in range(NCLASSES):
                t.follow[ts][cl] = tabs.mask_in(tb.follow[ts][cl])
                for p in range(64):
                    t.power[ts][cl][P[p]] = tb.power[ts][cl][p]
            for p in range(64):
                q = P[p]
                t.lead_class[ts][q] = tb.lead_class[ts][p]
                t.points[ts][q] = tb.points[ts][p]
                t.max_future[ts][q] = tb.max_future[ts][p]
                t.sum_bit[ts][q] = tb.sum_bit[ts][p]
                if t.points[ts][q] or t.sum_bit[ts][q]:
                    t.scored = 1
                cands = tb.eq[ts][p] if tb.eq else []
                t.eq_n[ts][q] = len(cands)
                t.eq_any[ts][q] = 0
                for k in range(len(cands)):
                    t.eq_any[ts][q] |= (<u64>1) << P[cands[k][0]]
                    t.eq_a[ts][q][k] = P[cands[k][0]]
                    t.eq_between[ts][q][k] = tabs.mask_in(cands[k][1])
                    t.eq_diff[ts][q][k] = cands[k][2]
        t.plain = int(self._powers_plain(t))
        t.shape = shape_of(t)
        t.lone_min = int(t.side_mask == ((<u64>1) << t.hero) and not (t.max_mask >> t.hero) & 1)
        t.ncls = 0
        for ts in range(NSTATES):
            for cl in range(NCLASSES):
                if (t.follow[ts][cl] or t.lead_mask[ts][cl]) and cl >= t.ncls:
                    t.ncls = cl + 1
        t.mid_qt = 0
        if t.plain and t.qt_ok and not t.jass and t.suit_mask[0] != 0:
            for p in range(t.n):
                if wants_tricks(t, p):
                    t.mid_qt |= 1u << p
        # (both teams wanting tricks: the rule says what the side that resists can take, which
        # bounds the value only where it wants to take it)
        t.later_ok = int(t.plain and t.qt_ok and not t.jass and t.suit_mask[0] != 0 and t.n == 4
                         and t.side_mask in (0b0101, 0b1010) and t.max_mask == t.side_mask)

    cdef bint _powers_plain(self, Tab* t):
        """Whether ``best_power`` may read a class's best card off the masks (checked, not assumed)."""
        cdef int ts, cl, p, last
        cdef u64 trumps
        for ts in range(NSTATES):
            trumps = t.follow[ts][t.trump_class[ts]] if t.trump_class[ts] >= 0 else 0
            for cl in range(NCLASSES):
                if not t.follow[ts][cl]:
                    continue  # no such class: never led
                last = 0
                for p in range(64):
                    if (t.follow[ts][cl] >> p) & 1:
                        if t.power[ts][cl][p] <= last:
                            return False
                        last = t.power[ts][cl][p]
                for p in range(64):
                    if (trumps >> p) & 1 and not (t.follow[ts][cl] >> p) & 1:
                        if t.power[ts][cl][p] <= last:
                            return False
                        last = t.power[ts][cl][p]
                    elif not (t.follow[ts][cl] >> p) & 1 and t.power[ts][cl][p] != 0:
                        return False
        return True

    cdef void _state(self, State* s, hands, trick, int leader, int ts, int acc, int skey):
        memset(s, 0, sizeof(State))
        for i in range(len(hands)):
            s.hands[i] = self.tabs.mask_in(hands[i])
        for i in range(len(trick)):
            s.trick[i] = self.tabs.into[<int>trick[i] & 63]
        s.tlen = len(trick)
        s.leader = leader
        s.ts = ts
        s.acc = acc
        s.skey = skey

    def _begin(self, max_nodes, max_seconds):
        self._forget_leads()
        self.c.nodes = 0
        self.c.tt_hits = 0
        self.c.tt_probes = 0
        self.c.tt_walked = 0
        self.c.searches = 0
        self.c.trick_nodes = 0
        self.c.aborted = 0
        self.c.max_nodes = max_nodes if max_nodes is not None else (<int64_t>1 << 62)
        self.c.next_check = 4096 if self.c.max_nodes > 4096 else self.c.max_nodes
        self.c.deadline = now() + max_seconds if max_seconds is not None else 0.0

    def set_budget(self, max_nodes=None, max_seconds=None):
        """Start counting nodes and time for one solve."""
        self._begin(max_nodes, max_seconds)

    @property
    def nodes(self):
        return self.c.nodes

    @property
    def searches(self):
        return self.c.searches

    @property
    def trick_nodes(self):
        """The nodes at the start of a trick (each search's own root among them): the
        count DDS reports as ``futureTricks.nodes`` (its ``trickNodes``), for comparing
        tree sizes like with like; ``nodes`` counts every card played."""
        return self.c.trick_nodes

    @property
    def tt_hits(self):
        """Table probes that some entry answered."""
        return self.c.tt_hits

    @property
    def tt_probes(self):
        return self.c.tt_probes

    @property
    def tt_walked(self):
        """Partition-search entries examined by probes (the cost of one entry matching many positions)."""
        return self.c.tt_walked

    @property
    def aborted(self):
        return bool(self.c.aborted)

    def legal(self, hands, trick, int leader, int ts):
        """The legal moves of the seat to move, equivalents included (a mask)."""
        cdef State s
        self._state(&s, hands, trick, leader, ts, 0, 0)
        return self.tabs.mask_out(legal(<Any*>NULL, self.t, &s, (leader + s.tlen) % self.t.n))

    def representatives(self, hands, trick, int leader, int ts):
        """The legal moves with interchangeable ones dropped (a mask)."""
        cdef State s
        cdef u64 moves
        self._state(&s, hands, trick, leader, ts, 0, 0)
        moves = legal(<Any*>NULL, self.t, &s, (leader + s.tlen) % self.t.n)
        return self.tabs.mask_out(drop_equivalents(<Any*>NULL, self.t, &s, moves))

    def value(self, hands, trick, int leader, int ts, int acc, int skey, int guess=0):
        """The exact value of a state (None if the budget ran out)."""
        cdef State s
        cdef int v
        self._state(&s, hands, trick, leader, ts, acc, skey)
        self._start_search()
        with nogil:
            if self.mtd:
                v = dispatch(&self.c, &s, RUN_MTD, guess, 0, NULL)
            else:
                v = dispatch(&self.c, &s, RUN_FULL, 0, 0, NULL)
        self._raise_pending()
        return None if self.c.aborted else v

    def move_values(self, hands, trick, int leader, int ts, int acc, int skey, moves, guesses=None):
        """The exact value after each of ``moves`` (legal pieces, searched in this order and
        sharing the table), each by MTD(f) from ``guesses[i]``, or without guesses from the
        value before (the first from ``acc``): in one call, no Python between the searches
        (single-dummy analysis; a solve asks ``root``). A shorter list when the budget ran
        out."""
        cdef State s
        cdef int k = len(moves), i, g = acc, done = 0, chain = guesses is None
        cdef int ms[64]
        cdef int gs[64]
        cdef int vs[64]
        cdef u64 ok
        self._state(&s, hands, trick, leader, ts, acc, skey)
        ok = legal(<Any*>NULL, self.t, &s, (leader + s.tlen) % self.t.n)
        if k > 64 or (not chain and len(guesses) != k):
            raise ValueError("move_values: at most 64 moves, and one guess a move")
        for i in range(k):
            ms[i] = moves[i]
            if not (0 <= ms[i] < 64 and (ok >> self.tabs.into[ms[i]]) & 1):
                raise ValueError(f"move_values: {moves[i]!r} is not a legal move here")
            ms[i] = self.tabs.into[ms[i]]
            gs[i] = 0 if chain else guesses[i]
        self._start_search()
        with nogil:
            for i in range(k):
                if not chain:
                    g = gs[i]
                g = self._after(&s, ms[i], g)
                if self.c.aborted:
                    break
                vs[i] = g
                done = i + 1
        self._raise_pending()
        return [vs[i] for i in range(done)]

    cdef int _after(self, State* s, int m, int guess) noexcept nogil:
        """The value after legal move ``m``: MTD(f) from ``guess`` (one full-window search
        where MTD is switched off)."""
        cdef State ch = s[0]
        play(<Any*>NULL, self.t, &ch, m)
        return dispatch(&self.c, &ch, RUN_MTD if self.mtd else RUN_FULL, guess, 0, NULL)

    def window(self, hands, trick, int leader, int ts, int acc, int skey, int alpha, int beta):
        """One fail-soft alpha-beta search (None if the budget ran out)."""
        cdef State s
        cdef int v
        cdef u64 rel
        self._state(&s, hands, trick, leader, ts, acc, skey)
        self._start_search()
        with nogil:
            v = dispatch(&self.c, &s, RUN_WINDOW, alpha, beta, &rel)
        self._raise_pending()
        return None if self.c.aborted else v

    cdef void _start_search(self):
        cdef size_t used = (self.c.tt_mask + 1) * BUCKET * sizeof(Entry)
        if used > self.dirty:
            self.dirty = used  # the search may write anywhere in the part of the table in use
        # only the main thread runs signal handlers; elsewhere taking the GIL to ask would
        # only wait on the threads that hold it
        self.c.check_signals = PyThread_get_thread_ident() == _MAIN
        self.c.sig_next = 0.0

    cdef _raise_pending(self):
        """Raise what a signal's handler raised during the search (the search stopped there,
        its partial results unstored); the next solve starts afresh."""
        global _pending
        if _pending is not None:
            e = _pending
            _pending = None
            self.c.aborted = 0
            raise e

    def child(self, hands, trick, int leader, int ts, int acc, int skey, int piece):
        """The state after ``piece``: (hands, trick, leader, ts, acc, skey)."""
        cdef State s
        self._state(&s, hands, trick, leader, ts, acc, skey)
        play(<Any*>NULL, self.t, &s, self.tabs.into[piece & 63])
        n = self.t.n
        return ([self.tabs.mask_out(s.hands[i]) for i in range(n)], [self.tabs.back[s.trick[i]] for i in range(s.tlen)],
                s.leader, s.ts, s.acc, s.skey)

    def lone_bounds(self, hands, int leader, int ts):
        """At a trick start, for tests: the most tricks a lone hero who avoids them surely
        loses by ``lone_exits`` (asked for each count it may be asked for), and whether he
        surely takes no more (``hero_safe``)."""
        cdef State s
        cdef u64 mark = 0
        cdef int need, lost = 0, k
        self._state(&s, hands, [], leader, ts, 0, 0)
        for need in range(popcount64(s.hands[leader]) + 1):
            k = lone_exits(<Any*>NULL, &self.c, self.t, &s, &mark, need)
            if k > lost:
                lost = k
        return lost, bool(hero_safe(<Any*>NULL, self.t, &s))

    def bounds_at(self, hands, int leader, int ts, int acc, int skey, int alpha, int beta):
        """At a trick start, for tests: the cheap bounds (lower, upper) on the final value
        that the search takes there for the window (``alpha``, ``beta``): true bounds
        whatever the window (the table keeps them), only weaker outside it."""
        cdef State s
        cdef int lb = 0, ub = 0
        cdef u64 rlb = 0, rub = 0
        self._state(&s, hands, [], leader, ts, acc, skey)
        bounds(<Any*>NULL, &self.c, self.t, &s, alpha, beta, &lb, &ub, &rlb, &rub)
        return lb, ub

    def jass_exit(self, hands, int leader, int ts):
        """At a trick start, for tests: whether ``jass_exit_after`` says that the lone hero of
        Mittlere Jass, before its trump, surely loses one of the tricks left."""
        cdef State s
        cdef u64 mark = 0
        self._state(&s, hands, [], leader, ts, 0, 0)
        return bool(jass_exit_after(<Any*>NULL, self.t, &s, &mark))

    def jass_exit_count(self, hands, int leader, int ts):
        """At a trick start, for tests: how many of the tricks left ``jass_exits`` says that the
        lone hero of Mittlere Jass, before its trump, surely loses."""
        cdef State s
        cdef u64 mark = 0
        self._state(&s, hands, [], leader, ts, 0, 0)
        return jass_exits(<Any*>NULL, self.t, &s, &mark)

    def cannot_take_all(self, hands, int leader, int ts, bint hero_side):
        """At a trick start, for tests: whether ``short_of_all`` says that the hero's side (or
        the other) cannot take every trick left."""
        cdef State s
        cdef u64 mark = 0
        self._state(&s, hands, [], leader, ts, 0, 0)
        return bool(short_of_all(self.t, &s, hero_side, popcount64(s.hands[leader]), &mark))

    def team_quick_tricks(self, hands, int leader, int ts):
        """At a trick start, for tests: the leader's side's quick tricks (``quick_tricks``,
        capped at the tricks left) and what the plan of his team of two alone counts
        (``partner_tricks`` from 0, uncapped)."""
        cdef State s
        cdef u64 mark = 0
        self._state(&s, hands, [], leader, ts, 0, 0)
        if not (self.t.plain and not self.t.jass and self.t.suit_mask[0] != 0):
            return 0, 0
        return (quick_tricks(<Any*>NULL, self.t, &s, popcount64(s.hands[leader]), 64, &mark),
                partner_tricks(<Any*>NULL, self.t, &s, 0, &mark))

    def trick_then_cashes(self, hands, trick, int leader, int ts):
        """In a trick under way, for tests: the tricks the side of the seat to move surely
        takes, this one first (``trick_is_won``) and then those its winner cashes
        (``cash_after_trick``, where ``cashing_rules`` holds); 0 where this one is not sure."""
        cdef State s
        cdef u64 mark = 0
        cdef int seat
        self._state(&s, hands, trick, leader, ts, 0, 0)
        seat = self.t.seatmod[s.leader + s.tlen]
        if not s.tlen or not trick_is_won(<Any*>NULL, self.t, &s, seat, &mark):
            return 0
        return 1 + (cash_after_trick(self.t, &s, &mark) if cashing_rules(<Any*>NULL, self.t, &s) else 0)

    def takes_a_trump_trick(self, hands, int leader, int ts, bint hero_side):
        """At a trick start, for tests: whether ``king_over_ace`` says that the hero's side (or
        the other) can take a trick with its second trump over the other side's top one."""
        cdef State s
        cdef u64 mark = 0, tr
        self._state(&s, hands, [], leader, ts, 0, 0)
        if self.t.trump_class[ts] < 0:
            return False
        tr = (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]) & self.t.follow[ts][self.t.trump_class[ts]]
        return bool(king_over_ace(self.t, &s, hero_side, tr, &mark))

    def final(self, int ts, int acc, int skey):
        cdef State s
        memset(&s, 0, sizeof(State))
        s.ts = ts
        s.acc = acc
        s.skey = skey
        return final_value(<Any*>NULL, self.t, &s)

    def rep_of(self, hands, trick, int leader, int ts, int b):
        """The kept representative of legal move ``b`` (itself unless an equivalent is kept)."""
        return self.rep_map(hands, trick, leader, ts).get(b, b)

    def rep_map(self, hands, trick, int leader, int ts):
        """Each legal move's kept representative: {move: representative} (a kept move is its
        own); the representatives are ``representatives``."""
        cdef State s
        cdef int rep[64]
        cdef int m
        cdef u64 moves
        self._state(&s, hands, trick, leader, ts, 0, 0)
        moves = root_reps(<Any*>NULL, self.t, &s, rep)
        out = {}
        while moves:
            m = ctz64(moves)
            moves &= moves - 1
            out[self.tabs.back[m]] = self.tabs.back[rep[m]]
        return out

    def root(self, hands, trick, int leader, int ts, int acc, int skey, progress=None):
        """A solve's root in one call: [(move, value after it)] for every legal move, highest
        piece first. Interchangeable moves are searched once, through their kept
        representative (``rep_map``), the representatives in increasing order, each by
        MTD(f), sharing the table; a value is None where the budget ran out first.
        ``progress(done, total)`` is called with 0 and after each representative is valued.
        The first search starts from ``acc``, or, counting tricks for a seat that maximises,
        from all the tricks left (its best case, as ``acc`` is a minimiser's: nodes, bridge
        cut to 10 cards 3.4-3.7% fewer and on seeds 1000+ 8.9%, full deals within 0.3%;
        Minimo and Minimisere partners played for the most tricks, cut to 8 and 7 cards, 5.7%
        and 6.4% fewer, on seeds 1000+ 6.0% and 0.4%; not in Jass, 6.0% more at 8 cards);
        with cards each next one from the best value so far
        for the seat to move (asking first, as DDS does, whether the move does as well:
        full deals, nodes, Minimo points 3.5% and bridge 2.1% fewer, Minimisere 8 cards
        points 6.3% and tricks 1.9%, Jass 9 cards tricks 0.4% fewer and 8 cards points 1.1%
        more), with tiles from the value before (the best cost Moon 0.5-1.5% more nodes)."""
        cdef State s
        cdef int rep[64]
        cdef int vs[64]
        cdef int i, m, v, g = acc, best = acc, done = 0, total
        cdef bint by_best = self.t.suit_mask[0] != 0
        cdef bint maximizing
        cdef u64 moves, reps = 0, left, valued = 0
        cdef bint report = progress is not None
        self._state(&s, hands, trick, leader, ts, acc, skey)
        maximizing = (self.t.max_mask >> self.t.seatmod[s.leader + s.tlen]) & 1
        if maximizing and self.t.qt_ok and not self.t.jass:
            g = best = acc + popcount64(s.hands[self.t.seatmod[s.leader + s.tlen]])
        moves = root_reps(<Any*>NULL, self.t, &s, rep)
        left = moves
        while left:
            m = ctz64(left)
            left &= left - 1
            reps |= (<u64>1) << rep[m]
        total = popcount64(reps)
        if report:
            progress(0, total)
        self._start_search()
        left = self.tabs.mask_out(reps)  # in the caller's order of pieces
        while left:
            m = self.tabs.into[ctz64(left)]
            left &= left - 1
            with nogil:
                v = self._after(&s, m, g)
            if self.c.aborted:
                break
            vs[m] = v
            if not done or (v > best if maximizing else v < best):
                best = v
            g = best if by_best else v
            valued |= (<u64>1) << m
            done += 1
            if report:
                progress(done, total)
        self._raise_pending()
        out = []
        for i in range(63, -1, -1):
            if (moves >> i) & 1:
                out.append((self.tabs.back[i], vs[rep[i]] if (valued >> rep[i]) & 1 else None))
        if self.tabs.moved:
            out.sort(reverse=True)
        return out
