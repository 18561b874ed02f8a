"""Every example in README.md works as written."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tysiac_spec.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


def _commands() -> list[list[str]]:
    """The `tysiac ...` lines of the "Using it" block, without their comments."""
    commands = []
    for block in _blocks("sh"):
        for line in block.splitlines():
            line = line.split("#", 1)[0].strip()
            if line.startswith("tysiac "):
                commands.append(shlex.split(line)[1:])
    return commands


def test_readme_has_exactly_two_setup_commands() -> None:
    setup = README.split("## Quick start", 1)[1].split("## ", 1)[0]
    commands = [b.strip() for b in re.findall(r"```sh\n(.*?)```", setup, flags=re.S)]
    assert len(commands) == 2
    assert commands[0].endswith(".venv/bin/tysiac serve")
    assert commands[1].endswith("python -m pytest")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1] in ci  # .ci/run runs the README's test command verbatim


@pytest.fixture(scope="module")
def readme_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One directory for all the examples, run in README order (`replay` reads what `play` saved)."""
    return tmp_path_factory.mktemp("readme")


def _examples() -> list[object]:
    """The commands, those that play many matches or build the site marked slow (a second or
    more each; CI runs them)."""
    def heavy(args: list[str]) -> bool:
        return args in (["check"], ["build", "-o", "site"]) or (
            bool({"--simulate", "--games"} & set(args)) and "--engine" not in args
        )

    return [pytest.param(args, id=" ".join(args), marks=pytest.mark.slow if heavy(args) else ())
            for args in _commands()]


@pytest.mark.parametrize("args", _examples())
def test_readme_cli_examples_work(args: list[str], readme_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(readme_dir)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert result.stdout or result.stderr


def test_readme_python_example_runs() -> None:
    (code,) = _blocks("python")
    namespace: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), namespace)
    assert namespace["form"].auction.step == 10  # type: ignore[attr-defined]


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_readme_house_rule_example_validates(tmp_path: Path) -> None:
    (text,) = [b for b in _blocks("yaml") if "kind: house" in b]
    path = tmp_path / "my-table.yaml"
    path.write_text(text, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "tysiac_spec", "show", str(path), "--players", "3"],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "raise_by: exactly_step" in proc.stdout
    assert "give_face_up: true" in proc.stdout


def test_readme_top_level_discard_count_is_refused_for_two_players(tmp_path: Path) -> None:
    # README: `talon: {discard_count: 3}` over pl-standard is the 2-player discard too, refused
    # there as error[table.exchange] (t8: the example, copied, did not validate, unsaid)
    from tysiac_spec import load_ruleset
    from tysiac_spec.errors import RulesetError

    assert "refused there as `error[table.exchange]`" in " ".join(README.split())
    path = tmp_path / "t.yaml"
    path.write_text("id: t\nkind: house\nextends: pl-standard\nname: {en: t}\ntalon: {discard_count: 3}\n",
                    encoding="utf-8")
    with pytest.raises(RulesetError) as err:
        load_ruleset(str(path))
    assert err.value.diagnostic.code == "table.exchange"
    assert "ending with 9 cards against the opponents' 10" in err.value.diagnostic.message


def test_readme_house_rule_changes_carry_no_parent_sources(tmp_path: Path) -> None:
    # The house rule's own changes (cards given face up; through the option's default, raises
    # of exactly one step) are not what pl-standard's S000 says: the rule book cites no source
    # for them, while the rules it inherits keep pl-standard's sources.
    from tysiac_spec import load_ruleset
    from tysiac_spec.docs.fields import provenance_for

    (text,) = [b for b in _blocks("yaml") if "kind: house" in b]
    path = tmp_path / "my-table.yaml"
    path.write_text(text, encoding="utf-8")
    house, parent = load_ruleset(path), load_ruleset("pl-standard")
    for parts in (("talon", "give_face_up"), ("auction", "raise_by")):
        assert provenance_for(house, parts, 3).sources == ()
        assert provenance_for(parent, parts, 3).sources == ("S000",)
    assert provenance_for(house, ("talon", "take"), 3).sources == ("S000",)
    # chosen at the table, pl-standard's option value keeps the section's source
    chosen = load_ruleset(path, options={"graduated_auction": True})
    assert provenance_for(chosen, ("auction", "raise_by"), 3).sources == ("S000",)
    book = CliRunner().invoke(main, ["docs", str(path), "--players", "3"]).output
    lines = [line for line in book.splitlines() if "`talon.give_face_up`" in line]
    assert lines == ["- **Given cards shown**: yes · `talon.give_face_up`"]


def test_readme_error_example_is_what_the_tool_prints(tmp_path: Path) -> None:
    (shown,) = _blocks("text")
    house = tmp_path / "house.yaml"
    house.write_text(
        "id: house\nkind: house\nextends: pl-standard\nname: {en: House}\n"
        "# our changes\nauction:\n  step: ten\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["validate", str(house)])
    assert result.exit_code == 1
    assert shown.strip().replace("house.yaml", str(house)) in result.stderr
