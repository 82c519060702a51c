#ifndef PIPELINE_CSQLITE_SHIM_H
#define PIPELINE_CSQLITE_SHIM_H

#include <sqlite3.h>

/// Turns off SQLite's memory statistics (SQLITE_CONFIG_MEMSTATUS), which take a global mutex on every
/// allocation; Debian's build has no lookaside allocator, so a statement allocates often. Only possible before
/// SQLite initializes: returns SQLITE_MISUSE after (sqlite3_config is variadic, which Swift cannot call).
static inline int pipeline_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

#endif
