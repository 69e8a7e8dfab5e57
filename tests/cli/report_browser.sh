# benchdb report's pages in a real browser: every page cli/report_pages
# wrote (ctest fixture report-pages: it runs first), with its manifest in
# $BENCHDB_BUILD/report-pages/, checked by tests/browser/check_pages.mjs in
# headless Chromium (Debian's, driven by playwright-core from npm; both
# installed by scripts/install-deps): layout, overlaps, links, the
# answer's rows against the evaluation's. Fails, never skips, when node,
# playwright-core or Chromium is missing or cannot start. Screenshots,
# for a person to look at (no check reads them), with BENCHDB_SHOTS=1
# (`BENCHDB_SHOTS=1 ctest -R cli/report_browser`): in
# $BENCHDB_BUILD/report-shots/. In the plain pass only: the sanitized
# benchdb writes the same pages in cli/report_pages, and Chromium is not
# what the sanitizers instrument.
# ctest: browser plain-only cost=40
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/cli/lib/npm_wait.sh"
npm_wait

command -v node >/dev/null || { echo "FAIL: node is not installed (scripts/install-deps installs nodejs)" >&2; exit 1; }
[ -x /usr/bin/chromium-headless-shell ] ||
    { echo "FAIL: /usr/bin/chromium-headless-shell is missing (scripts/install-deps installs chromium-headless-shell)" >&2; exit 1; }
[ -d "$BENCHDB_SRC/tests/browser/node_modules/playwright-core" ] ||
    { echo "FAIL: tests/browser/node_modules/playwright-core is missing (scripts/install-deps runs npm ci there)" >&2; exit 1; }
pages="$BENCHDB_BUILD/report-pages/pages.json"
[ -f "$pages" ] || fail "no pages in $BENCHDB_BUILD/report-pages (cli/report_pages writes them: ctest runs it first)"
[ "$(grep -c '"name"' "$pages")" -ge 40 ] || fail "the manifest names every page ($(grep -c '"name"' "$pages"))"

cd "$BENCHDB_SRC/tests/browser" || exit 1
# No screenshots unless asked for: none is checked, and rendering and
# encoding them (about 150 megapixels) was a fifth of the test's CPU.
# Old ones are removed, so that what is there is this run's.
shots=""
rm -rf "$BENCHDB_BUILD/report-shots"
[ "${BENCHDB_SHOTS:-0}" = 1 ] && shots="$BENCHDB_BUILD/report-shots"
node check_pages.mjs "$pages" "$shots" "$BENCHDB_BUILD/report-chromium-profile"
rc=$?
cd "$T" || exit 1
expect_rc 0 "every page passes in Chromium"
finish
