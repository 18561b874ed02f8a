"""The engine's rules the fast path writes inline (``fast.generate.INLINED``): each is one
expression of its parameters, inlined into the generated code, and the engine's own
callers give the values it states."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from tysiac_spec import load_ruleset
from tysiac_spec.engine.auction import auction_over, bid_range, passed_out, passed_out_declarer, unopposed
from tysiac_spec.engine.play import duty_cards, marriage_barred, sure_to_win, takes, trick_winner, trump_after
from tysiac_spec.engine.state import DealState
from tysiac_spec.fast import generate as gen


def _source(ruleset: str, players: int) -> str:
    rules = load_ruleset(ruleset)
    return ast.unparse(gen.generate(rules.form(players), tuple(rules.deck.cards)))


def test_every_inlined_rule_leaves_no_call_in_the_generated_code() -> None:
    src = _source("pl-standard", 3)
    assert "I_" not in src
    assert "if c < best if bit & best_suit else bit & trump != 0:" in src


def test_a_function_of_more_than_one_expression_is_refused() -> None:
    def two(a: int) -> int:
        b = a + 1
        return b

    def reads_global(a: int) -> int:
        return a + len(repr(a))

    def returns_early(a: int) -> int:
        if a:
            return 1
        return 2

    def assigns_its_parameter(a: int) -> int:
        a += 1
        return a

    with pytest.raises(AssertionError, match="not one return expression"):
        gen._inline_body(two)
    with pytest.raises(AssertionError, match=r"reads \['repr'\]"):
        gen._inline_body(reads_global)
    with pytest.raises(AssertionError, match="not one return expression at its end"):
        gen._Inlinable(returns_early)
    with pytest.raises(AssertionError, match=r"assigns its parameters \['a'\]"):
        gen._Inlinable(assigns_its_parameter)


def test_a_rule_of_statements_is_inlined_with_its_flags_folded() -> None:
    tree = ast.parse(
        "def f(h, led, first, tbits, trump):\n"
        "    ok, _, _ = I_duty_cards(h, led, first, tbits, trump, K_A, K_B, K_C, K_D, K_E, K_F, K_G, K_H, K_I)\n"
        "    return ok\n")
    flags = dict(zip("ABCDEFGHI", (True, False, True, False, False, False, False, False, False), strict=True))
    src = ast.unparse(gen.fold(tree, {f"K_{k}": v for k, v in flags.items()}).body[1])
    # must follow, nothing else: the beat and trump branches and the unread duty are gone
    assert src == (
        "def f(h, led, first, tbits, trump):\n"
        "    ok = h\n"
        "    _i_duty_cards_follow = h & led\n"
        "    if _i_duty_cards_follow:\n"
        "        ok = _i_duty_cards_follow\n"
        "    return ok")
    namespace: dict[str, object] = {}
    exec(compile(tree, "<test>", "exec"), namespace)
    f = namespace["f"]
    assert f(0b1100_0011, 0b1111, 1, 1, 0) == 0b0011  # type: ignore[operator]
    assert f(0b1100_0000, 0b1111, 1, 1, 0) == 0b1100_0000  # type: ignore[operator]


def test_the_generated_code_holds_each_inlined_rule_and_no_call() -> None:
    src = _source("pl-standard", 3)
    assert "I_" not in src
    assert "_i_duty_cards_follow = h & led" in src  # duty_cards
    assert "sure = True\n" in src and "_i_sure_to_win_m = h\n" in src  # sure_to_win, the claim
    assert "lo = high_bid + 10 if bid_made else 100\n" in src  # bid_range, pl-standard's step and minimum


def test_duty_cards_states_the_duties() -> None:
    # hearts at bits 0-5 (ace first), spades at 6-11 (trump when given)
    hearts, spades = 0b111111, 0b111111 << 6
    flags = (True, True, True, False, True, True, False, False, False)
    # KH led (bit 2), AH (bit 0) and QH (bit 3) held with a spade: beat it, with the ace only
    hand = 1 | 1 << 3 | 1 << 7
    assert duty_cards(hand, hearts, 1 << 2, 1 << 2, spades, *flags) == (1, 1, 1 << 2)
    # the trick trumped: no beat duty (beat_when_trumped off), follow with either heart
    assert duty_cards(hand, hearts, 1 << 2, 1 << 2 | 1 << 8, spades, *flags) == (1 | 1 << 3, 2, 0)
    # void in hearts: overtrump the 10S (bit 8) with the KS (bit 7)
    assert duty_cards(1 << 7 | 1 << 11, hearts, 1 << 2, 1 << 2 | 1 << 8, spades, *flags) == (1 << 7, 3, 1 << 8)
    # cannot overtrump: any trump (cannot_overtrump: any_trump)
    assert duty_cards(1 << 11 | 1 << 20, hearts, 1 << 2, 1 << 2 | 1 << 8, spades, *flags) == (1 << 11, 4, 0)
    # highest trump only (trump_with_highest)
    assert duty_cards(1 << 7 | 1 << 6, hearts, 1 << 2, 1 << 2 | 1 << 8, spades,
                      *flags[:-1], True) == (1 << 6, 3, 1 << 8)


def test_bid_range_states_the_bids() -> None:
    #             opening high  made   most forced min step exactly max_raise exact_opening
    assert bid_range(False, 0, False, 150, 100, 100, 10, False, None, False) == (100, 150)
    assert bid_range(False, 120, True, 150, 100, 100, 10, False, None, False) == (130, 150)
    assert bid_range(False, 120, True, 150, 100, 100, 10, True, None, False) == (130, 130)
    assert bid_range(False, 120, True, 200, 100, 100, 10, False, 20, False) == (130, 140)
    assert bid_range(True, 0, False, 150, 100, 100, 10, False, None, True) == (100, 100)
    assert bid_range(False, 102, True, 150, 100, 100, 5, False, None, False) == (110, 150)  # on a step
    assert bid_range(False, 140, True, 130, 100, 100, 10, False, None, False) == (150, 130)  # none left


def test_marriage_timing_and_trump_change() -> None:
    #                    won declarer trick held  won? not-first from min
    assert marriage_barred(0, False, 3, 5, True, False, 0, 0) == 1
    assert marriage_barred(1, True, 0, 8, True, True, 0, 0) == 2
    assert marriage_barred(1, False, 1, 7, False, False, 2, 0) == 3
    assert marriage_barred(1, False, 5, 2, False, False, 2, 3) == 4
    assert marriage_barred(1, False, 5, 3, True, True, 2, 3) == 0
    assert trump_after(None, None, "hearts", False, False) == ("hearts", None)
    assert trump_after(None, None, "hearts", False, True) == (None, "hearts")
    assert trump_after("spades", None, "hearts", True, False) == ("spades", None)
    assert trump_after("spades", None, "hearts", False, False) == ("hearts", None)


def test_sure_to_win_states_the_lay_down() -> None:
    hearts, spades = 0b111111, 0b111111 << 6
    mask = {i: hearts if i < 6 else spades for i in range(12)}
    assert sure_to_win(0b11, 1 << 4, 0, mask) is True  # AH KH against a lower heart
    assert sure_to_win(0b10, 0b1, 0, mask) is False  # KH against the AH
    assert sure_to_win(0b11, 1 << 9, spades, mask) is False  # a trump is out
    assert sure_to_win(1 << 6, 1 << 9, spades, mask) is True  # his trump is the highest


def test_takes_states_the_trick_winner() -> None:
    # hearts at bits 0-5 (ace first), spades at 6-11: the stronger card has the lower index
    hearts, spades = 0b111111, 0b111111 << 6
    assert takes(0, 1, 2, hearts, 0) is True  # a higher card of the suit led
    assert takes(3, 1 << 3, 2, hearts, 0) is False  # a lower one
    assert takes(9, 1 << 9, 0, hearts, spades) is True  # a trump on the suit led
    assert takes(9, 1 << 9, 0, hearts, 0) is False  # another suit, no trump
    assert takes(9, 1 << 9, 7, spades, spades) is False  # a lower trump on a trump


def test_trick_winner_reads_takes_on_a_real_trick() -> None:
    rules = load_ruleset("pl-standard")
    by = {str(c): c for c in rules.deck.cards}
    deal = DealState(dealer=0, order=[1, 2, 0], sitter=None, hands={0: [], 1: [], 2: []}, talons=[],
                     dealt_talon=(), deck_points=120)
    deal.trick = [(1, by["KH"]), (2, by["AH"]), (0, by["9S"])]
    assert trick_winner(deal) == 2
    deal.trump = "spades"
    assert trick_winner(deal) == 0
    deal.trick = [(1, by["KH"]), (2, by["JS"]), (0, by["AS"])]
    assert trick_winner(deal) == 0


def test_the_end_of_the_auction() -> None:
    order = [1, 2, 0]
    assert auction_over(1, 3, 0b010, 0, order) is False  # two still bidding
    assert auction_over(2, 3, 0b110, 0, order) is True  # 0 holds the bid, the others passed
    assert auction_over(2, 3, 0b110, -1, order) is False  # 0 has not spoken yet
    assert auction_over(3, 3, 0b111, -1, order) is True  # everyone passed
    assert unopposed(1, 1, False, 100, 100) is True
    assert unopposed(1, 1, True, 100, 100) is False
    assert unopposed(-1, -1, False, 100, 100) is False
    assert passed_out(-1, False, False) is True
    assert passed_out(2, True, False) is True
    assert passed_out(2, True, True) is False
    #                        dealer_plays dealer in  forced first min forced_bid
    assert passed_out_declarer(True, 2, True, 1, 0, 100, 110) == (2, 100)
    assert passed_out_declarer(True, 2, False, 1, 0, 100, 110) == (1, 110)
    assert passed_out_declarer(False, 2, True, -1, 0, 100, 110) == (0, 100)


def test_the_shuffle_and_the_talon_draw_are_the_standard_librarys() -> None:
    import random

    from tysiac_spec.engine.dealing import sample_drawn, shuffle

    cards = list(range(24))
    shuffle(cards, random.Random(7))
    expected = list(range(24))
    random.Random(7).shuffle(expected)
    assert cards == expected
    assert sample_drawn(random.Random(3).getrandbits, 12, 3, True, 0) == random.Random(3).sample(range(12), 3)
    assert sample_drawn(random.Random(3).getrandbits, 40, 3, False, 2) == [
        x + 2 for x in random.Random(3).sample(range(40), 3)]


def test_the_receivers_of_the_declarers_cards() -> None:
    from tysiac_spec.engine.play import set_aside_taker
    from tysiac_spec.engine.talon import receivers

    given = {2: 0, 0: 0}
    assert receivers([2, 0], given, 1, False) == [2, 0]
    assert receivers([2, 0], given, 1, True) == [2]
    given[2] = 1
    assert receivers([2, 0], given, 1, False) == [0]
    assert receivers([2, 0], given, 2, True) == [0]  # the one who has fewest
    given[0] = 1
    assert receivers([2, 0], given, 1, True) == []
    assert set_aside_taker(True, 1, 2) == 1
    assert set_aside_taker(False, 1, 2) == 2


def test_the_talon_the_contract_and_the_first_leader() -> None:
    from tysiac_spec.engine.announcing import leader_of
    from tysiac_spec.engine.talon import contract_asked, forfeit_contract, talon_asked

    assert talon_asked(False, True, 2) is True
    assert talon_asked(False, True, 1) is False
    assert talon_asked(True, False, 1) is True
    assert contract_asked(1, False) is False
    assert contract_asked(3, False) is True
    assert contract_asked(1, True) is True
    assert forfeit_contract(0, 120) == 120
    assert forfeit_contract(140, 120) == 140
    #               forced-rule dealer_left forced first declarer
    assert leader_of(True, False, 2, 1, 0) == 2
    assert leader_of(True, False, -1, 1, 0) == 0
    assert leader_of(False, True, 2, 1, 0) == 1
    assert leader_of(False, False, 2, 1, 0) == 0


TWIN_COMMENTS = 0
"""Comment lines of ``fast/_template.py`` that name an engine function a part of the template
restates (``# ... engine/<module>.py ...``).  Issue 25 brought them from 26 to none: each rule
the generated code runs is an engine function, inlined (``fast.generate.INLINED``) or called
through an ``H_*`` helper; a rule written again in the template must be moved to the engine."""


def test_the_template_gains_no_rule_of_its_own() -> None:
    twins = [line.strip() for line in gen.template_source().splitlines() if re.search(r"#.*engine/", line)]
    assert len(twins) <= TWIN_COMMENTS, (
        f"{len(twins)} comments name an engine twin (at most {TWIN_COMMENTS}): state the rule once in "
        "the engine and inline it (fast/generate.py INLINED)\n" + "\n".join(twins))


def test_every_inlined_rule_is_the_engines_and_used_by_both() -> None:
    template = gen.template_source()
    called = set(re.findall(r"\b(I_\w+)\(", template))
    assert called == set(gen.INLINED)  # each rule the template calls is inlined, and each is called
    engine = "".join(path.read_text(encoding="utf-8") for path in sorted(
        Path(inspect.getfile(gen)).parent.parent.joinpath("engine").glob("*.py")))
    for name, function in gen.INLINED.items():
        module = inspect.getmodule(function)
        assert module is not None and module.__name__.startswith("tysiac_spec.engine."), name
        # the engine itself calls the statement (it is its one home, not a copy for the fast path)
        calls = re.findall(rf"(?<!def )\b{function.__name__}\(", engine)
        assert calls, name


def test_a_block_emptied_by_the_folding_keeps_a_pass() -> None:
    # ru-classic 3 with four nines shown from the dealt hand: an `if` whose every statement
    # was a dead store (its body must not be left empty, or the module does not compile)
    rules = load_ruleset("ru-classic", options={"four_nines": "dealt_hand"})
    tree = gen.generate(rules.form(3), tuple(rules.deck.cards))
    compile(tree, "<test>", "exec")
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list) and len(block) > 1:
                assert not any(isinstance(x, ast.Pass) for x in block)


def test_the_seats_the_passed_out_count_and_the_cut() -> None:
    from tysiac_spec.engine.auction import dark_candidates, passed_out_count, passed_out_redealt
    from tysiac_spec.engine.dealing import bad_cut
    from tysiac_spec.engine.seating import next_seat, opponents_after, seat_from, turn_after

    assert next_seat(2, 1, 3) == 0
    assert next_seat(0, -1, 4) == 3
    #               dealer seat step players order
    assert seat_from(3, 1, 1, 4, [0, 1, 2]) == 0  # seat 1 from dealer 3
    assert seat_from(0, 1, 1, 4, [2, 3, 0]) == 2  # seat 1 is the sitter: the next active one
    assert seat_from(1, 2, -1, 4, [0, 3, 2]) == 3
    assert turn_after([1, 2, 0], 0) == 1
    assert opponents_after([1, 2, 0, 3], 2) == [0, 3, 1]
    assert passed_out_count(0, 4, 100) == (1, 5, False)
    assert passed_out_count(99, 120, 100) == (100, 121, True)
    #                         redeal dealer_plays dealer_in exempt
    assert passed_out_redealt(True, False, False, False) is True
    assert passed_out_redealt(False, True, True, True) is True
    assert passed_out_redealt(False, True, False, True) is False
    assert passed_out_redealt(False, True, True, False) is False
    assert bad_cut(1 << 5, 0b110000) is True
    assert bad_cut(1 << 3, 0b110000) is False
    #                      order   golden declarer first_hand
    assert dark_candidates([1, 2, 0], False, -1, True) == [1]
    assert dark_candidates([1, 2, 0], False, -1, False) == [1, 2, 0]
    assert dark_candidates([1, 2, 0], True, 1, True) == [1]
    assert dark_candidates([1, 2, 0], True, 2, True) == []


def test_the_ace_marriage_and_the_declaring_leads() -> None:
    from tysiac_spec.engine.play import aces_declarable, declared_leads

    aces = 1 | 1 << 6 | 1 << 12 | 1 << 18
    #                     held         aces_bits n won requires_won
    assert aces_declarable(aces | 1 << 3, aces, 4, 0, False) is True
    assert aces_declarable(aces | 1 << 3, aces, 4, 0, True) is False  # no trick won yet
    assert aces_declarable(aces, aces, 4, 2, True) is True
    assert aces_declarable(aces ^ 1, aces, 4, 2, False) is False  # an ace missing
    assert declared_leads(3, 67, False) == (3, 67)  # spoken: the plain lead first
    assert declared_leads(3, 67, True) == (67,)  # automatic: only the declaring one


def test_may_bid_and_the_scoring_formulas_are_the_engines() -> None:
    from tysiac_spec.engine import env as envs
    from tysiac_spec.engine.auction import allowed_bids
    from tysiac_spec.engine.scoring import compile_formula_scores

    e: dict[str, object] = {}
    assert allowed_bids(lambda env: env["bid"] <= 120, e, range(100, 151, 5)) == [100, 105, 110, 115, 120]
    assert allowed_bids(lambda env: env["bid"] != 110, e, [100, 110, 130]) == [100, 130]
    assert allowed_bids(lambda env: True, e, range(130, 121, 10)) == []
    rules = load_ruleset("pl-standard")
    made, declarer, defender = compile_formula_scores(rules.form(3))
    options = dict(rules.selected)  # five_rounds: down
    record = envs.UNREAD_BASE["player"]
    assert made(90, 40, 5, 120, options, envs.NO_FACTS) is True
    assert made(70, 40, 5, 120, options, envs.NO_FACTS) is False
    assert declarer(90, 40, 5, 120, True, options, envs.NO_FACTS, record) == 120
    assert declarer(70, 40, 5, 120, False, options, envs.NO_FACTS, record) == -120
    assert defender(27, 0, 2, 120, True, options, envs.NO_FACTS, record) == 30  # rounded to 10
    assert defender(15, 10, 2, 120, True, options, envs.NO_FACTS, record) == 20  # a five rounds down


def test_the_ace_marriage_declared_is_inlined_with_its_trump() -> None:
    from tysiac_spec.engine.play import ace_marriage_declared

    #                             points value trump  pending  suit   sets  first next
    assert ace_marriage_declared(60, 200, None, None, "hearts", True, False, False) == (260, "hearts", None)
    assert ace_marriage_declared(0, 200, None, None, "hearts", True, False, True) == (200, None, "hearts")
    assert ace_marriage_declared(0, 200, "spades", None, "hearts", True, True, False) == (200, "spades", None)
    assert ace_marriage_declared(0, 200, "spades", None, "hearts", False, False, False) == (200, "spades", None)
    # in the generated code: its statements, and trump_after's within them, with the form's
    # flags folded (the house example: worth 200, sets trump now, a change at any marriage)
    rules = load_ruleset("examples/house/ace-marriage-trump.yaml")
    src = ast.unparse(gen.generate(rules.form(3), tuple(rules.deck.cards)))
    assert "trump_after(" not in src and "ace_marriage_declared(" not in src
    assert ("_i_ace_marriage_declared_now = ms\n"
            "                mine, trump, pending = (mine + 200, _i_ace_marriage_declared_now, "
            "_i_ace_marriage_declared_later)") in src


def test_a_rule_calling_a_rule_of_statements_inlines_both() -> None:
    rule = gen._Inlinable(gen.INLINED["I_ace_marriage_declared"])
    assert [ast.unparse(s) for s in rule.body] == [
        "if sets_trump:\n"
        "    now, later = (trump, pending)\n"
        "    if not (first_only and (trump or pending)):\n"
        "        if next_trick:\n"
        "            later = suit\n"
        "        else:\n"
        "            now = suit\n"
        "else:\n"
        "    now, later = (trump, pending)"]
    assert rule.locals == {"now", "later"}


def test_the_claim_takes_every_card_and_the_safe_marriages() -> None:
    from tysiac_spec.engine.play import claim_taken

    rules = load_ruleset("pl-standard")
    by = {str(c): c for c in rules.deck.cards}

    def bits(*names: str) -> int:
        return sum(by[n].bit for n in names)

    hand = bits("AH", "TH", "KH", "QH", "JH", "9H", "KD", "QD")
    others = bits("AS", "TS", "KS", "QS", "JS", "9S", "AD", "TD", "AC", "TC", "KC", "QC", "JC", "9C", "JD", "9D")
    # the marriages of pl-standard's pack (in marriages.values order: hearts 100, diamonds 80, …)
    m = rules.form(3).marriages
    pairs = [bits(f"K{s[0].upper()}", f"Q{s[0].upper()}") for s in m.values]
    suits = [by[f"K{s[0].upper()}"].suit_bits for s in m.values]
    values = list(m.values.values())
    hearts, diamonds = list(m.values).index("hearts"), list(m.values).index("diamonds")
    assert values[hearts] == 100 and values[diamonds] == 80
    cards, tricks, kept = claim_taken(hand, others, pairs, suits, values, 0, False, 0, 0)
    assert cards == hand | others and tricks == 8
    assert sum(c.points for c in rules.deck.cards if c.bit & cards) == 120  # the whole pack
    assert kept == [hearts]  # the opponents hold diamonds: that one could give them a trump
    others_no_d = others & ~bits("AD", "TD", "JD", "9D")
    assert claim_taken(hand, others_no_d, pairs, suits, values, 0, False, 0, 0)[2] == sorted([hearts, diamonds])
    # declared from trick 6 on: five leads before, four other cards, one marriage broken to lead
    # them; the smaller one (diamonds) is not credited
    assert claim_taken(hand, others_no_d, pairs, suits, values, 0, False, 6, 0)[2] == [hearts]
    # barred now (e.g. the declarer's first lead): both still fit from the second lead on
    assert claim_taken(hand, others_no_d, pairs, suits, values, 0, True, 0, 0)[2] == sorted([hearts, diamonds])
    # with at least 8 cards in hand: only the first lead, which is barred
    assert claim_taken(hand, others_no_d, pairs, suits, values, 0, True, 0, 8)[2] == []


def test_the_outcome_of_a_deal_from_its_figures() -> None:
    from tysiac_spec.engine.scoring import outcome_from

    rules = load_ruleset("pl-standard")
    talon = tuple(rules.deck.cards[:3])
    o = outcome_from(1, 110, 120, [2, 3, 1], {2: 20, 3: 0, 1: 100}, {2: 0, 3: 0, 1: 100}, {2: 2, 3: 0, 1: 6},
                     False, "normal", None, 0, talon, 1, ((1, "hearts"),), None, None)
    assert (o.declarer, o.bid, o.contract, o.players, o.sitter_talon) == (1, 110, 120, (2, 3, 1), talon)
    assert o.points(1) == 200 and o.points(2) == 20 and o.tricks == {2: 2, 3: 0, 1: 6}
    assert (o.last_trick, o.declarations, o.dealer, o.won) == (1, ((1, "hearts"),), None, None)
    # without a sitter nobody scores the talon
    o = outcome_from(1, 100, 100, [1, 2, 0], {1: 60, 2: 30, 0: 30}, {1: 0, 2: 0, 0: 0}, {1: 4, 2: 2, 0: 2},
                     True, "golden", 2, None, talon, 0, (), 0, None)
    assert (o.sitter_talon, o.forfeited, o.mode, o.multiplier, o.dealer) == (None, True, "golden", 2, 0)


def test_the_marriage_holders_are_found_from_the_packs_pairs() -> None:
    """pl-standard's pack: the king and queen of each suit are a marriage; player 1 holds
    K and Q of hearts, player 2 only the king of spades, player 0 K and Q of clubs."""
    from tysiac_spec.engine.auction import marriage_holders, marriage_masks

    rules = load_ruleset("pl-standard")
    pack = rules.deck.cards
    pairs = marriage_masks(rules.form(3), pack)
    assert len(pairs) == 4
    bit = {str(c): c.bit for c in pack}
    hands = [bit["KC"] | bit["QC"] | bit["9H"], bit["KH"] | bit["QH"], bit["KS"] | bit["QD"]]
    assert marriage_holders(hands, [0, 1, 2], pairs) == 0b011
    assert marriage_holders(hands, [1, 2], pairs) == 0b010
    assert "I_marriage_holders" in gen.INLINED


def test_the_deal_loop_is_written_in_the_engines_order() -> None:
    """The template's deal loop is cut into one block per step of ``engine/flow.py``; the
    generator writes the form's steps' blocks in the table's order, whatever the order given."""
    from tysiac_spec.engine import flow

    rules = load_ruleset("pl-standard")
    assert flow.steps(rules.form(3)) == (
        "deal", "auction", "talon", "exchange", "contract", "play", "settlement")
    ru = load_ruleset("ru-online").form(3)
    assert flow.steps(ru)[:3] == ("deal", "opening", "auction")
    assert flow.after(ru)["auction"][:2] == ("talon", "exchange")

    def loop(steps: tuple[str, ...]) -> list[ast.stmt]:
        tree = gen._in_flow_order(ast.parse(gen.template_source()), steps)
        fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "play_match")
        return next(n for n in fn.body if isinstance(n, ast.While) and isinstance(n.test, ast.Constant)).body

    def dumped(steps: tuple[str, ...]) -> list[str]:
        return [ast.dump(s) for s in loop(steps)]

    assert dumped(("settlement", "deal")) == dumped(("settlement",)) + dumped(("deal",))
    assert dumped(("deal", "settlement")) == dumped(("deal",)) + dumped(("settlement",))
    assert dumped(("deal",))[0] == ast.dump(ast.parse("order, sitter, nxt, opps_of = H_seating(dealer)").body[0])
    # the template has a block for every step but those the fast path does not cover
    template = gen.template_source()
    blocks = re.findall(r'^        STEP\("([\w.]+)"\)$', template, re.M)
    assert blocks == [s.name for s in flow.STEPS if s.name not in {"rebuy", "contra.after_auction", "trump"}]
    with pytest.raises(AssertionError, match=r"no block for the steps \['rebuy'\]"):
        gen._in_flow_order(ast.parse(template), ("deal", "auction", "rebuy"))
