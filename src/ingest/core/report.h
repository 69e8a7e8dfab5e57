#ifndef BENCHDB_INGEST_CORE_REPORT_H
#define BENCHDB_INGEST_CORE_REPORT_H
/* Where ingest is (file, container member, line) and the first error of
 * the archive being loaded, shared by every layer of one ingest session:
 * a layer that refuses something says what and in which field
 * (ingest_report_fail); the driver knows the place and prints the message
 * ("FILE[MEMBER]:LINE: field: what"). Warnings are printed at once, at the
 * current place. */
#include <stdint.h>

struct ingest_report {
    /* where reading is now */
    const char *file;   /* the archive as messages name it */
    const char *member; /* the container member being read, or NULL */
    uint64_t line;      /* the line being read, or 0 */

    /* the error, once set: "field: what", at err_member:err_line; err_file,
     * when set, names the harness file the error belongs to instead of
     * the place (a file given on the command line) */
    char *err;
    char *err_file;
    char *err_member;
    uint64_t err_line;

    int quiet;                          /* no notices */
    void (*before_message)(void *arg); /* e.g. clears a progress line */
    void *hook_arg;
};

/* Sets the error "field: what" (field may be NULL or "") at the current
 * place, replacing an earlier one; returns -1. */
int ingest_report_fail(struct ingest_report *r, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "out of memory"; returns -1. */
int ingest_report_oom(struct ingest_report *r);
/* Names the harness file the error belongs to (see err_file). */
void ingest_report_blame_file(struct ingest_report *r, const char *display);
/* Prints "warning: PLACE: what" now. */
void ingest_report_warn(struct ingest_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints a notice (not with quiet). */
void ingest_report_notice(struct ingest_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints the error ("error: PLACE: field: what"). */
void ingest_report_print_error(struct ingest_report *r);
/* Lets the command clear its progress line before a message. */
void ingest_report_before_message(struct ingest_report *r);
/* Forgets the error (one that was expected: a file looked for that may
 * be absent). */
void ingest_report_clear_error(struct ingest_report *r);
/* Forgets the error and the place (a new archive). */
void ingest_report_reset(struct ingest_report *r);
void ingest_report_free(struct ingest_report *r);

#endif
