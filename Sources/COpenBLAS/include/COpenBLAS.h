#ifndef PIPELINE_COPENBLAS_H
#define PIPELINE_COPENBLAS_H

#include <stddef.h>

// OpenBLAS, loaded when the process first needs it (dlopen of libopenblas.so.0) instead of linked.
// OpenBLAS reads OPENBLAS_CORETYPE and OPENBLAS_NUM_THREADS once, as it loads: a process that sets them
// first, or that loads the library again after changing them (`copenblas_unload`), gets the kernels and
// threads it asked for without starting over. Every entry point below loads the library on first use
// when nothing has loaded it yet, and ends the process with a message naming the library when it cannot.
//
// Debian's OpenBLAS ships no lapacke.h or lapack.h, but the library exports the Fortran LAPACK routines.
// They are declared here by hand: column-major, every argument by pointer, 32-bit integers (blasint is
// int in this build), and gfortran's hidden `size_t` length argument appended for each character argument.
// https://www.netlib.org/lapack/explore-html/ (argument lists);
// https://gcc.gnu.org/onlinedocs/gfortran/Argument-passing-conventions.html (hidden lengths).

/// The library file loaded, as the dynamic loader searches for it.
#define COPENBLAS_LIBRARY "libopenblas.so.0"

/// Loads the library unless it is loaded. Returns 0, or -1 with the loader's reason in `message`
/// (`capacity` bytes, NUL-terminated; it may be NULL when `capacity` is 0).
int copenblas_load(char *message, size_t capacity);

/// Unloads the library, so that the next load reads the environment again. Only while no other thread
/// can call into it: first thing in a process, before any fit.
void copenblas_unload(void);

// The CBLAS constants the calls below take (cblas.h's enum values).
#define COPENBLAS_COL_MAJOR 102
#define COPENBLAS_NO_TRANS 111
#define COPENBLAS_TRANS 112
#define COPENBLAS_UPPER 121

/// The kernels OpenBLAS chose as it loaded, e.g. "SkylakeX" or "Prescott".
const char *copenblas_get_corename(void);

/// OpenBLAS's `openblas_set_num_threads`.
void copenblas_set_num_threads(int threads);

/// CBLAS `dgemm`, `dgemv` and `dsyrk`.
void copenblas_dgemm(
    int order, int trans_a, int trans_b, int m, int n, int k, double alpha, const double *a, int lda,
    const double *b, int ldb, double beta, double *c, int ldc);
void copenblas_dgemv(
    int order, int trans, int m, int n, double alpha, const double *a, int lda, const double *x, int incx,
    double beta, double *y, int incy);
void copenblas_dsyrk(
    int order, int uplo, int trans, int n, int k, double alpha, const double *a, int lda, double beta, double *c,
    int ldc);

/// Cholesky factorization of a symmetric positive definite matrix (LAPACK dpotrf).
void copenblas_dpotrf(const char *uplo, const int *n, double *a, const int *lda, int *info, size_t uplo_len);

/// Solves A X = B with the Cholesky factor computed by dpotrf (LAPACK dpotrs).
void copenblas_dpotrs(
    const char *uplo, const int *n, const int *nrhs, const double *a, const int *lda, double *b, const int *ldb,
    int *info, size_t uplo_len);

/// Eigenvalues and, with jobz = 'V', eigenvectors of a symmetric matrix, divide and conquer (LAPACK dsyevd).
void copenblas_dsyevd(
    const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w, double *work,
    const int *lwork, int *iwork, const int *liwork, int *info, size_t jobz_len, size_t uplo_len);

/// Reduces a symmetric matrix to tridiagonal form, A = Q T Qᵀ, with Q kept as elementary reflectors
/// (LAPACK dsytrd).
void copenblas_dsytrd(
    const char *uplo, const int *n, double *a, const int *lda, double *d, double *e, double *tau, double *work,
    const int *lwork, int *info, size_t uplo_len);

/// Forms the orthogonal Q of dsytrd explicitly, in place of the reflectors (LAPACK dorgtr).
void copenblas_dorgtr(
    const char *uplo, const int *n, double *a, const int *lda, const double *tau, double *work, const int *lwork,
    int *info, size_t uplo_len);

#endif
