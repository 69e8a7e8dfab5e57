#!/bin/sh
# benchdb simulate: determinism, option validation and exit codes, refusal
# to overwrite, and the archives' records (decompressed, parsed as JSON).
set -eu
: "${BENCHDB_BIN:?}"
command -v zstd >/dev/null || { echo "FAIL: the zstd command is missing (scripts/install-deps installs zstd)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "FAIL: python3 is missing (scripts/install-deps installs it)" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
B=$BENCHDB_BIN
fail() { echo "FAIL: $*" >&2; exit 1; }

# expect CODE TEXT CMD...: the command exits CODE and its stderr holds TEXT.
expect() {
    code=$1 text=$2
    shift 2
    set +e
    "$@" >"$T/out" 2>"$T/err"
    rc=$?
    set -e
    [ "$rc" -eq "$code" ] || { cat "$T/err" >&2; fail "$* exited $rc, expected $code"; }
    grep -qF -- "$text" "$T/err" || { cat "$T/err" >&2; fail "$*: stderr lacks '$text'"; }
}

# --- determinism ---------------------------------------------------------
"$B" simulate --seed 5 "$T/a" >"$T/out"
grep -qF "simulate: wrote 12 archives of plan calibration-sim (seed 5, 800 samples records each) to $T/a" "$T/out" ||
    fail "summary line: $(cat "$T/out")"
"$B" simulate -q --seed 5 "$T/b" >"$T/out"
[ ! -s "$T/out" ] || fail "--quiet printed output"
"$B" simulate -q --seed 6 "$T/c"
n=0
for f in "$T"/a/*.jsonl.zst; do
    name=$(basename "$f")
    cmp -s "$f" "$T/b/$name" || fail "seed 5 twice: $name differs"
    ! cmp -s "$f" "$T/c/$name" || fail "seeds 5 and 6: $name identical"
    n=$((n + 1))
done
[ "$n" -eq 12 ] || fail "expected 12 archives, got $n"

# An effect restricted to host b of protobuf-3 changes only its two archives.
"$B" simulate -q --seed 5 --effect 'large/serialize=1.5@p3-vm-b-*' "$T/e"
for f in "$T"/a/*.jsonl.zst; do
    name=$(basename "$f")
    case $name in
    p3-vm-b-*) ! cmp -s "$f" "$T/e/$name" || fail "--effect did not change $name" ;;
    *) cmp -s "$f" "$T/e/$name" || fail "--effect changed $name" ;;
    esac
done

# --- records ------------------------------------------------------------------
python3 - "$T/a" <<'PY'
import json, os, subprocess, sys
d = sys.argv[1]
names = sorted(os.listdir(d))
want = [f"p{g}-vm-{h}-{p}.jsonl.zst" for g in (3, 4) for h in "abc" for p in (1, 2)]
assert names == want, names
hosts, starts = set(), {}
for name in names:
    raw = open(os.path.join(d, name), "rb").read()
    assert raw[:4] == b"\x28\xb5\x2f\xfd", name
    text = subprocess.run(["zstd", "-dcq"], input=raw, stdout=subprocess.PIPE, check=True).stdout.decode()
    assert text.endswith("\n")
    recs = [json.loads(l) for l in text.split("\n")[:-1]]
    kinds = [r["record"] for r in recs]
    assert kinds[:3] == ["run", "event", "gate"] and kinds[3:] == ["samples"] * 800, name
    run = recs[0]
    g, h, p = name[1], name[6], int(name[8])
    assert run["format"] == "benchdb-run/1" and run["plan"] == "calibration-sim"
    assert run["run"] == name[:-len(".jsonl.zst")] and run["position"] == p
    assert run["host"] == f"sim-p{g}-vm-{h}"
    hosts.add(run["host"])
    assert run["treatment"] == "native" and run["baseline"] == "chill"
    assert len(run["source"]) == 40 and int(run["source"], 16) >= 0
    a = run["attributes"]
    assert a["profile"] == f"protobuf-{g}" and a["protobuf"] == {"3": "3.25.9", "4": "4.33.6"}[g]
    assert a["simulated"] is True and a["machine_type"] == "c3-standard-8" and a["zone"] == "asia-northeast1-b"
    assert a["cpu_platform"] == "Intel Xeon Platinum 8481C" and a["jdk"] == "Temurin 17.0.20.1"
    assert a["image"] == "ubuntu-2404-noble-amd64-v20261016" and a["kernel"] == "7.0.0-1014-gcp"
    assert a["flink"] == "2.3.0"
    assert recs[1] == {"record": "event", "name": "maintenance", "value": "TERMINATE", "at": run["started_at"]}
    assert recs[2]["name"] == "load" and recs[2]["passed"] is True
    starts[(g, h, p)] = (run["started_at"], run["ended_at"])
    cells, keys = set(), set()
    for r in recs[3:]:
        cell = (r["benchmark"], r["params"]["workload"], r["params"]["format"])
        cells.add(cell)
        key = (cell, r["block"], r["variant"], r["fork"])
        assert key not in keys
        keys.add(key)
        assert 1 <= r["block"] <= 5 and r["fork"] in (0, 1) and r["unit"] in ("ns/op", "us/op")
        assert len(r["values"]) == 5 and len(r["warmup"]) == 3
        assert all(v > 0 for v in r["values"] + r["warmup"])
    assert len(cells) == 40 and len(keys) == 40 * 5 * 2 * 2
    # Native first in odd blocks, chill first in even blocks.
    firsts = {}
    for r in recs[3:]:
        firsts.setdefault(r["block"], r["variant"])
    assert firsts == {1: "native", 2: "chill", 3: "native", 4: "chill", 5: "native"}, firsts
assert len(hosts) == 6
# Position 2 starts after position 1 ends; all hosts start within 3 minutes.
for g in "34":
    for h in "abc":
        assert starts[(g, h, 1)][1] < starts[(g, h, 2)][0]
first = sorted(starts[k][0] for k in starts if k[2] == 1)
assert first[0][:14] == first[-1][:14] == "2026-10-21T03:", first
PY

# --- options ----------------------------------------------------------------
"$B" simulate -q --plan tiny --groups 1 --hosts 2 --positions 1 --cells 3 --blocks 2 --forks 1 \
    --iterations 2 --warmups 0 --wide 1 --seed 18446744073709551615 "$T/tiny"
[ "$(ls "$T/tiny" | tr '\n' ' ')" = "p3-vm-a-1.jsonl.zst p3-vm-b-1.jsonl.zst " ] || fail "tiny plan: $(ls "$T/tiny")"
zstd -dcq "$T/tiny/p3-vm-b-1.jsonl.zst" >"$T/tiny.jsonl"
[ "$(wc -l <"$T/tiny.jsonl")" -eq $((3 + 3 * 2 * 2)) ] || fail "tiny plan: line count"
grep -qF '"plan":"tiny"' "$T/tiny.jsonl" || fail "tiny plan: --plan"
# A plan name that needs JSON escaping reads back as given.
"$B" simulate -q --plan 'q"b\s é' --groups 1 --hosts 1 --positions 1 --cells 1 "$T/esc"
zstd -dcq "$T/esc/p3-vm-a-1.jsonl.zst" | head -n 1 |
    python3 -c 'import json, sys; assert json.loads(sys.stdin.read())["plan"] == "q\"b\\s \u00e9"' ||
    fail "plan name escaping"
grep -qF '"sim_seed":"18446744073709551615"' "$T/tiny.jsonl" || fail "tiny plan: --seed"
! grep -qF '"warmup"' "$T/tiny.jsonl" || fail "--warmups 0 still writes warmups"

expect 2 "simulate: missing the output directory" "$B" simulate
expect 2 "simulate: unexpected argument 'y'" "$B" simulate x y
expect 2 "simulate: --hosts 'three': expected an integer" "$B" simulate --hosts three "$T/x"
expect 2 "simulate: --hosts: expected an integer from 1 to 26, got 0" "$B" simulate --hosts 0 "$T/x"
expect 2 "simulate: --cells: expected an integer from 1 to 120, got 121" "$B" simulate --cells 121 "$T/x"
expect 2 "simulate: --blocks '5x': expected an integer" "$B" simulate --blocks 5x "$T/x"
expect 2 "simulate: --seed '-1': expected an integer from 0 to 2^64-1" "$B" simulate --seed -1 "$T/x"
expect 2 "simulate: --seed '18446744073709551616': expected" "$B" simulate --seed 18446744073709551616 "$T/x"
expect 2 "simulate: --spread 'nan': expected a number" "$B" simulate --spread nan "$T/x"
expect 2 "simulate: --drift: expected a number from 0 to 1, got -0.1" "$B" simulate --drift -0.1 "$T/x"
expect 2 "simulate: --wide-spread '0.3': expected LO:HI" "$B" simulate --wide-spread 0.3 "$T/x"
expect 2 "simulate: --effect 'large=2': expected WORKLOAD/OPERATION[/FORMAT]=FACTOR[@RUNS]" \
    "$B" simulate --effect large=2 "$T/x"
expect 2 "simulate: --effect huge/*/*: matches none of the plan's 40 cells" "$B" simulate --effect 'huge/*=2' "$T/x"
expect 2 "simulate: --effect @p9-*: matches none of the plan's 12 runs" "$B" simulate --effect 'large/*=2@p9-*' "$T/x"
expect 2 "simulate: unknown option '--bogus'" "$B" simulate --bogus "$T/x"
expect 2 "simulate: option '--seed' needs a value" "$B" simulate "$T/x" --seed
expect 2 "(see 'benchdb simulate --help')" "$B" simulate --forks 0 "$T/x"
[ ! -e "$T/x" ] || fail "a usage error created the output directory"
"$B" simulate --help | grep -qF "usage: benchdb simulate [OPTIONS] OUTDIR" || fail "--help"

# --- files ------------------------------------------------------------------
# Nested output directories are created; existing archives are refused
# (nothing written) unless --force.
"$B" simulate -q --groups 1 --hosts 1 --positions 1 "$T/deep/er/out/"
[ -f "$T/deep/er/out/p3-vm-a-1.jsonl.zst" ] || fail "nested OUTDIR"
"$B" simulate -q --groups 1 --hosts 1 --positions 2 --seed 9 "$T/refuse"
rm "$T/refuse/p3-vm-a-2.jsonl.zst"
cp "$T/refuse/p3-vm-a-1.jsonl.zst" "$T/keep"
expect 1 "simulate: $T/refuse/p3-vm-a-1.jsonl.zst exists (pass --force to overwrite)" \
    "$B" simulate --groups 1 --hosts 1 --positions 2 "$T/refuse"
cmp -s "$T/keep" "$T/refuse/p3-vm-a-1.jsonl.zst" || fail "a refused command changed an archive"
[ ! -e "$T/refuse/p3-vm-a-2.jsonl.zst" ] || fail "a refused command wrote an archive"
"$B" simulate -q --force --groups 1 --hosts 1 --positions 2 "$T/refuse"
! cmp -s "$T/keep" "$T/refuse/p3-vm-a-1.jsonl.zst" || fail "--force did not overwrite"
[ "$(ls -A "$T/refuse" | wc -l)" -eq 2 ] || fail "temporary files left: $(ls -A "$T/refuse")"
: >"$T/file"
expect 1 "simulate: cannot create directory $T/file" "$B" simulate "$T/file"
echo ok
