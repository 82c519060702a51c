#ifndef PIPELINE_COPENBLAS_SHIM_H
#define PIPELINE_COPENBLAS_SHIM_H

#include <stddef.h>
#include <cblas.h>

// Debian's OpenBLAS ships no lapacke.h or lapack.h, but libopenblas.so exports the Fortran LAPACK
// routines. They are declared here by hand: column-major, every argument by pointer, 32-bit integers
// (blasint is int in this build), and gfortran's hidden `size_t` length argument appended for each
// character argument.
// https://www.netlib.org/lapack/explore-html/ (argument lists);
// https://gcc.gnu.org/onlinedocs/gfortran/Argument-passing-conventions.html (hidden lengths).

/// Solves A X = B for symmetric positive definite A by Cholesky factorization.
void dposv_(const char *uplo, const int *n, const int *nrhs, double *a, const int *lda, double *b,
            const int *ldb, int *info, size_t uplo_len);

/// Cholesky factorization of a symmetric positive definite matrix.
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info, size_t uplo_len);

/// Solves A X = B with the Cholesky factor computed by dpotrf_.
void dpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *lda, double *b,
             const int *ldb, int *info, size_t uplo_len);

/// Eigenvalues and, with jobz = 'V', eigenvectors of a symmetric matrix (divide and conquer).
void dsyevd_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w,
             double *work, const int *lwork, int *iwork, const int *liwork, int *info, size_t jobz_len,
             size_t uplo_len);

/// Reduces a symmetric matrix to tridiagonal form, A = Q T Qᵀ, with Q kept as elementary reflectors.
void dsytrd_(const char *uplo, const int *n, double *a, const int *lda, double *d, double *e, double *tau,
             double *work, const int *lwork, int *info, size_t uplo_len);

/// Forms the orthogonal Q of dsytrd_ explicitly, in place of the reflectors.
void dorgtr_(const char *uplo, const int *n, double *a, const int *lda, const double *tau, double *work,
             const int *lwork, int *info, size_t uplo_len);

#endif
