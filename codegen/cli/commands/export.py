"""``encspec export``: tables and a small decoder in another language, as a package of its ecosystem."""
from __future__ import annotations

from pathlib import Path

import click

from ...emit.java_target import package_error
from ...emit.targets import exports, require
from ...pipeline import export
from ..common import Fail, load_spec, output_folder
from ..index import complete_spec


@click.command("export")
@click.argument("spec", shell_complete=complete_spec)
@click.option("--lang", required=True, help="Target language: json, c, rust, js, java.")
@click.option("-o", "--out", "out_dir", required=True, type=click.Path(file_okay=False),
              help="Output folder (created with any missing parents).")
@click.option("--java-package", "java_package", metavar="NAME",
              help="Java package of the java export (default: org.encspec.<name>, e.g. org.encspec.utf8).")
def command(spec, lang, out_dir, java_package):
    """Write the tables and a small dependency-free decoder for SPEC in another language.

    A spec the language cannot hold (C and Rust: 64-bit limits) is refused with
    one line before anything is written."""
    available = exports()
    if lang not in available:
        raise Fail(f"unknown language '{lang}' (available: {', '.join(sorted(available))})")
    # the regenerate line of every file repeats SPEC as given (a path stays that path)
    options = {"spec_arg": spec} if "spec_arg" in available[lang].options else {}
    if java_package is not None:
        if lang != "java":
            raise Fail("--java-package applies to --lang java only")
        why = package_error(java_package)
        if why is not None:
            raise Fail(f"--java-package {java_package!r} is not a Java package name: {why}")
        options["java_package"] = java_package
    out = Path(out_dir)
    _, automaton = load_spec(spec)
    require(automaton, lang)
    output_folder(out)   # after the refusals: a refused spec leaves no folder behind
    for path in export(automaton, lang, out, options):
        click.echo(f"wrote {path}")
