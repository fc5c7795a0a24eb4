/*
 * FNV-1a, 64 bit: the names of the harness's caches (lpj=, PVH vmlinux,
 * snapshots) are this hash of what they were made from.
 */
#ifndef HT_FNV_H
#define HT_FNV_H
#include <stddef.h>
#include <stdint.h>

#define FNV1A64_INIT 14695981039346656037ULL

uint64_t fnv1a64(uint64_t h, const void *p, size_t n);
/* h folded over the bytes of path; 0 ok, -1 (errno) when it cannot be read. */
int fnv1a64_file(const char *path, uint64_t *h);
#endif
