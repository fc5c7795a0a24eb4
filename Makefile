# htab-torture — top-level build, setup and test entry points.
#   make deps    install the Debian packages the kit needs (idempotent)
#   make         build the module (against the distro guest kernel) and the harness
#   make image   build the guest initramfs
#   make run     set up and run the main job on defaults, print the table
#   make check   set up and run every test (unit, module build, VM)
#   make mutants  the kit's self-test: every workload on fixed and on each planted-bug kernel
#                 (MUTANTS_LINE=6.12: on the 6.12 line's)
#   make false-alarms  every workload x map x prealloc on every line's Debian kernels: all PASS
#   make seed-000  seed 000 reproduced: fixed vs before-000 kernels, 16 vCPUs, ratio + CI
#   make seed-002  seed 002's htab-mem table (ops/s and the map's memory) beside ours
#   make seed-003  seed 003's BM_DumpHashMap table beside ours: fixed vs before-003, ratio + CI
#   make seed-004  seed 004's lookups/s per LRU map size beside ours: fixed vs before-004, ratio + CI
#   make debug-symbols  install the distro guest kernel's -dbg package: its crashes decode to file:line
#   make bisect-proofs  `htab-torture bisect` on four series made from the kit's own patches
#   make coverage  every workload at 4 vCPUs on the coverage kernel: lines and branches hit per function

# The guest kernel: the distro kernel `--kernel distro` means
# (vm-images/lines/default), never whichever line happens to be installed
# newest; the module must be built against exactly the kernel that boots.
# It is in the kit's root (`make deps` fetches it there) or the host's.
KRES := $(shell vm-images/kernel-lines.sh resolve distro 2>/dev/null)
KVER ?= $(patsubst RELEASE=%,%,$(filter RELEASE=%,$(KRES)))
KDIR ?= $(if $(filter RELEASE=$(KVER),$(KRES)),$(patsubst KDIR=%,%,$(filter KDIR=%,$(KRES))),/usr/src/linux-headers-$(KVER))
INITRAMFS := vm-images/out/initramfs-$(KVER).cpio.gz
RUN_OUT ?= results/run-$(shell date +%Y%m%d-%H%M%S)

# One list, read by `make deps` and by .ci/run through it. Debian's guest
# kernels are not in it: `kernel-lines.sh fetch` unpacks them into the
# kit's root instead of installing them as the host's boot kernels.
DEB_PACKAGES := build-essential pkg-config kmod cpio xz-utils gzip jq \
	qemu-system-x86 busybox-static \
	bpftrace stress-ng libjansson-dev libcmocka-dev libxml2-dev libxml2-utils gnuplot-nox \
	libbpf-dev bpftool clang llvm bc flex bison \
	libelf-dev libssl-dev dwarves rsync python3 chromium lcov \
	$(shell vm-images/kernel-lines.sh packages)

.PHONY: all deps module harness image run check unit-tests kmod-test vm-tests clean

all: module harness
	$(MAKE) -C bench/libbpf

deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "deps: installing $$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "deps: all Debian packages present"; fi
	@vm-images/kernel-lines.sh fetch || { apt-get update -qq && vm-images/kernel-lines.sh fetch; }

module:
	@[ -n "$(KVER)" ] || { echo "error: no guest kernel: vm-images/kernel-lines.sh resolve distro found none (make deps)" >&2; exit 2; }
	$(MAKE) -C kmod KDIR=$(KDIR)

harness:
	$(MAKE) -C harness

image: $(INITRAMFS)

$(INITRAMFS): vm-images/mkinitramfs.sh vm-images/guest/init vm-images/guest/reseed.c \
		vm-images/guest/tasks.c kmod/tasks_proto.h
	vm-images/mkinitramfs.sh $(KVER) $@

# The default matrix (vCPUs 16,32,48,64,96, full_update, distro kernel, no
# noise; 3 s windows under TCG, 10 s under KVM), its table, then the report.
# RUN_ARGS adds `htab-torture run` options (e.g. RUN_ARGS="--cpus 2,4").
run: deps
	$(MAKE) all image
	@out=$(RUN_OUT); ./harness/htab-torture run --out "$$out" $(RUN_ARGS); rc=$$?; \
	[ $$rc -ne 2 ] || exit 2; \
	./harness/htab-torture report "$$out" > /dev/null && echo "report: $$out/report.html ($$out/report.txt)"; \
	exit $$rc

unit-tests: harness
	$(MAKE) -C tests/unit check

# The kernel variants the VM tests need start building before `all image`
# (tests/run-tests.sh PREPARE): the cold build is the longest path.
check: deps
	PREPARE="$(MAKE) all image" tests/run-tests.sh

