#ifndef PIPELINE_LEARNING_KERNELS_H
#define PIPELINE_LEARNING_KERNELS_H

#include <stddef.h>
#include <stdint.h>

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

/// For each penalty a < count, with T + αₐI = L D Lᵀ factored as for `learning_tridiagonal_quadratic_forms`:
/// out[a·p ..< (a+1)·p] = (T + αₐI)⁻¹ first and out[(count + a)·p ..< (count + a + 1)·p] = (T + αₐI)⁻¹ second,
/// the two solves of a penalty side by side, so that each waits only on its own last product.
void learning_tridiagonal_solves(
    size_t p, size_t count, const double *multipliers, const double *pivots, const double *first,
    const double *second, double *out);

/// Σ x[i] over n values, in eight interleaved partial sums added pairwise at the end (as NumPy's pairwise
/// sum does within a block), so the additions do not wait on one another and fill the vector lanes.
double learning_sum(size_t n, const double *x);

/// The Cholesky factor U of the symmetric positive definite n×n column-major a (a = UᵀU), in place of a's upper
/// triangle, which is all it reads; the lower triangle is left as it was. Returns 0, or j + 1 when the leading
/// minor of order j + 1 is not positive definite (or holds a NaN), as LAPACK's dpotrf reports it; a is then left
/// as it was. The right-looking unblocked algorithm on Uᵀ, so that every update runs down a contiguous column (a
/// copy on the stack up to order 64): at the orders of a fit (a few dozen), OpenBLAS's blocked dpotrf spent much
/// of its work on blocking and packing.
size_t learning_cholesky_upper(size_t n, double *a);

/// Solves a·x = b in place of b, with u from `learning_cholesky_upper(a)`: Uᵀy = b, then Ux = y (dpotrs for one
/// right-hand side).
void learning_cholesky_solve_upper(size_t n, const double *u, double *b);

/// Σ (x[i] − mean) into *deviations and Σ (x[i] − mean)² into *squares, summed as `learning_sum` does: the
/// two sums of the two-pass variance with its rounding correction.
void learning_deviation_sums(size_t n, const double *x, double mean, double *deviations, double *squares);

/// Σ of the values of x that are not NaN, summed as `learning_sum` does; *count receives how many there are.
double learning_observed_sum(size_t n, const double *x, size_t *count);

/// The upper triangle of c = aᵀ·diag(d)·a for the n×m column-major matrix a, whose columns start `lda` ≥ n
/// doubles apart (rows of a taller matrix: `lda` its rows, `a` its first row taken), and weights d ≥ 0, into the
/// column-major c of order m, or m + 1 with `ones`: then a is read as if it had one more column, all ones, so the
/// last column of c holds the weighted column sums and Σd. A null d weighs every row 1. The strictly lower
/// triangle of c is left as it was. `scratch` holds `learning_gram_scratch_count(n, m)` doubles.
///
/// Compiled like `learning_tridiagonal_quadratic_forms`. The rows are taken 512 at a time, copied into `scratch`
/// weighted by √d, each column starting on a cache line and padded with zeros to a multiple of 8 rows; a block of
/// 4 × 4 entries is then summed over 8 rows at a time in vector registers, each column of the block read once
/// per block. The copy costs one pass over a; it saves the weighting of every block's left factor and the loads
/// that straddle two cache lines (a column of a Swift array starts anywhere), which cost more. For the small,
/// tall matrices of a fit (a few hundred rows, a few dozen columns) this is faster than OpenBLAS's dsyrk, which
/// copies a into packed panels too (docs/benchmarks.md).
void learning_gram_upper(
    size_t n, size_t m, const double *a, size_t lda, const double *d, int ones, double *c, double *scratch);

/// The scratch `learning_gram_upper` needs for an n×m matrix, in doubles.
size_t learning_gram_scratch_count(size_t n, size_t m);

/// `learning_gram_upper` in blocks of 4 × 4 (what it does on a CPU with AVX-512) or, for any other `block`,
/// 2 × 2 (on others): so tests check both on any CPU.
void learning_gram_upper_in_blocks(
    size_t block, size_t n, size_t m, const double *a, size_t lda, const double *d, int ones, double *c,
    double *scratch);

