/* Hash flooding (docs/reliability.md, "Hash flooding"): the id map's hash
 * is SipHash-2-4 under a key chosen per process, so keys an archive
 * chooses cannot be made to share slots. The test crafts keys that all
 * share their slot under the hash the map used before (FNV-1a with a
 * fixed mix: tar member paths and, on the PostgreSQL path, series keys
 * with crafted block numbers), shows that they make that hash's probing
 * quadratic, and counts the map's own probes for the same keys: linear.
 * Counted, not timed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ingest/core/idmap.h"

/* The hash before: FNV-1a, then a fixed mix; no secret. In three parts,
 * so that the search for keys below can hash a fixed prefix once. */
#define FNV_START 1469598103934665603ULL
static uint64_t fnv_more(uint64_t h, const void *key, size_t len)
{
    const unsigned char *p = key;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static uint64_t fnv_mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h ? h : 1;
}

static uint64_t old_hash(const void *key, size_t len) { return fnv_mix(fnv_more(FNV_START, key, len)); }

/* N keys, each KEY_MAX bytes apart in keys[], lengths in lens[]. */
#define N 3000
#define KEY_MAX 48
#define SLOT_BITS 12 /* N keys fit a table of 4096 slots (3/4 full at most) */

/* Member-path-like keys ("runs/m<counter>.json") whose old hash has its
 * low SLOT_BITS bits 0: under the old hash they all start probing at
 * slot 0 of any table of up to 4096 slots. */
static void craft_paths(char *keys, size_t *lens)
{
    /* "runs/m" hashed once; the counter c kept as decimal digits and
     * counted up in place (c from 0, as "%llu" writes it): the same keys
     * as snprintf'ing each candidate, without 12 million snprintf calls. */
    static const char prefix[] = "runs/m", suffix[] = ".json";
    uint64_t h0 = fnv_more(FNV_START, prefix, sizeof prefix - 1);
    char digits[24] = "0";
    size_t nd = 1;
    for (int i = 0; i < N;) {
        uint64_t h = fnv_mix(fnv_more(fnv_more(h0, digits, nd), suffix, sizeof suffix - 1));
        if ((h & ((1u << SLOT_BITS) - 1)) == 0) {
            char *k = keys + (size_t)i * KEY_MAX;
            int n = snprintf(k, KEY_MAX, "%s%.*s%s", prefix, (int)nd, digits, suffix);
            assert_int_equal(old_hash(k, (size_t)n), h);
            lens[i++] = (size_t)n;
        }
        size_t d = nd;
        while (d > 0 && digits[d - 1] == '9')
            digits[--d] = '0';
        if (d == 0) {
            memmove(digits + 1, digits, nd++);
            digits[0] = '1';
        } else {
            digits[d - 1]++;
        }
    }
}

/* Series keys as the PostgreSQL path makes them (run, benchmark, block,
 * variant, fork: five 64-bit integers) with crafted block numbers; the
 * first two integers hashed once. */
static void craft_blocks(char *keys, size_t *lens)
{
    int64_t head[2] = {1, 1};
    uint64_t h0 = fnv_more(FNV_START, head, sizeof head);
    for (int64_t block = 1, i = 0; i < N; block++) {
        int64_t k[5] = {1, 1, block, 1, 0};
        if ((fnv_mix(fnv_more(h0, k + 2, sizeof k - sizeof head)) & ((1u << SLOT_BITS) - 1)) == 0) {
            memcpy(keys + (size_t)i * KEY_MAX, k, sizeof k);
            lens[i++] = sizeof k;
        }
    }
}

/* Probes of a linear-probing table of 4096 slots under the old hash for
 * the keys inserted in turn (as idmap did): each key looks at every slot
 * that the keys before it took. */
static uint64_t old_probes(const size_t *lens, const char *keys)
{
    static uint64_t slot[1u << SLOT_BITS];
    memset(slot, 0, sizeof slot);
    uint64_t probes = 0, mask = (1u << SLOT_BITS) - 1;
    for (int i = 0; i < N; i++) {
        uint64_t h = old_hash(keys + (size_t)i * KEY_MAX, lens[i]);
        uint64_t j = h & mask;
        for (;; j = (j + 1) & mask) {
            probes++;
            if (slot[j] == 0)
                break;
        }
        slot[j] = h;
    }
    return probes;
}

static void flood(void (*craft)(char *, size_t *))
{
    char *keys = malloc((size_t)N * KEY_MAX);
    size_t *lens = malloc(N * sizeof *lens);
    assert_non_null(keys);
    assert_non_null(lens);
    craft(keys, lens);
    /* The crafted keys do flood the old hash: about N^2 / 2 probes. */
    uint64_t before = old_probes(lens, keys);
    assert_true(before >= (uint64_t)N * N / 2);
    struct idmap m = {0};
    for (int i = 0; i < N; i++)
        assert_int_equal(idmap_put(&m, keys + (size_t)i * KEY_MAX, lens[i], i), 0);
    for (int i = 0; i < N; i++) {
        int64_t *v = idmap_get(&m, keys + (size_t)i * KEY_MAX, lens[i]);
        assert_non_null(v);
        assert_int_equal(*v, i);
    }
    /* 2N look-ups (and the moves of growing) in a table at most 3/4 full:
     * a few probes each (about 2.5 on average at 3/4 for linear probing);
     * 8 per operation leaves room for chance, and is 100 times below the
     * old hash's count. */
    print_message("probes: old hash %llu, idmap %zu for %d inserts and %d look-ups\n", (unsigned long long)before,
                  m.probes, N, N);
    assert_true(m.probes <= (size_t)16 * N);
    assert_true((uint64_t)m.probes * 100 < before);
    idmap_free(&m);
    free(keys);
    free(lens);
}

static void test_member_paths(void **state)
{
    (void)state;
    flood(craft_paths);
}

static void test_block_numbers(void **state)
{
    (void)state;
    flood(craft_blocks);
}

/* SipHash-2-4's reference vectors (key 00 01 ... 0f, message 00 01 ...). */
static void test_siphash_vectors(void **state)
{
    (void)state;
    uint64_t key[2] = {0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL};
    unsigned char msg[64];
    for (int i = 0; i < 64; i++)
        msg[i] = (unsigned char)i;
    assert_true(idmap_siphash(key, msg, 0) == 0x726fdb47dd0e0e31ULL);
    assert_true(idmap_siphash(key, msg, 8) == 0x93f5f5799a932462ULL);
    assert_true(idmap_siphash(key, msg, 15) == 0xa129ca6149be45e5ULL);
    assert_true(idmap_siphash(key, msg, 63) == 0x958a324ceb064572ULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_siphash_vectors),
        cmocka_unit_test(test_member_paths),
        cmocka_unit_test(test_block_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
