#ifndef BENCHDB_INGEST_DECODERS_CATCH2_XML_H
#define BENCHDB_INGEST_DECODERS_CATCH2_XML_H
/* A small XML pull reader, enough for the XML test reporters write:
 * elements and their attributes (entities and character references
 * decoded), the XML declaration, comments, processing instructions, a
 * DOCTYPE and CDATA skipped, text ignored. Not a validating parser: what
 * it does not read it refuses, naming the line. */
#include <stddef.h>

#include "util/strbuf.h"

#define XML_MAX_ATTRS 32

enum xml_event { XML_START, XML_END, XML_EOF, XML_ERROR };

struct xml_reader {
    const char *p, *end;
    size_t line;        /* of the event returned */
    int empty_pending;  /* a <x/> gives XML_START then XML_END */
    /* the event: the element's name and attributes, valid until the next call */
    struct strbuf buf;  /* names and values, NUL-separated */
    size_t name;        /* offset of the element's name in buf */
    size_t n_attrs;
    size_t attr_name[XML_MAX_ATTRS], attr_value[XML_MAX_ATTRS];
    char error[160];    /* what is wrong, on XML_ERROR */
};

void xml_init(struct xml_reader *r, const char *p, size_t n);
void xml_free(struct xml_reader *r);
enum xml_event xml_next(struct xml_reader *r);
/* The current element's name. */
const char *xml_name(const struct xml_reader *r);
/* The value of the current element's attribute, or NULL. */
const char *xml_attr(const struct xml_reader *r, const char *name);

#endif
