# One refused input, one ctest entry (tests/CMakeLists.txt registers each):
#   refused.sh archive NAME   tests/data/bad/NAME.jsonl[.zst]: 'benchdb
#                             ingest [NAME.args] FILE' prints NAME.err and
#                             the not-stored note
#   refused.sh harness FMT/NAME  tests/data/formats/bad/FMT/NAME.json|.txt:
#                             'ingest --format FMT --plan p --run r --host h
#                             FILE' prints exactly NAME.err
#   refused.sh case NAME      tests/data/refused/NAME/: 'ingest ARGS' (the
#                             words of NAME/args, run in NAME/) prints
#                             exactly NAME/err
#   refused.sh template       the store every case starts from, made once
#                             per build directory (ctest fixture
#                             refused-store): $BENCHDB_BUILD/refused-store/
# Each exits 1 and leaves a store holding the example archive unchanged.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
kind=$1 name=${2:-}
tmpl="${BENCHDB_BUILD:?set by ctest}/refused-store"
if [ "$kind" = template ]; then
    rm -rf "$tmpl"
    bd init >/dev/null
    (cd "$DATA/good" && bd ingest --quiet example.jsonl) # stored as "example.jsonl"
    mkdir -p "$tmpl.new"
    snapshot >"$tmpl.new/snapshot"
    cp "$T/store.db" "$tmpl.new/store.db"
    mv "$tmpl.new" "$tmpl"
    echo "ok: the template store, $(wc -l <"$tmpl/snapshot") snapshot lines"
    exit 0
fi
[ -f "$tmpl/store.db" ] || fail "no template store in $tmpl (ctest runs refused/template first)"
cp "$tmpl/store.db" "$T/store.db"
mkdir "$T/case"
# Below, names and arguments by the shell's own expansions and read: a
# case is run hundreds of times a pass, and each process here was one more.
case $kind in
archive)
    BAD="$BENCHDB_SRC/tests/data/bad"
    f=
    for g in "$BAD/$name".jsonl*; do [ -e "$g" ] && f=$g && break; done
    [ -n "$f" ] || fail "$name: no archive beside $name.err"
    file=${f##*/}
    cp "$f" "$T/case/$file"
    args=
    [ ! -f "$BAD/$name.args" ] || read -r args <"$BAD/$name.args"
    set -- $args "$file"
    { cat "$BAD/$name.err" && printf 'note: %s: archive not stored (nothing from it was written)\n' "$file"; } >"$T/want"
    ;;
harness)
    fmt=${name%%/*} base=${name#*/}
    dir="$BENCHDB_SRC/tests/data/formats/bad/$fmt"
    f=
    for g in "$dir/$base".json "$dir/$base".txt "$dir/$base".xml "$dir/$base".csv; do [ -e "$g" ] && f=$g && break; done
    [ -n "$f" ] || fail "$name: no file beside $base.err"
    cp "$f" "$T/case/"
    set -- -q --format "$fmt" --plan p --run r --host h "${f##*/}"
    cp "$dir/$base.err" "$T/want"
    ;;
case)
    dir="$BENCHDB_SRC/tests/data/refused/$name"
    cp -R "$dir/." "$T/case/"
    read -r args <"$dir/args"
    set -- $args
    cp "$dir/err" "$T/want"
    ;;
*) fail "unknown kind $kind" ;;
esac
rc=0
# shellcheck disable=SC2086 # the options are words
(cd "$T/case" && bd ingest "$@") >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" = 1 ] || fail "$name: exit status $rc, expected 1; stderr: $(cat "$T/err")"
cmp -s "$T/err" "$T/want" || fail "$name: stderr differs
--- expected
$(cat "$T/want")
--- got
$(cat "$T/err")"
# Unchanged: byte for byte the template with no write-ahead log left
# (nothing committed), which is the template's snapshot without reading
# it; otherwise the snapshot itself must be the template's. The byte
# comparison saves two benchdb processes a case (a few seconds of a
# sanitized pass over the ~260 cases: docs/testing.md).
if cmp -s "$T/store.db" "$tmpl/store.db" && [ ! -s "$T/store.db-wal" ]; then
    how="byte for byte"
else
    [ "$(snapshot)" = "$(cat "$tmpl/snapshot")" ] || fail "$name: the store changed"
    how="by its rows"
fi
echo "ok: $kind $name refused, the store unchanged $how"
