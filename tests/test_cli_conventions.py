"""The CLI behaves like the tools around it (issue 16, items 3-5): grep's -q and -l,
a quiet end on a closed pipe, one name for stdin, one line and exit 2 for any I/O
error, and -o that never replaces what is not a regular file.

Signals, pipes and closed descriptors need a real process: those tests run one.
Nothing here writes outside tmp_path; /dev/full is only ever opened for writing.
"""
from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import feed_stdin as feed
from conftest import run_cli as run

CLI = [sys.executable, "-c", "import sys; from encspec.cli import main; sys.exit(main(sys.argv[1:]))"]
ENTRY = [sys.executable, "-c", "from encspec.cli.main import entry; entry()"]   # as the `encspec` script


def one_error_line(err: str) -> str:
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("encspec: error: "), err
    return lines[0]


@pytest.fixture
def files(tmp_path):
    ok = tmp_path / "ok.txt"
    ok.write_bytes("caf\u00e9\n".encode())
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"b\xc0d\n")
    return ok, bad


# ----------------------------------------------------------- validate -q / -l
def test_validate_quiet_is_status_only(files, capsys):
    ok, bad = files
    assert run(capsys, "validate", "-q", "utf-8", ok) == (0, "", "")
    assert run(capsys, "validate", "--quiet", "utf-8", ok, bad) == (1, "", "")
    assert run(capsys, "validate", "--silent", "utf-8", bad, ok) == (1, "", "")
    rc, out, err = run(capsys, "validate", "-q", "utf-8", ok, ok.parent / "missing.txt")
    assert (rc, out) == (2, "")                       # errors still say so on stderr, as grep -q does
    assert one_error_line(err).endswith("missing.txt: no such file")


def test_validate_list_names_only_the_files_not_valid(files, capsys):
    ok, bad = files
    assert run(capsys, "validate", "-l", "utf-8", ok, bad, ok) == (1, f"{bad}\n", "")
    assert run(capsys, "validate", "--list-invalid", "utf-8", ok) == (0, "", "")


@pytest.mark.parametrize("flags", [["-q", "-l"], ["-l", "--json"], ["--quiet", "--json"]])
def test_validate_output_modes_are_mutually_exclusive(files, capsys, flags):
    rc, out, err = run(capsys, "validate", *flags, "utf-8", files[0])
    assert (rc, out) == (2, "")
    assert "cannot be used together" in one_error_line(err)


def test_chart_codepage_and_automaton_rejected_together(tmp_path, capsys):
    rc, out, err = run(capsys, "chart", "utf-8", "--codepage", "--automaton", "-o", tmp_path / "x.svg")
    assert (rc, out) == (2, "")
    assert "--codepage and --automaton cannot be used together" in one_error_line(err)
    assert not (tmp_path / "x.svg").exists()


