# The saved query `variability` (Hume's table) on simulated hosts of
# different noise (benchdb simulate --host-noise): every cell row and host
# row recomputed in Python from the raw values (a run's score = the mean of
# its measured values; max/min - 1 and 100 sd / mean over the host's runs;
# the host's averages over its cells); a host without run-to-run noise
# (factor 0) varies by exactly 0; a host at three times the noise varies
# about three times as much as the same host in the same plan without it,
# and the other hosts' archives do not change at all.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
bd init >/dev/null
SIM="--groups 1 --hosts 3 --positions 3 --cells 6 --blocks 2 --forks 1 --iterations 3 --warmups 0 --seed 5"
bd simulate -q $SIM --plan quiet --host-noise '*-vm-a=0' plain/ || fail "simulate plain"
bd simulate -q $SIM --plan loud --host-noise '*-vm-a=0' --host-noise '*-vm-b=3' loud/ || fail "simulate loud"
bd ingest --quiet plain/ loud/ || fail "ingest"

# Only host b's archives differ between the two plans (but for the plan name).
for f in plain/*.jsonl.zst; do
    name=$(basename "$f")
    if command -v zstd >/dev/null; then
        zstd -qdc "$f" | sed 's/"plan":"quiet"/"plan":"loud"/' >a.jsonl
        zstd -qdc "loud/$name" >b.jsonl
        case "$name" in
        *-vm-b-*) cmp -s a.jsonl b.jsonl && fail "$name: --host-noise changed nothing" ;;
        *) cmp -s a.jsonl b.jsonl || fail "$name: changed by another host's noise" ;;
        esac
        checks=$((checks + 1))
    fi
done

for plan in quiet loud; do
    run bd query variability --param "plan=$plan" --format csv --no-record
    expect_rc 0 "variability $plan"
    cp "$T/out" "$T/$plan.csv"
    bd sql "SELECT h.name AS host, b.name || ' ' || b.params AS cell, v.name AS variant, r.id AS run, s.value, s.count
            FROM sample s JOIN series se ON se.id = s.series_id JOIN run r ON r.id = se.run_id
            JOIN plan p ON p.id = r.plan_id JOIN host h ON h.id = r.host_id
            JOIN benchmark b ON b.id = se.benchmark_id JOIN variant v ON v.id = se.variant_id
            WHERE p.name = '$plan' AND s.warmup = 0 AND se.metric = 'primary'" --format csv >"$T/$plan-values.csv" ||
        fail "values of $plan"
done

run python3 - "$BENCHDB_SRC/tests/cli/lib" "$T" <<'PY'
import csv, statistics, sys
sys.path.insert(0, sys.argv.pop(1))
from checks import Checks
d = sys.argv[1]
t = Checks()
def close(what, got, exp, rel=1e-9):
    t.close(got, exp, what, rel)
result = {}
for plan in ("quiet", "loud"):
    values = {}
    for r in csv.DictReader(open("%s/%s-values.csv" % (d, plan), newline="")):
        values.setdefault((r["host"], r["cell"], r["variant"]), {}).setdefault(r["run"], []).extend(
            [float(r["value"])] * int(r["count"]))
    rows = list(csv.DictReader(open("%s/%s.csv" % (d, plan), newline="")))
    cells = {(r["host"], r["benchmark"] + " " + r["params"], r["variant"]): r for r in rows if r["kind"] == "cell"}
    hosts = {r["host"]: r for r in rows if r["kind"] == "host"}
    per_host = {}
    t.check(set(cells) == set(values), "%s: cells %d, expected %d" % (plan, len(cells), len(values)))
    for key, runs in values.items():
        scores = [sum(v) / len(v) for v in runs.values()]
        mv = (max(scores) / min(scores) - 1) * 100
        cv = 100 * statistics.stdev(scores) / statistics.fmean(scores)
        r = cells.get(key)
        if r is None:
            continue
        close("%s %s runs" % (plan, key), r["runs"], len(scores))
        close("%s %s max_variation" % (plan, key), r["max_variation"], mv)
        close("%s %s cv" % (plan, key), r["cv"], cv, 1e-8)
        per_host.setdefault(key[0], []).append((mv, cv))
    for host, l in per_host.items():
        h = hosts[host]
        close("%s %s cells" % (plan, host), h["cells"], len(l))
        close("%s %s runs" % (plan, host), h["runs"], 3)
        close("%s %s mean max_variation" % (plan, host), h["max_variation"], statistics.fmean(m for m, _ in l))
        close("%s %s mean cv" % (plan, host), h["cv"], statistics.fmean(c for _, c in l), 1e-8)
        close("%s %s worst" % (plan, host), h["worst"], max(m for m, _ in l))
    result[plan] = hosts
# No run-to-run noise: exactly the same scores.
for plan in result:
    a = result[plan]["sim-p3-vm-a"]
    t.check(float(a["max_variation"]) == 0 and float(a["cv"]) == 0,
            "%s: host a varies: %s %s" % (plan, a["max_variation"], a["cv"]))
# Three times the noise on host b: about three times its variation.
ratio = float(result["loud"]["sim-p3-vm-b"]["cv"]) / float(result["quiet"]["sim-p3-vm-b"]["cv"])
t.check(2.7 <= ratio <= 3.3, "host b's cv grew %.3f times with --host-noise 3" % ratio)
c = (result["loud"]["sim-p3-vm-c"]["cv"], result["quiet"]["sim-p3-vm-c"]["cv"])
t.check(c[0] == c[1], "host c changed: %s %s" % c)
t.finish(least=100, note=" (host b: cv x %.3f)" % ratio)
PY
expect_rc 0 "variability recomputed from the values"
cat "$T/out"

run bd simulate -q $SIM --host-noise 'nohost=2' none/
expect_rc 2 "a pattern matching no host"
expect_err_has "--host-noise nohost: matches none of the plan's 3 hosts" "its message"
run bd simulate -q $SIM --host-noise '*-vm-b=101' none/
expect_rc 2 "a factor above 100"
expect_err_has "FACTOR: expected a number from 0 to 100" "its message"
[ -e none ] && fail "a refused simulate wrote nothing"

finish
