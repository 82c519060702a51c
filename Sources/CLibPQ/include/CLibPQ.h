#ifndef PIPELINE_CLIBPQ_H
#define PIPELINE_CLIBPQ_H

#include <stddef.h>

// libpq, PostgreSQL's C client library (Debian's libpq-dev), loaded when the process first connects to a
// server (dlopen of libpq.so.5) instead of linked. Linked, it brought about twenty libraries (TLS, Kerberos,
// LDAP and theirs) into every command's start, a large share of it, a database or not (docs/benchmarks.md).
//
// Swift calls libpq's functions by their own names, as declared in libpq-fe.h: this module defines each one
// pipeline uses, passing the call to the loaded library. Call `clibpq_load` first (a connection does, and
// reports its failure); a function called before a successful load ends the process with a message naming the
// library.
#include <postgresql/libpq-fe.h>

/// The library file loaded, as the dynamic loader searches for it.
#define CLIBPQ_LIBRARY "libpq.so.5"

/// Loads the library unless it is loaded. Returns 0, or -1 with the loader's reason in `message` (`capacity`
/// bytes, NUL-terminated; it may be NULL when `capacity` is 0).
int clibpq_load(char *message, size_t capacity);

#endif
