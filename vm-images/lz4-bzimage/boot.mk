# Read after the kernel's top-level Makefile (make -f Makefile -f boot.mk
# htab-bzimage): builds arch/x86/boot/bzImage around a vmlinux that is
# already there, without linking one. Run after `make prepare`.
# arch/x86/boot needs, besides prepare's headers: capflags.c (mkcpustr),
# inat-tables.c (compressed/sev.c) and the EFI stub's lib.a.
PHONY += htab-bzimage
htab-bzimage:
	$(Q)$(MAKE) $(build)=arch/x86/kernel/cpu arch/x86/kernel/cpu/capflags.c
	$(Q)$(MAKE) $(build)=arch/x86/lib arch/x86/lib/inat-tables.c
	$(Q)$(MAKE) $(build)=drivers/firmware/efi/libstub
	$(Q)$(MAKE) $(build)=arch/x86/boot arch/x86/boot/bzImage
