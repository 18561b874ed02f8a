"""The template of the fast path's generated code: read by :mod:`tysiac_spec.fast.generate`
as a syntax tree (``ast.parse`` of this file), never imported to run.

Every name ``K_*`` is a constant of the form: the generator replaces it by an
``ast.Constant`` holding the value read from the form (:func:`~tysiac_spec.fast.generate.constants`),
folds the expressions and ``if`` statements that became constant, and so drops the
mechanisms the form switches off.  Every name ``H_*`` is a helper bound by the generator:
the engine's own functions (first dealer, dealing, formulas, settlement, claim) where they
are not hot.  The placeholders below only make this file valid Python for the linters; the
generator removes them.

The deal loop of ``play_match`` is cut into blocks, each opened by ``STEP("name")``: one per
step of a deal (:data:`tysiac_spec.engine.flow.STEPS`, the order ``Game`` follows); the
generator writes the blocks of the form's steps in the table's order and drops the others
(``generate._in_flow_order``), so the order of a deal is never this file's.

Cards are ints (their index in the pack, ``card.index``, so ``1 << c`` is ``card.bit``:
within a suit the stronger card has the lower bit), hands are bit sets, players are seats.
Every name ``I_*`` is called as an engine rule stated once and written inline by the
generator with the form's constants folded (:data:`~tysiac_spec.fast.generate.INLINED`: the
shuffle, the cut's bad card and the talon's draw, the forced opener's seat and the next seat,
the deal's opening, the dark game's candidates, who may cancel it and the dark game declared, the bids and the end of the auction, a deal passed out (its
declarer, its redeal, the count and its cap), the talon and contract questions, the
exchange's receivers, the first leader, the play duties, the lead after a marriage, the
marriage timing and trump, the leads that declare a marriage, the ace marriage's offer and
declaration, the claim's lay-down, the trick's winner, the set-aside cards).  The rules still written here are named by comments ``engine/<module>.py``
(``tests/test_fast_inline.py`` counts them: the number may only go down); the differential
test (``tests/test_fast_path.py``) and ``benchmarks/engine_fingerprint.py --fast`` check that
the two play the same games.
"""

# ruff: noqa
# mypy: ignore-errors
# fmt: off

from bisect import bisect_left, bisect_right
from collections.abc import Callable
from typing import Any

