#!/usr/bin/env bash
# The talk filler from scratch, seed by seed, on sport-10 or (TASK: a variant of ten seats,
# or a task such as city-13) another task with claims, whose rules and table (the task's
# play_knobs and seats) replace sport's: the clone
# (configs/filler/sport-talk.yaml), the talk-layer chain (talk_chain.sh: five links of 300
# updates), then two links under the layer's options for tables of mixed players
# (configs/filler/sport-talk-layer-table.yaml, the second from the first's weights). A link
# whose agent.pt is there is skipped (it resumes). On sport-10 about 11 min a link on one
# core (3,700-4,400 env steps/s): 80 min in all. Since the league's rule-bot styles decide a
# step in one call (`baselines.ppo.rollout.grouped`) a link of the league configs takes about
# 5 min alone on the 2-core machine (forum-10: 7,700-10,000 env steps/s).
# Club-10 took 104 minutes, online-10 114 (results/robust/README.md).
#   bash results/robust/experiments/table_chain.sh [SEED] [TASK]
set -euo pipefail
seed=${1:-1}
py=${PY:-.venv/bin/python}
here=$(dirname "$0")
source "$here/chain_task.sh"  # task, variant, seats, table (its --set arguments)
if [ ! -f "runs/filler_talk_clone_${variant}_1/agent.pt" ]; then
  echo "[$(date -u +%H:%M:%S)] the clone -> runs/filler_talk_clone_${variant}_1"
  $py -m baselines.train --config configs/filler/sport-talk.yaml "${table[@]}" --force
fi
bash "$here/talk_chain.sh" "$seed" "$task"
prev=runs/filler_talk_layer_town_6_${variant}_${seed}/agent.pt
for name in filler_talk_layer_table filler_talk_layer_table2; do
  out=runs/${name}_${variant}_${seed}
  echo "[$(date -u +%H:%M:%S)] link $name from $prev -> $out"
  if [ ! -f "$out/agent.pt" ]; then
    $py -m baselines.train --config configs/filler/sport-talk-layer-table.yaml \
      "${table[@]}" --set seed="$seed" --set exp_name=$name --set init_weights="$prev" --force
  fi
  prev=$out/agent.pt
done
echo "[$(date -u +%H:%M:%S)] chain done: $prev"