def test_validate_empty_directory_is_an_error_not_success(tmp_path, files, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    rc, out, err = run(capsys, "validate", "utf-8", empty, files[0])
    assert rc == 2 and out == f"{files[0]}: valid\n"   # the other files are still checked
    assert one_error_line(err) == f"encspec: error: {empty}: a directory with no files in it"


# ------------------------------------------------------------- stdin's name
def test_stdin_is_named_stdin_in_every_message(tmp_path, monkeypatch, capsys):
    feed(monkeypatch, b"b\xc0d\n")
    rc, out, _ = run(capsys, "validate", "utf-8", "-")
    assert rc == 1 and out.splitlines() == ["<stdin>:1:2: error: invalid start byte: C0 (byte 1)",
                                            "<stdin>: invalid: 1 error"]
    feed(monkeypatch, b"b\xc0d\n")
    rc, _, err = run(capsys, "validate", "--json", "utf-8", "-")
    assert rc == 1
    for args in (["decode", "utf-8"], ["decode", "utf-8", "-"], ["transcode", "--from", "utf-8", "--to", "wtf-8", "-"]):
        feed(monkeypatch, b"b\xc0d\n")
        rc, out, err = run(capsys, *args)
        assert rc == 1 and one_error_line(err) == "encspec: error: <stdin>: byte 1: invalid start byte: C0", args
    feed(monkeypatch, b"b\xc0d\n")
    rc, _, err = run(capsys, "encode", "utf-8", "-")
    assert rc == 1 and one_error_line(err).startswith("encspec: error: <stdin>: byte 1: not UTF-8 text")
    feed(monkeypatch, b"x\n")
    rc, out, _ = run(capsys, "lint", "corrected-utf-8", "-")
    assert rc == 0 and out.startswith("<stdin>:1:1: warning: ")


@pytest.mark.parametrize("args", [["validate", "utf-8", "-"], ["decode", "utf-8"], ["encode", "utf-8", "-"],
                                  ["transcode", "--from", "utf-8", "--to", "wtf-8"], ["tokens", "utf-8", "-"],
                                  ["lint", "corrected-utf-8", "-"]])
def test_closed_stdin_is_one_line_naming_stdin(monkeypatch, capsys, args):
    monkeypatch.setattr(sys, "stdin", None)           # what Python makes of a closed fd 0
    rc, out, err = run(capsys, *args)
    assert (rc, out) == (2, "")
    assert one_error_line(err) == "encspec: error: <stdin>: bad file descriptor"


# --------------------------------------------------------- closed pipes
def big_invalid(tmp_path) -> Path:
    f = tmp_path / "many.txt"
    f.write_bytes(b"x\x80\n" * 200_000)                # every kind of output well beyond a pipe's buffer
    return f


@pytest.mark.parametrize("args", [["validate", "utf-8", "{f}"], ["decode", "utf-8", "{f}", "--errors", "replace"],
                                  ["tokens", "utf-8", "{f}"],
                                  ["transcode", "--from", "utf-8", "--to", "wtf-8", "{f}", "--errors", "replace"]])
def test_closed_pipe_ends_quietly_by_sigpipe(tmp_path, args):
    """`encspec … | head -1`: no message, no traceback, and the status of a process ended
    by SIGPIPE (a shell shows 141), not 1, which validate uses for "invalid"."""
    f = big_invalid(tmp_path)
    argv = [a.format(f=f) for a in args]
    for command, expected in ((ENTRY, -signal.SIGPIPE), (CLI, 128 + signal.SIGPIPE)):
        proc = subprocess.Popen(command + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert proc.stdout.readline()
        proc.stdout.close()
        err = proc.stderr.read()
        assert proc.wait(timeout=300) == expected, err
        assert err == b""


# ------------------------------------------------------------ I/O errors
@pytest.mark.parametrize("args", [["export", "utf-8", "--lang", "json", "-o", "{x}"],
                                  ["build", "utf-8", "-o", "{x}"],
                                  ["chart", "utf-8", "--codepage", "-o", "{x}/c.svg"],
                                  ["vectors", "utf-8", "-o", "{x}/v.txt"],
                                  ["decode", "utf-8", "{ok}", "-o", "{x}/d.txt"]])
def test_output_under_a_regular_file_is_one_line(tmp_path, files, capsys, args):
    """A folder that cannot be made (here: below a regular file, which stops root too)."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    rc, out, err = run(capsys, *[a.format(x=blocker / "x", ok=files[0]) for a in args])
    assert rc == 2
    line = one_error_line(err)
    assert str(blocker) in line and ("not a directory" in line or "does not exist" in line), line


@pytest.mark.parametrize("args", [["export", "utf-8", "--lang", "json", "-o", "{d}/e"],
                                  ["build", "utf-8", "-o", "{d}/b"],
                                  ["chart", "utf-8", "--automaton", "-o", "{d}/a.dot"],
                                  ["vectors", "utf-8", "-o", "{d}/v.jsonl"],
                                  ["decode", "utf-8", "{ok}", "-o", "{d}/d.txt"]])
def test_unwritable_folder_is_one_line(tmp_path, files, capsys, monkeypatch, args):
    """Permission denied (faked: tests may run as root, whom chmod does not stop)."""
    d = tmp_path / "locked"
    d.mkdir()

    def deny(*a, **k):
        raise PermissionError(13, "Permission denied", str(d))
    import tempfile
    monkeypatch.setattr(tempfile, "mkstemp", deny)
    monkeypatch.setattr(Path, "write_text", deny)
    rc, out, err = run(capsys, *[a.format(d=d, ok=files[0]) for a in args])
    assert rc == 2
    line = one_error_line(err)                        # the folder, or the file that could not go in it
    assert line.startswith(f"encspec: error: {d}") and line.endswith(": permission denied"), line


def full_disk_run(argv):
    with open("/dev/full", "wb") as full:              # opened for writing only: it is never replaced
        return subprocess.run(CLI + argv, stdout=full, stderr=subprocess.PIPE, timeout=300)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("args", [["validate", "utf-8", "{ok}"], ["decode", "utf-8", "{ok}"],
                                  ["tokens", "utf-8", "{ok}"], ["describe", "utf-8"],
                                  ["vectors", "utf-8", "-o", "-"], ["chart", "utf-8", "--codepage", "-o", "-"]])
def test_full_disk_on_stdout_is_one_line(files, args):
    proc = full_disk_run([a.format(ok=files[0]) for a in args])
    assert proc.returncode == 2
    assert proc.stderr.decode() == "encspec: error: write error: no space left on device\n"


@pytest.mark.parametrize("close", ["<&-", ">&-"])
def test_closed_stdin_or_stdout_is_one_line(files, close):
    script = f'exec "$@" {close}'
    for args in (["decode", "utf-8"], ["tokens", "utf-8", "-"], ["validate", "utf-8", "-"]):
        if close == ">&-":
            args = args[:-1] + [str(files[0])] if args[-1] == "-" else args + [str(files[0])]
        proc = subprocess.run(["sh", "-c", script, "sh"] + CLI + args, stdin=subprocess.DEVNULL,
                              capture_output=close == "<&-", stderr=subprocess.PIPE if close == ">&-" else None,
                              timeout=300)
        expected = "<stdin>: bad file descriptor" if close == "<&-" else "write error: bad file descriptor"
        assert proc.returncode == 2, (args, proc.stderr)
        assert proc.stderr.decode() == f"encspec: error: {expected}\n", args


# ------------------------------------------------------------------- -o
def test_output_dash_is_stdout_for_every_command_with_o(tmp_path, files, capsysbinary, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc, out, _ = run(capsysbinary, "vectors", "utf-8", "-o", "-")
    assert rc == 0 and out.startswith(b"utf-8: conformance test vectors")
    rc, out, _ = run(capsysbinary, "vectors", "utf-8", "-o", "-", "--format", "jsonl")
    assert rc == 0 and json.loads(out.splitlines()[0])
    rc, out, _ = run(capsysbinary, "chart", "utf-8", "--codepage", "-o", "-")
    assert rc == 0 and out.lstrip().startswith(b"<") and b"<svg" in out
    rc, out, _ = run(capsysbinary, "chart", "utf-8", "--automaton", "-o", "-")
    assert rc == 0 and b"digraph" in out
    rc, out, _ = run(capsysbinary, "decode", "utf-8", files[0], "-o", "-")
    assert (rc, out) == (0, files[0].read_bytes())
    for command in (["export", "utf-8", "--lang", "json"], ["build", "utf-8"]):
        rc, out, err = run(capsysbinary, *command, "-o", "-")
        assert (rc, out) == (2, b"") and b"standard output cannot hold" in err
    assert not (tmp_path / "-").exists()


def test_missing_parent_folders_are_created(tmp_path, capsys):
    assert run(capsys, "export", "utf-8", "--lang", "json", "-o", tmp_path / "a/b/c")[0] == 0
    assert any((tmp_path / "a/b/c").iterdir())
    assert run(capsys, "chart", "utf-8", "--codepage", "-o", tmp_path / "d/e/c.svg")[0] == 0
    assert (tmp_path / "d/e/c.svg").read_text("utf-8").lstrip().startswith("<")
    assert run(capsys, "vectors", "utf-8", "-o", tmp_path / "f/g/v.txt")[0] == 0
    assert (tmp_path / "f/g/v.txt").stat().st_size > 0


def test_output_symlink_is_followed_not_replaced(tmp_path, files, capsys):
    ok = files[0]
    target = tmp_path / "target.txt"
    target.write_text("old")
    target.chmod(0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    assert run(capsys, "decode", "utf-8", ok, "-o", link)[0] == 0
    assert link.is_symlink() and target.read_bytes() == ok.read_bytes()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to(tmp_path / "new.txt")
    assert run(capsys, "vectors", "utf-8", "-o", dangling)[0] == 0
    assert dangling.is_symlink() and (tmp_path / "new.txt").stat().st_size > 0
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_output_onto_a_symlink_loop_is_refused(tmp_path, files, capsys):
    """realpath stops inside a loop: the rename would replace the link. Refused, as for
    a loop in a folder above the output, and for the commands that write folders."""
    ok = files[0]
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    (tmp_path / "self").symlink_to(tmp_path / "self")
    (tmp_path / "self.svg").symlink_to(tmp_path / "self.svg")
    cases = [(("decode", "utf-8", ok, "-o"), "a"), (("encode", "utf-8", ok, "-o"), "b"),
             (("transcode", "--from", "utf-8", "--to", "utf-16le", ok, "-o"), "self"),
             (("vectors", "utf-8", "-o"), "a"), (("chart", "utf-8", "--codepage", "-o"), "self.svg"),
             (("decode", "utf-8", ok, "-o"), "a/inside.txt"), (("export", "utf-8", "--lang", "json", "-o"), "a"),
             (("build", "utf-8", "-o"), "b"), (("playground", "-o"), "self")]
    for argv, name in cases:
        rc, out, err = run(capsys, *argv, tmp_path / name)
        assert (rc, out) == (2, ""), (argv, err)
        shown = tmp_path / name
        assert one_error_line(err) == f"encspec: error: {shown}: a symbolic link loop (too many levels of symbolic links)"
    for name, to in (("a", "b"), ("b", "a"), ("self", "self"), ("self.svg", "self.svg")):
        assert (tmp_path / name).is_symlink() and os.readlink(tmp_path / name) == str(tmp_path / to)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b", "bad.txt", "ok.txt", "self", "self.svg"]


def test_output_fifo_is_written_in_place(tmp_path, files, capsys):
    ok = files[0]
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    rc = run(capsys, "decode", "utf-8", ok, "-o", fifo)[0]
    reader.join(60)
    assert rc == 0 and got == [ok.read_bytes()]       # the reader got the data
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)       # and the FIFO is still one


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_leave_no_temporary_file(tmp_path, signum):
    out = tmp_path / "out.txt"
    proc = subprocess.Popen(CLI + ["decode", "utf-8", "-o", str(out)], stdin=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdin.write(b"started\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob(".out.txt.*.tmp")):  # the conversion is under way (stdin still open)
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)
    proc.send_signal(signum)
    assert proc.wait(timeout=60) == 128 + signum
    proc.stdin.close()
    assert proc.stderr.read() == b""
    assert list(tmp_path.iterdir()) == []              # neither OUT nor its temporary file


# ------------------------------------------------------------ progress bar
def test_validate_bar_completes_and_closes_before_the_results(tmp_path):
    import fcntl
    import pty
    import struct
    import termios
    paths = []
    for k in range(2):
        f = tmp_path / f"part{k}.txt"
        f.write_bytes(b"0123456789abcde\n" * (3 << 16))   # 3 MiB each: a bar is shown (over 4 MiB in all)
        paths.append(str(f))
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    proc = subprocess.run(CLI + ["validate", "-j", "1", "utf-8"] + paths, stdout=slave, stderr=slave, timeout=300)
    os.close(slave)
    got = b""
    while True:
        try:
            piece = os.read(master, 65536)
        except OSError:
            break
        if not piece:
            break
        got += piece
    os.close(master)
    text = got.decode("utf-8", "replace").replace("\r\n", "\n")
    assert proc.returncode == 0
    assert "100%" in text                                 # it was completed, not left at 84%
    first = text.index(f"{paths[0]}: valid")
    assert text.rfind("validate:") < first                # every bar frame precedes the results
    assert text[first - 1] in "\r\n"                      # the result starts its own line
    assert text[first:].splitlines()[:2] == [f"{paths[0]}: valid", f"{paths[1]}: valid"]


# ------------------------------------------- conventions of issue 33, item 4
def test_transcode_takes_iconvs_f_and_t(files, capsysbinary):
    ok, _ = files
    short = run(capsysbinary, "transcode", "-f", "utf-8", "-t", "utf-16le", ok)
    long = run(capsysbinary, "transcode", "--from", "utf-8", "--to", "utf-16le", ok)
    assert short == long == (0, "caf\u00e9\n".encode("utf-16-le"), b"")


@pytest.mark.parametrize("args", [[], ["-"]], ids=["no path", "dash"])
def test_validate_reads_standard_input(monkeypatch, capsys, args):
    feed(monkeypatch, b"b\xc0d\n")
    assert run(capsys, "validate", "utf-8", *args) == (
        1, "<stdin>:1:2: error: invalid start byte: C0 (byte 1)\n<stdin>: invalid: 1 error\n", "")
    feed(monkeypatch, "caf\u00e9\n".encode())
    assert run(capsys, "validate", "utf-8", *args) == (0, "<stdin>: valid\n", "")


def option_help(capsys, command: str, flag: str) -> str:
    """The help text of *command*'s option *flag*, joined from its wrapped lines."""
    rc, out, _ = run(capsys, command, "--help")
    assert rc == 0
    lines = [line for line in out.split("Options:")[1].splitlines() if line.strip()]

    def names(line: str) -> list[str]:   # "  -q, --quiet, --silent   Print…" -> the option's names
        head = line.strip().split("  ")[0]
        return [n.split()[0] for n in head.replace(" / ", ", ").split(", ")] if head.startswith("-") else []

    start = next(i for i, line in enumerate(lines) if flag in names(line))
    text = [lines[start].strip().split("  ", 1)[-1]]
    for line in lines[start + 1:]:
        if names(line):
            break
        text.append(line)
    return " ".join(" ".join(text).split()).replace("- ", "-")   # click wraps after a hyphen too


@pytest.mark.parametrize("command", ["decode", "encode", "transcode", "validate"])
def test_q_means_quiet_and_no_progress_only_the_bar(capsys, command):
    """One meaning for -q across commands: print nothing but errors (documented in the
    guide); --no-progress is the switch for the progress bar alone."""
    assert "Print nothing but errors" in option_help(capsys, command, "-q")
    assert option_help(capsys, command, "--no-progress").endswith("No progress bar.")


def test_decode_quiet_drops_the_fallback_note(files, capsys):
    _, bad = files
    rc, out, err = run(capsys, "decode", "utf-8", bad, "--fallback")
    assert (rc, out) == (0, "b\u00c0d\n") and err.startswith("decoded as cp1252")
    assert run(capsys, "decode", "-q", "utf-8", bad, "--fallback") == (0, "b\u00c0d\n", "")


@pytest.mark.parametrize("command, flag, default", [
    ("decode", "--errors", "strict"), ("encode", "--errors", "strict"), ("transcode", "--errors", "strict"),
    ("validate", "--split-size", "16M"), ("validate", "--reject-reserved", "allow-reserved"),
])
def test_help_shows_defaults(capsys, command, flag, default):
    assert option_help(capsys, command, flag).endswith(f"[default: {default}]")


def complete(capsys, monkeypatch, *words: str) -> list[tuple[str, str]]:
    """(type, value) of each completion bash is offered for ``encspec WORDS``."""
    monkeypatch.setenv("_ENCSPEC_COMPLETE", "bash_complete")
    monkeypatch.setenv("COMP_WORDS", " ".join(["encspec", *words]))
    monkeypatch.setenv("COMP_CWORD", str(len(words)))
    rc, out, _ = run(capsys, *words)
    assert rc == 0
    return [tuple(line.split(",", 1)) for line in out.splitlines()]


@pytest.mark.parametrize("words", [["decode", "wtf"], ["validate", "wtf"], ["transcode", "-f", "wtf"],
                                   ["transcode", "--to", "wtf"], ["diff", "utf-8", "wtf"], ["describe", "wtf"]])
def test_completion_offers_spec_names_then_files(capsys, monkeypatch, words):
    got = complete(capsys, monkeypatch, *words)
    names = [value for kind, value in got if kind == "plain"]
    assert {"wtf-8", "wtf-16"} <= set(names) and all(n.startswith("wtf") for n in names)
    assert got[-1] == ("file", "wtf")   # a spec of one's own, by its path


def test_completion_offers_aliases(capsys, monkeypatch):
    got = complete(capsys, monkeypatch, "decode", "utf8n")
    assert ("plain", "utf8n") in got


def test_completion_of_command_names(capsys, monkeypatch):
    assert complete(capsys, monkeypatch, "tr") == [("plain", "transcode")]
