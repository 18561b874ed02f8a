"""Scenario files: every shipped scenario runs by name; the runner's reports; load errors."""

from __future__ import annotations

import textwrap
from functools import cache
from pathlib import Path

import pytest
import yaml
from _quick import sample
from click.testing import CliRunner

from tysiac_spec import load_ruleset
from tysiac_spec._paths import RULESETS_DIR
from tysiac_spec.cli import main
from tysiac_spec.engine.game import Game
from tysiac_spec.errors import IllegalActionError, ScenarioError, TysiacError
from tysiac_spec.ruleset import registry
from tysiac_spec.scenarios import (
    Mismatch,
    Result,
    ScenarioFile,
    load_scenarios,
    run_file,
    run_scenario,
    scenario_file_for,
    shipped_scenario_files,
)

HOUSE_SCENARIOS = Path(__file__).parent.parent / "examples" / "house" / "scenarios"
"""Scenarios of the house-rule examples (``examples/house/scenarios/<file stem>.yaml``)."""


@cache
def _load(path: Path) -> ScenarioFile:
    # a house scenario names its ruleset by id (house-barrel-falls); the loader finds it as
    # examples/house/<file stem>.yaml, as `tysiac check --file` does
    return load_scenarios(path)


def _names(path: Path) -> list[str | None]:
    """The scenario names of ``path`` read from its plain YAML, without loading its ruleset
    (collection stays cheap: a parallel run collects once per worker); ``[None]`` when they
    cannot be read, for the test to report the loader's error."""
    try:
        doc = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        names = [str(s["name"]) for s in doc["scenarios"]]
    except (yaml.YAMLError, TypeError, KeyError):
        return [None]
    return names or [None]


def _cases() -> list[object]:
    """Every scenario of every file; the quick loop runs each file's first and every 4th (a
    shipped ruleset has up to 38 scenarios of about 20 ms each; CI runs them all)."""
    return [
        case
        for path in [*shipped_scenario_files(), *sorted(HOUSE_SCENARIOS.glob("*.yaml"))]
        for case in sample(
            [(path, name) for name in _names(path)], every=4, ids=lambda c: f"{c[0].stem}:{c[1] or 'invalid-file'}"
        )
    ]


@pytest.mark.parametrize(("path", "name"), _cases())
def test_shipped_scenario(path: Path, name: str | None) -> None:
    try:
        loaded = _load(path)
    except TysiacError as exc:
        pytest.fail(str(exc))
    # the loader's scenarios are the ones the cases were made from
    assert [s.name for s in loaded.scenarios] == _names(path)
    scenario = next(s for s in loaded.scenarios if s.name == name)
    result = run_scenario(scenario, loaded.ruleset)
    assert result.passed, result.explain()


def test_every_house_example_scenario_file_names_its_example() -> None:
    for path in sorted(HOUSE_SCENARIOS.glob("*.yaml")):
        assert scenario_file_for(HOUSE_SCENARIOS.parent / f"{path.stem}.yaml") == path


def test_every_shipped_scenario_file_names_a_shipped_ruleset() -> None:
    ids = {e.id for e in registry.entries()}
    files = shipped_scenario_files()
    assert files, "rulesets/scenarios/ holds no scenario file"
    for path in files:
        assert path.stem in ids
        assert _load(path).ruleset.id == path.stem


def test_registry_does_not_take_scenario_files_for_rulesets() -> None:
    assert all(e.path.parent == RULESETS_DIR for e in registry.entries())
    assert "scenarios" not in {e.id for e in registry.entries()}


def test_scenario_file_for_a_shipped_id_and_a_missing_one() -> None:
    assert scenario_file_for("pl-standard") == RULESETS_DIR / "scenarios" / "pl-standard.yaml"
    assert scenario_file_for("tysiac") == RULESETS_DIR / "scenarios" / "pl-standard.yaml"  # an alias


