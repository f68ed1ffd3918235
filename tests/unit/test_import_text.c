/*
 * The text importers' shared helpers: exact decimal parsing of times,
 * strict integers, field splitting, and the detectors on samples that look
 * alike (each CSV flavour is claimed by its own importer only), and the
 * one line reader (ti_lines) that every text importer and blkparse use.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "formats/text_import.h"
#include "tests/unit/unit.h"

extern const struct reel_importer reel_imp_msr, reel_imp_spc, reel_imp_fiu, reel_imp_disksim,
    reel_imp_alibaba, reel_imp_tencent, reel_imp_fio;

static int64_t dec(const char *s, int64_t scale)
{
	int64_t v = -42;
	CHECK(ti_dec(s, scale, &v) == 0);
	return v;
}

static const char *best(const char *sample)
{
	const struct reel_importer *all[] = {
	    &reel_imp_msr,     &reel_imp_spc,	  &reel_imp_fiu, &reel_imp_disksim,
	    &reel_imp_alibaba, &reel_imp_tencent, &reel_imp_fio};
	const char *name = "none";
	int top = 0;
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		int s = all[i]->detect((const unsigned char *)sample, strlen(sample), "x");
		if (s > top) {
			top = s;
			name = all[i]->name;
		}
	}
	return name;
}

/* Lines come back without their endings (LF or CRLF), with their length
 * (NUL bytes included); a last line without LF counts; a line too long for
 * the buffer comes back cut, flagged, and the next line is intact. */
static void test_line_reader_splits_and_counts(void)
{
	char path[] = "/tmp/ioreel-ti-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("one\ntwo\r\n\n", f);
	fputc('a', f);
	fputc(0, f);
	fputs("b\n", f);
	for (int i = 0; i < 3 * TI_LINE_MAX; i++)
		fputc('x', f);
	fputs("\nlast", f);
	fclose(f);
	struct reel_import_stats st = {0};
	char err[256] = "";
	struct ti_lines l;
	char *line;
	size_t len;
	CHECK(ti_lines_init(&l, &st, err, sizeof(err)) == 0);
	CHECK(ti_lines_open(&l, "/nonexistent/ioreel") == REEL_E_IO && strstr(err, "cannot open"));
	CHECK(ti_lines_open(&l, path) == 0);
	CHECK(ti_lines_next(&l, &line, &len) == 1 && !strcmp(line, "one") && len == 3);
	CHECK(ti_lines_next(&l, &line, &len) == 1 && !strcmp(line, "two") && len == 3);
	CHECK(ti_lines_next(&l, &line, &len) == 1 && len == 0 && !l.toolong);
	CHECK(ti_lines_next(&l, &line, &len) == 1 && len == 3 && line[1] == 0 && line[2] == 'b');
	CHECK(ti_lines_next(&l, &line, &len) == 1 && l.toolong && line[0] == 'x');
	CHECK(ti_lines_next(&l, &line, &len) == 1 && !l.toolong && !strcmp(line, "last"));
	CHECK(ti_lines_next(&l, &line, &len) == 0);
	CHECK_EQ(l.lineno, 6);
	CHECK_EQ(st.lines, 6);
	CHECK_EQ(st.bytes_in, 3 * TI_LINE_MAX + 19);
	ti_lines_free(&l);
	unlink(path);
}

int main(void)
{
	test_line_reader_splits_and_counts();

	/* decimals are exact to the ns: no binary floating point */
	CHECK_EQ(dec("0.000026", 1000000000), 26000);
	CHECK_EQ(dec("1.500000001", 1000000000), 1500000001);
	CHECK_EQ(dec("1538323200", 1000000000), 1538323200000000000ll);
	CHECK_EQ(dec("0.1", 1000000000), 100000000);
	CHECK_EQ(dec("2.25", 1000000), 2250000);
	CHECK_EQ(dec("1e3", 1000), 1000000);
	CHECK_EQ(dec("1.5E-3", 1000000000), 1500000);
	CHECK_EQ(dec("-0.5", 1000), -500);
	CHECK_EQ(dec("938513000", 1), 938513000);
	CHECK_EQ(dec(".5", 1000), 500);
	int64_t v;
	CHECK(ti_dec("", 1, &v) == -1);
	CHECK(ti_dec("1.2.3", 1, &v) == -1);
	CHECK(ti_dec("12x", 1, &v) == -1);
	CHECK(ti_dec("1e", 1, &v) == -1);
	CHECK(ti_dec(".", 1, &v) == -1);
	CHECK(ti_dec("99999999999", 1000000000, &v) == -2);
	CHECK(ti_dec("1e400", 1, &v) == -2);
	CHECK(ti_dec("0e400", 1, &v) == 0 && v == 0);

	uint64_t u;
	CHECK(ti_u64("18446744073709551615", &u) == 0 && u == UINT64_MAX);
	CHECK(ti_u64("18446744073709551616", &u) == -2);
	CHECK(ti_u64("-1", &u) == -1);
	CHECK(ti_u64(" 1", &u) == -1);
	CHECK(ti_u64("", &u) == -1);

	/* splitting: CSV fields trimmed, empty fields kept; blanks collapse */
	char l1[] = " a , b,,c ";
	char *f[8];
	CHECK_EQ(ti_split(l1, ',', f, 8), 4);
	CHECK(!strcmp(f[0], "a") && !strcmp(f[1], "b") && !strcmp(f[2], "") && !strcmp(f[3], "c"));
	char l2[] = "  1\t2   3 ";
	CHECK_EQ(ti_split(l2, ' ', f, 8), 3);
	CHECK(!strcmp(f[0], "1") && !strcmp(f[1], "2") && !strcmp(f[2], "3"));
	char l3[] = "1,2,3,4,5,6,7,8,9,10";
	CHECK_EQ(ti_split(l3, ',', f, 8), 10); /* more than max: counted */

	/* detection */
	CHECK(!strcmp(best("128166410318060999,wdev,1,Write,3165323264,4096,1189\n"
			   "128166410318061023,wdev,1,Read,3154124800,4096,1166\n"),
		      "msr"));
	CHECK(!strcmp(best("Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
			   "128166410318060999,wdev,1,Write,3165323264,4096,1189\n"),
		      "msr"));
	CHECK(!strcmp(best("0,303567,3584,w,0.000000\n1,55590,3072,r,0.000026\n"), "spc"));
	CHECK(!strcmp(best("419,W,307560448,16384,1577808000000147\n"), "alibaba"));
	CHECK(!strcmp(best("1538323200,12345,8,1,1283\n1538323200,800,16,0,1283\n"), "tencent"));
	CHECK(!strcmp(best("0.5 0 100 8 1\n2.25 1 200 16 0\n"), "disksim"));
	CHECK(!strcmp(best("89966811921625 4257 nfsd 488846200 8 W 6 0 "
			   "2c4787c7671c2f638777c4ab72859ce1\n"),
		      "fiu"));
	CHECK(!strcmp(best("fio version 2 iolog\n/dev/sda add\n"), "fio"));
	CHECK(!strcmp(best("fio version 3 iolog\n0 /dev/sda add\n"), "fio"));
	CHECK(!strcmp(
	    best("  8,0    3        1     0.000000000   697  Q   W 223490 + 8 [kjournald]\n"),
	    "none"));
	CHECK(!strcmp(best("hello world\n"), "none"));
	CHECK(!strcmp(best("a,b,c\n1,2,3\n"), "none"));
	return 0;
}
