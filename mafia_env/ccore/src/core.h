/* The C core's shared definitions: limits, the config, a game's state and its logs.
 *
 * The rule constants (enums, knob choices, tables) come from kinds.h, which setup.py
 * generates from the Python engine's definitions (mafia_env/ccore/generate.py); nothing here
 * copies one of them. See binding.c for how the files make one module.
 *
 * The engine's files (core.h, rng.h, observer.c, rules.c, masks.c, calls.c, pickle.c,
 * batch.c) are plain C over these structs and plain arrays: no CPython API. Everything that
 * talks to Python (arguments, objects, buffers, exceptions) is in binding*.c.
 */
#ifndef MAFIA_CCORE_CORE_H
#define MAFIA_CCORE_CORE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kinds.h"
#include "rng.h"

#define QCAP 256
#define STATE_VERSION 2 /* the layout of a game's memory in get_state / set_state */
#define KNOB_FIELD(name) int name;

/* ------------------------------------------------------------------------- the config */
typedef struct {
    int n, day_limit;
    /* knobs: the index of a choice, a bool, a count (mafia_env.ccore.config) */
    CORE_KNOBS(KNOB_FIELD)
    int night_order[8], n_night_order;
    int base_deal[MAXN];
    /* the observation layout (observe.py ObsLayout): offsets in the whole vector, -1 absent */
    int obs_size, private_size, public_size;
    int off[N_PIECES];
    int elim_cols, n_roles;
    int role_index[N_ROLES];
    int turn_pos[N_TURNS];
    int speech_turn[N_TURNS]; /* the spec's speech turns */
    int night_phase, over_phase;
    int tonight_start, tonight_end; /* in the private row */
    double named_scale, self_heal_scale, day_limit_f;
    int legacy_float; /* numpy < 2: float32 scalar + Python float is done in float64 */
    int heal_memory;  /* ONLINE-N9: the doctor's row keeps his own heals (heal_told off) */
    /* the action layout (actions.py ActionLayout) */
    int action_size;
    int act_off[N_ACTS], act_width[N_ACTS];
    int *dec_act, *dec_target, *dec_value; /* index -> (act, target, value) */
} Config;

/* ---------------------------------------------------------------------------- a game */
typedef struct {
    int16_t seat, act, target, value, turn, day;
} Input;

typedef struct {
    int8_t kind, actor, target, pad;
    int32_t seen_by;
    int64_t value; /* VOTING: an index into `seq` (its length, then the seats) */
} Event;

typedef struct {
    /* the game (engine/game.py Game) */
    uint64_t seed;
    MT rng;
    int32_t roles[MAXN], teams[MAXN];
    uint32_t mafia_mask, alive_bits;
    int32_t alive[MAXN];
    int32_t team_alive[3];
    int32_t fouls[MAXN], silenced_on[MAXN];
    int32_t day, winner, truncated, offender, actor, turn, stage;
    int32_t qhead, qlen;
    uint8_t qseat[QCAP], qturn[QCAP];
    int32_t talk_count;
    /* Today */
    int32_t first_speaker, n_nominees, rounds, spoken;
    int8_t nominees[MAXN];
    uint32_t nominee_bits;
    int32_t named[MAXN];
    /* Speech */
    int32_t acts_left, nominated, asked, asker, asker_turn;
    /* Vote */
    int32_t n_cands, n_ballots, n_crash, revote, n_tied, counted, n_waiting;
    int8_t cands[MAXN], tied[MAXN];
    uint32_t cand_bits;
    int8_t b_voter[MAXN], b_target[MAXN], b_silent[MAXN];
    int8_t c_voter[MAXN], c_yes[MAXN];
    int8_t waiting[MAXN]; /* an open count's voters who have not voted yet */
    /* Night */
    int32_t n_shots, n_execs, blocked, heal, maniac_shot, n_hunts, n_victims;
    int8_t shot_seat[MAXN], shot_target[MAXN], exec_seat[MAXN], exec_target[MAXN];
    int8_t hunt_hunter[MAXN], hunt_target[MAXN], hunt_status[MAXN], victims[MAXN];
    int32_t heal_prev, self_heals, don_introduced;
    int8_t gesture[MAXN]; /* ONLINE-D6: each seat's gesture shown (-1 none) */
    /* the observer's facts of the moment (observe.py VectorObserver, FollowsTurns) */
    int32_t o_actor, o_turn, o_turn_public, o_acts_made, o_over, o_nominee_count;
    int32_t o_count_len, o_count_next;
    int8_t o_count_order[MAXN];
    int32_t o_heals[MAXN], o_self_heals[MAXN]; /* ONLINE-N9: -2 a seat that is no doctor */
    /* the logs */
    int32_t log_events;
    int32_t n_events, cap_events, n_seq, cap_seq, n_inputs, cap_inputs;
    Event *events;
    int8_t *seq;
    Input *inputs;
    /* the observation rows: n private rows, then the public row */
    float *obs;
    /* the slot's stream: it seeds the slot's next game (VectorMafia) */
    MT slot;
} Game;

