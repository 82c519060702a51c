// One file: every C kernel of the fits, compiled together with one set of vector clones and flags.

#include "LearningKernels.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef __has_feature
#define __has_feature(feature) 0
#endif

// The clones are chosen by an ifunc resolver that runs while the program is relocated, before a sanitizer's
// runtime is up: an instrumented build (`swift test --sanitize=thread`) gets the baseline code only.
#if defined(__x86_64__) && defined(__ELF__) && !__has_feature(thread_sanitizer) && !__has_feature(address_sanitizer)
#define LEARNING_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define LEARNING_VECTOR_CLONES
#endif

enum { block_rows = 16, block_penalties = 4 };

/// One block: `rows` ≤ block_rows rows from `row` and `penalties` ≤ block_penalties penalties from `first`.
/// Forward substitution with L down the columns (w ← y_k − l_{k−1}·w), summing w²/d_k. Inlined with constant
/// sizes for whole blocks, so the compiler keeps w and the sums in vector registers.
static inline __attribute__((always_inline)) void quadratic_forms_block(
    size_t n, size_t p, size_t row, size_t rows, size_t first, size_t penalties, const double *restrict y,
    const double *restrict multipliers, const double *restrict inverses, double *restrict out) {
    double w[block_penalties][block_rows];
    double sum[block_penalties][block_rows];
    for (size_t a = 0; a < penalties; a++) {
        const double inverse = inverses[(first + a) * p];
        for (size_t r = 0; r < rows; r++) {
            const double value = y[row + r];
            w[a][r] = value;
            sum[a][r] = value * value * inverse;
        }
    }
    for (size_t k = 1; k < p; k++) {
        const double *restrict column = y + k * n + row;
        for (size_t a = 0; a < penalties; a++) {
            const double multiplier = multipliers[(first + a) * (p - 1) + k - 1];
            const double inverse = inverses[(first + a) * p + k];
            for (size_t r = 0; r < rows; r++) {
                const double value = column[r] - multiplier * w[a][r];
                w[a][r] = value;
                sum[a][r] += value * value * inverse;
            }
        }
    }
    for (size_t a = 0; a < penalties; a++) {
        for (size_t r = 0; r < rows; r++) out[(first + a) * n + row + r] = sum[a][r];
    }
}

LEARNING_VECTOR_CLONES
void learning_tridiagonal_quadratic_forms(
    size_t n, size_t p, size_t count, const double *restrict y, const double *restrict multipliers,
    const double *restrict pivots, double *restrict out, double *restrict inverses) {
    if (n == 0 || p == 0 || count == 0) return;
    for (size_t index = 0; index < count * p; index++) inverses[index] = 1.0 / pivots[index];
    const size_t whole_penalties = count - count % block_penalties;
    const size_t whole_rows = n - n % block_rows;
    for (size_t first = 0; first < count; first += block_penalties) {
        const size_t penalties = first < whole_penalties ? block_penalties : count - first;
        for (size_t row = 0; row < n; row += block_rows) {
            if (row < whole_rows && penalties == block_penalties) {
                quadratic_forms_block(n, p, row, block_rows, first, block_penalties, y, multipliers, inverses, out);
            } else {
                const size_t rows = row < whole_rows ? block_rows : n - row;
                quadratic_forms_block(n, p, row, rows, first, penalties, y, multipliers, inverses, out);
            }
        }
    }
}

/// (T + αI)⁻¹ b for the two right-hand sides of one penalty, by the factors of T + αI = L D Lᵀ: forward
/// substitution with L, the pivots, back substitution with Lᵀ. The two chains are independent, so each waits on
/// its own products only.
static inline __attribute__((always_inline)) void tridiagonal_solve_pair(
    size_t p, const double *restrict l, const double *restrict d, const double *restrict first,
    const double *restrict second, double *restrict x, double *restrict y) {
#pragma clang fp contract(off)  // a product and a difference, each rounded: the bits of the scalar code
    x[0] = first[0];
    y[0] = second[0];
    for (size_t k = 1; k < p; k++) {
        x[k] = first[k] - l[k - 1] * x[k - 1];
        y[k] = second[k] - l[k - 1] * y[k - 1];
    }
    for (size_t k = 0; k < p; k++) {
        x[k] /= d[k];
        y[k] /= d[k];
    }
    for (size_t k = p - 1; k-- > 0;) {
        x[k] -= l[k] * x[k + 1];
        y[k] -= l[k] * y[k + 1];
    }
}

