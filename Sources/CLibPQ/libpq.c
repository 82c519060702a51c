#include "CLibPQ.h"

#include <CDynamicLibrary.h>

// The functions pipeline calls: (return type, name, parameters, arguments). Those returning nothing apart,
// since C lets no function return a void expression.
#define CLIBPQ_FUNCTIONS(X)                                                                                       \
    X(char *, PQcmdStatus, (PGresult * res), (res))                                                              \
    X(char *, PQcmdTuples, (PGresult * res), (res))                                                              \
    X(PGconn *, PQconnectdbParams, (const char *const *keywords, const char *const *values, int expand_dbname),  \
      (keywords, values, expand_dbname))                                                                         \
    X(PQconninfoOption *, PQconninfoParse, (const char *conninfo, char **errmsg), (conninfo, errmsg))            \
    X(int, PQconsumeInput, (PGconn * conn), (conn))                                                              \
    X(char *, PQerrorMessage, (const PGconn *conn), (conn))                                                      \
    X(int, PQflush, (PGconn * conn), (conn))                                                                     \
    X(int, PQfformat, (const PGresult *res, int field_num), (res, field_num))                                    \
    X(Oid, PQftype, (const PGresult *res, int field_num), (res, field_num))                                      \
    X(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num))            \
    X(int, PQgetlength, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num))            \
    X(PGresult *, PQgetResult, (PGconn * conn), (conn))                                                          \
    X(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num))          \
    X(int, PQisBusy, (PGconn * conn), (conn))                                                                    \
    X(int, PQnfields, (const PGresult *res), (res))                                                              \
    X(int, PQntuples, (const PGresult *res), (res))                                                              \
    X(int, PQputCopyData, (PGconn * conn, const char *buffer, int nbytes), (conn, buffer, nbytes))               \
    X(int, PQputCopyEnd, (PGconn * conn, const char *errormsg), (conn, errormsg))                                \
    X(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode))                        \
    X(ExecStatusType, PQresultStatus, (const PGresult *res), (res))                                              \
    X(int, PQsendPrepare,                                                                                        \
      (PGconn * conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes),              \
      (conn, stmtName, query, nParams, paramTypes))                                                              \
    X(int, PQsendQuery, (PGconn * conn, const char *query), (conn, query))                                       \
    X(int, PQsendQueryParams,                                                                                    \
      (PGconn * conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues,   \
       const int *paramLengths, const int *paramFormats, int resultFormat),                                      \
      (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat))               \
    X(int, PQsendQueryPrepared,                                                                                  \
      (PGconn * conn, const char *stmtName, int nParams, const char *const *paramValues, const int *paramLengths, \
       const int *paramFormats, int resultFormat),                                                               \
      (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat))                          \
    X(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn * conn, PQnoticeProcessor proc, void *arg),              \
      (conn, proc, arg))                                                                                         \
    X(int, PQsetnonblocking, (PGconn * conn, int arg), (conn, arg))                                              \
    X(int, PQsocket, (const PGconn *conn), (conn))                                                               \
    X(ConnStatusType, PQstatus, (const PGconn *conn), (conn))

#define CLIBPQ_PROCEDURES(X)                                                                                      \
    X(PQclear, (PGresult * res), (res))                                                                          \
    X(PQconninfoFree, (PQconninfoOption * connOptions), (connOptions))                                           \
    X(PQfinish, (PGconn * conn), (conn))                                                                         \
    X(PQfreemem, (void *ptr), (ptr))

// The library's entry points, resolved together as it loads.
struct entries {
#define CLIBPQ_FIELD(type, name, parameters, arguments) type(*name) parameters;
#define CLIBPQ_PROCEDURE_FIELD(name, parameters, arguments) void(*name) parameters;
    CLIBPQ_FUNCTIONS(CLIBPQ_FIELD)
    CLIBPQ_PROCEDURES(CLIBPQ_PROCEDURE_FIELD)
};

// The library stays loaded for the life of the process: connections may outlive any one caller.
static struct dynamic_library library = DYNAMIC_LIBRARY(CLIBPQ_LIBRARY);
static struct entries table;

int clibpq_load(char *message, size_t capacity) {
#define CLIBPQ_NAME(type, name, parameters, arguments) #name,
#define CLIBPQ_PROCEDURE_NAME(name, parameters, arguments) #name,
    static const char *const names[] = {CLIBPQ_FUNCTIONS(CLIBPQ_NAME) CLIBPQ_PROCEDURES(CLIBPQ_PROCEDURE_NAME)};
#define CLIBPQ_SLOT(type, name, parameters, arguments) (void **)&table.name,
#define CLIBPQ_PROCEDURE_SLOT(name, parameters, arguments) (void **)&table.name,
    void **const slots[] = {CLIBPQ_FUNCTIONS(CLIBPQ_SLOT) CLIBPQ_PROCEDURES(CLIBPQ_PROCEDURE_SLOT)};
    return dynamic_library_load(&library, names, slots, sizeof names / sizeof *names, &table, message, capacity);
}

// The loaded entries; a call before a successful load is a mistake of the caller's, and ends here.
static const struct entries *entries(void) {
    return dynamic_library_require(&library, clibpq_load, "libpq");
}

#define CLIBPQ_DEFINE(type, name, parameters, arguments)                                                         \
    type name parameters { return entries()->name arguments; }
#define CLIBPQ_DEFINE_PROCEDURE(name, parameters, arguments)                                                     \
    void name parameters { entries()->name arguments; }
CLIBPQ_FUNCTIONS(CLIBPQ_DEFINE)
CLIBPQ_PROCEDURES(CLIBPQ_DEFINE_PROCEDURE)
