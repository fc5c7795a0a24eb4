/*
 * The one number formatter of the harness's tables and JSON: no data (NAN,
 * ±inf) is "-" in text and null in JSON.
 */
#ifndef HT_NUMFMT_H
#define HT_NUMFMT_H
#include <jansson.h>
#include <stddef.h>

/* NUM_ADAPTIVE: %.0f from 1000, %.1f from 10, else 3 significant digits. */
#define NUM_ADAPTIVE -1
/* v with prec decimals (or NUM_ADAPTIVE) into buf; "-" without data. Returns buf. */
const char *num_text(char *buf, size_t n, double v, int prec);
/* A p-value: "<0.001", else 3 decimals; "-" without one. Returns buf. */
const char *num_p_text(char *buf, size_t n, double p);
/* A JSON real, or null without data. */
json_t *num_json(double v);
/* As num_json, but ±infinity (a t statistic without spread) is "inf" or "-inf". */
json_t *num_json_inf(double v);
#endif
