/* FNV-1a 64 (see fnv.h). */
#include <fcntl.h>
#include <unistd.h>

#include "lib/fnv.h"

uint64_t fnv1a64(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--) {
		h ^= *b++;
		h *= 1099511628211ULL;
	}
	return h;
}

int fnv1a64_file(const char *path, uint64_t *h)
{
	unsigned char buf[1 << 16];
	ssize_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((got = read(fd, buf, sizeof(buf))) > 0)
		*h = fnv1a64(*h, buf, (size_t)got);
	close(fd);
	return got < 0 ? -1 : 0;
}