void learning_tridiagonal_solves(
    size_t p, size_t count, const double *restrict multipliers, const double *restrict pivots,
    const double *restrict first, const double *restrict second, double *restrict out) {
    if (p == 0) return;
    for (size_t a = 0; a < count; a++) {
        tridiagonal_solve_pair(
            p, multipliers + a * (p - 1), pivots + a * p, first, second, out + a * p, out + (count + a) * p);
    }
}

enum { lanes = 8 };

/// ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)).
static inline double combine(const double *partial) {
    return ((partial[0] + partial[1]) + (partial[2] + partial[3])) +
           ((partial[4] + partial[5]) + (partial[6] + partial[7]));
}

LEARNING_VECTOR_CLONES
double learning_sum(size_t n, const double *restrict x) {
    double partial[lanes] = {0};
    const size_t whole = n - n % lanes;
    for (size_t i = 0; i < whole; i += lanes) {
        for (size_t lane = 0; lane < lanes; lane++) partial[lane] += x[i + lane];
    }
    for (size_t i = whole; i < n; i++) partial[i - whole] += x[i];
    return combine(partial);
}

/// Σ x[i]·y[i] over n values, in eight interleaved partial sums as `learning_sum`.
static inline __attribute__((always_inline)) double dot(size_t n, const double *x, const double *y) {
    double partial[lanes] = {0};
    const size_t whole = n - n % lanes;
    for (size_t i = 0; i < whole; i += lanes) {
        for (size_t lane = 0; lane < lanes; lane++) partial[lane] += x[i + lane] * y[i + lane];
    }
    for (size_t i = whole; i < n; i++) partial[i - whole] += x[i] * y[i];
    return combine(partial);
}

LEARNING_VECTOR_CLONES
void learning_deviation_sums(size_t n, const double *restrict x, double mean, double *deviations, double *squares) {
    double linear[lanes] = {0};
    double quadratic[lanes] = {0};
    const size_t whole = n - n % lanes;
    for (size_t i = 0; i < whole; i += lanes) {
        for (size_t lane = 0; lane < lanes; lane++) {
            const double deviation = x[i + lane] - mean;
            linear[lane] += deviation;
            quadratic[lane] += deviation * deviation;
        }
    }
    for (size_t i = whole; i < n; i++) {
        const double deviation = x[i] - mean;
        linear[i - whole] += deviation;
        quadratic[i - whole] += deviation * deviation;
    }
    *deviations = combine(linear);
    *squares = combine(quadratic);
}

LEARNING_VECTOR_CLONES
double learning_observed_sum(size_t n, const double *restrict x, size_t *count) {
    double partial[lanes] = {0};
    size_t counts[lanes] = {0};
    const size_t whole = n - n % lanes;
    for (size_t i = 0; i < whole; i += lanes) {
        for (size_t lane = 0; lane < lanes; lane++) {
            const double value = x[i + lane];
            const int observed = value == value;  // false for NaN only
            partial[lane] += observed ? value : 0.0;
            counts[lane] += (size_t)observed;
        }
    }
    for (size_t i = whole; i < n; i++) {
        const double value = x[i];
        const int observed = value == value;
        partial[i - whole] += observed ? value : 0.0;
        counts[i - whole] += (size_t)observed;
    }
    size_t total = 0;
    for (size_t lane = 0; lane < lanes; lane++) total += counts[lane];
    *count = total;
    return combine(partial);
}

/// Eight lanes of doubles, loaded from and stored to any double's address.
typedef double lane_vector __attribute__((vector_size(lanes * sizeof(double)), aligned(sizeof(double))));

/// Macros, not functions: a function passing eight doubles by value would have one ABI with AVX-512 and
/// another without, and clang refuses that in the baseline clone.
#define load_lanes(x) (*(const lane_vector *)(x))

