"""``tysiac build``: the static documentation site (rule books, comparison, DSL reference)."""

from __future__ import annotations

import time
from pathlib import Path

import click

from ..errors import SiteError
from ._common import stop_signals, user_errors

__all__ = ["build"]


@click.command("build")
@click.option(
    "--output", "-o", type=click.Path(file_okay=False, path_type=Path), default=Path("site"),
    show_default=True,
    help="Directory of the site. A new or empty directory, or one holding an earlier build: "
         "then only the files listed in its .tysiac-build.json are removed or replaced, other "
         "files are kept. A non-empty directory without that manifest is refused, nothing deleted.",
)
@click.option(
    "--rulesets", "extra", multiple=True, metavar="PATH",
    help="Also document this ruleset file (repeatable), e.g. a house rule file.",
)
def build(output: Path, extra: tuple[str, ...]) -> None:
    """Build the documentation site: an index of the rulesets, each rule book in
    English, Polish, Russian and Czech (HTML and Markdown), the comparison of the
    variants and the formula language reference. Plain files, no external
    resources: open site/index.html in a browser.

    Every build lists the files it wrote in .tysiac-build.json in the output directory;
    the next build there removes or replaces only those, so files you added are kept. The
    build refuses, changing nothing, when the directory is not empty and has no such
    manifest, or when a file of the new site would overwrite one of yours.

    \b
    Examples:
      tysiac build
      tysiac build -o /tmp/site --rulesets my-table.yaml
    """
    from ..docs.site import build_site

    @user_errors
    def run() -> None:
        start = time.perf_counter()
        try:
            with stop_signals():  # SIGTERM, SIGHUP: the temporary folder removed as on Ctrl-C
                written = build_site(output, extra=extra)
        except SiteError as exc:
            raise click.ClickException(exc.diagnostic.message) from None
        html = sum(1 for p in written if p.suffix == ".html")
        click.echo(
            f"built {output}/index.html: {html} pages, {len(written)} files "
            f"in {time.perf_counter() - start:.1f} s"
        )

    run()
