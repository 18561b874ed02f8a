"""Every rule field of the model has an effect, one field at a time (issue 14).

For each field path of the model (:func:`test_docs.all_model_paths`) a house file extends a
shipped ruleset and changes ONLY that field to a valid value other than the base's; the
rule book's lines for that field must then differ from the base's book and contain the new
value in words.  A field that applies only with a companion (a mechanism switched on, the
field that makes it a rule: ``fields.SHOWN_WHEN_SET`` / ``SHOWN_WHEN_IS``, a list entry to
change) is compared against a base holding the companion alone.  A group (``deal.cut``)
is covered by its fields.  A field no one-field case can be built for is listed in
:data:`NOT_ONE_FIELD` with the reason; the test fails for a field neither covered nor listed.
"""

from __future__ import annotations

import copy
import dataclasses
import re
import typing
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_docs import ALL_ON, all_model_paths

from tysiac_spec import RulesetError, load_ruleset
from tysiac_spec.docs import fields
from tysiac_spec.docs.book import build_book, render_book
from tysiac_spec.ruleset.model import Formula, Ruleset

# about 15 s: in CI's full run, out of the quick loop (`pytest -m "not slow"`, under a minute)
pytestmark = pytest.mark.slow

BASES = ("ru-online", "pl-standard", "ru-classic")
"""The shipped rulesets a case extends, tried in order (ru-online has every optional
mechanism as a table option; pl-standard has give-each exchange; ru-classic the 4-player
sitter options that a table of partners deletes)."""

ALL_ON_DOC: dict[str, Any] = yaml.safe_load(ALL_ON.read_text(encoding="utf-8"))

FORMULAS: dict[str, tuple[str, ...]] = {
    # new values for formula fields, valid in their DSL context (docs/dsl.md)
    "players.N.sitter.score": ("60",),
    "auction.max_bid": ("120 + marriages(hand)", "300"),
    "auction.may_bid": ("player.score >= 0",),
    "contract.max": ("bid + 60", "360"),
    "contract.allowed": ("contract <= 300",),
    "contract.forfeit.declarer": ("-bid", "-120"),
    "contract.forfeit.defender": ("60", "40"),
    "marriages.value": ("if first then value * 2 else value",),
    "scoring.made": ("points > contract", "points >= contract + 10"),
    "scoring.declarer": ("-contract * 2", "-contract - 10"),
    "scoring.defender": ("points + 10", "round5(points) + 10"),
    "play.revoke.penalty": ("bid", "60"),
    "deal.incidents.penalty": ("20", "bid"),
    "deal.redeals.when": ("count(hand, jack) == 4", "count(hand, ace) == 4"),
    "match.rules.when": ("player.score == 555", "player.score == 444"),
    "match.rules.then": ("player.score = 0", "player.score = 100"),
    "contract.kinds.goal": ("tricks == 0", "others_tricks == 0"),
    "contract.kinds.declarer": ("if made then contract else -contract", "contract"),
    "contract.kinds.defender": ("0", "points"),
    "auction.all_pass_play.score": ("-round_to(card_points, 10)", "-card_points - 10"),
    "talon.rebuy.price": ("bid + 20", "300"),
}

TEXTS: dict[str, tuple[Any, ...]] = {
    # new values for fields holding a text per language
    "contract.kinds.name": ({"en": "Misère", "ru": "Мизер"},),
}

STOCK = {"options": {"two_player_exchange": {"$delete": True}},
         "players": {2: {"stock": 6, "talons": [], "hand_size": 9, "talon": {"take": "all", "exchange": "none"}}}}
PARTNERS = {"options": {"four_player_sitter": {"$delete": True}, "sitter_score": {"$delete": True}},
            "players": {4: {"active": 4, "sitter": {"$delete": True}, "hand_size": 6, "talons": [],
                            "talon": {"exchange": "none"}}}}