/// The largest block: 4 × 4 sums of 8 lanes fill 16 of AVX-512's 32 vector registers. With 16 registers of 4
/// lanes (AVX2) they would not fit, and blocks are 2 × 2 there.
enum { gram_block = 4, narrow_gram_block = 2 };

/// Rows are copied and summed this many at a time: 512 rows of a few dozen columns stay in the L2 cache while
/// every block of columns reads them.
enum { gram_chunk_rows = 512 };

/// A vector of lanes at an address that is a multiple of its size: no load straddles two cache lines.
typedef double aligned_lane_vector __attribute__((vector_size(lanes * sizeof(double))));
#define load_aligned_lanes(x) (*(const aligned_lane_vector *)__builtin_assume_aligned((x), sizeof(aligned_lane_vector)))

/// One block of c, from `ld` rows (a multiple of 8, padded with zeros) of the copied columns `s`: columns
/// j0 ..< j0 + bj against k0 ..< k0 + bk (bj, bk ≤ gram_block), entries on or above the diagonal stored, or
/// added to what is there when `add`. Inlined with constant sizes for whole blocks, so the sums stay in
/// registers.
static inline __attribute__((always_inline)) void gram_block_sums(
    size_t ld, const double *restrict s, size_t j0, size_t bj, size_t k0, size_t bk, int add, double *restrict c,
    size_t ldc) {
    aligned_lane_vector sums[gram_block][gram_block];
    for (size_t q = 0; q < bj; q++) {
        for (size_t r = 0; r < bk; r++) sums[q][r] = (aligned_lane_vector){0};
    }
    for (size_t i = 0; i < ld; i += lanes) {
        aligned_lane_vector right[gram_block];
        for (size_t r = 0; r < bk; r++) right[r] = load_aligned_lanes(s + (k0 + r) * ld + i);
        for (size_t q = 0; q < bj; q++) {
            const aligned_lane_vector left = load_aligned_lanes(s + (j0 + q) * ld + i);
            for (size_t r = 0; r < bk; r++) sums[q][r] += left * right[r];
        }
    }
    for (size_t q = 0; q < bj; q++) {
        for (size_t r = 0; r < bk; r++) {
            if (j0 + q > k0 + r) continue;
            double partial[lanes];
            memcpy(partial, &sums[q][r], sizeof partial);
            double *entry = c + (j0 + q) + (k0 + r) * ldc;
            *entry = add ? *entry + combine(partial) : combine(partial);
        }
    }
}

/// The blocks of order `block` over the upper triangle; whole ones with constant sizes.
static inline __attribute__((always_inline)) void gram_blocks(
    size_t ld, size_t m, const double *restrict s, size_t block, int add, double *restrict c, size_t ldc) {
    for (size_t j0 = 0; j0 < m; j0 += block) {
        const size_t bj = m - j0 < block ? m - j0 : block;
        for (size_t k0 = j0; k0 < m; k0 += block) {
            const size_t bk = m - k0 < block ? m - k0 : block;
            if (bj == block && bk == block) {
                gram_block_sums(ld, s, j0, block, k0, block, add, c, ldc);
            } else {
                gram_block_sums(ld, s, j0, bj, k0, bk, add, c, ldc);
            }
        }
    }
}

size_t learning_gram_scratch_count(size_t n, size_t m) {
    const size_t rows = n < gram_chunk_rows ? n : gram_chunk_rows;
    const size_t ld = (rows + lanes - 1) / lanes * lanes;
    return (m + 1) * ld + lanes;
}

