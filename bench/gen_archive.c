/* gen_archive: a benchdb-run/1 stream of about BYTES bytes on stdout, for
 * the memory figure of `make bench` (piped into `benchdb ingest -`, so the
 * gigabyte never touches the disk).
 *
 *     gen_archive BYTES
 *
 * One run (plan "rss", run "r1"), then samples records of 1000 values each
 * written with 17 significant digits, as harnesses that print doubles in
 * full do ("1234.5678901234567", 19 bytes with the comma): cells b0, b1...
 * of 1000 blocks of two variants. The digits come from a fixed xorshift
 * generator, so the stream is the same every time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long state = 0x9e3779b97f4a7c15ull;

static unsigned long long next(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_archive BYTES\n");
        return 2;
    }
    unsigned long long target = strtoull(argv[1], NULL, 10);
    static char buf[1 << 16];
    unsigned long long written = 0;
    int n = snprintf(buf, sizeof buf,
                     "{\"record\":\"run\",\"format\":\"benchdb-run/1\",\"plan\":\"rss\",\"run\":\"r1\","
                     "\"host\":\"h\",\"position\":1,\"treatment\":\"native\",\"baseline\":\"chill\"}\n");
    fwrite(buf, 1, (size_t)n, stdout);
    written += (unsigned long long)n;
    for (unsigned long long line = 0; written < target; line++) {
        char *p = buf;
        p += sprintf(p, "{\"record\":\"samples\",\"benchmark\":\"b%llu\",\"block\":%llu,\"variant\":\"%s\","
                        "\"unit\":\"ns/op\",\"values\":[",
                     line / 2000, (line / 2) % 1000 + 1, line % 2 ? "chill" : "native");
        for (int i = 0; i < 1000; i++) {
            unsigned long long r = next();
            if (i)
                *p++ = ',';
            /* 1000 + r % 1000, then 13 decimals */
            unsigned long long ip = 1000 + (r >> 50) % 1000, fp = (r & ((1ull << 50) - 1)) % 10000000000000ull;
            p += sprintf(p, "%llu.%013llu", ip, fp);
        }
        p += sprintf(p, "]}\n");
        fwrite(buf, 1, (size_t)(p - buf), stdout);
        written += (unsigned long long)(p - buf);
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
