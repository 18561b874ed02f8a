"""`tysiac build -o DIR` into an existing directory: only what an earlier build wrote (its
manifest, .tysiac-build.json) is removed or replaced; other files are kept, and a directory
that is not an earlier build's is refused with nothing changed.

Most tests replace the site's pages by a small fake build (the rules below do not depend
on what the pages say); one builds the real site twice.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import tysiac_spec.docs.site as site_module
from tysiac_spec.cli import main
from tysiac_spec.docs.site import MANIFEST, MARKER, build_site
from tysiac_spec.errors import SiteError


def _tree(root: Path) -> dict[str, str]:
    """Every file under ``root`` with its text (symbolic links as ``-> target``)."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_symlink():
            out[rel] = f"-> {path.readlink()}"
        elif path.is_file():
            out[rel] = path.read_text(encoding="utf-8")
    return out


@pytest.fixture
def pages(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The fake build: writes these pages (change the dict to change the next build)."""
    wanted = {"index.html": "index 1", "rules/a.html": "a 1", "rules/b.html": "b 1"}

    def write_site(root: Path, entries: object) -> list[Path]:
        written = []
        for rel, text in wanted.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text, encoding="utf-8")
            written.append(Path(rel))
        return written

    monkeypatch.setattr(site_module, "_write_site", write_site)
    monkeypatch.setattr(site_module, "_rulesets", lambda extra: [])
    return wanted


def test_a_new_directory_gets_the_site_and_its_manifest(tmp_path: Path, pages: dict[str, str]) -> None:
    out = tmp_path / "site"
    assert build_site(out) == [Path("index.html"), Path("rules/a.html"), Path("rules/b.html")]
    assert json.loads((out / MANIFEST).read_text(encoding="utf-8")) == {
        "built_by": "tysiac build", "files": ["index.html", "rules/a.html", "rules/b.html"],
    }
    assert _tree(out) == {**pages, MANIFEST: (out / MANIFEST).read_text(encoding="utf-8")}
    assert [p.name for p in tmp_path.iterdir()] == ["site"]  # no temporary directory left


def test_a_rebuild_keeps_the_users_files_and_removes_only_ours(tmp_path: Path, pages: dict[str, str]) -> None:
    # `tysiac build -o DIR` into an earlier build used to delete the files the user added.
    out = tmp_path / "site"
    build_site(out)
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    (out / "rules" / "mine.html").write_text("mine too", encoding="utf-8")
    (out / "extra").mkdir()
    (out / "extra" / "photo.txt").write_text("kept", encoding="utf-8")
    pages.pop("rules/b.html")  # the new build no longer writes b, and writes c
    pages["rules/c.html"] = "c 2"
    pages["index.html"] = "index 2"
    build_site(out)
    tree = _tree(out)
    assert tree.pop(MANIFEST) == '{\n "built_by": "tysiac build",\n "files": [\n  "index.html",\n' \
        '  "rules/a.html",\n  "rules/c.html"\n ]\n}\n'
    assert tree == {
        "extra/photo.txt": "kept", "index.html": "index 2", "notes.txt": "mine", "rules/a.html": "a 1",
        "rules/c.html": "c 2", "rules/mine.html": "mine too",
    }
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST, "extra", "index.html", "notes.txt", "rules"]


def test_an_emptied_directory_of_ours_is_removed_one_of_the_users_is_kept(
    tmp_path: Path, pages: dict[str, str]
) -> None:
    out = tmp_path / "site"
    build_site(out)
    pages.clear()
    pages["index.html"] = "only the index"
    build_site(out)
    assert _tree(out) == {"index.html": "only the index", MANIFEST: (out / MANIFEST).read_text(encoding="utf-8")}
    assert not (out / "rules").exists()


def test_a_directory_without_manifest_is_refused_and_left_alone(tmp_path: Path, pages: dict[str, str]) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "index.html").write_text("my own index", encoding="utf-8")
    (out / "notes.txt").write_text("keep me", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "-o", str(out)])
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {out} exists and is not a site built by `tysiac build` (it has no {MANIFEST}) and "
        "holds other files: index.html, notes.txt; nothing was changed: choose another directory, "
        "or move those files away\n"
    )
    assert _tree(out) == {"index.html": "my own index", "notes.txt": "keep me"}


def test_an_empty_existing_directory_is_built_into(tmp_path: Path, pages: dict[str, str]) -> None:
    out = tmp_path / "empty"
    out.mkdir()
    build_site(out)
    assert set(_tree(out)) == {*pages, MANIFEST}


def test_a_users_file_where_the_new_site_writes_is_refused(tmp_path: Path, pages: dict[str, str]) -> None:
    out = tmp_path / "site"
    build_site(out)
    (out / "rules" / "c.html").write_text("the user's c", encoding="utf-8")
    pages["rules/c.html"] = "c 2"
    pages["index.html"] = "index 2"
    before = _tree(out)
    with pytest.raises(SiteError) as info:
        build_site(out)
    assert info.value.diagnostic.message == (
        f"{out}: the new site would overwrite rules/c.html, not written by an earlier build; "
        "nothing was changed: move them away or choose another directory"
    )
    assert _tree(out) == before
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST, "index.html", "rules"]


def test_a_manifest_cannot_make_the_build_delete_outside_or_unlisted_files(
    tmp_path: Path, pages: dict[str, str]
) -> None:
    # A hostile manifest: paths outside DIR, through a symbolic link, or absent are never
    # deleted; only files found in DIR (links not followed) and listed are.
    outside = tmp_path / "outside.txt"
    outside.write_text("outside", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "x.html").write_text("behind a link", encoding="utf-8")
    out = tmp_path / "site"
    out.mkdir()
    (out / "link").symlink_to(elsewhere)
    (out / MANIFEST).write_text(json.dumps({"files": [
        "../outside.txt", str(outside), "link/x.html", "gone.html", "rules/a.html",
    ]}), encoding="utf-8")
    build_site(out)
    assert outside.read_text(encoding="utf-8") == "outside"
    assert (elsewhere / "x.html").read_text(encoding="utf-8") == "behind a link"
    assert (out / "link").is_symlink()


def test_an_unreadable_manifest_is_refused(tmp_path: Path, pages: dict[str, str]) -> None:
    out = tmp_path / "site"
    out.mkdir()
    (out / MANIFEST).write_text('{"files": "index.html"}', encoding="utf-8")
    with pytest.raises(SiteError) as info:
        build_site(out)
    assert info.value.diagnostic.message == (
        f'{out / MANIFEST}: not a manifest of `tysiac build` (expected {{"files": [paths]}}); '
        "nothing was changed"
    )
    (out / MANIFEST).write_text("{", encoding="utf-8")
    with pytest.raises(SiteError, match="cannot read the manifest of the earlier build"):
        build_site(out)


def test_a_site_of_an_older_build_is_rebuilt_only_if_it_holds_nothing_else(
    tmp_path: Path, pages: dict[str, str]
) -> None:
    out = tmp_path / "old"
    (out / "rules").mkdir(parents=True)
    (out / MARKER).write_text("built by tysiac build\n", encoding="utf-8")
    for rel in pages:
        (out / rel).write_text("old page", encoding="utf-8")
    (out / "rules" / "removed-ruleset.html").write_text("old page", encoding="utf-8")
    with pytest.raises(SiteError, match=r"holds other files: rules/removed-ruleset\.html; nothing was changed"):
        build_site(out)
    assert (out / MARKER).exists()
    (out / "rules" / "removed-ruleset.html").unlink()
    build_site(out)
    assert set(_tree(out)) == {*pages, MANIFEST}  # the marker went with the old site


def test_help_says_what_is_kept_and_refused() -> None:
    result = CliRunner().invoke(main, ["build", "--help"])
    text = " ".join(result.output.split())
    assert "only the files listed in its .tysiac-build.json are removed or replaced, other files are kept" in text
    assert "A non-empty directory without that manifest is refused, nothing deleted." in text


@pytest.mark.slow
def test_the_real_site_rebuilt_keeps_a_users_file(tmp_path: Path) -> None:
    out = tmp_path / "site"
    first = CliRunner().invoke(main, ["build", "-o", str(out)])
    assert first.exit_code == 0, first.output
    (out / "notes.txt").write_text("keep me", encoding="utf-8")
    listed = json.loads((out / MANIFEST).read_text(encoding="utf-8"))["files"]
    assert "index.html" in listed and "notes.txt" not in listed and MARKER not in listed
    second = CliRunner().invoke(main, ["build", "-o", str(out)])
    assert second.exit_code == 0, second.output
    assert (out / "notes.txt").read_text(encoding="utf-8") == "keep me"
    assert json.loads((out / MANIFEST).read_text(encoding="utf-8"))["files"] == listed
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == sorted(
        [*listed, MANIFEST, "notes.txt"]
    )
