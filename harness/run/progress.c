/* Progress lines and the live status line of a matrix run (progress.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "run/progress.h"
#include "lib/util.h"

void progress_init(struct progress *p, size_t total, bool tty)
{
	memset(p, 0, sizeof(*p));
	p->total = total;
	p->t0 = now_mono();
	p->tty = tty;
}

static void clear_status(struct progress *p)
{
	if (p->tty && p->status_shown) {
		fputs("\r\033[K", stderr);
		p->status_shown = false;
	}
}

void progress_line(struct progress *p, const char *fmt, ...)
{
	va_list ap;

	clear_status(p);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

double progress_eta(double elapsed, size_t done_here, size_t left)
{
	if (!done_here)
		return -1;
	return elapsed / (double)done_here * (double)left;
}

double progress_eta_boots(double elapsed, const struct progress *p, size_t left, size_t boots)
{
	size_t n = p->done_here;
	double b, rest;

	if (!n || p->wall_sum <= 0)
		return -1;
	b = p->boots_seen ? p->boot_sum / (double)p->boots_seen : 0;
	rest = (p->wall_sum - p->boot_sum) / (double)n;
	return elapsed / p->wall_sum * ((double)left * rest + (double)boots * b);
}

void progress_boots(struct progress *p, bool shared, size_t boots_left)
{
	p->shared = shared;
	p->boots_left = boots_left;
}

void progress_cell_cost(struct progress *p, double wall_s, double boot_s)
{
	if (!(wall_s >= 0))
		return;
	p->wall_sum += wall_s;
	if (boot_s == boot_s) {	/* not NAN */
		p->boot_sum += boot_s < wall_s ? boot_s : wall_s;
		p->boots_seen++;
	}
}

static void fmt_dur(char *b, size_t n, double s)
{
	if (s < 0)
		snprintf(b, n, "?");
	else if (s >= 3600)
		snprintf(b, n, "%d:%02d:%02d", (int)s / 3600, (int)s / 60 % 60, (int)s % 60);
	else
		snprintf(b, n, "%d:%02d", (int)s / 60, (int)s % 60);
}

void progress_status(struct progress *p, size_t nrunning, const char *running)
{
	struct winsize ws;
	int width = 100;
	double el = now_mono() - p->t0;
	char e[32], eta[32], line[512];

	if (!p->tty)
		return;
	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 20)
		width = ws.ws_col;
	if (width > (int)sizeof(line) - 1)
		width = sizeof(line) - 1;
	fmt_dur(e, sizeof(e), el);
	fmt_dur(eta, sizeof(eta), p->shared ? progress_eta_boots(el, p, p->total - p->done, p->boots_left)
					    : progress_eta(el, p->done_here, p->total - p->done));
	snprintf(line, sizeof(line), "[%zu/%zu done, %zu running: %s] elapsed %s, ETA %s",
		 p->done, p->total, nrunning, running, e, eta);
	line[width - 1] = '\0';
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
	p->status_shown = true;
}

void progress_end(struct progress *p)
{
	clear_status(p);
}
