/* The suite's plan parser: the embedded plans, every key, and errors that
 * name the file, line and key. */
#include <string.h>

#include "suite/suite.h"
#include "tests/unit/unit.h"

static int parse(const char *text, char *err, size_t len)
{
	struct suite_plan p;
	int rc = suite_plan_parse_string(&p, text, "t.plan", err, len);
	suite_plan_free(&p);
	return rc;
}

static void expect_error(const char *text, const char *where, const char *what)
{
	char err[1024] = "";
	int rc = parse(text, err, sizeof(err));
	if (rc >= 0 || !strstr(err, where) || (what && !strstr(err, what))) {
		fprintf(stderr, "plan:\n%s\nerror: %s\nwanted '%s' and '%s'\n", text, err, where,
			what ? what : "");
		exit(1);
	}
}

static void test_default_plans(void)
{
	struct suite_plan p;
	char err[512];
	CHECK(suite_plan_parse_string(&p, suite_default_plan, "(default plan)", err, sizeof(err)) ==
	      0);
	CHECK_EQ(p.nw, 2); /* the boot and the build */
	CHECK(!strcmp(p.w[0].name, "boot") && !strcmp(p.w[1].name, "compile"));
	CHECK_EQ(p.nqd, 3);
	CHECK(!strcmp(p.qd[0], "original") && !strcmp(p.qd[1], "1") && !strcmp(p.qd[2], "32"));
	CHECK_EQ(p.ndata, 2);
	CHECK(!strcmp(p.data[1], "ratio:2"));
	CHECK_EQ(p.nstates, 2);
	CHECK(p.states[0] == SUITE_STATE_EMPTY && p.states[1] == SUITE_STATE_FULL);
	CHECK_EQ(p.repeats, 3);
	CHECK(p.timing[0].afap);
	suite_plan_free(&p);
	CHECK(suite_plan_parse_string(&p, suite_quick_plan, "(quick plan)", err, sizeof(err)) == 0);
	CHECK_EQ(p.nw, 1);
	suite_plan_free(&p);
}

static void test_full_plan(void)
{
	const char *text = "; a comment\n"
			   "[global]\n"
			   "qd = original, 4, x2   ; inline comment\n"
			   "data=zero,random,ratio:4\n"
			   "timing=original,afap,speed:2.5\n"
			   "max-idle=0.5\n"
			   "states=steady,empty\n"
			   "repeats=5\n"
			   "min-busy=2\n"
			   "max-cv=15\n"
			   "issue-error-limit=500\n"
			   "alpha=0.01\n"
			   "fill=1.5\n"
			   "steady-rounds=10\n"
			   "steady-stimulus=boot\n"
			   "engine=io_uring\n"
			   "fit=scale\n"
			   "[app]\ntrace=app.reel\n"
			   "[boot]\ntrace=/abs/boot.reel\n";
	struct suite_plan p;
	char err[512];
	int rc = suite_plan_parse_string(&p, text, "t.plan", err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "%s\n", err);
	CHECK(rc == 0);
	CHECK_EQ(p.nqd, 3);
	CHECK(!strcmp(p.qd[2], "x2"));
	CHECK_EQ(p.ntiming, 3);
	CHECK(!p.timing[0].afap && p.timing[1].afap && p.timing[2].speed == 2.5);
	CHECK(p.max_idle_s == 0.5 && p.repeats == 5 && p.min_busy_s == 2);
	CHECK(p.max_cv > 0.149 && p.max_cv < 0.151);
	CHECK(p.issue_error_limit_us == 500 && p.alpha == 0.01 && p.fill_factor == 1.5);
	CHECK(p.steady_rounds == 10 && !strcmp(p.steady_stimulus, "boot"));
	CHECK(!strcmp(p.engine, "io_uring") && !strcmp(p.fit, "scale"));
	CHECK(p.states[0] == SUITE_STATE_STEADY && p.nstates == 2);
	CHECK_EQ(p.nw, 2);
	CHECK(!strcmp(p.w[1].name, "boot") && !strcmp(p.w[1].trace, "/abs/boot.reel"));
	CHECK_EQ(p.w[1].line, 21);
	suite_plan_free(&p);
}

