// farm-worker.js — a helper Web Worker of a heavy run (ui/farm.go): the
// run's Worker (run-worker.js) starts it, and it runs the same code and
// dpsim.wasm, holding its own instance of the run's problem and answering
// the run Worker's requests for its agents' gradients. A file of its own
// so that the page's Workers are told apart by their script.
'use strict';
importScripts('run-worker.js');
