"""Table incidents (issue 14, group 2): a misdeal, an exposed card, a look at the talon, a
shown hand, called with ``Game.incident`` (or ``incident KIND N`` through ``Game.apply``) and
settled by ``deal.incidents``; never legal actions; kept in the record and replayed.  The
house example is ``examples/house/table-incidents.yaml`` (MEK: mekedron/thousand's
``misdeal_handling``/``misdeal_flat_penalty``, ``penalties.talon_look``, ``showing_hand``;
GLI: the exposed card), its scenarios ``examples/house/scenarios/table-incidents.yaml``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from tysiac_spec import load_ruleset
from tysiac_spec.bots import HeuristicBot, RandomBot
from tysiac_spec.commands.play import run_match
from tysiac_spec.engine import Game, parse_action
from tysiac_spec.engine.actions import Action, DeclareMarriage, Incident
from tysiac_spec.engine.record import Record
from tysiac_spec.engine.replay import replay
from tysiac_spec.errors import IllegalActionError, NotationError, RecordError, RulesetError
from tysiac_spec.scenarios import load_scenarios, run_file
from tysiac_spec.transcript import transcript

HOUSE = Path(__file__).parent.parent / "examples" / "house"
INCIDENTS = HOUSE / "table-incidents.yaml"
HANDS = {1: "AH KH QH TH AS KS TS", 2: "9H 9S 9D 9C JS JH QS", 0: "KD QD JD AD AC TC KC"}
TALON = ["QC JC TD"]


def _game(ruleset: str | Path = INCIDENTS, players: int = 3) -> Game:
    game = Game(load_ruleset(ruleset), players=players, seed=0)
    if players == 3:
        game.start_deal(hands=HANDS, talons=TALON, dealer=0)
    return game


def _do(game: Game, *texts: str) -> None:
    for text in texts:
        game.apply(parse_action(text, game.ruleset.deck))


def _bot_step(game: Game, bots: dict[int, RandomBot]) -> None:
    p = game.current_player
    game.apply(bots[p].choose(game.view(p), game.legal_actions()))


def _house(tmp_path: Path, incidents: str, extra: str = "") -> Path:
    house = tmp_path / "incidents.yaml"
    house.write_text(
        f"id: incidents\nkind: house\nextends: pl-standard\nname: {{en: incidents}}\n"
        f"deal:\n  incidents:\n{incidents}{extra}",
        encoding="utf-8",
    )
    return house


def test_shipped_scenarios_pass() -> None:
    results = run_file(load_scenarios(HOUSE / "scenarios" / "table-incidents.yaml"))
    assert [r.status for r in results] == ["passed"] * 6


def test_misdeal_charges_the_dealer_and_deals_again() -> None:
    game = _game()
    hands = game.deal.hands
    game.incident("misdeal")  # the dealer is named by the rule (`who: dealer`)
    assert game.scores == [-20, 0, 0]
    assert game.deal.dealer == 0 and game.deal.hands != hands and game.deal_scores == []
    assert game.history == ["incident misdeal 0"]
    assert [(e.kind, e.player, e.value, e.text) for e in game.events] == [
        ("incident.misdeal", 0, -20, "misdeal: player 0 −20"),
        ("redeal", 0, None, "misdeal: dealt again"),
    ]


def test_exposed_card_passes_the_deal_on() -> None:
    game = _game()
    game.incident("exposed_card", 0)
    assert game.scores == [-120, 0, 0] and game.deal.dealer == 1 and game.current_player == 2


def test_incidents_are_never_legal_actions() -> None:
    game = _game()
    assert all(not isinstance(a, Incident) for a in game.legal_actions())
    assert [str(a) for a in game.legal_actions()] == ["bid 100"]


def test_talon_look_shares_the_bid_between_the_opponents() -> None:
    # No declarer yet: the two other players share 120 (60 each); the declarer's opponents
    # are the defenders, a defender's the declarer.
    game = _game()
    _do(game, "bid 100", "bid 120", "incident talon_look 0")
    assert game.scores == [-120, 60, 60] and game.phase == "auction" and game.current_player == 0
    game = _game()
    _do(game, "bid 100", "pass", "pass", "incident talon_look 1")
    assert game.scores == [50, -100, 50] and game.phase == "exchange"
    gains = [(e.player, e.value) for e in game.events if e.kind == "incident.gain"]
    assert gains == [(2, 50), (0, 50)]  # in turn order after the dealer


def test_opponents_each_gain_the_whole_penalty_and_shares_round_down(tmp_path: Path) -> None:
    each = _house(tmp_path, "    - {kind: showing_hand, penalty: 'if declarer then bid else 15', to: opponents, "
                            "effect: play_on}\n")
    game = _game(each)
    _do(game, "bid 100", "pass", "pass", "incident showing_hand 1")
    assert game.scores == [100, -100, 100]
    _do(game, "incident showing_hand 2")  # a defender: 15, all of it to the declarer
    assert game.scores == [100, -85, 85]
    share = _house(tmp_path, "    - {kind: showing_hand, penalty: '25', to: opponents_share, effect: play_on}\n")
    game = _game(share)
    game.incident("showing_hand", 0)  # 25 between two opponents: 12 each, rounded down
    assert game.scores == [-25, 12, 12]


def test_redeal_dealer_follows_the_deal_rule_when_the_incident_names_none(tmp_path: Path) -> None:
    house = _house(tmp_path, "    - {kind: misdeal, who: dealer}\n", "  redeal_dealer: next\n")
    game = _game(house)
    game.incident("misdeal")
    assert game.scores == [0, 0, 0] and game.deal.dealer == 1
    assert [e.kind for e in game.events] == ["incident.misdeal", "redeal"]


@pytest.mark.parametrize(
    ("ruleset", "kind", "player", "message"),
    [
        ("pl-standard", "misdeal", 0,
         "`incident misdeal 0` cannot be called: the ruleset has no rule for it (`deal.incidents` lists none)"),
        (INCIDENTS, "revoke", 0, "the ruleset has no rule for it (`deal.incidents` lists `misdeal`, "
         "`exposed_card`, `talon_look`, `showing_hand`)"),
        (INCIDENTS, "misdeal", 2, "it is charged to the dealer, player 0 (`who: dealer`)"),
        (INCIDENTS, "talon_look", 3, "player 3 does not take part in the deal (active: [0, 1, 2])"),
        (INCIDENTS, "talon_look", None, "`incident talon_look` cannot be called: name the player who committed it"),
        # a seat is an int: not a bool (True == 1 in Python), not a text
        (INCIDENTS, "showing_hand", True,
         "`incident showing_hand` cannot be called: the player must be a seat number, an int (got bool True)"),
        (INCIDENTS, "showing_hand", "1",
         "`incident showing_hand` cannot be called: the player must be a seat number, an int (got str '1')"),
    ],
)
def test_a_refused_incident_leaves_the_game_unchanged(
    ruleset: str | Path, kind: str, player: int | None, message: str
) -> None:
    game = _game(ruleset)
    before = game.snapshot()
    with pytest.raises(IllegalActionError) as info:
        game.incident(kind, player)
    assert info.value.diagnostic.code == "incident.refused"
    assert message in info.value.diagnostic.message
    assert game.snapshot() == before and game.events == []


def test_the_sitter_cannot_be_charged() -> None:
    # Four players: the dealer sits out (pl-standard's default), so he commits no talon look.
    game = _game(players=4)
    dealer = game.deal.dealer
    with pytest.raises(IllegalActionError, match="does not take part in the deal"):
        game.incident("talon_look", dealer)


def test_an_incident_survives_save_and_replay(tmp_path: Path) -> None:
    copy = tmp_path / "table-incidents.yaml"  # a record names a ruleset file in its folder or below
    copy.write_text(INCIDENTS.read_text(encoding="utf-8"), encoding="utf-8")
    game = Game(load_ruleset(copy), players=3, seed=5)
    bots = {p: RandomBot(p) for p in range(3)}
    game.incident("misdeal")
    for _ in range(4):
        _bot_step(game, bots)
    game.incident("showing_hand", 1)
    game.incident("exposed_card")
    while len(game.deal_scores) < 2 and not game.is_over:
        _bot_step(game, bots)
    path = tmp_path / "game.json"
    path.write_text(game.record.to_json(), encoding="utf-8")
    again = replay(Record.read(path))
    assert [h.split()[1] for h in again.history if h.startswith("incident")] == [
        "misdeal", "showing_hand", "exposed_card",
    ]
    assert again.history == game.history and again.scores == game.scores and again.events == game.events
    text = transcript(Record.read(path))
    assert "  incident: misdeal by P" in text and "  incident: showing hand by P1" in text


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("incident revoke 0", "`actions[1]` `incident revoke 0`: unknown incident `revoke`"),
        ("incident misdeal 3", "`actions[1]` `incident misdeal 3`: the player must be a seat from 0 to 2"),
        ("incident misdeal -1", "the player must be a seat from 0 to 2"),
        ("incident misdeal 0 1", "is not a table incident: expected `incident KIND PLAYER`"),
    ],
)
def test_a_bad_incident_entry_is_refused_on_load(entry: str, message: str) -> None:
    record = Game(load_ruleset(INCIDENTS), players=3, seed=0).record
    data = json.loads(record.to_json())
    data["actions"] = ["bid 100", entry]
    with pytest.raises(RecordError) as info:
        Record.from_json(json.dumps(data))
    assert info.value.diagnostic.code == "record.incident"
    assert message in info.value.diagnostic.message


def test_an_incident_the_ruleset_lacks_is_refused_on_replay() -> None:
    record = Game(load_ruleset("pl-standard"), players=3, seed=0).record
    data = json.loads(record.to_json())
    data["actions"] = ["incident talon_look 1"]
    with pytest.raises(RecordError) as info:
        replay(Record.from_json(json.dumps(data)))
    assert info.value.diagnostic.code == "record.action"
    assert "the ruleset has no rule for it" in info.value.diagnostic.message


def test_incident_text_round_trips() -> None:
    deck = load_ruleset("pl-standard").deck
    action = parse_action("Incident Talon_Look 2", deck)
    assert action == Incident("talon_look", 2) and str(action) == "incident talon_look 2"
    assert parse_action(str(action), deck) == action


@pytest.mark.parametrize(
    ("incidents", "code", "message"),
    [
        ("    - {kind: misdeal}\n    - {kind: misdeal, penalty: '10'}\n", "deal.incident-twice",
         "`deal.incidents` has two rules for the incident `misdeal` (entries 0 and 1, counted from 0)"),
        ("    - {kind: showing_hand, effect: play_on, dealer: next}\n", "deal.incident-inert",
         "`deal.incidents[0].dealer` is set, but the incident `showing_hand` is played on"),
        ("    - {kind: talon_look, to: opponents}\n", "deal.incident-inert",
         "`deal.incidents[0].to` hands the penalty on, but the incident `talon_look` has no `penalty`"),
    ],
)
def test_validation(tmp_path: Path, incidents: str, code: str, message: str) -> None:
    with pytest.raises(RulesetError) as info:
        load_ruleset(_house(tmp_path, incidents))
    found = [(d.code, d.message) for d in info.value.diagnostics]
    assert any(c == code and message in m for c, m in found), found


def test_bots_play_the_house_rule_without_incidents() -> None:
    # The incidents are off the bots' path: a seeded random match ends as under pl-standard
    # rules, with no incident in its history.
    game = Game(load_ruleset(INCIDENTS), players=3, seed=11)
    bots = {p: RandomBot(p) for p in range(3)}
    while not game.is_over and len(game.deal_scores) < 5:
        _bot_step(game, bots)
    assert len(game.deal_scores) == 5
    assert not any(h.startswith("incident") for h in game.history)


# ----------------------------------------------------------------------------- revokes

REVOKE = HOUSE / "revoke-penalty.yaml"
TO_TRICK_1 = ["bid 100", "pass", "pass", "give JC to 2", "give QC to 0", "contract 100", "play AS"]


def test_revoke_scenarios_pass() -> None:
    results = run_file(load_scenarios(HOUSE / "scenarios" / "revoke-penalty.yaml"))
    assert [r.status for r in results] == ["passed"] * 3


def test_a_revoke_is_refused_by_default() -> None:
    game = _game("pl-standard")
    _do(game, *TO_TRICK_1)
    assert game.playable_actions() == game.legal_actions()
    with pytest.raises(IllegalActionError, match="must follow spades"):
        _do(game, "play 9H")


def test_playable_actions_add_the_revokes_after_the_legal_plays() -> None:
    game = _game(REVOKE)
    _do(game, *TO_TRICK_1)
    assert [str(a) for a in game.legal_actions()] == ["play QS", "play JS", "play 9S"]
    assert [str(a) for a in game.playable_actions()] == [
        "play QS", "play JS", "play 9S", "play JH", "play 9H", "play 9D", "play JC", "play 9C",
    ]
    _do(game, "play 9H")
    assert game.deal.revokes == ((2, game.ruleset.deck.parse("9H"), 100),)
    last = game.events[-1]
    assert (last.kind, last.player, last.value, last.text) == (
        "revoke", 2, -100, "revoke by player 2: 9H (must follow spades), −100 at the deal's end",
    )
    assert game.scores == [0, 0, 0]  # paid at the deal's end


def _lead_rule_house(tmp_path: Path, exempt: bool) -> Path:
    house = tmp_path / f"lead-{exempt}.yaml"
    house.write_text(
        "id: lead\nkind: house\nextends: pl-standard\nname: {en: lead}\n"
        "play:\n  lead_after_marriage: trump\n"
        f"  revoke: {{handling: penalise, penalty: '50', exempt_lead_rule: {str(exempt).lower()}}}\n",
        encoding="utf-8",
    )
    return house


@pytest.mark.parametrize("exempt", [True, False])
def test_the_lead_after_a_marriage_is_exempt_or_a_revoke(tmp_path: Path, exempt: bool) -> None:
    # Player 1 declares hearts (trump) and wins the trick; his next lead must be a trump.
    game = _game(_lead_rule_house(tmp_path, exempt))
    _do(game, *TO_TRICK_1[:-1], "play KH marriage", "play 9H", "play KD")
    assert game.current_player == 1 and [str(a) for a in game.legal_actions()] == [
        "play AH", "play TH", "play QH",
    ]
    if exempt:
        assert game.playable_actions() == game.legal_actions()
        with pytest.raises(IllegalActionError, match="after a marriage the lead must be a trump"):
            _do(game, "play AS")
    else:
        assert "play AS" in [str(a) for a in game.playable_actions()]
        _do(game, "play AS")
        assert [(e.kind, e.value) for e in game.events] == [("revoke", -50)]


def test_a_revoke_survives_save_and_replay() -> None:
    # a stacked deal is not reproduced by its record: a seeded game, with the first revoke
    # the table can make played
    seeded = Game(load_ruleset(REVOKE), players=3, seed=3)
    bots = {p: RandomBot(p) for p in range(3)}
    extra: list[Action] = []
    while not extra:
        _bot_step(seeded, bots)
        extra = [a for a in seeded.playable_actions() if a not in seeded.legal_actions()]
    seeded.apply(extra[0])
    while not seeded.deal_scores:
        _bot_step(seeded, bots)
    again = replay(Record.from_json(seeded.record.to_json()))
    assert again.history == seeded.history and again.scores == seeded.scores
    assert again.events == seeded.events
    kinds = [e.kind for e in again.events]
    assert kinds[0] == "revoke" and "revoke.penalty" in kinds


@pytest.mark.parametrize(
    ("revoke", "code", "message"),
    [
        ("{handling: penalise}", "play.revoke-penalty",
         "`play.revoke.handling` is `penalise`, but `play.revoke.penalty` is not set"),
        ("{penalty: '120'}", "play.inert-revoke",
         "`play.revoke.penalty` is set, but revokes are refused (`play.revoke.handling: refuse`)"),
        ("{handling: refuse, exempt_lead_rule: false}", "play.inert-revoke",
         "`play.revoke.exempt_lead_rule` is set, but revokes are refused"),
    ],
)
def test_revoke_validation(tmp_path: Path, revoke: str, code: str, message: str) -> None:
    house = tmp_path / "revoke.yaml"
    house.write_text(
        f"id: r\nkind: house\nextends: pl-standard\nname: {{en: r}}\nplay:\n  revoke: {revoke}\n",
        encoding="utf-8",
    )
    with pytest.raises(RulesetError) as info:
        load_ruleset(house)
    found = [(d.code, d.message) for d in info.value.diagnostics]
    assert any(c == code and message in m for c, m in found), found


def test_bots_never_revoke() -> None:
    game = Game(load_ruleset(REVOKE), players=3, seed=11)
    bots = {p: RandomBot(p) for p in range(3)}
    while not game.is_over and len(game.deal_scores) < 5:
        _bot_step(game, bots)
    assert not [e for e in game.events if e.kind.startswith("revoke")]


# ----------------------------------------------------------------- marriage from the hand

FROM_HAND = HOUSE / "marriage-from-hand.yaml"


def test_marriage_from_hand_scenarios_pass() -> None:
    results = run_file(load_scenarios(HOUSE / "scenarios" / "marriage-from-hand.yaml"))
    assert [r.status for r in results] == ["passed"] * 3


def test_marriage_text_round_trips() -> None:
    deck = load_ruleset("pl-standard").deck
    assert parse_action("marriage H", deck) == DeclareMarriage("hearts")
    assert str(parse_action("Marriage Spades", deck)) == "marriage spades"
    with pytest.raises(NotationError, match="a suit of the pack"):
        parse_action("marriage X", deck)


def test_a_marriage_from_the_hand_is_refused_when_declared_by_a_lead() -> None:
    game = _game("pl-standard")
    _do(game, *TO_TRICK_1[:-1])
    assert "marriage hearts" not in [str(a) for a in game.legal_actions()]
    with pytest.raises(IllegalActionError, match="a marriage is declared by leading one of its cards"):
        _do(game, "marriage hearts")


def test_a_marriage_from_the_hand_scores_and_sets_trump_like_a_led_one() -> None:
    # one home: the same points, trump and trick note as "play KH marriage" in pl-standard
    led = _game("pl-standard")
    _do(led, *TO_TRICK_1[:-1], "play KH marriage")
    told = _game(FROM_HAND)
    _do(told, *TO_TRICK_1[:-1], "marriage hearts")
    for game in (led, told):
        assert (game.deal.trump, game.deal.marriages, game.deal.declared, game.deal.marriage_trick) == (
            "hearts", {1: 100}, [(1, "hearts")], 0,
        )
    assert told.current_player == 1 and not told.deal.trick


def test_heuristic_bots_announce_marriages_and_the_record_replays() -> None:
    rules = load_ruleset(FROM_HAND)
    game = Game(rules, players=3, seed=4)
    bots = {p: HeuristicBot(p, game.form) for p in range(3)}
    while not game.is_over and len(game.deal_scores) < 8:
        p = game.current_player
        game.apply(bots[p].choose(game.view(p), game.legal_actions()))
    announced = [h for h in game.history if h.startswith("marriage ")]
    assert announced and not any(h.endswith(" marriage") for h in game.history)
    again = replay(Record.from_json(game.record.to_json()))
    assert again.scores == game.scores and again.history == game.history


def test_the_terminal_lets_a_revoke_stand_and_leaves_incidents_to_python(tmp_path: Path) -> None:
    game = _game(REVOKE)
    _do(game, *TO_TRICK_1)
    out = io.StringIO()
    feed = iter(["incident talon_look 2", "play 9H", "quit"])

    def read(prompt: str) -> str:
        try:
            line = next(feed)
        except StopIteration:
            raise EOFError from None
        out.write(prompt + line + "\n")
        return line

    console = Console(file=out, width=200, highlight=False, soft_wrap=True)
    run_match(game, seat=2, bots="random", seed=1, save_to=tmp_path / "g.json", console=console, read_line=read)
    text = out.getvalue()
    assert "a table incident is called from Python (`Game.incident`)" in text
    assert "P2: play 9H" in text
    assert [(p, str(c), n) for p, c, n in game.deal.revokes] == [(2, "9H", 100)]
    assert "incident" not in " ".join(game.history)


@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_bots_announce_before_the_first_trick_and_the_record_replays(bot: str) -> None:
    rules = load_ruleset(FROM_HAND, options={"announcement_timing": "before_play"})
    game = Game(rules, players=3, seed=4)
    bots = {p: HeuristicBot(p, game.form) if bot == "heuristic" else RandomBot(p) for p in range(3)}
    phases = set()
    while not game.is_over and len(game.deal_scores) < 8:
        p = game.current_player
        phases.add(game.phase)
        game.apply(bots[p].choose(game.view(p), game.legal_actions()))
    assert "marriages" in phases
    assert any(h.startswith("marriage ") for h in game.history)
    again = replay(Record.from_json(game.record.to_json()))
    assert again.scores == game.scores and again.history == game.history


def test_nothing_to_announce_goes_straight_to_play() -> None:
    # Without a marriage in any hand the phase `marriages` is skipped.
    rules = load_ruleset(FROM_HAND, options={"announcement_timing": "before_play"})
    game = Game(rules, players=3, seed=0)
    game.start_deal(hands={1: "AH KH JH TH AS KS TS", 2: "9H 9S 9D 9C JS QH QS", 0: "KD JD AD AC TC KC TD"},
                    talons=["QC JC QD"], dealer=0)
    _do(game, "bid 100", "pass", "pass", "give QC to 2", "give JC to 0", "contract 100")
    assert game.phase == "play" and game.current_player == 1


@pytest.mark.parametrize(("to", "gained"), [("opponents_share", 120), ("opponents", 120), ("none", 0)])
def test_partners_pay_and_gain_an_incident_penalty_as_a_side(tmp_path: Path, to: str, gained: int) -> None:
    # fixed partnerships (seats 0+2 against 1+3): a look at the talon by seat 2 costs his
    # side 120 and the other side, standing as one, gains it once (not once per seat)
    (tmp_path / "partners-four.yaml").write_text(
        (HOUSE / "partners-four.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    house = tmp_path / "partners-incident.yaml"
    house.write_text(
        "id: partners-incident\nkind: house\nextends: partners-four.yaml\n"
        f"name: {{en: partners incident}}\ndeal:\n  incidents:\n"
        f"    - {{kind: talon_look, who: player, penalty: '120', to: {to}, effect: play_on}}\n",
        encoding="utf-8",
    )
    game = Game(load_ruleset(house), players=4, seed=0)
    game.incident("talon_look", 2)
    assert game.scores == [-120, gained, -120, gained]


def test_a_record_may_leave_the_dealer_unnamed_as_python_may() -> None:
    # `incident misdeal` without a player: the dealer, for a rule with `who: dealer`, as
    # Game.incident("misdeal") (None); refused for a rule naming the offender
    incident = parse_action("incident misdeal", load_ruleset(INCIDENTS).deck)
    assert incident == Incident("misdeal", None) and str(incident) == "incident misdeal"
    game = _game()
    game.apply(incident)
    assert game.history == ["incident misdeal 0"]  # the history names him
    with pytest.raises(IllegalActionError, match="name the player who committed it"):
        _game().apply(parse_action("incident talon_look", load_ruleset(INCIDENTS).deck))
    data = json.loads(Game(load_ruleset(INCIDENTS), players=3, seed=0).record.to_json())
    data["actions"] = ["incident misdeal"]
    assert Record.from_json(json.dumps(data)).actions == ("incident misdeal",)
    data["actions"] = ["incident misdeal 0 1"]
    with pytest.raises(RecordError, match="expected `incident KIND PLAYER`"):
        Record.from_json(json.dumps(data))
