"""The Jinja2 environment of the rule book, the comparison and the site.

Templates live in ``templates/`` beside this module (package data).  Names ending in
``.html.j2`` are autoescaped; the ``inline`` filter turns the light markup of the
content (```code```, ``**bold**``) into HTML, escaping everything else.

Names ending in ``.md.j2`` get the same guarantee for Markdown: every ``{{ … }}`` passes
through :func:`markdown_text` (the environment's ``finalize``), which keeps the light markup
and http(s) addresses and makes everything else inert text (HTML, links, images).  The
``code`` filter prints a value as a code span, ``cell`` as a table cell, ``md_done`` marks
the output of a macro (already escaped piece by piece).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

__all__ = ["MarkdownText", "inline", "markdown_code", "markdown_text", "red_suits", "render_template"]

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


# Markdown: a code span (one line, no backtick), **bold**, an http(s) address; brackets,
# backslashes and backticks end an address so that nothing after it turns into a link.
_MD_INLINE = re.compile(r"`([^`\n]+)`|\*\*([^*]+)\*\*|(https?://[^\s<>\"()\[\]\\`]+[^\s<>\"()\[\]\\`.,;:])")
_MD_PLAIN = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\\": "\\\\", "[": "\\[", "]": "\\]", "`": "\\`"}
_MD_PLAIN_RE = re.compile("[" + re.escape("".join(_MD_PLAIN)) + "]")


class MarkdownText(str):
    """Text already made safe for Markdown (printed as is by the ``.md.j2`` templates)."""

    __slots__ = ()


def _md_plain(text: str) -> str:
    return _MD_PLAIN_RE.sub(lambda m: _MD_PLAIN[m.group(0)], text)


def markdown_text(text: object) -> MarkdownText:
    """``text`` (from a ruleset, so untrusted) as inert Markdown: ``<``, ``>`` and ``&``
    become HTML entities, brackets, backslashes and stray backticks are backslash-escaped
    (no link, image or raw HTML can start), while `code` spans, **bold** and http(s)
    addresses stay as they are.  Text already escaped (:class:`MarkdownText`) is unchanged."""
    if isinstance(text, MarkdownText):
        return text
    out: list[str] = []
    pos = 0
    source = str(text)
    for m in _MD_INLINE.finditer(source):
        out.append(_md_plain(source[pos:m.start()]))
        if m.group(1) is not None:
            out.append(markdown_code(m.group(1)))
        elif m.group(2) is not None:
            out.append(f"**{_md_plain(m.group(2))}**")
        else:
            out.append(m.group(3))
        pos = m.end()
    out.append(_md_plain(source[pos:]))
    return MarkdownText("".join(out))


def markdown_code(text: object) -> MarkdownText:
    """``text`` as a Markdown code span (shown literally); as escaped plain text when it
    holds a backtick or a line break, which a single-backtick span cannot."""
    source = str(text)
    if "`" in source or "\n" in source or "\r" in source or not source:
        return MarkdownText(_md_plain(source))
    return MarkdownText(f"`{source}`")


def markdown_cell(text: object) -> MarkdownText:
    """``text`` as the content of a Markdown table cell: :func:`markdown_text` with ``|`` escaped."""
    return MarkdownText(markdown_text(text).replace("|", "\\|"))


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


def _environment(**escaping: Any) -> jinja2.Environment:
    """A template environment over :data:`TEMPLATES` with the project's whitespace rules;
    ``escaping`` says how printed values are escaped."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        **escaping,
    )


@cache
def _env() -> jinja2.Environment:
    env = _environment(
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",), default_for_string=False)
    )
    env.filters["inline"] = inline
    env.filters["red"] = red_suits
    env.filters["anchor"] = anchor
    env.filters["cap"] = capitalize
    return env


@cache
def _md_env() -> jinja2.Environment:
    """The environment of the ``.md.j2`` templates: every printed value goes through
    :func:`markdown_text`, so no template can print ruleset text unescaped."""
    env = _environment(autoescape=False, finalize=markdown_text)
    env.filters["cap"] = capitalize
    env.filters["code"] = markdown_code
    env.filters["cell"] = markdown_cell
    env.filters["md_done"] = MarkdownText
    return env


def render_template(name: str, **context: Any) -> str:
    """Render the template ``name`` (``book.md.j2``) with ``context``."""
    env = _md_env() if name.endswith(".md.j2") else _env()
    return env.get_template(name).render(**context)
