# Sourced by bench/seed-00N.sh. seed_mark RUN ID: the run was made by a seed
# target: manifest.json gets "seed": ID (kept by later runs on the same --out:
# the harness merges into the old manifest) and everything the script prints
# from here on is also written to RUN/seed.txt, the table `report` shows.
seed_mark() {
	local m=$1/manifest.json
	if [ -s "$m" ] && [ "$(jq -r '.seed // empty' "$m")" != "$2" ]; then
		jq --arg s "$2" '.seed = $s' "$m" > "$m.tmp" && mv "$m.tmp" "$m"
	fi
	exec > >(tee "$1/seed.txt")
}
