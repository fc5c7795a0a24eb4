/* Numbers for people and for JSON (see numfmt.h). */
#include <math.h>
#include <stdio.h>

#include "lib/numfmt.h"

const char *num_text(char *buf, size_t n, double v, int prec)
{
	if (!isfinite(v))
		snprintf(buf, n, "-");
	else if (prec >= 0)
		snprintf(buf, n, "%.*f", prec, v);
	else if (fabs(v) >= 1000)
		snprintf(buf, n, "%.0f", v);
	else if (fabs(v) >= 10)
		snprintf(buf, n, "%.1f", v);
	else
		snprintf(buf, n, "%.3g", v);
	return buf;
}

const char *num_p_text(char *buf, size_t n, double p)
{
	if (!isfinite(p))
		snprintf(buf, n, "-");
	else if (p < 0.001)
		snprintf(buf, n, "<0.001");
	else
		snprintf(buf, n, "%.3f", p);
	return buf;
}

json_t *num_json(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *num_json_inf(double v)
{
	return v == INFINITY ? json_string("inf") : v == -INFINITY ? json_string("-inf") : num_json(v);
}
