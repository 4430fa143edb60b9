#!/usr/bin/env bash
# A seat-filler candidate judged as the issue asks, against the figures of the filler it
# would replace: its v4 headline (the benchmark at tasks version 4, whose opponents include
# version 4's filler), its exploitability (the task's standard attacker: it starts from
# version 4's filler, reading the belief piece where that filler does), the robustness
# benchmark on full and mixed tables at 500 deals a cell (on sport-10 the rule bots' arm is
# taken from the earlier 500-deal files, the same deals; elsewhere it is played too), and the
# table's talk figures (40 deals). Each part writes OUT/<part>-NAME.json. TASK (default
# sport-10) names the task.
#   [TASK=club-10] bash results/robust/experiments/judge.sh FILE NAME OUT [full|mixed|bot|talk ...]
set -euo pipefail
file=${1:?usage: judge.sh FILE NAME OUT [PART ...]}; name=${2:?}; out=${3:?}; shift 3
parts=${*:-bot full mixed talk}
py=${PY:-.venv/bin/python}
task=${TASK:-sport-10}
exp=results/robust/experiments
# the standard attacker's start and input (results/exploit/README.md): version 4's filler,
# the belief piece where that filler reads it (club-10, minimal-10)
start=filler; plain=(--set belief=null)
case $task in
  sport-10) start=baselines/checkpoints/filler/v4/sport.pt ;;
  club-10 | minimal-10) plain=() ;;
esac
# the rule bots' arm of earlier 500-deal runs on the same deals (sport-10's)
reuse_full=(); reuse_mixed=()
if [ "$task" = sport-10 ]; then
  reuse_full=(--reuse $exp/talk_layer_table2-sport-10-500.json)
  reuse_mixed=(--reuse $exp/talk_layer_table2-sport-10-mixed-500.json)
fi
mkdir -p "$out"
for part in $parts; do
  echo "[$(date -u +%H:%M:%S)] $name ($task): $part"
  case $part in
    bot)
      $py -m baselines.benchmark --policy "$file" --task "$task" --version 4 -q \
        --out "$out/v4-$name.json" --force
      $py -m baselines.exploit --policy "$file" --task "$task" --config exploit/belief \
        --start "$start" --steps 200000 --games 300 "${plain[@]}" -q \
        --out "$out/exploit-$name.json" --force ;;
    full)
      $py -m baselines.robust --policy "$file" --tasks "$task" --styles all --mixes full \
        --deals 500 --version 4 "${reuse_full[@]}" -q \
        --out "$out/full-$name.json" --force ;;
    mixed)
      $py -m baselines.robust --policy "$file" --tasks "$task" --styles all \
        --mixes half-rule,half-style --deals 500 --version 4 "${reuse_mixed[@]}" -q \
        --out "$out/mixed-$name.json" --force ;;
    talk)
      $py -c "import json, sys; from baselines.filler_table import measure; \
json.dump(measure(sys.argv[1], sys.argv[3], 40), open(sys.argv[2], 'w'), indent=1)" \
        "$file" "$out/talk-$name.json" "$task" ;;
    *) echo "unknown part $part: bot, full, mixed, talk" >&2; exit 2 ;;
  esac
done
echo "[$(date -u +%H:%M:%S)] $name: done"
