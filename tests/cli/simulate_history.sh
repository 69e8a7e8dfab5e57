#!/bin/sh
# benchdb simulate --history: determinism, steps changing only the runs they
# reach and by exactly their factor, the injected truth as event records,
# random steps within their stated bounds, a noisy host (--host-noise), and
# option errors.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
command -v zstd >/dev/null || { echo "zstd CLI missing"; exit 1; }

# --- determinism and names ----------------------------------------------
run bd simulate --history 12 --hosts 2 --cells 3 --seed 4 a
expect_rc 0 "simulate a history"
expect_out "simulate: wrote 24 archives of plan nightly-sim (seed 4, 3 samples records each) to a" "summary line"
bd simulate -q --history 12 --hosts 2 --cells 3 --seed 4 b
bd simulate -q --history 12 --hosts 2 --cells 3 --seed 5 c
n=0
for f in a/*.jsonl.zst; do
    name=$(basename "$f")
    cmp -s "$f" "b/$name" || fail "seed 4 twice: $name differs"
    ! cmp -s "$f" "c/$name" || fail "seeds 4 and 5: $name identical"
    n=$((n + 1))
done
expect_eq "$n" 24 "archives written"
expect_eq "$(ls a | head -1) $(ls a | tail -1)" "ci-a-0001.jsonl.zst ci-b-0012.jsonl.zst" "run names"
zstd -dc a/ci-b-0003.jsonl.zst | head -1 >run.json
expect_eq "$(grep -c '"run":"ci-b-0003","host":"ci-b","position":3,' run.json)" 1 "run record: name, host, position"
expect_eq "$(grep -c '"started_at":"2025-10-24T02:0' run.json)" 1 "night 3 starts 2025-10-24 after 02:07"
# The revision of a night is the same on every host.
ra=$(zstd -dc a/ci-a-0003.jsonl.zst | head -1 | sed 's/.*"source":"\([0-9a-f]*\)".*/\1/')
rb=$(zstd -dc a/ci-b-0003.jsonl.zst | head -1 | sed 's/.*"source":"\([0-9a-f]*\)".*/\1/')
expect_eq "${#ra}" 40 "revision: 40 hex digits"
expect_eq "$ra" "$rb" "one revision per night"

# --- an explicit step ---------------------------------------------------
run bd simulate -q --history 12 --hosts 2 --cells 3 --seed 4 --step 'ci-b-0007:large/serialize:+20' s
expect_rc 0 "simulate with a step"
for f in a/*.jsonl.zst; do
    name=$(basename "$f")
    case $name in
    ci-b-0007* | ci-b-0008* | ci-b-0009* | ci-b-001*) ! cmp -s "$f" "s/$name" || fail "the step did not change $name" ;;
    *) cmp -s "$f" "s/$name" || fail "the step changed $name" ;;
    esac
done
zstd -dc s/ci-b-0007.jsonl.zst | grep '"record":"event"' >event.json
at=$(zstd -dc s/ci-b-0007.jsonl.zst | head -1 | sed 's/.*"started_at":"\([^"]*\)".*/\1/')
expect_eq "$(cat event.json)" '{"record":"event","name":"injected-step","value":20,"at":"'"$at"'","detail":{"benchmark":"serialize","metric":"primary","params":{"format":"binary","workload":"large"},"percent":20,"source":"--step","variant":"main"}}' "the truth: one event at the step's run"
expect_eq "$(zstd -dc s/ci-b-0008.jsonl.zst | grep -c injected-step)" 0 "no event after the step's run"
# Every value of the stepped cell is 1.2 times the unstepped one (to the
# six printed digits), every other value the same.
for night in 0007 0012; do
    zstd -dc "a/ci-b-$night.jsonl.zst" | grep '"record":"samples"' >plain.txt
    zstd -dc "s/ci-b-$night.jsonl.zst" | grep '"record":"samples"' >step.txt
    awk -v night="$night" '
        function values(line,   v) { sub(/.*"values":\[/, "", line); sub(/\].*/, "", line); return split(line, v, ",") }
        NR == FNR { p[FNR] = $0; next }
        {
            n = values(p[FNR]); split(substr(p[FNR], index(p[FNR], "\"values\":[") + 10), a, ",")
            values($0); split(substr($0, index($0, "\"values\":[") + 10), b, ",")
            large = index($0, "\"workload\":\"large\"") > 0
            for (i = 1; i <= n; i++) {
                r = (b[i] + 0) / (a[i] + 0)
                want = large ? 1.2 : 1
                if (r < want * (1 - 1e-5) || r > want * (1 + 1e-5)) { printf "night %s line %d value %d: ratio %.9g, expected %g\n", night, FNR, i, r, want; bad = 1 }
            }
        }
        END { exit bad }' plain.txt step.txt || fail "values of night $night are not the step's factor apart"
