// The playground page: panels redrawn from what the worker (encspec in Pyodide) answers.
// Each edit asks first for the fast panels (describe, tokens), then the slower ones
// (check, code page, automaton, diff); a request that outlives the time limit ends
// the worker, which is started again.

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const LIMIT_MS = Number(params.get("limit")) || 20000;   // per request
const DEBOUNCE_MS = 150;
const MAX_TOKENS = 2000;   // rows drawn; the rest are counted
const FAST = ["describe", "tokens"];
const SLOW = ["check", "chart", "dot", "diff"];

// What the tests and the curious can read: timings and the state of the last answer.
const state = window.playground = {
  debounceMs: DEBOUNCE_MS, gen: 0, shownGen: -1, loadMs: null, keystrokeToTokensMs: null, requests: 0, restarts: 0,
};
const editedAt = new Map();   // generation -> time of the edit that made it
let worker = null, ready = false, busy = null, done = { gen: -1, stage: 0 };
let examples = [], debounce = null;

// ---------------------------------------------------------------- the worker
function startWorker() {
  ready = false;
  busy = null;
  setStatus("starting", "starting Python…");
  worker = new Worker("worker.js", { type: "module" });
  worker.onmessage = (event) => {
    const m = event.data;
    if (m.type === "progress") setStatus("starting", m.text);
    else if (m.type === "failed") setStatus("failed", `Python failed to start: ${m.message}`);
    else if (m.type === "ready") {
      ready = true;
      if (state.loadMs === null) state.loadMs = performance.now();   // since the page's navigation
      state.startPhases = m.phases;
      fillExamples(m.examples);
      setStatus("ready", `ready (Python started in ${(m.ms / 1000).toFixed(1)} s)`);
      pump();
    } else if (m.type === "result") received(m);
  };
  worker.onerror = (event) => setStatus("failed", `worker error: ${event.message || "see the console"}`);
}

function send(stage) {
  const request = {
    spec: $("spec").value, input: $("input").value, mode: mode(),
    other: otherSpec(), parts: stage === 1 ? FAST : SLOW,
  };
  const gen = state.gen;
  const timer = setTimeout(() => timedOut(gen, stage), LIMIT_MS);
  busy = { gen, stage, timer, id: ++state.requests };
  setStatus("busy", stage === 1 ? "compiling…" : "analysing…");
  worker.postMessage({ id: busy.id, request });
}

// Ask for whatever the newest edit still lacks, when the worker is free.
function pump() {
  if (!ready || busy) return;
  if (done.gen === state.gen && done.stage === 2) { setStatus("ready", "ready"); return; }
  send(done.gen === state.gen ? 2 : 1);
}

function received(m) {
  if (!busy || m.id !== busy.id) return;
  clearTimeout(busy.timer);
  const { gen, stage } = busy;
  busy = null;
  if (gen === state.gen) {
    if (m.failure) showFailure(m.failure);
    else show(m.result, stage, gen);
    done = { gen, stage };
  }
  pump();
}

function timedOut(gen, stage) {
  if (!busy || busy.gen !== gen || busy.stage !== stage) return;
  worker.terminate();
  state.restarts += 1;
  done = { gen: state.gen, stage: 2 };   // do not ask again until the next edit
  const what = stage === 1 ? "compiling this spec" : "analysing this spec (check, chart, diff)";
  showError({ text: `stopped: ${what} took longer than ${LIMIT_MS / 1000} s; Python is restarting`, line: null });
  startWorker();
}

// ---------------------------------------------------------------- the editor
function mode() { return document.querySelector("input[name=mode]:checked").value; }

function otherSpec() {
  const choice = $("other").value;
  if (choice === "*") return $("other-spec").value;
  const found = examples.find((e) => e.name === choice);
  return found ? found.text : "";
}

function edited() {
  state.gen += 1;
  editedAt.set(state.gen, performance.now());
  clearTimeout(debounce);
  debounce = setTimeout(() => { saveFragment(); pump(); }, DEBOUNCE_MS);
  drawGutter();
}

function drawGutter() {
  const lines = $("spec").value.split("\n").length;
  let text = "";
  for (let i = 1; i <= lines; i++) text += i + "\n";
  $("gutter").textContent = text;
  syncScroll();
}

