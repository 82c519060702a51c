#include "COpenBLAS.h"

#include <CDynamicLibrary.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The library's entry points, resolved together as it loads.
struct entries {
    char *(*get_corename)(void);
    void (*set_num_threads)(int);
    void (*dgemm)(int, int, int, int, int, int, double, const double *, int, const double *, int, double, double *,
                  int);
    void (*dgemv)(int, int, int, int, double, const double *, int, const double *, int, double, double *, int);
    void (*dsyrk)(int, int, int, int, int, double, const double *, int, double, double *, int);
    void (*dpotrf)(const char *, const int *, double *, const int *, int *, size_t);
    void (*dpotrs)(const char *, const int *, const int *, const double *, const int *, double *, const int *,
                   int *, size_t);
    void (*dsyevd)(const char *, const char *, const int *, double *, const int *, double *, double *,
                   const int *, int *, const int *, int *, size_t, size_t);
    void (*dsytrd)(const char *, const int *, double *, const int *, double *, double *, double *, double *,
                   const int *, int *, size_t);
    void (*dorgtr)(const char *, const int *, double *, const int *, const double *, double *, const int *, int *,
                   size_t);
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void *handle;
static struct entries table;
// &table once every entry is resolved, NULL before: the calls read it without the lock.
static _Atomic(const struct entries *) loaded;

int copenblas_load(char *message, size_t capacity) {
    pthread_mutex_lock(&lock);
    if (atomic_load_explicit(&loaded, memory_order_acquire) != NULL) {
        pthread_mutex_unlock(&lock);
        return 0;
    }
    void *library = dynamic_library_open(COPENBLAS_LIBRARY, message, capacity);
    if (library == NULL) {
        pthread_mutex_unlock(&lock);
        return -1;
    }
    struct entries found;
#define RESOLVE(symbol, slot) dynamic_library_resolve(library, symbol, (void **)&found.slot, message, capacity)
    int complete = RESOLVE("openblas_get_corename", get_corename)
        && RESOLVE("openblas_set_num_threads", set_num_threads) && RESOLVE("cblas_dgemm", dgemm) && RESOLVE("cblas_dgemv", dgemv) && RESOLVE("cblas_dsyrk", dsyrk)
        && RESOLVE("dpotrf_", dpotrf) && RESOLVE("dpotrs_", dpotrs) && RESOLVE("dsyevd_", dsyevd)
        && RESOLVE("dsytrd_", dsytrd) && RESOLVE("dorgtr_", dorgtr);
#undef RESOLVE
    if (!complete) {
        dlclose(library);
        pthread_mutex_unlock(&lock);
        return -1;
    }
    handle = library;
    table = found;
    atomic_store_explicit(&loaded, &table, memory_order_release);
    pthread_mutex_unlock(&lock);
    return 0;
}

void copenblas_unload(void) {
    pthread_mutex_lock(&lock);
    if (atomic_load_explicit(&loaded, memory_order_acquire) != NULL) {
        atomic_store_explicit(&loaded, NULL, memory_order_release);
        dlclose(handle);
        handle = NULL;
    }
    pthread_mutex_unlock(&lock);
}

// The loaded entries, loading the library on first use; a process without it cannot fit and ends here.
static const struct entries *entries(void) {
    const struct entries *current = atomic_load_explicit(&loaded, memory_order_acquire);
    if (__builtin_expect(current != NULL, 1)) {
        return current;
    }
    char message[512];
    if (copenblas_load(message, sizeof message) != 0) {
        fprintf(stderr, "cannot load OpenBLAS (%s): %s\n", COPENBLAS_LIBRARY, message);
        abort();
    }
    return atomic_load_explicit(&loaded, memory_order_acquire);
}

const char *copenblas_get_corename(void) { return entries()->get_corename(); }

void copenblas_set_num_threads(int threads) { entries()->set_num_threads(threads); }

void copenblas_dgemm(
    int order, int trans_a, int trans_b, int m, int n, int k, double alpha, const double *a, int lda,
    const double *b, int ldb, double beta, double *c, int ldc) {
    entries()->dgemm(order, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void copenblas_dgemv(
    int order, int trans, int m, int n, double alpha, const double *a, int lda, const double *x, int incx,
    double beta, double *y, int incy) {
    entries()->dgemv(order, trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

void copenblas_dsyrk(
    int order, int uplo, int trans, int n, int k, double alpha, const double *a, int lda, double beta, double *c,
    int ldc) {
    entries()->dsyrk(order, uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}

void copenblas_dpotrf(const char *uplo, const int *n, double *a, const int *lda, int *info, size_t uplo_len) {
    entries()->dpotrf(uplo, n, a, lda, info, uplo_len);
}

void copenblas_dpotrs(
    const char *uplo, const int *n, const int *nrhs, const double *a, const int *lda, double *b, const int *ldb,
    int *info, size_t uplo_len) {
    entries()->dpotrs(uplo, n, nrhs, a, lda, b, ldb, info, uplo_len);
}

void copenblas_dsyevd(
    const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w, double *work,
    const int *lwork, int *iwork, const int *liwork, int *info, size_t jobz_len, size_t uplo_len) {
    entries()->dsyevd(jobz, uplo, n, a, lda, w, work, lwork, iwork, liwork, info, jobz_len, uplo_len);
}

void copenblas_dsytrd(
    const char *uplo, const int *n, double *a, const int *lda, double *d, double *e, double *tau, double *work,
    const int *lwork, int *info, size_t uplo_len) {
    entries()->dsytrd(uplo, n, a, lda, d, e, tau, work, lwork, info, uplo_len);
}

void copenblas_dorgtr(
    const char *uplo, const int *n, double *a, const int *lda, const double *tau, double *work, const int *lwork,
    int *info, size_t uplo_len) {
    entries()->dorgtr(uplo, n, a, lda, tau, work, lwork, info, uplo_len);
}