LEARNING_VECTOR_CLONES
void learning_gram_upper_in_blocks(
    size_t block, size_t n, size_t m, const double *restrict a, size_t lda, const double *restrict d, int ones,
    double *restrict c, double *restrict scratch) {
    // Each chunk of rows is copied, weighted by √d, into columns that start on a cache line and are padded with
    // zeros to whole vectors: the blocks then read only whole, aligned vectors, and one copy serves as both
    // factors of the weighted products (√d·a_j)(√d·a_k). The column after the last holds √d (1 unweighted):
    // with `ones` it is summed as one more column, its products the weighted column sums and Σd.
    const size_t order = m + (ones ? 1 : 0);
    double *copy = (double *)(((uintptr_t)scratch + sizeof(aligned_lane_vector) - 1) &
                              ~(uintptr_t)(sizeof(aligned_lane_vector) - 1));
    if (n == 0) {
        for (size_t k = 0; k < order; k++) {
            for (size_t j = 0; j <= k; j++) c[j + k * order] = 0;
        }
    }
    for (size_t first = 0; first < n; first += gram_chunk_rows) {
        const size_t rows = n - first < gram_chunk_rows ? n - first : gram_chunk_rows;
        const size_t ld = (rows + lanes - 1) / lanes * lanes;
        double *restrict roots = copy + m * ld;
        for (size_t i = 0; i < rows; i++) roots[i] = d ? sqrt(d[first + i]) : 1;
        for (size_t i = rows; i < ld; i++) roots[i] = 0;
        for (size_t j = 0; j < m; j++) {
            const double *restrict column = a + j * lda + first;
            double *restrict target = copy + j * ld;
            if (d) {
                for (size_t i = 0; i < rows; i++) target[i] = column[i] * roots[i];
            } else {
                memcpy(target, column, rows * sizeof(double));
            }
            for (size_t i = rows; i < ld; i++) target[i] = 0;
        }
        if (block == gram_block) {
            gram_blocks(ld, order, copy, gram_block, first > 0, c, order);
        } else {
            gram_blocks(ld, order, copy, narrow_gram_block, first > 0, c, order);
        }
    }
}

void learning_gram_upper(
    size_t n, size_t m, const double *restrict a, size_t lda, const double *restrict d, int ones, double *restrict c,
    double *restrict scratch) {
    // The loader runs the AVX-512 clone exactly when the CPU has AVX-512: the blocks for its 32 registers.
    const size_t block = __builtin_cpu_supports("avx512f") ? gram_block : narrow_gram_block;
    learning_gram_upper_in_blocks(block, n, m, a, lda, d, ones, c, scratch);
}

/// Orders whose factor is worked on the stack; a larger one takes a buffer from the heap.
enum { cholesky_stack_order = 64 };

/// The Cholesky factor of the SPD matrix whose lower triangle `l` holds (column-major, leading dimension `ld`, a
/// multiple of `lanes`, 64-byte aligned; zeros above each diagonal back to an aligned row, and below the last), in
/// place, right-looking: each step scales its column
/// and takes its share from every later column. Each of those runs down contiguous memory in whole vectors from
/// an aligned row at or above where it starts, so the entries above a column's diagonal (never read as results)
/// take harmless values and no step has a scalar tail.
static inline __attribute__((always_inline)) size_t cholesky_lower(size_t n, size_t ld, double *l) {
    for (size_t j = 0; j < n; j++) {
        double *column = l + j * ld;
        // Not positive, or NaN: where LAPACK's dpotrf stops.
        if (!(column[j] > 0)) return j + 1;
        const double diagonal = sqrt(column[j]);
        const double reciprocal = 1 / diagonal;
        for (size_t i = (j + 1) / lanes * lanes; i < ld; i += lanes) {
            *(aligned_lane_vector *)__builtin_assume_aligned(column + i, sizeof(aligned_lane_vector)) =
                load_aligned_lanes(column + i) * reciprocal;
        }
        column[j] = diagonal;
        for (size_t k = j + 1; k < n; k++) {
            double *trailing = l + k * ld;
            const double factor = column[k];
            for (size_t i = k / lanes * lanes; i < ld; i += lanes) {
                *(aligned_lane_vector *)__builtin_assume_aligned(trailing + i, sizeof(aligned_lane_vector)) =
                    load_aligned_lanes(trailing + i) - factor * load_aligned_lanes(column + i);
            }
        }
    }
    return 0;
}