function syncScroll() {
  const ta = $("spec");
  $("gutter").scrollTop = ta.scrollTop;
  placeMark();
}

let markAt = null;
function placeMark() {
  const mark = $("mark");
  if (!markAt) { mark.hidden = true; return; }
  const ta = $("spec");
  const style = getComputedStyle(ta);
  const lineHeight = parseFloat(style.lineHeight);
  const top = parseFloat(style.paddingTop) + (markAt.line - 1) * lineHeight - ta.scrollTop;
  mark.style.top = `${top}px`;
  mark.style.height = `${lineHeight}px`;
  mark.dataset.line = markAt.line;
  mark.hidden = false;
}

function goTo(line, column) {
  const ta = $("spec");
  const lines = ta.value.split("\n");
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  offset += Math.max(0, (column || 1) - 1);
  ta.focus();
  ta.setSelectionRange(offset, offset + 1);
}

// ---------------------------------------------------------------- the panels
function setStatus(kind, text) {
  const s = $("status");
  s.dataset.state = kind;
  s.textContent = text;
}

function showError(error) {
  const box = $("error");
  box.hidden = false;
  box.textContent = error.text;
  box.dataset.line = error.line ?? "";
  box.dataset.column = error.column ?? "";
  box.onclick = error.line ? () => goTo(error.line, error.column) : null;
  markAt = error.line ? { line: error.line } : null;
  placeMark();
}

function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
  markAt = null;
  placeMark();
}

function showFailure(text) {
  showError({ text: `internal error: ${text}`, line: null });
}

// The panels that show what the spec compiled to: while the spec in the editor does not
// compile they still hold the last good spec's results, so they are dimmed and labelled.
// The tokens are also dimmed for an invalid input: showTokens undims them, not markStale.
const SPEC_PANELS = ["describe", "describe-text", "check", "chart", "automaton", "diff"];
const INPUT_PANELS = ["strip", "tokens"];

function markStale(stale) {
  for (const id of SPEC_PANELS) $(id).classList.toggle("stale", stale);
  if (stale) for (const id of INPUT_PANELS) $(id).classList.add("stale");
  $("stale-note").hidden = !stale;
}

function show(result, stage, gen) {
  if (result.error) {
    showError(result.error);
    markStale(true);
    state.shownGen = gen;
    return;
  }
  clearError();
  markStale(false);
  if (stage === 1) {
    showDescribe(result.describe);
    showTokens(result);
    state.shownGen = gen;
    // first load: from navigation to the first tokens on the page, Python's start included
    if (state.firstTokensMs === undefined) state.firstTokensMs = performance.now();
    const t = editedAt.get(gen);
    if (t !== undefined && state.loadMs !== null && gen > 1) state.keystrokeToTokensMs = performance.now() - t;
  } else {
    showCheck(result.check);
    showChart(result.chart);
    showAutomaton(result.dot);
    showDiff(result.diff);
  }
}

function cell(tr, text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  tr.appendChild(td);
  return td;
}

function cp(v) { return v === null || v === undefined ? "" : "U+" + v.toString(16).toUpperCase().padStart(4, "0"); }

function showDescribe(d) {
  const body = $("describe").tBodies[0];
  body.replaceChildren();
  for (const row of d.json.rows || []) {
    const tr = document.createElement("tr");
    cell(tr, row.length ?? "counted");
    cell(tr, row.first_bytes);
    cell(tr, row.last_bytes ?? "");
    cell(tr, row.offset ?? "", "num");
    cell(tr, cp(row.first));
    cell(tr, cp(row.last));
    body.appendChild(tr);
  }
  $("describe-text").textContent = d.table;
}

