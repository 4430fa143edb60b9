#!/usr/bin/env bash
# Evaluate the shipped belief seat-fillers (league_v2, issue 28) on their benchmark tasks:
# each side against random, rule (v1), ppo and league, Wilson 95% intervals, GAMES a pair
# (default 200), the task's fixed deals (as results/v3 at 500 a pair).
#   scripts/eval_league_v2.sh            # every shipped file
#   GAMES=500 scripts/eval_league_v2.sh sport-10
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-200}
WORKERS=${WORKERS:-8}
PY=${PYTHON:-python}
declare -A FILE=([sport-10]=sport [club-10]=club [online-10]=online [city-13]=city-13)
tasks=("$@")
[ ${#tasks[@]} -eq 0 ] && tasks=(sport-10 club-10 online-10 city-13)
mkdir -p results/league_v2
for task in "${tasks[@]}"; do
  ckpt=baselines/checkpoints/league_v2/${FILE[$task]}.pt
  [ -f "$ckpt" ] || { echo "skip $task: no $ckpt"; continue; }
  nice $PY -m baselines.benchmark --policy "$ckpt" --task "$task" --games "$GAMES" \
    --workers "$WORKERS" --out "results/league_v2/$task.json"
done
