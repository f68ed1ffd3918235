/*
 * test_model_hazard: devclock_hazard (gen_internal.h), pick_device's
 * hazard of a device from the stretches of its gap CDF kept between
 * arrivals (cdf_piece), gives the bits the search at every arrival gave
 * (a plain copy of that code below: cdf_find from the knot of the last
 * look, cdf_sum, the hazard's expression), on random CDFs (point masses,
 * flat stretches, one knot, none, no mean) under random ages (growing,
 * back to 0, ticks of a hair to most of the knots' span), and on the
 * model of disksim's public trace (16 devices; fitted here when $IOREEL
 * and $SHARED have it): each arrival's 16 hazards, and the device drawn
 * from them, over 200k arrivals at --rate 1, 200 and 1429.  And
 * gen_dev_weights (pick_device's weights: hazard, share's push, op bias)
 * from AVX2's rows (gen_dev_lanes) against one device at a time, bit for
 * bit: random models of 1-9 and 16 devices (lanes past the last, devices
 * without a CDF or a mean, survival under 1e-9 past the last knot, op
 * biases), and disksim's model at those rates with random ops.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

/* ---- the plain copy: the search at every arrival ---- */
struct cdf_at {
	double x, v0, v1, c0, c1;
};

static size_t cdf_find(const struct model_dist *d, double x, size_t lo, struct cdf_at *p)
{
	size_t n = d->nk, hi = lo + 1;
	*p = (struct cdf_at){x, 0, 1, 0, 0};
	if (x < d->v[0])
		return lo;
	if (x >= d->v[n - 1]) {
		p->c0 = p->c1 = 1;
		return n - 1;
	}
	for (size_t step = 1; hi < n && d->v[hi] <= x; step *= 2) {
		lo = hi;
		hi += step;
	}
	hi = hi < n ? hi : n;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (d->v[mid] <= x)
			lo = mid;
		else
			hi = mid;
	}
	if (d->v[lo + 1] - d->v[lo] > 0)
		*p = (struct cdf_at){x, d->v[lo], d->v[lo + 1], d->c[lo], d->c[lo + 1]};
	else
		p->c0 = p->c1 = d->c[lo + 1];
	return lo;
}

static double cdf_sum(const struct cdf_at *p)
{
	return p->c0 + (p->c1 - p->c0) * (p->x - p->v0) / (p->v1 - p->v0);
}

struct ref_clock {
	double mean;
	size_t knot, knot_hi;
};

static double ref_hazard(struct ref_clock *c, const struct model_dist *gp, double a, double dt)
{
	struct cdf_at lo = {0, 0, 1, 0, 0}, hi = lo;
	if (isfinite(c->mean) && gp->nk) {
		size_t j = c->knot < gp->nk && gp->v[c->knot] <= a - dt / 2 ? c->knot : 0;
		c->knot = cdf_find(gp, a - dt / 2, j, &lo);
		j = c->knot_hi > c->knot && gp->v[c->knot_hi] <= a + dt / 2 ? c->knot_hi : c->knot;
		c->knot_hi = cdf_find(gp, a + dt / 2, j, &hi);
	}
	double t0 = cdf_sum(&lo), t1 = cdf_sum(&hi), surv = 1 - t0;
	double hz = (t1 - t0) / (surv * dt);
	if (!isfinite(c->mean))
		hz = 0;
	else if (!gp->nk || surv <= 1e-9)
		hz = 1 / c->mean;
	return hz;
}

static int same(double a, double b) { return !memcmp(&a, &b, sizeof(a)); }

static uint64_t rs = 0x4a7a4d;
static double urand(void) { return unit_urand(&rs); }

/* A random CDF of N knots over about SPAN: point masses (a knot repeated),
 * flat stretches (a cumulative repeated), from 0 to 1. */
static void random_cdf(struct model_dist *d, uint32_t n, double span)
{
	memset(d, 0, sizeof(*d));
	if (!(d->nk = n))
		return;
	double v = urand() < 0.3 ? 0 : urand() * span / 4, c = 0;
	for (uint32_t k = 0; k < n; k++) {
		if (k && urand() >= 0.2)
			v += urand() * 2 * span / n;
		if (k && urand() >= 0.2)
			c += urand();
		d->v[k] = v;
		d->c[k] = c;
	}
	for (uint32_t k = 0; k < n; k++)
		d->c[k] = c > 0 ? d->c[k] / c : k + 1 == n;
	d->c[n - 1] = 1;
}

