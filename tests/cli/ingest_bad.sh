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
# docs/archive-format.md names every unit a primary metric takes and every
# format a results record takes: the lists the refusals give.
doc=$(tr '\n' ' ' <"$BENCHDB_SRC/docs/archive-format.md")
units=$(sed -n 's/.*samples.unit: expected one of \(.*\), got .*/\1/p' "$BAD/samples-unit-unknown.err")
[ -n "$units" ] || fail "samples-unit-unknown.err lists no units"
for u in $(echo "$units" | tr -d ','); do
    case "$doc" in *"Units of the primary metric:"*"\`$u\`"*"Any other unit is refused"*) ;;
    *) fail "docs/archive-format.md does not name the primary metric's unit $u" ;; esac
done
formats=$(bd ingest --format nope --plan p --run r --host h x.json 2>&1 | sed -n "s/.*expected one of \(.*\) (see .*/\1/p")
[ -n "$formats" ] || fail "ingest --format lists no formats"
row=$(grep '^| `format` | string | required |' "$BENCHDB_SRC/docs/archive-format.md")
for f in $(echo "$formats" | tr -d ','); do
    case "$row" in *"\`$f\`"*) ;; *) fail "docs/archive-format.md's results.format does not name $f" ;; esac
done
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
