-- benchdb schema, version 2: verdict history and pre-registered rules.

-- A decision rule fixed before the data it judges: its text and SHA-256,
-- when it was registered here and, if given, when and where it was
-- published (e.g. a pull request).
CREATE TABLE rule (
  id            INTEGER PRIMARY KEY,
  name          TEXT NOT NULL,
  sha256        TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64),
  text          TEXT NOT NULL,
  registered_at TEXT NOT NULL,
  published_at  TEXT,
  ref           TEXT
);

-- Every evaluation of a saved query: what ran (name, text, hash), with which
-- parameters, on which data (a fingerprint over the archives' SHA-256s), what
-- it returned, when, how long it took, and whether the rule was fixed before
-- the plan it judged.
CREATE TABLE evaluation (
  id               INTEGER PRIMARY KEY,
  query_name       TEXT NOT NULL,
  query_sha256     TEXT NOT NULL CHECK (length(query_sha256) = 64),
  query_text       TEXT NOT NULL,
  params           TEXT NOT NULL CHECK (json_valid(params)),
  rows             TEXT NOT NULL CHECK (json_valid(rows)),
  row_count        INTEGER NOT NULL CHECK (row_count >= 0),
  outcome          TEXT NOT NULL,
  evaluated_at     TEXT NOT NULL,
  duration_ms      REAL NOT NULL CHECK (duration_ms >= 0),
  tool_version     TEXT NOT NULL,
  data_fingerprint TEXT NOT NULL CHECK (length(data_fingerprint) = 64),
  archive_count    INTEGER NOT NULL CHECK (archive_count >= 0),
  judged_plan      TEXT,
  registration     TEXT,
  rule_id          INTEGER REFERENCES rule(id)
);
CREATE INDEX evaluation_query ON evaluation(query_name, id);
