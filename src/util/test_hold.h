/* For tests only: a command held at one point until a test lets it go, so
 * that the test can interrupt it, cut its connection or take a lock there
 * without racing it. */
#ifndef BENCHDB_UTIL_TEST_HOLD_H
#define BENCHDB_UTIL_TEST_HOLD_H

/* With $ENV set to a path: creates that file, then waits until it is
 * removed (at most 120 s). Nothing when $ENV is unset or empty. Its
 * callers: ingest inside each archive's transaction
 * ($BENCHDB_TEST_INGEST_HOLD; tests/cli/ingest_wait.sh), copy after its
 * first table's rows ($BENCHDB_TEST_COPY_HOLD; tests/cli/copy_interrupt.sh,
 * tests/pg/test_copy_lost.sh), backup before its pages are copied
 * ($BENCHDB_TEST_BACKUP_HOLD; tests/cli/copy_interrupt.sh). */
void test_hold(const char *env);

#endif