LEARNING_VECTOR_CLONES
size_t learning_cholesky_upper(size_t n, double *a) {
    const size_t ld = (n + lanes - 1) / lanes * lanes;
    double stack[cholesky_stack_order * cholesky_stack_order] __attribute__((aligned(64)));
    double *l = n <= cholesky_stack_order ? stack : aligned_alloc(64, ld * n * sizeof(double));
    if (l == NULL) abort();
    // L = Uᵀ, column-major, so that every step works down contiguous columns: the upper triangle of a, transposed.
    // The rows a column's vectors reach above its diagonal, and the padding below the last row, start at zero.
    for (size_t j = 0; j < n; j++) {
        double *column = l + j * ld;
        for (size_t i = j / lanes * lanes; i < j; i++) column[i] = 0;
        for (size_t i = j; i < n; i++) column[i] = a[i * n + j];
        for (size_t i = n; i < ld; i++) column[i] = 0;
    }
    const size_t minor = cholesky_lower(n, ld, l);
    if (minor == 0) {
        for (size_t j = 0; j < n; j++) {
            for (size_t i = j; i < n; i++) a[i * n + j] = l[j * ld + i];
        }
    }
    if (l != stack) free(l);
    return minor;
}

LEARNING_VECTOR_CLONES
void learning_cholesky_solve_upper(size_t n, const double *u, double *b) {
    // Uᵀy = b, forward: yⱼ from the column of U above its diagonal and the y before it.
    for (size_t j = 0; j < n; j++) b[j] = (b[j] - dot(j, u + j * n, b)) / u[j * n + j];
    // Ux = y, backward, a column at a time: xⱼ, then its share taken from every y above it.
    for (size_t j = n; j-- > 0;) {
        const double *restrict column = u + j * n;
        const double x = b[j] / column[j];
        b[j] = x;
        for (size_t i = 0; i < j; i++) b[i] -= x * column[i];
    }
}

LEARNING_VECTOR_CLONES
void learning_standardize(
    size_t n, size_t m, const double *restrict x, const double *restrict means, const double *restrict scales,
    double *restrict z) {
    for (size_t j = 0; j < m; j++) {
        const double *restrict column = x + j * n;
        double *restrict output = z + j * n;
        const double mean = means[j], scale = scales[j];
        for (size_t i = 0; i < n; i++) output[i] = (column[i] - mean) / scale;
    }
}

LEARNING_VECTOR_CLONES
double learning_leave_one_out_error(
    size_t n, int covariance, const double *restrict target, const double *restrict fitted,
    const double *restrict ones, const double *restrict hat) {
    const double count = (double)n;
    double partial[lanes] = {0};
    const size_t whole = n - n % lanes;
    // The residual over its leverage, with scikit-learn's correction for the centred intercept.
    if (covariance) {
        for (size_t i = 0; i < whole; i += lanes) {
            for (size_t lane = 0; lane < lanes; lane++) {
                const size_t k = i + lane;
                const double error = (target[k] - fitted[k]) / (1 - hat[k] - (1 - ones[k]) / count);
                partial[lane] += error * error;
            }
        }
        for (size_t k = whole; k < n; k++) {
            const double error = (target[k] - fitted[k]) / (1 - hat[k] - (1 - ones[k]) / count);
            partial[k - whole] += error * error;
        }
    } else {
        for (size_t i = 0; i < whole; i += lanes) {
            for (size_t lane = 0; lane < lanes; lane++) {
                const size_t k = i + lane;
                const double error = fitted[k] / (hat[k] - ones[k] / count);
                partial[lane] += error * error;
            }
        }
        for (size_t k = whole; k < n; k++) {
            const double error = fitted[k] / (hat[k] - ones[k] / count);
            partial[k - whole] += error * error;
        }
    }
    return combine(partial) / count;
}

LEARNING_VECTOR_CLONES
void learning_impute(size_t n, size_t m, const double *restrict x, const double *restrict fill, double *restrict out) {
    for (size_t j = 0; j < m; j++) {
        const double *restrict column = x + j * n;
        double *restrict target = out + j * n;
        const double value = fill[j];
        // x != x only for NaN: a compare and a blend per lane.
        for (size_t i = 0; i < n; i++) target[i] = column[i] != column[i] ? value : column[i];
    }
}

