#include "check/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* The exact distribution is counted up to this many values in all. */
#define EXACT_MAX 24

static int
dblcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void
mr_st_sort(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, dblcmp);
}

double
mr_st_median(double *v, int n)
{
	mr_st_sort(v, n);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Number of arrangements of na a's and nb b's with U = u, for every u in
 * 0..na*nb, into cnt (na*nb + 1 entries): f(m, n, u) = f(m-1, n, u-n) +
 * f(m, n-1, u), the largest value being an a (beating all n b's) or a b. */
static void
u_counts(int na, int nb, double *cnt)
{
	int stride = na * nb + 1, m, n, u;
	double *f = ecalloc((size_t)(na + 1) * (nb + 1) * stride, sizeof *f);

#define F(m, n, u) f[((size_t)(m) * (nb + 1) + (n)) * stride + (u)]
	for (m = 0; m <= na; m++) {
		for (n = 0; n <= nb; n++) {
			if (m == 0 || n == 0) {
				F(m, n, 0) = 1;
				continue;
			}
			for (u = 0; u <= m * n; u++)
				F(m, n, u) = (u >= n ? F(m - 1, n, u - n) : 0) +
					     (u <= (m) * (n - 1) ? F(m, n - 1, u) : 0);
		}
	}
	memcpy(cnt, &F(na, nb, 0), sizeof *cnt * stride);
#undef F
	free(f);
}

static double
choose(int n, int k)
{
	double c = 1;
	int i;

	for (i = 1; i <= k; i++)
		c = c * (n - k + i) / i;
	return c;
}

double
mr_st_mwu_min_p(int na, int nb)
{
	double p = 2 / choose(na + nb, na);

	return p > 1 ? 1 : p;
}

int
mr_st_enough(int na, int nb, double alpha)
{
	return na > 0 && nb > 0 && mr_st_mwu_min_p(na, nb) < alpha;
}

double
mr_st_mwu_p(const double *a, int na, const double *b, int nb)
{
	int n = na + nb, i, j, ties = 0;
	double *v = emalloc(sizeof *v * n), *rank = emalloc(sizeof *rank * n);
	int *from_a = emalloc(sizeof *from_a * n), *idx = emalloc(sizeof *idx * n);
	double ra = 0, u, mu, tie = 0, sd, p;

	/* Sort the pooled values by index (insertion sort: n is small). */
	for (i = 0; i < n; i++) {
		v[i] = i < na ? a[i] : b[i - na];
		from_a[i] = i < na;
		idx[i] = i;
	}
	for (i = 1; i < n; i++) {
		int t = idx[i];

		for (j = i; j > 0 && v[idx[j - 1]] > v[t]; j--)
			idx[j] = idx[j - 1];
		idx[j] = t;
	}
	for (i = 0; i < n; i = j) {
		double mid;
		int k;

		for (j = i + 1; j < n && v[idx[j]] == v[idx[i]]; j++)
			;
		mid = (i + 1 + j) / 2.0; /* mean of ranks i+1..j */
		for (k = i; k < j; k++)
			rank[idx[k]] = mid;
		if (j - i > 1) {
			int na_in = 0;

			for (k = i; k < j; k++)
				na_in += from_a[idx[k]];
			/* ties within one sample leave U as it is; only ties
			 * across the samples need the approximation */
			ties |= na_in > 0 && na_in < j - i;
			tie += pow(j - i, 3) - (j - i);
		}
	}
	for (i = 0; i < n; i++)
		if (from_a[i])
			ra += rank[i];
	u = ra - na * (na + 1) / 2.0;
	free(v);
	free(rank);
	free(from_a);
	free(idx);

	if (!ties && n <= EXACT_MAX) {
		int nu = na * nb + 1, k = (int)lround(u);
		double *cnt = emalloc(sizeof *cnt * nu), total = 0, lo = 0, hi = 0;

		u_counts(na, nb, cnt);
		for (i = 0; i < nu; i++) {
			total += cnt[i];
			if (i <= k)
				lo += cnt[i];
			if (i >= k)
				hi += cnt[i];
		}
		free(cnt);
		p = 2 * fmin(lo, hi) / total;
		return p > 1 ? 1 : p;
	}
	mu = na * (double)nb / 2;
	sd = sqrt(na * (double)nb / 12 * ((n + 1) - tie / ((double)n * (n - 1))));
	if (sd == 0)
		return 1; /* every value equal */
	p = erfc(fmax(fabs(u - mu) - 0.5, 0) / sd / sqrt(2));
	return p > 1 ? 1 : p;
}

/* Median of m[lo..hi-1] (hi > lo). */
static double
seg_median(const double *m, int lo, int hi)
{
	double *v = emalloc(sizeof *v * (hi - lo)), x;

	memcpy(v, m + lo, sizeof *v * (hi - lo));
	x = mr_st_median(v, hi - lo);
	free(v);
	return x;
}

/* The sum of |m[i] - med| over [lo, hi). */
static double
seg_cost(const double *m, int lo, int hi, double med)
{
	double c = 0;
	int i;

	for (i = lo; i < hi; i++)
		c += fabs(m[i] - med);
	return c;
}

int
mr_st_steps(const double *m, int n,
	    double (*threshold)(double level, void *ctx),
	    int (*enough)(int lo, int at, int hi, void *ctx), void *ctx,
	    struct mr_st_step *steps, int max)
{
	/* Segments still to search, as [lo, hi) pairs: at most one per value. */
	int *stack = emalloc(sizeof *stack * 2 * (n + 1)), sp = 0, found = 0, i, j;

	stack[sp++] = 0;
	stack[sp++] = n;
	while (sp > 0 && found < max) {
		int hi = stack[--sp], lo = stack[--sp], best = -1;
		double shift = 0, before = 0, after = 0, cost = 0;

		for (i = lo + 1; i < hi; i++) {
			double l = seg_median(m, lo, i), r = seg_median(m, i, hi);
			/* of equal shifts the split that leaves each side closest to
			 * its median: in a, a, b, b, b every split up to the third
			 * has medians b - a apart, the second alone leaves none
			 * (the others would be found as steps again) */
			double c = seg_cost(m, lo, i, l) + seg_cost(m, i, hi, r);
			int tie = best >= 0 && fabs(r - l) == shift && c < cost;

			if (enough && !enough(lo, i, hi, ctx))
				continue;
			if (best < 0 || fabs(r - l) > shift || tie) {
				best = i;
				cost = c;
				shift = fabs(r - l);
				before = l;
				after = r;
			}
		}
		if (best < 0 || !(shift > threshold(before, ctx)))
			continue;
		steps[found].at = best;
		steps[found].before = before;
		steps[found].after = after;
		found++;
		stack[sp++] = lo;
		stack[sp++] = best;
		stack[sp++] = best;
		stack[sp++] = hi;
	}
	free(stack);
	/* Order by index (insertion sort: few steps). */
	for (i = 1; i < found; i++) {
		struct mr_st_step t = steps[i];

		for (j = i; j > 0 && steps[j - 1].at > t.at; j--)
			steps[j] = steps[j - 1];
		steps[j] = t;
	}
	return found;
}

double
mr_st_min_change(const char *metric, double level)
{
	static const struct {
		const char *suffix;
		double rel, abs;
	} cls[] = {
		{ "_kb", 0.03, 1024 },
		{ "_ms", 0.10, 30 },
		{ "", 0.10, 100 },
	};
	size_t n = strlen(metric), i, nc = sizeof cls / sizeof *cls;

	for (i = 0; i < nc - 1; i++) {
		size_t m = strlen(cls[i].suffix);

		if (n >= m && !strcmp(metric + n - m, cls[i].suffix))
			break;
	}
	return fmax(cls[i].rel * fabs(level), cls[i].abs);
}
