/* A bzImage's release and a module's vermagic (the distro kernel: test_kernel_lines.sh). */
#include <sys/stat.h>
#include "testlib.h"

#include "run/plan/paths.h"

static char root[] = "/tmp/ht_sysroot_XXXXXX";

static void touch(const char *rel)
{
	char p[1024];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);
}

static void test_bzimage_and_vermagic(void **s)
{
	unsigned char hdr[0x300] = { 0 };
	const char *ver = "6.1.0-57-amd64 (debian-kernel@lists.debian.org) #1 SMP PREEMPT_DYNAMIC";
	const char ko[] = "\x7f" "ELF\0\0junk\0license=GPL\0vermagic=6.1.0-57-amd64 SMP preempt mod_unload modversions \0";
	char p[1024], rel[128];
	FILE *f;

	(void)s;
	assert_non_null(mkdtemp(root));
	touch("empty");
	memcpy(hdr + 0x202, "HdrS", 4);
	hdr[0x20e] = 0x00;	/* kernel_version = 0x100 -> string at 0x300 */
	hdr[0x20f] = 0x01;
	snprintf(p, sizeof(p), "%s/bzImage", root);
	f = fopen(p, "wb");
	fwrite(hdr, 1, sizeof(hdr), f);
	fputs(ver, f);
	fclose(f);
	assert_int_equal(bzimage_release(p, rel, sizeof(rel)), 0);
	assert_string_equal(rel, "6.1.0-57-amd64");
	snprintf(p, sizeof(p), "%s/empty", root);
	assert_int_equal(bzimage_release(p, rel, sizeof(rel)), -1);

	snprintf(p, sizeof(p), "%s/m.ko", root);
	f = fopen(p, "wb");
	fwrite(ko, 1, sizeof(ko), f);
	fclose(f);
	assert_int_equal(module_vermagic(p, rel, sizeof(rel)), 0);
	assert_string_equal(rel, "6.1.0-57-amd64");
	if (file_exists("/boot/vmlinuz-6.1.0-57-amd64")) {
		assert_int_equal(bzimage_release("/boot/vmlinuz-6.1.0-57-amd64", rel, sizeof(rel)), 0);
		assert_string_equal(rel, "6.1.0-57-amd64");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bzimage_and_vermagic),
	};
	int rc = cmocka_run_group_tests_name("paths", tests, NULL, NULL);
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf /tmp/ht_sysroot_*");
	if (system(cmd))
		rc = rc ? rc : 1;
	return rc;
}
