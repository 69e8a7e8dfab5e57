# Libraries loaded when a command needs them (docs/architecture.md,
# "Libraries loaded when needed"): benchdb's binary names neither
# libarchive (with libxml2, ICU, libstdc++ and four compression libraries
# behind it, about half of a process's start) nor libpq among the
# libraries the loader maps at start; a command on a store maps neither;
# an ingest maps libarchive only when an input needs it (a tar, a zip, a
# gzip, xz or bzip2 stream), and then reads it as before. Harness files
# need it not: the tar benchdb makes of them is read back without it
# (sources/ustar.c).
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
needed=$(objdump -p "$BENCHDB_BIN" | awk '$1 == "NEEDED" {print $2}')
[ -n "$needed" ] || fail "objdump -p lists no NEEDED library of $BENCHDB_BIN"
case "$needed" in
*libarchive* | *libpq*) fail "benchdb links at start what it loads when needed: $(echo $needed)" ;;
esac

# which libraries a command opened, by the loader's own account
opened() { LD_DEBUG=files "$@" 2>&1 >/dev/null | grep -o 'file=lib[a-z0-9]*\.so[.0-9]*' | sort -u || true; }

bd init >/dev/null
got=$(opened "$BENCHDB_BIN" --db "$T/store.db" list)
case "$got" in *libarchive* | *libpq*) fail "list on a file store loaded: $got" ;; esac
cp "$DATA/good/example.jsonl" "$T/example.jsonl"
got=$(opened "$BENCHDB_BIN" --db "$T/store.db" ingest -q "$T/example.jsonl")
case "$got" in *libarchive*) fail "the ingest of a bare stream loaded libarchive" ;; esac
expect_rows "the bare stream" "SELECT count(*) FROM archive" "1"
printf 'benchmark,unit,value\nb1,ns,1.5\nb1,ns,2.5\n' >"$T/one.csv"
got=$(opened "$BENCHDB_BIN" --db "$T/store.db" ingest -q --plan p --run csv --host h "$T/one.csv")
case "$got" in *libarchive*) fail "the ingest of a harness file loaded libarchive" ;; esac
expect_rows "the harness file's values" "SELECT count(*) FROM sample s JOIN series e ON e.id = s.series_id JOIN run r ON r.id = e.run_id WHERE r.name = 'csv'" "2"

# a gzip-compressed tar of another run: libarchive loaded, the run stored
mkdir "$T/t"
sed 's/"vm-a-1"/"vm-z-1"/g; s/"vm-a-2"/"vm-z-2"/g' "$DATA/good/example.jsonl" >"$T/t/z.jsonl"
grep -q vm-z-1 "$T/t/z.jsonl" || fail "the example's runs are no longer named vm-a-1: update this test"
(cd "$T/t" && tar -cf - z.jsonl | gzip -n >"$T/z.tar.gz")
got=$(opened "$BENCHDB_BIN" --db "$T/store.db" ingest -q "$T/z.tar.gz")
case "$got" in *libarchive.so*) ;; *) fail "the ingest of a tar.gz did not load libarchive: $got" ;; esac
expect_rows "archives" "SELECT count(*) FROM archive" "3"
expect_rows "runs" "SELECT group_concat(name, ' ') FROM (SELECT name FROM run ORDER BY name)" "csv vm-a-1 vm-a-2 vm-z-1 vm-z-2"
