# benchdb site on a store of 1,000 histories (10 hosts x 100 cells, 40
# nightly runs each, 10 injected steps): every link of every page resolves
# to a file of the site, the index lists the regressed histories first
# (each open regression's page exists and says it regressed), the index
# names as many histories as the store holds, and a second run writes
# nothing. (Its speed at 365 runs: make bench, figure 14.)
# ctest: slow
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

# Under the sanitizers 100 histories (4 hosts x 25 cells) and the same
# checks: the same code writes each page (and cli/site, cli/report_pages
# run it sanitized too) without an ingest of 400 runs under ASan (4.6 s of
# CPU); the plain pass checks the 1,000.
hosts=10 cells=100
[ "${BENCHDB_SANITIZED:-0}" = 1 ] && hosts=4 cells=25
histories=$((hosts * cells))
bd init >/dev/null
bd simulate -q --history 40 --hosts $hosts --cells $cells --steps 10 --seed 8 --plan nightly n || fail "simulate"
bd ingest -q n || fail "ingest $((hosts * 40)) runs"
run bd site -q www
expect_rc 0 "benchdb site"
expect_eq "$(ls www/h | wc -l)" "$histories" "a page per history"
python3 - www "$histories" <<'PY' || fail "links, order"
import os, re, sys
root = os.path.realpath(sys.argv[1])
histories = int(sys.argv[2])
pages = [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".html")]
links = 0
for p in pages:
    text = open(p).read()
    for href in re.findall(r'href="([^"]*)"', text):
        if href.startswith("#"):
            assert 'id="%s"' % href[1:] in text, (p, href)
            continue
        f = os.path.realpath(os.path.join(os.path.dirname(p), href.split("#")[0]))
        assert f.startswith(root + os.sep) and os.path.isfile(f), (p, href)
        links += 1
index = open(os.path.join(root, "index.html")).read()
tables = re.findall(r'<table class="h">.*?</table>', index, re.S)
every = tables[-1]  # the one plan's table of every history
rows = re.findall(r"<tr>.*?</tr>", every, re.S)[1:]
assert len(rows) == histories, len(rows)
kinds = ['class="n reg"' in r for r in rows]
n = sum(kinds)
assert n > 0 and kinds == [True] * n + [False] * (histories - n), "the regressed histories first"
for r in rows[:n]:
    page = os.path.join(root, re.search(r'href="([^"]*)"', r).group(1))
    assert ": regressed by +" in open(page).read(), page
h1 = re.search(r'<h1 class="headline">(.*?)</h1>', index).group(1)
assert h1.startswith("%d of %d histories regressed and not recovered" % (n, histories)), h1
print(len(pages), "pages,", links, "links,", n, "open regressions first")
PY
run bd site www
expect_err_has "site: wrote www: $((histories + 1)) pages ($histories histories, 0 evaluations, the index): 0 written, $((histories + 1)) unchanged, 0 removed" \
    "a second run writes nothing"
finish
