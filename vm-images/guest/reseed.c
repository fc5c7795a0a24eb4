/*
 * htab-reseed HEX: gives a guest restored from a saved state (htab-torture
 * run --restore) random state of its own. Every guest restored from one
 * snapshot wakes with the same CRNG key, the same per-CPU batches and the
 * same jiffies, so without this two cells would see the same
 * get_random_u32() sequence (the map's hash seed, the module's keys) and the
 * same /dev/urandom. The host sends 32 fresh bytes per restore; they are
 * added to the input pool, credited (RNDADDENTROPY, which also readies a CRNG
 * that was not), and the CRNG is reseeded from the pool at once
 * (RNDRESEEDCRNG): the kernel's own reseed waits for its interval, measured
 * in the jiffies every restore shares. vmgenid does the same where the
 * kernel has CONFIG_VMGENID; the variants (allnoconfig-based) do not.
 * Static: it runs from the initramfs, before the host root is mounted.
 * Exit 0 done, 2 bad argument, 1 the kernel refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/random.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define SEED_MIN 16
#define SEED_MAX 64

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int main(int argc, char **argv)
{
	struct {
		struct rand_pool_info info;
		unsigned char buf[SEED_MAX];
	} req;
	size_t len = argc == 2 ? strlen(argv[1]) : 0, n = len / 2;
	int fd;

	if (len % 2 || n < SEED_MIN || n > SEED_MAX) {
		fprintf(stderr, "htab-reseed: usage: htab-reseed HEX (%d to %d bytes as hex digits)\n",
			SEED_MIN, SEED_MAX);
		return 2;
	}
	for (size_t i = 0; i < n; i++) {
		int hi = hexval(argv[1][2 * i]), lo = hexval(argv[1][2 * i + 1]);

		if (hi < 0 || lo < 0) {
			fprintf(stderr, "htab-reseed: '%s': not hex digits\n", argv[1]);
			return 2;
		}
		req.buf[i] = (unsigned char)(hi << 4 | lo);
	}
	req.info.entropy_count = (int)(8 * n);
	req.info.buf_size = (int)n;
	fd = open("/dev/urandom", O_WRONLY);
	if (fd < 0 || ioctl(fd, RNDADDENTROPY, &req) || ioctl(fd, RNDRESEEDCRNG)) {
		fprintf(stderr, "htab-reseed: /dev/urandom: %s\n", strerror(errno));
		return 1;
	}
	close(fd);
	return 0;
}