void learning_level_starts(
    size_t count, const double *restrict zeroed, const double *restrict logged, double threshold, size_t minimum,
    size_t search, double minimum_deviation, double *restrict scratch, int32_t *restrict positions,
    int32_t *restrict starts) {
    double *restrict sums = scratch, *restrict squares = scratch + count + 1, *restrict inverse = scratch + 2 * (count + 1);
    sums[0] = squares[0] = inverse[0] = 0;
    for (size_t i = 1; i <= count; i++) inverse[i] = 1.0 / (double)i;
    const double floor = minimum_deviation * minimum_deviation, limit = threshold * threshold;
    size_t n = 0;
    int32_t start = 0;
    for (size_t t = 0; t < count; t++) {
        if (logged[t] > 0) {
            const double value = zeroed[t];
            positions[n] = (int32_t)t;
            sums[n + 1] = sums[n] + value;
            squares[n + 1] = squares[n] + value * value;
            n++;
            // Every split divides the same n values, so their total sum of squares T is the between-run part B
            // plus the within-run part, and z² = B / max((T − B) / (n − 2), floor) grows with B: the split of the
            // most standard errors is the one of the largest B = a b (mean_a − mean_b)² / n, found without the
            // deviation, which is computed once, for it.
            double best = 0;
            size_t split = 0;
            const size_t lowest = n > search && n - search > minimum ? n - search : minimum;
            const double total = sums[n];
            for (size_t k = n >= 2 * minimum ? n - minimum : 0; k >= lowest && k > 0; k--) {
                const double d = sums[k] * (double)(n - k) - (total - sums[k]) * (double)k;
                const double between = d * d * inverse[k] * inverse[n - k];
                if (between > best) {
                    best = between;
                    split = k;
                }
            }
            start = 0;
            if (split > 0) {
                const double between = best * inverse[n];
                const double spread = squares[n] - total * total * inverse[n] - between;
                const double pooled = spread * inverse[n - 2];
                if (between > limit * (pooled > floor ? pooled : floor)) start = positions[split];
            }
        }
        starts[t] = start;
    }
}

void learning_exponential_means(
    size_t count, const double *restrict zeroed, const double *restrict logged, double alpha,
    const int32_t *restrict starts, double *restrict out) {
    // A recurrence: each day depends on the one before, so there is nothing for vector lanes to share.
    const double keep = 1 - alpha;
    double weighted = 0, weights = 0;
    // Since a change of level: the same recurrence over the days from its start, carried on while the start
    // stays where it was and begun again where it moves.
    double since = 0, sinceWeights = 0;
    int32_t sinceStart = 0;
    for (size_t t = 0; t < count; t++) {
        if (logged[t] > 0) {
            weighted = keep * weighted + zeroed[t];
            weights = keep * weights + 1;
        }
        if (starts != NULL && starts[t] > 0) {
            if (starts[t] != sinceStart) {
                sinceStart = starts[t];
                since = sinceWeights = 0;
                for (size_t i = (size_t)sinceStart; i < t; i++) {
                    if (logged[i] > 0) {
                        since = keep * since + zeroed[i];
                        sinceWeights = keep * sinceWeights + 1;
                    }
                }
            }
            if (logged[t] > 0) {
                since = keep * since + zeroed[t];
                sinceWeights = keep * sinceWeights + 1;
            }
            out[t] = since / sinceWeights;
        } else {
            sinceStart = 0;
            out[t] = weights > 0 ? weighted / weights : (double)NAN;
        }
    }
}

LEARNING_VECTOR_CLONES
void learning_column_bounds(
    size_t n, size_t first, size_t end, size_t m, const double *restrict x, double *restrict lower,
    double *restrict upper) {
    const size_t count = end > first ? end - first : 0;
    const size_t whole = count - count % lanes;
    for (size_t j = 0; j < m; j++) {
        const double *restrict column = x + j * n + first;
        double low[lanes], high[lanes];
        for (size_t lane = 0; lane < lanes; lane++) {
            low[lane] = lower[j];
            high[lane] = upper[j];
        }
        for (size_t i = 0; i < whole; i += lanes) {
            for (size_t lane = 0; lane < lanes; lane++) {
                const double value = column[i + lane];
                low[lane] = value < low[lane] ? value : low[lane];
                high[lane] = value > high[lane] ? value : high[lane];
            }
        }
        for (size_t i = whole; i < count; i++) {
            const double value = column[i];
            low[0] = value < low[0] ? value : low[0];
            high[0] = value > high[0] ? value : high[0];
        }
        for (size_t lane = 1; lane < lanes; lane++) {
            low[0] = low[lane] < low[0] ? low[lane] : low[0];
            high[0] = high[lane] > high[0] ? high[lane] : high[0];
        }
        lower[j] = low[0];
        upper[j] = high[0];
    }
}