static void test_random(void)
{
	static const uint32_t ns[] = {0, 1, 2, 3, 5, 37, 120, MODEL_DIST_MAXK};
	for (int round = 0; round < 4000; round++) {
		struct model_dist d;
		double span = urand() < 0.5 ? 1e6 : 100;
		random_cdf(&d, ns[round % 8], span);
		struct devclock c = {0};
		struct ref_clock r = {0};
		c.mean = r.mean = urand() < 0.05 ? INFINITY : span / 3;
		double dt = span * (round % 3 == 0 ? 1e-4 : round % 3 == 1 ? 0.05 : 0.9);
		double grow = span * (urand() < 0.5 ? 0.003 : 0.05), a = urand() * span;
		for (int i = 0; i < 500; i++) {
			double hn = devclock_hazard(&c, &d, a, dt), hr = ref_hazard(&r, &d, a, dt);
			if (!same(hn, hr)) {
				fprintf(stderr,
					"round %d step %d: a %.17g dt %.17g: %.17g != %.17g\n",
					round, i, a, dt, hn, hr);
				exit(1);
			}
			/* the device drawn (its age back to 0) or not; now and
			 * then a jump past its knots, or a tick's end onto one
			 * exactly (a stretch's end: the next one's start) */
			double u = urand(), v = d.nk ? d.v[(size_t)(urand() * d.nk)] : 0;
			a = u < 1.0 / 16 ? 0
			    : u < 0.08	 ? v + (u < 0.07 ? dt / 2 : -dt / 2)
			    : u < 0.09	 ? a + span * 3
					 : a + urand() * grow;
		}
	}
}

/* Two clocks of M's devices: CP weighed one device at a time, CS with
 * AVX2 from the rows L (NULL without it: then both one at a time). */
struct both {
	struct devclock cp[MODEL_MAX_DEVS], cs[MODEL_MAX_DEVS];
	struct devlanes *l;
};

/* One arrival at X weighed both ways: the same bits, the op biases' sums
 * too; 1, or 0 with the device that differs in *BAD. */
static int weigh_both(const struct model *m, struct both *b, double x, double dt, double count,
		      int op, size_t *bad)
{
	double hp[MODEL_MAX_DEVS], hs[MODEL_MAX_DEVS];
	gen_dev_weights(m, b->cp, NULL, x, dt, count, op, hp);
	gen_dev_weights(m, b->cs, b->l, x, dt, count, op, hs);
	for (size_t k = 0; k < m->ndevs; k++)
		if (!same(hp[k], hs[k]) || !same(b->cp[k].bias_sum, b->cs[k].bias_sum)) {
			fprintf(stderr, "device %zu: %.17g != %.17g\n", k, hp[k], hs[k]);
			*bad = k;
			return 0;
		}
	return 1;
}

static void drawn_both(struct both *b, size_t d, double x)
{
	gen_dev_drawn(b->cp, NULL, d, x);
	gen_dev_drawn(b->cs, b->l, d, x);
}

static int any_op(void)
{
	return urand() < 0.4 ? REEL_OP_WRITE : urand() < 0.1 ? REEL_OP_FLUSH : REEL_OP_READ;
}

/* Set when gen_dev_lanes gives none (no AVX2): said on the last line. */
static int no_lanes;

/* gen_dev_weights with AVX2 against one device at a time: models of 1-9
 * and 16 devices (past the vectors' 4 and not a multiple of them) of
 * random CDFs, some without knots or a mean, op biases on some; ages
 * that grow, go back to 0 for the device drawn, jump past the knots. */
static void test_weights(void)
{
	static const uint32_t ns[] = {0, 1, 2, 3, 5, 37, 120, MODEL_DIST_MAXK};
	struct model *m = calloc(1, sizeof(*m));
	CHECK(m && (m->devs = calloc(16, sizeof(*m->devs))));
	long compared = 0;
	for (int round = 0; round < 300; round++) {
		size_t nd = round % 10 < 9 ? (size_t)(round % 10) + 1 : 16;
		double span = urand() < 0.5 ? 1e6 : 100;
		double dt = span * (round % 3 == 0 ? 1e-4 : round % 3 == 1 ? 0.05 : 0.9);
		static struct both b;
		memset(&b, 0, sizeof(b));
		m->ndevs = nd;
		for (size_t k = 0; k < nd; k++) {
			struct model_devspace *d = &m->devs[k];
			random_cdf(&d->gap, ns[(size_t)(urand() * 8)], span);
			d->share = urand() / (double)nd;
			d->op_bias_fitted = urand() < 0.3;
			d->op_bias[0] = (float)(urand() * 2);
			d->op_bias[1] = (float)(urand() * 2);
			b.cp[k].mean = urand() < 0.1 ? INFINITY : span / 3;
			b.cp[k].last = isfinite(b.cp[k].mean) ? -urand() * b.cp[k].mean : -INFINITY;
		}
		memcpy(b.cs, b.cp, sizeof(b.cp));
		if (!(b.l = gen_dev_lanes(m, b.cs))) {
			no_lanes = 1;
			break;
		}
		double x = 0;
		for (int i = 0; i < 2000; i++, compared += (long)nd) {
			size_t bad;
			if (!weigh_both(m, &b, x, dt, (double)(i + 1), any_op(), &bad)) {
				fprintf(stderr, "round %d step %d device %zu\n", round, i, bad);
				exit(1);
			}
			drawn_both(&b, (size_t)(urand() * (double)nd), x);
			double u = urand();
			x += u < 0.01 ? span * 3 : urand() * span * (u < 0.5 ? 0.003 : 0.05);
		}
		free(b.l);
	}
	printf("%ld weights the same both ways\n", compared);
	free(m->devs);
	free(m);
}

