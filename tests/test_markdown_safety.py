"""Ruleset text is untrusted: the Markdown rule books and comparisons print it inert.

Raw HTML, ``javascript:``/``data:`` links and Markdown link or image syntax from a house
file must not reach a Markdown viewer as markup; only http(s) addresses stay links.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from markdown_it import MarkdownIt

from tysiac_spec.cli import main
from tysiac_spec.docs.render import markdown_cell, markdown_code, markdown_text

EVIL = """\
id: evil-table
kind: house
extends: pl-standard
name: {en: "<script>alert(1)</script> & [x](javascript:alert(1))"}
description: {en: "Hi <img src=x onerror=alert(2)> ![p](javascript:alert(3)) \\\\`<b>` ok `code <i>`"}
sources:
  - id: EV1
    title: "[t](javascript:alert(4)) <svg onload=alert(5)>"
    language: en
    url: "javascript:alert(6)"
  - id: EV2
    title: Data
    language: en
    url: "data:text/html,<script>alert(7)</script>"
  - id: EV3
    title: Web
    language: en
    url: "https://example.org/a?b=1&c=2"
deal:
  source: [EV1]
  status: assumed
  reason: "because <b onmouseover=alert(8)>x</b> [y](javascript:alert(9))"
  first_dealer: random
options:
  five_rounds:
    type: choice
    choices: [down, up]
    default: down
    doc:
      en: "Round <iframe src=javascript:alert(10)> | [z](javascript:alert(11))"
"""


@pytest.mark.parametrize(("text", "expected"), [
    ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
    ("a & b", "a &amp; b"),
    ("[x](javascript:alert(1))", "\\[x\\](javascript:alert(1))"),
    ("![i](data:x)", "!\\[i\\](data:x)"),
    ("<javascript:alert(1)>", "&lt;javascript:alert(1)&gt;"),
    ("`a <b>` and **c <d>**", "`a <b>` and **c &lt;d&gt;**"),
    ("\\`<b>`", "\\\\`<b>`"),
    ("lone ` tick <i>", "lone \\` tick &lt;i&gt;"),
    ("`one\n\n<p>two`", "\\`one\n\n&lt;p&gt;two\\`"),
    ("see https://example.org/x?a=1&b=2.", "see https://example.org/x?a=1&b=2."),
    ("https://e.org/[a](javascript:alert(1))", "https://e.org/\\[a\\](javascript:alert(1))"),
    ("147 < 150, 220 >= 121", "147 &lt; 150, 220 &gt;= 121"),
])
def test_markdown_text_makes_ruleset_text_inert(text: str, expected: str) -> None:
    assert markdown_text(text) == expected
    assert markdown_text(markdown_text(text)) == expected  # escaped once, never twice


def test_code_spans_and_table_cells() -> None:
    assert markdown_code("points >= contract") == "`points >= contract`"
    assert markdown_code("a`<b>") == "a\\`&lt;b&gt;"
    assert markdown_cell("`a|b` <c> | d") == "`a\\|b` &lt;c&gt; \\| d"


def _render(markdown: str) -> str:
    return MarkdownIt("commonmark").enable("table").render(markdown)


def _assert_inert(html: str) -> None:
    assert not re.search(r"<(script|img|svg|iframe|b)\b", html)
    assert not re.search(r"(href|src)=\"(?!https?://)", html)


def test_docs_command_prints_untrusted_texts_inert(tmp_path: Path) -> None:
    house = tmp_path / "evil-table.yaml"
    house.write_text(EVIL, encoding="utf-8")
    result = CliRunner().invoke(main, ["docs", str(house)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "# &lt;script&gt;alert(1)&lt;/script&gt; &amp; \\[x\\](javascript:alert(1))"
    assert lines[2] == "Hi &lt;img src=x onerror=alert(2)&gt; !\\[p\\](javascript:alert(3)) \\\\`<b>` ok `code <i>`"
    assert ("_Sources: EV1_ · **assumed**: The sources are silent or disagree here; this value is our "
            "assumption — because &lt;b onmouseover=alert(8)&gt;x&lt;/b&gt; \\[y\\](javascript:alert(9))") in lines
    assert "  _Round &lt;iframe src=javascript:alert(10)&gt; | \\[z\\](javascript:alert(11))_" in lines
    assert "- **EV1**: \\[t\\](javascript:alert(4)) &lt;svg onload=alert(5)&gt; (en) — javascript:alert(6)" in lines
    assert "- **EV2**: Data (en) — data:text/html,&lt;script&gt;alert(7)&lt;/script&gt;" in lines
    assert "- **EV3**: Web (en) — https://example.org/a?b=1&c=2" in lines
    html = _render(result.output)
    _assert_inert(html)
    assert "<a " not in html  # CommonMark makes no link of any of it


def test_compare_markdown_prints_untrusted_texts_inert(tmp_path: Path) -> None:
    house = tmp_path / "evil-table.yaml"
    house.write_text(EVIL, encoding="utf-8")
    result = CliRunner().invoke(main, ["compare", "pl-standard", str(house), "--format", "md"])
    assert result.exit_code == 0, result.output
    assert ("- `evil-table`: &lt;script&gt;alert(1)&lt;/script&gt; &amp; \\[x\\](javascript:alert(1))"
            in result.output.splitlines())
    _assert_inert(_render(result.output))
