# block_score_data (migration 0004_perf) holds exactly what a fresh
# aggregate of series gives, bit for bit, after an ingest, a --replace, an
# UPDATE of a series, a run's deletion (the cascade) and an archive's
# deletion; and the block_score view reads it.
# ctest: plain-only
#   (plain-only: 0 lines, 0 branches of src/ that no other sanitized test reaches (tools/plain_only_cover.py --all-unique, 2026-12-03); simulated data, and what it checks are the triggers' rows)
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
EX="$BENCHDB_SRC/examples/calibration"
[ -d "$EX" ] || { echo "FAIL: examples/calibration is missing" >&2; exit 1; }

# Rows of block_score_data that a fresh aggregate lacks, and the reverse,
# compared with = on the REAL scores (no tolerance), and the row counts.
same() {
    got=$(bd sql "WITH fresh AS (
                    SELECT run_id, benchmark_id, block, variant_id, sum(total) / sum(n) AS score,
                           sum(n) AS n, min(unit) AS unit
                    FROM series WHERE metric = 'primary' GROUP BY run_id, benchmark_id, block, variant_id)
                  SELECT (SELECT count(*) FROM (SELECT * FROM block_score_data EXCEPT SELECT * FROM fresh)),
                         (SELECT count(*) FROM (SELECT * FROM fresh EXCEPT SELECT * FROM block_score_data)),
                         (SELECT count(*) FROM block_score_data) = (SELECT count(*) FROM fresh),
                         (SELECT count(*) FROM (SELECT * FROM block_score EXCEPT SELECT * FROM fresh)),
                         (SELECT count(*) FROM block_score_data)" --format csv | tail -n 1 | tr -d '\r')
    case "$got" in
    0,0,1,0,"$2") ;;
    *) fail "$1: (stored not fresh, fresh not stored, counts equal, view not fresh, rows) = $got, expected 0,0,1,0,$2" ;;
    esac
}

bd init >/dev/null
bd ingest --quiet "$EX"
# 12 runs x 40 cells x 5 blocks x 2 variants
same "after ingest" 4800

# --replace: one run's archive again with every value scaled, other bytes.
zstd -qdc "$EX/p3-vm-a-1.jsonl.zst" |
    sed -E 's/"values":\[([0-9.]+)/"values":[\1,\1/' >"$T/p3-vm-a-1.jsonl"
bd ingest --quiet --replace "$T/p3-vm-a-1.jsonl"
same "after --replace" 4800
changed=$(bd sql "SELECT count(*) FROM series s JOIN run r ON r.id = s.run_id WHERE r.name = 'p3-vm-a-1' AND s.n = 6" --format csv | tail -n 1 | tr -d '\r')
[ "$changed" = 800 ] || fail "the replaced run's series: $changed with 6 values, expected 800"
bd check >/dev/null 2>"$T/err" || fail "check after --replace: $(cat "$T/err")"

# UPDATE of a series (the key and the numbers).
bd sql --write "UPDATE series SET total = total * 3 WHERE id IN (SELECT min(id) FROM series)" >/dev/null
same "after UPDATE of total" 4800
bd sql --write "UPDATE series SET block = 99 WHERE id IN (SELECT max(id) FROM series)" >/dev/null
same "after UPDATE of block (one block gains a row, the other keeps its other fork)" 4801

# A run's deletion cascades to its series, and so to its blocks.
bd sql --write "DELETE FROM run WHERE name = 'p4-vm-c-2'" >/dev/null
same "after deleting a run" 4401
left=$(bd sql "SELECT count(*) FROM block_score_data b JOIN run r ON r.id = b.run_id WHERE r.name = 'p4-vm-c-2'" --format csv | tail -n 1 | tr -d '\r')
[ "$left" = 0 ] || fail "deleted run still has $left blocks"

# An archive's deletion cascades through its runs.
bd sql --write "DELETE FROM archive WHERE name LIKE '%p3-vm-b-1%'" >/dev/null
same "after deleting an archive" 4001
# A further metric (here an allocation count) never enters a block score.
cat >"$T/metric.jsonl" <<'EOF2'
{"record":"run","format":"benchdb-run/1","plan":"m","run":"m1","host":"hm","treatment":"native","baseline":"chill"}
{"record":"samples","benchmark":"b","block":1,"variant":"native","unit":"ns/op","values":[10,20]}
{"record":"samples","benchmark":"b","block":1,"variant":"native","metric":"gc.alloc","unit":"B/op","values":[5000]}
{"record":"samples","benchmark":"b","block":1,"variant":"chill","unit":"ns/op","values":[30]}
EOF2
bd ingest --quiet "$T/metric.jsonl"
same "after a further metric" 4003
got=$(bd sql "SELECT b.score, b.n, b.unit FROM block_score b JOIN run r ON r.id = b.run_id JOIN variant v ON v.id = b.variant_id
              WHERE r.name = 'm1' AND v.name = 'native'" --format csv | tail -n 1 | tr -d '\r')
[ "$got" = "15.0,2,ns/op" ] || fail "block score with a further metric: $got, expected 15.0,2,ns/op"
echo ok
