/* The names of PostgreSQL stores and their masks (src/store/store_name.c),
 * and PostgreSQL's tokens as the connection layer reads them
 * (src/store/pg_lex.c): where a statement ends and what is code. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "store/db.h"
#include "store/pg_lex.h"

static void masked(const char *name, const char *want)
{
    char *m = store_name_masked(name);
    assert_non_null(m);
    assert_string_equal(m, want);
    free(m);
}

static void test_server_names(void **state)
{
    (void)state;
    assert_true(db_is_server_name("postgresql://h/db"));
    assert_true(db_is_server_name("postgres://h/db"));
    assert_true(db_is_server_name("POSTGRESQL://h/db"));
    assert_true(db_is_server_name("PostGres://h/db"));
    assert_true(db_is_server_name("host=h dbname=db"));
    assert_true(db_is_server_name("  dbname = db"));
    assert_true(db_is_server_name("password=x"));
    assert_false(db_is_server_name("results.db"));
    assert_false(db_is_server_name("./host=h"));
    assert_false(db_is_server_name("hostname=h"));
    assert_false(db_is_server_name("postgresql:/h"));
    char *c = store_name_conninfo("POSTGRESQL://U:P@H/DB");
    assert_string_equal(c, "postgresql://U:P@H/DB");
    free(c);
}

static void test_masks(void **state)
{
    (void)state;
    masked("postgresql://u@h/db", "postgresql://u@h/db");
    masked("postgresql://u:pw@h:5432/db", "postgresql://u:***@h:5432/db");
    masked("postgresql://u:p@ss@h/db", "postgresql://u:***@h/db");
    masked("postgresql://u:p/s?s@h/db", "postgresql://u:***@h/db");
    masked("POSTGRES://u:pw@h/db", "POSTGRES://u:***@h/db");
    masked("postgresql://h/db?password=pw", "postgresql://h/db?password=***");
    masked("postgresql://h/db?sslmode=require&password=pw&x=1", "postgresql://h/db?sslmode=require&password=***&x=1");
    masked("postgresql://h/db?pass%77ord=pw", "postgresql://h/db?pass%77ord=***");
    masked("postgresql://h/db?sslpassword=pw", "postgresql://h/db?sslpassword=***");
    masked("postgresql://u:a@h/db?password=b", "postgresql://u:***@h/db?password=***");
    masked("host=h password=pw dbname=db", "host=h password=*** dbname=db");
    masked("host=h password='p w\\'x' dbname=db", "host=h password=*** dbname=db");
    masked("host=h password = pw", "host=h password = ***");
    masked("host=h password='open", "host=h password=***");
    masked("results.db", "results.db");
    /* a server's name mistyped, masked as the one it was meant as */
    masked("postgresql:/u:pw@h/db", "postgresql:/u:***@h/db");
    masked("postgresql//u:pw@h/db", "postgresql//u:***@h/db");
    masked("postgresq://u:pw@h/db?password=x", "postgresq://u:***@h/db?password=***");
    masked("hots=h password=pw dbname=db", "hots=h password=*** dbname=db");
}

/* Names meant as a server's that libpq would not read: refused, where
 * SQLite took them for files and "no store here" printed them whole. */
static void test_mistaken(void **state)
{
    (void)state;
    static const char *const refused[] = {"postgresql:/u:pw@h/db", "postgresql:u@h/db", "POSTGRES:/h/db",
                                          "postgresql//u:pw@h/db", "postgresq://h/db", "mysql://h/db",
                                          "hots=h dbname=db", "dbnme=db  password=x"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char *why = store_name_mistaken(refused[i]);
        assert_non_null(why);
        free(why);
    }
    char *why = store_name_mistaken("dbnme=db password=x");
    assert_string_equal(why, "'dbnme' is not one of libpq's connection keywords (did you mean 'dbname'?), so this "
                             "is no server's name, nor a store file's (a file so named is named ./NAME)");
    free(why);
    static const char *const files[] = {"results.db",     "postgresql/x.db", "./postgresql:/x.db", "x=1.db",
                                        "./host=h dbname=db", "postgresql://h/db", "host=h dbname=db",
                                        "postgresqlx:/y"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        assert_null(store_name_mistaken(files[i]));
}

static void test_scrub(void **state)
{
    (void)state;
    const char *name = "postgresql://u:p@ss@h/db";
    char *m = store_name_scrub(name, "could not translate host name \"ss@h\" to address");
    assert_null(strstr(m, "ss@h"));
    assert_non_null(strstr(m, "not shown"));
    free(m);
    m = store_name_scrub("postgresql://u:ab/cd@h/db", "invalid integer value \"ab\" for connection option \"port\"");
    assert_non_null(strstr(m, "not shown"));
    free(m);
    m = store_name_scrub("postgresql://u:secret@h/db", "bad URI \"postgresql://u:secret@h/db\"");
    assert_string_equal(m, "bad URI \"postgresql://u:***@h/db\"");
    free(m);
    m = store_name_scrub("postgresql://u:secret@h/db", "connection refused");
    assert_string_equal(m, "connection refused");
    free(m);
}

/* The kinds of the tokens of sql, one letter each (pg_lex.h order). */
static void tokens(const char *sql, const char *want)
{
    char got[64];
    size_t n = 0;
    for (struct pg_token t; (t = pg_lex(sql)).kind != PG_TOK_END && n < sizeof got - 1; sql += t.len)
        got[n++] = " _cs\"uwx;o"[t.kind];
    got[n] = '\0';
    assert_string_equal(got, want);
}

static void test_lex(void **state)
{
    (void)state;
    tokens("SELECT 1;", "w_o;");
    tokens("/* a /* b */ c */x", "cw");
    tokens("-- a ; b\nx", "c_w");
    tokens("'a;''b' x", "s_w");
    tokens("E'a\\';b' x", "s_w");
    tokens("e'\\\\' x", "s_w");
    tokens("N'a' B'1' X'f' U&'x'", "s_s_s_s");
    tokens("U&\"a\" \"b\"\"c\"", "u_\"");
    tokens("$$a;b$$ $t$a$$b$t$ $1", "s_s_oo");
    tokens("a$1::int", "wxw");
    tokens("WHERE'x'", "ws");
    tokens("'open", "s");
    const char *at = "/* COMMIT */ select -- x\n1; commit", *w;
    size_t n;
    assert_non_null(w = pg_lex_next_word(&at, &n, 1));
    assert_true(pg_lex_word_is(w, n, "SELECT"));
    assert_null(pg_lex_next_word(&at, &n, 1));
    assert_int_equal(*at, ';');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_server_names),
        cmocka_unit_test(test_masks),
        cmocka_unit_test(test_mistaken),
        cmocka_unit_test(test_scrub),
        cmocka_unit_test(test_lex),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
