#ifndef PIPELINE_CSQLITE_SHIM_H
#define PIPELINE_CSQLITE_SHIM_H

#include <sqlite3.h>

#endif
