"""'Study it' without SciPy (a new user's trial: the README's install has no `study` extra):
refused at once, 503 with the pip command, before any match is played (it used to play every
match and then fail)."""

from __future__ import annotations

from pathlib import Path

from webserver import Served


def test_a_study_without_scipy_is_refused_before_it_starts(tmp_path: Path) -> None:
    hide = tmp_path / "hide"
    hide.mkdir()
    (hide / "sitecustomize.py").write_text("import sys\nsys.modules['scipy'] = None\n", encoding="utf-8")
    served = Served(tmp_path / "web.sqlite3", pythonpath=hide)
    try:
        text = "id: our-table\nkind: house\nextends: pl-standard\nname: {en: Ours}\nauction:\n  step: 20\n"
        status, answer = served.call("POST", "/api/studies", {"text": text, "matches": 4})
    finally:
        served.stop()
    assert status == 503
    assert answer == {"error": {"code": "study_unavailable",
                                "message": "a study's statistics need SciPy: pip install 'tysiac-spec[study]'"}}
