/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fault= grammar and its one parser: the module (kmod/inject.c, at
 * each fault= it is given) and the harness (--fault and --modparam
 * fault=, harness/run/plan/cli.c) both parse a value with
 * ht_fault_value_parse(), and both print its errors with
 * ht_fault_strerror(); tests/unit/test_fault_spec.c tests it on the
 * host. Plain C, no kernel or libc headers, so both can include it.
 *
 *   VALUE := SPEC[+SPEC...]   at most HT_MAX_FAULTS faults, "none" aside
 *   SPEC  := none
 *          | delay[:SYMBOL]:DURATION[:OPT...]   DURATION = N, Nns or Nus
 *          | exhaust[:SYMBOL][:OPT...]
 *          | lockhold[:SYMBOL]:DURATION[:OPT...]
 *   OPT   := p=P (0 < P <= 1, decimal) | every=N (per CPU, N >= 1)
 *          | cpus=CPULIST
 *
 * e.g. fault=delay:__pcpu_freelist_pop:2000ns:p=0.01:cpus=0-3
 *      fault=exhaust:p=0.1+delay:alloc_htab_elem:5us:every=100
 *
 * What the parser cannot know stays with the module: whether SYMBOL is a
 * probeable function, whether CPULIST parses and names possible CPUs.
 */
#ifndef HT_FAULT_SPEC_H
#define HT_FAULT_SPEC_H

#define HT_MAX_FAULTS		4
#define HT_FAULT_TEXT_MAX	159	/* characters of a fault= value */
#define HT_FAULT_LEN		(HT_FAULT_TEXT_MAX + 1)
#define HT_FAULT_SYM_LEN	64
/* p is kept in parts per billion; HT_PPB means "always". */
#define HT_PPB			1000000000U
/* A longer busy-wait with interrupts off invites soft-lockup reports. */
#define HT_DELAY_MAX_NS_DEC	1000000
#define HT_DELAY_MAX_NS		((unsigned long long)HT_DELAY_MAX_NS_DEC)
#define HT_FAULT_NONE		"none"
/* The characters a value may hold: it goes into JSON, dmesg and job.env verbatim. */
#define HT_FAULT_CHARS		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:=,+-"

/*
 * The injectors: X(name, duration), duration 1 when the SPEC takes a
 * DURATION field. kmod/inject_<name>.c defines ht_inj_<name>; kmod/Kbuild
 * reads the X(name, lines with sed: keep one per line.
 */
#define HT_INJECTORS(X)		\
	X(delay, 1)		\
	X(exhaust, 0)		\
	X(lockhold, 1)

#define HT_FS_STR_(x)	#x
#define HT_FS_STR(x)	HT_FS_STR_(x)
#define HT_FS_SPACE_NAME(name, duration)	" " #name

#define HT_FS_ENUM(name, duration)	HT_INJ_##name,
enum ht_injector_id { HT_INJECTORS(HT_FS_ENUM) HT_NR_INJECTORS };
#undef HT_FS_ENUM

#define HT_FS_NAME(name, duration)	#name,
static const char *const ht_injector_names[HT_NR_INJECTORS] = {
	HT_INJECTORS(HT_FS_NAME)
};
#undef HT_FS_NAME
#define HT_FS_DURATION(name, duration)	duration,
static const char ht_injector_duration[HT_NR_INJECTORS] = {
	HT_INJECTORS(HT_FS_DURATION)
};
#undef HT_FS_DURATION

/* One SPEC, parsed; what it leaves out is 0 or "". */
struct ht_fault_spec {
	int inj;				/* HT_INJ_delay, ... */
	char text[HT_FAULT_LEN];		/* this fault's own text */
	char symbol[HT_FAULT_SYM_LEN];		/* "": the injector's default */
	unsigned long long ns;			/* DURATION: 1..HT_DELAY_MAX_NS */
	unsigned int p_ppb;			/* p=, parts per 1e9; 0: not given */
	unsigned int every;			/* every=; 0: not given */
	char cpus[HT_FAULT_LEN];		/* cpus=; "": every CPU */
};

