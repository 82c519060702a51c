#ifndef PIPELINE_CDYNAMICLIBRARY_H
#define PIPELINE_CDYNAMICLIBRARY_H

#include <stddef.h>

// Opening a C library at run time and resolving its entry points, for the modules that load one when the
// process first needs it instead of linking it (COpenBLAS, CLibPQ). Errors are written into `message`
// (`capacity` bytes, NUL-terminated; it may be NULL when `capacity` is 0).

/// Opens `file` as the dynamic loader searches for it, its symbols kept to itself (RTLD_LOCAL) and looked up there
/// first (RTLD_DEEPBIND): its own symbols, and those of the libraries it needs, are found without a search
/// through every library the process has loaded (about fifty with Foundation), which made opening OpenBLAS slow
/// (docs/benchmarks.md). A sanitizer's runtime refuses RTLD_DEEPBIND (it must see the library's calls into the C library),
/// so a sanitized build opens it the ordinary way. NULL, with the loader's reason in `message`, when it cannot.
void *dynamic_library_open(const char *file, char *message, size_t capacity);

/// Resolves `name` in `library` into *slot (an object pointer, as dlsym gives it, through a void ** view of a
/// function pointer's slot, the form POSIX gives). Returns 1, or 0 with the reason in `message`.
int dynamic_library_resolve(void *library, const char *name, void **slot, char *message, size_t capacity);

#endif