/// The mean of window [t + from, t + through] (clipped to the series) for one t, summed from its first index up.
static double window_mean(
    long count, const double *restrict zeroed, const double *restrict logged, long t, long from, long through) {
    const long lower = t + from > 0 ? t + from : 0;
    const long upper = t + through < count - 1 ? t + through : count - 1;
    double sum = 0, days = 0;
    for (long index = lower; index <= upper; index++) {
        sum += zeroed[index];
        days += logged[index];
    }
    return days > 0 ? sum / days : NAN;
}

LEARNING_VECTOR_CLONES
void learning_window_means(
    size_t count, const double *restrict zeroed, const double *restrict logged, long from, long through,
    double *restrict out) {
    const long n = (long)count;
    long t = 0;
    while (t < n) {
        // Eight consecutive days whose windows are whole: lane r's k-th value is at t + r + from + k, so one
        // vector addition adds the k-th value of all eight windows, each window still summed in its own order.
        if (t + from >= 0 && t + lanes - 1 + through <= n - 1 && t + (long)lanes <= n) {
            lane_vector sums = {0}, days = {0};
            for (long k = 0; k <= through - from; k++) {
                sums += load_lanes(zeroed + t + from + k);
                days += load_lanes(logged + t + from + k);
            }
            double sum[lanes], day[lanes];
            memcpy(sum, &sums, sizeof sum);
            memcpy(day, &days, sizeof day);
            for (size_t lane = 0; lane < lanes; lane++) out[t + lane] = day[lane] > 0 ? sum[lane] / day[lane] : NAN;
            t += lanes;
        } else {
            out[t] = window_mean(n, zeroed, logged, t, from, through);
            t += 1;
        }
    }
}

// glibc's vector math (libmvec), the variants of the x86-64 vector ABI: 8 lanes for AVX-512, 4 for AVX2.
#if defined(__x86_64__) && defined(__GLIBC__)
#include <immintrin.h>
#define LEARNING_VECTOR_MATH 1
__attribute__((target("avx512f"))) __m512d _ZGVeN8v_exp(__m512d);
__attribute__((target("avx512f"))) __m512d _ZGVeN8v_log1p(__m512d);
__attribute__((target("avx2"))) __m256d _ZGVdN4v_exp(__m256d);
__attribute__((target("avx2"))) __m256d _ZGVdN4v_log1p(__m256d);
#endif

/// The terms of rows i ..< end, one at a time, added to *loss: the scalar code, and every path's last rows.
static void logistic_terms_scalar(
    size_t i, size_t end, double *restrict eta, double shift, const double *restrict offset,
    const double *restrict labels, double *restrict probabilities, double *loss) {
    for (; i < end; i++) {
        const double value = offset ? eta[i] + (shift + offset[i]) : eta[i] + shift;
        eta[i] = value;
        const double e = exp(-fabs(value));
        probabilities[i] = value >= 0 ? 1 / (1 + e) : e / (1 + e);
        *loss += log1p(e) + (value > 0 ? value : 0.0) - labels[i] * value;
    }
}