# --------------------------------------------------------------------------- the runner's reports

HANDS = """\
    deal:
      dealer: 0
      hands: {1: "AH TH KH QH JH 9H 9S", 2: "AS TS KS QS JS AC TC", 0: "KC QC JC 9C AD TD KD"}
      talons: ["QD JD 9D"]
"""


def _file(tmp_path: Path, body: str, *, name: str = "s.yaml", ruleset: str = "pl-standard") -> Path:
    path = tmp_path / name
    path.write_text(f"ruleset: {ruleset}\nscenarios:\n" + textwrap.indent(textwrap.dedent(body), "  "),
                    encoding="utf-8")
    return path


def _scenario(steps: str, *, name: str = "one", deal: bool = True) -> str:
    head = f"- name: {name}\n  description: test\n  source: [S000]\n  players: 3\n"
    return head + (textwrap.indent(textwrap.dedent(HANDS), "  ") if deal else "") + "  steps:\n" + \
        textwrap.indent(textwrap.dedent(steps), "    ")


def _run_one(tmp_path: Path, steps: str) -> Result:
    loaded = load_scenarios(_file(tmp_path, _scenario(steps)))
    [result] = run_file(loaded)
    return result


def test_a_wrong_expectation_fails_with_expected_and_actual_per_key(tmp_path: Path) -> None:
    result = _run_one(tmp_path, """\
        - do: ["bid 100", pass, pass]
        - expect: {phase: exchange, declarer: 2, scores: [0, 0, 0], current_player: 0}
    """)
    assert result.status == "failed"
    assert result.step == 1
    assert result.mismatches == (
        Mismatch("current_player", 0, 1),
        Mismatch("declarer", 2, 1),
    )
    text = result.explain()
    assert "one (" in text and ":3): failed" in text
    assert "  at step 2 (line 13)" in text
    assert "  declarer: expected 2\n            actual   1" in text
    assert "state: scores=0,0,0 deals=0 exchange dealer=0 turn=1" in text


def test_an_accepted_illegal_step_fails(tmp_path: Path) -> None:
    result = _run_one(tmp_path, """\
        - illegal: "bid 100"
    """)
    assert result.status == "failed"
    assert result.message == "`bid 100` was accepted, but it should be illegal"


def test_an_illegal_step_with_another_reason_fails(tmp_path: Path) -> None:
    result = _run_one(tmp_path, """\
        - do: ["bid 100", pass, pass, "give 9D to 2", "give JD to 0", "contract 100", "play QD"]
        - illegal: "play AS"
          error: "must follow clubs"
    """)
    assert result.status == "failed"
    assert result.message == "`play AS` was refused with another reason"
    [m] = result.mismatches
    assert m.key == "error" and m.expected == "must follow clubs"
    assert "must follow diamonds" in m.actual


def test_an_illegal_step_that_changes_the_state_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    original = Game.apply

    def leaky(self: Game, action: object) -> None:
        if str(action) == "bid 130":
            self.history.append("leak")
            raise IllegalActionError("refused, but after a change")
        original(self, action)  # type: ignore[arg-type]

    monkeypatch.setattr(Game, "apply", leaky)
    result = _run_one(tmp_path, """\
        - illegal: "bid 130"
    """)
    assert result.status == "failed"
    assert result.message == "refusing `bid 130` changed the state"


def test_a_refused_action_is_an_error_naming_the_engine_reason(tmp_path: Path) -> None:
    result = _run_one(tmp_path, """\
        - do: "bid 105"
    """)
    assert result.status == "error"
    assert result.step == 0
    assert result.message.startswith("`bid 105` was refused: `bid 105` is not legal")


