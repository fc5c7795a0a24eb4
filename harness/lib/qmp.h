/*
 * A QMP client over two FIFOs (QEMU's "-chardev pipe,path=P": it reads
 * P.in, writes P.out): one command at a time, its reply read back line by
 * line, events and the greeting skipped. FIFOs, not a unix socket: a socket
 * path is limited to 107 bytes, a run directory is not.
 */
#ifndef HT_QMP_H
#define HT_QMP_H
#include <jansson.h>
#include <stddef.h>

struct qmp {
	int in, out;		/* P.in (we write), P.out (we read) */
	char buf[1 << 16];
	size_t len;
};

/* Opens P.in and P.out (QEMU already has them open). 0 ok, -1 (errno). */
int qmp_open(struct qmp *m, const char *pipe_path);
/*
 * Sends {"execute": cmd, "arguments": args} (args may be NULL; it is not
 * stolen) and waits up to timeout_s for its reply: the "return" value (a
 * new reference), or NULL with the reason in err (QMP's error, a timeout,
 * QEMU gone).
 */
json_t *qmp_call(struct qmp *m, const char *cmd, json_t *args, double timeout_s, char *err,
		 size_t errlen);
/*
 * qmp_capabilities, as every client sends first. A boot's monitor outlives
 * its clients (a boot stall probe, then the save's migration; cells of a
 * shared boot): a later one finds it negotiated and QEMU refuses a second
 * ("Capabilities negotiation is already complete"), which is fine, so the
 * reply is not looked at; the next call says whether QEMU answers.
 */
void qmp_negotiate(struct qmp *m, double timeout_s);
void qmp_close(struct qmp *m);
#endif
