# The saved query `versions` as git's t/perf/aggregate.perl prints its
# table: on examples/git-perf (the seed message's ten timings per
# version) the minimum gives 3.022, 3.259 (+7.8%), 3.119 (+3.2%) and the
# trimmed mean (k = 1) Stolee's Avg* row 3.126, 3.30825 (+5.8%), 3.17025
# (+1.4%); on the synthetic result files of tests/data/git-perf (outputs of
# the real aggregate.perl) every value, change, <missing>, "=" and "+inf"
# of the tables printed for "base tip", "tip base" and the edge cases, and
# the order of --sort-by=regression.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
G=$BENCHDB_SRC/tests/data/git-perf
bd init >/dev/null
bd ingest --quiet "$BENCHDB_SRC/examples/git-perf" || fail "ingest examples/git-perf"

# row VERSION: "value change" of the last versions query's CSV output.
row() { awk -F, -v v="$1" 'NR > 1 && $6 == v { printf "%s %s", $8, ($9 == "" ? "-" : sprintf("%+.1f%%", $9)) }' "$T/out"; }

V=v2.18.0,v2.19.0-rc0,HEAD
run bd query versions --param plan=git-perf-p0001 --param "versions=$V" --format csv --no-record
expect_rc 0 "versions, min"
expect_eq "$(row v2.18.0)|$(row v2.19.0-rc0)|$(row HEAD)" "3.022 -|3.259 +7.8%|3.119 +3.2%" "git's min and changes"
run bd query versions --param plan=git-perf-p0001 --param "versions=$V" --param aggregate=trimmed --param k=1 \
    --format csv --no-record
expect_rc 0 "versions, trimmed"
expect_eq "$(row v2.18.0)|$(row v2.19.0-rc0)|$(row HEAD)" "3.126 -|3.30825 +5.8%|3.17025 +1.4%" \
    "Stolee's Avg* row and its changes"
# Without a list: the versions in the order the store first saw them (the
# archive's order), the same table.
run bd query versions --param plan=git-perf-p0001 --format csv --no-record
expect_eq "$(awk -F, 'NR > 1 { printf "%s ", $6 }' "$T/out")" "v2.18.0 v2.19.0-rc0 HEAD " "default order"
# The first version with a value is the base: HEAD first.
run bd query versions --param plan=git-perf-p0001 --param versions=HEAD,v2.18.0 --format csv --no-record
expect_eq "$(row HEAD)|$(row v2.18.0)" "3.119 -|3.022 -3.1%" "HEAD as the base"

bd ingest --quiet "$G/base.jsonl" "$G/tip.jsonl" || fail "ingest the synthetic results"
for order in base,tip tip,base; do
    run bd query versions --param plan=git-perf-synthetic --param by=run --param "versions=$order" \
        --param "metric=*" --format csv --no-record
    expect_rc 0 "versions $order"
    cp "$T/out" "$T/$order.csv"
done
run bd query versions --param plan=git-perf-synthetic --param by=run --param versions=base,tip \
    --param "metric=*" --param sort=regression --format csv --no-record
expect_rc 0 "versions, sort = regression"
cp "$T/out" "$T/regression.csv"

run python3 - "$BENCHDB_SRC/tests/cli/lib" "$G/aggregate_examples.txt" "$T" <<'PY'
import csv, re, sys
sys.path.insert(0, sys.argv.pop(1))
from checks import Checks
ck = Checks()
check = ck.check
text = open(sys.argv[1]).read().splitlines()
ours = {name: list(csv.DictReader(open("%s/%s.csv" % (sys.argv[2], name), newline="")))
        for name in ("base,tip", "tip,base", "regression")}
descr = {}
for line in text:
    m = re.match(r"^p(\d+)-[\w-]+\.(\d+)\.descr\t(.*)\|$", line)
    if m:
        descr["%s.%s" % (m.group(1), m.group(2))] = m.group(3)

def human(n):
    # aggregate.perl's human_size
    suffix = 0
    while n > 900 and suffix < 3:
        n /= 1000
        suffix += 1
    return "%d" % n if suffix == 0 else "%.1f%s" % (n, "KMG"[suffix - 1])

CELL = re.compile(r"(<missing>|[\d.]+\([\d.]+\+[\d.]+\)|[\d.]+[KMG]?)(?: (\+inf|=|[+-][\d.]+%))?")
i = 0
tables = 0
while i < len(text):
    m = re.match(r"^### perl \./aggregate\.perl (base tip|tip base)(?: --)? (p\d+)", text[i])
    if not m:
        i += 1
        continue
    cols = m.group(1).split()
    rows = {(r["test"], r["version"]): r for r in ours[",".join(cols)]}
    i += 3
    while i < len(text) and re.match(r"^\d{4}\.\d+: ", text[i]):
        test = text[i][:text[i].index(":")]
        rest = text[i][len(test) + 2:].strip()
        assert rest.startswith(descr[test]), rest
        cells = CELL.findall(rest[len(descr[test]):])
        check(len(cells) == 2, "%s: %d cells in %r" % (test, len(cells), text[i]))
        for version, (value, change) in zip(cols, cells):
            r = rows.get((test, version))
            where = "%s %s (%s)" % (test, version, " ".join(cols))
            check(r is not None, where + ": no row")
            if r is None:
                continue
            if value == "<missing>":
                check(r["n"] == "0" and r["value"] == "", where + ": <missing>, benchdb %s" % r["value"])
                continue
            got = "%.2f" % float(r["value"]) if "(" in value else human(float(r["value"]))
            want = value.split("(")[0]
            check(got == want, where + ": %s, benchdb %s" % (want, got))
            if change in ("=", "+inf"):
                check(r["note"] == change and r["change_percent"] == "", where + ": %s, benchdb %r %r" % (change, r["change_percent"], r["note"]))
            elif change:
                check(r["change_percent"] != "" and "%+.1f%%" % float(r["change_percent"]) == change,
                      where + ": %s, benchdb %r" % (change, r["change_percent"]))
            else:
                check(r["change_percent"] == "" and r["note"] == "", where + ": no change, benchdb %r %r" % (r["change_percent"], r["note"]))
        i += 1
    tables += 1
check(tables == 3, "three tables in aggregate_examples.txt, found %d" % tables)

# --sort-by=regression: its lines, largest change first, against the
# tests in the order of sort = regression and their steps.
k = text.index([l for l in text if l.startswith("### perl ./aggregate.perl --sort-by=regression")][0])
lines = []
for line in text[k + 1:]:
    if line.startswith("###"):
        break
    lines.append(line.split()[:2])
order = []
steps = {}
for r in ours["regression"]:
    if r["test"].startswith("0001") and r["test"] not in order:
        order.append(r["test"])
    if r["step_percent"]:
        steps[r["test"]] = "%+.1f%%" % float(r["step_percent"])
want = ["%s.%s" % (t[1:5], t.split(".")[1]) for _, t in lines]
check(order[:len(want)] == want, "regression order %s, benchdb %s" % (want, order))
for pct, t in lines:
    test = "%s.%s" % (t[1:5], t.split(".")[1])
    check(steps.get(test) == pct, "step of %s: %s, benchdb %s" % (test, pct, steps.get(test)))
ck.finish(least=30)
PY
expect_rc 0 "versions prints what aggregate.perl prints"
cat "$T/out"

finish