/// z = (x − means[j]) / scales[j] down each column j < m of the n×m column-major x: a division, as scikit-learn's
/// StandardScaler does, 8 or 4 rows a vector instruction.
void learning_standardize(
    size_t n, size_t m, const double *x, const double *means, const double *scales, double *z);

/// The mean squared leave-one-out error of a ridge fit from its n fitted values of the centred target and of the
/// ones vector and the hat matrix's diagonal: eᵢ = (targetᵢ − fittedᵢ) / (1 − hatᵢ − (1 − onesᵢ)/n) on XᵀX
/// (`covariance`), eᵢ = fittedᵢ / (hatᵢ − onesᵢ/n) on XXᵀ, with scikit-learn's correction for the centred
/// intercept. The squares are summed in eight interleaved partials, as `learning_sum` sums.
double learning_leave_one_out_error(
    size_t n, int covariance, const double *target, const double *fitted, const double *ones, const double *hat);

/// For every index t < count of a series, the mean of its logged values at indices t + from ... t + through
/// (clipped to 0 ... count − 1) into out[t]: Σ zeroed / Σ logged (zeroed holds 0 and logged 0 where nothing was
/// logged), NaN when nothing in the window was logged. Each window is summed from its first index up, as a loop
/// over one day at a time would, so the means are the same bits; eight consecutive days are summed side by side
/// in vector lanes.
void learning_window_means(
    size_t count, const double *zeroed, const double *logged, long from, long through, double *out);

/// Copies the n×m column-major x into out with each NaN of column j replaced by fill[j]: a design imputed.
void learning_impute(size_t n, size_t m, const double *x, const double *fill, double *out);

/// For every index t < count, where the level of the values logged at indices up to t began, into starts[t]: among
/// the splits of the last `search` logged values into an earlier run (every value logged before the split) and a
/// later one, each of at least `minimum` values, the split whose means differ by the most standard errors (their
/// pooled deviation, at least `minimum_deviation`) gives the index of the later run's first value when they differ by
/// more than `threshold` of them, and 0 otherwise. `scratch` holds 3 × (count + 1) doubles and `positions` count
/// indices. Compared in squares, by cross-multiplication, so a day costs no division or square root.
void learning_level_starts(
    size_t count, const double *zeroed, const double *logged, double threshold, size_t minimum, size_t search,
    double minimum_deviation, double *scratch, int32_t *positions, int32_t *starts);

/// For every index t < count, the exponentially weighted mean of the logged values at indices up to t into
/// out[t]: each weighs (1 − alpha)^k, k the number of values logged after it, divided by the sum of the
/// weights; NaN before the first logged value. `zeroed` holds 0 and `logged` 0 where nothing was logged. Where
/// `starts` is not null and starts[t] > 0, the mean at t reads only the values at indices starts[t] through t: the
/// level the values are at began there (`FeatureBuilder`'s level shifts).
void learning_exponential_means(
    size_t count, const double *zeroed, const double *logged, double alpha, const int32_t *starts, double *out);

/// Widens lower[j] ... upper[j] to the range of rows first ..< end of each column j < m of the n×m column-major x,
/// NaN skipped, in eight lanes of minima and maxima.
void learning_column_bounds(
    size_t n, size_t first, size_t end, size_t m, const double *x, double *lower, double *upper);

/// For the linear predictors eta (to which shift, and offset unless it is null, are added in place) and the 0/1
/// labels: fills probabilities with σ(η) and returns Σ log(1 + e^η) − yη, each term computed without overflow
/// as log1p(e^−|η|) + max(η, 0) − yη. With AVX-512 or AVX2, e^−|η| and log1p are glibc's vector functions
/// (libmvec, within 4 ulp of the scalar ones), 8 or 4 rows a call, and the loss is summed in as many lanes.
double learning_logistic_terms(
    size_t n, double *eta, double shift, const double *offset, const double *labels, double *probabilities);

/// `learning_logistic_terms` with at most `lanes` rows a call (8, 4, or 1 for the scalar code), as far as the
/// CPU allows: so tests check every path on any CPU.
double learning_logistic_terms_in_lanes(
    size_t lanes, size_t n, double *eta, double shift, const double *offset, const double *labels,
    double *probabilities);

#endif