function showTokens(result) {
  const bad = result.input_error;
  const box = $("input-error");
  const strip = $("strip");
  const body = $("tokens").tBodies[0];
  $("input").classList.toggle("invalid", Boolean(bad));
  strip.classList.toggle("stale", Boolean(bad));   // the last good input's tokens, dimmed
  $("tokens").classList.toggle("stale", Boolean(bad));
  if (bad) {
    box.hidden = false;
    box.textContent = bad.message;
    box.dataset.index = bad.index;
    const ta = $("input");
    if (document.activeElement !== ta) ta.setSelectionRange(bad.index, bad.index + 1);
    return;
  }
  box.hidden = true;
  strip.replaceChildren();
  body.replaceChildren();
  const shown = result.tokens.slice(0, MAX_TOKENS);
  for (const t of shown) {
    const chip = document.createElement("span");
    chip.className = `chip ${t.kind}`;
    chip.title = `${t.line}${t.reason ? ": " + t.reason : ""}`;
    const hex = document.createElement("b");
    hex.textContent = t.bytes || "(empty)";
    const below = document.createElement("small");
    below.textContent = t.kind === "char" ? `${t.char && t.char.trim() ? t.char + " " : ""}U+${t.value}` : t.kind;
    chip.append(hex, below);
    strip.appendChild(chip);

    const tr = document.createElement("tr");
    tr.className = t.kind;
    tr.dataset.token = t.line;
    cell(tr, t.line, "line");
    cell(tr, t.bytes);
    cell(tr, t.char && t.char.trim() ? t.char : "");
    cell(tr, t.reason);
    body.appendChild(tr);
  }
  if (result.tokens.length > shown.length) {
    const tr = document.createElement("tr");
    cell(tr, `… ${result.tokens.length - shown.length} more tokens not shown`).colSpan = 4;
    body.appendChild(tr);
  }
}

function showCheck(c) {
  const body = $("check").tBodies[0];
  body.replaceChildren();
  for (const name of c.names) {
    const tr = document.createElement("tr");
    const ok = c.properties[name];
    tr.dataset.property = name;
    cell(tr, name.replace(/_/g, " "));
    cell(tr, ok ? "yes" : "no", ok ? "yes" : "no");
    const td = cell(tr, "");
    for (const example of c.counterexamples[name] || []) {
      if (/^[0-9A-F]{2}( [0-9A-F]{2})*$/.test(example)) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "example";
        b.textContent = example;
        b.title = "decode these bytes";
        b.onclick = () => loadInput(example);
        td.appendChild(b);
      } else {
        const s = document.createElement("span");
        s.textContent = example;
        td.appendChild(s);
      }
    }
    body.appendChild(tr);
  }
  const tr = document.createElement("tr");
  cell(tr, "max length");
  cell(tr, c.max_length ?? "unbounded");
  cell(tr, c.max_code_point === null ? "max code point unbounded" : `max code point ${cp(c.max_code_point)}`);
  body.appendChild(tr);
}

// The diff's text, its examples ("e.g. ED A0 80") made buttons that load them into the input.
function showDiff(d) {
  const box = $("diff");
  box.replaceChildren();
  if (!d) return;
  const text = d.error || d.text;
  const example = /(e\.g\. )((?:[0-9A-F]{2} )*[0-9A-F]{2})(?=\s*[=:])/g;
  let at = 0;
  for (const m of text.matchAll(example)) {
    box.append(text.slice(at, m.index + m[1].length));
    const b = document.createElement("button");
    b.type = "button";
    b.className = "example";
    b.textContent = m[2];
    b.title = "decode these bytes";
    b.onclick = () => loadInput(m[2]);
    box.append(b);
    at = m.index + m[0].length;
  }
  box.append(text.slice(at));
}

function loadInput(hex) {
  document.querySelector("input[name=mode][value=hex]").checked = true;
  $("input").value = hex;
  edited();
}

function showChart(svg) {
  $("chart").innerHTML = svg.replace(/^<\?xml[^>]*>\s*/, "");
}

// -------------------------------------------------------------- the automaton
let graphviz = null, gvRequest = 0, gvTimer = null;
function showAutomaton(dot) {
  const box = $("automaton");
  const fallback = (why) => {
    box.replaceChildren();
    const note = document.createElement("p");
    note.className = "note";
    note.textContent = `Graphviz is not available here (${why}); the dot text:`;
    const pre = document.createElement("pre");
    pre.textContent = dot;
    box.append(note, pre);
  };
  if (!graphviz) {
    try {
      graphviz = new Worker("graphviz.js", { type: "module" });
    } catch (error) {
      fallback(String(error));
      return;
    }
  }
  const id = ++gvRequest;
  clearTimeout(gvTimer);
  gvTimer = setTimeout(() => {
    graphviz.terminate();
    graphviz = null;
    fallback(`its layout took longer than ${LIMIT_MS / 1000} s`);
  }, LIMIT_MS);
  graphviz.onmessage = (event) => {
    if (event.data.id !== id) return;
    clearTimeout(gvTimer);
    if (event.data.error) fallback(event.data.error);
    else box.innerHTML = event.data.svg;
  };
  graphviz.onerror = (event) => { clearTimeout(gvTimer); graphviz = null; fallback(event.message || "it failed to load"); };
  graphviz.postMessage({ id, dot });
}

