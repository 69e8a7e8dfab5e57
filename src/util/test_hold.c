/* A command held for a test (test_hold.h). */
#include "util/test_hold.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void test_hold(const char *env)
{
    const char *flag = getenv(env);
    if (!flag || !*flag)
        return;
    int fd = open(flag, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    close(fd);
    struct stat st;
    for (int i = 0; i < 6000 && stat(flag, &st) == 0; i++) { /* 6,000 times 20 ms: 120 s */
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}
