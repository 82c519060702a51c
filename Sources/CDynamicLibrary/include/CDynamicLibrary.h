#ifndef PIPELINE_CDYNAMICLIBRARY_H
#define PIPELINE_CDYNAMICLIBRARY_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

// Opening a C library at run time and resolving its entry points, for the modules that load one when the
// process first needs it instead of linking it (COpenBLAS, CLibPQ): `struct dynamic_library` does it once, for
// whichever thread comes first, and each module only lists its entry points. Errors are written into `message`
// (`capacity` bytes, NUL-terminated; it may be NULL when `capacity` is 0).

/// Opens `file` as the dynamic loader searches for it, its symbols kept to itself (RTLD_LOCAL) and looked up there
/// first (RTLD_DEEPBIND): its own symbols, and those of the libraries it needs, are found without a search
/// through every library the process has loaded (about fifty with Foundation), which made opening OpenBLAS slow
/// (docs/benchmarks.md). A sanitizer's runtime refuses RTLD_DEEPBIND (it must see the library's calls into the C
/// library), so a sanitized build opens it the ordinary way. NULL, with the loader's reason in `message`, when it
/// cannot.
void *dynamic_library_open(const char *file, char *message, size_t capacity);

/// Resolves `name` in `library` into *slot (an object pointer, as dlsym gives it, through a void ** view of a
/// function pointer's slot, the form POSIX gives). Returns 1, or 0 with the reason in `message`.
int dynamic_library_resolve(void *library, const char *name, void **slot, char *message, size_t capacity);

/// A library opened by whichever thread first needs it, its entry points resolved together into a table of
/// function pointers that is published only once every one is found: a call reads the table without the lock.
struct dynamic_library {
    const char *file;
    pthread_mutex_t lock;
    void *handle;
    // The table once every entry is resolved, NULL before.
    _Atomic(const void *) table;
};

/// A `struct dynamic_library` for `file`, not yet loaded.
#define DYNAMIC_LIBRARY(file) {(file), PTHREAD_MUTEX_INITIALIZER, NULL, NULL}

/// Loads `library` unless it is loaded: opens its file, resolves `names[i]` into `*slots[i]` for each of the
/// `count` entries (the fields of `table`), then publishes `table`. Returns 0, or -1 with the reason in `message`,
/// the library then closed again and `table` unpublished.
int dynamic_library_load(struct dynamic_library *library, const char *const *names, void **const *slots,
                         size_t count, const void *table, char *message, size_t capacity);

/// The published table, or NULL before a successful load.
static inline const void *dynamic_library_table(struct dynamic_library *library) {
    return atomic_load_explicit(&library->table, memory_order_acquire);
}

/// Loads `library` with `load` (the module's own loader, which calls `dynamic_library_load`) and returns its table;
/// a process that cannot load it ends here, with a message naming the library (`name`, its file) and the reason.
const void *dynamic_library_load_or_exit(struct dynamic_library *library, int (*load)(char *, size_t),
                                         const char *name);

/// The table, loading the library on first use (`dynamic_library_load_or_exit`).
static inline const void *dynamic_library_require(struct dynamic_library *library, int (*load)(char *, size_t),
                                                  const char *name) {
    const void *table = dynamic_library_table(library);
    if (__builtin_expect(table != NULL, 1)) {
        return table;
    }
    return dynamic_library_load_or_exit(library, load, name);
}

/// Unpublishes the table and closes the library, so that the next load opens it again. Only while no other thread
/// calls through the table.
void dynamic_library_unload(struct dynamic_library *library);

#endif
