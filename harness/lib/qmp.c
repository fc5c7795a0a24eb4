/* A QMP client over FIFOs (see qmp.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/qmp.h"
#include "lib/util.h"

int qmp_open(struct qmp *m, const char *pipe_path)
{
	char p[4096];

	m->len = 0;
	m->in = m->out = -1;
	/* O_RDWR on our write end: opening never blocks, whoever reads it. */
	snprintf(p, sizeof(p), "%s.in", pipe_path);
	m->in = open(p, O_RDWR | O_CLOEXEC);
	snprintf(p, sizeof(p), "%s.out", pipe_path);
	m->out = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (m->in < 0 || m->out < 0) {
		qmp_close(m);
		return -1;
	}
	return 0;
}

void qmp_close(struct qmp *m)
{
	if (m->in >= 0)
		close(m->in);
	if (m->out >= 0)
		close(m->out);
	m->in = m->out = -1;
}

/* The next complete line as JSON (NULL: none buffered yet). */
static json_t *next_line(struct qmp *m)
{
	char *nl;

	while ((nl = memchr(m->buf, '\n', m->len))) {
		size_t n = (size_t)(nl - m->buf) + 1;
		json_t *j = json_loadb(m->buf, n, 0, NULL);

		memmove(m->buf, m->buf + n, m->len - n);
		m->len -= n;
		if (j)
			return j;
	}
	return NULL;
}

void qmp_negotiate(struct qmp *m, double timeout_s)
{
	char err[256];

	json_decref(qmp_call(m, "qmp_capabilities", NULL, timeout_s, err, sizeof(err)));
}

json_t *qmp_call(struct qmp *m, const char *cmd, json_t *args, double timeout_s, char *err,
		 size_t errlen)
{
	json_t *req = json_pack("{s:s}", "execute", cmd), *j;
	double deadline = now_mono() + timeout_s;
	char *text;
	int rc;

	if (args)
		json_object_set(req, "arguments", args);
	text = json_dumps(req, JSON_COMPACT);
	json_decref(req);
	if (!text)
		return NULL;
	rc = dprintf(m->in, "%s\n", text) < 0;
	free(text);
	if (rc) {
		snprintf(err, errlen, "QMP %s: cannot write: %s", cmd, strerror(errno));
		return NULL;
	}
	for (;;) {
		struct pollfd pfd = { .fd = m->out, .events = POLLIN };
		double left = deadline - now_mono();
		ssize_t got;

		while ((j = next_line(m))) {
			json_t *ret = json_object_get(j, "return"), *e = json_object_get(j, "error");

			if (ret) {
				json_incref(ret);
				json_decref(j);
				return ret;
			}
			if (e) {
				snprintf(err, errlen, "QMP %s: %s", cmd,
					 json_string_value(json_object_get(e, "desc")) ?: "error");
				json_decref(j);
				return NULL;
			}
			json_decref(j);	/* the greeting, an event */
		}
		if (left <= 0) {
			snprintf(err, errlen, "QMP %s: no reply in %.0f s", cmd, timeout_s);
			return NULL;
		}
		if (m->len == sizeof(m->buf))
			m->len = 0;	/* a line longer than the buffer: not a reply we wait for */
		if (poll(&pfd, 1, (int)(left * 1000) + 1) < 0 && errno != EINTR)
			return NULL;
		got = read(m->out, m->buf + m->len, sizeof(m->buf) - m->len);
		if (got == 0) {
			snprintf(err, errlen, "QMP %s: QEMU closed the monitor", cmd);
			return NULL;
		}
		if (got > 0)
			m->len += (size_t)got;
		else if (errno != EAGAIN && errno != EINTR) {
			snprintf(err, errlen, "QMP %s: %s", cmd, strerror(errno));
			return NULL;
		}
	}
}
