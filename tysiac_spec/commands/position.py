"""``tysiac position``: read a position in position notation, show its legal actions, apply
actions and print the position they reach (:mod:`tysiac_spec.engine.position`)."""

from __future__ import annotations

import dataclasses
import sys

import click

from ..engine.actions import parse_action
from ..engine.game import Game
from ..errors import IllegalActionError, NotationError
from ..ruleset import load_ruleset
from ._common import parse_option_args, user_errors

__all__ = ["position_cmd"]


@click.command("position")
@click.argument("ruleset", metavar="ID|PATH")
@click.argument("text", metavar="POSITION")
@click.option("--apply", "actions", multiple=True, metavar="ACTION",
              help="Apply this action of the player to move (repeatable, in order), e.g. --apply 'play 9H'.")
@click.option("--option", "-O", "options", multiple=True, metavar="NAME=VALUE",
              help="Set a table option of the ruleset (repeatable).")
@user_errors
def position_cmd(ruleset: str, text: str, actions: tuple[str, ...], options: tuple[str, ...]) -> None:
    """Read a position in the middle of a deal (position notation, like chess's FEN) and
    print it back in canonical form, the player to move and the legal actions; with
    `--apply`, apply the actions first.

    The position shows every card, hidden ones too: it is a notation for analysis and bug
    reports (`Game.position()` writes one). A text that is not a position is shown under its
    error with a caret at the column (`POSITION:1:12: error[notation.card]`), status 1.
    """
    rules = load_ruleset(ruleset, options=parse_option_args(options))
    try:
        game = Game.from_position(rules, text)
    except NotationError as exc:
        d = dataclasses.replace(exc.diagnostic, file="POSITION")
        print(d.render(source=text), file=sys.stderr)
        sys.exit(1)
    for action in actions:
        try:
            game.apply(parse_action(action, rules.deck))
        except (NotationError, IllegalActionError) as exc:
            d = dataclasses.replace(exc.diagnostic, file="--apply", hint=None)
            print(d.render(source=action), file=sys.stderr)
            sys.exit(1)
    click.echo(str(game.position()))
    if game.is_over:
        click.echo("the match is over")
        return
    click.echo(f"{game.phase}, player {game.current_player} to move")
    click.echo("legal: " + ", ".join(map(str, game.legal_actions())))
