// Runs a tiny Benchmark.js suite and writes its benchmarks as they are
// commonly saved with JSON.stringify (docs/formats.md, "benchmarkjs"):
// the array of benchmarks, or (suite) the Suite object itself.
// usage: node benchmarkjs_run.cjs OUT.json [suite]
const { writeFileSync } = require('node:fs');
const Benchmark = require('benchmark');

const suite = new Benchmark.Suite('sums');
const opts = { maxTime: 0.02, minSamples: 5 };
suite.add('loop of 200', () => { let s = 0; for (let i = 0; i < 200; i++) s += i; return s; }, opts)
    .add('reduce of 4', () => [1, 2, 3, 4].reduce((a, b) => a + b, 0), opts)
    .run();
const out = process.argv[3] === 'suite' ? suite : suite.map((b) => b);
writeFileSync(process.argv[2], JSON.stringify(out, null, 2));
