#!/bin/sh
# examples/calibration is exactly what its recorded command writes
# (examples/README.md): regenerate it and compare the bytes.
set -eu
: "${BENCHDB_BIN:?}" "${BENCHDB_SRC:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
E=$BENCHDB_SRC/examples/calibration
fail() { echo "FAIL: $*" >&2; exit 1; }

# The command recorded in examples/README.md, run as it is written (in a
# new directory, build/benchdb this binary).
cmd=$(sed -n 's|^    build/benchdb \(simulate .*\)$|\1|p' "$BENCHDB_SRC/examples/README.md")
[ -n "$cmd" ] || fail "examples/README.md records no 'build/benchdb simulate' command"
# shellcheck disable=SC2086
(cd "$T" && "$BENCHDB_BIN" $cmd >/dev/null) || fail "examples/README.md's command fails: build/benchdb $cmd"

(cd "$E" && ls) >"$T/want"
(cd "$T/calibration" && ls) >"$T/got"
cmp -s "$T/want" "$T/got" || fail "file names differ: $(diff "$T/want" "$T/got" | tr '\n' ' ')"
[ "$(wc -l <"$T/got")" -eq 12 ] || fail "expected 12 archives"
for f in $(cat "$T/got"); do
    if ! cmp -s "$E/$f" "$T/calibration/$f"; then
        # Say whether the text or only its compression differs (another libzstd).
        if command -v zstd >/dev/null; then
            zstd -dcq "$T/calibration/$f" >"$T/text"
            if zstd -dcq "$E/$f" | cmp -s - "$T/text"; then
                fail "$f: same JSON Lines, different zstd bytes (libzstd version differs from the one that made the examples?)"
            fi
        fi
        fail "$f differs from the regenerated archive"
    fi
done
echo ok
