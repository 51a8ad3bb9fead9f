"""The playground (``encspec playground``, web/): its Python side, its wheels, and the page
driven in headless Chromium.

The browser test builds the site into a temporary folder, serves it on a free local
port and drives Debian's chromium through chromedriver (Selenium): it types the
Corrected UTF-8 spec and ``C0 AF FE 80 41``, reads back the tokens, the describe rows,
an error at its line and column, and the panels the slower request fills; a spec that
takes too long stops the worker, which restarts.  It prints the first-load and
keystroke-to-tokens times and keeps a screenshot (``$ENCSPEC_ARTEFACTS`` or a
temporary folder).  npm, chromium, chromedriver and selenium are found or the test
skips naming them (fails under ENCSPEC_REQUIRE_TOOLS=1).
"""
from __future__ import annotations

import functools
import http.server
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path

import pytest

import tools

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
CUTF8 = (ROOT / "specs" / "corrected-utf-8.encspec").read_text("utf-8")
INPUT = "C0 AF FE 80 41"
# The tokens for C0 AF FE 80 41: C0 AF is U+00CF (offset 160), FE starts a reserved run.
TOKENS = ["char 0 2 CF", "reserved 2 4", "char 4 5 41"]
# Corrected UTF-8's rows as the document's "Putting it all together" table gives them.
DESCRIBE_ROWS = [
    ["1", "00", "7F", "0", "U+0000", "U+007F"],
    ["2", "C0 80", "DF BF", "160", "U+00A0", "U+089F"],
    ["3", "E0 80 80", "EC BD 9F", "2208", "U+08A0", "U+D7FF"],
    ["3", "EC BD A0", "EF BF BF", "4256", "U+E000", "U+1109F"],
    ["4", "F0 80 80 80", "F7 BF BF BF", "69792", "U+110A0", "U+21109F"],
    ["5", "F8 80 80 80 80", "FB BF BF BF BF", "2166944", "U+2110A0", "U+421109F"],
    ["6", "FC 80 80 80 80 80", "FD BF BF BF BF BF", "69275808", "U+42110A0", "U+8421109F"],
]
# A line that breaks the spec: the bit pattern's q is no bit, at column 18.
BROKEN_LINE = "form 7: 11111110 10xxqxxx"
BROKEN_COLUMN = BROKEN_LINE.index("10xxqxxx") + 1
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1400,1000")
LOAD_TIMEOUT = 240   # seconds: Pyodide's start on a busy two-core machine
STEP_TIMEOUT = 120


