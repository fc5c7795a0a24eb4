#!/bin/bash
# Slurm: the plan in N shards as a job array, then one `merge` once every
# shard has ended well. An example to adapt (partition, time, the run's options).
#
#   harness/jobs/slurm.sh N NAME [RUN OPTIONS...]    # from the checkout, on a login node
#
# submits `sbatch --array=1-N` of this script (each task: `htab-torture run
# --shard auto`, which reads SLURM_ARRAY_TASK_ID/_MIN/_COUNT), then a merge job
# with --dependency=afterok on the array. The shards' results/NAME/shard-ID
# and the merged results/NAME/merged are in the checkout, which every node
# must see (a shared filesystem); each node needs /dev/kvm and `make deps` done.
#SBATCH --job-name=htab-torture
#SBATCH --nodes=1
#SBATCH --exclusive
#SBATCH --time=08:00:00
# --exclusive: the harness fits cells to the whole host's cores and memory.
set -euo pipefail

if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
	# Not a task: submit. Tasks start in the directory sbatch ran in.
	[ $# -ge 2 ] || { echo "usage: $0 N NAME [RUN OPTIONS...]" >&2; exit 2; }
	n=$1 name=$2
	shift 2
	cd "$(dirname "$0")/../.."
	make harness module image
	array=$(sbatch --parsable --array="1-$n" harness/jobs/slurm.sh "$name" "$@")
	sbatch --parsable --dependency="afterok:${array%%;*}" --job-name=htab-torture-merge \
		--nodes=1 --time=00:30:00 \
		--wrap "./harness/htab-torture merge results/$name/merged results/$name/shard-*"
	echo "array job $array, then the merge into results/$name/merged"
	exit 0
fi

name=$1
shift
# --accel kvm: a node without KVM fails here instead of running under TCG with
# another default duration (merge refuses shards whose parameters differ).
# Exit 1 (some cell FAIL/CRASH/TIMEOUT) is a result to merge; 2 (usage or
# setup) fails the task, and afterok then holds the merge back.
./harness/htab-torture run --shard auto --accel kvm \
	--out "results/$name/shard-$SLURM_ARRAY_TASK_ID" "$@" || [ $? -eq 1 ]
