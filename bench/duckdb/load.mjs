// node load.mjs DIR DBFILE (make bench, figure 1): every measured and
// warmup value of the benchdb-run/1 archives DIR/*.jsonl (decompressed
// beforehand, as for the Python loader) into one DuckDB table, each with
// its archive, benchmark, parameters, block, variant, fork, unit, kind and
// position: read_json, then unnest of the value arrays, as a user of DuckDB
// would load them. Prints the rows stored. Validates nothing but what
// read_json's column types do; keeps no archive bytes, names or derived
// rows: a floor for benchdb's rate, not the same work.
import { DuckDBInstance } from '@duckdb/node-api';

const [dir, dbfile] = process.argv.slice(2);
const instance = await DuckDBInstance.create(dbfile);
const c = await instance.connect();
const src = `read_json('${dir.replaceAll("'", "''")}/*.jsonl', format = 'newline_delimited', filename = true,
  columns = {record: 'VARCHAR', benchmark: 'VARCHAR', params: 'JSON', block: 'INTEGER', variant: 'VARCHAR',
             fork: 'INTEGER', unit: 'VARCHAR', warmup: 'DOUBLE[]', "values": 'DOUBLE[]'})`;
await c.run(`CREATE TABLE sample (archive VARCHAR, benchmark VARCHAR, params VARCHAR, block INTEGER,
  variant VARCHAR, fork INTEGER, unit VARCHAR, warmup BOOLEAN, iteration BIGINT, value DOUBLE)`);
await c.run(`INSERT INTO sample
  SELECT filename, benchmark, CAST(params AS VARCHAR), block, variant, fork, unit, false,
         generate_subscripts("values", 1), unnest("values") FROM ${src} WHERE record = 'samples'
  UNION ALL
  SELECT filename, benchmark, CAST(params AS VARCHAR), block, variant, fork, unit, true,
         generate_subscripts(warmup, 1), unnest(warmup) FROM ${src} WHERE record = 'samples'`);
const rows = await c.runAndReadAll('SELECT count(*) FROM sample');
console.log(String(rows.getRows()[0][0]));
c.closeSync();
instance.closeSync();