#ifdef LEARNING_VECTOR_MATH
__attribute__((target("avx512f"))) static double logistic_terms_avx512(
    size_t n, double *restrict eta, double shift, const double *restrict offset, const double *restrict labels,
    double *restrict probabilities) {
    const __m512d one = _mm512_set1_pd(1), zero = _mm512_setzero_pd(), shifts = _mm512_set1_pd(shift);
    __m512d sums = zero;
    const size_t whole = n - n % 8;
    for (size_t i = 0; i < whole; i += 8) {
        const __m512d added = offset ? _mm512_add_pd(shifts, _mm512_loadu_pd(offset + i)) : shifts;
        const __m512d value = _mm512_add_pd(_mm512_loadu_pd(eta + i), added);
        _mm512_storeu_pd(eta + i, value);
        const __m512d e = _ZGVeN8v_exp(_mm512_sub_pd(zero, _mm512_abs_pd(value)));
        const __m512d denominator = _mm512_add_pd(one, e);
        const __mmask8 negative = _mm512_cmp_pd_mask(value, zero, _CMP_LT_OQ);
        const __m512d numerator = _mm512_mask_blend_pd(negative, one, e);
        _mm512_storeu_pd(probabilities + i, _mm512_div_pd(numerator, denominator));
        const __m512d term = _mm512_sub_pd(
            _mm512_add_pd(_ZGVeN8v_log1p(e), _mm512_max_pd(value, zero)),
            _mm512_mul_pd(_mm512_loadu_pd(labels + i), value));
        sums = _mm512_add_pd(sums, term);
    }
    double partial[8];
    _mm512_storeu_pd(partial, sums);
    double loss = combine(partial);
    logistic_terms_scalar(whole, n, eta, shift, offset, labels, probabilities, &loss);
    return loss;
}

__attribute__((target("avx2,fma"))) static double logistic_terms_avx2(
    size_t n, double *restrict eta, double shift, const double *restrict offset, const double *restrict labels,
    double *restrict probabilities) {
    const __m256d one = _mm256_set1_pd(1), zero = _mm256_setzero_pd(), shifts = _mm256_set1_pd(shift);
    const __m256d sign = _mm256_set1_pd(-0.0);
    __m256d sums = zero;
    const size_t whole = n - n % 4;
    for (size_t i = 0; i < whole; i += 4) {
        const __m256d added = offset ? _mm256_add_pd(shifts, _mm256_loadu_pd(offset + i)) : shifts;
        const __m256d value = _mm256_add_pd(_mm256_loadu_pd(eta + i), added);
        _mm256_storeu_pd(eta + i, value);
        const __m256d e = _ZGVdN4v_exp(_mm256_or_pd(value, sign));  // e^−|η|
        const __m256d negative = _mm256_cmp_pd(value, zero, _CMP_LT_OQ);
        const __m256d numerator = _mm256_blendv_pd(one, e, negative);
        _mm256_storeu_pd(probabilities + i, _mm256_div_pd(numerator, _mm256_add_pd(one, e)));
        const __m256d term = _mm256_sub_pd(
            _mm256_add_pd(_ZGVdN4v_log1p(e), _mm256_max_pd(value, zero)),
            _mm256_mul_pd(_mm256_loadu_pd(labels + i), value));
        sums = _mm256_add_pd(sums, term);
    }
    double partial[4];
    _mm256_storeu_pd(partial, sums);
    double loss = (partial[0] + partial[1]) + (partial[2] + partial[3]);
    logistic_terms_scalar(whole, n, eta, shift, offset, labels, probabilities, &loss);
    return loss;
}
#endif

double learning_logistic_terms(
    size_t n, double *restrict eta, double shift, const double *restrict offset, const double *restrict labels,
    double *restrict probabilities) {
    return learning_logistic_terms_in_lanes(8, n, eta, shift, offset, labels, probabilities);
}

double learning_logistic_terms_in_lanes(
    size_t lanes, size_t n, double *restrict eta, double shift, const double *restrict offset,
    const double *restrict labels, double *restrict probabilities) {
#ifdef LEARNING_VECTOR_MATH
    if (lanes >= 8 && __builtin_cpu_supports("avx512f")) {
        return logistic_terms_avx512(n, eta, shift, offset, labels, probabilities);
    }
    if (lanes >= 4 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        return logistic_terms_avx2(n, eta, shift, offset, labels, probabilities);
    }
#endif
    double loss = 0;
    logistic_terms_scalar(0, n, eta, shift, offset, labels, probabilities, &loss);
    return loss;
}
