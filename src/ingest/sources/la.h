#ifndef BENCHDB_INGEST_SOURCES_LA_H
#define BENCHDB_INGEST_SOURCES_LA_H
/* libarchive, loaded when an ingest first opens a tar or zip archive or a
 * gzip, xz or bzip2 stream, so that every other command maps none of it:
 * libarchive pulls in libxml2, ICU, libstdc++, nettle and four
 * compression libraries, whose loading and relocation were about two
 * thirds of a benchdb process's start (docs/architecture.md, "Libraries
 * loaded when needed"). Each function through a pointer of the table la,
 * named by libarchive's own names below, as store/pq.h does for libpq.
 * Only the two users in this directory (container.c, decode.c) include
 * it. */
#include <archive.h>
#include <archive_entry.h>

#define LA_FUNCTIONS(X)                                                                                               \
    X(archive_read_new) X(archive_read_free) X(archive_read_support_format_tar) X(archive_read_support_format_gnutar) \
    X(archive_read_support_format_zip) X(archive_read_support_format_raw) X(archive_read_support_format_empty)        \
    X(archive_read_append_filter) X(archive_read_open) X(archive_read_next_header)                                   \
    X(archive_read_data_block) X(archive_error_string) X(archive_set_error) X(archive_format)                        \
    X(archive_entry_pathname) X(archive_entry_filetype)
#define LA_POINTER(f) __typeof__(f) *f;
struct la_api {
    LA_FUNCTIONS(LA_POINTER)
};
#undef LA_POINTER
extern struct la_api la;

/* Loads libarchive once (thread-safe); 0, or -1 with *err. */
int la_load(char **err);

/* libarchive's names for the table's pointers (but in la.c, which fills it). */
#ifndef LA_TABLE_ITSELF
#define archive_read_new la.archive_read_new
#define archive_read_free la.archive_read_free
#define archive_read_support_format_tar la.archive_read_support_format_tar
#define archive_read_support_format_gnutar la.archive_read_support_format_gnutar
#define archive_read_support_format_zip la.archive_read_support_format_zip
#define archive_read_support_format_raw la.archive_read_support_format_raw
#define archive_read_support_format_empty la.archive_read_support_format_empty
#define archive_read_append_filter la.archive_read_append_filter
#define archive_read_open la.archive_read_open
#define archive_read_next_header la.archive_read_next_header
#define archive_read_data_block la.archive_read_data_block
#define archive_error_string la.archive_error_string
#define archive_set_error la.archive_set_error
#define archive_format la.archive_format
#define archive_entry_pathname la.archive_entry_pathname
#define archive_entry_filetype la.archive_entry_filetype
#endif

#endif