COMPANIONS: dict[str, dict[str, Any]] = {
    # a field that is a rule only with another field set: that field, set in base and house
    "players.N.stock_trump": STOCK,
    "players.N.stock_duties": STOCK,
    "players.N.partnerships": PARTNERS,
    "talon.hand_out": {"players": {3: {"talons": [2, 1]}}},
    "deal.cut": {"deal": {"cut": {"enabled": True}}},
    "play.revoke": {"play": {"revoke": {"handling": "penalise", "penalty": "bid"}}},
    "play.revoke.handling": {"play": {"revoke": {"penalty": "bid"}}},
    "play.defenders_may_discard": {"play": {"must_overtrump": True}},
    "auction.raise_by": {"options": {"jump_bids": {"$delete": True}}},
    "auction.dealer_exempt": {"options": {"bidding_in_minus": {"$delete": True}},
                              "auction": {"all_pass": "dealer_plays", "may_bid": "player.score >= 0"}},
    "deal.redeals": {"deal": {"redeals": [
        {"id": "four-nines", "when": "count(hand, nine) == 4", "who": "holder", "timing": "after_deal",
         "mandatory": False, "penalty": 0}]}},
    "deal.incidents": {"deal": {"incidents": [
        {"kind": "misdeal", "who": "dealer", "penalty": "20", "effect": "redeal"}]}},
    "match.counters": {"match": {"counters": [{"id": "tally", "initial": 0, "description": "A counter"}]}},
    "contract.kinds": {"contract": {"kinds": [{"id": "misere", "value": 120}]}},
    # a kind whose play may stop once decided reads nothing the rest of play changes (contract.kind-ends)
    "contract.kinds.ends_when_decided": {"contract": {"kinds": [
        {"id": "misere", "value": 120, "goal": "tricks == 0", "declarer": "if made then contract else -contract",
         "defender": "0"}]}},
    "match.rules": {"options": {"samosval": {"$delete": True}}, "match": {"rules": [
        {"id": "r", "when": "player.score == 555", "then": "player.score = 0"}]}},
    # issue 17: all-pass play needs its rules (auction.all-pass-play), a sale its price (talon.rebuy)
    "auction.all_pass_play": {"auction": {"all_pass": "play", "all_pass_play": {"score": "-card_points"}}},
    "talon.rebuy": {"talon": {"rebuy": {"enabled": True, "price": "240"}}},
    # session 11: tied scores set below the target need a tie that raises it (match.tie-score)
    "match.finishing.tie_score": {"match": {"finishing": {"tie_raise": 500}}},
}

PER_FORM = {"talon.hand_out", "talon.leftover.to", "talon.leftover.discards_to", "talon.leftover.cards"}
"""Section fields set for one form (``players.3.talon``): another form cannot play them (the
cards set aside: only a form that discards, the 2-player one)."""

PLAYERS = {"players.N.sitter": 4, "players.N.stock_": 2, "players.N.partnerships": 4, "talon.leftover": 2}
"""The player count whose form a ``players.N`` field is set for (by path prefix); 3 otherwise."""

_PACK = (
    "the cards of a form add up to the pack (`table.card-count`: hands + talons + left out + "
    "stock), so it changes only with another of them; shown in PAIRS"
)
_EVEN = (
    "the hands must come out even after the exchange (`table.exchange`: the talon taken equals "
    "the cards given to each opponent times the declarer's opponents plus those buried), so it "
    "changes only with the talon and the hand size; shown in PAIRS"
)

NOT_ONE_FIELD: dict[str, str] = {
    "players.N.hand_size": _PACK,
    "players.N.left_out": _PACK,
    "players.N.stock": _PACK + " (a stock replaces the talon and its exchange)",
    "talon.give_count": _EVEN,
    "talon.discard_count": _EVEN,
    "play.revoke.handling": (
        "`penalise` needs `play.revoke.penalty` (`play.revoke-penalty`), and a penalty while "
        "revokes are refused is refused as inert (`play.inert-revoke`): the two change together; "
        "shown in PAIRS (the other revoke fields are each changed alone against a base that penalises)"
    ),
    "special.dark.when": "one value only (`before_auction`): there is no other value to set",
    "talon.rebuy.enabled": (
        "a sale needs its price (`talon.rebuy`: `enabled` without `price`, or a price while it may not "
        "be bought, is refused): the two change together; shown in PAIRS"
    ),
}
"""Field paths no one-field case is built for, each with the reason."""


