# Output for people and for programs: reals rounded for display only
# (--digits), tables that fit the terminal ($COLUMNS) or turn vertical,
# JSON that nests JSON values, --envelope, and control characters escaped
# wherever a person reads them while CSV and JSON keep them exact.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

bd init >/dev/null

# --- Digits: rounded for display to 4 significant digits, shortest form;
# an integer, or a whole real below 2^53, is never rounded; the integer
# part of a real is never cut to an exponent.
q="SELECT 0.041666666666666664 AS a, 3.1719999999999997 AS b, 1234.5678 AS c, 123456789.0 AS d,
          12345678901 AS e, 1e-9 AS f, 2.5e20 AS g, -0.00012345678 AS h, 0.1 AS i, 99999.99 AS j"
run bd sql "$q"
expect_rc 0 "table with reals"
expect_out "      a      b     c            d            e      f        g           h    i       j
-------  -----  ----  -----------  -----------  -----  -------  ----------  ---  ------
0.04167  3.172  1235  123456789.0  12345678901  1e-09  2.5e+20  -0.0001235  0.1  100000" "4 significant digits by default"
run bd sql "$q" --digits 2 --format vertical
expect_out "a = 0.042
b = 3.2
c = 1235
d = 123456789.0
e = 12345678901
f = 1e-09
g = 2.5e+20
h = -0.00012
i = 0.1
j = 100000" "--digits 2, one record per block"
run bd sql "$q" --digits 17 --format markdown
expect_out "| a                    | b                  | c         | d           | e           | f     | g       | h              | i   | j        |
| -------------------: | -----------------: | --------: | ----------: | ----------: | ----: | ------: | -------------: | --: | -------: |
| 0.041666666666666664 | 3.1719999999999997 | 1234.5678 | 123456789.0 | 12345678901 | 1e-09 | 2.5e+20 | -0.00012345678 | 0.1 | 99999.99 |" \
  "--digits 17: every digit, in the shortest form that reads back"
run bd sql "$q" --format csv
expect_out "$(printf '%s\r\n%s\r' 'a,b,c,d,e,f,g,h,i,j' \
  '0.041666666666666664,3.1719999999999997,1234.5678,123456789.0,12345678901,1e-09,2.5e+20,-0.00012345678,0.1,99999.99')" \
  "CSV keeps full precision"
run bd sql "$q" --format json
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))[0]; assert r["a"] == 0.041666666666666664 and r["j"] == 99999.99, r' "$T/out" ||
    fail "JSON keeps full precision"
for d in 0 18 x; do
    run bd sql "SELECT 1" --digits $d
    expect_rc 2 "--digits $d"
    expect_err_has "error: sql: --digits '$d': expected an integer from 1 to 17" "--digits $d message"
done

# --- Width: a table wider than $COLUMNS prints one record per block, unless
# --wide; without $COLUMNS and without a terminal (a pipe) there is no limit.
w="SELECT 'aaaaaaaaaaaaaaaaaaaa' AS x, 'bbbbbbbbbbbbbbbbbbbbbbbbbbbb' AS long_name UNION ALL SELECT 'c', NULL"
table="x                     long_name
--------------------  ----------------------------
aaaaaaaaaaaaaaaaaaaa  bbbbbbbbbbbbbbbbbbbbbbbbbbbb
c"
COLUMNS=40 run bd sql "$w"
expect_out "        x = aaaaaaaaaaaaaaaaaaaa
long_name = bbbbbbbbbbbbbbbbbbbbbbbbbbbb

        x = c
long_name =" "wider than COLUMNS=40: vertical"
COLUMNS=50 run bd sql "$w"
expect_out "$table" "50 columns fit a table of 50"
COLUMNS=40 run bd sql "$w" --wide
expect_out "$table" "--wide keeps the table"
run bd sql "$w"
expect_out "$table" "a pipe without COLUMNS gets the table"
COLUMNS=40 run bd sql "$w" --format markdown
expect_out_has "| aaaaaaaaaaaaaaaaaaaa | bbbbbbbbbbbbbbbbbbbbbbbbbbbb |" "Markdown is never turned vertical"
COLUMNS=30 run bd sql "SELECT 'one two three four five six seven eight nine' AS words, 'abcdefghijklmnopqrstuvwxyzabcdefghij' AS w2"
expect_out "words = one two three four
        five six seven eight
        nine
   w2 = abcdefghijklmnopqrstuvwxyzabcdefghij" "a long value wraps at blanks within COLUMNS (a long word stays whole)"
