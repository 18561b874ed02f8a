"""Untrusted rulesets: `extends` stays inside the allowed folders, its fan-out and the table
options are bounded before the work (issue 12)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tysiac_spec import load_ruleset
from tysiac_spec.errors import LimitError, RulesetError
from tysiac_spec.ruleset import registry

HOUSE = "kind: house\nname: {{en: {id}}}\n"

def outside_hint(folder: Path) -> str:
    """The hint of ``registry.outside`` for a file in ``folder``: it names the folder to allow."""
    return (
        "copy the file beside the one that names it, or allow its folder on the command line: "
        f"tysiac --rules-dir {folder.resolve()} ..."
    )


def house(folder: Path, name: str, extends: str | list[str], extra: str = "") -> Path:
    path = folder / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"id: {path.stem}\n" + HOUSE.format(id=path.stem) + f"extends: {extends}\n" + extra,
                    encoding="utf-8")
    return path


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A ruleset-shaped file outside the user's folder, holding a token that must never be printed."""
    path = tmp_path / "elsewhere" / "secret.yaml"
    path.parent.mkdir()
    path.write_text("id: secret\nname: {en: TOKEN-5f1c}\n", encoding="utf-8")
    return path


def refusal(path: Path) -> RulesetError:
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    return info.value


@pytest.mark.parametrize("how", ["relative", "absolute"])
def test_extends_out_of_the_folder_is_refused_unread(tmp_path: Path, secret: Path, how: str) -> None:
    ref = "../elsewhere/secret.yaml" if how == "relative" else str(secret)
    path = house(tmp_path / "mine", "house", ref)
    error = refusal(path)
    [d] = error.diagnostics
    assert (d.code, d.file, d.line, d.column, d.path) == (
        "merge.unknown-parent", str(path), 4, 10, ("extends",)
    )
    assert d.message == (
        f"`{ref}` is outside the folders a file may name: a shipped ruleset id, or a file in the "
        "naming file's folder or below"
    )
    assert d.hint == outside_hint(secret.parent)
    assert "TOKEN" not in d.render()


def test_a_refusal_further_down_names_the_folder_of_the_file_given(tmp_path: Path, secret: Path) -> None:
    # t8: mine/house.yaml -> sub/b.yaml -> ../../elsewhere/secret.yaml; the message listed two of
    # the three places a file may name (README: also the folder of the file you gave)
    house(tmp_path / "mine" / "sub", "b", "../../elsewhere/secret.yaml")
    path = house(tmp_path / "mine", "house", "sub/b.yaml")
    assert refusal(path).diagnostic.message == (
        "`../../elsewhere/secret.yaml` is outside the folders a file may name: a shipped ruleset id, "
        "or a file in the naming file's folder or below, or in the folder of the file you gave "
        f"({(tmp_path / 'mine').resolve()}) or below"
    )


def test_a_symbolic_link_out_of_the_folder_is_refused(tmp_path: Path, secret: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "link.yaml").symlink_to(secret)
    path = house(tmp_path / "mine", "house", "link.yaml")
    assert refusal(path).diagnostic.message.startswith("`link.yaml` is outside the folders")


def test_a_file_below_and_the_root_folder_are_allowed(tmp_path: Path) -> None:
    house(tmp_path, "base", "pl-standard")
    house(tmp_path / "sub", "middle", "../base.yaml")  # up to the root of the file given: allowed
    top = house(tmp_path, "top", "sub/middle.yaml")
    assert load_ruleset(top).form(3).auction.step == 10


def test_a_folder_named_by_the_user_is_allowed(tmp_path: Path, secret: Path) -> None:
    secret.write_text("id: secret\nkind: house\nname: {en: s}\nextends: pl-standard\n", encoding="utf-8")
    path = house(tmp_path / "mine", "house", "../elsewhere/secret.yaml")
    refusal(path)
    with registry.allowed_folders([secret.parent]):
        assert load_ruleset(path).id == "house"


@pytest.mark.slow  # about half a second of CPU (quick-loop budget, issue 25)
def test_repeated_parents_are_merged_once_and_a_fan_out_is_linear(tmp_path: Path) -> None:
    # four parents per level, five levels: 4**5 paths through the tree, 20 distinct files
    for level in range(5):
        for i in range(4):
            parents = [f"l{level + 1}-{j}.yaml" for j in range(4)] if level < 4 else ["pl-standard"]
            house(tmp_path, f"l{level}-{i}", parents * 3)
    top = house(tmp_path, "top", ["l0-0.yaml", "l0-1.yaml", "l0-2.yaml", "l0-3.yaml"] * 1000)
    rules = load_ruleset(top)
    assert rules.form(3).auction.step == 10
    assert rules.parents == tuple(["l0-0.yaml", "l0-1.yaml", "l0-2.yaml", "l0-3.yaml"] * 1000)


def test_too_many_distinct_files_in_an_extends_tree(tmp_path: Path) -> None:
    for group in range(14):  # 14 chains of 5 files: 70 distinct files
        for i in range(5):
            house(tmp_path, f"g{group}-{i}", f"g{group}-{i + 1}.yaml" if i < 4 else "pl-standard")
    top = house(tmp_path, "top", [f"g{group}-0.yaml" for group in range(14)])
    with pytest.raises(LimitError) as info:
        load_ruleset(top)
    d = info.value.diagnostic
    assert d.code == "limit.extends_files"
    assert d.message == "the files this `extends` tree reads: 65 files, more than the limit of 64"
    assert d.hint == "if the input is meant to be this large, raise the limit: TYSIAC_MAX_EXTENDS_FILES=N"