clean:
	$(MAKE) -C kmod KDIR=$(KDIR) clean
	$(MAKE) -C harness clean
	rm -rf vm-images/out tests/out

# Benchmarks (print figures, not pass/fail; see bench/RESULTS.md). One guest each.
.PHONY: bench-driver bench-observer bench-batch bench-timing bench-verify bench-attach
bench-observer bench-batch bench-timing bench-verify bench-attach: module image
	$(MAKE) -C bench/libbpf
	bench/$(@:bench-%=%)/run.sh

# The module against the BPF driver at each size of DRIVER_CPUS, one guest
# each (bench/out/driver-N); DRIVER_REPEATS interleaved rounds of 3 s.
DRIVER_CPUS ?= 4 16 48
DRIVER_REPEATS ?= 6
bench-driver: module image
	$(MAKE) -C bench/libbpf
	for n in $(DRIVER_CPUS); do \
		bench/driver/run.sh $$n $(DRIVER_REPEATS) 3 bench/out/driver-$$n || exit 1; \
	done

# Wall time of the default matrix vs its measurement windows, split into
# boot/attach/stress/teardown/shutdown (bench/matrix_wall.sh; RUN_ARGS as for run).
.PHONY: bench-matrix
bench-matrix: all image
	bench/matrix_wall.sh $(RUN_ARGS)

# Seed 000 (freelist empty check): full_update at 16 vCPUs on the `fixed` and
# `before-000` kernel variants, 5 repeats each, compared within the run; prints
# the seed's own lines beside ours and our ratio fixed/before-000 of ops/s per
# CPU with its CI and the accelerator. A failed cell fails the target after
# the comparison of the others. SEED000_DURATION=s, SEED000_OUT=dir to override;
# SEED000_LINE=6.12 on that line's kernels (6.12/fixed, 6.12/before-000).
SEED000_DURATION ?= 10
.PHONY: seed-000
seed-000: all image
	@out=$${SEED000_OUT:-results/seed-000-$$(date +%Y%m%d-%H%M%S)}; \
	./harness/htab-torture run --cpus 16 --workload full_update \
		--kernel $(SEED000_LINE:%=%/)fixed,$(SEED000_LINE:%=%/)before-000 \
		--repeat 5 --duration $(SEED000_DURATION) --bpftrace none --out "$$out"; \
	rc=$$?; [ $$rc -ne 2 ] || exit 2; \
	SEED000_LINE=$(SEED000_LINE) bench/seed-000.sh "$$out" || exit $$?; exit $$rc

# Seed 002 (htab-mem): overwrite, batch_add_batch_del, add_del_on_diff_cpu on
# a hash map of the seed's 8192 entries, non-preallocated and preallocated, at
# the seed's 8 producers (vCPUs), repeated; each cell's map is made from insmod
# in its own cgroup v2 (vm-images/guest/memcg-job.sh: memory.current sampled,
# memory.peak), then bench/seed-002.sh prints the seed's table beside ours
# (RUN/seed.txt). SEED002_CPUS=, SEED002_DURATION=s, SEED002_REPEAT=, SEED002_OUT=dir.
SEED002_CPUS ?= 8
SEED002_DURATION ?= 5
SEED002_REPEAT ?= 3
.PHONY: seed-002
seed-002: all image
	@out=$${SEED002_OUT:-results/seed-002-$$(date +%Y%m%d-%H%M%S)}; \
	./harness/htab-torture run --cpus $(SEED002_CPUS) \
		--workload overwrite,batch_add_batch_del,add_del_on_diff_cpu --prealloc 0,1 \
		--max-entries 8192 --repeat $(SEED002_REPEAT) --duration $(SEED002_DURATION) --bpftrace none \
		--job-script vm-images/guest/memcg-job.sh --out "$$out"; \
	rc=$$?; [ $$rc -ne 2 ] || exit 2; \
	bench/seed-002.sh "$$out" || exit $$?; exit $$rc

# Seed 003 (batch ops skip empty buckets): bench/libbpf/batch_dump (the seed's
# BM_DumpHashMap/N on a 50K-entry map) in SEED003_REPEAT boots each of the
# `fixed` and `before-003` kernels (variants/before-003: batch ops lock every
# bucket again; built on demand from fixed's tree), then bench/seed-003.sh:
# the seed's before/after table beside ours, per N the ratio with its CI.
SEED003_REPEAT ?= 5
.PHONY: seed-003
seed-003: all image
	@out=$${SEED003_OUT:-results/seed-003-$$(date +%Y%m%d-%H%M%S)}; \
	./harness/htab-torture run --cpus 2 --workload full_update --kernel fixed,before-003 \
		--repeat $(SEED003_REPEAT) --bpftrace none --timeout 600 --job-script bench/seed-003/job.sh --out "$$out"; \
	rc=$$?; [ $$rc -ne 2 ] || exit 2; \
	bench/seed-003.sh "$$out" || exit $$?; exit $$rc

