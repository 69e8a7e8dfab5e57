// Drives Debian's Chromium headless (playwright-core, executablePath
// /usr/bin/chromium-headless-shell) over benchdb's report pages: tests/cli/report_browser.sh
// writes the pages and a manifest, this checks each one.
//
//   node check_pages.mjs MANIFEST.json SHOTS_DIR PROFILE_DIR
//
// SHOTS_DIR "" takes no screenshots (what the suite does unless
// BENCHDB_SHOTS=1: tests/cli/report_browser.sh).
//
// MANIFEST: [{name, file, db, evaluation, table, site, ov, shot}]. For each page:
//  - it loads with no console message (of any kind) or page error, and
//    requests nothing but itself (data: URIs inside it aside);
//  - an HTML page opens with its headline (h1.headline) in the first
//    screen (1280 x 900);
//  - a chart has exactly one mark per row of the evaluation it names
//    (data-evaluation), by count and by data-row, and each mark's data
//    attributes hold the values of its row (read back from the store with
//    `benchdb sql`); a table page has a table row per evaluation row; a
//    site's history page (no data-evaluation) one mark per row it says;
//  - no two text labels' bounding boxes overlap;
//  - the page fits 1280 px wide without horizontal scrolling, and no table
//    outside a <details> scrolls sideways either (the answer is visible);
//    with every <details> opened, each table's outcome column (th.o: a
//    decision's pass) is in view without scrolling sideways;
//  - ov: the page's own rows drawn on its chart (g.ov) include these
//    values, and a hit and a missed regression are drawn differently (by
//    shape and colour), on this page or across pages;
//  - site: every link of the page resolves to a file inside that directory
//    (an in-page anchor to an element of the page), and on a site's index
//    every table of histories lists the regressed ones first;
//  - a screenshot is written to SHOTS_DIR for a person to look at (unless
//    shot is false or SHOTS_DIR is ""): no check reads it.
// Prints a line per check and "N passed, M failed"; exits 1 on any failure,
// or when Chromium cannot start (with the reason).
import { execFileSync } from 'node:child_process';
import { readFileSync, mkdirSync, rmSync, existsSync, statSync, realpathSync } from 'node:fs';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { join, resolve, sep } from 'node:path';

let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch (e) {
  console.error(`FAIL: cannot load playwright-core (${e.message}); run scripts/install-deps, which installs it ` +
    'into tests/browser/node_modules with npm ci');
  process.exit(1);
}

const [manifestPath, shots, profile] = process.argv.slice(2);
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const bin = process.env.BENCHDB_BIN;
if (shots) mkdirSync(shots, { recursive: true });
rmSync(profile, { recursive: true, force: true });

let passed = 0, failed = 0, linksChecked = 0;
const ovSigs = new Map();
function check(ok, what, detail) {
  if (ok) { passed++; console.log(`ok: ${what}`); }
  else { failed++; console.log(`FAIL: ${what}${detail ? ': ' + detail : ''}`); }
}

const rowsCache = new Map();
function evaluationRows(db, id) {
  const key = `${db}#${id}`;
  if (!rowsCache.has(key)) {
    const out = execFileSync(bin, ['--db', db, 'sql', `SELECT rows FROM evaluation WHERE id = ${Number(id)}`,
      '--format', 'json'], { maxBuffer: 1 << 30, env: { ...process.env, BENCHDB: '' } });
    const res = JSON.parse(out);
    if (res.length !== 1) throw new Error(`evaluation ${id} not found in ${db}`);
    const rows = res[0].rows;
    rowsCache.set(key, typeof rows === "string" ? JSON.parse(rows) : rows);
  }
  return rowsCache.get(key);
}

// Whether a mark's attribute text is exactly the row's value: numbers as
// the shortest text that reads back to the same double, null as "null".
function same(attr, v) {
  if (attr === undefined || attr === null) return false;
  if (v === null) return attr === 'null';
  if (typeof v === 'number') return attr !== '' && Number(attr) === v;
  if (typeof v === 'boolean') return attr === (v ? 'true' : 'false');
  return attr === String(v);
}

