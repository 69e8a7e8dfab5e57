/* Pieces of the harness-format and container ingest that are easier to
 * test alone: member paths of results records (never leaving the
 * container) and recognising a container by its first bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "ingest/formats.h"
#include "ingest/loader.h"

static void join(const char *dir, const char *path, const char *want)
{
    struct strbuf sb = {0};
    int rc = ingest_join_path(dir, path, &sb);
    if (!want) {
        if (rc == 0)
            fail_msg("'%s' + '%s': expected a refusal, got '%s'", dir ? dir : "(null)", path, sb.buf);
    } else {
        if (rc != 0)
            fail_msg("'%s' + '%s': refused, expected '%s'", dir ? dir : "(null)", path, want);
        assert_string_equal(sb.buf, want);
    }
    sb_free(&sb);
}

static void test_join_path(void **state)
{
    (void)state;
    join(NULL, "a.json", "a.json");
    join("", "jmh/a.json", "jmh/a.json");
    join("run", "jmh/a.json", "run/jmh/a.json");
    join("run", "./jmh//a.json", "run/jmh/a.json");
    join("run", "../jmh/a.json", "jmh/a.json");
    join("run/x", "../../a.json", "a.json");
    join("run", "jmh/../../a.json", "a.json");
    join("run", "../../a.json", NULL);   /* above the top */
    join(NULL, "../a.json", NULL);
    join("run", "/etc/passwd", NULL);    /* absolute */
    join(NULL, ".", NULL);               /* names no file */
    join("run", "..", NULL);
}

static int sniff_bytes(const void *p, size_t n)
{
    char path[] = "/tmp/benchdb-sniff-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, p, n), (ssize_t)n);
    int r = container_sniff(fd);
    close(fd);
    unlink(path);
    return r;
}

static void test_sniff(void **state)
{
    (void)state;
    unsigned char tar[1024] = "run.jsonl";
    memcpy(tar + 257, "ustar", 5);
    assert_int_equal(sniff_bytes(tar, sizeof tar), 1);
    assert_int_equal(sniff_bytes("PK\x03\x04rest", 8), 1);
    assert_int_equal(sniff_bytes("\x1f\x8b\x08\x00\x00\x00", 6), 1);
    assert_int_equal(sniff_bytes("\xfd" "7zXZ\0\0", 7), 1);
    assert_int_equal(sniff_bytes("{\"record\":\"run\"}\n", 17), 0);
    /* zstd: a tar only when what it holds starts with a tar header */
    unsigned char z[2048];
    size_t zn = ZSTD_compress(z, sizeof z, tar, sizeof tar, 1);
    assert_false(ZSTD_isError(zn));
    assert_int_equal(sniff_bytes(z, zn), 1);
    static const char jsonl[] = "{\"record\":\"run\",\"format\":\"benchdb-run/1\"}\n";
    zn = ZSTD_compress(z, sizeof z, jsonl, sizeof jsonl - 1, 1);
    assert_int_equal(sniff_bytes(z, zn), 0);
}

static void test_adapters(void **state)
{
    (void)state;
    assert_non_null(fmt_find("jmh"));
    assert_non_null(fmt_find("google-benchmark"));
    assert_non_null(fmt_find("hyperfine"));
    assert_non_null(fmt_find("pyperf"));
    assert_non_null(fmt_find("go-bench"));
    assert_null(fmt_find("gbench"));
    assert_non_null(fmt_find("go-bench")->text);
    assert_null(fmt_find("jmh")->text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_join_path),
        cmocka_unit_test(test_sniff),
        cmocka_unit_test(test_adapters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
