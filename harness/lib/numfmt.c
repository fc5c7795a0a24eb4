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

json_t *num_json(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}
