"""``tysiac advise``: what a hand is worth at each bid (:mod:`tysiac_spec.bots.advisor`)."""

from __future__ import annotations

import json

import click

from ..bots.advisor import advise
from ..ruleset import load_ruleset
from ._common import parse_option_args, user_errors

__all__ = ["advise_cmd"]


def _scores(text: str | None) -> list[int] | None:
    if text is None:
        return None
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise click.BadParameter(f"expected whole numbers separated by commas, got {text!r}",
                                 param_hint="--scores") from None


@click.command("advise")
@click.argument("ruleset", metavar="ID|PATH")
@click.option("--players", "-p", type=int, required=True, help="Players at the table.")
@click.option("--hand", required=True, help='The hand, cards in notation: "AS TS KS QS AH TH KH".')
@click.option("--seat", type=int, help="The seat holding the hand (default: the first to bid).")
@click.option("--dealer", type=int, default=0, show_default=True, help="The dealer's seat.")
@click.option("--scores", help="The match scores by seat, e.g. 120,340,0 (default all 0).")
@click.option("--samples", type=int, default=12, show_default=True,
              help="Deals sampled (each played out double-dummy; about 0.2-2 s each).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the sampled deals.")
@click.option("--json", "as_json", is_flag=True, help="Print the advice as JSON.")
@click.option("--option", "-O", "options", multiple=True, metavar="NAME=VALUE",
              help="Set a table option of the ruleset (repeatable).")
@user_errors
def advise_cmd(ruleset: str, players: int, hand: str, seat: int | None, dealer: int, scores: str | None,
               samples: int, seed: int, as_json: bool, options: tuple[str, ...]) -> None:
    """For each bid level: the chance of making it (with its 95 % interval) and the expected
    change of score, from sampled deals played out double-dummy; and the recommended bid.

    The other hands and the talon are dealt at random; the player wins the auction, takes
    the talon, exchanges as the heuristic bot does, and every seat plays the solver's card.
    Double-dummy play knows every card: the figures lean to the optimistic side.
    """
    rules = load_ruleset(ruleset, options=parse_option_args(options))
    advice = advise(rules, players, hand, seat=seat, dealer=dealer, scores=_scores(scores),
                    samples=samples, seed=seed)
    if as_json:
        click.echo(json.dumps(advice.as_json(), ensure_ascii=False))
        return
    click.echo(f"{advice.ruleset}, {players} players, seat {advice.seat}: {' '.join(advice.hand)}")
    if not advice.auction:
        click.echo(f"the deal has no auction (a {advice.mode} deal): seat {advice.seat} plays the contract")
    click.echo(f"{advice.deals} of {advice.samples} sampled deals played out")
    head = "bid" if advice.auction else "contract"
    click.echo(f"{head:>8}  {'made':>6}  {'95 % interval':>15}  {'expected':>9}")
    for x in advice.levels:
        interval = f"{x.low:.0%}-{x.high:.0%}"
        click.echo(f"{x.bid:>8}  {x.probability:>6.0%}  {interval:>15}  {x.expected:>+9.1f}")
    if not advice.auction:
        click.echo(f"recommended: play the contract {advice.recommended}")
    else:
        click.echo(f"recommended: {'pass' if advice.recommended is None else f'bid {advice.recommended}'}")
