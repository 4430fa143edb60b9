#!/usr/bin/env bash
# A sport-10 seat-filler candidate judged as the issue asks, against the figures of the
# filler it would replace: its v4 headline (the benchmark at tasks version 4, whose opponents
# include version 4's filler), its exploitability (the standard attacker of sport-10: it
# starts from version 4's filler), the robustness benchmark on full and mixed tables at 500
# deals a cell (the rule bots' arm taken from the earlier 500-deal files: the same deals), and
# the table's talk figures (40 deals). Each part writes OUT/<part>-NAME.json.
#   bash results/robust/experiments/judge.sh FILE NAME OUT [full|mixed|bot|talk ...]
set -euo pipefail
file=${1:?usage: judge.sh FILE NAME OUT [PART ...]}; name=${2:?}; out=${3:?}; shift 3
parts=${*:-bot full mixed talk}
py=${PY:-.venv/bin/python}
exp=results/robust/experiments
mkdir -p "$out"
for part in $parts; do
  echo "[$(date -u +%H:%M:%S)] $name: $part"
  case $part in
    bot)
      $py -m baselines.benchmark --policy "$file" --task sport-10 --version 4 -q \
        --out "$out/v4-$name.json" --force
      $py -m baselines.exploit --policy "$file" --task sport-10 --config exploit/belief \
        --start baselines/checkpoints/filler/v4/sport.pt --steps 200000 --games 300 \
        --set belief=null -q --out "$out/exploit-$name.json" --force ;;
    full)
      $py -m baselines.robust --policy "$file" --tasks sport-10 --styles all --mixes full \
        --deals 500 --version 4 --reuse $exp/talk_layer_table2-sport-10-500.json -q \
        --out "$out/full-$name.json" --force ;;
    mixed)
      $py -m baselines.robust --policy "$file" --tasks sport-10 --styles all \
        --mixes half-rule,half-style --deals 500 --version 4 \
        --reuse $exp/talk_layer_table2-sport-10-mixed-500.json -q \
        --out "$out/mixed-$name.json" --force ;;
    talk)
      $py -c "import json, sys; from baselines.filler_table import measure; \
json.dump(measure(sys.argv[1], 'sport-10', 40), open(sys.argv[2], 'w'), indent=1)" \
        "$file" "$out/talk-$name.json" ;;
    *) echo "unknown part $part: bot, full, mixed, talk" >&2; exit 2 ;;
  esac
done
echo "[$(date -u +%H:%M:%S)] $name: done"