/*
 * The errors, X(code, message); '@' in a message stands for the text the
 * error names (ht_fault_error's at/len).
 */
#define HT_FAULT_ERRORS(X)						\
	X(CHARS, "only letters, digits and _.:=,+- are allowed")	\
	X(LONG, "longer than " HT_FS_STR(HT_FAULT_TEXT_MAX) " characters") \
	X(MANY, "at most " HT_FS_STR(HT_MAX_FAULTS) " faults")		\
	X(EMPTY, "an empty fault (valid: none, delay:DURATION, exhaust, lockhold:DURATION, joined with +)") \
	X(TYPE, "unknown fault type \"@\" (valid: none" HT_INJECTORS(HT_FS_SPACE_NAME) ")") \
	X(NONE_FIELDS, "none takes no fields")				\
	X(SAMPLING, "give one of p= and every=")			\
	X(P, "p=@ must be a decimal in (0, 1]")				\
	X(EVERY, "every=@ must be an integer >= 1")			\
	X(CPUS, "cpus= needs a CPU list (e.g. cpus=0-3)")		\
	X(OPT, "unknown option @= (valid: p= every= cpus=)")		\
	X(DURATION, "duration @ must be 1.." HT_FS_STR(HT_DELAY_MAX_NS_DEC) " ns, written N, Nns or Nus") \
	X(SYMBOL, "symbol @ too long")					\
	X(FIELD, "unexpected field \"@\"")				\
	X(NO_DURATION, "@ needs a duration (e.g. delay:__pcpu_freelist_pop:2000ns)")

#define HT_FS_ENUM(code, msg)	HT_FE_##code,
enum ht_fault_errno { HT_FE_OK, HT_FAULT_ERRORS(HT_FS_ENUM) HT_FE_NR };
#undef HT_FS_ENUM
#define HT_FS_MSG(code, msg)	[HT_FE_##code] = msg,
static const char *const ht_fault_messages[HT_FE_NR] = { HT_FAULT_ERRORS(HT_FS_MSG) };
#undef HT_FS_MSG

/* What was wrong, as offsets into the value parsed. */
struct ht_fault_error {
	int code;		/* HT_FE_* */
	int spec_at;		/* the SPEC it is in (the whole value for CHARS, LONG) */
	int spec_len;
	int at;			/* what the message's '@' names */
	int len;
};

static inline int ht_fs_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Is @lit the @len characters at @s? */
static inline int ht_fs_is(const char *s, int len, const char *lit)
{
	int i;

	for (i = 0; i < len; i++)
		if (lit[i] != s[i])
			return 0;
	return !lit[len];
}

/* The offset of the first @c in s[0..len), or @len. */
static inline int ht_fs_find(const char *s, int len, char c)
{
	int i;

	for (i = 0; i < len && s[i] != c; i++)
		;
	return i;
}

static inline void ht_fs_copy(char *dst, const char *s, int len)
{
	int i;

	for (i = 0; i < len; i++)
		dst[i] = s[i];
	dst[len] = '\0';
}

/* "0.01", "1", "1.0", ".5" -> parts per billion, 0 < p <= 1; 0 if not that. */
static inline unsigned int ht_fs_prob(const char *s, int len)
{
	unsigned long long whole = 0, frac = 0, scale = HT_PPB;
	int i, dot = 0, digits = 0;

	for (i = 0; i < len; i++) {
		if (s[i] == '.' && !dot) {
			dot = 1;
			continue;
		}
		if (!ht_fs_digit(s[i]))
			return 0;
		digits = 1;
		if (!dot) {
			whole = whole * 10 + (unsigned long long)(s[i] - '0');
			if (whole > 1)
				return 0;
		} else if (scale > 1) {
			scale /= 10;
			frac += (unsigned long long)(s[i] - '0') * scale;
		}
	}
	frac += whole * HT_PPB;
	return digits && frac <= HT_PPB ? (unsigned int)frac : 0;
}

