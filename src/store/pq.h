#ifndef BENCHDB_STORE_PQ_H
#define BENCHDB_STORE_PQ_H
/* libpq, loaded when a command first connects to a server, so that a
 * command on an SQLite file maps none of it (nor the TLS, Kerberos and
 * LDAP libraries it pulls in): each function through a pointer of the
 * table pq, named by libpq's own names below. Only the PostgreSQL backend
 * of the connection layer (db_pg*.c, pg_*.c in src/store) includes it. */
#include <libpq-fe.h>

#define PQ_FUNCTIONS(X)                                                                                               \
    X(PQconnectdb) X(PQstatus) X(PQerrorMessage) X(PQfinish) X(PQsetNoticeReceiver) X(PQexec) X(PQresultStatus)     \
    X(PQresultErrorField) X(PQresultErrorMessage) X(PQclear) X(PQtransactionStatus) X(PQgetisnull) X(PQgetvalue)    \
    X(PQgetlength) X(PQftype) X(PQunescapeBytea) X(PQfreemem) X(PQntuples) X(PQnfields) X(PQprepare)               \
    X(PQdescribePrepared) X(PQfname) X(PQputCopyData) X(PQputCopyEnd) X(PQgetResult) X(PQsendQuery)                \
    X(PQsendQueryParams) X(PQsocket) X(PQconsumeInput) X(PQisBusy) X(PQbackendPID) X(PQexecParams)  \
    X(PQsendPrepare) X(PQsendQueryPrepared) X(PQenterPipelineMode) X(PQexitPipelineMode) X(PQpipelineSync)         \
    X(PQpipelineStatus)
#define PQ_POINTER(f) __typeof__(f) *f;
struct pq_api {
    PQ_FUNCTIONS(PQ_POINTER)
};
#undef PQ_POINTER
extern struct pq_api pq;

/* Loads libpq once; 0, or -1 with *err. */
int pq_load(char **err);

/* libpq's names for the table's pointers (but in pq.c, which fills it). */
#ifndef PQ_TABLE_ITSELF
#define PQconnectdb pq.PQconnectdb
#define PQstatus pq.PQstatus
#define PQerrorMessage pq.PQerrorMessage
#define PQfinish pq.PQfinish
#define PQsetNoticeReceiver pq.PQsetNoticeReceiver
#define PQexec pq.PQexec
#define PQresultStatus pq.PQresultStatus
#define PQresultErrorField pq.PQresultErrorField
#define PQresultErrorMessage pq.PQresultErrorMessage
#define PQclear pq.PQclear
#define PQtransactionStatus pq.PQtransactionStatus
#define PQgetisnull pq.PQgetisnull
#define PQgetvalue pq.PQgetvalue
#define PQgetlength pq.PQgetlength
#define PQftype pq.PQftype
#define PQunescapeBytea pq.PQunescapeBytea
#define PQfreemem pq.PQfreemem
#define PQntuples pq.PQntuples
#define PQnfields pq.PQnfields
#define PQprepare pq.PQprepare
#define PQdescribePrepared pq.PQdescribePrepared
#define PQfname pq.PQfname
#define PQputCopyData pq.PQputCopyData
#define PQputCopyEnd pq.PQputCopyEnd
#define PQgetResult pq.PQgetResult
#define PQsendQuery pq.PQsendQuery
#define PQsendQueryParams pq.PQsendQueryParams
#define PQsocket pq.PQsocket
#define PQconsumeInput pq.PQconsumeInput
#define PQisBusy pq.PQisBusy
#define PQbackendPID pq.PQbackendPID
#define PQexecParams pq.PQexecParams
#define PQsendPrepare pq.PQsendPrepare
#define PQsendQueryPrepared pq.PQsendQueryPrepared
#define PQenterPipelineMode pq.PQenterPipelineMode
#define PQexitPipelineMode pq.PQexitPipelineMode
#define PQpipelineSync pq.PQpipelineSync
#define PQpipelineStatus pq.PQpipelineStatus
#endif

#endif
