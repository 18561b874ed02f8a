"""The README's web-table example runs as written against a real ``tysiac serve``."""

from __future__ import annotations

import re
from pathlib import Path

from webserver import ROOT, Served


def test_the_readme_http_api_example_plays_a_deal(tmp_path: Path, capsys: object) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The web table", 1)[1].split("\n## ", 1)[0]
    (code,) = re.findall(r"```py\n(.*?)```", section, flags=re.S)
    assert 'BASE = "http://127.0.0.1:8000"' in code
    server = Served(tmp_path / "web.sqlite3", seeds=False)
    try:
        scope: dict[str, object] = {}
        exec(compile(code.replace("http://127.0.0.1:8000", server.url.rstrip("/")), "README.md", "exec"), scope)
        state = scope["state"]
        assert isinstance(state, dict) and (state["deals"] or state["over"])
        assert len(state["deals"][-1]["scores"]) == 3
    finally:
        server.stop()
