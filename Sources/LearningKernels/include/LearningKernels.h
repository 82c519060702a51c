#ifndef PIPELINE_LEARNING_KERNELS_H
#define PIPELINE_LEARNING_KERNELS_H

#include <stddef.h>

/// The hat matrix's diagonal of a ridge fit for several penalties at once, from the tridiagonal reduction of
/// its Gram matrix: out[i + a·n] = yᵢᵀ (T + αₐI)⁻¹ yᵢ for each row yᵢ of the n×p column-major matrix y and
/// each penalty a < count, where T + αₐI = L D Lᵀ with L unit lower bidiagonal, its subdiagonal
/// multipliers[a·(p−1) ..< (a+1)·(p−1)], and D = diag(pivots[a·p ..< (a+1)·p]). `inverses` is scratch of
/// count·p values.
///
/// Compiled for AVX-512, for AVX2 with FMA and for baseline x86-64, the best the CPU runs chosen when the
/// program loads: rows are vector lanes, and a block of rows and penalties stays in registers for the
/// whole forward substitution, so y is read once per block of penalties instead of once per penalty.
void learning_tridiagonal_quadratic_forms(
    size_t n, size_t p, size_t count, const double *y, const double *multipliers, const double *pivots,
    double *out, double *inverses);

/// Σ x[i] over n values, in eight interleaved partial sums added pairwise at the end (as NumPy's pairwise
/// sum does within a block), so the additions do not wait on one another and fill the vector lanes.
double learning_sum(size_t n, const double *x);

/// Σ (x[i] − mean) into *deviations and Σ (x[i] − mean)² into *squares, summed as `learning_sum` does: the
/// two sums of the two-pass variance with its rounding correction.
void learning_deviation_sums(size_t n, const double *x, double mean, double *deviations, double *squares);

/// Σ of the values of x that are not NaN, summed as `learning_sum` does; *count receives how many there are.
double learning_observed_sum(size_t n, const double *x, size_t *count);

#endif