// Chromium's headless shell (Debian's chromium-headless-shell: the same
// version's Blink, layout and JavaScript as /usr/bin/chromium, without the
// browser's user interface, which Playwright drives by default when
// headless): each page loads in about half the CPU time (docs/testing.md).
const browserPath = '/usr/bin/chromium-headless-shell';
// Without screenshots no frame is drawn: with --enable-begin-frame-control
// the compositor makes a frame only when the DevTools protocol asks for one
// (HeadlessExperimental.beginFrame), which nothing here does, so no page is
// painted, rastered or composited. Every check reads the DOM and its
// layout, which the page's script (page.evaluate) makes Blink compute on
// demand, frames or none: what it returns was the same byte for byte on
// all 303 pages with and without the switch (docs/testing.md, "Chromium
// draws no frames, Benchmark.js samples for 5 ms"). A screenshot needs a
// frame (Playwright's page.screenshot waits for one until its time-out
// under the switch), so with BENCHDB_SHOTS=1 the switch is left out.
const noFrames = shots ? [] : ['--enable-begin-frame-control'];
let context;
try {
  context = await chromium.launchPersistentContext(profile, {
    executablePath: browserPath,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', ...noFrames],
  });
} catch (e) {
  console.error(`FAIL: Chromium (${browserPath}) cannot start: ${e.message.split('\n').slice(0, 6).join(' | ')}`);
  process.exit(1);
}

