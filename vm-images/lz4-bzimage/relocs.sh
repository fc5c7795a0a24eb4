#!/bin/sh
# CMD_RELOCS for boot.mk (6.1's arch/x86/boot/compressed/Makefile runs it on
# vmlinux): the relocations the kernel carried (HTAB_RELOCS), as they were;
# --abs-relocs, a report for the build log, prints nothing.
[ "$1" = --abs-relocs ] && exit 0
exec cat "${HTAB_RELOCS:?}"
