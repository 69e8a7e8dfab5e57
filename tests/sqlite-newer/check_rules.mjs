// The shipped rules in another SQLite: better-sqlite3's (newer than
// Debian's 3.40), with build/benchstats loaded, against benchdb's own
// results, every value compared, numbers by their IEEE-754 bits.
//
//   node check_rules.mjs BENCHDB STORE EXTENSION QUERIES_DIR CASES.json
//
// CASES.json: [{"query": NAME, "params": {NAME: VALUE, ...}}, ...]. Per
// case: benchdb runs the saved query (`query NAME --no-record --format
// json`, numbers in shortest round-trip form, so JSON.parse gives the very
// doubles); here the text of QUERIES_DIR/NAME.sql runs on STORE, opened
// read-only, with every declared parameter bound as benchdb binds it (its
// type from `benchdb queries NAME`: integer as a 64-bit integer, real as a
// double, the rest as text; a default `null` as NULL). Prints one line per
// case; exits 1 when any value differs.
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const [bd, store, ext, dir, casesFile] = process.argv.slice(2);
const cases = JSON.parse(readFileSync(casesFile, 'utf8'));
const db = new Database(store, { readonly: true, fileMustExist: true });
db.loadExtension(ext);
const version = db.prepare('SELECT sqlite_version() AS v').get().v;

function bits(x) {
  const b = new BigUint64Array(new Float64Array([x]).buffer);
  return b[0].toString(16).padStart(16, '0');
}

// expected (from benchdb's JSON) against actual (from better-sqlite3):
// a description of the first difference, or null.
let numbers = 0;
function differ(expected, actual, where) {
  if (expected === null || actual === null)
    return expected === actual ? null : `${where}: ${JSON.stringify(expected)} here ${JSON.stringify(actual)}`;
  if (typeof expected === 'number') {
    if (typeof actual === 'bigint') actual = Number(actual);
    if (typeof actual !== 'number') return `${where}: a number, here ${JSON.stringify(actual)}`;
    numbers++;
    return bits(expected) === bits(actual) ? null
      : `${where}: ${expected} (0x${bits(expected)}) here ${actual} (0x${bits(actual)})`;
  }
  if (typeof expected === 'string') return expected === actual ? null : `${where}: '${expected}' here '${actual}'`;
  // benchdb writes text holding a JSON object or array as nested JSON.
  if (typeof actual === 'string') {
    try { actual = JSON.parse(actual); } catch { return `${where}: JSON, here '${actual}'`; }
  }
  if (Array.isArray(expected) !== Array.isArray(actual) || typeof actual !== 'object')
    return `${where}: ${JSON.stringify(expected)} here ${JSON.stringify(actual)}`;
  const ka = Object.keys(expected), kb = Object.keys(actual);
  if (ka.join('\u0001') !== kb.join('\u0001')) return `${where}: keys ${ka} here ${kb}`;
  for (const k of ka) {
    const d = differ(expected[k], actual[k], `${where}.${k}`);
    if (d) return d;
  }
  return null;
}

function bindings(name, given) {
  const decl = JSON.parse(execFileSync(bd, ['queries', name, '--format', 'json'], { encoding: 'utf8' }));
  const out = {};
  for (const p of decl) {
    let v = p.parameter in given ? String(given[p.parameter]) : p.default;
    if (v === '(required)') throw new Error(`case ${name}: required parameter ${p.parameter} not given`);
    if (!(p.parameter in given) && v === 'null') { out[p.parameter] = null; continue; }
    if (p.type.startsWith('integer')) out[p.parameter] = BigInt(v);
    else if (p.type.startsWith('real')) out[p.parameter] = Number(v);
    else if (p.type === 'boolean') out[p.parameter] = /^(true|yes|on|1)$/i.test(v) ? 1n : 0n;
    else out[p.parameter] = v;
  }
  return out;
}

let failed = 0, rowsSeen = 0;
for (const c of cases) {
  const args = ['--db', store, 'query', c.query, '--no-record', '--format', 'json'];
  for (const [k, v] of Object.entries(c.params)) args.push('--param', `${k}=${v}`);
  const label = `${c.query} ${JSON.stringify(c.params)}`;
  let expected, actual;
  try {
    expected = JSON.parse(execFileSync(bd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    const text = readFileSync(`${dir}/${c.query}.sql`, 'utf8');
    actual = db.prepare(text).all(bindings(c.query, c.params));
  } catch (e) {
    console.log(`FAIL ${label}: ${e.message.split('\n')[0]}`);
    failed++;
    continue;
  }
  let d = expected.length === actual.length ? null : `${expected.length} rows, here ${actual.length}`;
  if (expected.length === 0) d = 'no rows to compare';
  for (let i = 0; !d && i < expected.length; i++) d = differ(expected[i], actual[i], `row ${i + 1}`);
  rowsSeen += expected.length;
  if (d) {
    console.log(`FAIL ${label}: ${d}`);
    failed++;
  } else {
    console.log(`ok ${label}: ${expected.length} rows`);
  }
}
console.log(`SQLite ${version}: ${cases.length} cases, ${rowsSeen} rows, ${numbers} numbers compared bit for bit, ` +
            `${failed} failed`);
process.exit(failed ? 1 : 0);