def _leaf_paths() -> list[str]:
    """The model paths holding a value (a group such as ``deal.cut`` holds fields)."""
    out = []
    for path, tp in all_model_paths():
        args = (tp, *typing.get_args(tp))
        if any(isinstance(a, type) and dataclasses.is_dataclass(a) and a is not Formula for a in args):
            continue
        out.append(path)
    return out


LEAVES = _leaf_paths()


def _model(path: str) -> str:
    return fields.model_path(path)


def _doc_parts(path: str, n: int) -> list[str | int]:
    """The document path of a field for the form of ``n`` players (list fields: entry 0)."""
    parts: list[str | int] = []
    names = path.split(".")
    if names[0] == "players":
        parts = ["players", n]
        names = names[2:]
    elif path in PER_FORM:
        parts = ["players", n]
    for name in names:
        parts.append(name)
        if name in ("redeals", "incidents", "counters", "rules", "kinds") and parts[-2] in (
            "deal", "match", "contract"
        ):
            parts.append(0)
    return parts


def _set(doc: dict[Any, Any], parts: list[str | int], value: Any) -> None:
    node: Any = doc
    for part in parts[:-1]:
        if isinstance(part, int) and isinstance(node, list):
            node = node[part]
        else:
            node = node.setdefault(part, {})
    node[parts[-1]] = value


def _merge(base: dict[Any, Any], over: Mapping[Any, Any]) -> dict[Any, Any]:
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _companions(path: str, base: Ruleset) -> dict[str, Any]:
    """What makes ``path`` a rule in ``base``: the mechanisms around it switched on, the
    field it applies with, the list entry holding it."""
    out: dict[str, Any] = {}
    names = path.split(".")
    for k in range(len(names) - 1, 0, -1):
        prefix = ".".join(names[:k])
        if prefix in COMPANIONS and names[-1] != "enabled" and path not in COMPANIONS:
            out = _merge(out, COMPANIONS[prefix])
    if path in COMPANIONS:
        out = _merge(out, COMPANIONS[path])
    # an enclosing mechanism that is off: switched on
    if names[0] != "players" and names[-1] != "enabled":
        for k in range(2, len(names)):
            group = ".".join(names[:k])
            form = base.form(max(base.player_counts))
            obj = fields.value_at(form, group)
            if hasattr(obj, "enabled") and not obj.enabled:
                enable: dict[str, Any] = {}
                _set(enable, [*names[:k], "enabled"], True)
                out = _merge(out, enable)
    model_path = _model(path)
    if model_path in fields.SHOWN_WHEN_IS:
        other, values = fields.SHOWN_WHEN_IS[model_path]
        n = max(base.player_counts)
        if all(fields.value_at(base.form(k), other) not in values for k in base.player_counts):
            value = "give_each" if "give_each" in values else "discard"
            patch: dict[str, Any] = {}
            _set(patch, ["players", n, *other.split(".")], value)
            out = _merge(out, patch)
    if model_path in fields.SHOWN_WHEN_SET and names[0] != "players":
        other = fields.SHOWN_WHEN_SET[model_path]
        if all(fields.value_at(base.form(n), other) is None for n in base.player_counts):
            patch = {}
            _set(patch, other.split("."), 1)  # auction.forced_seat: the player after the dealer
            out = _merge(out, patch)
    return out


def _all_on_value(path: str) -> Any:
    """The value tests/data/docs/all-on.yaml gives the field, or ``None``."""
    names = path.split(".")
    if names[0] == "players":
        for n in (3, 2):
            got = _all_on_at([n, *names[2:]])
            if got is not None:
                return got
        return None
    return _all_on_at(names)


def _all_on_at(parts: list[Any]) -> Any:
    node: Any = ALL_ON_DOC if not isinstance(parts[0], int) else ALL_ON_DOC.get("players", {})
    for part in parts:
        if isinstance(node, list):
            node = node[0] if node else None
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    if isinstance(node, list) and node and isinstance(node[0], Mapping):
        return None
    return node


