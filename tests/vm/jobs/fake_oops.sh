# Guest job (tests/vm/test_crash_grace.sh): a kernel report after which the
# guest neither dies nor goes on, as an Oops in one of the module's worker
# kthreads leaves it. The report is written through /dev/kmsg (the harness
# only reads the console), then the job waits forever: only the harness's
# crash grace ends this cell before its host timeout.
echo on > /proc/sys/kernel/printk_devkmsg	# no rate limit: all 17 lines print
log "fake_oops: an Oops on the console, then silence"
while IFS= read -r l; do printf '<1>%s\n' "$l" > /dev/kmsg; done <<'OOPS'
BUG: kernel NULL pointer dereference, address: 0000000000000010
#PF: supervisor read access in kernel mode
#PF: error_code(0x0000) - not-present page
Oops: 0000 [#1] PREEMPT SMP NOPTI
CPU: 1 PID: 213 Comm: htab_torture/1 Tainted: G           OE      6.1.0-57-amd64 #1
RIP: 0010:__pcpu_freelist_pop+0x3b/0x1d0
RSP: 0018:ffffb1e0c03efe40 EFLAGS: 00010286
Call Trace:
 <TASK>
 htab_map_update_elem+0x1a2/0x360
 ht_worker+0xa8/0x140 [htab_torture]
 kthread+0xd7/0x100
 ret_from_fork+0x1f/0x30
 </TASK>
Modules linked in: htab_torture(OE)
CR2: 0000000000000010
---[ end trace 0000000000000000 ]---
OOPS
while :; do sleep 3600; done
