#!/bin/bash
# A kernel report decoded to file:line (run/decode.h) by the kernel's own
# scripts/decode_stacktrace.sh, here through `htab-torture scan --vmlinux`,
# the same decoder cell.json's crash.decoded/where come from. The "vmlinux"
# is a small ELF with DWARF line tables built here from C files named as the
# kernel's (kernel/bpf/percpu_freelist.c, init/main.c for the script's base
# path) and a module object named htab_torture.ko; the script is the default
# line's source package's (vm-images/decode-script.sh: the fake tree has no
# scripts/). Checked: the RIP line and a call-trace frame carry file:line,
# the module frame is decoded from --modules, an unreliable frame stays
# unreliable, `where` is the first frame in the allocator's files; a file
# without line tables and --modules without --vmlinux are refused by name.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir decode)
t=$d/tree
mkdir -p "$t/kernel/bpf" "$t/init" "$d/mod"
cat > "$t/kernel/bpf/percpu_freelist.c" <<'EOC'
struct node { struct node *next; };
static inline struct node *unlink_head(struct node **h)
{
	struct node *n = *h;

	*h = n->next;
	return n;
}
struct node *___pcpu_freelist_pop(struct node **h)
{
	return unlink_head(h);
}
EOC
cat > "$t/init/main.c" <<'EOC'
struct node;
struct node *___pcpu_freelist_pop(struct node **h);
int kernel_init(void *unused) { return 0; }
int htab_map_update_elem(void **h) { return ___pcpu_freelist_pop((struct node **)h) != 0; }
int main(void) { return kernel_init(0); }
EOC
printf '%s\n' 'int ht_worker(int *p)' '{' '	return *p + 1;' '}' > "$d/mod/worker.c"
(cd "$t" && gcc -O2 -g -fno-pie -no-pie -o vmlinux kernel/bpf/percpu_freelist.c init/main.c) ||
	fail "cannot build the fixture vmlinux"
(cd "$d/mod" && gcc -O2 -g -c -o htab_torture.ko worker.c) || fail "cannot build the fixture module"
# offsets inside the functions as the fixture compiled them
pop=$(nm "$t/vmlinux" | awk '$3 == "___pcpu_freelist_pop" { print $1 }')
[ -n "$pop" ] || fail "no ___pcpu_freelist_pop in the fixture"
printf '%s\n' "[   12.000001] BUG: kernel NULL pointer dereference, address: 0000000000000000" \
	"[   12.000002] #PF: supervisor read access in kernel mode" \
	"[   12.000003] RIP: 0010:___pcpu_freelist_pop+0x3/0xa" \
	"[   12.000004] Call Trace:" "[   12.000005]  <TASK>" \
	"[   12.000006]  ? kernel_init+0x0/0x10" \
	"[   12.000007]  htab_map_update_elem+0x4/0x20" \
	"[   12.000008]  ht_worker+0x0/0x10 [htab_torture]" \
	"[   12.000009]  </TASK>" > "$d/console.log"

out=$("$HT" scan --vmlinux "$t/vmlinux" --modules "$d/mod" "$d/console.log"); rc=$?
echo "$out"
expect_eq "exit (a report)" "$rc" 1
expect_eq "title" "$(head -1 <<< "$out")" \
	"$d/console.log: oops: BUG: kernel NULL pointer dereference in ___pcpu_freelist_pop"
expect_eq "where" "$(sed -n 2p <<< "$out")" "  where: ___pcpu_freelist_pop (kernel/bpf/percpu_freelist.c:6)"
grep -qF 'RIP: 0010:___pcpu_freelist_pop (kernel/bpf/percpu_freelist.c:6 kernel/bpf/percpu_freelist.c:11)' \
	<<< "$out" || fail "RIP line not decoded with its inline chain"
grep -qF '? kernel_init (init/main.c:3)' <<< "$out" || fail "unreliable frame not decoded as such"
grep -qF 'htab_map_update_elem (init/main.c:4)' <<< "$out" || fail "call-trace frame not decoded"
grep -qE 'ht_worker \(.*/mod/worker\.c:3\) htab_torture$' <<< "$out" || fail "module frame not decoded"
grep -qF "$t" <<< "$out" && fail "the tree's path was not cut from the locations"

j=$("$HT" scan --json --vmlinux "$t/vmlinux" "$d/console.log")
expect_eq "json where" "$(jq -c '.[0].where' <<< "$j")" \
	'{"function":"___pcpu_freelist_pop","file":"kernel/bpf/percpu_freelist.c","line":6}'
expect_eq "json decoded keeps the raw excerpt too" \
	"$(jq -r '.[0].excerpt | test("___pcpu_freelist_pop\\+0x3/0xa")' <<< "$j")" true

# a clean console decodes nothing and stays clean
echo "[    1.000000] Linux version 6.1.0" > "$d/clean.log"
expect_eq "clean" "$("$HT" scan --vmlinux "$t/vmlinux" "$d/clean.log")" "$d/clean.log: clean"

strip "$t/vmlinux" -o "$d/stripped"
err=$("$HT" scan --vmlinux "$d/stripped" "$d/console.log" 2>&1 > /dev/null); rc=$?
expect_eq "stripped: exit" "$rc" 2
grep -qF -- "--vmlinux $d/stripped: $d/stripped: not an ELF file with DWARF line tables (.debug_line)" \
	<<< "$err" || fail "stripped vmlinux: $err"
err=$("$HT" scan --modules "$d/mod" "$d/console.log" 2>&1 > /dev/null); rc=$?
expect_eq "--modules alone: exit" "$rc" 2
grep -qF -- "--modules goes with --vmlinux" <<< "$err" || fail "--modules alone: $err"
