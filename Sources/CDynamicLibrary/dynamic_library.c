// RTLD_DEEPBIND is a GNU extension of dlfcn.h.
#define _GNU_SOURCE

#include "CDynamicLibrary.h"

#include <dlfcn.h>
#include <stdio.h>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define DYNAMIC_LIBRARY_OPEN_FLAGS (RTLD_LAZY | RTLD_LOCAL)
#endif
#endif
#ifndef DYNAMIC_LIBRARY_OPEN_FLAGS
#define DYNAMIC_LIBRARY_OPEN_FLAGS (RTLD_LAZY | RTLD_LOCAL | RTLD_DEEPBIND)
#endif

static void report(char *message, size_t capacity, const char *what, const char *detail) {
    if (capacity > 0) {
        snprintf(message, capacity, "%s%s%s", what, detail ? ": " : "", detail ? detail : "");
    }
}

void *dynamic_library_open(const char *file, char *message, size_t capacity) {
    void *library = dlopen(file, DYNAMIC_LIBRARY_OPEN_FLAGS);
    if (library == NULL) {
        const char *reason = dlerror();
        report(message, capacity, reason ? reason : "cannot load the library", reason ? NULL : file);
    }
    return library;
}

int dynamic_library_resolve(void *library, const char *name, void **slot, char *message, size_t capacity) {
    dlerror();
    *slot = dlsym(library, name);
    if (*slot == NULL) {
        const char *reason = dlerror();
        report(message, capacity, name, reason ? reason : "not found");
        return 0;
    }
    return 1;
}
