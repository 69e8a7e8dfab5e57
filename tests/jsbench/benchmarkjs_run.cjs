// Runs a tiny Benchmark.js suite and writes its benchmarks as they are
// commonly saved with JSON.stringify (docs/formats.md, "benchmarkjs"):
// the array of benchmarks, or (suite) the Suite object itself.
// usage: node benchmarkjs_run.cjs OUT.json [suite]
const { writeFileSync } = require('node:fs');
const Benchmark = require('benchmark');

const suite = new Benchmark.Suite('sums');
// minTime: each sample's cycle runs at least this long (Benchmark.js's
// default, 0.05 s, made a run of the two benchmarks a second of CPU; 5 ms
// gives the same 5 or more samples, each of thousands of calls, in a third
// of that: docs/testing.md, "Chromium draws no frames, Benchmark.js
// samples for 5 ms").
const opts = { maxTime: 0.02, minSamples: 5, minTime: 0.005 };
suite.add('loop of 200', () => { let s = 0; for (let i = 0; i < 200; i++) s += i; return s; }, opts)
    .add('reduce of 4', () => [1, 2, 3, 4].reduce((a, b) => a + b, 0), opts)
    .run();
const out = process.argv[3] === 'suite' ? suite : suite.map((b) => b);
writeFileSync(process.argv[2], JSON.stringify(out, null, 2));