# ------------------------------------------------------------ the Python side
@pytest.fixture(scope="module")
def play(tmp_path_factory):
    """web/play.py imported under CPython, its spec folder in a temporary directory."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ENCSPEC_PLAY_DIR", str(tmp_path_factory.mktemp("play")))
        spec = importlib.util.spec_from_file_location("encspec_play", WEB / "play.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return module


def _run(play, **request) -> dict:
    return json.loads(play.run(json.dumps(request)))


def test_play_tokens_reasons_and_describe(play):
    out = _run(play, spec=CUTF8, input=INPUT, mode="hex", other="")
    assert [t["line"] for t in out["tokens"]] == TOKENS
    assert out["tokens"][1]["reason"] == "reserved sequence"
    assert out["tokens"][0]["char"] == "\u00cf"
    rows = out["describe"]["json"]["rows"]
    assert [(r["first_bytes"], r["offset"]) for r in rows] == [(r[1], int(r[3])) for r in DESCRIBE_ROWS]
    assert all(out["check"]["properties"].values())
    assert 'data-byte="C0"' in out["chart"] and out["dot"].startswith("//")


def test_play_error_at_line_and_column(play):
    out = _run(play, spec=CUTF8 + BROKEN_LINE + "\n", input=INPUT)
    line = CUTF8.count("\n") + 1
    assert (out["error"]["line"], out["error"]["column"]) == (line, BROKEN_COLUMN)
    assert out["error"]["text"].startswith(f"spec.encspec:{line}:{BROKEN_COLUMN}: unexpected '10xxqxxx'")


@pytest.mark.parametrize("value, index, words", [
    ("C0 AG", 4, "invalid hex digit 'G'"),
    ("C0 A", 3, "odd number of hex digits"),
])
def test_play_invalid_hex_in_place(play, value, index, words):
    out = _run(play, spec=CUTF8, input=value, mode="hex", parts=["tokens"])
    assert "tokens" not in out
    assert out["input_error"]["index"] == index and words in out["input_error"]["message"]


def test_play_text_is_encoded_with_the_spec(play):
    out = _run(play, spec=CUTF8, input="\u00cfA", mode="text", parts=["tokens"])
    assert out["bytes"] == "C0 AF 41"   # U+00CF is C0 AF in Corrected UTF-8 (UTF-8: C3 8F)


def test_play_diff_and_examples(play):
    utf8 = (ROOT / "specs" / "utf-8.encspec").read_text("utf-8")
    wtf8 = (ROOT / "specs" / "wtf-8.encspec").read_text("utf-8")
    out = _run(play, spec=utf8, other=wtf8, parts=["diff"])
    assert "ED A0..BF 80..BF   e.g. ED A0 80 = U+D800" in out["diff"]["text"]
    assert out["diff"]["equivalent"] is False
    names = [e["name"] for e in json.loads(play.examples())]
    assert "corrected-utf-8" in names and "whatwg-big5" in names


def test_play_table_spec_finds_its_tables(play):
    big5 = (ROOT / "specs" / "whatwg-big5.encspec").read_text("utf-8")
    out = _run(play, spec=big5, input="A4 40", parts=["tokens"])
    assert [t["line"] for t in out["tokens"]] == ["char 0 2 4E00"]   # 一, Big5's first hanzi


# ------------------------------------------------------------ the wheels
def test_wheels_are_pure_and_enough(tmp_path):
    """The site's wheels hold no compiled code, and with nothing but them and the
    standard library (python -S: no site-packages) play.py answers."""
    from encspec.io import playground as web
    wheels = [web.encspec_wheel(ROOT)] + [web.dependency_wheel(n) for n in web.DEPENDENCIES]
    lib = tmp_path / "lib"
    for name, data in wheels:
        assert name.endswith("-py3-none-any.whl")
        path = tmp_path / name
        path.write_bytes(data)
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
            assert not [n for n in names if n.endswith((".so", ".pyd", ".c"))]
            z.extractall(lib)
    assert (lib / "encspec" / "specs" / "corrected-utf-8.encspec").is_file()
    assert web.encspec_wheel(ROOT) == wheels[0]   # deterministic bytes
    script = ("import json, sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]; import play, markupsafe; "
              "assert 'site-packages' not in markupsafe.__file__; "
              "print(json.dumps([t['line'] for t in json.loads(play.run(json.dumps("
              "{'spec': open(sys.argv[3]).read(), 'input': 'C0 AF FE 80 41', 'parts': ['tokens']})))['tokens']]))")
    proc = subprocess.run([sys.executable, "-S", "-c", script, str(lib), str(WEB),
                           str(ROOT / "specs" / "corrected-utf-8.encspec")],
                          capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, ENCSPEC_PLAY_DIR=str(tmp_path / "play")))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == TOKENS


def test_missing_npm_is_one_line(tmp_path, monkeypatch):
    from encspec.io import playground as web
    monkeypatch.setenv("PATH", str(tmp_path))   # no npm on it
    with pytest.raises(web.BuildError, match="npm is not installed"):
        web.ensure_node_modules(tmp_path)


def test_npm_ci_fetches_missing_packages(tmp_path, monkeypatch):
    """node_modules missing: `npm ci` runs in web/ (a stand-in npm here, which records its
    arguments and makes the packages' folders); its failure is one line with npm's last."""
    from encspec.io import playground as web
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    folders = " ".join(f"node_modules/{package}" for package, _, _ in web.VENDOR)
    npm.write_text(f'#!/bin/sh\necho "$@" > args\n[ -e fail ] && {{ echo "npm ERR! offline" >&2; exit 1; }}\n'
                   f"mkdir -p {folders}\n")
    npm.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin")   # the stand-in first
    site = tmp_path / "web"
    site.mkdir()
    (site / "fail").write_text("")
    with pytest.raises(web.BuildError, match=r"npm ci in .* failed \(exit 1\): npm ERR! offline"):
        web.ensure_node_modules(site, log=open(os.devnull, "w"))
    (site / "fail").unlink()
    assert web.ensure_node_modules(site, log=open(os.devnull, "w")) == site / "node_modules"
    assert (site / "args").read_text().split()[0] == "ci"


def test_playground_command_writes_a_folder_not_stdout(capsys):
    from encspec.cli.main import main
    assert main(["playground", "-o", "-"]) == 2
    assert "standard output cannot hold" in capsys.readouterr().err


# ------------------------------------------------------------ the page
def _selenium():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        tools.missing("selenium is not installed (pip install -e '.[test]')")
    return webdriver, Service


class _Quiet(http.server.SimpleHTTPRequestHandler):
    """A static server that says nothing and knows the page's types (.mjs, .wasm)."""
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm"}

    def log_message(self, *args):
        pass


def _serve(folder: Path):
    """Serve *folder* on a free local port in a thread: (base URL, the server to shut down)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/", server


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The site, built by `encspec playground -o DIR` into a temporary folder."""
    if not (WEB / "node_modules").is_dir():
        # the build would run npm ci in the checkout: a test never writes outside its temp dirs
        tools.missing("web/node_modules not found: run `npm ci` in web/ first (.ci/run does)")
    out = tmp_path_factory.mktemp("site")
    from encspec.cli.main import main
    assert main(["playground", "-o", str(out)]) == 0
    assert (out / "index.html").is_file() and (out / "vendor" / "pyodide" / "pyodide.asm.wasm").is_file()
    return out


@pytest.fixture(scope="module")
def site(built):
    """The built site's base URL, served on a local port."""
    url, server = _serve(built)
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser(site, tmp_path_factory):
    webdriver, Service = _selenium()
    chromium = tools.need(lambda: tools.find("chromium", hint="Debian's chromium package"))
    driver_path = tools.need(lambda: tools.find("chromedriver", hint="Debian's chromium-driver package"))
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    yield driver
    driver.quit()


def _wait(driver, script: str, timeout: float, what: str):
    """Poll *script* (JavaScript returning a value) until it is truthy; that value."""
    deadline = time.monotonic() + timeout
    while True:
        value = driver.execute_script(script)
        if value:
            return value
        if time.monotonic() > deadline:
            seen = driver.execute_script(
                "const $ = (id) => document.getElementById(id); return {status: $('status').textContent, "
                "error: $('error').textContent, input_error: $('input-error').textContent, "
                f"tokens: (function(){{ {TOKENS_JS} }})()}}")
            raise AssertionError(f"timed out after {timeout} s waiting for {what}; the page shows {seen}")
        time.sleep(0.1)


STALE_PANELS = ["strip", "tokens", "describe", "describe-text", "check", "chart", "automaton", "diff"]
STALE_JS = (f"return {json.dumps(STALE_PANELS)}"
            ".filter(id => document.getElementById(id).classList.contains('stale'))")
TOKENS_JS = "return [...document.querySelectorAll('#tokens tbody tr')].map(r => r.dataset.token)"
SETTLED_JS = ("const p = window.playground; return p && p.shownGen === p.gen "
              "&& document.getElementById('status').dataset.state === 'ready'")


def _tokens_are(driver, expected, timeout=STEP_TIMEOUT):
    _wait(driver, f"const t = (function(){{ {TOKENS_JS} }})(); return JSON.stringify(t) === "
                  f"{json.dumps(json.dumps(expected, separators=(',', ':')))}", timeout, f"tokens {expected}")


def _artefacts() -> Path:
    folder = Path(os.environ.get("ENCSPEC_ARTEFACTS") or tempfile.mkdtemp(prefix="encspec-artefacts-"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_page_decodes_describes_and_locates_errors(browser, site):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    d = browser
    t0 = time.monotonic()
    d.get(site)
    _wait(d, "return window.playground && window.playground.firstTokensMs", LOAD_TIMEOUT, "the first tokens")
    first_load_wall = time.monotonic() - t0
    timings = d.execute_script("return window.playground")

    spec = d.find_element(By.ID, "spec")
    spec.click()
    spec.send_keys(Keys.CONTROL, "a")
    spec.send_keys(Keys.DELETE)
    spec.send_keys(CUTF8)
    box = d.find_element(By.ID, "input")
    box.click()
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.DELETE)
    box.send_keys(INPUT)
    _tokens_are(d, TOKENS)
    # one keystroke on a settled page, timed by the page from the key's input event to the
    # tokens drawn (the debounce included): the last digit taken away (odd hex), then typed
    _wait(d, SETTLED_JS, STEP_TIMEOUT, "the page to settle")
    box.send_keys(Keys.BACK_SPACE)
    _wait(d, SETTLED_JS, STEP_TIMEOUT, "the odd hex digit")
    assert d.find_element(By.ID, "input-error").text.startswith("odd number of hex digits (9)")
    box.send_keys("1")
    _wait(d, SETTLED_JS, STEP_TIMEOUT, "the last digit")
    _tokens_are(d, TOKENS)
    assert d.find_element(By.ID, "input-error").get_attribute("hidden") is not None
    keystroke = d.execute_script("return window.playground.keystrokeToTokensMs")
    debounce = d.execute_script("return window.playground.debounceMs")
    assert d.find_element(By.ID, "spec").get_attribute("value") == CUTF8
    reasons = d.execute_script("return [...document.querySelectorAll('#tokens tbody tr')]"
                               ".map(r => r.cells[3].textContent)")
    assert reasons == ["", "reserved sequence", ""]

    rows = d.execute_script("return [...document.querySelectorAll('#describe tbody tr')]"
                            ".map(r => [...r.cells].map(c => c.textContent))")
    assert rows == DESCRIBE_ROWS

    # the slower panels: check, the code page (a hover per byte), the automaton, the diff
    _wait(d, SETTLED_JS, STEP_TIMEOUT, "check, chart, automaton and diff")
    checks = d.execute_script("return [...document.querySelectorAll('#check tr[data-property]')]"
                              ".map(r => [r.dataset.property, r.cells[1].textContent])")
    assert dict(checks) == {name: "yes" for name in ("prefix_free", "self_synchronizing", "order_preserving",
                                                      "ascii_compatible", "bijective", "total")}
    assert d.execute_script("return document.querySelectorAll('#chart g.cell').length") == 256
    assert d.execute_script("return document.querySelector('#chart #bC0 title').textContent") \
        == "C0: lead of 2-byte sequences from U+00A0"
    _wait(d, "return document.querySelector('#automaton svg g.node')", STEP_TIMEOUT, "the automaton from Graphviz")
    assert d.find_element(By.ID, "diff").text.startswith("valid only in corrected-utf-8:")
    assert d.find_element(By.CSS_SELECTOR, "#diff button.example").text == "C0 80"   # e.g. C0 80 = U+00A0

    d.execute_script("document.getElementById('spec').scrollTop = 0")
    shot = _artefacts() / "playground.png"
    d.save_screenshot(str(shot))
    print(f"\nplayground screenshot: {shot}")

    # break the spec on purpose: an error at its line and column, the line marked
    spec.send_keys(Keys.CONTROL, Keys.END)
    spec.send_keys(BROKEN_LINE)
    line = CUTF8.count("\n") + 1
    _wait(d, SETTLED_JS, STEP_TIMEOUT, "the spec error")
    error = d.find_element(By.ID, "error")
    assert error.text.startswith(f"spec.encspec:{line}:{BROKEN_COLUMN}: unexpected '10xxqxxx'")
    assert (error.get_attribute("data-line"), error.get_attribute("data-column")) == (str(line), str(BROKEN_COLUMN))
    assert d.find_element(By.ID, "mark").get_attribute("data-line") == str(line)
    # the panels still show the last good spec's results: dimmed and labelled as such
    assert d.find_element(By.ID, "stale-note").get_attribute("hidden") is None
    assert d.execute_script(STALE_JS) == STALE_PANELS

    # invalid hex, reported in place
    box.send_keys(" 4G")
    spec.send_keys(Keys.BACK_SPACE * len(BROKEN_LINE))
    _wait(d, SETTLED_JS, STEP_TIMEOUT, "the invalid hex")
    assert d.find_element(By.ID, "error").get_attribute("hidden") is not None   # the spec is whole again
    assert d.find_element(By.ID, "stale-note").get_attribute("hidden") is not None
    _wait(d, SETTLED_JS, STEP_TIMEOUT, "the panels of the whole spec")
    assert [p for p in d.execute_script(STALE_JS) if p not in ("strip", "tokens")] == []  # the hex is still bad
    bad = d.find_element(By.ID, "input-error")
    assert bad.text == "invalid hex digit 'G' at character 17" and bad.get_attribute("data-index") == "16"

    print(f"playground first load: {timings['loadMs'] / 1000:.1f} s to Python ready, "
          f"{timings['firstTokensMs'] / 1000:.1f} s to the first tokens ({first_load_wall:.1f} s seen by the test); "
          f"keystroke to tokens: {keystroke:.0f} ms ({debounce} ms of it the debounce); "
          f"Python's start, ms per step: {timings['startPhases']}")


def test_page_counterexample_loads_into_input(browser, site):
    """The share link carries spec and input; a counterexample's button loads its bytes."""
    from urllib.parse import urlencode

    from selenium.webdriver.common.by import By
    cesu = (ROOT / "specs" / "cesu-8.encspec").read_text("utf-8")
    d = browser
    d.get(site + "?page=2#" + urlencode({"spec": cesu, "input": "41", "mode": "hex"}))
    _tokens_are(d, ["char 0 1 41"], LOAD_TIMEOUT)
    _wait(d, SETTLED_JS, STEP_TIMEOUT, "check")
    button = d.find_element(By.CSS_SELECTOR, "#check tr[data-property=order_preserving] button.example")
    assert button.text == "EF BF BF"
    button.click()
    _tokens_are(d, ["char 0 3 FFFF"])
    assert d.find_element(By.ID, "input").get_attribute("value") == "EF BF BF"


def test_page_survives_a_slow_spec(browser, site):
    """A spec the compiler takes longer than the limit on stops the worker with a message;
    Python restarts and the next spec decodes."""
    from urllib.parse import urlencode

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    skips = "".join(f"skip U+{i * 0x101:04X}..U+{i * 0x101 + 3:04X}\n" for i in range(1, 8000))
    slow = ("encoding slow\ncode-space U+0000..U+7FFFFFFF\nnumbering packed\n" + skips
            + "form 1: 0xxxxxxx\nform 2: 110xxxxx 10xxxxxx\nform 3: 1110xxxx 10xxxxxx{2}\n")
    d = browser
    d.get(site + "?limit=1000#" + urlencode({"spec": slow, "input": "41", "mode": "hex"}))
    _wait(d, "return window.playground && window.playground.restarts > 0", LOAD_TIMEOUT, "the worker's restart")
    assert "took longer than 1 s; Python is restarting" in d.find_element(By.ID, "error").text
    _wait(d, "return document.getElementById('status').dataset.state === 'ready'", LOAD_TIMEOUT, "the restart")
    Select(d.find_element(By.ID, "examples")).select_by_value("utf-8")
    _tokens_are(d, ["char 0 1 41"])


def test_page_shows_dot_text_without_graphviz(browser, built, tmp_path):
    """A copy of the site without Graphviz's WebAssembly: the automaton panel says so and
    shows the dot text instead."""
    copy = tmp_path / "site"
    shutil.copytree(built, copy, ignore=lambda folder, names: ["graphviz"] if Path(folder).name == "vendor" else [])
    assert (copy / "graphviz.js").is_file() and not (copy / "vendor" / "graphviz").exists()
    url, server = _serve(copy)
    try:
        d = browser
        d.get(url)
        _wait(d, "return document.querySelector('#automaton pre')", LOAD_TIMEOUT, "the dot text")
        assert d.execute_script("return document.querySelector('#automaton pre').textContent") \
            .startswith("// utf-8: the automaton encspec compiles")
        assert "Graphviz is not available here" in d.execute_script(
            "return document.querySelector('#automaton .note').textContent")
    finally:
        server.shutdown()
        server.server_close()