/* "2000", "2000ns", "2us" -> ns, 1..HT_DELAY_MAX_NS; 0 if not that. */
static inline unsigned long long ht_fs_duration(const char *s, int len)
{
	unsigned long long v = 0, mult = 1;
	int i;

	for (i = 0; i < len && ht_fs_digit(s[i]); i++) {
		v = v * 10 + (unsigned long long)(s[i] - '0');
		if (v > HT_DELAY_MAX_NS)
			return 0;
	}
	if (ht_fs_is(s + i, len - i, "us"))
		mult = 1000;
	else if (i < len && !ht_fs_is(s + i, len - i, "ns"))
		return 0;
	return i && v * mult <= HT_DELAY_MAX_NS ? v * mult : 0;
}

/* every=N: 1..2^32 - 1; 0 if not that. */
static inline unsigned int ht_fs_every(const char *s, int len)
{
	unsigned long long v = 0;
	int i;

	for (i = 0; i < len; i++) {
		if (!ht_fs_digit(s[i]))
			return 0;
		v = v * 10 + (unsigned long long)(s[i] - '0');
		if (v > 0xffffffffULL)
			return 0;
	}
	return (unsigned int)v;
}

static inline int ht_fs_fail(struct ht_fault_error *e, int code, const char *value,
			     const char *spec, int spec_len, const char *at, int len)
{
	e->code = code;
	e->spec_at = (int)(spec - value);
	e->spec_len = spec_len;
	e->at = (int)(at - value);
	e->len = len;
	return -1;
}

/* One OPT, name=val, of the SPEC at @s: into @f; @sampling: p= or every= seen. */
static inline int ht_fs_opt(const char *value, const char *s, int slen, const char *field,
			    int flen, struct ht_fault_spec *f, int *sampling,
			    struct ht_fault_error *e)
{
	int nlen = ht_fs_find(field, flen, '=');
	const char *val = field + nlen + 1;
	int vlen = flen - nlen - 1;

	if (ht_fs_is(field, nlen, "p") || ht_fs_is(field, nlen, "every")) {
		if (*sampling)
			return ht_fs_fail(e, HT_FE_SAMPLING, value, s, slen, field, flen);
		*sampling = 1;
	}
	if (ht_fs_is(field, nlen, "p")) {
		f->p_ppb = ht_fs_prob(val, vlen);
		if (!f->p_ppb)
			return ht_fs_fail(e, HT_FE_P, value, s, slen, val, vlen);
	} else if (ht_fs_is(field, nlen, "every")) {
		f->every = ht_fs_every(val, vlen);
		if (!f->every)
			return ht_fs_fail(e, HT_FE_EVERY, value, s, slen, val, vlen);
	} else if (ht_fs_is(field, nlen, "cpus")) {
		if (!vlen)
			return ht_fs_fail(e, HT_FE_CPUS, value, s, slen, field, flen);
		ht_fs_copy(f->cpus, val, vlen);
	} else {
		return ht_fs_fail(e, HT_FE_OPT, value, s, slen, field, nlen);
	}
	return 0;
}

/* The SPEC s[0..slen) of @value, not "none", into @f. */
static inline int ht_fault_spec_parse(const char *value, const char *s, int slen,
				      struct ht_fault_spec *f, struct ht_fault_error *e)
{
	int tlen = ht_fs_find(s, slen, ':'), sampling = 0, pos, flen, i;
	const char *field;

