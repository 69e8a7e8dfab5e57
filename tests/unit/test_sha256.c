/* util/sha256 against the FIPS 180-4 example vectors (NIST CSRC "Examples
 * with intermediate values", SHA-256), one-shot and fed in uneven pieces,
 * with the portable rounds and (where the processor has them) the SHA
 * extensions' rounds; and the two against each other on pseudo-random
 * inputs of every length up to 1,100 bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/sha256.h"

static void check(const char *msg, size_t len, const char *expected)
{
    char hex[65];
    sha256_hex_of(msg, len, hex);
    assert_string_equal(hex, expected);
    /* The same bytes fed 1, 2, 3, ... bytes at a time. */
    struct sha256 s;
    sha256_init(&s);
    size_t off = 0, step = 1;
    while (off < len) {
        size_t k = step < len - off ? step : len - off;
        sha256_update(&s, msg + off, k);
        off += k;
        step = step % 67 + 1;
    }
    unsigned char d[32];
    sha256_final(&s, d);
    sha256_hex(d, hex);
    assert_string_equal(hex, expected);
}

static void test_empty(void **state)
{
    (void)state;
    check("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

static void test_abc(void **state)
{
    (void)state;
    check("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

static void test_two_blocks(void **state)
{
    (void)state;
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"; /* 448 bits */
    check(m, strlen(m), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void test_896_bits(void **state)
{
    (void)state;
    const char *m = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    check(m, strlen(m), "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

static void test_million_a(void **state)
{
    (void)state;
    char *m = malloc(1000000);
    assert_non_null(m);
    memset(m, 'a', 1000000);
    check(m, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(m);
}

/* Padding edge cases: 55, 56 and 64 bytes (one more block or not). */
static void test_padding_edges(void **state)
{
    (void)state;
    char m[64];
    memset(m, 'a', sizeof m);
    check(m, 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    check(m, 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    check(m, 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

static void digest(const unsigned char *m, size_t n, size_t step, char hex[65])
{
    struct sha256 s;
    unsigned char d[32];
    sha256_init(&s);
    for (size_t off = 0; off < n; off += step)
        sha256_update(&s, m + off, step < n - off ? step : n - off);
    sha256_final(&s, d);
    sha256_hex(d, hex);
}

static void test_portable_equals_accelerated(void **state)
{
    (void)state;
    int had = sha256_use_accelerated(1);
    if (!sha256_accelerated()) {
        sha256_use_accelerated(had);
        skip(); /* no SHA extensions here: the vectors above covered the portable code */
    }
    unsigned char m[1100];
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < sizeof m; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        m[i] = (unsigned char)x;
    }
    for (size_t n = 0; n <= sizeof m; n++) {
        char a[65], b[65];
        sha256_use_accelerated(0);
        assert_int_equal(sha256_accelerated(), 0);
        digest(m, n, n % 7 == 0 ? 1000 : n % 97 + 1, a);
        sha256_use_accelerated(1);
        assert_int_equal(sha256_accelerated(), 1);
        digest(m, n, n % 5 == 0 ? 1000 : n % 61 + 1, b);
        assert_string_equal(a, b);
    }
    sha256_use_accelerated(had);
}

/* sha256_update2 = two sha256_update calls: states whose blocks line up
 * (the same length hashed before, modulo 64, as a tar's and a member's
 * hash in load/bundle.c) and states whose blocks do not, every data length
 * up to 1,100 bytes, with the rounds in use (portable and accelerated by
 * the groups below). */
static void test_update2(void **state)
{
    (void)state;
    unsigned char m[1100];
    uint64_t x = 0x243f6a8885a308d3u;
    for (size_t i = 0; i < sizeof m; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        m[i] = (unsigned char)x;
    }
    static const size_t before[][2] = {{0, 0}, {512, 0}, {3, 67}, {63, 127}, {5, 9}, {64, 1}};
    for (size_t c = 0; c < sizeof before / sizeof *before; c++)
        for (size_t n = 0; n <= sizeof m; n += n < 200 ? 1 : 37) {
            struct sha256 a, b, a1, b1;
            sha256_init(&a);
            sha256_init(&b);
            sha256_update(&a, m, before[c][0]);
            sha256_update(&b, m + 100, before[c][1]);
            a1 = a;
            b1 = b;
            sha256_update2(&a, &b, m + (n % 13), n - n % 13);
            sha256_update(&a, m, n % 5); /* and on after it */
            sha256_update(&a1, m + (n % 13), n - n % 13);
            sha256_update(&a1, m, n % 5);
            sha256_update(&b1, m + (n % 13), n - n % 13);
            unsigned char da[32], db[32], da1[32], db1[32];
            sha256_final(&a, da);
            sha256_final(&b, db);
            sha256_final(&a1, da1);
            sha256_final(&b1, db1);
            assert_memory_equal(da, da1, 32);
            assert_memory_equal(db, db1, 32);
        }
}

static int portable(void **state)
{
    (void)state;
    sha256_use_accelerated(0);
    return 0;
}

static int accelerated(void **state)
{
    (void)state;
    sha256_use_accelerated(1);
    return 0;
}

#define VECTORS                                                                                                \
    cmocka_unit_test(test_empty), cmocka_unit_test(test_abc), cmocka_unit_test(test_two_blocks),               \
        cmocka_unit_test(test_896_bits), cmocka_unit_test(test_million_a), cmocka_unit_test(test_padding_edges), \
        cmocka_unit_test(test_update2)

int main(void)
{
    const struct CMUnitTest tests[] = {VECTORS};
    const struct CMUnitTest both[] = {cmocka_unit_test(test_portable_equals_accelerated)};
    int failed = cmocka_run_group_tests_name("portable rounds", tests, portable, NULL);
    failed += cmocka_run_group_tests_name("SHA extensions where present", tests, accelerated, NULL);
    failed += cmocka_run_group_tests_name("portable = SHA extensions", both, NULL, NULL);
    return failed;
}
