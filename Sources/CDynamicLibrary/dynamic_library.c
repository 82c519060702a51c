// RTLD_DEEPBIND is a GNU extension of dlfcn.h.
#define _GNU_SOURCE

#include "CDynamicLibrary.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

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

int dynamic_library_load(struct dynamic_library *library, const char *const *names, void **const *slots,
                         size_t count, const void *table, char *message, size_t capacity) {
    pthread_mutex_lock(&library->lock);
    if (dynamic_library_table(library) != NULL) {
        pthread_mutex_unlock(&library->lock);
        return 0;
    }
    void *handle = dynamic_library_open(library->file, message, capacity);
    int complete = handle != NULL;
    for (size_t index = 0; complete && index < count; index++) {
        complete = dynamic_library_resolve(handle, names[index], slots[index], message, capacity);
    }
    if (complete) {
        library->handle = handle;
        atomic_store_explicit(&library->table, table, memory_order_release);
    } else if (handle != NULL) {
        dlclose(handle);
    }
    pthread_mutex_unlock(&library->lock);
    return complete ? 0 : -1;
}

void dynamic_library_unload(struct dynamic_library *library) {
    pthread_mutex_lock(&library->lock);
    if (dynamic_library_table(library) != NULL) {
        atomic_store_explicit(&library->table, NULL, memory_order_release);
        dlclose(library->handle);
        library->handle = NULL;
    }
    pthread_mutex_unlock(&library->lock);
}

const void *dynamic_library_load_or_exit(struct dynamic_library *library, int (*load)(char *, size_t),
                                         const char *name) {
    char message[512];
    if (load(message, sizeof message) != 0) {
        fprintf(stderr, "cannot load %s (%s): %s\n", name, library->file, message);
        abort();
    }
    return dynamic_library_table(library);
}
