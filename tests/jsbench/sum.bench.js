// A tiny Vitest bench (tests/cli/formats_jsbench.sh runs it with
// `vitest bench --run --outputJson`).
import { bench, describe } from 'vitest';

const opts = { iterations: 6, time: 0, warmupIterations: 1, warmupTime: 0 };
describe('sum', () => {
  bench('loop', () => { let s = 0; for (let i = 0; i < 200; i++) s += i; return s; }, opts);
  bench('reduce', () => Array.from({ length: 200 }, (_, i) => i).reduce((a, b) => a + b, 0), opts);
});
