/* Incremental console classification (see console_follow.h). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse/console_follow.h"

void console_follow_init(struct console_follow *f)
{
	memset(f, 0, sizeof(*f));
}

/* One complete line (maybe cut at FOLLOW_LINE_MAX - 1 bytes). */
static int line_done(struct console_follow *f)
{
	enum crash_kind k;

	f->part[f->plen] = '\0';
	f->plen = 0;
	f->lines++;
	if (f->on_line)
		f->on_line(f->on_line_arg, f->part);
	if (f->kind != CK_NONE)
		return 0;
	k = console_line_kind(f->part);
	if (k == CK_NONE)
		return 0;
	f->kind = k;
	f->report_lineno = f->lines;
	return 1;
}

int console_follow_feed(struct console_follow *f, const char *buf, size_t n)
{
	int found = 0;

	while (n) {
		const char *nl = memchr(buf, '\n', n);
		size_t take = nl ? (size_t)(nl - buf) : n;
		size_t room = sizeof(f->part) - 1 - f->plen;
		size_t keep = take < room ? take : room;

		memcpy(f->part + f->plen, buf, keep);
		f->plen += keep;
		if (!nl)
			break;
		found |= line_done(f);
		buf += take + 1;
		n -= take + 1;
	}
	return found;
}

int console_follow_file(struct console_follow *f, const char *path)
{
	struct stat st;
	long long want;
	char *buf;
	ssize_t got;
	int fd, found;

	if (stat(path, &st) || st.st_size <= f->off)
		return 0;
	want = st.st_size - f->off;
	if (want > FOLLOW_READ_MAX)
		want = FOLLOW_READ_MAX;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	buf = malloc((size_t)want);
	got = buf ? pread(fd, buf, (size_t)want, f->off) : -1;
	close(fd);
	if (got <= 0) {
		free(buf);
		return 0;
	}
	f->off += got;
	f->bytes_read += got;
	found = console_follow_feed(f, buf, (size_t)got);
	free(buf);
	return found;
}
