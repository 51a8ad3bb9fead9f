// Graphviz (WebAssembly, @hpcc-js/wasm-graphviz) in a worker of its own, so a large
// automaton's layout never freezes the page: it is stopped after a time limit instead.
import { Graphviz } from "./vendor/graphviz/index.js";

const graphviz = Graphviz.load();

onmessage = async (event) => {
  const { id, dot } = event.data;
  try {
    const svg = (await graphviz).dot(dot);
    postMessage({ id, svg });
  } catch (error) {
    postMessage({ id, error: String(error && error.message || error) });
  }
};
