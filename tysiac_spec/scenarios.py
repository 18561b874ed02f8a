"""Executable examples of a ruleset: load a scenario file and run its scenarios.

A scenario file (``rulesets/scenarios/<ruleset-id>.yaml``, format in
``schemas/scenario.schema.json``) holds scenarios taken from the ruleset's sources:
a table (players, options), an optional starting match state, a stacked deal (or a
starting position in the middle of a deal, ``position:``, in position notation) and
steps — actions to apply (``do``), values to check (``expect``) and actions that must
be refused (``illegal``, the state left unchanged).

Loading checks the YAML, the JSON Schema and the meaning (known ruleset, cited source
ids, player counts, unique names, cards of the deck, action texts); every problem is a
:class:`~tysiac_spec.errors.Diagnostic` with ``file:line:col``, raised together in one
:class:`~tysiac_spec.errors.ScenarioError`.  Running never raises for a failing
scenario: each gives a :class:`Result` (``passed``, ``failed`` with the expected and
actual value per key, or ``error``).

Usage::

    from tysiac_spec.scenarios import load_scenarios, run_file
    for result in run_file(load_scenarios("rulesets/scenarios/pl-standard.yaml")):
        print(result.scenario.name, result.status)
"""

from __future__ import annotations

import dataclasses
import json
import re
import traceback
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

import jsonschema

from ._paths import RULESETS_DIR, SCHEMAS_DIR
from .errors import Diagnostic, IllegalActionError, ScenarioError, TysiacError
from .ruleset import Ruleset, load_ruleset, registry
from .ruleset._yaml import Mark, load_yaml_file, mark_at, to_plain
from .ruleset.model import no_form_message
from .ruleset.validate import schema_errors, sorted_diagnostics

__all__ = [
    "EXPECT_KEYS",
    "Mismatch",
    "Result",
    "Scenario",
    "ScenarioFile",
    "Step",
    "load_scenarios",
    "names_scenario_schema",
    "run_file",
    "run_scenario",
    "scenario_file_for",
    "scenario_schema",
    "shipped_scenario_files",
]

SCENARIOS_DIR = RULESETS_DIR / "scenarios"
"""Directory of the shipped scenario files (``<ruleset-id>.yaml``)."""

EXPECT_KEYS = (
    "phase", "current_player", "legal", "trump", "declarer", "contract", "trick_winner",
    "tricks", "talon_seen", "deal_scores", "scores", "counters", "events", "is_over", "winner",
)
"""The keys an ``expect`` step may check, in the order they are compared."""

Status = Literal["passed", "failed", "error"]


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a scenario.

    ``kind`` is ``do`` (apply ``actions`` in order), ``expect`` (compare ``expect``) or
    ``illegal`` (``actions[0]`` must be refused with ``error`` in its message);
    ``line`` is where the step was written (1-based), if known.
    """

    kind: Literal["do", "expect", "illegal"]
    actions: tuple[str, ...] = ()
    expect: Mapping[str, Any] = field(default_factory=dict)
    error: str | None = None
    line: int | None = None


@dataclass(frozen=True, slots=True)
class Scenario:
    """One executable example (see the module docstring); ``deal`` is ``None`` for the
    seed-0 shuffle, else ``{"dealer": k, "hands": {player: cards}, "talons": [cards]}``."""

    name: str
    description: str
    source: tuple[str, ...]
    cite: str | None
    players: int
    options: Mapping[str, Any]
    match: Mapping[str, Any] | None
    deal: Mapping[str, Any] | None
    steps: tuple[Step, ...]
    file: str | None = None
    line: int | None = None
    position: str | None = None
    """A starting position in position notation (:class:`~tysiac_spec.engine.position.Position`),
    in place of ``match`` and ``deal``; ``None``: none."""
    marks: Mapping[str, Mark] = field(default_factory=dict, compare=False, repr=False)
    """Where the set-up was written: ``match``, ``match.<field>``, ``deal``, ``deal.<field>``,
    ``position`` (file:line:col of the key), for an error setting the scenario up."""

    @property
    def location(self) -> str:
        """``file:line`` of the scenario's name (``<input>`` without a file)."""
        return f"{self.file or '<input>'}:{self.line}" if self.line else (self.file or "<input>")