# Seed 004 (LRU lookup inlined by the verifier): lookups/s per map size 2^i + 1,
# i = 9..20, on lru_hash and hash. bpf/: SEED004_REPEAT boots each of `fixed`
# and `before-004` (variants/before-004: no map_gen_lookup for LRU maps), each
# the sweep from a BPF program (bench/seed-004/job.sh, full_update_driver -m
# lookup); module/: the module's lookup workload, a --max-entries sweep on
# fixed. Then bench/seed-004.sh: the seed's two columns beside ours, per size
# the ratio fixed/before-004 with its CI.
SEED004_REPEAT ?= 3
SEED004_SIZES := 513,1025,2049,4097,8193,16385,32769,65537,131073,262145,524289,1048577
.PHONY: seed-004
seed-004: all image
	@out=$${SEED004_OUT:-results/seed-004-$$(date +%Y%m%d-%H%M%S)}; \
	./harness/htab-torture run --cpus 1 --workload full_update --kernel fixed,before-004 \
		--max-entries 1048577 --repeat $(SEED004_REPEAT) --bpftrace none --timeout 900 \
		--job-script bench/seed-004/job.sh --out "$$out/bpf"; \
	rc=$$?; [ $$rc -ne 2 ] || exit 2; \
	./harness/htab-torture run --cpus 1 --workload lookup --kernel fixed --map-type lru_hash,hash \
		--max-entries $(SEED004_SIZES) --repeat 2 --duration 2 --bpftrace none --out "$$out/module"; \
	rc2=$$?; [ $$rc2 -ne 2 ] || exit 2; [ $$rc2 -eq 0 ] || rc=$$rc2; \
	bench/seed-004.sh "$$out" || exit $$?; exit $$rc

# For tests: the guest kernel release the module is built for.
print-kver:
	@echo $(KVER)

# The kill table of the planted-bug kernels (vm-images/kernels/mutants/):
# every workload at 4 vCPUs x 2 repeats, callers kthread and kthread+nmi,
# on fixed and on each mutant; fails
# when a mutant survives a repeat or fixed has a non-PASS cell
# (bench/mutants.sh: MUTANTS=, MUTANTS_OUT=, MUTANTS_CALLERS=, MUTANTS_DURATION=, ...).
.PHONY: mutants
mutants: all image
	bench/mutants.sh

# Zero false alarms on every line's Debian kernels (distro-6.1, distro-6.12,
# distro-6.12-rt): every workload x map type x prealloc at 4 vCPUs in one
# run, one table (bench/false_alarms.sh: FA_KERNELS=, FA_REPEAT=, ...).
# Debug symbols of the default distro kernel (858 MB download, 5.6 GB
# installed for 6.1.0-57): its crash reports then decode to file:line
# (cell.json crash.decoded, harness/lib/decode.h). Opt-in: not in deps.
.PHONY: debug-symbols
debug-symbols:
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	apt-get install -y -qq --no-install-recommends linux-image-$(KVER)-dbg

# `htab-torture bisect` on series with known answers (issue 26): a FAIL
# signature at step 3, before-000's ops/s loss at step 4, a flaky mutant at
# step 2, and a series with no bad step (bench/bisect_proofs.sh: BISECT_LINE=,
# BISECT_OUT=, BISECT_ARGS=; `make bisect-proofs PROOFS="a d"` for some).
.PHONY: bisect-proofs
bisect-proofs: all image
	bench/bisect_proofs.sh $(PROOFS)

.PHONY: false-alarms
false-alarms: all image
	bench/false_alarms.sh

# Coverage of the allocator (issue 16): every workload at 4 vCPUs, kthreads
# and NMI callers together (issue 28), on the `coverage` kernel (gcov counters in percpu_freelist.c, hashtab.c,
# bpf_lru_list.c, memalloc.c; built on demand by the harness), then the
# workload x function table and the merged percentages of percpu_freelist.c
# and hashtab.c (bench/coverage/run.sh: COVERAGE_OUT=, COVERAGE_DURATION=, ...).
.PHONY: coverage
coverage: all image
	bench/coverage/run.sh
