# Sourced by table_chain.sh and talk_chain.sh: TASK (a variant of ten seats, or a task such
# as city-13) as the chain's variant, seats and the task's rules over sport's configs
# (`--set` arguments in the array `table`; on sport-10 they are the configs' own).
task=${2:-sport}
variant=${task%-*}; seats=10
if [ "$task" != "$variant" ]; then seats=${task##*-}; fi
knobs=$($py -c "import json, sys; from mafia_env.tasks import get_task; \
print(json.dumps(get_task(sys.argv[1]).play_knobs()))" "$variant-$seats")
table=(--set variant="$variant" --set num_players="$seats" --set "knobs=$knobs")
