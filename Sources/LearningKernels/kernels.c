#include "LearningKernels.h"

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

enum { block_rows = 8, block_penalties = 4 };

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
