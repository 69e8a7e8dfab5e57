#ifndef BENCHDB_INGEST_CORE_JSONERROR_H
#define BENCHDB_INGEST_CORE_JSONERROR_H
/* How a JSON parse ended (jsonparse.h), shared by the parser's files. */
#include <jansson.h>

enum json_parse_status { JSON_PARSED, JSON_SYNTAX, JSON_NO_MEMORY, JSON_TOO_BIG };

struct json_parse_error {
    enum json_parse_status status;
    int line, column; /* JSON_SYNTAX: where, as jansson counts (jsonlex.h) */
    char text[JSON_ERROR_TEXT_LENGTH];
};

#endif
