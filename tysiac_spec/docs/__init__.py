"""Documentation generated from the resolved rulesets: the rule book in English, Polish,
Russian and Czech (:func:`build_book`, :func:`render_book`), and the static site
(:func:`build_site`).  The comparison of rulesets is :mod:`tysiac_spec.docs.compare`."""

from __future__ import annotations

from .book import Book, build_book, render_book
from .site import build_site

__all__ = ["Book", "build_book", "build_site", "render_book"]
