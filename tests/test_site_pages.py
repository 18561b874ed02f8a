"""The site's pages for players (issue 27, item 4): card pictures, the printable rule sheet
and scoresheet, the index's picker, the search index, house rules marked in their books.
Plain checks of the built HTML; the browser checks (print to PDF, screenshots at 390 and
1280 px) are in ``tests/web/test_browser_site.py``."""

from __future__ import annotations

import re

from tysiac_spec import load_ruleset
from tysiac_spec.docs import cards
from tysiac_spec.docs.book import build_book, render_book


def test_card_pictures_in_the_worked_examples() -> None:
    html = render_book(build_book(load_ruleset("pl-standard"), lang="pl"), "html")
    # the page carries each card it shows once, as a symbol, and refers to it per card
    symbols = re.findall(r'<symbol id="card-(\w+)"', html)
    assert len(symbols) == len(set(symbols)) == 24  # the examples deal the whole pack
    uses = re.findall(r'<svg class="card" viewBox="0 0 100 140" role="img" aria-label="([^"]+)">'
                      r'<use href="#card-(\w+)"/></svg>', html)
    assert ("dama kier", "QH") in uses and ("dziesiątka pik", "TS") in uses
    assert {code for _, code in uses} == set(symbols)
    assert "<script" not in html.split("<h1>")[0]  # pictures need no script


def test_card_faces_are_drawn_from_the_pack() -> None:
    deck = load_ruleset("pl-standard").deck
    assert cards.card_code(deck, "10♥") == "TH" and cards.card_code(deck, "QS") == "QS"
    assert cards.card_code(deck, "ZZ") is None
    assert cards.card_use(deck, "ZZ", "en") == "ZZ"
    one = cards.sprite(deck, ["TH"])
    assert one.count("<symbol") == 1
    # the ten prints "10" (its digit alias), red, with the hearts shape
    assert 'fill="#c0152f">10</text>' in one and cards.SHAPES["hearts"] in one
    court = cards.sprite(deck, ["KC"])
    assert 'fill="#16181d">K</text>' in court and court.count(cards.SHAPES["clubs"]) == 2
    assert cards.sprite(deck, []) == ""
    assert cards.sprite_file(deck).count("<symbol id=\"card-") == 24 + 1  # and the back


def test_rule_sheet_lines_are_the_books_rules_in_words() -> None:
    from tysiac_spec.docs.sheet import render_scoresheet, sheet_lines

    book = build_book(load_ruleset("pl-standard"), lang="pl")
    lines = sheet_lines(book)
    assert lines[0].level == 0 and lines[0].label == "2. Gracze i rozdanie"
    assert any(ln.level == 2 and ln.label == "Wartość meldunku" and ln.text == "kier 100, karo 80, trefl 60, pik 40"
               for ln in lines), [ln for ln in lines if "meld" in ln.label.lower()]
    assert not any(ln.label.startswith("options.") or "Źródła" in ln.label for ln in lines)
    sheet = render_scoresheet("ru")
    assert sheet.count("<td></td>") == 32 * 5 and sheet.count(">Имя:</th>") == 4


def test_house_book_marks_the_rules_it_changes_from_its_base(tmp_path) -> None:  # type: ignore[no-untyped-def]
    book = build_book(load_ruleset("house-five-up"), lang="pl")
    marked = {r.path: r.changed for s in book.sections for r in s.rules if r.changed is not None}
    assert book.base == "pl-standard" and book.changed == 3
    assert marked == {
        "auction.raise_by": "o dowolną wielokrotność kroku (skoki dozwolone)",  # the option's effect, at the rule
        "options.five_rounds": "w dół (25 → 20)",
        "options.graduated_auction": "nie",
    }
    html = render_book(book, "html")
    assert html.count('class="rule leaf depth-0 changed"') == 3
    assert "zmienione w tych zasadach domowych; w pl-standard: o dowolną wielokrotność kroku" in html
    # the option that changes the rule is named at the rule
    rule = html[html.index('id="auction-raise_by"'):]
    rule = rule[:rule.index("<div class=\"rule ", 10)]
    assert "ustawia opcja stołu <a href=\"#options-graduated_auction\">“Licytacja stopniowana (tylko o 10)”: tak</a>" in rule
    # a variant's book marks nothing; a user's house file its own change
    assert build_book(load_ruleset("pl-standard")).changed == 0
    house = tmp_path / "mine.yaml"
    house.write_text("id: mine\nkind: house\nextends: pl-standard\nname: {en: Mine}\nauction: {min_bid: 110}\n",
                     encoding="utf-8")
    mine = build_book(load_ruleset(house))
    assert [(r.path, r.changed) for s in mine.sections for r in s.rules if r.changed] == [("auction.min_bid", "100")]


def test_formulas_name_options_in_words() -> None:
    text = render_book(build_book(load_ruleset("pl-standard"), lang="pl"), "md")
    assert "(połówki według: opcja “Zaokrąglanie wyniku obrońcy kończącego się na 5”)" in text
    assert "five_rounds`)" not in text
