"""The Jinja2 environment of the rule book, the comparison and the site.

Templates live in ``templates/`` beside this module (package data).  Names ending in
``.html.j2`` are autoescaped; the ``inline`` filter turns the light markup of the
content (```code```, ``**bold**``) into HTML, escaping everything else.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

__all__ = ["inline", "red_suits", "render_template"]

TEMPLATES = Path(__file__).parent / "templates"

_INLINE = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*|(https?://[^\s<>\"()]+[^\s<>\"().,;:])")


def inline(text: object) -> Markup:
    """Escape ``text`` for HTML, turning `code` spans and **bold** into tags and web
    addresses into links."""
    out: list[str] = []
    pos = 0
    source = str(text)
    for m in _INLINE.finditer(source):
        out.append(str(escape(source[pos:m.start()])))
        if m.group(1) is not None:
            out.append(f"<code>{escape(m.group(1))}</code>")
        elif m.group(2) is not None:
            out.append(f"<strong>{escape(m.group(2))}</strong>")
        else:
            out.append(f'<a href="{escape(m.group(3))}">{escape(m.group(3))}</a>')
        pos = m.end()
    out.append(str(escape(source[pos:])))
    return Markup("".join(out))


def red_suits(html: object) -> Markup:
    """Mark the red suit symbols (♥ ♦) of already-escaped HTML for colouring."""
    text = str(html)
    for symbol in ("♥", "♦"):
        text = text.replace(symbol, f'<span class="red">{symbol}</span>')
    return Markup(text)


def anchor(text: object) -> str:
    """An HTML id from a path or name: ``auction.cap`` -> ``auction-cap``."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", str(text)).strip("-")


def capitalize(text: object) -> str:
    """``text`` with its first letter in upper case (the rest unchanged)."""
    source = str(text)
    return source[:1].upper() + source[1:]


@cache
def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",), default_for_string=False),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["inline"] = inline
    env.filters["red"] = red_suits
    env.filters["anchor"] = anchor
    env.filters["cap"] = capitalize
    return env


def render_template(name: str, **context: Any) -> str:
    """Render the template ``name`` (``book.md.j2``) with ``context``."""
    return _env().get_template(name).render(**context)