def _candidates(path: str, tp: Any, current: Any) -> Iterator[Any]:
    """Values to try for the field, none equal to ``current`` (the base's value)."""
    seen: list[Any] = []

    cur = current.text if isinstance(current, Formula) else current
    cur = list(cur) if isinstance(cur, tuple) else cur

    def fresh(value: Any) -> bool:
        if value == cur or value in seen:
            return False
        seen.append(value)
        return True

    if path in FORMULAS:
        for text in FORMULAS[path]:
            if fresh(text):
                yield text
        return
    if path in TEXTS:
        for text in TEXTS[path]:
            if fresh(text):
                yield text
        return
    on = _all_on_value(path)
    if on is not None and not isinstance(on, Mapping) and fresh(on):
        yield on
    args = typing.get_args(tp)
    literals = [a for a in (tp, *args) if typing.get_origin(a) is typing.Literal]
    for lit in literals:
        for value in typing.get_args(lit):
            if fresh(value):
                yield value
    if tp is bool:
        if fresh(not current):
            yield not current
        return
    if tp is str or str in args:
        if fresh("other"):
            yield "other"
    if tp is int or int in args:
        cur = current if isinstance(current, int) else 0
        for value in (cur + 1, cur + 10, cur * 2, cur - 1, 1, 2, 3, 5, 10, 100, 360, 0):
            if fresh(value):
                yield value
    if typing.get_origin(tp) is tuple:
        for value in ([2, 1], [3], [1, 1], ["nine", "jack"], ["king", "jack"]):
            if fresh(value):
                yield value
    if typing.get_origin(tp) is not None and "Mapping" in str(tp):
        values = dict(current)
        first = next(iter(values))
        values[first] = values[first] + 20
        yield values
    if type(None) in args and current is not None and fresh(None):
        yield None


def _write(tmp: Path, name: str, parent: str, doc: Mapping[str, Any]) -> Path:
    text = yaml.safe_dump({"id": name, "kind": "house", "extends": parent, "name": {"en": name}, **doc})
    path = tmp / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


_PATH = re.compile(r"`([A-Za-z_][A-Za-z0-9_.\[\]]*)`")


def field_lines(book: str, path: str) -> list[str]:
    """The rule book's lines for the field ``path`` (book field path, list indexes dropped):
    its own line cut before the path (label and value) and the deeper lines below it
    (per player count), up to the next field."""
    out: list[str] = []
    lines = book.splitlines()
    for i, line in enumerate(lines):
        shown = {re.sub(r"\[\d+\]", "", p) for p in _PATH.findall(line)}
        if path not in shown or not line.lstrip().startswith("- "):
            continue
        indent = len(line) - len(line.lstrip())
        out.append(line.split(" · `")[0].split(" (`")[0])
        for nxt in lines[i + 1:]:
            deeper = len(nxt) - len(nxt.lstrip()) > indent
            if not deeper or _PATH.search(nxt):
                break
            out.append(nxt)
    return out


def _value(rules: Ruleset, n: int, path: str) -> Any:
    """The value of the field in the form for ``n`` players (in a list: its first entry)."""
    obj: Any = rules.form(n)
    for part in _model(path).split("."):
        if isinstance(obj, tuple):
            obj = obj[0] if obj else None
        obj = getattr(obj, part, None)
    return obj


def _book(rules: Ruleset) -> str:
    return render_book(build_book(rules, lang="en"), "md")


@dataclasses.dataclass
class Case:
    base: str
    companions: dict[str, Any]
    value: Any
    before: list[str]
    after: list[str]
    words: str


