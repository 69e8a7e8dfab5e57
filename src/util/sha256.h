#ifndef BENCHDB_SHA256_H
#define BENCHDB_SHA256_H
#include <stddef.h>
#include <stdint.h>

/* SHA-256 (FIPS 180-4), streaming. */
struct sha256 {
    uint32_t h[8];
    uint64_t len;          /* bytes hashed so far */
    unsigned char buf[64];
    size_t fill;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t n);
/* The same n bytes into two hashes, as sha256_update(a, ...) then
 * sha256_update(b, ...) would: in one pass when their blocks line up (as
 * much hashed into each so far, modulo 64), which with the SHA extensions
 * takes about 0.6x the CPU of two. a and b must differ. */
void sha256_update2(struct sha256 *a, struct sha256 *b, const void *data, size_t n);
void sha256_final(struct sha256 *s, unsigned char out[32]);
/* Lower-case hex of a digest: out holds 65 bytes. */
void sha256_hex(const unsigned char digest[32], char out[65]);
/* One-shot: hex digest of a buffer. */
void sha256_hex_of(const void *data, size_t n, char out[65]);
/* 1 when the processor's SHA extensions do the rounds, 0 when the portable
 * code does. sha256_use_accelerated(0) forces the portable code and (1)
 * goes back to the extensions where there are some (tests compare the two);
 * both return what was in use before. Not thread-safe: call them before
 * hashing starts. */
int sha256_accelerated(void);
int sha256_use_accelerated(int on);

#endif
