#!/usr/bin/env bash
# npm run bench:create: the first hour, timed. Packs pagetree and create-pagetree, then ROUNDS times (default 3):
# `npm exec create-pagetree my-app` (what `npm create pagetree` runs: write the app, install it) in an empty
# directory, and `npm run dev` until its first page answers. The npm cache is warm after the first round; the
# medians are printed, and the files the scaffolder wrote (node_modules aside).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${ROUNDS:-3}
packs=$(mktemp -d)
npm pack --silent --pack-destination "$packs" >/dev/null
(cd create-pagetree && npm pack --silent --pack-destination "$packs" >/dev/null)
pagetree=$(ls "$packs"/pagetree-*.tgz)
scaffolder=$(ls "$packs"/create-pagetree-*.tgz)
port=${PORT:-3999}
now() { date +%s.%N; }
creates=()
devs=()
for round in $(seq "$rounds"); do
  dir=$(mktemp -d)
  t0=$(now)
  (cd "$dir" && npm exec --yes --package="$scaffolder" -- create-pagetree my-app --pagetree "$pagetree" >/dev/null 2>&1)
  t1=$(now)
  cd "$dir/my-app"
  PORT=$port setsid npm run dev >/dev/null 2>&1 & # its own process group: npm, pagetree-dev, tsx, the server
  dev=$!
  cd - >/dev/null
  until curl -sf "localhost:$port/" >/dev/null; do sleep 0.05; done
  t2=$(now)
  kill -- -"$dev"
  while curl -sf "localhost:$port/" >/dev/null; do sleep 0.1; done
  creates+=("$(echo "$t1 - $t0" | bc)")
  devs+=("$(echo "$t2 - $t1" | bc)")
  files=$(cd "$dir/my-app" && find . -path ./node_modules -prune -o -type f -print | wc -l)
  echo "round $round: create + install ${creates[-1]} s, npm run dev to the first page ${devs[-1]} s"
done
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
echo "medians of $rounds: create + install $(median "${creates[@]}") s; npm run dev to the first page $(median "${devs[@]}") s"
echo "files the scaffolder wrote (node_modules aside): $files"
