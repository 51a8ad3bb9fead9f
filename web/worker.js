// The compiler's thread: Pyodide with the site's wheels, answering the page's requests
// with play.run (web/play.py), which calls encspec itself.  The page terminates this
// worker when a request takes too long, and starts a fresh one.
import { loadPyodide } from "./vendor/pyodide/pyodide.mjs";

const started = performance.now();
const phases = {};   // milliseconds each step of the start took, reported with "ready"
let last = started;
const progress = (text) => postMessage({ type: "progress", text });
const lap = (name) => { const now = performance.now(); phases[name] = Math.round(now - last); last = now; };

async function fetched(path, kind) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return kind === "json" ? response.json() : kind === "text" ? response.text() : response.arrayBuffer();
}

async function start() {
  progress("starting Python (Pyodide)…");
  const py = await loadPyodide({
    indexURL: new URL("./vendor/pyodide/", import.meta.url).href,
    stdout: () => {},
    stderr: (line) => console.warn(line),
  });
  lap("pyodide");
  const site = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  for (const name of await fetched("wheels/index.json", "json")) {
    progress(`unpacking ${name.split("-")[0]}…`);
    py.unpackArchive(await fetched(`wheels/${name}`), "wheel", { extractDir: site });
  }
  lap("wheels");
  progress("importing encspec…");
  py.FS.mkdirTree("/home/pyodide/playground");
  py.FS.writeFile("/home/pyodide/playground/play.py", await fetched("play.py", "text"));
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide/playground')");
  const play = py.pyimport("play");
  lap("import");
  const examples = JSON.parse(play.examples());
  lap("examples");
  return { play, examples };
}

const ready = start();
ready.then(
  ({ examples }) => postMessage({ type: "ready", examples, phases, ms: performance.now() - started }),
  (error) => postMessage({ type: "failed", message: String(error && error.message || error) }),
);

onmessage = async (event) => {
  const { id, request } = event.data;
  const { play } = await ready;
  const t0 = performance.now();
  try {
    const result = JSON.parse(play.run(JSON.stringify(request)));
    postMessage({ type: "result", id, result, ms: performance.now() - t0 });
  } catch (error) {
    // a Python exception's message is its whole traceback: its last line says what happened
    const lines = String(error && error.message || error).trim().split("\n");
    postMessage({ type: "result", id, failure: lines[lines.length - 1], ms: performance.now() - t0 });
  }
};