# --- placeholders (removed by the generator) ---------------------------------------------
K_N = K_NPACK = K_DIR = K_FORCED_SEAT = K_FORCED_BID = K_MIN_BID = K_STEP = K_MOST = 0
K_FIRST_FORCED = K_EXACTLY_STEP = K_EXACT_OPENING = K_ALL_PASS_FORCED = K_ALL_PASS_DEALER = False
K_MAX_RAISE = None
K_CHOOSE_ONE = K_EXCHANGE_GIVE = K_EXCHANGE_DISCARD = K_CLOCKWISE = False
K_GIVE_COUNT = K_DISCARD_COUNT = 0
K_LEADER_FORCED = K_LEADER_DEALER_LEFT = False
K_MUST_FOLLOW = K_MUST_BEAT = K_BEAT_BEST = K_BEAT_WHEN_TRUMPED = K_MUST_TRUMP = False
K_MUST_OVERTRUMP = K_ANY_CARD = K_HIGHEST_BEAT = K_HIGHEST_TRUMP = False
K_LEAD_RULE = K_LEAD_TRUMP = False
K_BAR_WON = K_BAR_FIRST = False
K_FROM_TRICK = K_MIN_CARDS = 0
K_ANY_TIME = K_AUTOMATIC = K_SETS_TRUMP = K_FIRST_ONLY = K_NEXT_TRICK = K_CLAIM = False
K_LEFTOVER_TO = K_DISCARDS_TO = 0
K_LEFTOVER_LAST = K_DISCARDS_LAST = False
K_SUIT_MASK = K_SUIT_OF = K_POINTS = K_PARTNER = K_MVAL = K_DRAWS = ()
K_SITTERS = K_SIMPLE_SETTLE = K_PLANNED = False
K_ACTIVE = 0
K_FORFEIT_ON = K_FORFEIT_BEFORE_TALON = K_FORFEIT_BEFORE_EXCHANGE = False
K_FORFEIT_CODE = 0
K_OPENINGS = K_GOLDEN = K_GOLDEN_DARK = K_BARREL_NONE = K_DARK_ON = K_DARK_FIRST_HAND = False
K_DARK_NOT_NEGATIVE = K_CANCEL_WITH_MARRIAGE = False
K_GOLDEN_CONTRACT = K_GOLDEN_MULTIPLIER = K_BARREL_GOAL = K_DARK_CODE = K_CANCEL_DARK_CODE = 0
K_DARK_CONTRACT = K_DARK_MULTIPLIER = 0
K_PAIRS = ()
K_REDEALS_AFTER_DEAL = K_REDEALS_ANY = K_MAY_BID = False
K_ALL_PASS_REDEAL = K_DEALER_EXEMPT = K_CUT = K_PRELUDE = False
K_CUT_BAD = K_MAY_SEEN = 0
K_MAY_BY_HAND = K_BID_KEPT = False
K_BID_SEEN = 0
K_ACE_MARRIAGE = K_ACES_WON = K_ACES_TRUMP = False
K_VIEWS = False
K_ACES_BITS = K_ACES_CODE = K_ACES_VALUE = K_ACES_N = 0
K_HAND_POS = K_TALON_POS = ()
K_TP_INLINE = K_TP_POOL = False
K_TP_N = K_TP_K = K_TP_TOTAL = 0
K_TP_OFF = K_TP_TURN = K_TP_SIZES = K_BID_CODES = ()
K_BID = K_CONTRACT = K_GIVE = K_DISCARD = K_TALON = K_PASS = K_CLAIM_CODE = K_MARRIAGE = 0
H_barrel_taker = H_dealt_by = H_first_dealer = H_new_state = H_seating = H_deal = H_max_bid = H_contract_amounts = None
H_bid_known = H_may_known = H_may_bids = H_cut = H_redeal = H_next_redeal_dealer = H_dealer_exempt = H_redealt = H_with_dealer = None
H_may_forfeit = H_settle = H_claim = H_too_many_bids = H_outcome = H_settle_simple = H_final = H_Random = None
H_passed_out = H_passed_out_stopped = H_views = None
K_PASSED_OUT_MAX = 100
I_takes = I_leads = I_duty_cards = I_bid_range = I_marriage_barred = I_trump_after = I_sure_to_win = None
I_auction_over = I_unopposed = I_passed_out = I_passed_out_declarer = None
I_shuffled = I_sample_drawn = I_receivers = I_set_aside_taker = None
I_talon_asked = I_contract_asked = I_forfeit_contract = I_leader_of = I_passed_out_count = I_bad_cut = I_seat_from = I_next_seat = I_aces_declarable = I_passed_out_redealt = I_declared_leads = I_dark_candidates = I_opening_of = I_dark_declared = I_dark_allowed = I_dark_cancellers = I_marriage_holders = None  # (the engine's rules written inline: fast/generate.py INLINED)
STEP = None  # the start of a step's block (the generator orders the blocks as flow.STEPS)
# --- end of placeholders ------------------------------------------------------------------


def _below(draw: Any, n: int) -> int:
    """A number below ``n`` drawn as ``random.Random.randrange(n)`` draws it from its
    ``getrandbits`` (``draw``): the choice of ``RandomBot``."""
    k = n.bit_length()
    r: int = draw(k)
    while r >= n:
        r = draw(k)
    return r


