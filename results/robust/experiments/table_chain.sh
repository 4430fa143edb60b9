#!/usr/bin/env bash
# The sport-10 talk filler from scratch, seed by seed: the clone (configs/filler/sport-talk.yaml),
# the talk-layer chain (talk_chain.sh: five links of 300 updates), then two links under the
# layer's options for tables of mixed players (configs/filler/sport-talk-layer-table.yaml, the
# second from the first's weights). A link whose agent.pt is there is skipped (it resumes).
# About 11 min a link on one core (3,700-4,400 env steps/s): 80 min in all.
#   bash results/robust/experiments/table_chain.sh [SEED]
set -euo pipefail
seed=${1:-1}
py=${PY:-.venv/bin/python}
here=$(dirname "$0")
if [ ! -f runs/filler_talk_clone_sport_1/agent.pt ]; then
  echo "[$(date -u +%H:%M:%S)] the clone -> runs/filler_talk_clone_sport_1"
  $py -m baselines.train --config configs/filler/sport-talk.yaml --force
fi
bash "$here/talk_chain.sh" "$seed"
prev=runs/filler_talk_layer_town_6_sport_${seed}/agent.pt
for name in filler_talk_layer_table filler_talk_layer_table2; do
  out=runs/${name}_sport_${seed}
  echo "[$(date -u +%H:%M:%S)] link $name from $prev -> $out"
  if [ ! -f "$out/agent.pt" ]; then
    $py -m baselines.train --config configs/filler/sport-talk-layer-table.yaml \
      --set seed=$seed --set exp_name=$name --set init_weights=$prev --force
  fi
  prev=$out/agent.pt
done
echo "[$(date -u +%H:%M:%S)] chain done: $prev"