def test_a_wrong_stacked_deal_is_an_error_at_its_line(tmp_path: Path) -> None:
    short = _scenario("- expect: {phase: auction}\n").replace('talons: ["QD JD 9D"]', 'talons: ["QD JD"]')
    assert _errors(tmp_path, short) == [
        "s.yaml:10:16: error[scenario.deal]: talon 0 must hold 3 cards (got 2)"
    ]
    twice = _scenario("- expect: {phase: auction}\n").replace('talons: ["QD JD 9D"]', 'talons: ["QD JD AH"]')
    assert _errors(tmp_path, twice) == [
        "s.yaml:10:16: error[scenario.deal]: AH is dealt twice: in player 1's hand and in talon 0"
    ]
    same = _scenario("- expect: {phase: auction}\n").replace('"AH TH KH QH JH 9H 9S"', '"AH TH KH QH JH 9H AH"')
    assert _errors(tmp_path, same.replace('["QD JD 9D"]', '["QD JD 9S"]')) == [
        "s.yaml:9:18: error[scenario.deal]: AH is dealt twice in player 1's hand"
    ]



def test_a_refused_match_state_is_an_error_at_its_field(tmp_path: Path) -> None:
    # the engine refuses the `match:` state: the error points at the field it names, and
    # `tysiac check` says "error" once (the headline's error[code])
    from click.testing import CliRunner

    from tysiac_spec.cli import main

    body = _scenario("- expect: {phase: auction}\n").replace(
        "  players: 3\n", "  players: 3\n  match:\n    dealer: 0\n    scores: [0, 0]\n"
    )
    path = _file(tmp_path, body)
    [result] = run_file(load_scenarios(path))
    assert result.status == "error"
    assert result.message == (
        f"setting up: {path}:9:7: error[match.state]: `scores` must give one value per player: 3 (got 2)"
    )
    out = CliRunner().invoke(main, ["check", "--file", str(path)]).output
    assert f"    setting up: {path}:9:7: error[match.state]: `scores` must give" in out
    assert "error: error" not in out


def test_names_select_scenarios(tmp_path: Path) -> None:
    body = _scenario("- expect: {phase: auction}\n", name="a") + _scenario(
        "- expect: {phase: play}\n", name="b"
    )
    loaded = load_scenarios(_file(tmp_path, body))
    assert [r.status for r in run_file(loaded)] == ["passed", "failed"]
    assert [r.scenario.name for r in run_file(loaded, ["b"])] == ["b"]


# --------------------------------------------------------------------------- load errors


def _errors(tmp_path: Path, body: str, ruleset: str = "pl-standard") -> list[str]:
    path = _file(tmp_path, body, ruleset=ruleset)
    with pytest.raises(ScenarioError) as info:
        load_scenarios(path)
    return [d.headline().replace(str(path), "s.yaml") for d in info.value.diagnostics]


def test_schema_errors_point_at_file_line_col(tmp_path: Path) -> None:
    body = """\
        - name: Bad_Name
          description: x
          source: [S000]
          players: 3
          extra: 1
          steps:
            - expect: {phase: play, trumps: x}
            - do: 7
    """
    assert _errors(tmp_path, body) == [
        's.yaml:3:11: error[schema.pattern]: `scenarios[0].name` must match `^[a-z0-9]+(-[a-z0-9]+)*$` (got "Bad_Name")',
        "s.yaml:7:5: error[schema.unknown-key]: unknown key `extra` in `scenarios[0]`",
        "s.yaml:9:31: error[schema.unknown-key]: unknown key `trumps` in `scenarios[0].steps[0].expect`; did you mean `trump`?",
        "s.yaml:10:13: error[schema.type]: `scenarios[0].steps[1].do` must be a text or a list (got 7)",
    ]