static void test_errors(void)
{
	expect_error("[global]\nqd=1\nbogus=3\n[a]\ntrace=a.reel\n", "t.plan:3:", "bogus");
	expect_error("[global]\nqd=0\n[a]\ntrace=a.reel\n", "t.plan:2:", "qd");
	expect_error("[global]\nqd=1,,2\n[a]\ntrace=a.reel\n", "t.plan:2:", "qd");
	expect_error("[global]\ndata=ratio:0.5\n[a]\ntrace=a.reel\n", "t.plan:2:", "data");
	expect_error("[global]\ntiming=slow\n[a]\ntrace=a.reel\n", "t.plan:2:", "timing");
	expect_error("[global]\nstates=empty,dirty\n[a]\ntrace=a.reel\n", "t.plan:2:", "dirty");
	expect_error("[global]\nstates=empty,empty\n[a]\ntrace=a.reel\n", "t.plan:2:", "twice");
	expect_error("[global]\nrepeats=1\n[a]\ntrace=a.reel\n", "t.plan:2:", "repeats");
	expect_error("[global]\nrepeats=2.5\n[a]\ntrace=a.reel\n", "t.plan:2:", "repeats");
	expect_error("[global]\nalpha=nan\n[a]\ntrace=a.reel\n", "t.plan:2:", "alpha");
	expect_error("[global]\nmin-busy=1e400\n[a]\ntrace=a.reel\n", "t.plan:2:", "min-busy");
	expect_error("[global]\nengine=spdk\n[a]\ntrace=a.reel\n", "t.plan:2:", "engine");
	expect_error("[a]\ntrace=a.reel\nqd=1\n", "t.plan:3:", "'qd' in [a]");
	expect_error("[a]\ntrace=a.reel\n[b]\ntrace=b.reel\n[a]\ntrace=c.reel\n",
		     "t.plan:6:", "twice");
	expect_error("[a]\ntrace=a.reel\n[b]\n\n[a]\ntrace=c.reel\n", "t.plan:6:", "twice");
	expect_error("qd=1\n[a]\ntrace=a.reel\n", "t.plan:1:", "before any section");
	expect_error("[global]\nqd=1\n", "t.plan", "no trace");
	expect_error("[global]\nthis line is junk\n[a]\ntrace=a.reel\n", "t.plan:2:", NULL);
	expect_error("[global\n[a]\ntrace=a.reel\n", "t.plan:1:", NULL);
	expect_error("[a b]\ntrace=a.reel\n", "t.plan:2:", "section name");
	expect_error("[global]\nsteady-stimulus=zz\n[a]\ntrace=a.reel\n", "t.plan", "zz");
	/* the first error wins, also when a syntax error follows */
	expect_error("[global]\nqd=0\njunk\n[a]\ntrace=a.reel\n", "t.plan:2:", "qd");
	expect_error("[global]\njunk\nqd=0\n[a]\ntrace=a.reel\n", "t.plan:2:", NULL);
}

static void test_file(void)
{
	char dir[] = "/tmp/suite-plan-XXXXXX", path[256], reel[256], err[1024];
	CHECK(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/p.plan", dir);
	snprintf(reel, sizeof(reel), "%s/x.reel", dir);
	FILE *f = fopen(path, "w");
	CHECK(f);
	fprintf(f, "[x]\ntrace=x.reel\n");
	fclose(f);
	struct suite_plan p;
	CHECK(suite_plan_parse_file(&p, path, err, sizeof(err)) == 0);
	CHECK(suite_plan_resolve(&p, err, sizeof(err)) < 0); /* x.reel absent */
	CHECK(strstr(err, "p.plan:2:") && strstr(err, "x.reel"));
	f = fopen(reel, "w");
	CHECK(f);
	fclose(f);
	CHECK(suite_plan_resolve(&p, err, sizeof(err)) == 0);
	CHECK(!strcmp(p.w[0].trace, reel));
	suite_plan_free(&p);
	CHECK(suite_plan_parse_file(&p, "/nonexistent/plan", err, sizeof(err)) < 0);
	CHECK(strstr(err, "/nonexistent/plan"));
	unlink(reel);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	test_default_plans();
	test_full_plan();
	test_errors();
	test_file();
	return 0;
}