def find_case(path: str, tmp: Path) -> Case | None:
    """The first shipped base and candidate value whose house file loads and changes the
    field's lines in the rule book."""
    tp = dict(all_model_paths())[path]
    for parent in BASES:
        shipped = load_ruleset(parent)
        companions = _companions(path, shipped)
        base_path = _write(tmp, f"{parent}-base", parent, companions)
        try:
            base = load_ruleset(str(base_path))
        except RulesetError:  # the companions do not fit this base: the next base
            continue
        counts = base.player_counts
        n = next((k for prefix, k in PLAYERS.items() if path.startswith(prefix)), 3)
        if n not in counts:
            continue
        before = field_lines(_book(base), path)
        current = _value(base, n, path)
        for value in _candidates(path, tp, current):
            doc = copy.deepcopy(companions)
            parts = _doc_parts(path, n)
            if parts[0] != "players" and path.split(".")[0] in ("deal", "match") and len(parts) > 2 \
                    and isinstance(parts[2], int):
                entries = doc[parts[0]][parts[1]]
                entries[0] = {**entries[0], parts[3]: value}
            else:
                _set(doc, parts, value)
            house_path = _write(tmp, f"{parent}-house", parent, doc)
            try:
                house = load_ruleset(str(house_path))
            except RulesetError:  # not valid alone in this base: the next value
                continue
            after = field_lines(_book(house), path)
            if after and after != before:
                new = _value(house, n, path)
                said = fields.words(house, _model(path), new, "en").words
                return Case(parent, companions, value, before, after, said)
    return None


@pytest.mark.parametrize("path", LEAVES)
def test_changing_one_field_changes_its_rule_in_the_book(path: str, tmp_path: Path) -> None:
    if path in NOT_ONE_FIELD:
        pytest.skip(NOT_ONE_FIELD[path])
    case = find_case(path, tmp_path)
    assert case is not None, f"no valid one-field change of {path} shows in the rule book"
    assert case.after != case.before
    assert any(case.words in line for line in case.after), (case.words, case.after)


def test_every_group_of_the_model_has_a_field_that_is_tested() -> None:
    groups = {p for p, _ in all_model_paths()} - set(LEAVES)
    assert groups
    for group in groups:
        assert any(leaf.startswith(group + ".") for leaf in LEAVES), group
    assert set(NOT_ONE_FIELD) <= set(LEAVES)


PAIRS: dict[str, tuple[str, dict[str, Any]]] = {
    # a field of NOT_ONE_FIELD with the fewest other fields it must change with: (base, house)
    "players.N.hand_size": ("ru-online", {"players": {3: {"hand_size": 6, "left_out": 3}}}),
    "players.N.left_out": ("ru-online", {"players": {3: {"hand_size": 6, "left_out": 3}}}),
    "players.N.stock": ("ru-online", STOCK),
    "talon.give_count": (
        "pl-standard", {"players": {3: {"hand_size": 6, "talons": [6], "talon": {"give_count": 2}}}}
    ),
    "talon.discard_count": ("ru-online", {
        "options": {"two_player_exchange": {"$delete": True}},
        "players": {2: {"hand_size": 9, "talons": [3, 3], "talon": {"exchange": "discard", "discard_count": 3}}},
    }),
    "play.revoke.handling": ("ru-online", {"play": {"revoke": {"handling": "penalise", "penalty": "bid"}}}),
    "talon.rebuy.enabled": ("ru-online", {"talon": {"rebuy": {"enabled": True, "price": "240"}}}),
}


@pytest.mark.parametrize("path", sorted(PAIRS))
def test_a_field_that_changes_only_with_another_changes_its_rule_in_the_book(path: str, tmp_path: Path) -> None:
    parent, doc = PAIRS[path]
    base = load_ruleset(parent)
    house = load_ruleset(str(_write(tmp_path, "pair", parent, doc)))
    before, after = field_lines(_book(base), path), field_lines(_book(house), path)
    assert after and after != before
    n = min(doc["players"]) if "players" in doc else 3
    said = fields.words(house, _model(path), _value(house, n, path), "en").words
    assert any(said in line for line in after), (said, after)


def test_every_field_is_changed_alone_or_listed_with_a_reason() -> None:
    assert set(NOT_ONE_FIELD) <= set(LEAVES)
    assert all(reason for reason in NOT_ONE_FIELD.values())
    assert set(PAIRS) <= set(NOT_ONE_FIELD)