/* pick_device's draw from each arrival's hazards, both ways (the share's
 * push as it has it; no op bias: its code did not change); and each
 * arrival's weights (gen_dev_weights) with AVX2 and one device at a time,
 * ops drawn at random (disksim's disk 8 has an op bias). */
static void test_model(const struct model *m)
{
	static const double rates[] = {1, 200, 1429};
	size_t nd = m->ndevs;
	CHECK(nd > 1);
	for (int ri = 0; ri < 3; ri++) {
		double dt = (double)m->quantum_ns * rates[ri], x = 0;
		double gap = (double)m->duration_ns / (double)m->count;
		struct devclock c[MODEL_MAX_DEVS] = {{0}};
		static struct both b;
		struct ref_clock r[MODEL_MAX_DEVS] = {{0}};
		double last[MODEL_MAX_DEVS];
		uint64_t n[MODEL_MAX_DEVS] = {0}, moved = 0;
		for (size_t k = 0; k < nd; k++) {
			double dn = m->devs[k].share * (double)m->count; /* dev_clocks' */
			c[k].mean = r[k].mean = m->devs[k].gap.nk ? m->devs[k].gap.mean
						: dn >= 1	  ? (double)m->duration_ns / dn
								  : INFINITY;
			last[k] = isfinite(c[k].mean) ? -urand() * c[k].mean : -INFINITY;
		}
		memcpy(b.cp, c, sizeof(c));
		for (size_t k = 0; k < nd; k++)
			b.cp[k].last = last[k];
		memcpy(b.cs, b.cp, sizeof(b.cp));
		b.l = gen_dev_lanes(m, b.cs);
		for (uint64_t i = 0; i < 200000; i++) {
			size_t bad;
			CHECK(weigh_both(m, &b, x, dt, (double)(i + 1), any_op(), &bad));
			double hn[MODEL_MAX_DEVS], hr[MODEL_MAX_DEVS], tn = 0, tr = 0;
			for (size_t k = 0; k < nd; k++) {
				const struct model_dist *gp = &m->devs[k].gap;
				double want = m->devs[k].share * (double)(i + 1);
				double f = (want + 4) / ((double)n[k] + 4);
				hn[k] = devclock_hazard(&c[k], gp, x - last[k], dt) * f;
				hr[k] = ref_hazard(&r[k], gp, x - last[k], dt) * f;
				CHECK(same(hn[k], hr[k]));
				tn += hn[k];
				tr += hr[k];
			}
			double u = urand();
			size_t dn = 0, dr = 0;
			for (double s = 0; dn + 1 < nd && !(u * tn < (s += hn[dn]));)
				dn++;
			for (double s = 0; dr + 1 < nd && !(u * tr < (s += hr[dr]));)
				dr++;
			CHECK_EQ(dn, dr);
			moved += dn != 0;
			last[dn] = x;
			n[dn]++;
			drawn_both(&b, dn, x);
			x += -log(1 - urand()) * gap;
		}
		free(b.l);
		CHECK(moved > 100000); /* the draw spread over the devices */
	}
}

static char tmpdir[] = "/tmp/ioreel-test-hazard.XXXXXX";

int main(void)
{
	test_random();
	test_weights();
	const char *io = getenv("IOREEL"), *shared = getenv("SHARED");
	char tr[600], cmd[2000];
	snprintf(tr, sizeof(tr), "%s/traces/public/disksim/tpcc-small.trace", shared ? shared : "");
	if (!io || !shared || access(io, X_OK) || access(tr, R_OK))
		SKIP("%s", no_lanes ? "no $IOREEL or disksim's trace (random CDFs passed; no AVX2: "
				      "lanes not compared)"
				    : "no $IOREEL or disksim's trace (random CDFs passed)");
	CHECK(mkdtemp(tmpdir));
	snprintf(cmd, sizeof(cmd),
		 "'%s' import -q --from disksim --time-unit ns '%s' -o %s/d.reel && "
		 "'%s' model fit %s/d.reel -o %s/d.json >/dev/null 2>&1",
		 io, tr, tmpdir, io, tmpdir, tmpdir);
	CHECK_EQ(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/d.json", tmpdir);
	FILE *f = fopen(cmd, "rb");
	CHECK(f);
	static char text[1 << 22];
	size_t len = fread(text, 1, sizeof(text), f);
	fclose(f);
	CHECK(len > 0 && len < sizeof(text));
	struct model *m = calloc(1, sizeof(*m));
	char err[256];
	CHECK(m && model_read_json(m, text, len, err, sizeof(err)) == 0);
	CHECK_EQ(m->ndevs, 16);
	test_model(m);
	model_free(m);
	free(m);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	CHECK_EQ(system(cmd), 0);
	if (no_lanes) /* the last line, which run.sh shows */
		printf(
		    "no AVX2 here: the weights' lanes not compared (one device at a time only)\n");
	return 0;
}
