#ifndef BENCHDB_OUTPUT_HUMAN_H
#define BENCHDB_OUTPUT_HUMAN_H
#include "output/output.h"

/* Table, vertical or Markdown output of rs (table.c); rowset_print's
 * formats for a person. */
int rowset_print_human(const struct rowset *rs, const struct out_opts *o, FILE *out);

#endif