def test_root_errors_name_the_scenario_file(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("ruleset: pl-standard\nscenario: []\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenarios(path)
    messages = [d.message for d in info.value.diagnostics]
    assert "unknown key `scenario` in the scenario file; did you mean `scenarios`?" in messages
    assert "the scenario file is missing the required key `scenarios`" in messages


def test_semantic_errors(tmp_path: Path) -> None:
    body = """\
        - name: one
          description: x
          source: [S009]
          players: 5
          steps:
            - expect: {phase: play}
        - name: two
          description: x
          source: [S000]
          players: 3
          deal:
            hands: {1: "AH TH KH QH JH 9H 8S", 2: "AS TS KS QS JS AC TC", 0: "KC QC JC 9C AD TD KD"}
            talons: ["QD JD 9D"]
          steps:
            - do: "bid 1hundred"
            - {do: pass, illegal: pass}
            - expect: {scores: [0]}
        - name: two
          description: x
          source: [S000]
          players: 3
          options: {five_rounds: sideways}
          steps:
            - expect: {phase: play}
    """
    errors = _errors(tmp_path, body)
    assert errors[:2] == [
        "s.yaml:5:14: error[scenario.source]: scenario `one` cites `S009`, which is not a source of "
        "`pl-standard`; known: S000, S002, S003, PAG, KRO, ZAG, BGA",
        "s.yaml:6:14: error[scenario.players]: ruleset `pl-standard` has no 5-player form; it defines 2, 3, 4",
    ]
    assert errors[2].startswith("s.yaml:14:18: error[scenario.card]: `8S` is not a card")
    assert errors[3:7] == [
        "s.yaml:17:13: error[scenario.action]: `bid 1hundred` is not an action: expected a whole number, got `1hundred`",
        "s.yaml:18:9: error[scenario.step]: a step needs exactly one of `do`, `expect`, `illegal` (got `do`, `illegal`)",
        "s.yaml:19:26: error[scenario.expect]: `scores` must list 3 values, one per player (got 1)",
        "s.yaml:20:11: error[scenario.duplicate]: duplicate scenario name `two` (first at line 9)",
    ]
    assert errors[7].startswith("s.yaml:24:14: error[scenario.option]: ")
    assert "sideways" in errors[7]
    assert len(errors) == 8


def test_unknown_ruleset(tmp_path: Path) -> None:
    errors = _errors(tmp_path, _scenario("- expect: {phase: play}\n"), ruleset="pl-standart")
    assert errors == [
        "s.yaml:1:10: error[scenario.ruleset]: ruleset `pl-standart` cannot be loaded: unknown ruleset "
        "`pl-standart`; known: " + ", ".join(e.id for e in registry.entries())
    ]


def test_a_file_for_another_ruleset(tmp_path: Path) -> None:

    path = _file(tmp_path, _scenario("- expect: {phase: auction}\n"))
    with pytest.raises(ScenarioError) as info:
        load_scenarios(path, ruleset=load_ruleset("ru-online"))
    assert info.value.diagnostic.message == "the scenario file is for ruleset `pl-standard`, not `ru-online`"


def test_yaml_errors_become_scenario_errors(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("ruleset: pl-standard\nruleset: x\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenarios(path)
    assert info.value.diagnostic.code == "yaml.duplicate-key"


# --------------------------------------------------------------------------- tysiac check


def test_check_a_passing_file(tmp_path: Path) -> None:
    path = _file(tmp_path, _scenario("- expect: {phase: auction, current_player: 1}\n", name="opening"))
    result = CliRunner().invoke(main, ["check", "--file", str(path)])
    assert result.exit_code == 0, result.output
    assert "✓ opening" in result.output
    assert "1 of 1 scenario(s) passed" in result.output


def test_check_a_failing_file_shows_expected_actual_and_state(tmp_path: Path) -> None:
    body = _scenario("- expect: {phase: auction}\n", name="good") + _scenario(
        "- do: [\"bid 100\", pass, pass]\n- expect: {declarer: 2}\n", name="bad"
    )
    path = _file(tmp_path, body)
    result = CliRunner().invoke(main, ["check", "--file", str(path)])
    assert result.exit_code == 1
    out = result.output
    assert "✓ good" in out
    assert "✗ bad" in out
    assert "declarer: expected 2" in out and "actual   1" in out
    assert "state: scores=0,0,0" in out
    assert "1 of 2 scenario(s) passed; 1 failed" in out
    quiet = CliRunner().invoke(main, ["check", "-q", "--file", str(path)])
    assert "✓ good" not in quiet.output and "✗ bad" in quiet.output
    only = CliRunner().invoke(main, ["check", "--file", str(path), "--scenario", "good"])
    assert only.exit_code == 0 and "1 of 1 scenario(s) passed" in only.output


def test_check_an_unknown_scenario_name(tmp_path: Path) -> None:
    path = _file(tmp_path, _scenario("- expect: {phase: auction}\n", name="good"))
    result = CliRunner().invoke(main, ["check", "--file", str(path), "--scenario", "nope"])
    assert result.exit_code == 1
    assert "no scenario named `nope`" in result.output


def test_check_an_invalid_file_prints_diagnostics(tmp_path: Path) -> None:
    path = _file(tmp_path, _scenario("- expect: {phase: auction}\n").replace("[S000]", "[S999]"))
    result = CliRunner().invoke(main, ["check", "--file", str(path)])
    assert result.exit_code == 1
    assert "error[scenario.source]: scenario `one` cites `S999`" in result.output
    assert "1 scenario file(s) invalid" in result.output


def test_check_a_ruleset_file_runs_the_scenarios_beside_it(tmp_path: Path) -> None:
    (tmp_path / "mine.yaml").write_text(
        "id: mine\nkind: house\nextends: pl-standard\nname: {en: Mine}\n", encoding="utf-8"
    )
    (tmp_path / "scenarios").mkdir()
    _file(tmp_path / "scenarios", _scenario("- expect: {phase: auction}\n", name="mine-opens"),
          name="mine.yaml", ruleset="mine")
    result = CliRunner().invoke(main, ["check", str(tmp_path / "mine.yaml")])
    assert result.exit_code == 0, result.output
    assert "✓ mine-opens" in result.output
    by_file = CliRunner().invoke(main, ["check", "--file", str(tmp_path / "scenarios" / "mine.yaml")])
    assert by_file.exit_code == 0, by_file.output
    assert "✓ mine-opens" in by_file.output


def test_check_a_ruleset_without_scenarios(tmp_path: Path) -> None:
    (tmp_path / "mine.yaml").write_text(
        "id: mine\nkind: house\nextends: pl-standard\nname: {en: Mine}\n", encoding="utf-8"
    )
    result = CliRunner().invoke(main, ["check", str(tmp_path / "mine.yaml")])
    assert result.exit_code == 0, result.output
    assert "mine: no scenario file" in result.output
    assert result.output.splitlines()[-1] == (
        f"no scenarios to check: mine has no scenario file ({tmp_path / 'scenarios' / 'mine.yaml'})"
    )
    assert "0 of 0" not in result.output


def test_a_misspelt_scenario_name_gets_a_suggestion() -> None:
    result = CliRunner().invoke(main, ["check", "pl-standard", "-s", "must-beat"])
    assert result.exit_code == 1
    assert "no scenario named `must-beat`; did you mean `must-beat-the-card-on-the-table`?" in result.output
    typo = CliRunner().invoke(main, ["check", "pl-standard", "-s", "must-folow-the-led-suit"])
    assert "did you mean `must-follow-the-led-suit`?" in typo.output


def test_a_wrong_stacked_deal_is_reported_once_by_check(tmp_path: Path) -> None:
    body = _scenario("- expect: {phase: auction}\n").replace('talons: ["QD JD 9D"]', 'talons: ["QD JD"]')
    result = CliRunner().invoke(main, ["check", "--file", str(_file(tmp_path, body))])
    assert result.exit_code == 1
    assert "error[scenario.deal]: talon 0 must hold 3 cards (got 2)" in result.output
    assert result.output.count("must hold") == 1