done

# --- random steps ------------------------------------------------------------
run bd simulate -q --history 100 --hosts 3 --cells 4 --steps 6 --seed 9 r
expect_rc 0 "random steps"
# all 300 archives decompressed by one zstd, searched by one grep (a zstd and
# a grep per archive were 600 processes, most of the test's time)
mkdir rd && zstd -dq --output-dir-flat rd r/*.jsonl.zst || fail "zstd -d of the random steps' archives"
grep -h '"injected-step"' rd/*.jsonl >events.txt
expect_eq "$(wc -l <events.txt | tr -d ' ')" 6 "six events"
expect_eq "$(grep -c '"source":"--steps"' events.txt)" 6 "all from --steps"
# Distinct histories (host and cell), nights from 100/10 + 2 = 12 on, sizes
# of 5 to 10 run-level sds: sigma = sqrt(0.01^2 + 0.015^2 / 5).
grep -H '"injected-step"' rd/*.jsonl | sed 's|^rd/\([^:]*\)\.jsonl:|\1 |' | awk '
    {
        run = $1; host = substr(run, 1, 4); night = substr(run, 6) + 0
        pct = $0; sub(/.*"percent":/, "", pct); sub(/,.*/, "", pct)
        w = $0; sub(/.*"workload":"/, "", w); sub(/".*/, "", w)
        key = host "/" w
        if (key in seen) { print "two steps in " key; bad = 1 }
        seen[key] = 1
        sigma = sqrt(0.01 ^ 2 + 0.015 ^ 2 / 5)
        size = log(1 + pct / 100) / sigma
        if (night < 12 || night > 100) { print "night " night " out of range"; bad = 1 }
        if (size < 5 - 1e-4 || size > 10 + 1e-4) { print "size " size " sds out of range"; bad = 1 }
    }
    END { exit bad }' || fail "random steps outside their bounds"

