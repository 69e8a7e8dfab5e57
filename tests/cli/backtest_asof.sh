#!/bin/sh
# "As of each past run, seeing only the runs before it": each gate's
# scope=every row for run k equals its scope=latest row in a store that
# holds only the runs up to k (ingested one night at a time), for every k,
# with frames short enough to slide (runs = 3, 4, 5).
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
command -v python3 >/dev/null || { echo "python3 missing"; exit 1; }

bd simulate -q --history 12 --hosts 1 --cells 2 --seed 8 --step '6:small/serialize:+10' sim
# min_runs=2: the step at night 6 comes before gate-zscore's default
# minimum of 8 runs (docs/queries.md, "gate-zscore").
set -- "gate-zscore --param runs=4 --param min_runs=2" "gate-ttest --param runs=5" "gate-percent --param runs=3"
bd init >/dev/null
k=0
for f in sim/ci-a-*.jsonl.zst; do
    k=$((k + 1))
    bd ingest -q "$f"
    for g in "$@"; do
        # shellcheck disable=SC2086
        bd query $g --format json --no-record >"latest.${g%% *}.$k.json" || fail "$g after night $k"
    done
done
for g in "$@"; do
    # shellcheck disable=SC2086
    bd query $g --param scope=every --format json --no-record >"every.${g%% *}.json" || fail "$g every"
    python3 - "${g%% *}" "$k" <<'PY' || fail "$g: scope=every differs from the latest run as of each night"
import json, sys
J = lambda v: json.loads(v) if isinstance(v, str) else v
P = lambda v: v if isinstance(v, str) else json.dumps(v, sort_keys=True, separators=(",", ":"))
gate, nights = sys.argv[1], int(sys.argv[2])
every = {(P(r["params"]), r["seq"]): r for r in json.load(open("every.%s.json" % gate))}
assert len(every) == 2 * nights, len(every)
n = 0
for k in range(1, nights + 1):
    latest = json.load(open("latest.%s.%d.json" % (gate, k)))
    assert len(latest) == 2, (k, latest)
    for r in latest:
        assert r["seq"] == k, (k, r)
        e = every[(P(r["params"]), k)]
        for c, v in r.items():
            w = e[c]
            if isinstance(v, float) and isinstance(w, float):
                assert abs(v - w) <= 1e-12 * max(abs(w), 1e-300), (gate, k, c, v, w)
            else:
                assert v == w, (gate, k, c, v, w)
        n += 1
alerts = sum(1 for r in every.values() if r["alert"] == "regression")
print(gate, n, "rows compared,", alerts, "regression alerts")
PY
    checks=$((checks + 1))
done

# The step at night 6 is seen: each gate raises at least one alert there.
python3 -c '
import json
J = lambda v: json.loads(v) if isinstance(v, str) else v
P = lambda v: v if isinstance(v, str) else json.dumps(v, sort_keys=True, separators=(",", ":"))
for g in ("gate-zscore", "gate-ttest", "gate-percent"):
    rows = json.load(open("every.%s.json" % g))
    hit = [r for r in rows if r["alert"] == "regression" and "small" in P(r["params"]) and r["seq"] == 6]
    assert hit, g
' || fail "the step at night 6"
checks=$((checks + 1))

finish
