"""``encspec diff``: the byte sequences two encodings disagree on."""
from __future__ import annotations

import json
import sys

import click

from ..common import Fail, load_spec
from ..index import complete_spec


@click.command("diff")
@click.argument("spec_a", shell_complete=complete_spec)
@click.argument("spec_b", shell_complete=complete_spec)
@click.option("--json", "as_json", is_flag=True, help="Print the differences as one JSON document.")
def command(spec_a, spec_b, as_json):
    """Compare two encodings: sequences valid in one only, and valid in both but decoded
    differently, as byte-range patterns.  Exit 0 when equivalent, 1 when not."""
    from ...analyse.diff import diff, text
    _, a = load_spec(spec_a)
    _, b = load_spec(spec_b)
    if a.permutation != b.permutation:
        # the walk compares the bytes the automata read: through different permutations
        # those are not the same real bytes
        raise Fail(f"cannot compare {a.name} and {b.name}: they read their bytes through different "
                   "permutations ('bytes through'), and diff compares the bytes the automata read")
    for x in (a, b):
        if x.digit_run is not None:  # the walk reads the automaton; a run is read beside it
            raise Fail(f"cannot compare {x.name} yet: it has a run of digits, which diff's walk over the "
                       "automaton does not read (compare them with `encspec decode` on the same files)")
    d = diff(a, b)
    click.echo(json.dumps(d.to_json(), indent=1) if as_json else text(d))
    if not d.equivalent:
        sys.exit(1)  # as `build --check` and `lint` do: main() drops click's Exit codes
