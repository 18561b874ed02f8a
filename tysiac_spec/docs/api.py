"""The Python API reference of the site (``api/`` beside the rule books), generated from the
docstrings by pdoc (the ``docs`` extra): the loader, ``Ruleset``/``Form``, ``Game``, ``View``,
the actions, the deal and position notations, the bots (and the process bots' protocol), the adapters and
the DSL.

One page per module of :data:`PUBLIC_MODULES`, each public name (the module's ``__all__``)
a section of it with its signature and docstring (Google sections, reST roles).  A module
whose optional dependency is not installed (an adapter without ``gymnasium``) is left out,
and said so in :func:`write_api`'s result.
"""

from __future__ import annotations

import importlib
import re
import tempfile
import warnings
from pathlib import Path

__all__ = ["PUBLIC_MODULES", "ApiMissing", "missing_modules", "public_names", "write_api"]

PUBLIC_MODULES = (
    "tysiac_spec",
    "tysiac_spec.ruleset",
    "tysiac_spec.ruleset.model",
    "tysiac_spec.engine",
    "tysiac_spec.engine.game",
    "tysiac_spec.engine.view",
    "tysiac_spec.engine.actions",
    "tysiac_spec.engine.deal_notation",
    "tysiac_spec.engine.position",
    "tysiac_spec.engine.record",
    "tysiac_spec.engine.replay",
    "tysiac_spec.cards",
    "tysiac_spec.errors",
    "tysiac_spec.bots",
    "tysiac_spec.bots.process",
    "tysiac_spec.simulate",
    "tysiac_spec.adapters",
    "tysiac_spec.adapters.gym",
    "tysiac_spec.adapters.pettingzoo",
    "tysiac_spec.adapters.openspiel",
    "tysiac_spec.dsl",
)
"""The modules of the public API, each a page of the reference (``api/<dotted/path>.html``)."""


class ApiMissing(RuntimeError):
    """pdoc (the ``docs`` extra) is not installed: the API reference cannot be written."""

    def __init__(self) -> None:
        super().__init__("the API reference needs pdoc: pip install 'tysiac-spec[docs]'")


def missing_modules() -> dict[str, str]:
    """The modules of :data:`PUBLIC_MODULES` that cannot be imported here (an optional
    dependency missing), with why."""
    out: dict[str, str] = {}
    for name in PUBLIC_MODULES:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            out[name] = str(exc)
    return out


def public_names(module: str) -> tuple[str, ...]:
    """The public names of ``module``: its ``__all__`` (the names its page documents)."""
    names: tuple[str, ...] = tuple(getattr(importlib.import_module(module), "__all__", ()))
    return names


def write_api(root: Path) -> list[Path]:
    """Write the API reference under ``root / "api"``: ``index.html``, a page per importable
    module of :data:`PUBLIC_MODULES` (``api/tysiac_spec/engine/game.html``) and pdoc's search
    index.  Returns the paths written, relative to ``root``.

    Raises:
        ApiMissing: pdoc is not installed.
    """
    try:
        import pdoc
        import pdoc.render
    except ImportError:
        raise ApiMissing() from None
    skip = missing_modules()
    modules = [m for m in PUBLIC_MODULES if m not in skip]
    for name in modules:  # a package importing its names on first use: import them now
        module = importlib.import_module(name)
        for attribute in public_names(name):
            if attribute not in vars(module) and hasattr(module, attribute):
                setattr(module, attribute, getattr(module, attribute))  # (as the package would)
    pdoc.render.configure(docformat="google", show_source=False, search=True,
                          footer_text="tysiac-spec API reference")
    with tempfile.TemporaryDirectory(prefix="tysiac-api-") as tmp:
        out = Path(tmp)
        with warnings.catch_warnings():  # a package's page names its submodules: said twice
            warnings.filterwarnings("ignore", message="The module specification", category=UserWarning)
            for name in skip:  # (pdoc warns, with a traceback, of each it could not import)
                warnings.filterwarnings("ignore", message=f"Couldn't import {re.escape(name)}:",
                                        category=UserWarning)
            # a package's spec walks its submodules: every module that is not one of the pages
            # is left out by pattern, or pdoc imports it, and stops at the first it cannot
            # import (an adapter, or its private core, without its extra)
            pages = "|".join(re.escape(m) for m in modules)
            pdoc.pdoc(*modules, f"!(?!(?:{pages})$)", output_directory=out)
        _tidy(out)
        written: list[Path] = []
        for path in sorted(p for p in out.rglob("*") if p.is_file()):
            rel = Path("api") / path.relative_to(out)
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
            written.append(rel)
    return written


_LOGO = re.compile(r'<img\s+alt="pdoc logo"\s+src="data:[^"]*"\s*/?>')
_LINK = re.compile(r'<a href="([^"#]*)#([^"]+)">(.*?)</a>', re.S)
_ID = re.compile(r'id="([^"]+)"')


def _tidy(out: Path) -> None:
    """Keep the pages within the site's rules: no image as a ``data:`` link (pdoc's logo in
    the footer), and no link to an anchor that is not there (a private base class's members,
    which pdoc lists as inherited but documents nowhere: the name stays, as text)."""
    pages = {p: p.read_text(encoding="utf-8") for p in out.rglob("*.html")}
    ids = {p.resolve(): set(_ID.findall(text)) for p, text in pages.items()}

    for path, text in pages.items():
        def unlink(match: re.Match[str], path: Path = path) -> str:
            target = (path.parent / match.group(1)).resolve() if match.group(1) else path.resolve()
            known = ids.get(target)
            if known is None or match.group(2) in known:
                return match.group(0)
            return match.group(3)

        tidy = _LINK.sub(unlink, _LOGO.sub("", text))
        if tidy != text:
            path.write_text(tidy, encoding="utf-8")
