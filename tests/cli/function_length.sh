# No function in src/ is longer than 100 lines, from its signature to its
# closing brace (docs/architecture.md, "Sizes"): tests/cli/lib/function_length.py
# lists each one that is, and the few still allowed. First shown to catch
# one on a sample written here: a 101-line function (its signature on two
# lines) is named, a 100-line one and a table's initializer are not.
# ctest: plain-only
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
LEN="$BENCHDB_SRC/tests/cli/lib/function_length.py"

# body N: N lines of statements.
body() {
    i=0
    while [ "$i" -lt "$1" ]; do
        echo "    x += $i;"
        i=$((i + 1))
    done
}
mkdir -p sample/sub
{
    echo "static int declared(int x);"
    echo ""
    echo "static const struct { int a; } table[] = {"
    body 120 | sed 's/.*/    {1},/'
    echo "};"
    echo ""
    echo "/* 100 lines: the signature, braces and 97 statements. */"
    echo "int just_right(int x)"
    echo "{"
    body 96
    echo "    return x;"
    echo "}"
    echo ""
    echo "static int too_long(int x,"
    echo "                    int y)"
    echo "{"
    body 96
    echo "    return x + y;"
    echo "}"
} >sample/sub/a.c
run python3 "$LEN" sample 100
expect_rc 1 "a 101-line function fails the check"
expect_out_has "too long: sub/a.c:too_long (line 228) has 101 lines, over 100" "the offender, its line and length"
checks=$((checks + 1))
if grep -q "just_right\|table\|declared" "$T/out"; then
    fail "only the long function is named"
    sed 's/^/  stdout: /' "$T/out" >&2
fi
expect_out_has "2 functions counted" "the two definitions counted, the table and declaration not"

run python3 "$LEN" "$BENCHDB_SRC/src" 100
expect_rc 0 "no function in src/ over 100 lines but the allowed ones"
cat "$T/out"
finish
