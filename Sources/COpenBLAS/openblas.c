#include "COpenBLAS.h"

#include <CDynamicLibrary.h>

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

static struct dynamic_library library = DYNAMIC_LIBRARY(COPENBLAS_LIBRARY);
static struct entries table;

int copenblas_load(char *message, size_t capacity) {
    static const char *const names[] = {
        "openblas_get_corename", "openblas_set_num_threads", "cblas_dgemm", "cblas_dgemv", "cblas_dsyrk",
        "dpotrf_", "dpotrs_", "dsyevd_", "dsytrd_", "dorgtr_",
    };
    void **const slots[] = {
        (void **)&table.get_corename, (void **)&table.set_num_threads, (void **)&table.dgemm,
        (void **)&table.dgemv, (void **)&table.dsyrk, (void **)&table.dpotrf, (void **)&table.dpotrs,
        (void **)&table.dsyevd, (void **)&table.dsytrd, (void **)&table.dorgtr,
    };
    _Static_assert(sizeof names / sizeof *names == sizeof slots / sizeof *slots, "a name for each entry");
    return dynamic_library_load(&library, names, slots, sizeof names / sizeof *names, &table, message, capacity);
}

void copenblas_unload(void) { dynamic_library_unload(&library); }

// The loaded entries, loading the library on first use; a process without it cannot fit and ends here.
static const struct entries *entries(void) {
    return dynamic_library_require(&library, copenblas_load, "OpenBLAS");
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