typedef struct {
    int act, has; /* has 0: the act takes no target (None) */
    uint32_t bits;
} Opt;

/* a small function of the per-move calls, inlined where it is called (as it was when its
   callers did its work themselves) */
#define ALWAYS_INLINE static inline __attribute__((always_inline))

#define MAXOPTS 16
#define AEC_POOL 4
#define MAXMASK 4096 /* action_size + 8 at most */

static int g_oom = 0; /* set when a log could not grow: raised as MemoryError after the call */

/* What went wrong in a call of the engine (the binding raises the matching Python error) */
typedef enum {
    CORE_OK = 0,
    CORE_ERR_OVER,      /* the game is over: nobody acts */
    CORE_ERR_INDEX,     /* an action index outside 0..action_size-1 */
    CORE_ERR_ACTION,    /* no such (act, target) */
    CORE_ERR_SEAT,      /* a seat not at the table */
    CORE_ERR_SEAT_TURN, /* no such seat or turn */
    CORE_ERR_LEFT,      /* the seat has already left the game */
    CORE_ERR_SPEECH,    /* table talk while nobody is speaking */
    CORE_ERR_STATE,     /* not a saved game of this core's variant and table */
    CORE_ERR_MEMORY,    /* out of memory */
} CoreErr;

/* The arrays a batched step writes (VectorMafia's), B games each: plain memory the binding
   gets from Python's buffers */
typedef struct {
    float *obs;         /* [B, obs_size] */
    int8_t *masks;      /* [B, action_size] */
    float *rewards;     /* [B, n] */
    uint8_t *dones;     /* [B] */
    uint8_t *trunc;     /* [B] */
    int64_t *winner;    /* [B] */
    int64_t *seat;      /* [B] */
    int64_t *team;      /* [B] */
    int64_t *teams;     /* [B, n] */
    int64_t *done_teams; /* [B, n] */
} Batch;

/* the floats of a game's observation rows: n private rows, then the public row */
static size_t obs_floats(const Config *c) {
    return (size_t)c->n * c->private_size + c->public_size;
}

/* ------------------------------------------------------------------------------ logs */
/* Make room for `need` items of `size` bytes in the log *buf of capacity *cap (doubling from
 * `first`); 0 and g_oom set where memory ran out. */
static int grow(void **buf, int32_t *cap, int need, size_t size, int first) {
    if (need <= *cap) return 1;
    int c = *cap ? 2 * *cap : first;
    while (c < need) c *= 2;
    void *p = realloc(*buf, (size_t)c * size);
    if (!p) {
        g_oom = 1;
        return 0;
    }
    *buf = p;
    *cap = c;
    return 1;
}

static void push_input(Game *g, int seat, int act, int target, int value, int turn) {
    if (!grow((void **)&g->inputs, &g->cap_inputs, g->n_inputs + 1, sizeof(Input), 256)) return;
    Input *x = &g->inputs[g->n_inputs++];
    x->seat = (int16_t)seat;
    x->act = (int16_t)act;
    x->target = (int16_t)target;
    x->value = (int16_t)value;
    x->turn = (int16_t)turn;
    x->day = (int16_t)g->day;
}

static int64_t push_seq(Game *g, const int8_t *seats, int len) {
    if (!grow((void **)&g->seq, &g->cap_seq, g->n_seq + len + 1, 1, 256)) return 0;
    int64_t at = g->n_seq;
    g->seq[g->n_seq++] = (int8_t)len;
    for (int i = 0; i < len; i++) g->seq[g->n_seq++] = seats[i];
    return at;
}

static void push_event(Game *g, int kind, int actor, int target, int64_t value, int seen_by) {
    if (!grow((void **)&g->events, &g->cap_events, g->n_events + 1, sizeof(Event), 512)) return;
    Event *e = &g->events[g->n_events++];
    e->kind = (int8_t)kind;
    e->actor = (int8_t)actor;
    e->target = (int8_t)target;
    e->pad = 0;
    e->seen_by = seen_by;
    e->value = value;
}

#endif
