"""The compiled form (:mod:`tysiac_spec.engine.compiled`): made once per form, shared by its
games, kept on the form and gone with it (the engine keeps no table of forms)."""

from __future__ import annotations

import copy as copy_module
import gc
import weakref
from collections.abc import Callable
from dataclasses import fields, replace
from pathlib import Path

import pytest

from tysiac_spec import load_ruleset
from tysiac_spec.engine import Game, PlayCard, compile_form, play
from tysiac_spec.engine.state import DealState
from tysiac_spec.ruleset import Form, Ruleset

RULES = Path(__file__).parent.parent / "rulesets" / "pl-standard.yaml"


def _fresh() -> Ruleset:
    """pl-standard loaded from its text: a ruleset (and forms) not cached by the loader."""
    return load_ruleset("pl-standard-copy.yaml", text=RULES.read_text(encoding="utf-8"))


def test_games_of_one_form_compile_it_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many games of one form compile it once and share the one immutable result."""
    calls = []
    compile_apply = play.compile_apply

    def counting(form: Form) -> Callable[[DealState, PlayCard], None]:
        calls.append(form)
        return compile_apply(form)

    monkeypatch.setattr(play, "compile_apply", counting)
    rules = _fresh()
    assert rules.form(3).compiled is None
    games = [Game(rules, players=3, seed=s) for s in range(20)]
    assert len(calls) == 1
    assert all(g.compiled is games[0].compiled is rules.form(3).compiled for g in games)
    assert all(g._table is games[0]._table and g._play_apply is games[0]._play_apply for g in games)
    with pytest.raises(AttributeError):
        games[0].compiled.table = None  # type: ignore[misc, assignment]


def test_compile_form_is_the_games_compilation_and_not_a_rule() -> None:
    """``compile_form`` returns the object the games use; the cache is no field of the form
    and changes no comparison or copy of it (``replace`` makes a new form, compiled anew)."""
    rules = _fresh()
    form = rules.form(3)
    game = Game(rules, players=3, seed=1)
    assert compile_form(form, rules.deck.cards) is game.compiled
    copy = replace(form)
    assert copy == form and copy.compiled is None and copy_module.copy(form).compiled is None
    assert "compiled" not in repr(form) and "compiled" not in {f.name for f in fields(form)}
    assert compile_form(copy, rules.deck.cards) is not game.compiled


def test_a_form_no_game_or_ruleset_holds_is_freed_with_its_compilation() -> None:
    """The compiled form is kept on the form only: when no game or ruleset holds the form,
    both go.  (``Form`` takes no weak reference; the compiled play function does, and the
    form holds it through ``form.compiled``, so while it lives the form may; once it is gone
    the form is.)"""
    rules = _fresh()
    first, second = Game(rules, players=3, seed=1), Game(rules, players=3, seed=2)
    assert first.compiled is second.compiled
    play_apply = weakref.ref(first.compiled.play_apply)
    form_id = id(rules.form(3))
    del first, second, rules
    gc.collect()
    assert play_apply() is None
    assert not any(id(o) == form_id and type(o).__name__ == "Form" for o in gc.get_objects())