	for (i = 0; i < (int)sizeof(*f); i++)
		((char *)f)[i] = 0;
	ht_fs_copy(f->text, s, slen);
	for (f->inj = 0; f->inj < HT_NR_INJECTORS; f->inj++)
		if (ht_fs_is(s, tlen, ht_injector_names[f->inj]))
			break;
	if (ht_fs_is(s, tlen, HT_FAULT_NONE))
		return ht_fs_fail(e, HT_FE_NONE_FIELDS, value, s, slen, s, tlen);
	if (f->inj == HT_NR_INJECTORS)
		return ht_fs_fail(e, HT_FE_TYPE, value, s, slen, s, tlen);
	for (pos = tlen; pos < slen; pos += flen) {
		field = s + ++pos;
		flen = ht_fs_find(field, slen - pos, ':');
		if (ht_fs_find(field, flen, '=') < flen) {
			if (ht_fs_opt(value, s, slen, field, flen, f, &sampling, e))
				return -1;
		} else if (ht_injector_duration[f->inj] && flen && ht_fs_digit(*field) && !f->ns) {
			f->ns = ht_fs_duration(field, flen);
			if (!f->ns)
				return ht_fs_fail(e, HT_FE_DURATION, value, s, slen, field, flen);
		} else if (flen && !f->symbol[0] && !f->ns) {
			if (flen >= HT_FAULT_SYM_LEN)
				return ht_fs_fail(e, HT_FE_SYMBOL, value, s, slen, field, flen);
			ht_fs_copy(f->symbol, field, flen);
		} else {
			return ht_fs_fail(e, HT_FE_FIELD, value, s, slen, field, flen);
		}
	}
	if (ht_injector_duration[f->inj] && !f->ns)
		return ht_fs_fail(e, HT_FE_NO_DURATION, value, s, slen, s, tlen);
	return 0;
}

/*
 * Parses @value, SPEC[+SPEC...], into @out[*@n...], "none" left out, up
 * to @max faults in all (*@n counts them on). Returns 0, or -1 with @e
 * saying what and where; out[*n] may then hold a part of a fault.
 */
static inline int ht_fault_value_parse(const char *value, struct ht_fault_spec *out, int max,
				       int *n, struct ht_fault_error *e)
{
	int len, i, slen;
	const char *s;

	for (len = 0; value[len]; len++)
		;
	if (len > HT_FAULT_TEXT_MAX)
		return ht_fs_fail(e, HT_FE_LONG, value, value, len, value, len);
	for (i = 0; i < len; i++)
		if (ht_fs_find(HT_FAULT_CHARS, sizeof(HT_FAULT_CHARS) - 1, value[i]) ==
		    (int)sizeof(HT_FAULT_CHARS) - 1)
			return ht_fs_fail(e, HT_FE_CHARS, value, value, len, value + i, 1);
	for (i = 0; i <= len; i += slen + 1) {
		s = value + i;
		slen = ht_fs_find(s, len - i, '+');
		if (!slen)
			return ht_fs_fail(e, HT_FE_EMPTY, value, s, 0, s, 0);
		if (ht_fs_is(s, slen, HT_FAULT_NONE))
			continue;
		if (*n >= max)
			return ht_fs_fail(e, HT_FE_MANY, value, s, slen, s, slen);
		if (ht_fault_spec_parse(value, s, slen, &out[*n], e))
			return -1;
		(*n)++;
	}
	return 0;
}

/*
 * The message of @e (from parsing @value) into @buf, '@' replaced by what
 * it names, cut to @size - 1 characters. Returns @buf.
 */
static inline char *ht_fault_strerror(const char *value, const struct ht_fault_error *e,
				      char *buf, int size)
{
	const char *m = e->code > HT_FE_OK && e->code < HT_FE_NR ?
			ht_fault_messages[e->code] : "no error";
	int o = 0, i;

	for (; *m && o < size - 1; m++) {
		if (*m != '@') {
			buf[o++] = *m;
			continue;
		}
		for (i = 0; i < e->len && o < size - 1; i++)
			buf[o++] = value[e->at + i];
	}
	if (size > 0)
		buf[o] = '\0';
	return buf;
}

#endif /* HT_FAULT_SPEC_H */