// ------------------------------------------------------------------ examples
function fillExamples(list) {
  if (examples.length) return;
  examples = list;
  const select = $("examples");
  select.replaceChildren(new Option("(your own spec)", ""));
  const other = $("other");
  for (const e of list) {
    const o = new Option(`${e.name}${e.title ? " — " + e.title : ""}`, e.name);
    select.appendChild(o);
    other.insertBefore(new Option(e.name, e.name), other.lastChild);
  }
  select.value = exampleShown || "";
  if (!$("other").dataset.chosen) $("other").value = "utf-8";
}

let exampleShown = null;
function loadExample(name) {
  const found = examples.find((e) => e.name === name);
  if (!found) return;
  $("spec").value = found.text;
  exampleShown = name;
  edited();
}

// ------------------------------------------------------------------ share link
function fragment() {
  const f = new URLSearchParams();
  f.set("spec", $("spec").value);
  f.set("input", $("input").value);
  f.set("mode", mode());
  return "#" + f.toString();
}

function saveFragment() {
  history.replaceState(null, "", location.pathname + location.search + fragment());
}

function readFragment() {
  const f = new URLSearchParams(location.hash.slice(1));
  if (!f.has("spec")) return false;
  $("spec").value = f.get("spec");
  $("input").value = f.get("input") || "";
  const m = f.get("mode") === "text" ? "text" : "hex";
  document.querySelector(`input[name=mode][value=${m}]`).checked = true;
  return true;
}

// ------------------------------------------------------------------ start
function defaultSpec() {
  // the first spec shown, before the worker lists the built-ins: UTF-8's forms
  return "encoding utf-8\ntitle    \"UTF-8 (RFC 3629)\"\n\ncode-space U+0000..U+10FFFF\n" +
    "ill-formed U+D800..U+DFFF\n\nform 1: 0xxxxxxx\nform 2: 110xxxxx 10xxxxxx              min U+0080\n" +
    "form 3: 1110xxxx 10xxxxxx{2}           min U+0800\nform 4: 11110xxx 10xxxxxx{3}           min U+10000\n";
}

async function main() {
  if (!readFragment()) {
    $("spec").value = defaultSpec();
    $("input").value = "48 C3 A9 C0 AF ED A0 80 F0 9F 98 80";
    exampleShown = "utf-8";
  }
  const ta = $("spec");
  ta.addEventListener("input", () => { exampleShown = null; $("examples").value = ""; edited(); });
  ta.addEventListener("scroll", syncScroll);
  $("input").addEventListener("input", edited);
  for (const r of document.querySelectorAll("input[name=mode]")) r.addEventListener("change", edited);
  window.addEventListener("hashchange", () => { if (readFragment()) edited(); });
  $("examples").addEventListener("change", (e) => loadExample(e.target.value));
  $("other").addEventListener("change", (e) => {
    e.target.dataset.chosen = "1";
    $("other-spec").hidden = e.target.value !== "*";
    edited();
  });
  $("other-spec").addEventListener("input", edited);
  $("chart").addEventListener("mouseover", (e) => {
    const g = e.target.closest("g.cell");
    if (g) $("hover").textContent = g.querySelector("title")?.textContent || g.dataset.byte;
  });
  $("share").addEventListener("click", async () => {
    saveFragment();
    try { await navigator.clipboard.writeText(location.href); setStatus("ready", "link copied"); }
    catch { setStatus("ready", "the link is in the address bar"); }
  });
  drawGutter();
  state.gen = 1;
  editedAt.set(1, performance.now());
  startWorker();
}

main();
