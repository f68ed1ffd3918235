/*
 * plots/output_dir.c - the output folders of plot, compare and demo, and
 * the escaping of trace text for the terminal, HTML and Markdown.
 *
 * A folder is written only when it is ioreel's own: new, empty, or marked
 * by PLOTS_MARKER (a regular file of this user, left there when ioreel made
 * the folder its own); any other folder needs --overwrite (and then stays
 * unmarked).  Inside it, every file goes through the output policy
 * (formats/output.c) relative to the folder's fd: a symbolic link, device or
 * FIFO planted under one of its names is refused, never followed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plots/plots.h"

/* 1 when the folder holds nothing but "." and "..". */
static int folder_empty(int fd)
{
	int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return 0;
	}
	int empty = 1;
	struct dirent *e;
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	return empty;
}

static int marked(int fd)
{
	struct stat st;
	return fstatat(fd, PLOTS_MARKER, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
	       st.st_uid == geteuid();
}

static int mark(int fd, const char *dir, char *eb, size_t el)
{
	struct reel_out o;
	char m[1024];
	int rc = reel_out_open(&o, fd, PLOTS_MARKER, 0, NULL, NULL, 0, m, sizeof(m));
	if (rc == 0) {
		fputs("ioreel output folder: ioreel plot, compare and demo replace their own files "
		      "here\n",
		      o.f);
		rc = reel_out_commit(&o, m, sizeof(m));
	}
	return rc < 0 ? reel_errf(eb, el, rc, "%s/%s", dir, m) : 0;
}

int plots_outdir_open(const char *dir, int overwrite, char *eb, size_t el)
{
	char m[1024];
	int fd = reel_outdir_open(dir, m, sizeof(m));
	if (fd < 0)
		return reel_errf(eb, el, fd, "%s", m);
	if (marked(fd) || overwrite)
		return fd;
	if (folder_empty(fd)) {
		int rc = mark(fd, dir, eb, el);
		if (rc < 0) {
			close(fd);
			return rc;
		}
		return fd;
	}
	close(fd);
	return reel_errf(eb, el, REEL_E_EXISTS,
			 "%s holds files and is not an ioreel output folder (no %s in it): "
			 "name a new or empty folder, or pass --overwrite to write there "
			 "(files of the same names are replaced)",
			 dir, PLOTS_MARKER);
}

const char *plots_dir_trim(const char *dir, char *buf, size_t len)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	snprintf(buf, len, "%.*s", (int)n, dir);
	return buf;
}

void plots_outdir_undo(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	if (marked(fd))
		unlinkat(fd, PLOTS_MARKER, 0);
	/* the folder is this run's: its data files are too */
	int dfd = openat(fd, "data", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (e->d_type == DT_REG)
			unlinkat(dfd, e->d_name, 0);
	if (d)
		closedir(d);
	else if (dfd >= 0)
		close(dfd);
	unlinkat(fd, "data", AT_REMOVEDIR); /* only when empty */
	close(fd);
	rmdir(dir); /* only when empty */
}

/* ---- terminal text ------------------------------------------------------ */
size_t plots_term_escape(char *dst, size_t len, const char *src)
{
	size_t o = 0;
	const unsigned char *s = (const unsigned char *)src;
	if (!len)
		return 0;
	for (; *s && o + 1 < len; s++) {
		/* C0 controls, DEL, and C1 controls written in UTF-8 (C2 80..9F) */
		int c1 = s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f;
		if (*s < 0x20 || *s == 0x7f || c1) {
			unsigned v = c1 ? s[1] : *s;
			if (o + 5 >= len)
				break;
			o += (size_t)snprintf(dst + o, len - o, "\\x%02x", v);
			s += c1;
		} else {
			dst[o++] = (char)*s;
		}
	}
	dst[o] = 0;
	return o;
}

/*
 * Text from a trace (labels, paths, metadata) in a table or a list.  HTML:
 * entities.  Markdown: entities for what would be HTML (a renderer passes
 * raw HTML through: "<img src=x onerror=...>"), a backslash before what
 * would be Markdown (links, images, emphasis, code, table cells), and no
 * line breaks.
 */
void plots_escape_text(FILE *f, int markdown, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"' && !markdown)
			fputs("&quot;", f);
		else if (markdown && strchr("\\`*_[]|!#", *s))
			fprintf(f, "\\%c", *s);
		else if (markdown && (*s == '\n' || *s == '\r'))
			fputc(' ', f);
		else
			fputc(*s, f);
	}
}
