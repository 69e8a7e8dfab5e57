#!/usr/bin/env python3
"""Writes a large, valid benchdb-run/1 archive for the ingest tests:
RUNS runs x CELLS cells x 5 blocks x 2 variants x FORKS forks, each series
holding ITER values (plus 2 warmups), deterministic (a fixed LCG).

usage: gen_archive.py OUT --values N [--iterations K] [--runs R]
Prints the exact number of measured values and series written."""
import argparse

p = argparse.ArgumentParser()
p.add_argument("out")
p.add_argument("--values", type=int, required=True)
p.add_argument("--iterations", type=int, default=1000)
p.add_argument("--runs", type=int, default=2)
a = p.parse_args()

blocks, variants, forks = 5, ("native", "chill"), 2
per_cell = blocks * len(variants) * forks * a.iterations
cells = max(1, a.values // (per_cell * a.runs))
state = 12345
INV53 = 1.0 / (1 << 53)  # 2^-53


def noise(k):
    """k pseudo-random values in (0.5, 1.5), formatted with 6 decimals, as
    one text joined by commas (one formatting of a tuple: the same digits
    as "%.6f" of each, in less time)."""
    global state
    s, x = state, [0.0] * k
    for i in range(k):  # masked to 64 bits: the same numbers as % 2^64
        s = (s * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        x[i] = 0.5 + (s >> 11) * INV53  # exact: as (s >> 11) / 2^53
    state = s
    return ("%.6f," * k)[:-1] % tuple(x)


values = series = 0
with open(a.out, "w") as f:
    for r in range(a.runs):
        f.write('{"record":"run","format":"benchdb-run/1","plan":"big","run":"r%d","host":"h%d",'
                '"position":%d,"treatment":"native","baseline":"chill","attributes":{"profile":"gen"}}\n'
                % (r, r % 2, r // 2 + 1))
        f.write('{"record":"gate","name":"load","passed":true}\n')
        for c in range(cells):
            for b in range(1, blocks + 1):
                for v in variants:
                    for k in range(forks):
                        vals = noise(a.iterations)
                        f.write('{"record":"samples","benchmark":"bench%d","params":{"size":%d},"block":%d,'
                                '"variant":"%s","fork":%d,"unit":"ns/op","warmup":[2.5,2.25],"values":[%s]}\n'
                                % (c, c % 3, b, v, k, vals))
                        values += a.iterations
                        series += 1
print(values, series)
