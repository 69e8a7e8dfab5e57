/* Replays fuzz inputs without libFuzzer: each argument is a file or a
 * directory of files, each file one input to LLVMFuzzerTestOneInput. Built
 * with the normal compiler so that 'make test' replays the committed
 * corpora (and every crash found, kept there as a regression input) under
 * the plain and the sanitized builds. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: %s: cannot open\n", path);
        return 1;
    }
    size_t cap = 1 << 16, len = 0;
    unsigned char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            unsigned char *b = realloc(buf, cap *= 2);
            if (!b)
                free(buf);
            buf = b;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "replay: %s: out of memory\n", path);
        return 1;
    }
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    int failed = 0, inputs = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: %s: no such file or directory\n", argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            failed |= run_file(argv[i]);
            inputs++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        if (!d)
            return 1;
        char **names = NULL;
        size_t n = 0, cap = 0;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 64;
                names = realloc(names, cap * sizeof *names);
                if (!names)
                    return 1;
            }
            size_t l = strlen(argv[i]) + strlen(e->d_name) + 2;
            names[n] = malloc(l);
            snprintf(names[n], l, "%s/%s", argv[i], e->d_name);
            n++;
        }
        closedir(d);
        qsort(names, n, sizeof *names, cmp);
        for (size_t k = 0; k < n; k++) {
            failed |= run_file(names[k]);
            inputs++;
            free(names[k]);
        }
        free(names);
    }
    printf("replay: %d inputs, no crash\n", inputs);
    return failed;
}