def play_match(seed: int, policies: Any, trace: bool, max_deals: int, keep_outcomes: bool, draw: Any) -> Any:
    """Play one match of the form from ``seed`` (the engine's ``Game(seed=seed)``), each
    decision by ``policies[player](player, legal)`` (or, when ``draw`` is given, uniformly at
    random by ``draw``, a ``random.Random(...).getrandbits``, as ``RandomBot`` chooses), stopping after ``max_deals`` deals (``legal``: the action codes in the
    engine's order; returns one of them).  Returns ``(state, deal_scores, events,
    outcomes, steps)``: the final :class:`~tysiac_spec.engine.match.MatchState`, each deal's
    score changes, the match events, with ``keep_outcomes`` each deal's
    :class:`~tysiac_spec.engine.scoring.DealOutcome` (else an empty list), and with ``trace`` every step as ``(player, legal, chosen)`` (else ``None``)."""
    # (the annotations make the mypyc build use machine integers; Python ignores them)
    c: int
    a: int
    p: int
    q: int
    m: int
    low: int
    h: int
    bit: int
    i: int
    k: int
    j: int
    n: int
    bits: int
    lo: int
    most: int
    bid_made: bool
    hi: int
    cur: int
    ok: int
    left_hand: int
    forfeit_first: bool
    asked: bool
    choose: bool
    ntalons: int
    noffered: int
    forfeitable: bool
    to_whom: list[int]
    over: bool
    dealer_in: bool
    first_hand: int
    sure: bool
    ms: int
    barred: int
    held_n: int
    is_declarer: bool
    lead: int
    tbits: int
    tp: int
    best: int
    best_suit: int
    led: int
    first: int
    winner: int
    to: int
    won: int
    base: int
    s: int
    chosen: int
    contract: int
    declarer: int
    left: int
    others: int
    unopposed: bool
    may_forfeit: bool
    forfeited: bool
    mode: int
    multiplier: int
    barrel_deal: bool
    no_auction: bool
    dark_player: int
    offered: int
    taker: int
    candidates: list[int]
    with_aces: list[int]
    allowed: list[int]
    open_deal: bool
    done: int
    auto_redeals: int
    stopping: bool
    stops: bool
    bottom: int
    aces_ok: bool
    mc: int
    golden: bool
    exempt: bool
    redealt: bool
    passed_run: int
    passed_out: int
    settled: int
    amounts: Any
    outcome: Any
    steps: Any
    legal: list[int]
    held: list[int]
    order: list[int]
    nxt: list[int]
    opps_of: list[list[int]]
    opps: list[int]
    sitter: Any
    kept: tuple[int, int, list[int]] | None
    known: int | None
    codes: list[int]
    picked: list[int]
    tmask: int
    talons: list[list[int]]
    # the form's tables as locals, made once per match (a tuple written in the code would be
    # built at each use by the mypyc build, every int in it boxed)
    suit_mask: tuple[int, ...] = K_SUIT_MASK
    points_of: tuple[int, ...] = K_POINTS
    partner_of: tuple[int, ...] = K_PARTNER
    suit_of: tuple[int, ...] = K_SUIT_OF
    mval: tuple[int, ...] = K_MVAL
    pairs: tuple[int, ...] = K_PAIRS
    draws: tuple[tuple[int, int, int], ...] = K_DRAWS
    hand_pos: tuple[tuple[int, ...], ...] = K_HAND_POS
    talon_pos: tuple[tuple[int, ...], ...] = K_TALON_POS
    tp_off: tuple[int, ...] = K_TP_OFF
    tp_turn: tuple[int, ...] = K_TP_TURN
    tp_sizes: tuple[int, ...] = K_TP_SIZES
    bid_codes: tuple[int, ...] = K_BID_CODES
    may_known: dict[int, tuple[int, int, list[int]]] = H_may_known
    bid_known: dict[int, int] = H_bid_known
    rng = H_Random(seed)
    # (typed, so that the numbers an inlined rule draws are machine integers in the mypyc build)
    getrandbits: Callable[[int], int] = rng.getrandbits
    dealer = H_first_dealer(rng)
    state = H_new_state(dealer)
    scores: list[int] = [0] * K_N
    deals = 0
    auto_redeals = 0
    stopping = False
    passed_run = 0  # deals passed out and dealt again: in a row, in the match
    passed_out = 0
    settled = dealer  # the match state's dealer (the last settlement's)
    deal_scores: list[tuple[int, ...]] = []
    events: list[Any] = []
    outcomes: list[Any] = []
    steps = [] if trace else None
    if K_VIEWS:  # the table a bot that reads its view is shown (fast/__init__.py _Table)
        tv = H_views()
        tv.match(scores, K_SIMPLE_SETTLE)
        vpk = tv.pack  # (the cards of the pack: a view shows cards)
    while True:
        STEP("deal")
        order, sitter, nxt, opps_of = H_seating(dealer)
        nact = len(order)
        # -- dealing --
        cards = list(range(K_NPACK))
        cards = I_shuffled(cards, getrandbits, draws)
        if K_CUT:
            bottom = 1 << cards[K_NPACK - 1]
            if I_bad_cut(bottom, K_CUT_BAD):  # (a good bottom card: nothing changes, nothing drawn)
                state = H_cut(cards, rng, dealer, state, events, len(deal_scores))
            if stopping and not K_REDEALS_AFTER_DEAL:
                return state, deal_scores, events, outcomes, steps
        hand: list[int] = [0] * K_N
        if K_PLANNED and nact == K_ACTIVE:  # (the positions of the engine's DealingPlan: K_HAND_POS)
            for k in range(K_ACTIVE):
                m = 0
                for i in hand_pos[k]:
                    m |= 1 << cards[i]
                hand[order[k]] = m
            talons = [[cards[i] for i in t] for t in talon_pos]
        elif K_TP_INLINE and nact == K_ACTIVE:  # (talon positions as generate._drawn_talon reads them)
            picked = I_sample_drawn(getrandbits, K_TP_N, K_TP_K, K_TP_POOL, 0)
            picked.sort()
            tmask = 0
            for i in range(K_TP_K):
                tmask |= 1 << (picked[i] + tp_off[i])
            held = []
            k = 0
            for i in range(K_TP_TOTAL):
                c = cards[i]
                if tmask >> i & 1:
                    held.append(c)
                else:
                    hand[order[tp_turn[k]]] |= 1 << c
                    k += 1
            talons = []
            k = 0
            for n in tp_sizes:
                talons.append(held[k:k + n])
                k += n
        else:
            dealt, talons = H_deal(cards, order, rng)
            for p, cs in zip(order, dealt):
                m = 0
                for c in cs:
                    m |= 1 << c
                hand[p] = m
        talon_cards: list[int] = [c for t in talons for c in t]
        if K_VIEWS:
            tv.deal(dealer, order, sitter, hand, talons, state)
            vdark = False
        # -- auction --
        maxb: list[int] = [0] * K_N
        for p in order:
            if K_BID_KEPT:  # the highest bids the helper keeps by the hand's seen cards
                known = bid_known.get(hand[p] & K_BID_SEEN)
                maxb[p] = known if known is not None else H_max_bid(hand[p], p, state)
            else:
                maxb[p] = H_max_bid(hand[p], p, state)
        forced = -1
        opening = False
        contested = False
        high_bid = 0
        high_bidder = -1
        if K_FORCED_SEAT >= 0:
            forced = I_seat_from(dealer, K_FORCED_SEAT, K_DIR, K_N, order)
            if K_FIRST_FORCED:
                cur = forced
                opening = True
            else:
                high_bid = K_FORCED_BID
                high_bidder = forced
                if K_VIEWS:
                    tv.bids.append((forced, K_BID + K_FORCED_BID))
                cur = nxt[forced]
        else:
            cur = order[0]
        passed = 0
        npassed = 0
        # -- the deal's opening (auction.opening_of, dark_declared) --
        mode = 0  # an index of auction.MODES (DealState.mode): normal
        multiplier = 1
        barrel_deal = False
        no_auction = False
        STEP("redeal.after_deal")
        if K_REDEALS_AFTER_DEAL:  # the redeal point dealing.TIMINGS[0] (H_redeal: dealing.redeal_decided)
            state, done = H_redeal(0, dealer, order, hand, talon_cards, -1, 0, 0, cur, state, policies, draw,
                                   steps, events, len(deal_scores), auto_redeals, stopping)
            if done == 1:
                auto_redeals = 0
                dealer = H_next_redeal_dealer(dealer)
                continue
            if done == 2:  # a mandatory redeal: dealt again at once
                auto_redeals += 1
                dealer = H_next_redeal_dealer(dealer)
                continue
            auto_redeals = 0
            if K_VIEWS:
                tv.state = state
            if stopping:
                return state, deal_scores, events, outcomes, steps
        STEP("opening")
        if K_OPENINGS:
            golden = K_GOLDEN and state.golden_left > 0
            q = -1
            if K_BARREL_NONE and not golden:
                q = H_barrel_taker(state, order)  # (auction.barrel_taker)
            first_hand = order[0]
            mode, declarer, contract, multiplier, barrel_deal, offer = I_opening_of(
                golden, K_GOLDEN_DARK, K_GOLDEN_CONTRACT, K_GOLDEN_MULTIPLIER, q, K_BARREL_GOAL, K_DARK_ON,
                first_hand)
            if declarer >= 0:  # (auction.declare_opening)
                high_bidder = declarer
                high_bid = contract
                contested = True
                opening = False
                no_auction = True
            if K_VIEWS and no_auction:  # (a deal declared without an auction: no bids)
                tv.bids.clear()
                tv.declarer = declarer
            if K_DARK_ON and offer:
                candidates = I_dark_candidates(order, golden, declarer, K_DARK_FIRST_HAND)
                if K_DARK_NOT_NEGATIVE:
                    allowed = []
                    for q in candidates:
                        s = state.scores[q]
                        if I_dark_allowed(s, K_DARK_NOT_NEGATIVE):
                            allowed.append(q)
                    candidates = allowed
                dark_player = -1
                offered = K_DARK_CODE  # asked in turn: the dark game, then (declared) its cancelling
                while True:
                    taker = -1
                    for q in candidates:
                        legal = [offered, K_PASS]
                        if draw is None:
                            a = policies[q](q, legal)
                        else:
                            a = legal[_below(draw, len(legal))]
                        if trace:
                            steps.append((q, legal, a))
                        if a == offered:
                            taker = q
                            break
                    if offered == K_DARK_CODE and taker >= 0:
                        dark_player = taker
                        bits = 0  # the players holding a marriage (its cards: K_PAIRS)
                        if K_CANCEL_WITH_MARRIAGE:
                            bits = I_marriage_holders(hand, order, pairs)
                        candidates = I_dark_cancellers(order, dark_player, golden, K_CANCEL_WITH_MARRIAGE, bits)
                        offered = K_CANCEL_DARK_CODE
                        continue
                    if offered == K_CANCEL_DARK_CODE and taker < 0:
                        if K_VIEWS:
                            vdark = True
                        mode, declarer, contract, multiplier = I_dark_declared(
                            mode, declarer, high_bid, multiplier, dark_player, K_DARK_CONTRACT, K_DARK_MULTIPLIER)
                        high_bidder = declarer  # (auction.declare_opening)
                        high_bid = contract
                        contested = True
                        opening = False
                        no_auction = True
                    break
        STEP("auction")
        if K_VIEWS and K_OPENINGS and no_auction:
            tv.bids.clear()
        while not (K_OPENINGS and no_auction):
            if True:  # (the bids)
                bid_made = high_bidder >= 0
                most = maxb[cur]
                lo, hi = I_bid_range(opening, high_bid, bid_made, most, K_FORCED_BID, K_MIN_BID, K_STEP,
                                     K_EXACTLY_STEP, K_MAX_RAISE, K_EXACT_OPENING)
                if hi - lo > K_MOST:
                    H_too_many_bids(cur, lo, hi)
                if hi // K_STEP < len(bid_codes):  # (the codes of the bids lo to hi, made once)
                    legal = list(bid_codes[lo // K_STEP:hi // K_STEP + 1])
                else:
                    legal = list(range(K_BID + lo, K_BID + hi + 1, K_STEP))
                if K_MAY_BID and legal:  # the bids may_bid allows (H_may_bids: auction.allowed_bids)
                    kept = None
                    if K_MAY_BY_HAND:  # the codes the helper keeps by the hand's seen cards
                        kept = may_known.get(hand[cur] & K_MAY_SEEN)
                    if kept is not None and kept[0] <= lo and hi <= kept[1]:
                        codes = kept[2]
                        legal = codes[bisect_left(codes, K_BID + lo):bisect_right(codes, K_BID + hi)]
                    else:
                        legal = H_may_bids(lo, hi, hand[cur], high_bid, cur == forced, cur, state)
                if opening:
                    if not legal:
                        legal = [K_BID + K_FORCED_BID]
                else:
                    legal.append(K_PASS)
            if draw is None:
                a = policies[cur](cur, legal)
            else:
                a = legal[_below(draw, len(legal))]
            if trace:
                steps.append((cur, legal, a))
            if K_VIEWS:
                tv.bids.append((cur, a))
            if a != K_PASS:
                if cur != forced:
                    contested = True
                high_bid = a - K_BID
                high_bidder = cur
                opening = False
            else:
                passed |= 1 << cur
                npassed += 1
            over = I_auction_over(npassed, nact, passed, high_bidder, order)
            if over:
                break
            cur = nxt[cur]
            while passed >> cur & 1:
                cur = nxt[cur]
        stuck = I_unopposed(high_bidder, forced, contested, high_bid, K_FORCED_BID)
        if K_OPENINGS and no_auction:
            pass
        elif I_passed_out(high_bidder, stuck, K_ALL_PASS_FORCED):
            dealer_in = dealer in order
            exempt = False
            if K_DEALER_EXEMPT and dealer_in:  # (the formula evaluated only where it decides)
                exempt = H_dealer_exempt(hand[dealer], dealer, state)
            redealt = I_passed_out_redealt(K_ALL_PASS_REDEAL, K_ALL_PASS_DEALER, dealer_in, exempt)
            if redealt:  # dealt again (the redeal "all-pass", H_redealt: dealing.redealt)
                state = H_redealt(None, "all-pass", 0, state, events, len(deal_scores))
                dealer = H_next_redeal_dealer(dealer)
                passed_run, passed_out, stops = I_passed_out_count(passed_run, passed_out, K_PASSED_OUT_MAX)
                if stops:  # the match stops
                    H_passed_out_stopped(events, len(deal_scores), passed_run)
                    if K_SIMPLE_SETTLE:
                        return H_final(scores, settled, deals, -1), deal_scores, events, outcomes, steps
                    return state, deal_scores, events, outcomes, steps
                if len(deal_scores) + passed_out >= max_deals:  # (they count against the most deals)
                    if K_SIMPLE_SETTLE:
                        return H_final(scores, settled, deals, -1), deal_scores, events, outcomes, steps
                    if not K_PRELUDE:
                        return state, deal_scores, events, outcomes, steps
                    stopping = True
                continue
            first_hand = order[0]
            declarer, high_bid = I_passed_out_declarer(K_ALL_PASS_DEALER, dealer, dealer_in, forced, first_hand,
                                                       K_MIN_BID, K_FORCED_BID)
        else:
            declarer = high_bidder
        STEP("talon")
        # -- the talon --
        if K_VIEWS:
            tv.declarer = declarer
        forfeited = False
        may_forfeit = False
        if K_FORFEIT_ON:
            unopposed = I_unopposed(declarer, forced, contested, high_bid, K_FORCED_BID)
            if K_FORFEIT_BEFORE_TALON:
                may_forfeit = H_may_forfeit(declarer, unopposed, state)
        leftover: list[int] = []
        forfeit_first = K_FORFEIT_BEFORE_TALON and may_forfeit
        ntalons = len(talons)
        choose = I_talon_asked(forfeit_first, K_CHOOSE_ONE, ntalons)
        if choose:
            legal = [K_TALON + i for i in range(len(talons))]
            if K_FORFEIT_BEFORE_TALON and may_forfeit:
                legal.append(K_FORFEIT_CODE)
            if draw is None:
                a = policies[declarer](declarer, legal)
            else:
                a = legal[_below(draw, len(legal))]
            if trace:
                steps.append((declarer, legal, a))
            if K_FORFEIT_ON and a == K_FORFEIT_CODE:
                forfeited = True
            elif K_CHOOSE_ONE:
                chosen = a - K_TALON
                for i, t in enumerate(talons):
                    if i == chosen:
                        for c in t:
                            hand[declarer] |= 1 << c
                    else:
                        leftover += t
            else:
                for c in talon_cards:
                    hand[declarer] |= 1 << c
        else:
            for c in talon_cards:
                hand[declarer] |= 1 << c
        if K_VIEWS:
            tv.take([c for c in talon_cards if c not in leftover], contested, vdark)
        if K_FORFEIT_ON and not K_FORFEIT_BEFORE_TALON and not forfeited:
            may_forfeit = H_may_forfeit(declarer, unopposed, state)
        else:
            may_forfeit = False
        discards: list[int] = []
        STEP("redeal.after_talon")
        if not (K_FORFEIT_ON and forfeited):  # the redeal point dealing.TIMINGS[1]
            state, done = H_redeal(1, dealer, order, hand, talon_cards, declarer, high_bid, 0, declarer, state,
                                   policies, draw, steps, events, len(deal_scores), 0, False)
            if K_VIEWS:
                tv.state = state
            if done:
                dealer = H_next_redeal_dealer(dealer)
                continue
        STEP("exchange")
        # -- the exchange --
        if K_EXCHANGE_GIVE and not (K_FORFEIT_ON and forfeited):
            opps = opps_of[declarer]
            given: list[int] = [0] * K_N
            left = len(opps) * K_GIVE_COUNT
            while left:
                m = hand[declarer]
                held = []
                while m:
                    low = m & -m
                    held.append(low.bit_length() - 1)
                    m ^= low
                legal = []
                to_whom = I_receivers(opps, given, K_GIVE_COUNT, K_CLOCKWISE)
                for q in to_whom:
                    base = K_GIVE + (q << 6)
                    legal += [base + c for c in held]
                if K_FORFEIT_ON and may_forfeit:
                    legal.append(K_FORFEIT_CODE)
                if draw is None:
                    a = policies[declarer](declarer, legal)
                else:
                    a = legal[_below(draw, len(legal))]
                if trace:
                    steps.append((declarer, legal, a))
                if K_FORFEIT_ON:
                    if a == K_FORFEIT_CODE:
                        forfeited = True
                        break
                    if K_FORFEIT_BEFORE_EXCHANGE:
                        may_forfeit = False
                c = a & 63
                q = (a - K_GIVE) >> 6
                hand[declarer] ^= 1 << c
                hand[q] |= 1 << c
                given[q] += 1
                if K_VIEWS:
                    tv.gifts.append((q, vpk[c]))
                left -= 1
        if K_EXCHANGE_DISCARD and not (K_FORFEIT_ON and forfeited):
            for _ in range(K_DISCARD_COUNT):
                m = hand[declarer]
                legal = []
                while m:
                    low = m & -m
                    legal.append(K_DISCARD + low.bit_length() - 1)
                    m ^= low
                if K_FORFEIT_ON and may_forfeit:
                    legal.append(K_FORFEIT_CODE)
                if draw is None:
                    a = policies[declarer](declarer, legal)
                else:
                    a = legal[_below(draw, len(legal))]
                if trace:
                    steps.append((declarer, legal, a))
                if K_FORFEIT_ON:
                    if a == K_FORFEIT_CODE:
                        forfeited = True
                        break
                    if K_FORFEIT_BEFORE_EXCHANGE:
                        may_forfeit = False
                c = a - K_DISCARD
                hand[declarer] ^= 1 << c
                discards.append(c)
        STEP("redeal.after_exchange")
        if not (K_FORFEIT_ON and forfeited):  # the redeal point dealing.TIMINGS[2]
            state, done = H_redeal(2, dealer, order, hand, talon_cards, declarer, high_bid, 0, declarer, state,
                                   policies, draw, steps, events, len(deal_scores), 0, False)
            if K_VIEWS:
                tv.state = state
            if done:
                dealer = H_next_redeal_dealer(dealer)
                continue
        STEP("contract")
        # -- the contract --
        contract = 0
        if not (K_FORFEIT_ON and forfeited):
            amounts = H_contract_amounts(hand[declarer], high_bid, declarer, state, mode, barrel_deal)
            noffered = len(amounts)
            forfeitable = K_FORFEIT_ON and may_forfeit
            asked = I_contract_asked(noffered, forfeitable)
            if not asked:
                contract = amounts[0]
            else:
                legal = [K_CONTRACT + x for x in amounts]
                if K_FORFEIT_ON and may_forfeit:
                    legal.append(K_FORFEIT_CODE)
                if draw is None:
                    a = policies[declarer](declarer, legal)
                else:
                    a = legal[_below(draw, len(legal))]
                if trace:
                    steps.append((declarer, legal, a))
                if K_FORFEIT_ON and a == K_FORFEIT_CODE:
                    forfeited = True
                else:
                    contract = a - K_CONTRACT
        if K_FORFEIT_ON and forfeited:
            contract = I_forfeit_contract(contract, high_bid)
        STEP("play")
        # -- the play --
        left_hand = order[0]
        cur = I_leader_of(K_LEADER_FORCED, K_LEADER_DEALER_LEFT, forced, left_hand, declarer)
        trump = 0
        pending = 0
        points: list[int] = [0] * K_N
        married: list[int] = [0] * K_N
        tricks: list[int] = [0] * K_N
        declared: list[tuple[int, int]] = []
        marriage_trick = -1
        trick_number = 0
        if K_VIEWS:
            tv.play(contract, tricks, declared)
        last = -1
        while not (K_FORFEIT_ON and forfeited):
            # a lead
            h = hand[cur]
            lead = h
            if K_LEAD_RULE:
                lead = I_leads(h, K_LEAD_TRUMP, trump, marriage_trick, trick_number)
            legal = []
            m = lead
            if K_ANY_TIME:
                barred = 0
            else:
                won = tricks[cur]
                is_declarer = cur == declarer
                held_n = h.bit_count() if K_MIN_CARDS else 0
                barred = I_marriage_barred(won, is_declarer, trick_number, held_n, K_BAR_WON, K_BAR_FIRST,
                                           K_FROM_TRICK, K_MIN_CARDS)
            if K_ANY_TIME or not barred:
                while m:
                    low = m & -m
                    c = low.bit_length() - 1
                    m ^= low
                    if lead & partner_of[c]:
                        mc = K_MARRIAGE + c
                        legal += I_declared_leads(c, mc, K_AUTOMATIC)
                    else:
                        legal.append(c)
            else:
                while m:
                    low = m & -m
                    legal.append(low.bit_length() - 1)
                    m ^= low
            aces_ok = False
            if K_ACE_MARRIAGE:
                won = tricks[cur]
                aces_ok = I_aces_declarable(h, K_ACES_BITS, K_ACES_N, won, K_ACES_WON)
            if K_ACE_MARRIAGE and aces_ok:
                with_aces = []  # each ace led with the ace marriage
                for x in legal:
                    if x < K_MARRIAGE and (1 << x) & K_ACES_BITS:
                        mc = K_ACES_CODE + x
                        with_aces += I_declared_leads(x, mc, K_AUTOMATIC)
                    else:
                        with_aces.append(x)
                legal = with_aces
            if K_CLAIM and trick_number == 0 and cur == declarer and h:
                others = 0
                for q in order:
                    if q != declarer:
                        others |= hand[q]
                sure = I_sure_to_win(h, others, trump, suit_mask)
                if sure:
                    legal.append(K_CLAIM_CODE)
            if K_VIEWS:
                tv.trump = trump
            if draw is None:
                a = policies[cur](cur, legal)
            else:
                a = legal[_below(draw, len(legal))]
            if trace:
                steps.append((cur, legal, a))
            if K_CLAIM and a == K_CLAIM_CODE:
                last = H_claim(order, hand, declarer, points, married, tricks, declared)
                break
            if K_ACE_MARRIAGE and a >= K_ACES_CODE:
                c = a - K_ACES_CODE
                mine = married[cur]
                ms = suit_mask[c]
                mine, trump, pending = I_ace_marriage_declared(mine, K_ACES_VALUE, trump, pending, ms,
                                                               K_ACES_TRUMP, K_FIRST_ONLY, K_NEXT_TRICK)
                married[cur] = mine
                declared.append((cur, -1))
                marriage_trick = trick_number
            elif a >= K_MARRIAGE:
                c = a - K_MARRIAGE
                s = suit_of[c]
                married[cur] += mval[s]
                declared.append((cur, s))
                marriage_trick = trick_number
                if K_SETS_TRUMP:
                    ms = suit_mask[c]
                    trump, pending = I_trump_after(trump, pending, ms, K_FIRST_ONLY, K_NEXT_TRICK)
            else:
                c = a
            if K_VIEWS:
                tv.trump = trump
                tv.trick = [(cur, vpk[c])]
            bit = 1 << c
            hand[cur] ^= bit
            led = suit_mask[c]
            first = bit
            tbits = bit
            best = c
            best_suit = led
            winner = cur
            tp = points_of[c]
            p = nxt[cur]
            for _ in range(nact - 1):
                h = hand[p]
                ok, _, _ = I_duty_cards(h, led, first, tbits, trump, K_MUST_FOLLOW, K_MUST_BEAT, K_BEAT_BEST,
                                       K_BEAT_WHEN_TRUMPED, K_MUST_TRUMP, K_MUST_OVERTRUMP, K_ANY_CARD,
                                       K_HIGHEST_BEAT, K_HIGHEST_TRUMP)
                legal = []
                while ok:
                    low = ok & -ok
                    legal.append(low.bit_length() - 1)
                    ok ^= low
                if draw is None:
                    c = policies[p](p, legal)
                else:
                    c = legal[_below(draw, len(legal))]
                if trace:
                    steps.append((p, legal, c))
                if K_VIEWS:
                    tv.trick.append((p, vpk[c]))
                bit = 1 << c
                hand[p] ^= bit
                tbits |= bit
                tp += points_of[c]
                if I_takes(c, bit, best, best_suit, trump):
                    best = c
                    best_suit = suit_mask[c]
                    winner = p
                p = nxt[p]
            points[winner] += tp
            tricks[winner] += 1
            trick_number += 1
            last = winner
            if K_VIEWS:
                tv.last = tv.trick
                tv.trick = []
            if pending:
                trump = pending
                pending = 0
            cur = winner
            if not hand[winner]:
                break
        if not (K_FORFEIT_ON and forfeited):  # (after the last trick, or a claim)
            if K_LEFTOVER_TO:
                to = I_set_aside_taker(K_LEFTOVER_LAST, last, declarer)
                for c in leftover:
                    points[to] += points_of[c]
            if K_DISCARDS_TO:
                to = I_set_aside_taker(K_DISCARDS_LAST, last, declarer)
                for c in discards:
                    points[to] += points_of[c]
        STEP("settlement")
        # -- the match: the engine's settlement, in a list of scores for a simple form --
        if K_SIMPLE_SETTLE:
            before = scores[:]
            won = H_settle_simple(scores, deals, declarer, contract, order, sitter, points, married, tricks,
                                  talon_cards, events)[0]
            deal_scores.append(tuple([scores[i] - before[i] for i in range(K_N)]))
            if K_FORCED_SEAT < 0 and high_bidder < 0:  # scored without an auction winner (everyone passed)
                H_passed_out(len(deal_scores) - 1)
            if keep_outcomes:
                outcomes.append(H_outcome(declarer, high_bid, contract, order, sitter, points, married, tricks,
                                          last, declared, talon_cards, False, 0, 1))
            deals += 1
            dealer = I_next_seat(dealer, K_DIR, K_N)
            settled = dealer
            passed_run = 0
            if won >= 0 or deals + passed_out >= max_deals:
                return H_final(scores, dealer, deals, won), deal_scores, events, outcomes, steps
        else:
            outcome = H_outcome(declarer, high_bid, contract, order, sitter, points, married, tricks,
                                last, declared, talon_cards, forfeited, mode, multiplier)
            if K_REDEALS_ANY:  # (a deal redealt passes the deal on: the match state's dealer is older)
                state = H_dealt_by(state, dealer)
            new, evs = H_settle(state, outcome)
            before, after = state.scores, new.scores
            deal_scores.append(tuple([after[i] - before[i] for i in range(K_N)]))
            if K_FORCED_SEAT < 0 and high_bidder < 0:  # scored without an auction winner (everyone passed)
                H_passed_out(len(deal_scores) - 1)
            events += evs
            if keep_outcomes:
                outcomes.append(outcome)
            state = new
            if new.winner is not None:
                return state, deal_scores, events, outcomes, steps
            dealer = new.dealer
            passed_run = 0
            if len(deal_scores) + passed_out >= max_deals:
                if not K_PRELUDE:
                    return state, deal_scores, events, outcomes, steps
                # the engine deals the next deal at once: its cut and mandatory redeals (their
                # events and charges) come before anyone acts, and are part of its state
                stopping = True