try {
  const page = context.pages()[0] || await context.newPage();
  for (const p of manifest) {
    const url = pathToFileURL(p.file).href;
    const requests = [], errors = [];
    const onReq = r => { if (r.url() !== url && !r.url().startsWith('data:')) requests.push(r.url()); };
    const onCon = m => errors.push(`${m.type()}: ${m.text()}`);
    const onErr = e => errors.push(String(e));
    page.on('request', onReq);
    page.on('console', onCon);
    page.on('pageerror', onErr);
    await page.goto(url, { waitUntil: 'load' });
    page.off('request', onReq);
    page.off('console', onCon);
    page.off('pageerror', onErr);
    check(errors.length === 0, `${p.name}: no console message`, errors.slice(0, 3).join(' | '));
    check(requests.length === 0, `${p.name}: no network request`, requests.slice(0, 3).join(' | '));

    // What the page holds, as one JSON string: Playwright's own serializer
    // took about a second and a half for the 6,000 marks of a large chart,
    // JSON.stringify and JSON.parse a small part of that (the same values).
    const info = JSON.parse(await page.evaluate(() => {
      const root = document.querySelector('[data-marks]');
      const marks = [...document.querySelectorAll('.mark')].map(m => ({ ...m.dataset }));
      // Every text label drawn: its box, and its text for the message.
      const boxes = [...document.querySelectorAll('svg text')].map(t => {
        const r = t.getBoundingClientRect();
        return { x0: r.left, x1: r.right, y0: r.top + scrollY, y1: r.bottom + scrollY, t: t.textContent };
      }).filter(b => b.x1 > b.x0 && b.y1 > b.y0);
      const tables = [...document.querySelectorAll('main > h2 + div.tw table, details table')]
        .map(t => t.tBodies[0] ? t.tBodies[0].rows.length : 0);
      const h1 = document.querySelector('h1.headline');
      const hr = h1 ? h1.getBoundingClientRect() : null;
      // Tables outside a <details>: none may scroll sideways.
      const wide = [...document.querySelectorAll('div.tw')].filter(d => !d.closest('details'))
        .filter(d => d.scrollWidth > d.clientWidth + 1).map(d => `${d.scrollWidth} > ${d.clientWidth}`);
      const links = [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'));
      const ids = [...document.querySelectorAll('[id]')].map(e => e.id);
      const ov = [...document.querySelectorAll('g.ov')].map(g => {
        const shape = g.querySelector('circle, rect, path');
        return { cls: g.dataset.ov, sig: shape ? `${shape.tagName}/${shape.getAttribute('fill')}/${shape.getAttribute('stroke')}` : '' };
      });
      const legend = [...document.querySelectorAll('svg text')].map(t => t.textContent);
      // Rows of each table of histories: whether each is a regression.
      const order = [...document.querySelectorAll('table.h')].map(t =>
        [...t.tBodies[0].rows].map(r => r.querySelector('td.reg') !== null));
      // Each table's outcome column (th.o), every <details> opened: in
      // view without scrolling sideways (the verdict of each row).
      const shut = [...document.querySelectorAll('details:not([open])')];
      shut.forEach(d => { d.open = true; });
      const outcomes = [...document.querySelectorAll('th.o')].map(th => {
        const r = th.getBoundingClientRect(), box = th.closest('div.tw').getBoundingClientRect();
        return { ok: r.width > 0 && r.left >= box.left - 1 && r.right <= Math.min(box.right, innerWidth) + 1,
          what: `${th.textContent} of table.${th.closest('table').className} at ${Math.round(r.left)}-${Math.round(r.right)} px` };
      });
      shut.forEach(d => { d.open = false; });
      return JSON.stringify({
        root: root ? { ...root.dataset } : null, marks, boxes, tables, wide, links, ids, ov, legend, order, outcomes,
        answers: document.querySelectorAll('table.answer, table.all').length,
        headline: h1 ? { text: h1.textContent, top: hr.top, bottom: hr.bottom } : null,
        width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight,
        title: document.title,
      });
    }));

    if (p.file.endsWith('.html')) {
      check(info.headline !== null && info.headline.text.trim() !== '' && info.headline.top >= 0 &&
        info.headline.bottom <= 900, `${p.name}: the headline is in the first screen`,
        info.headline ? `'${info.headline.text.slice(0, 80)}' at ${info.headline.top}-${info.headline.bottom}` : 'none');
      check(info.wide.length === 0, `${p.name}: no table outside a <details> scrolls sideways`, info.wide.join(', '));
      const out = info.outcomes.filter(o => !o.ok).map(o => o.what);
      check(out.length === 0, `${p.name}: each table's outcome column is in view (details opened, 1280 px)`, out.join(', '));
    }
    if (p.ov) {
      const seen = new Map(info.ov.map(o => [o.cls, o.sig]));
      for (const c of p.ov) {
        check(seen.has(c), `${p.name}: draws its rows' '${c}' on the chart`, [...seen.keys()].join(', '));
        check(info.legend.includes(c), `${p.name}: the legend names '${c}'`);
        if (seen.has(c)) ovSigs.set(c, seen.get(c));
      }
    }
    if (p.site) {
      const root = realpathSync(p.site) + sep;
      const bad = [];
      for (const href of info.links) {
        if (href.startsWith('#')) {
          if (!info.ids.includes(href.slice(1))) bad.push(`${href}: no such anchor`);
          continue;
        }
        const u = new URL(href, url);
        if (u.protocol !== 'file:') { bad.push(`${href}: not a file`); continue; }
        const f = resolve(fileURLToPath(u));
        if (!(f + sep).startsWith(root) && !f.startsWith(root)) bad.push(`${href}: outside ${p.site}`);
        else if (!existsSync(f) || !statSync(f).isFile()) bad.push(`${href}: no such file`);
      }
      linksChecked += info.links.length;
      check(bad.length === 0, `${p.name}: its ${info.links.length} links resolve to files of the site`, bad.slice(0, 5).join('; '));
      if (p.index) {
        const late = info.order.filter(rows => rows.findIndex(r => !r) >= 0 &&
          rows.slice(rows.findIndex(r => !r)).some(r => r));
        check(info.order.length > 0 && late.length === 0,
          `${p.name}: every table of histories lists the regressed first (${info.order.length} tables)`);
      }
    }
    if (p.site && !info.root) {
      // a site's page without a chart: the index, a table view
    } else if (p.site && info.root.evaluation === undefined) {
      check(Number(info.root.marks) === info.marks.length && Number(info.root.rows) === info.marks.length,
        `${p.name}: one mark per row of the history (${info.root.rows})`, `${info.marks.length} marks`);
    } else if (p.table && evaluationRows(p.db, p.evaluation).length === 0) {
      check(info.root === null && info.answers === 0, `${p.name}: an empty result draws no chart and no table`);
    } else if (p.table) {
      const rows = evaluationRows(p.db, p.evaluation);
      check(info.root === null && info.marks.length === 0, `${p.name}: the table view draws no chart`);
      check(info.tables.includes(rows.length), `${p.name}: a table row per evaluation row (${rows.length})`,
        `tables of ${info.tables.join(', ')} rows`);
    } else {
      check(info.root !== null, `${p.name}: has a chart`);
      if (info.root) {
        const rows = evaluationRows(p.db, info.root.evaluation);
        const roles = JSON.parse(info.root.roles);
        check(Number(info.root.rows) === rows.length && Number(info.root.marks) === rows.length,
          `${p.name}: the chart says ${info.root.marks} marks for ${rows.length} rows`);
        check(info.marks.length === rows.length,
          `${p.name}: exactly one mark per row of evaluation ${info.root.evaluation} (${rows.length})`,
          `${info.marks.length} marks`);
        const seen = new Set();
        let bad = [];
        for (const m of info.marks) {
          const i = Number(m.row);
          if (!Number.isInteger(i) || i < 0 || i >= rows.length || seen.has(i)) { bad.push(`data-row ${m.row}`); continue; }
          seen.add(i);
          for (const [role, col] of Object.entries(roles)) {
            if (role === 'group') {
              const want = col.map(c => rows[i][c] === null ? 'null' : String(rows[i][c])).join(' \u00b7 ');
              if (m.group !== want && !col.every((c, k) => same(m.group.split(' \u00b7 ')[k], rows[i][c])))
                bad.push(`row ${i} group '${m.group}' != '${want}'`);
            } else if (role === 'class') {
              if (m.class !== String(rows[i][col]) && m.class !== 'other') bad.push(`row ${i} class '${m.class}'`);
            } else if (!same(m[role], rows[i][col])) {
              bad.push(`row ${i} ${role}=${m[role]} but ${col}=${JSON.stringify(rows[i][col])}`);
            }
          }
        }
        check(bad.length === 0 && seen.size === rows.length,
          `${p.name}: every mark's data attributes match its row (${Object.keys(roles).join(', ')})`,
          bad.slice(0, 5).join('; '));
      }
    }

    // Text labels: sort by top, compare each with those starting above its bottom.
    const b = info.boxes.sort((u, v) => u.y0 - v.y0);
    const overlaps = [];
    const eps = 0.5;
    for (let i = 0; i < b.length && overlaps.length < 5; i++)
      for (let j = i + 1; j < b.length && b[j].y0 < b[i].y1 - eps; j++)
        if (b[j].x0 < b[i].x1 - eps && b[i].x0 < b[j].x1 - eps)
          overlaps.push(`'${b[i].t}' and '${b[j].t}'`);
    check(overlaps.length === 0, `${p.name}: no two of its ${b.length} text labels overlap`, overlaps.join('; '));
    check(info.width <= 1280, `${p.name}: fits 1280 px wide (scroll width ${info.width})`);

    if (!shots || p.shot === false) continue;
    const shot = join(shots, `${p.name}.png`);
    // The page at its full height, up to 4000 px (a lone SVG document has no
    // "full page" for the screenshot to scroll through: the viewport grows).
    const full = info.height <= 4000;
    await page.setViewportSize({ width: 1280, height: Math.max(200, Math.min(info.height, 4000)) });
    await page.screenshot({ path: shot });
    await page.setViewportSize({ width: 1280, height: 900 });
    console.log(`screenshot: ${shot}${full ? '' : ' (the first 4000 px)'}`);
  }
} finally {
  await context.close();
}
if (ovSigs.has('hit') && ovSigs.has('missed'))
  check(ovSigs.get('hit') !== ovSigs.get('missed'), 'a missed regression is drawn differently from a hit',
    `${ovSigs.get('hit')} vs ${ovSigs.get('missed')}`);
if (manifest.some(p => p.ov && p.ov.includes('missed')))
  check(ovSigs.has('hit') && ovSigs.has('missed'), 'both a hit and a missed regression were drawn');
console.log(`${linksChecked} links checked`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
