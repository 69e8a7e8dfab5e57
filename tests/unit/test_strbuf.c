/* The string buffer's sticky error (util/strbuf.h, docs/architecture.md
 * "Memory"): once an append fails, every later one fails and leaves the
 * text as it was, sb_detach gives NULL, and only sb_reset or sb_free clear
 * it. A request larger than any allocation can be is the failure used
 * here: it takes the same path as a failed realloc, without touching the
 * allocator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/strbuf.h"

static const char huge_source[1];

static void fail_once(struct strbuf *sb)
{
    assert_int_equal(sb_append(sb, huge_source, SIZE_MAX / 2), -1);
    assert_int_equal(sb_failed(sb), 1);
}

static void test_sticky(void **state)
{
    (void)state;
    struct strbuf sb = {0};
    assert_int_equal(sb_puts(&sb, "SELECT a"), 0);
    assert_int_equal(sb_failed(&sb), 0);
    fail_once(&sb);
    /* every later append fails, whatever its size, and changes nothing */
    assert_int_equal(sb_puts(&sb, " WHERE b = 1"), -1);
    assert_int_equal(sb_putc(&sb, ';'), -1);
    assert_int_equal(sb_printf(&sb, " LIMIT %d", 3), -1);
    assert_int_equal(sb_json_string(&sb, "x", 1), -1);
    assert_int_equal(sb_grow(&sb, 1), -1);
    assert_string_equal(sb.buf, "SELECT a");
    assert_int_equal(sb.len, 8);
    assert_int_equal(sb_failed(&sb), 1);
    /* the partial text is never handed out */
    assert_null(sb_detach(&sb));
    assert_null(sb.buf);
    assert_int_equal(sb_failed(&sb), 0);
    /* an emptied buffer works again */
    assert_int_equal(sb_puts(&sb, "ok"), 0);
    char *t = sb_detach(&sb);
    assert_string_equal(t, "ok");
    free(t);
}

static void test_reset_and_free_clear(void **state)
{
    (void)state;
    struct strbuf sb = {0};
    fail_once(&sb);
    sb_reset(&sb);
    assert_int_equal(sb_failed(&sb), 0);
    assert_int_equal(sb_printf(&sb, "%d-%s", 7, "x"), 0);
    assert_string_equal(sb.buf, "7-x");
    fail_once(&sb);
    sb_free(&sb);
    assert_int_equal(sb_failed(&sb), 0);
    assert_int_equal(sb_putc(&sb, 'y'), 0);
    assert_string_equal(sb.buf, "y");
    sb_free(&sb);
}

static void test_detach_empty(void **state)
{
    (void)state;
    struct strbuf sb = {0};
    char *t = sb_detach(&sb);
    assert_non_null(t);
    assert_string_equal(t, "");
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sticky),
        cmocka_unit_test(test_reset_and_free_clear),
        cmocka_unit_test(test_detach_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