def test_too_many_distinct_parents_in_one_list(tmp_path: Path) -> None:
    top = house(tmp_path, "top", [f"p{i}.yaml" for i in range(17)])
    with pytest.raises(LimitError) as info:
        load_ruleset(top)
    d = info.value.diagnostic
    assert (d.code, d.line, d.path) == ("limit.extends_parents", 4, ("extends",))
    assert d.message == "the `extends` list of one ruleset: 17 parents, more than the limit of 16"


def _options(count: int, kind: str) -> str:
    if kind == "bool":
        body = "    type: bool\n    default: true\n"
    else:
        body = "    type: choice\n    choices: [a, b, c]\n    default: a\n"
    return "options:\n" + "".join(f"  o{i}:\n{body}" for i in range(count))


def test_too_many_options_are_refused_before_any_is_validated(tmp_path: Path) -> None:
    path = house(tmp_path, "many", "pl-standard", _options(200, "choice"))
    with pytest.raises(LimitError) as info:
        load_ruleset(path)
    d = info.value.diagnostic
    assert (d.code, d.line, d.column, d.path) == ("limit.options", 6, 3, ("options",))
    assert d.message == "the table options of a ruleset: 207 options, more than the limit of 100"


def test_too_many_option_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYSIAC_MAX_OPTION_VALUES", "30")
    path = house(tmp_path, "many", "pl-standard", _options(8, "choice"))
    with pytest.raises(LimitError) as info:
        load_ruleset(path)
    assert info.value.diagnostic.message == (
        "the values of all table options of a ruleset: 38 values, more than the limit of 30"
    )


def test_the_command_line_names_an_allowed_folder(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from tysiac_spec.cli import main

    house(tmp_path / "b", "p", "pl-standard")
    top = house(tmp_path / "a", "h", "../b/p.yaml")
    refused = CliRunner().invoke(main, ["validate", str(top)])
    assert refused.exit_code == 1
    assert "error[merge.unknown-parent]: `../b/p.yaml` is outside the folders" in refused.output
    allowed = CliRunner().invoke(main, ["--rules-dir", str(tmp_path / "b"), "validate", str(top)])
    assert allowed.exit_code == 0, allowed.output
    assert allowed.output.startswith("ok  h ")


def test_a_parent_name_too_long_for_the_system_is_an_error_not_a_crash(tmp_path: Path) -> None:
    path = house(tmp_path, "long", "a" * 6000 + ".yaml")
    [d] = refusal(path).diagnostics
    assert (d.code, d.line) == ("merge.unknown-parent", 4)
    assert d.message == f"ruleset file `{'a' * 120}…(+5,885 characters)` cannot be read: File name too long"


def test_a_screenful_of_problems_is_printed_and_the_rest_counted(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from tysiac_spec.cli import main

    path = tmp_path / "dups.yaml"
    path.write_text("id: d\n" + "a: 1\n" * 3000, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert sum("error[yaml.duplicate-key]" in line for line in lines) == 20
    assert "... and 2,979 more problems (fix these first)" in lines


def test_a_pack_with_too_many_ranks_is_refused_before_the_engine_tabulates_its_suits(tmp_path: Path) -> None:
    ranks = "".join(f"    - {{id: r{i}, letter: '{chr(65 + i)}', points: 0, names: {{en: r{i}}}}}\n" for i in range(14))
    path = house(tmp_path, "wide", "pl-standard", "deck:\n  ranks:\n" + ranks)
    with pytest.raises(LimitError) as info:
        load_ruleset(path)
    d = info.value.diagnostic
    assert (d.code, d.path) == ("limit.deck_ranks", ("deck", "ranks"))
    assert d.message == "the ranks of a pack: 14 ranks, more than the limit of 13"


def test_an_auction_offering_a_million_bids_is_refused(tmp_path: Path) -> None:
    path = house(tmp_path, "bids", "pl-standard", "auction:\n  step: 1\n  cap: 1000000\n")
    with pytest.raises(LimitError) as info:
        load_ruleset(path)
    d = info.value.diagnostic
    assert (d.code, d.line, d.path) == ("limit.bids", 7, ("auction", "cap"))
    assert d.message == (
        "the bids of the 2-player auction, from 100 to the cap 1000000 in steps of 1: 999,901 amounts, "
        "more than the limit of 1,000"
    )


def test_a_fifo_named_in_extends_is_not_a_regular_file(tmp_path: Path) -> None:
    import os

    os.mkfifo(tmp_path / "pipe.yaml")
    path = house(tmp_path, "piped", "pipe.yaml")
    assert refusal(path).diagnostic.message == "ruleset file `pipe.yaml` is not a regular file"


def test_an_option_patch_written_as_an_annotated_value_is_an_error_not_a_crash(tmp_path: Path) -> None:
    # found by the mutation tests: `set: {"true": {value: "no", ...}}` crashed the model builder
    extra = 'options:\n  x:\n    type: bool\n    default: false\n    set:\n      "true": {value: "no", status: assumed}\n'
    path = house(tmp_path, "patchy", "pl-standard", extra)
    [d] = refusal(path).diagnostics
    assert (d.code, d.line, d.path) == ("option.set-shape", 10, ("options", "x", "set", "true"))
    assert d.message == (
        "option `x`'s patch for `true` is written as an annotated value (`value:`); a patch is a "
        "mapping of the rules it changes, e.g. `auction: {step: 5}`"
    )
