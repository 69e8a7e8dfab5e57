# benchdb export (docs/scale-out.md, "Archives in object storage"): every
# stored archive's original bytes, one file per archive named by its
# SHA-256 and original extension; each file's SHA-256 is its name, and the
# files ingested into an empty store give the same rows (every value,
# series, run, gate, event and derived row, by their names; the archives'
# SHA-256s). --plan, --run and --archive select; a selection that matches
# nothing, a file in the way with other bytes and a bad --run are errors.
# On a terminal a progress line says how far it is.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
ex=$BENCHDB_SRC/examples
# Under the sanitizers host a's 4 calibration archives of 12
# (calibration_archives), p3-vm-a-1 and -2 among them, which --run and
# --archive select below: the export, its re-ingest and the row-by-row
# comparisons take the same paths.
cal=$(calibration_archives)
bd --db a.db init >/dev/null
# shellcheck disable=SC2086
bd --db a.db ingest -q $cal "$ex/git-perf/p0001-git-git.jsonl" || fail "ingest"
n=$(bd --db a.db sql "SELECT count(*) FROM archive" --format csv | tail -1 | tr -d '\r')

run bd --db a.db export exp
expect_rc 0 "export"
expect_out_has "exported $n archives to exp (0 already there)" "says how many"
expect_eq "$(ls exp | wc -l)" "$n" "one file per archive"
for f in exp/*; do
    b=$(basename "$f")
    checks=$((checks + 1))
    [ "$(sha256sum "$f" | cut -c1-64)" = "${b%%.*}" ] || fail "$b: its SHA-256 is its name"
done
# shellcheck disable=SC2086
expect_eq "$(ls exp | grep -c '^[0-9a-f]\{64\}\.jsonl\.zst$')" "$(ls $cal | wc -l)" "the zstd archives keep .jsonl.zst"
expect_eq "$(ls exp | grep -c '^[0-9a-f]\{64\}\.jsonl$')" 1 "the plain one keeps .jsonl"
# The original bytes: the example files themselves.
# shellcheck disable=SC2086
for f in $cal "$ex/git-perf/p0001-git-git.jsonl"; do
    s=$(sha256sum "$f" | cut -c1-64)
    checks=$((checks + 1))
    cmp -s "$f" exp/"$s".* || fail "$(basename "$f") comes back byte for byte"
done
run bd --db a.db export exp
expect_out_has "exported 0 archives to exp ($n already there)" "a second export leaves the files"
expect_eq "$(cat "$T/err")" "" "no progress when stderr is no terminal"
# On a terminal a line says how far the export is, cleared at the end;
# --quiet has none.
tty_export() { # ARGS...: benchdb export on a terminal, its output with CR and ESC shown
    python3 - "$BENCHDB_BIN" "$@" <<'EOF2'
import os, pty, sys
out = bytearray()
def read(fd):
    data = os.read(fd, 1024)
    out.extend(data)
    return data
pty.spawn([sys.argv[1], "--db", "a.db", "export"] + sys.argv[2:], read)
sys.stdout.write(out.decode("utf-8", "replace").replace("\x1b", "<ESC>").replace("\r", "<CR>"))
EOF2
}
tty_export tty1 >tty.out
checks=$((checks + 1))
grep -qF "<CR><ESC>[Kexporting archive $n of $n<CR><ESC>[Kexported $n archives to tty1" tty.out ||
    fail "on a terminal: the progress line, then cleared: $(cat tty.out)"
tty_export tty2 --quiet >tty.out
expect_eq "$(cat tty.out)" "" "--quiet on a terminal: nothing"
expect_eq "$(ls tty2 | wc -l)" "$n" "--quiet on a terminal: exported"

# Re-ingested into an empty store: the same rows.
bd --db c.db init >/dev/null
bd --db c.db ingest -q exp || fail "ingest the export"
rows() {
    bd --db "$1" sql "$2" --format csv --digits 17 --max-rows 10000000 --max-result-bytes 1G
}
while read -r what q; do
    rows a.db "$q" >a.csv || fail "$what on the store"
    rows c.db "$q" >c.csv || fail "$what on the re-ingested store"
    checks=$((checks + 1))
    cmp -s a.csv c.csv || fail "$what differ after re-ingesting the export"
done <<'SQL'
archives SELECT sha256, size, format, content_encoding, stored_size FROM archive ORDER BY sha256
runs SELECT p.name, r.name, h.name, r.position, r.source, r.started_at, r.ended_at, r.attributes, a.sha256 FROM run r JOIN plan p ON p.id = r.plan_id JOIN host h ON h.id = r.host_id JOIN archive a ON a.id = r.archive_id ORDER BY 1, 2
values SELECT p.name, r.name, b.name, b.params, v.name, s.block, s.fork, s.metric, s.unit, s.n, s.total, s.detail, x.warmup, x.iteration, x.value, x.count FROM sample x JOIN series s ON s.id = x.series_id JOIN run r ON r.id = s.run_id JOIN plan p ON p.id = r.plan_id JOIN benchmark b ON b.id = s.benchmark_id JOIN variant v ON v.id = s.variant_id ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 13, 14
gates SELECT r.name, g.name, g.passed, g.at, g.detail FROM gate g JOIN run r ON r.id = g.run_id ORDER BY 1, 2, 3, 4
events SELECT r.name, e.name, e.value, e.at, e.detail FROM event e JOIN run r ON r.id = e.run_id ORDER BY 1, 2, 3, 4
cells SELECT r.name, b.name, b.params, c.blocks, c.mean_log, c.sd_log, hex(c.moments) FROM run_cell_data c JOIN run r ON r.id = c.run_id JOIN benchmark b ON b.id = c.benchmark_id ORDER BY 1, 2, 3
points SELECT r.name, b.name, b.params, v.name, h.metric, h.started, h.position, h.series, h.n, h.total, h.unit FROM history_point_data h JOIN run r ON r.id = h.run_id JOIN benchmark b ON b.id = h.benchmark_id JOIN variant v ON v.id = h.variant_id ORDER BY 1, 2, 3, 4, 5
plans SELECT plan, run, host, position FROM plan_run ORDER BY plan, run
SQL
checks=$((checks + 1))
# (the last query's: a row a run and the header; sanitized, 5 runs)
# shellcheck disable=SC2086
[ "$(wc -l <a.csv)" -gt "$(ls $cal | wc -l)" ] || fail "the comparison saw rows"

# Selections.
run bd --db a.db export sel --plan git-perf-p0001
expect_rc 0 "--plan"
expect_eq "$(ls sel)" "$(sha256sum "$ex/git-perf/p0001-git-git.jsonl" | cut -c1-64).jsonl" "only that plan's archive"
run bd --db a.db export sel2 --run calibration-sim/p3-vm-a-1
expect_rc 0 "--run"
expect_eq "$(ls sel2)" "$(sha256sum "$ex/calibration/p3-vm-a-1.jsonl.zst" | cut -c1-64).jsonl.zst" "only that run's archive"
run bd --db a.db export sel3 --archive 2
expect_rc 0 "--archive"
expect_eq "$(ls sel3 | wc -l)" 1 "one archive"
# A plan or run the store does not hold: a usage error naming the nearest,
# and no DIR made (it was made, then the error said only 'no stored
# archive', exit 1).
run bd --db a.db export sel4 --plan calibraton-sim
expect_rc 2 "a plan the store does not hold"
expect_eq "$(cat "$T/err")" "error: export: --plan: plan 'calibraton-sim' does not exist; did you mean 'calibration-sim'? (plans: calibration-sim, git-perf-p0001) (see 'benchdb export --help')" \
    "says so, with the nearest"
run bd --db a.db export sel4 --run calibration-sim/p3-vm-a-9
expect_rc 2 "a run the plan does not hold"
expect_err_has "error: export: --run: run 'p3-vm-a-9' is not a run of plan calibration-sim; did you mean 'p3-vm-a-1'?" \
    "says so, with the nearest"
run bd --db a.db export sel4 --run calibraton-sim/p3-vm-a-1
expect_rc 2 "a run of a plan the store does not hold"
expect_err_has "error: export: --run: plan 'calibraton-sim' does not exist; did you mean 'calibration-sim'?" "names the plan"
run bd --db a.db export sel4 --archive 999
expect_rc 2 "an archive id the store does not hold"
n_arch=$(bd --db a.db sql "SELECT count(*) FROM archive" --format csv | tail -1 | tr -d '\r')
expect_eq "$(cat "$T/err")" "error: export: --archive: no stored archive has id 999 (its $n_arch archives are 1 to $n_arch: 'benchdb list archives' lists them) (see 'benchdb export --help')" \
    "says so, with the ids there are"
run bd --db nosuch.db export sel4
expect_rc 1 "a store that is not there"
checks=$((checks + 1))
[ ! -e sel4 ] || fail "no DIR is made for an export that writes nothing"
run bd --db a.db export sel4 --run nosuchrun
expect_rc 2 "--run without PLAN/"
run bd --db a.db export sel4 --plan a --archive 1
expect_rc 2 "two selections"
# A file in the way with other bytes.
f=$(ls sel3)
echo "other bytes" >"sel3/$f"
run bd --db a.db export sel3 --archive 2
expect_rc 1 "a file with other bytes in the way"
expect_err_has "already exists with other bytes than archive 2's" "says so"
expect_eq "$(cat "sel3/$f")" "other bytes" "and leaves it"
echo x >notadir
run bd --db a.db export notadir
expect_rc 1 "DIR is a file"
expect_err_has "notadir: not a directory" "says so"
# A link planted where the temporary would go: the name was predictable
# (DIR/.SHA.partial-PID, the pid of the shell that exec hands on) and
# opened with fopen, so the victim was overwritten with the archive's
# bytes. Now the temporary is a new mkstemp name.
echo "precious" >victim
s2=$(sha256sum "$ex/calibration/p3-vm-a-1.jsonl.zst" | cut -c1-64)
mkdir planted
sh -c 'ln -s ../victim planted/.'"$s2"'.partial-$$; exec "$0" --db a.db export planted --run calibration-sim/p3-vm-a-1' \
    "$BENCHDB_BIN" >/dev/null 2>&1 || fail "export beside a planted link"
expect_eq "$(cat victim)" "precious" "the victim is untouched"
checks=$((checks + 1))
cmp -s planted/"$s2".jsonl.zst "$ex/calibration/p3-vm-a-1.jsonl.zst" || fail "the archive is written where it belongs"
# Something in the way that is no regular file: a FIFO hung the export (it
# was opened to be hashed), a link to /dev/zero was read for ever. Each is
# refused, nothing read or written.
mkdir fifo zero
mkfifo fifo/"$s2".jsonl.zst
ln -s /dev/zero zero/"$s2".jsonl.zst
for d in fifo zero; do
    run timeout 20 "$BENCHDB_BIN" --db a.db export $d --run calibration-sim/p3-vm-a-1
    expect_rc 1 "$d in the way"
    expect_err_has "$d/$s2.jsonl.zst: is in the way and is not a regular file" "$d: says so"
done
checks=$((checks + 1))
[ -p fifo/"$s2".jsonl.zst ] && [ -L zero/"$s2".jsonl.zst ] || fail "what was in the way stays"
# A stored SHA-256 that is no hash (written by hand) does not name a file
# outside DIR.
cp a.db bad.db
bd --db bad.db sql --write "UPDATE archive SET sha256 = '../../../../../../../../../../../../tmp/x' || substr(sha256, 1, 23) WHERE id = 2" ||
    fail "tamper"
run bd --db bad.db export badsha --archive 2
expect_rc 1 "a stored SHA-256 that is no hash"
expect_err_has "its SHA-256 in the store is not 64 hex digits: the store is damaged" "says so"
finish