# --- a noisy host ------------------------------------------------------------
# --host-noise scales a history host's run-to-run noise and each value's
# (it was accepted and ignored): a factor of 1 changes no byte, 3 on ci-b
# changes only ci-b's archives, its values' log spread within a run exactly
# 3 times (to the six printed digits), its run scores' log sd about 3 times.
bd simulate -q --history 40 --hosts 2 --cells 2 --seed 6 hp || fail "simulate without --host-noise"
bd simulate -q --history 40 --hosts 2 --cells 2 --seed 6 --host-noise 'ci-b=1' h1 || fail "--host-noise ci-b=1"
run bd simulate -q --history 40 --hosts 2 --cells 2 --seed 6 --host-noise 'ci-b=3' h3
expect_rc 0 "--host-noise with --history"
for f in hp/*.jsonl.zst; do
    name=$(basename "$f")
    cmp -s "$f" "h1/$name" || fail "--host-noise ci-b=1 changed $name"
    case $name in
    ci-b-*) ! cmp -s "$f" "h3/$name" || fail "--host-noise ci-b=3 did not change $name" ;;
    *) cmp -s "$f" "h3/$name" || fail "--host-noise ci-b=3 changed $name" ;;
    esac
done
mkdir hpd h3d && zstd -dq --output-dir-flat hpd hp/ci-b-*.jsonl.zst && zstd -dq --output-dir-flat h3d h3/ci-b-*.jsonl.zst ||
    fail "zstd -d of ci-b's archives"
python3 - hpd h3d <<'PY' || fail "ci-b's noise is not 3 times as large"
import json, math, os, statistics, sys
def cells(d):
    out = {}
    for f in sorted(os.listdir(d)):
        for line in open(os.path.join(d, f)):
            r = json.loads(line)
            if r["record"] == "samples":
                out.setdefault(r["params"]["workload"], []).append(r["values"])
    return out
plain, loud = cells(sys.argv[1]), cells(sys.argv[2])
for w in plain:
    for a, b in zip(plain[w], loud[w]):
        spread = math.log(max(b) / min(b)) / math.log(max(a) / min(a))
        assert abs(spread - 3) < 0.01, (w, spread)
    sd = [statistics.stdev(math.log(statistics.mean(v)) for v in runs) for runs in (plain[w], loud[w])]
    assert 2.5 < sd[1] / sd[0] < 3.5, (w, sd)
    print(w, "run scores' log sd", sd)
PY
run bd simulate -q --history 5 --host-noise 'sim-*=2' none
expect_rc 2 "--host-noise matching no history host"
expect_err_has "--host-noise sim-*: matches none of the plan's 3 hosts (ci-a ...)" "names the history's hosts"

# --- option errors (exit 2, nothing written) ---------------------------------
expect_usage() {
    want=$1
    shift
    run bd simulate -q "$@" none
    expect_rc 2 "$*"
    expect_err_has "$want" "$*: message"
    [ ! -e none ] || fail "$*: wrote output"
}
expect_usage "--step: only with --history N" --step 3:large/serialize:+5
expect_usage "--steps: only with --history N" --steps 2
expect_usage "--noise: only with --history N" --noise 0.02
expect_usage "--groups: not used with --history" --history 5 --groups 3
expect_usage "--effect: not used with --history" --history 5 --effect 'large/*=1.1'
expect_usage "--history '0': expected an integer from 1 to 9999" --history 0
# A malformed step: the part that is wrong, as given, and the step's form.
form="a step is RUN:CELL:PERCENT (RUN a night number or a run-name pattern, CELL WORKLOAD/OPERATION[/FORMAT], PERCENT greater than -100), e.g. 18:small/serialize:+7 or ci-b-0018:*/deserialize/json:-5"
expect_usage "--step 'x': 1 part separated by ':', expected 3; $form" --history 5 --step x
# A night and a run name both given: four parts (before, the middle two
# were read as the cell, whose pattern was blamed for matching nothing).
expect_usage "--step '18:ci-b-0018:small/serialize:+7': 4 parts separated by ':', expected 3; $form" \
    --history 20 --step 18:ci-b-0018:small/serialize:+7
# A run name where the cell goes: the cell named, as given.
expect_usage "--step '18:ci-b-0018:+7': CELL 'ci-b-0018': expected WORKLOAD/OPERATION[/FORMAT], shell patterns, such as small/serialize or */deserialize/json; $form" \
    --history 20 --step 18:ci-b-0018:+7
# RUN is read first: a bad night is blamed before a bad percent.
expect_usage "--step '0:large/serialize:x': RUN '0': expected a night from 1 to 9999 or a run-name pattern such as ci-b-0018; $form" \
    --history 5 --step 0:large/serialize:x
expect_usage "--step ':large/serialize:+5': RUN '': expected a night" --history 5 --step :large/serialize:+5
expect_usage "--step '3:large/serialize:-100': PERCENT '-100': expected a number greater than -100, such as +7 or -5; $form" \
    --history 5 --step 3:large/serialize:-100
expect_usage "--step '3:large/serialize:': PERCENT '': expected a number" --history 5 --step 3:large/serialize:
expect_usage "--step '3:large:+5': CELL 'large': expected WORKLOAD/OPERATION[/FORMAT]" --history 5 --step 3:large:+5
expect_usage "--step '9:large/serialize:+5': RUN 9: there are only 5 runs per host (--history 5)" --history 5 --step 9:large/serialize:+5
expect_usage "--step 'nope-*:large/serialize:+5': RUN nope-* matches none of the plan's run names (ci-a-0001 to ci-c-0005)" \
    --history 5 --step 'nope-*:large/serialize:+5'
expect_usage "--step '3:huge/serialize:+5': CELL huge/serialize/* matches none of the plan's 40 cells (the nearest: " \
    --history 5 --step 3:huge/serialize:+5
expect_usage "--step '3:small/serialise:+5': CELL small/serialise/* matches none of the plan's 40 cells (the nearest: small/serialize/binary" \
    --history 5 --step 3:small/serialise:+5
expect_usage "--steps (one per history: hosts x cells): expected an integer from 0 to 2" --history 50 --hosts 1 --cells 2 --steps 3
expect_usage "--history 1 is too short" --history 1 --steps 1
expect_usage "--noise: expected a number from 0 to 1, got 2" --history 5 --noise 2

finish
