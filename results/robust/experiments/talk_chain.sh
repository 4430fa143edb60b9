#!/usr/bin/env bash
# The talk-layer chain of configs/filler/sport-talk-layer*.yaml again under another seed, on
# sport-10 or (TASK: a variant of ten seats, or a task such as city-13) another task with
# claims, whose rules and table (the task's play_knobs and seats) replace sport's: from the
# clone of that variant and seed 1
# (runs/filler_talk_clone_<variant>_1/agent.pt), the first link with the layer over both
# teams, then four links with it over the town only, each link 300 updates (2.46M env steps)
# starting from the one before it. Each link's run writes runs/<exp_name>_<variant>_<seed>/;
# a link whose agent.pt is there is skipped (the chain resumes).
#   bash results/robust/experiments/talk_chain.sh SEED [TASK]
set -euo pipefail
seed=${1:?usage: talk_chain.sh SEED [TASK]}
py=${PY:-.venv/bin/python}
source "$(dirname "$0")/chain_task.sh"  # task, variant, seats, table (its --set arguments)
prev=runs/filler_talk_clone_${variant}_1/agent.pt
for link in layer-clone layer-town layer-town-long layer-town-longer layer-town-6; do
  name=filler_talk_${link//-/_}
  out=runs/${name}_${variant}_${seed}
  echo "[$(date -u +%H:%M:%S)] link $link from $prev -> $out"
  if [ ! -f "$out/agent.pt" ]; then
    $py -m baselines.train --config configs/filler/sport-talk-$link.yaml \
      "${table[@]}" --set seed="$seed" --set init_weights="$prev" --force
  fi
  prev=$out/agent.pt
done
echo "[$(date -u +%H:%M:%S)] chain done: $prev"
