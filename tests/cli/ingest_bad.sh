# The refused archives of tests/data/bad/ (made by tools/gen/data/make_bad.py)
# are each a ctest entry of their own (refused/archive/NAME, run by
# tests/cli/lib/refused.sh). Here: that the corpus is there, and one case
# generated at test time (too big to commit): a 100 MB line streamed on
# standard input, refused once it passes the default line limit of
# 64 MiB, never held whole.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
BAD="$BENCHDB_SRC/tests/data/bad"
n=$(ls "$BAD"/*.err | wc -l)
[ "$n" -ge 100 ] || fail "only $n cases in $BAD"
bd init >/dev/null
bd ingest --quiet "$DATA/good/example.jsonl"
before=$(snapshot)
rc=0
{ printf '{"record":"run","format":"benchdb-run/1","plan":"p","run":"r1","host":"h1"}\n'; printf '{"record":"event","name":"'; head -c 100000000 /dev/zero | tr '\0' x; printf '"}\n'; } |
    bd ingest - >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" = 1 ] || fail "100 MB line: exit status $rc"
[ "$(cat "$T/err")" = 'error: <stdin>:2: line longer than 67108864 bytes (the limit; raise it with --max-line-bytes)
note: <stdin>: archive not stored (nothing from it was written)' ] || fail "100 MB line: $(cat "$T/err")"
[ "$(snapshot)" = "$before" ] || fail "100 MB line: the store changed"
echo "ok: $n refused archives in the corpus, and a 100 MB line"
