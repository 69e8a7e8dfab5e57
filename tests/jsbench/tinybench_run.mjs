// Runs two tiny tinybench tasks and writes their results as tinybench's
// tasks are commonly saved: [{name, result}] (docs/formats.md, "tinybench").
// usage: node tinybench_run.mjs OUT.json [retain]
import { writeFileSync } from 'node:fs';
import { Bench } from 'tinybench';

const retain = process.argv[3] === 'retain';
const bench = new Bench({ iterations: 8, time: 0, warmupIterations: 2, warmupTime: 0, retainSamples: retain });
bench.add('sum loop', () => { let s = 0; for (let i = 0; i < 200; i++) s += i; return s; });
bench.add('sum reduce', () => Array.from({ length: 200 }, (_, i) => i).reduce((a, b) => a + b, 0));
await bench.run();
writeFileSync(process.argv[2], JSON.stringify(bench.tasks.map(({ name, result }) => ({ name, result })), null, 2));
