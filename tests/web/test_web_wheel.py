"""The wheel carries the web table: ``tysiac serve`` starts from an installed wheel, its
static files are package data (issue 24, item 9)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_tysiac_serve_starts_from_the_installed_wheel(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                    "-w", str(wheels), str(ROOT)], check=True, cwd=tmp_path)
    (wheel,) = wheels.glob("tysiac_spec-*.whl")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # (the wheel, not this checkout)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=env)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True, env=env)
    # the dependencies: the test environment's site-packages, after the wheel's own
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True, env=env).stdout.strip()
    (Path(site) / "zz_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    found = subprocess.run([str(python), "-c", "import tysiac_spec.apps.web.server as s; print(s.STATIC)"],
                           check=True, capture_output=True, text=True, cwd=tmp_path, env=env).stdout.strip()
    static = Path(found)
    assert static.is_relative_to(Path(site)), static  # the wheel's copy, not the checkout
    for name in ("index.html", "table.html"):
        assert (static / name).is_file()
    assert list(static.glob("js/*.js")) and list(static.glob("css/*.css"))
    helped = subprocess.run([str(venv / "bin" / "tysiac"), "serve", "--help"], capture_output=True, text=True,
                            cwd=tmp_path, env=env)
    assert helped.returncode == 0 and "--db" in helped.stdout
    proc = subprocess.Popen([str(venv / "bin" / "tysiac"), "serve", "--port", "0", "--db", str(tmp_path / "w.db")],
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env)
    try:
        assert proc.stderr is not None
        url = None
        deadline = time.monotonic() + 60
        while url is None and time.monotonic() < deadline:
            line = proc.stderr.readline()
            found_url = re.search(r"tysiac serve: (http://\S+/)", line)
            url = found_url.group(1) if found_url else None
        assert url is not None
        with urllib.request.urlopen(url, timeout=30) as page:
            assert b"<html" in page.read().lower()
        with urllib.request.urlopen(url + "api/rulesets", timeout=30) as listing:
            assert b"pl-standard" in listing.read()
    finally:
        proc.terminate()
        proc.wait(30)
