/* Choice of QEMU accelerator: KVM only where it really works, else multi-threaded TCG. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/plan/accel.h"
#include "lib/util.h"

int accel_parse(const char *s, enum accel_mode *out)
{
	if (!strcmp(s, "auto"))
		*out = ACCEL_AUTO;
	else if (!strcmp(s, "kvm"))
		*out = ACCEL_KVM;
	else if (!strcmp(s, "tcg"))
		*out = ACCEL_TCG;
	else
		return -1;
	return 0;
}

const char *accel_name(enum accel_mode m)
{
	switch (m) {
	case ACCEL_KVM:
		return "kvm";
	case ACCEL_TCG:
		return "tcg";
	default:
		return "auto";
	}
}

static bool has_word(const char *s, size_t len, const char *w)
{
	size_t wl = strlen(w);

	for (size_t i = 0; i + wl <= len; i++) {
		if (memcmp(s + i, w, wl))
			continue;
		if ((i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t' || s[i - 1] == ':') &&
		    (i + wl == len || s[i + wl] == ' ' || s[i + wl] == '\t'))
			return true;
	}
	return false;
}

bool cpuinfo_has_virt(const char *cpuinfo)
{
	const char *p = cpuinfo;

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (!strncmp(p, "flags", 5) &&
		    (has_word(p, len, "vmx") || has_word(p, len, "svm")))
			return true;
		p = eol ? eol + 1 : NULL;
	}
	return false;
}

enum accel_mode accel_choose(enum accel_mode want, const char *cpuinfo, bool kvm_openable)
{
	if (want != ACCEL_AUTO)
		return want;
	if (cpuinfo && cpuinfo_has_virt(cpuinfo) && kvm_openable)
		return ACCEL_KVM;
	return ACCEL_TCG;
}

bool kvm_usable(const char *dev)
{
	int fd = open(dev, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

enum accel_mode accel_detect(enum accel_mode want)
{
	char *cpuinfo;
	enum accel_mode m;

	if (want != ACCEL_AUTO)
		return want;
	cpuinfo = read_file("/proc/cpuinfo", NULL);
	m = accel_choose(want, cpuinfo, kvm_usable("/dev/kvm"));
	free(cpuinfo);
	return m;
}