@dataclass(frozen=True, slots=True)
class ScenarioFile:
    """A loaded, checked scenario file: the ruleset it tests and its scenarios."""

    path: str | None
    ruleset: Ruleset
    scenarios: tuple[Scenario, ...]


@dataclass(frozen=True, slots=True)
class Mismatch:
    """An expected value that differs from the actual one (``key`` as in ``expect``)."""

    key: str
    expected: Any
    actual: Any


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome of one scenario.

    ``status``: ``passed``; ``failed`` (``mismatches`` at step ``step``, 0-based, or
    ``message`` for an illegal step that was accepted or changed the state); ``error``
    (an action of a ``do`` step, the stacked deal or the match state was refused:
    ``message``).
    ``state`` is the game's state text where the scenario stopped; ``deal`` the deal the
    scenario started with, in deal notation (:class:`~tysiac_spec.engine.deal_notation.Deal`),
    which ``tysiac play --deal`` and a scenario's ``deal:`` take back (empty when the set-up
    was refused).
    """

    scenario: Scenario
    status: Status
    step: int | None = None
    mismatches: tuple[Mismatch, ...] = ()
    message: str = ""
    state: str = ""
    deal: str = ""

    @property
    def passed(self) -> bool:
        """Whether the scenario passed."""
        return self.status == "passed"

    def explain(self) -> str:
        """Plain text: the scenario, where it stopped, expected and actual values, the state."""
        sc = self.scenario
        lines = [f"{sc.name} ({sc.location}): {self.status}"]
        if self.step is not None:
            step = sc.steps[self.step]
            lines.append(f"  at step {self.step + 1}" + (f" (line {step.line})" if step.line else ""))
        if self.message:
            lines.append(f"  {self.message}")
        for m in self.mismatches:
            lines.append(f"  {m.key}: expected {json.dumps(m.expected, ensure_ascii=False)}")
            lines.append(f"  {' ' * len(m.key)}  actual   {json.dumps(m.actual, ensure_ascii=False)}")
        if self.deal:
            lines.append(f"  deal: {self.deal}")
        if sc.position:
            lines.append(f"  position: {sc.position}")
        if self.state:
            lines.append(f"  state: {self.state}")
        return "\n".join(lines)


# --------------------------------------------------------------------------- loading


@cache
def scenario_schema() -> dict[str, Any]:
    """The JSON Schema of a scenario file (draft 2020-12): ``schemas/scenario.schema.json``,
    its one home (``tysiac schema --scenario`` prints it).  Cached; do not mutate."""
    loaded: dict[str, Any] = json.loads(
        (SCHEMAS_DIR / "scenario.schema.json").read_text(encoding="utf-8"))
    return loaded


@cache
def _validator() -> Any:
    schema = scenario_schema()
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)


def _diag(code: str, message: str, doc: Any, path: tuple[str | int, ...], *, key: bool = False,
          hint: str | None = None) -> Diagnostic:
    mark: Mark | None = mark_at(doc, path, key=key)
    return Diagnostic(
        code, message, file=mark.file if mark else None, line=mark.line if mark else None,
        column=mark.column if mark else None, path=path, hint=hint,
    )


def shipped_scenario_files() -> list[Path]:
    """The shipped scenario files (``rulesets/scenarios/*.yaml``), sorted by name."""
    return sorted(SCENARIOS_DIR.glob("*.yaml")) if SCENARIOS_DIR.is_dir() else []


def scenario_file_for(ref: str | Path) -> Path | None:
    """The scenario file of a ruleset, or ``None`` if it has none.

    A shipped id (or alias) looks in ``rulesets/scenarios/<id>.yaml``; a ruleset file
    ``dir/x.yaml`` in ``dir/scenarios/x.yaml``.

    Raises:
        RulesetError: ``registry.unknown`` / ``registry.no-file`` for an unknown ruleset.
    """
    path = registry.find(str(ref))
    candidate = path.parent / "scenarios" / f"{path.stem}.yaml"
    return candidate if candidate.is_file() else None


def _file_id(path: Path) -> object:
    """The ``id`` a ruleset file writes (``None`` if it cannot be read as a mapping)."""
    try:
        doc = load_yaml_file(path)
    except TysiacError:
        return None
    return to_plain(doc.get("id")) if isinstance(doc, Mapping) else None


_RULESET_KEYS = frozenset({"id", "kind", "extends"})
"""Top-level keys of a ruleset that a scenario file never has."""


def _schema_comment(path: str | Path) -> str | None:
    """What the ``$schema`` comment at the head of the file names (the editor's modeline
    ``# yaml-language-server: $schema=../schemas/scenario.schema.json``), or ``None``."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            head = fh.read(2000)
    except OSError:
        return None
    for line in head.splitlines():
        if line.lstrip().startswith("#") and "$schema" in line:
            return line.split("$schema", 1)[1].lstrip("=: ").strip()
    return None


def names_scenario_schema(path: str | Path) -> bool:
    """Whether the file's ``$schema`` comment names the scenario schema
    (``scenario.schema.json``): ``tysiac validate`` checks such a file as a scenario file."""
    named = _schema_comment(path)
    return named is not None and named.rsplit("/", 1)[-1] == "scenario.schema.json"


def _is_ruleset(path: str | Path, doc: object) -> bool:
    """Whether the document at ``path`` is a ruleset rather than a scenario file: its
    ``$schema`` comment names a ruleset schema, or its top-level keys are a ruleset's."""
    if isinstance(doc, dict) and "scenarios" not in doc and _RULESET_KEYS & set(doc):
        return True
    named = _schema_comment(path)
    return named is not None and "ruleset" in named


def load_scenarios(path: str | Path, *, ruleset: Ruleset | None = None) -> ScenarioFile:
    """Load and check a scenario file.

    Args:
        path: the YAML file.
        ruleset: the ruleset to test (its id must be the file's ``ruleset``); by default
            the file's ``ruleset`` is loaded: a path relative to the file, else the ruleset
            file ``<ruleset>.yaml`` in the directory above the file's, else the file with the
            scenario file's name there when its ``id`` is ``ruleset`` (``dir/scenarios/x.yaml``
            tests ``dir/x.yaml``, as ``tysiac check dir/x.yaml`` finds it), else a shipped id.

    Raises:
        ScenarioError: every problem found (YAML ``yaml.*``, schema ``schema.*``; a ruleset
            given as a scenario file: the one ``scenario.is-ruleset``,
            ``scenario.ruleset``, ``scenario.source``, ``scenario.players``,
            ``scenario.duplicate``, ``scenario.option``, ``scenario.card``,
            ``scenario.action``, ``scenario.step``), each with file:line:col.
    """
    try:
        doc = load_yaml_file(path)
    except TysiacError as exc:
        raise ScenarioError(exc.diagnostics) from None
    file = str(path)
    if doc is None:
        raise ScenarioError(Diagnostic("scenario.empty", "the scenario file is empty", file=file))
    problems = list(schema_errors(doc, validator=_validator(), root="the scenario file"))
    if problems and _is_ruleset(path, doc):  # `check --file pl-standard.yaml`: one clear line
        raise ScenarioError(Diagnostic(
            "scenario.is-ruleset", "the file is a ruleset, not a scenario file", file=file,
            hint=f"validate it with `tysiac validate {file}`; `tysiac check {file}` runs its scenarios "
                 f"(scenarios/{Path(file).name} beside it)",
        ))
    if problems:
        raise ScenarioError(problems)
    ref = str(doc["ruleset"])
    if ruleset is None:
        try:
            above = Path(file).resolve().parent.parent
            beside = above / f"{ref}.yaml"
            named = above / f"{Path(file).stem}.yaml"  # dir/scenarios/x.yaml tests dir/x.yaml
            if registry.looks_like_path(ref):
                ruleset = load_ruleset(registry.find(ref, relative_to=file))
            elif beside.is_file():
                ruleset = load_ruleset(beside)
            elif named.is_file() and _file_id(named) == ref:
                ruleset = load_ruleset(named)
            else:
                ruleset = load_ruleset(ref)
        except TysiacError as exc:
            first = exc.diagnostic
            raise ScenarioError(
                _diag("scenario.ruleset", f"ruleset `{ref}` cannot be loaded: {first.message}",
                      doc, ("ruleset",), hint=first.hint)
            ) from None
    elif ref not in (ruleset.id, *ruleset.aliases) and Path(ref).stem != ruleset.id:
        raise ScenarioError(
            _diag("scenario.ruleset", f"the scenario file is for ruleset `{ref}`, not `{ruleset.id}`",
                  doc, ("ruleset",))
        )
    scenarios: list[Scenario] = []
    problems = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(doc["scenarios"]):
        found = list(_check_scenario(raw, i, doc, ruleset, seen))
        problems += found
        if not found:
            scenarios.append(_build(raw, i, doc, file))
    if problems:
        raise ScenarioError(sorted_diagnostics(problems))
    return ScenarioFile(path=file, ruleset=ruleset, scenarios=tuple(scenarios))


def _check_scenario(
    raw: Any, i: int, doc: Any, ruleset: Ruleset, seen: dict[str, int]
) -> Iterator[Diagnostic]:
    from .engine.actions import parse_action

    base: tuple[str | int, ...] = ("scenarios", i)
    name = raw["name"]
    if name in seen:
        line = seen[name]
        yield _diag("scenario.duplicate", f"duplicate scenario name `{name}` (first at line {line})",
                    doc, (*base, "name"))
    else:
        mark = mark_at(doc, (*base, "name"))
        seen[name] = mark.line if mark else 0
    known = [s.id for s in ruleset.sources]
    for k, sid in enumerate(raw["source"]):
        if sid not in known:
            yield _diag("scenario.source",
                        f"scenario `{name}` cites `{sid}`, which is not a source of `{ruleset.id}`; "
                        f"known: {', '.join(known) or 'none'}", doc, (*base, "source", k))
    players = raw["players"]
    counts = ruleset.player_counts
    if players not in counts:
        yield _diag("scenario.players",
                    no_form_message(ruleset.id, players, counts), doc, (*base, "players"))
        return
    rules = ruleset
    if raw.get("options"):
        try:
            rules = ruleset.with_options(raw["options"])
        except TysiacError as exc:
            yield _diag("scenario.option", exc.diagnostic.message, doc, (*base, "options"),
                        hint=exc.diagnostic.hint)
            return
    deck = rules.deck
    position = raw.get("position")
    if isinstance(position, str):
        yield from _written_position(raw, position, rules, players, doc, (*base, "position"))
    deal = raw.get("deal")
    if isinstance(deal, str):  # the deal in deal notation: checked, then as the mapping form
        written = list(_written_deal(deal, deck, players, doc, (*base, "deal")))
        if isinstance(written[-1], Diagnostic):
            yield from written
            deal = None
        else:
            found = list(_check_stack(written[-1], rules, players, doc, (*base, "deal")))
            yield from (_placed(d, doc, (*base, "deal")) for d in found)
            deal = None
    if deal is not None:
        for player, cards in deal["hands"].items():
            if int(player) >= players:
                yield _diag("scenario.players",
                            f"hand for player {player}, but the table has players 0..{players - 1}",
                            doc, (*base, "deal", "hands", player), key=True)
            yield from _check_cards(cards, deck, doc, (*base, "deal", "hands", player))
        for k, cards in enumerate(deal["talons"]):
            yield from _check_cards(cards, deck, doc, (*base, "deal", "talons", k))
        if "stock" in deal:
            yield from _check_cards(deal["stock"], deck, doc, (*base, "deal", "stock"))
        if deal.get("dealer", 0) >= players:
            yield _diag("scenario.players", f"dealer {deal['dealer']} is not a player (0..{players - 1})",
                        doc, (*base, "deal", "dealer"))
        yield from _check_stack(deal, rules, players, doc, (*base, "deal"))
    for s, step in enumerate(raw["steps"]):
        where = (*base, "steps", s)
        kinds = [k for k in ("do", "expect", "illegal") if k in step]
        if len(kinds) != 1:
            got = ", ".join(f"`{k}`" for k in kinds) or "none of them"
            yield _diag("scenario.step", f"a step needs exactly one of `do`, `expect`, `illegal` (got {got})",
                        doc, where)
            continue
        if "error" in step and kinds != ["illegal"]:
            yield _diag("scenario.step", "`error` belongs to an `illegal` step", doc, (*where, "error"),
                        key=True)
        texts: list[tuple[tuple[str | int, ...], str]] = []
        if "do" in step:
            do = step["do"]
            texts = [((*where, "do"), do)] if isinstance(do, str) else [
                ((*where, "do", k), t) for k, t in enumerate(do)
            ]
        elif "illegal" in step:
            texts = [((*where, "illegal"), step["illegal"])]
        else:
            legal = step["expect"].get("legal", [])
            texts = [((*where, "expect", "legal", k), t) for k, t in enumerate(legal)]
            for key in ("scores", "deal_scores"):
                value = step["expect"].get(key)
                if value is not None and len(value) != players:
                    yield _diag("scenario.expect",
                                f"`{key}` must list {players} values, one per player (got {len(value)})",
                                doc, (*where, "expect", key))
        for path, text in texts:
            try:
                parse_action(text, deck)
            except TysiacError as exc:
                yield _diag("scenario.action", exc.diagnostic.message, doc, path)


def _check_stack(
    deal: Any, rules: Ruleset, players: int, doc: Any, path: tuple[str | int, ...]
) -> Iterator[Diagnostic]:
    """A stacked deal's sizes and cards: each hand holds ``table.hand_size`` cards, the talons
    have ``table.talons`` sizes, and no card is dealt twice (reported where it is repeated)."""
    from .engine.deal_notation import STOCK_NAME, dealt_twice, hand_name, talon_name

    table = rules.form(players).table
    deck = rules.deck
    piles = [((*path, "hands", p), hand_name(p), cards, table.hand_size)
             for p, cards in deal["hands"].items()]
    piles += [((*path, "talons", k), talon_name(k), cards, size)
              for k, (cards, size) in enumerate(zip(deal["talons"], table.talons, strict=False))]
    if "stock" in deal or table.stock:
        piles.append(((*path, "stock"), STOCK_NAME, deal.get("stock", ""), table.stock or 0))
    if len(deal["talons"]) != len(table.talons):
        yield _diag("scenario.deal", f"the {players}-player game has {len(table.talons)} talon(s) of "
                    f"{'/'.join(map(str, table.talons))} cards (got {len(deal['talons'])})",
                    doc, (*path, "talons"))
    parsed: list[tuple[tuple[str | int, ...], str, tuple[Any, ...]]] = []
    for where, what, text, size in piles:
        try:
            cards = tuple(deck.parse_many(text))
        except TysiacError:
            continue  # reported by _check_cards
        if len(cards) != size:
            yield _diag("scenario.deal", f"{what} must hold {size} cards (got {len(cards)})", doc, where)
        parsed.append((where, what, cards))
    for index, _, message in dealt_twice((what, cards) for _, what, cards in parsed):
        yield _diag("scenario.deal", message, doc, parsed[index][0])


def _written_deal(
    text: str, deck: Any, players: int, doc: Any, path: tuple[str | int, ...]
) -> Iterator[Any]:
    """A ``deal:`` written in deal notation (:class:`~tysiac_spec.engine.deal_notation.Deal`):
    its problems (``scenario.deal``, ``scenario.card`` at the column of the text, when the
    text is a plain or quoted scalar on one line; ``scenario.players`` for a dealer or a hand
    count that does not fit the table), or else, last, the deal as the mapping form
    (``{"dealer": …, "hands": {player: cards}, "talons": […], "stock": …}``)."""
    from .engine.deal_notation import Deal

    try:
        deal = Deal.parse(text, deck)
    except TysiacError as exc:
        d = exc.diagnostic
        code = "scenario.card" if d.code == "notation.card" else "scenario.deal"
        yield _placed(Diagnostic(code, d.message, column=d.column, hint=d.hint), doc, path)
        return
    if len(deal.hands) != players or deal.dealer >= players:
        what = (f"dealer {deal.dealer} is not a player (0..{players - 1})" if deal.dealer >= players else
                f"the deal gives {len(deal.hands)} hand(s) for {players} players "
                f"(one per seat from 0, `-` for a seat dealt none)")
        yield _placed(Diagnostic("scenario.players", what), doc, path)
        return
    yield deal.start_args()


def _written_position(raw: Any, text: str, rules: Ruleset, players: int, doc: Any,
                      path: tuple[str | int, ...]) -> Iterator[Diagnostic]:
    """The problems of a ``position:`` (:class:`~tysiac_spec.engine.position.Position`):
    ``scenario.position`` (``scenario.card`` for a card) at the column of the text, and
    ``scenario.position`` for a ``deal`` or ``match`` beside it."""
    from .engine.position import Position

    for other in ("deal", "match"):
        if other in raw:
            yield _diag("scenario.position", f"`position` sets the whole starting state: give it "
                        f"without `{other}`", doc, (*path[:-1], other), key=True)
    try:
        Position.parse(text, rules, players)
    except TysiacError as exc:
        d = exc.diagnostic
        code = "scenario.card" if d.code == "notation.card" else "scenario.position"
        yield _placed(Diagnostic(code, d.message, column=d.column, hint=d.hint), doc, path)


def _placed(d: Diagnostic, doc: Any, path: tuple[str | int, ...]) -> Diagnostic:
    """``d`` (about a deal written on one line, its ``column`` counted in that text, if any)
    placed in the scenario file: at the text's own column when the value is a scalar on its
    line (plain or quoted), else at the value."""
    if d.file is not None:
        return d
    mark = mark_at(doc, path)
    if mark is None:
        return d
    column = mark.column
    if d.column is not None:
        quoted = _quote_at(mark)
        column = mark.column + d.column - 1 + (1 if quoted else 0)
    return dataclasses.replace(d, file=mark.file, line=mark.line, column=column, path=path)


def _quote_at(mark: Mark) -> bool:
    """Whether the scalar at ``mark`` opens with a quote (read from its file's line)."""
    if mark.file is None:
        return False
    try:
        with open(mark.file, encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if number == mark.line:
                    return line[mark.column - 1 : mark.column] in ("'", '"')
    except (OSError, TypeError, UnicodeDecodeError):
        return False
    return False


def _check_cards(cards: str, deck: Any, doc: Any, path: tuple[str | int, ...]) -> Iterator[Diagnostic]:
    for text in cards.replace(",", " ").split():
        try:
            deck.parse(text)
        except TysiacError as exc:
            yield _diag("scenario.card", exc.diagnostic.message, doc, path)


def _build(raw: Any, i: int, doc: Any, file: str) -> Scenario:
    steps = []
    for s, step in enumerate(raw["steps"]):
        mark = mark_at(doc, ("scenarios", i, "steps", s))
        line = mark.line if mark else None
        if "do" in step:
            do = step["do"]
            steps.append(Step("do", (do,) if isinstance(do, str) else tuple(do), line=line))
        elif "illegal" in step:
            steps.append(Step("illegal", (step["illegal"],), error=step.get("error"), line=line))
        else:
            steps.append(Step("expect", expect=to_plain(step["expect"]), line=line))
    deal = to_plain(raw.get("deal"))
    if isinstance(deal, str):  # deal notation (checked when the file was loaded)
        from .engine.deal_notation import Deal

        deal = Deal.parse(deal).start_args()
    elif deal is not None:
        deal = {"dealer": deal.get("dealer", 0), "hands": {int(p): h for p, h in deal["hands"].items()},
                "talons": list(deal["talons"]), "stock": deal.get("stock", "")}
    mark = mark_at(doc, ("scenarios", i, "name"))
    marks: dict[str, Mark] = {}
    for part in ("deal", "position"):
        if isinstance(raw.get(part), str):
            at = mark_at(doc, ("scenarios", i, part))
            if at is not None:
                marks[part] = at
    for part in ("match", "deal"):
        if isinstance(raw.get(part), Mapping):
            for name in (None, *raw[part]):
                at = mark_at(doc, ("scenarios", i, part, *((name,) if name else ())), key=True)
                if at is not None:
                    marks[f"{part}.{name}" if name else part] = at
    return Scenario(
        name=raw["name"],
        description=raw["description"],
        source=tuple(raw["source"]),
        cite=raw.get("cite"),
        players=raw["players"],
        options=to_plain(raw.get("options") or {}),
        match=to_plain(raw.get("match")),
        deal=deal,
        position=raw.get("position"),
        steps=tuple(steps),
        file=file,
        line=mark.line if mark else None,
        marks=marks,
    )


# --------------------------------------------------------------------------- running


def run_file(scenario_file: ScenarioFile, names: Sequence[str] | None = None) -> list[Result]:
    """Run the scenarios of a loaded file (only those named in ``names``, when given)."""
    chosen = [s for s in scenario_file.scenarios if names is None or s.name in names]
    return [run_scenario(s, scenario_file.ruleset) for s in chosen]


def _deal_of(game: Any) -> Any:
    """The deal the deal-level keys describe: the current one, or the last finished one while
    the next deal has no declarer yet (its auction is not over)."""
    if game.deal.declarer is None and not game.is_over and game.last_deal is not None:
        return game.last_deal
    return game.deal


def _counters(game: Any, names: Sequence[str]) -> dict[str, list[int] | None]:
    """The named counters by player; ``bolts`` and ``forfeits`` (match state fields) also when
    the ruleset has no counter of that name; ``None`` for an unknown name."""
    match = game.match
    out: dict[str, list[int] | None] = {}
    for name in names:
        if name in match.counters:
            out[name] = [int(v) for v in match.counters[name]]
        elif name in ("bolts", "forfeits"):
            out[name] = [int(v) for v in getattr(match, name)]
        else:
            out[name] = None
    return out


def actual_value(game: Any, key: str, expected: Any = None) -> Any:
    """The game's current value for an ``expect`` key (plain JSON-like values); for
    ``counters`` only the counters named in ``expected``."""
    if key == "phase":
        return game.phase
    if key == "current_player":
        return game.current_player
    if key == "legal":
        return [str(a) for a in game.legal_actions()]
    if key == "deal_scores":
        return list(game.deal_scores[-1]) if game.deal_scores else None
    if key == "scores":
        return list(game.scores)
    if key == "counters":
        return _counters(game, list(expected or ()))
    if key == "events":
        last = len(game.deal_scores) - 1
        return [e.kind for e in game.events if e.deal == last]
    if key == "is_over":
        return game.is_over
    if key == "winner":
        return game.match.winner
    if key == "talon_seen":  # the deal being played, as each player's view shows it
        return {p: " ".join(str(c) for c in game.view(p).talon) or "-" for p in game.deal.order}
    deal = _deal_of(game)
    if key == "trump":
        return deal.trump
    if key == "declarer":
        return deal.declarer
    if key == "contract":
        return deal.contract
    if key == "trick_winner":
        return deal.last_trick_winner
    if key == "tricks":
        return {p: deal.tricks.get(p, 0) for p in deal.order}
    raise KeyError(key)


def _normal(key: str, value: Any) -> Any:
    if key in ("tricks", "talon_seen") and isinstance(value, Mapping):
        return {int(k): v for k, v in value.items()}
    return value


def deal_text(game: Any) -> str:
    """The current deal of ``game`` in deal notation, as dealt (:meth:`Game.dealt
    <tysiac_spec.engine.game.Game.dealt>`)."""
    return str(game.dealt())


def start_game(scenario: Scenario, ruleset: Ruleset) -> Any:
    """The scenario's starting position, the one set-up every tool replays a scenario from:
    ``Game(ruleset, players=, seed=0, options=)``, then its ``match:`` state
    (``Game.set_match_state``) and its ``deal:`` (``Game.start_deal``); or, for a scenario
    with a ``position:``, ``Game.from_position`` (seed 0).

    Returns:
        the :class:`~tysiac_spec.engine.game.Game`, ready for the scenario's first step.

    Raises:
        TysiacError: the players, options, match state or cards are refused by the engine.
    """
    from .engine.game import Game

    if scenario.position is not None:  # (checked when the file was loaded: neither match nor deal)
        try:
            rules = ruleset.with_options(scenario.options) if scenario.options else ruleset
            return Game.from_position(rules, scenario.position)
        except TysiacError as exc:
            raise _located(exc, scenario, "position") from None
    game = Game(ruleset, players=scenario.players, seed=0, options=dict(scenario.options) or None)
    try:
        if scenario.match is not None:
            game.set_match_state(**scenario.match)
    except TysiacError as exc:
        raise _located(exc, scenario, "match") from None
    try:
        if scenario.deal is not None:
            game.start_deal(hands=scenario.deal["hands"], talons=scenario.deal["talons"],
                            dealer=scenario.deal["dealer"], stock=scenario.deal.get("stock", ""))
    except TysiacError as exc:
        raise _located(exc, scenario, "deal") from None
    return game


def _located(exc: TysiacError, scenario: Scenario, part: str) -> TysiacError:
    """``exc`` (the engine refusing the scenario's ``match:`` or ``deal:``) pointing at the
    field it names (its message opens with `` `scores`: ``), else at ``part`` itself, when
    the scenario file's marks know it; a diagnostic that has a place already keeps it."""
    found = []
    for d in exc.diagnostics:
        named = re.match(r"`([A-Za-z_]+)", d.message)
        mark = scenario.marks.get(f"{part}.{named.group(1)}" if named else part) or scenario.marks.get(part)
        if d.file is None and mark is not None:
            field_name = named.group(1) if named and f"{part}.{named.group(1)}" in scenario.marks else None
            d = dataclasses.replace(d, file=mark.file, line=mark.line, column=mark.column,
                                    path=(part, field_name) if field_name else (part,))
        found.append(d)
    return type(exc)(found)


def run_scenario(scenario: Scenario, ruleset: Ruleset) -> Result:
    """Run one scenario on ``Game(ruleset, players=, seed=0, options=)``; never raises for a
    failing scenario (see :class:`Result`).  A crash of the engine (a bug, not a user error)
    is reported as an ``error`` result naming the exception, so one broken mechanism does not
    hide the other scenarios' results."""
    try:
        return _run(scenario, ruleset)
    except Exception as exc:  # an engine bug: report it on this scenario, keep running others
        where = traceback.extract_tb(exc.__traceback__)[-1]
        at = f"{Path(where.filename).name}:{where.lineno}"
        return Result(scenario, "error", None, (), f"engine crash: {type(exc).__name__}: {exc} ({at})")


def _run(scenario: Scenario, ruleset: Ruleset) -> Result:
    from .engine.actions import parse_action
    from .engine.game import Game

    def result(status: Status, step: int | None = None, message: str = "",
               mismatches: tuple[Mismatch, ...] = ()) -> Result:
        return Result(scenario, status, step, mismatches, message, game.state_text() if game else "", dealt)

    game: Game | None = None
    dealt = ""
    try:
        game = start_game(scenario, ruleset)
    except TysiacError as exc:
        return result("error", message=f"setting up: {exc}")
    dealt = deal_text(game) if scenario.position is None else ""  # (a position: shown as written)
    deck = game.ruleset.deck
    for i, step in enumerate(scenario.steps):
        if step.kind == "do":
            for text in step.actions:
                try:
                    game.apply(parse_action(text, deck))
                except TysiacError as exc:
                    return result("error", i, f"`{text}` was refused: {exc.diagnostic.message}")
        elif step.kind == "illegal":
            text = step.actions[0]
            before = game.snapshot()
            try:
                game.apply(parse_action(text, deck))
            except IllegalActionError as exc:
                message = exc.diagnostic.message
                if game.snapshot() != before:
                    return result("failed", i, f"refusing `{text}` changed the state")
                if step.error is not None and step.error not in message:
                    return result("failed", i, f"`{text}` was refused with another reason",
                                  (Mismatch("error", step.error, message),))
            except TysiacError as exc:
                return result("error", i, f"`{text}`: {exc.diagnostic.message}")
            else:
                return result("failed", i, f"`{text}` was accepted, but it should be illegal")
        else:
            mismatches = []
            for key in EXPECT_KEYS:
                if key in step.expect:
                    expected = _normal(key, step.expect[key])
                    actual = actual_value(game, key, expected)
                    if expected != actual:
                        mismatches.append(Mismatch(key, expected, actual))
            if mismatches:
                return result("failed", i, "", tuple(mismatches))
    return result("passed")