# Names are never cut nor wrapped, in any width: a benchmark, host, run or
# plan name prints the same whatever else the row holds.
name='BenchmarkCRC32/poly=Castagnoli/size=15/align=0 with blanks in it'
for cols in 20 40 60; do
    COLUMNS=$cols run bd sql "SELECT '$name' AS benchmark, 'ci host one' AS host, 'a b c d e f g h i j k l m n o p q r s' AS note"
    expect_out_has "benchmark = $name" "COLUMNS=$cols: the benchmark name whole, on one line"
    expect_out_has "     host = ci host one" "COLUMNS=$cols: the host whole"
done
COLUMNS=200 run bd sql "SELECT '$name' AS benchmark, 1 AS n"
expect_out_has "$name  1" "a table keeps it whole too"
# A column of percentages (*_percent) shows its sign and %, CSV keeps the number.
run bd sql "SELECT 7.842 AS change_percent, -4.1 AS step_percent, 0 AS zero_percent, NULL AS none_percent"
expect_out_has "       +7.842%         -4.1%            0%" "sign and % in a table"
run bd sql "SELECT 7.842 AS change_percent" --format csv
expect_out_has "7.842" "CSV keeps the number"
grep -q "%" "$T/out" && fail "CSV: no %"
COLUMNS=junk run bd sql "$w"
expect_out "$table" "a COLUMNS that is not a number is ignored"

# --- JSON: a text holding a JSON object or array is nested; other text
# stays a string; --envelope puts the rows and notes in one object.
run bd sql "SELECT '{\"a\": 1}' AS j, '[1,2]' AS k, '{bad' AS l, '3' AS m" --format json
expect_out '[
  {"j": {"a": 1}, "k": [1,2], "l": "{bad", "m": "3"}
]' "JSON values nest; text stays text"
run bd sql "SELECT 1 AS one" --format json --envelope
expect_out '{
"rows": [
  {"one": 1}
],
"notes": []
}' "--envelope"
run bd sql "SELECT 1" --envelope
expect_rc 2 "--envelope without json"
expect_err_has "error: sql: --envelope goes with --format json (see 'benchdb sql --help')" "--envelope message"

# --- Control characters: escaped in tables, Markdown and messages; exact
# in CSV and JSON.
c="SELECT char(27) || '[2J' AS v, 'a' || char(13) || 'b' AS w, char(155) AS x, 'é|' AS y, char(7) AS \"n$(printf '\033')\""
run bd sql "$c"
expect_out 'v        w     x       y   n\x1b
-------  ----  ------  --  -----
\x1b[2J  a\rb  \u009b  é|  \x07' "a table escapes ESC, CR, C1 controls and BEL, in names too"
run bd sql "$c" --format vertical
expect_out_has 'n\x1b = \x07' "vertical escapes"
run bd sql "$c" --format markdown
expect_out '| v        | w    | x      | y   | n\x1b |
| -------- | ---- | ------ | --- | ----- |
| \x1b\[2J | a\rb | \u009b | é\| | \x07  |' "Markdown escapes (the [ as Markdown, the rest as controls)"
run bd sql "$c" --format csv
printf 'v,w,x,y,n\033\r\n\033[2J,"a\rb",\302\233,é|,\007\r\n' >"$T/want"
cmp -s "$T/out" "$T/want" || fail "CSV keeps control characters exact"
checks=$((checks + 1))
run bd sql "$c" --format json
expect_out '[
  {"v": "\u001b[2J", "w": "a\rb", "x": "'"$(printf '\302\233')"'", "y": "é|", "n\u001b": "\u0007"}
]' "JSON escapes what JSON must, exactly"
run bd sql "SELECT :v" -p "v=$(printf 'a\033[2J')" --bogus
expect_err_has "error: sql: unknown option '--bogus'" "a usage error"
run bd query "$(printf 'x\033[2Jy')"
expect_err_has "error: query: no saved query named 'x\\x1b[2Jy'" "a name in a message is escaped"
grep -q "$(printf '\033')" "$T/err" && fail "a raw ESC reached stderr"
checks=$((checks + 1))
mkdir mine
printf -- '-- name: evil\n-- summary: clears \033[2J the screen\n-- param: p = a\rb  a default with CR\nSELECT :p AS p;\n' >mine/evil.sql
run bd queries --queries mine
expect_out_has 'evil            clears \x1b[2J the screen' "a summary cannot clear the screen"
expect_out_has 'p = a\rb' "a default's CR is escaped"
run bd queries evil --queries mine
expect_out_has 'p          text  a\rb' "one query's parameters, escaped"
run bd query evil --queries mine --no-record
expect_out 'p
----
a\rb' "a value's CR is escaped in a table"
grep -q "$(printf '\033\\|\r')" "$T/out" "$T/err" && fail "a raw ESC or CR reached the terminal"
checks=$((checks + 1))
run bd simulate --groups 1 --hosts 1 --positions 1 --cells 1 --blocks 1 "$(printf 'sim\033[2J')"
expect_out_has 'records each) to sim\x1b[2J' "a line for a person escapes what it quotes"

finish
