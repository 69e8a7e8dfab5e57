// An independent reading of a harness file (docs/formats.md's mapping,
// written again here without benchdb's C code): every value benchdb
// stored must be the file's, and none missing.
// usage: node check_values.mjs FORMAT FILE STORED.json
//   STORED.json: benchdb sql --format json rows of name, metric, unit,
//   fork, warmup, iteration, value (printed to the shortest text that reads
//   back as the same double)
// Prints "ok N values" or the differences, and exits 1 on any.
import { readFileSync } from 'node:fs';

const [format, file, stored] = process.argv.slice(2);
const doc = JSON.parse(readFileSync(file, 'utf8'));
const want = [];
const add = (name, metric, unit, fork, values) =>
  values.forEach((v, i) => want.push([name, metric, unit, fork, 0, i + 1, v]));
const samplesOrMean = (s) => (s.samples && s.samples.length ? s.samples : [s.mean]);

const forks = new Map();
const forkOf = (name) => { const f = forks.get(name) ?? 0; forks.set(name, f + 1); return f; };
if (format === 'tinybench') {
  for (const { name, result } of doc) {
    const fork = forkOf(name);
    if (result.latency) {
      add(name, 'primary', 'ms', fork, samplesOrMean(result.latency));
      if (result.throughput) add(name, 'throughput', 'ops/s', fork, samplesOrMean(result.throughput));
    } else {
      add(name, 'primary', 'ms', fork, samplesOrMean(result));
    }
  }
} else if (format === 'vitest') {
  for (const f of doc.files)
    for (const g of f.groups)
      for (const b of g.benchmarks) {
        const name = g.fullName ? `${g.fullName} > ${b.name}` : b.name;
        const fork = forkOf(name);
        if ((b.samples && b.samples.length) || 'mean' in b || 'hz' in b) add(name, 'primary', 'ms', fork, samplesOrMean(b));
      }
} else if (format === 'benchmarkjs') {
  const list = Array.isArray(doc) ? doc : Array.from({ length: doc.length }, (_, i) => doc[String(i)]);
  for (const b of list) add(b.name, 'primary', 's', forkOf(b.name), b.stats.sample);
} else {
  console.log(`unknown format ${format}`);
  process.exit(2);
}

const got = JSON.parse(readFileSync(stored, 'utf8'))
  .map((r) => [r.name, r.metric, r.unit, r.fork, r.warmup, r.iteration, r.value]);
const key = (r) => r.slice(0, 6).join('|');
const have = new Map(got.map((r) => [key(r), r[6]]));
let bad = 0;
for (const w of want) {
  const k = key(w);
  if (!have.has(k)) { console.log(`missing: ${k} = ${w[6]}`); bad++; continue; }
  if (have.get(k) !== w[6]) { console.log(`differs: ${k}: stored ${have.get(k)}, file ${w[6]}`); bad++; }
  have.delete(k);
}
for (const [k, v] of have) { console.log(`not in the file: ${k} = ${v}`); bad++; }
if (bad || want.length === 0) process.exit(1);
console.log(`ok ${want.length} values`);
