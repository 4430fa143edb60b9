/* The C core of the mafia_env engine: the accelerated twin of mafia_env/engine.
 *
 * The Python engine (mafia_env/engine/game.py, turns.py) is the reference and the readable
 * statement of the rules; every function here mirrors one there, under the same name, and
 * plays the same game bit for bit: the same random draws (CPython's MT19937 seeded from an
 * int, getrandbits, _randbelow, shuffle, choice, randrange), the same events, the same
 * observation rows (mafia_env/observe.py VectorObserver, folded event by event as they are
 * logged) and the same masks (mafia_env/actions.py ActionLayout). tests/test_ccore.py and
 * scripts/diff_backends.py check it against the Python engine move by move.
 *
 * Everything about a variant comes from Python as a dict (mafia_env/ccore.py: the knobs as
 * ints, the base deal, the observation and action layouts' offsets): the layouts are decided
 * in Python only. A `Core` holds B games of one (rules, table size), each with its game's
 * random stream, a slot stream that seeds its next game (VectorMafia's), its observation
 * rows, and logs of its inputs and (optionally) its events.
 *
 * Only the CPython C API is used (no numpy headers): arrays come in through the buffer
 * protocol.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAXN 30 /* seats: sequence codes hold 5 bits a seat, bitmasks 32 */
#define QCAP 256
#define PUBLIC (-1)
#define STATE_VERSION 2

/* ----------------------------------------------------------------- enums (kinds.py, ...) */
enum { T_SPEECH, T_LAST_WORD, T_TIE_SPEECH, T_VOTE, T_CRASH_VOTE, T_MAFIA_KILL, T_DON_CHECK,
       T_SHERIFF_CHECK, T_PUTANA, T_DOCTOR, T_MANIAC, T_EXECUTOR, T_HUNT, T_NAMING,
       T_MONOLOGUE, T_ANSWER, T_OPEN_VOTE, T_MEETING, T_DISCUSSION, T_GESTURE, N_TURNS };
enum { A_PASS, A_NOMINATE, A_VOTE, A_NIGHT, A_CLAIM_ROLE, A_CLAIM_CHECK, A_ACCUSE, A_VOUCH,
       A_VOTE_YES, A_VOTE_NO, A_ASK, A_ANSWER, A_REVEAL_DON, A_EXECUTOR, A_HUNT, N_ACTS };
enum { S_DAWN, S_SPEECHES, S_NAMING, S_MONOLOGUES, S_VOTE, S_TIE_SPEECHES, S_CRASH,
       S_LAST_WORDS, S_NIGHT, S_OVER, S_ZERO_NIGHT, S_COUNT, S_DISCUSSION };
enum { E_ROLE, E_TEAMMATE, E_NIGHT, E_DAY, E_SPEAK, E_CLAIM_ROLE, E_CLAIM_CHECK, E_ACCUSE,
       E_VOUCH, E_NOMINATE, E_END_SPEECH, E_NO_VOTE, E_BALLOT, E_TIE, E_CRASH_BALLOT,
       E_SPARED, E_ELIMINATED, E_MISS, E_SHOT, E_CHECK, E_FOUL, E_SILENCED, E_REVEAL,
       E_GAME_OVER, E_TERMINATED, E_VOTING, E_CRASH, E_VISIT, E_BLOCKED, E_HEAL,
       E_HEAL_STATE, E_DON_INTRODUCED, E_ASK, E_ANSWER, E_NAME, E_HUNT, E_EXECUTOR, E_TURN,
       E_MORNING, E_TALK, E_COUNT, E_PROPOSE, E_GESTURE, N_EVENTS };
enum { C_VOTE, C_NIGHT, C_FOUL, C_MAFIA, C_MANIAC, C_COMPANION, C_HUNTED, C_HUNTER,
       C_FORFEIT, C_REMOVED };
enum { R_CIVILIAN, R_SHERIFF, R_DOCTOR, R_PUTANA, R_MAFIA, R_DON, R_MANIAC, N_ROLES };
enum { TEAM_TOWN, TEAM_MAFIA, TEAM_MANIAC };
enum { O_TOWN, O_MAFIA, O_MANIAC, O_DRAW };
enum { NV_NO_NOMINEES, NV_SINGLE_NOMINEE_DAY1 };
enum { SP_NO_VOTES, SP_TIE, SP_CRASH_FAILED, SP_NO_MAJORITY };
enum { ANS_YES, ANS_NO, ANS_DONT_KNOW };
/* knob values, in the order of the knob's choices in engine/rules.py */
enum { NOM_SPEECH, NOM_ROUND, NOM_NONE };
enum { BAN_DAY, BAN_BALLOT };
enum { SILENT_LAST_NOMINEE, SILENT_ABSTAIN };
enum { SINGLE_VOTE, SINGLE_SKIP_DAY1, SINGLE_STRICT_MAJORITY };
enum { TIE_REVOTE_THEN_CRASH, TIE_REVOTE_THEN_ALL_LEAVE, TIE_REVOTE_THEN_NONE, TIE_NONE,
       TIE_RANDOM };
enum { ZV_TIE, ZV_SPARE };
enum { REVEAL_NONE, REVEAL_ALL, REVEAL_MANIAC };
enum { NS_PUTANA, NS_MAFIA, NS_DON, NS_SHERIFF, NS_DOCTOR, NS_MANIAC, NS_HUNT };
enum { KILL_UNANIMOUS, KILL_DON, KILL_EXECUTOR };
enum { SPLIT_MISS, SPLIT_FORFEIT };
enum { SELF_ALWAYS, SELF_LONE, SELF_NEVER };
enum { HA_MAFIA, HA_ALL };
enum { HS_ALWAYS, HS_ON_SHOT };
enum { ANN_PLAIN, ANN_TWO_BY_KILLER, ANN_BY_KILLER };
enum { WIN_PARITY, WIN_MAJORITY };
enum { WM_DEAD, WM_COUNTED };
enum { VC_HIDDEN, VC_OPEN };
enum { HR_NONE, HR_MAFIA, HR_ALL };
enum { NN_MISS, NN_FORFEIT };
enum { SJ_FIRED, SJ_MORNING };
enum { G_NONE, G_NAMED, G_ALL };
enum { NVOTE_LAST_NOMINEE, NVOTE_NONE };

static const int ROLE_TEAM[N_ROLES] = {TEAM_TOWN, TEAM_TOWN, TEAM_TOWN, TEAM_TOWN,
                                       TEAM_MAFIA, TEAM_MAFIA, TEAM_MANIAC};
static const int IS_SPEECH[N_TURNS] = {1, 1, 1, 0, 0, 0, 0, 0, 0, 0,
                                       0, 0, 0, 0, 1, 0, 0, 0, 1, 0};
static const int IS_PUBLIC[N_TURNS] = {1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
                                       0, 0, 0, 1, 1, 1, 1, 0, 1, 1};
static const int BLOCKABLE[N_TURNS] = {0, 0, 0, 0, 0, 0, 1, 1, 0, 1,
                                       1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
/* Act -> the event a speech act logs (turns.py SPEECH_EVENT) */
static const int SPEECH_EVENT[N_ACTS] = {-1, E_NOMINATE, -1, -1, E_CLAIM_ROLE, E_CLAIM_CHECK,
                                         E_ACCUSE, E_VOUCH, -1, -1, -1, -1, -1, -1, -1};

/* ------------------------------------------------------------ CPython's Mersenne Twister */
/* Modules/_randommodule.c: init_genrand, init_by_array, genrand_uint32 (MT19937). */
#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t state[MT_N];
    int32_t index;
} MT;

static void mt_init_genrand(MT *mt, uint32_t s) {
    uint32_t *m = mt->state;
    m[0] = s;
    for (int i = 1; i < MT_N; i++)
        m[i] = 1812433253U * (m[i - 1] ^ (m[i - 1] >> 30)) + (uint32_t)i;
    mt->index = MT_N;
}

static void mt_init_by_array(MT *mt, const uint32_t *key, size_t len) {
    uint32_t *m = mt->state;
    size_t i = 1, j = 0, k;
    mt_init_genrand(mt, 19650218U);
    k = (MT_N > len ? MT_N : len);
    for (; k; k--) {
        m[i] = (m[i] ^ ((m[i - 1] ^ (m[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            m[0] = m[MT_N - 1];
            i = 1;
        }
        if (j >= len) j = 0;
    }
    for (k = MT_N - 1; k; k--) {
        m[i] = (m[i] ^ ((m[i - 1] ^ (m[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            m[0] = m[MT_N - 1];
            i = 1;
        }
    }
    m[0] = 0x80000000U;
}

static uint32_t mt_next(MT *mt) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y, *m = mt->state;
    if (mt->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (m[kk] & 0x80000000U) | (m[kk + 1] & 0x7fffffffU);
            m[kk] = m[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (m[kk] & 0x80000000U) | (m[kk + 1] & 0x7fffffffU);
            m[kk] = m[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (m[MT_N - 1] & 0x80000000U) | (m[0] & 0x7fffffffU);
        m[MT_N - 1] = m[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        mt->index = 0;
    }
    y = m[mt->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random_seed() for a non-negative int below 2**64: its 32-bit words, least significant
   first, at least one */
static void mt_seed_u64(MT *mt, uint64_t seed) {
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    mt_init_by_array(mt, key, key[1] ? 2 : 1);
}

/* Random.getrandbits(k) for 1 <= k <= 32 */
static uint32_t mt_bits(MT *mt, int k) { return mt_next(mt) >> (32 - k); }

/* Random.getrandbits(63): words from the least significant, the last one's low bits dropped */
static uint64_t mt_bits63(MT *mt) {
    uint64_t lo = mt_next(mt);
    uint64_t hi = mt_next(mt) >> 1;
    return lo | (hi << 32);
}

/* Random._randbelow_with_getrandbits(n), n >= 1 */
static int mt_below(MT *mt, int n) {
    int k = 0;
    while ((n >> k) != 0) k++; /* n.bit_length() */
    uint32_t r = mt_bits(mt, k);
    while (r >= (uint32_t)n) r = mt_bits(mt, k);
    return (int)r;
}

/* ------------------------------------------------------------------------- the config */
enum {
    P_SEAT, P_ROLE, P_KNOWN_ROLES, P_CHECKS, P_MY_TURN, P_MY_NIGHT, P_TEAM_SHOTS,
    P_TEAM_EXECUTORS, P_BLOCKED, P_LAST_HEAL, P_SELF_HEALS, P_PHASE, P_DAY, P_SPEAKER,
    P_ACTS_LEFT, P_ALIVE, P_ELIMINATED, P_FOULS, P_REVEALED, P_NOMINEES, P_CANDIDATES,
    P_VOTES, P_VOTES_BEFORE, P_CRASH, P_NOMINATIONS, P_CLAIMED_ROLE, P_CLAIMED_CHECK,
    P_ACCUSED, P_VOUCHED, P_QUESTIONS, P_ANSWERS, P_NAMED, P_COUNTING, P_TEAM_PLAN, P_GESTURES,
    N_PIECES
};

typedef struct {
    int n, day_limit;
    /* knobs */
    int zero_night, zero_night_don, speech_acts, claims, nominations, self_nomination,
        self_vote, nominees_vote, nominee_ban, silent_vote, single_nominee, tie, tie_speeches,
        zero_votes, last_word_vote, last_word_night, reveal_on_death, mafia_target_team,
        don_check, sheriff_check, check_skip, fouls_mute, fouls_remove, mafia_kill,
        mafia_split, mafia_pass, self_shot, mafia_see_shots, don_known, heal_repeat,
        heal_self, heal_skip, heal_against, heal_spent, night_announce, putana_self,
        companion_heal, questions, naming_threshold, nominee_speeches, hunt, hunt_status,
        mafia_win, hunt_ratio, mafia_win_maniac, vote_count, fouls_take_last_word,
        hunted_reveal, companion_reason, heal_told, mafia_no_number, zero_night_meeting,
        shots_judged, discussion, gestures, nominee_votes;
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

#define MAXOPTS 16
#define AEC_POOL 4
#define MAXMASK 4096 /* action_size + 8 at most */

typedef struct {
    PyObject_HEAD
    Config cfg;
    int num;
    int deal[MAXN], has_deal; /* the deal of every game (knob roles), or by the seed */
    Game *games;
    int bound;
    Py_buffer b_obs, b_masks, b_rewards, b_dones, b_trunc, b_winner, b_seat, b_team, b_teams,
        b_done_teams;
    /* the AEC env's calls (aec_bind): its observation template, its masks' cache */
    int aec_bound;
    Py_buffer b_tmpl;
    PyObject *aec_copy, *aec_cache, *aec_make, *aec_no_mask;
    PyObject *aec_pool[AEC_POOL]; /* observations handed out: reused once nobody holds them */
    int aec_next;
} CoreObject;

static int g_oom = 0; /* set when a log could not grow: raised as MemoryError after the call */

/* ------------------------------------------------------------------------------ logs */
/* Make room for `need` items of `size` bytes in the log *buf of capacity *cap (doubling from
 * `first`); 0 and g_oom set where memory ran out. */
static int grow(void **buf, int32_t *cap, int need, size_t size, int first) {
    if (need <= *cap) return 1;
    int c = *cap ? 2 * *cap : first;
    while (c < need) c *= 2;
    void *p = PyMem_Realloc(*buf, (size_t)c * size);
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

/* --------------------------------------------------------- the observer (observe.py) */
#define PRIV(c, g, s) ((g)->obs + (size_t)(s) * (c)->private_size)
#define PUB(c, g) ((g)->obs + (size_t)(c)->n * (c)->private_size)
#define POFF(c, p) ((c)->off[p] - (c)->private_size) /* a public piece's offset in its row */

/* a float32 element += a Python float, as numpy does it */
static inline void add_scalar(const Config *c, float *x, double v) {
    if (c->legacy_float)
        *x = (float)((double)*x + v);
    else
        *x = *x + (float)v;
}

/* the column of role `value` in the role pieces (-1: not a role of this variant) */
static inline int role_col(const Config *c, int64_t value) {
    return value >= 0 && value < N_ROLES ? c->role_index[value] : -1;
}

/* VectorObserver._saw_heal_state: the doctor's last counted heal and his self-heals */
static void heal_state(const Config *c, Game *g, int seat, int target, int64_t value) {
    if (c->off[P_LAST_HEAL] < 0 || c->off[P_SELF_HEALS] < 0) return;
    float *v = PRIV(c, g, seat);
    float *lh = v + c->off[P_LAST_HEAL];
    memset(lh, 0, sizeof(float) * c->n);
    if (target >= 0) lh[target] = 1;
    double x = (double)value * c->self_heal_scale;
    v[c->off[P_SELF_HEALS]] = (float)(x < 1.0 ? x : 1.0);
}

/* VectorObserver._show_count: the nominee whose votes are being counted in the open */
static void show_count(const Config *c, Game *g) {
    if (c->off[P_COUNTING] < 0) return;
    float *counting = PUB(c, g) + POFF(c, P_COUNTING);
    memset(counting, 0, sizeof(float) * c->n);
    if (g->o_count_next < g->o_count_len) counting[g->o_count_order[g->o_count_next]] = 1;
}

static void obs_public(const Config *c, Game *g, int kind, int actor, int target, int64_t value,
                       const int8_t *seqv, int seqn) {
    float *pub = PUB(c, g);
    int n = c->n, R = c->n_roles, rc = role_col(c, value);
    switch (kind) {
    case E_CLAIM_ROLE: {
        if (actor == g->o_actor) g->o_acts_made++;
        float *row = pub + POFF(c, P_CLAIMED_ROLE) + actor * R;
        memset(row, 0, sizeof(float) * R);
        if (rc >= 0) row[rc] = 1;
        break;
    }
    case E_CLAIM_CHECK:
        if (actor == g->o_actor) g->o_acts_made++;
        pub[POFF(c, P_CLAIMED_CHECK) + (actor * n + target) * 2 + (int)value] = 1;
        break;
    case E_ACCUSE:
        if (actor == g->o_actor) g->o_acts_made++;
        pub[POFF(c, P_ACCUSED) + actor * n + target] = 1;
        break;
    case E_VOUCH:
        if (actor == g->o_actor) g->o_acts_made++;
        pub[POFF(c, P_VOUCHED) + actor * n + target] = 1;
        break;
    case E_NOMINATE:
        g->o_nominee_count++;
        pub[POFF(c, P_NOMINEES) + target] = (float)((double)g->o_nominee_count / (double)n);
        if (actor >= 0) { /* CLUB-E1 nominations by count have no nominator */
            add_scalar(c, &pub[POFF(c, P_NOMINATIONS) + actor * n + target], 1.0 / c->day_limit_f);
            if (actor == g->o_actor) g->o_acts_made++;
        }
        break;
    case E_NAME:
        if (c->off[P_NAMED] < 0) break;
        add_scalar(c, &pub[POFF(c, P_NAMED) + target], c->named_scale);
        add_scalar(c, &pub[POFF(c, P_NOMINATIONS) + actor * n + target], 1.0 / c->day_limit_f);
        break;
    case E_ASK: {
        if (actor == g->o_actor) g->o_acts_made++;
        if (c->off[P_QUESTIONS] < 0) break;
        float *row = pub + POFF(c, P_QUESTIONS) + target * R;
        memset(row, 0, sizeof(float) * R);
        if (rc >= 0) row[rc] = 1;
        break;
    }
    case E_ANSWER: {
        if (c->off[P_ANSWERS] < 0) break;
        float *row = pub + POFF(c, P_ANSWERS) + actor * 3;
        memset(row, 0, sizeof(float) * 3);
        row[value] = 1;
        break;
    }
    case E_BALLOT:
        if (target >= 0) pub[POFF(c, P_VOTES) + actor * n + target] = 1;
        break;
    case E_VOTING: {
        float *votes = pub + POFF(c, P_VOTES), *before = pub + POFF(c, P_VOTES_BEFORE);
        float q = (float)(2 * c->day_limit_f);
        for (int i = 0; i < n * n; i++) {
            before[i] = before[i] + votes[i] / q;
            votes[i] = 0;
        }
        float *cands = pub + POFF(c, P_CANDIDATES);
        memset(cands, 0, sizeof(float) * n);
        for (int i = 0; i < seqn; i++) cands[seqv[i]] = 1;
        if (c->off[P_COUNTING] >= 0) { /* CLUB-E7, ONLINE-V7: the first nominee first */
            memcpy(g->o_count_order, seqv, (size_t)seqn);
            g->o_count_len = seqn;
            g->o_count_next = 0;
            show_count(c, g);
        }
        break;
    }
    case E_COUNT: /* one nominee's open count: who voted for him */
        for (int s = 0; s < n; s++)
            if (value >> s & 1) pub[POFF(c, P_VOTES) + s * n + target] = 1;
        g->o_count_next++;
        show_count(c, g);
        break;
    case E_MORNING: /* ONLINE-N9: each doctor's row keeps his own heal and self-heals */
        if (!c->heal_memory) break;
        for (int s = 0; s < n; s++) {
            int heal = g->o_heals[s];
            if (heal == -2) continue;
            g->o_self_heals[s] += heal == s;
            heal_state(c, g, s, heal, g->o_self_heals[s]);
            g->o_heals[s] = -1;
        }
        break;
    case E_CRASH: {
        float *cands = pub + POFF(c, P_CANDIDATES);
        memset(cands, 0, sizeof(float) * n);
        for (int s = 0; s < n; s++)
            if (value >> s & 1) cands[s] = 1;
        break;
    }
    case E_CRASH_BALLOT:
        pub[POFF(c, P_CRASH) + actor * 2 + (value ? 0 : 1)] = 1;
        break;
    case E_ELIMINATED: {
        pub[POFF(c, P_ALIVE) + target] = 0;
        int col = value == C_REMOVED ? C_FOUL : (int)value;
        if (col < c->elim_cols) pub[POFF(c, P_ELIMINATED) + target * c->elim_cols + col] = 1;
        if (c->off[P_GESTURES] >= 0) /* ONLINE-D6: a camera that goes dark shows no gesture */
            memset(pub + POFF(c, P_GESTURES) + target * 3, 0, sizeof(float) * 3);
        break;
    }
    case E_GESTURE: {
        if (c->off[P_GESTURES] < 0) break;
        float *row = pub + POFF(c, P_GESTURES) + actor * 3;
        memset(row, 0, sizeof(float) * 3);
        if (value >= 0) row[value] = 1;
        break;
    }
    case E_DAY:
        pub[POFF(c, P_DAY)] = (float)((double)value / c->day_limit_f);
        memset(pub + POFF(c, P_CRASH), 0, sizeof(float) * n * 2);
        memset(pub + POFF(c, P_NOMINEES), 0, sizeof(float) * n);
        if (c->off[P_NAMED] >= 0) memset(pub + POFF(c, P_NAMED), 0, sizeof(float) * n);
        memset(pub + POFF(c, P_CANDIDATES), 0, sizeof(float) * n);
        if (c->off[P_COUNTING] >= 0) memset(pub + POFF(c, P_COUNTING), 0, sizeof(float) * n);
        g->o_nominee_count = 0;
        break;
    case E_FOUL: {
        double f = (double)value / 4.0;
        pub[POFF(c, P_FOULS) + target] = (float)(f < 1.0 ? f : 1.0);
        break;
    }
    case E_REVEAL:
        if (rc >= 0) pub[POFF(c, P_REVEALED) + target * R + rc] = 1;
        break;
    case E_NIGHT: /* tonight's private facts start afresh, for every seat */
        if (c->tonight_end > c->tonight_start)
            for (int s = 0; s < n; s++)
                memset(PRIV(c, g, s) + c->tonight_start, 0,
                       sizeof(float) * (c->tonight_end - c->tonight_start));
        break;
    case E_GAME_OVER:
    case E_TERMINATED:
        g->o_over = 1;
        break;
    case E_SPEAK:
        g->o_actor = actor;
        g->o_turn = (int)value;
        g->o_turn_public = 1;
        g->o_acts_made = 0;
        break;
    case E_TURN:
        g->o_actor = actor;
        g->o_turn = (int)value;
        g->o_turn_public = 1;
        break;
    default:
        break;
    }
}

static void obs_private(const Config *c, Game *g, int seat, int kind, int actor, int target,
                        int64_t value) {
    float *v = PRIV(c, g, seat);
    int n = c->n, R = c->n_roles, rc = role_col(c, value);
    switch (kind) {
    case E_ROLE:
        if (rc >= 0) v[c->off[P_ROLE] + rc] = 1;
        if (rc >= 0) v[c->off[P_KNOWN_ROLES] + actor * R + rc] = 1;
        if (value == R_DOCTOR && c->heal_memory) g->o_heals[seat] = -1; /* ONLINE-N9 */
        break;
    case E_TEAMMATE:
        if (rc >= 0) v[c->off[P_KNOWN_ROLES] + target * R + rc] = 1;
        break;
    case E_CHECK:
        v[c->off[P_CHECKS] + target * 2 + (value ? 0 : 1)] = 1;
        break;
    case E_SHOT:
        if (target < 0) break;
        if (c->off[P_TEAM_SHOTS] >= 0) v[c->off[P_TEAM_SHOTS] + actor * n + target] = 1;
        if (c->off[P_MY_NIGHT] >= 0 && seat == actor) v[c->off[P_MY_NIGHT] + target] = 1;
        break;
    case E_PROPOSE: { /* SPORT-N3: the team's meeting */
        if (c->off[P_TEAM_PLAN] < 0) break;
        float *row = v + c->off[P_TEAM_PLAN] + actor * n;
        memset(row, 0, sizeof(float) * n);
        if (target >= 0) row[target] = 1;
        break;
    }
    case E_EXECUTOR:
        if (target < 0 || c->off[P_TEAM_EXECUTORS] < 0) break;
        v[c->off[P_TEAM_EXECUTORS] + actor * n + target] = 1;
        break;
    case E_VISIT:
    case E_HEAL:
    case E_HUNT:
        if (c->off[P_MY_NIGHT] >= 0 && target >= 0) v[c->off[P_MY_NIGHT] + target] = 1;
        if (kind == E_HEAL && c->heal_memory) g->o_heals[seat] = target; /* ONLINE-N9 */
        break;
    case E_BLOCKED:
        if (c->off[P_BLOCKED] >= 0) v[c->off[P_BLOCKED]] = 1;
        break;
    case E_HEAL_STATE:
        heal_state(c, g, seat, target, value);
        break;
    case E_DON_INTRODUCED: {
        float *row = v + c->off[P_KNOWN_ROLES] + actor * R;
        memset(row, 0, sizeof(float) * R);
        if (rc >= 0) row[rc] = 1;
        break;
    }
    default:
        break;
    }
}

/* Game._log: the event goes to the log (if kept) and to the observation rows of who saw it */
static void log_ev(const Config *c, Game *g, int kind, int actor, int target, int64_t value,
                   int seen_by) {
    if (g->log_events) push_event(g, kind, actor, target, value, seen_by);
    if (seen_by < 0) {
        obs_public(c, g, kind, actor, target, value, NULL, 0);
        return;
    }
    if (kind == E_TURN) { /* a night turn: its taker's alone */
        g->o_actor = actor;
        g->o_turn = (int)value;
        g->o_turn_public = 0;
        return;
    }
    uint32_t bits = (uint32_t)seen_by;
    while (bits) {
        int s = __builtin_ctz(bits);
        obs_private(c, g, s, kind, actor, target, value);
        bits &= bits - 1;
    }
}

static void log_voting(const Config *c, Game *g, const int8_t *seats, int len) {
    int64_t at = g->log_events ? push_seq(g, seats, len) : 0;
    if (g->log_events) push_event(g, E_VOTING, -1, -1, at, PUBLIC);
    obs_public(c, g, E_VOTING, -1, -1, 0, seats, len);
}

/* ------------------------------------------------------------------------- the queue */
static inline void q_append(Game *g, int seat, int turn) {
    int i = (g->qhead + g->qlen) & (QCAP - 1);
    g->qseat[i] = (uint8_t)seat;
    g->qturn[i] = (uint8_t)turn;
    g->qlen++;
}
static inline void q_appendleft(Game *g, int seat, int turn) {
    g->qhead = (g->qhead - 1) & (QCAP - 1);
    g->qseat[g->qhead] = (uint8_t)seat;
    g->qturn[g->qhead] = (uint8_t)turn;
    g->qlen++;
}
static inline void q_popleft(Game *g, int *seat, int *turn) {
    *seat = g->qseat[g->qhead];
    *turn = g->qturn[g->qhead];
    g->qhead = (g->qhead + 1) & (QCAP - 1);
    g->qlen--;
}
static void q_drop_seat(Game *g, int seat) {
    uint8_t s[QCAP], t[QCAP];
    int m = 0;
    for (int k = 0; k < g->qlen; k++) {
        int i = (g->qhead + k) & (QCAP - 1);
        if (g->qseat[i] != seat) {
            s[m] = g->qseat[i];
            t[m] = g->qturn[i];
            m++;
        }
    }
    g->qhead = 0;
    g->qlen = m;
    memcpy(g->qseat, s, m);
    memcpy(g->qturn, t, m);
}

static int q_has(const Game *g, int seat, int turn) {
    for (int k = 0; k < g->qlen; k++) {
        int i = (g->qhead + k) & (QCAP - 1);
        if (g->qseat[i] == seat && g->qturn[i] == turn) return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ the engine */
static void advance(const Config *c, Game *g);
static void start_night(const Config *c, Game *g);

static inline int popcount(uint32_t x) { return __builtin_popcount(x); }

static void end_turns(Game *g) {
    g->actor = -1;
    g->turn = -1;
    g->qhead = g->qlen = 0;
    g->stage = S_OVER;
}

static void finish(const Config *c, Game *g, int outcome) {
    g->winner = outcome;
    log_ev(c, g, E_GAME_OVER, -1, -1, outcome, PUBLIC);
    end_turns(g);
}

static void eliminate(const Config *c, Game *g, int seat, int cause) {
    g->alive[seat] = 0;
    g->alive_bits &= ~(1U << seat);
    g->team_alive[g->teams[seat]]--;
    log_ev(c, g, E_ELIMINATED, -1, seat, cause, PUBLIC);
    int reveal = c->reveal_on_death, role = g->roles[seat]; /* CLUB-E4, CLUB-N3; CITY-M1 */
    int hunted = cause == C_HUNTED && c->hunted_reveal != HR_NONE &&
                 (c->hunted_reveal == HR_ALL || ROLE_TEAM[role] == TEAM_MAFIA); /* FORUM-M1 */
    if (reveal == REVEAL_ALL || (reveal == REVEAL_MANIAC && role == R_MANIAC) || hunted)
        log_ev(c, g, E_REVEAL, -1, seat, g->roles[seat], PUBLIC);
}

/* Game._check_win (COMMON-4, SPORT-W1) */
static int check_win(const Config *c, Game *g) {
    int town = g->team_alive[0], black = g->team_alive[1], maniac = g->team_alive[2];
    int outcome;
    /* FORUM-W1 (knob mafia_win_maniac): the maniac dead first, or counted among the others */
    int others = c->mafia_win_maniac == WM_DEAD ? (maniac == 0 ? town : -1) : town + maniac;
    if (black == 0 && maniac == 0)
        outcome = O_TOWN;
    else if (others >= 0 && (black > others || (black == others && c->mafia_win == WIN_PARITY)))
        outcome = O_MAFIA;
    else if (black == 0 && town <= 1)
        outcome = O_MANIAC;
    else if (town == 0 && black + maniac <= 2)
        outcome = O_DRAW;
    else
        return 0;
    finish(c, g, outcome);
    return 1;
}

static int next_alive(const Config *c, Game *g, int seat) {
    for (int k = 1; k <= c->n; k++) {
        int s = (seat + k) % c->n;
        if (g->alive[s]) return s;
    }
    return -1;
}

static int hunt_allowed(const Config *c, Game *g) {
    int town = g->team_alive[0], black = g->team_alive[1];
    return c->hunt && town > 1 && town > c->hunt_ratio * black;
}

static int may_shoot_self(const Config *c, Game *g) {
    return c->self_shot == SELF_ALWAYS ||
           (c->self_shot == SELF_LONE && g->team_alive[TEAM_MAFIA] == 1);
}

static void start_day(const Config *c, Game *g) {
    g->day++;
    if (g->day > c->day_limit) { /* COMMON-4: truncated as a draw */
        g->truncated = 1;
        finish(c, g, O_DRAW);
        return;
    }
    log_ev(c, g, E_DAY, -1, -1, g->day, PUBLIC);
    g->n_nominees = 0;
    g->nominee_bits = 0;
    g->revote = 0;
    g->stage = S_SPEECHES;
    if (c->last_word_night)
        for (int i = 0; i < g->n_victims; i++) q_append(g, g->victims[i], T_LAST_WORD);
    g->first_speaker = next_alive(c, g, g->first_speaker); /* ONLINE-D2, SPORT-D3 */
    int n = c->n, first = g->first_speaker;
    for (int k = 0; k < n; k++) { /* the living seats from the first speaker, in a circle */
        int s = (first + k) % n;
        if (!g->alive[s]) continue;
        if (g->silenced_on[s] == g->day) /* SPORT-F1: three fouls, no speech */
            log_ev(c, g, E_SILENCED, -1, s, -1, PUBLIC);
        else
            q_append(g, s, T_SPEECH);
    }
}

static void queue_count(const Config *c, Game *g);

static void start_vote(const Config *c, Game *g, const int8_t *cands, int len) {
    if (len == 0) {
        log_ev(c, g, E_NO_VOTE, -1, -1, NV_NO_NOMINEES, PUBLIC);
        start_night(c, g);
        return;
    }
    g->stage = c->vote_count == VC_OPEN ? S_COUNT : S_VOTE;
    int8_t tmp[MAXN];
    memcpy(tmp, cands, len); /* `cands` may be the game's own list */
    memcpy(g->cands, tmp, len);
    g->n_cands = len;
    g->cand_bits = 0;
    for (int i = 0; i < len; i++) g->cand_bits |= 1U << tmp[i];
    g->n_ballots = 0;
    log_voting(c, g, tmp, len); /* ONLINE-V1: in nomination order */
    uint32_t banned = 0; /* CLUB-E3: nominees may not vote (knob nominee_ban) */
    if (!c->nominees_vote) banned = c->nominee_ban == BAN_DAY ? g->nominee_bits : g->cand_bits;
    if (c->vote_count == VC_OPEN) { /* CLUB-E7, ONLINE-V7: nominee by nominee, in the open */
        g->n_waiting = 0;
        for (int s = 0; s < c->n; s++)
            if (g->alive[s] && !(banned >> s & 1)) g->waiting[g->n_waiting++] = (int8_t)s;
        g->counted = 0;
        queue_count(c, g);
        return;
    }
    for (int s = 0; s < c->n; s++)
        if (g->alive[s] && !(banned >> s & 1)) q_append(g, s, T_VOTE);
}

/* Game._queue_count: every voter who has not voted and may vote for the nominee counted */
static void queue_count(const Config *c, Game *g) {
    int cand = g->cands[g->counted];
    if (!g->alive[cand]) return;
    for (int i = 0; i < g->n_waiting; i++) {
        int s = g->waiting[i];
        if (g->alive[s] && (c->self_vote || s != cand)) q_append(g, s, T_OPEN_VOTE);
    }
}

static void decide_vote(const Config *c, Game *g);
static void barred_votes(const Config *c, Game *g);

/* Game._end_count: one nominee's hands go public; after the last, the votes not given */
static void end_count(const Config *c, Game *g) {
    int cand = g->cands[g->counted];
    uint32_t hands = 0;
    for (int i = 0; i < g->n_ballots; i++)
        if (g->b_target[i] == cand && g->alive[g->b_voter[i]]) hands |= 1U << g->b_voter[i];
    log_ev(c, g, E_COUNT, -1, cand, hands, PUBLIC);
    g->counted++;
    if (g->counted < g->n_cands) {
        queue_count(c, g);
        return;
    }
    g->counted = -1;
    int last = c->silent_vote == SILENT_LAST_NOMINEE ? g->cands[g->n_cands - 1] : -1;
    for (int i = 0; i < g->n_waiting; i++) {
        int s = g->waiting[i];
        if (!g->alive[s]) continue;
        int k = g->n_ballots++;
        g->b_voter[k] = (int8_t)s;
        g->b_target[k] = (int8_t)last;
        g->b_silent[k] = last >= 0;
        log_ev(c, g, E_BALLOT, s, last, last >= 0, PUBLIC);
    }
    barred_votes(c, g);
    decide_vote(c, g);
}

/* Game._barred_votes (CLUB-E8): a nominee keeps his one vote: it goes to the last nominee */
static void barred_votes(const Config *c, Game *g) {
    if (c->nominees_vote || c->nominee_votes != NVOTE_LAST_NOMINEE) return;
    const int8_t *barred = c->nominee_ban == BAN_DAY ? g->nominees : g->cands;
    int nb = c->nominee_ban == BAN_DAY ? g->n_nominees : g->n_cands;
    int last = g->cands[g->n_cands - 1];
    for (int i = 0; i < nb; i++) { /* in nomination order */
        int s = barred[i];
        if (!g->alive[s]) continue;
        int k = g->n_ballots++;
        g->b_voter[k] = (int8_t)s;
        g->b_target[k] = (int8_t)last;
        g->b_silent[k] = 1;
        log_ev(c, g, E_BALLOT, s, last, 2, PUBLIC);
    }
}

static void after_nominations(const Config *c, Game *g) {
    int8_t noms[MAXN];
    int k = 0;
    for (int i = 0; i < g->n_nominees; i++)
        if (g->alive[g->nominees[i]]) noms[k++] = g->nominees[i];
    if (k == 0) {
        log_ev(c, g, E_NO_VOTE, -1, -1, NV_NO_NOMINEES, PUBLIC); /* CLUB-E6 */
        start_night(c, g);
    } else if (k == 1 && g->day == 1 && c->single_nominee == SINGLE_SKIP_DAY1) {
        log_ev(c, g, E_NO_VOTE, -1, -1, NV_SINGLE_NOMINEE_DAY1, PUBLIC); /* SPORT-D4 */
        start_night(c, g);
    } else if (c->nominee_speeches) { /* CLUB-E2: monologues in nomination order */
        g->stage = S_MONOLOGUES;
        for (int i = 0; i < k; i++) q_append(g, noms[i], T_MONOLOGUE);
    } else {
        start_vote(c, g, noms, k);
    }
}

/* Game._discussion_round (ONLINE-D5): every living player, from the day's first speaker */
static void discussion_round(const Config *c, Game *g) {
    g->rounds++;
    g->spoken = 0;
    int n = c->n, first = next_alive(c, g, (g->first_speaker - 1 + n) % n);
    for (int k = 0; k < n; k++) {
        int s = (first + k) % n;
        if (g->alive[s] && g->silenced_on[s] != g->day) q_append(g, s, T_DISCUSSION);
    }
}

static void after_speeches(const Config *c, Game *g);

static void end_speeches(const Config *c, Game *g) {
    if (c->discussion > 0) { /* ONLINE-D5: every living player may speak */
        g->stage = S_DISCUSSION;
        g->rounds = 0;
        discussion_round(c, g);
    } else {
        after_speeches(c, g);
    }
}

/* Game._end_discussion: another round while rounds are left and someone spoke */
static void end_discussion(const Config *c, Game *g) {
    if (g->spoken && g->rounds < c->discussion)
        discussion_round(c, g);
    else
        after_speeches(c, g);
}

static void after_speeches(const Config *c, Game *g) {
    if (c->nominations == NOM_ROUND) { /* CLUB-E1: every player, from seat 1, names one */
        g->stage = S_NAMING;
        memset(g->named, 0, sizeof(g->named));
        for (int s = 0; s < c->n; s++)
            if (g->alive[s]) q_append(g, s, T_NAMING);
    } else {
        after_nominations(c, g);
    }
}

static void end_monologues(const Config *c, Game *g) {
    int8_t noms[MAXN];
    int k = 0;
    for (int i = 0; i < g->n_nominees; i++)
        if (g->alive[g->nominees[i]]) noms[k++] = g->nominees[i];
    start_vote(c, g, noms, k);
}

static void spare(const Config *c, Game *g, int why) {
    log_ev(c, g, E_SPARED, -1, -1, why, PUBLIC);
    start_night(c, g);
}

static void remove_by_vote(const Config *c, Game *g, const int8_t *leaving, int len) {
    int8_t tmp[MAXN];
    memcpy(tmp, leaving, len);
    for (int i = 0; i < len; i++) eliminate(c, g, tmp[i], C_VOTE);
    if (check_win(c, g)) return;
    if (c->last_word_vote) {
        g->stage = S_LAST_WORDS;
        for (int i = 0; i < len; i++) q_append(g, tmp[i], T_LAST_WORD);
    } else {
        start_night(c, g);
    }
}

/* Game._resolve_vote: a hidden ballot closes, its ballots go public together (COMMON-8) */
static void resolve_vote(const Config *c, Game *g) {
    for (int i = 0; i < g->n_ballots; i++)
        if (g->alive[g->b_voter[i]])
            log_ev(c, g, E_BALLOT, g->b_voter[i], g->b_target[i], g->b_silent[i], PUBLIC);
    barred_votes(c, g);
    decide_vote(c, g);
}

/* Game._decide_vote: one leaves, a tie (re-vote, crash), or nobody */
static void decide_vote(const Config *c, Game *g) {
    int8_t cands[MAXN];
    int nc = 0, tally[MAXN];
    for (int i = 0; i < g->n_cands; i++)
        if (g->alive[g->cands[i]]) cands[nc++] = g->cands[i];
    uint32_t in_tally = 0;
    for (int i = 0; i < nc; i++) {
        in_tally |= 1U << cands[i];
        tally[cands[i]] = 0;
    }
    for (int i = 0; i < g->n_ballots; i++) {
        int voter = g->b_voter[i], target = g->b_target[i];
        if (g->alive[voter] && target >= 0 && (in_tally >> target & 1)) tally[target]++;
    }
    if (nc == 1 && c->single_nominee == SINGLE_STRICT_MAJORITY) { /* ONLINE-V2 */
        int cand = cands[0], others = 0;
        for (int i = 0; i < g->n_ballots; i++)
            if (g->b_target[i] == cand && g->b_voter[i] != cand && g->alive[g->b_voter[i]])
                others++;
        if (2 * others > popcount(g->alive_bits))
            remove_by_vote(c, g, cands, 1);
        else
            spare(c, g, SP_NO_MAJORITY);
        return;
    }
    int best = 0;
    for (int i = 0; i < nc; i++)
        if (tally[cands[i]] > best) best = tally[cands[i]];
    if (best == 0 && (c->zero_votes == ZV_SPARE || nc < 2)) { /* ONLINE-V4: 0:0 ties */
        spare(c, g, SP_NO_VOTES);
        return;
    }
    int8_t top[MAXN];
    int nt = 0;
    uint32_t top_bits = 0;
    for (int i = 0; i < nc; i++)
        if (tally[cands[i]] == best) {
            top[nt++] = cands[i];
            top_bits |= 1U << cands[i];
        }
    if (nt == 1) {
        remove_by_vote(c, g, top, 1);
        return;
    }
    log_ev(c, g, E_TIE, -1, -1, top_bits, PUBLIC);
    if (c->tie == TIE_RANDOM) {
        int8_t one = top[mt_below(&g->rng, nt)]; /* rng.choice(top) */
        remove_by_vote(c, g, &one, 1);
    } else if (c->tie == TIE_NONE) {
        spare(c, g, SP_TIE);
    } else if (!g->revote) { /* first tie: (speeches), then a re-vote among the tied */
        g->revote = 1;
        memcpy(g->tied, top, nt);
        g->n_tied = nt;
        g->stage = S_TIE_SPEECHES;
        if (c->tie_speeches)
            for (int i = 0; i < nt; i++) q_append(g, top[i], T_TIE_SPEECH);
    } else if (c->tie == TIE_REVOTE_THEN_CRASH) { /* SPORT-D3: the car crash */
        g->stage = S_CRASH;
        memcpy(g->cands, top, nt);
        g->n_cands = nt;
        g->cand_bits = top_bits;
        g->n_crash = 0;
        log_ev(c, g, E_CRASH, -1, -1, top_bits, PUBLIC);
        for (int s = 0; s < c->n; s++)
            if (g->alive[s]) q_append(g, s, T_CRASH_VOTE);
    } else if (c->tie == TIE_REVOTE_THEN_ALL_LEAVE) {
        remove_by_vote(c, g, top, nt);
    } else {
        spare(c, g, SP_TIE);
    }
}

static void resolve_crash(const Config *c, Game *g) {
    int yes = 0;
    for (int i = 0; i < g->n_crash; i++) { /* COMMON-8: public once all voted */
        int voter = g->c_voter[i];
        if (g->alive[voter]) {
            log_ev(c, g, E_CRASH_BALLOT, voter, -1, g->c_yes[i], PUBLIC);
            yes += g->c_yes[i];
        }
    }
    if (2 * yes > popcount(g->alive_bits)) { /* strictly more than half say yes */
        int8_t leaving[MAXN];
        int k = 0;
        for (int i = 0; i < g->n_cands; i++)
            if (g->alive[g->cands[i]]) leaving[k++] = g->cands[i];
        remove_by_vote(c, g, leaving, k);
    } else {
        spare(c, g, SP_CRASH_FAILED);
    }
}

static void start_night(const Config *c, Game *g) {
    g->stage = S_NIGHT;
    log_ev(c, g, E_NIGHT, -1, -1, g->day, PUBLIC);
    g->n_shots = g->n_execs = g->n_hunts = g->n_victims = 0; /* Night() */
    g->blocked = g->heal = g->maniac_shot = -1;
    int n = c->n;
    for (int k = 0; k < c->n_night_order; k++) { /* CITY-N1, ONLINE-N3: the wake order */
        switch (c->night_order[k]) {
        case NS_MAFIA:
            if (c->mafia_kill == KILL_DON) { /* CITY-N3: the others propose first */
                for (int s = 0; s < n; s++)
                    if (g->alive[s] && g->teams[s] == TEAM_MAFIA && g->roles[s] != R_DON)
                        q_append(g, s, T_MAFIA_KILL);
                for (int s = 0; s < n; s++)
                    if (g->alive[s] && g->roles[s] == R_DON) q_append(g, s, T_MAFIA_KILL);
            } else {
                for (int s = 0; s < n; s++)
                    if (g->alive[s] && g->teams[s] == TEAM_MAFIA) q_append(g, s, T_MAFIA_KILL);
            }
            break;
        case NS_DON:
            if (c->don_check)
                for (int s = 0; s < n; s++)
                    if (g->alive[s] && g->roles[s] == R_DON) q_append(g, s, T_DON_CHECK);
            break;
        case NS_SHERIFF:
            if (c->sheriff_check)
                for (int s = 0; s < n; s++)
                    if (g->alive[s] && g->roles[s] == R_SHERIFF) q_append(g, s, T_SHERIFF_CHECK);
            break;
        case NS_PUTANA:
            for (int s = 0; s < n; s++)
                if (g->alive[s] && g->roles[s] == R_PUTANA) q_append(g, s, T_PUTANA);
            break;
        case NS_DOCTOR:
            for (int s = 0; s < n; s++)
                if (g->alive[s] && g->roles[s] == R_DOCTOR) q_append(g, s, T_DOCTOR);
            break;
        case NS_MANIAC:
            for (int s = 0; s < n; s++)
                if (g->alive[s] && g->roles[s] == R_MANIAC) q_append(g, s, T_MANIAC);
            break;
        case NS_HUNT: /* FORUM-N3, N7 */
            if (hunt_allowed(c, g))
                for (int s = 0; s < n; s++)
                    if (g->alive[s] && g->teams[s] == TEAM_TOWN) q_append(g, s, T_HUNT);
            break;
        }
    }
}

/* Game._mafia_target: the mafia's victim (-1: none), its executor, whether they forfeit */
static void mafia_target(const Config *c, Game *g, int *victim, int *executor, int *forfeit) {
    int ss[MAXN], st[MAXN], k = 0;
    *victim = *executor = -1;
    *forfeit = 0;
    for (int i = 0; i < g->n_shots; i++) /* SPORT-N4: each shot as fired (knob) */
        if (c->shots_judged == SJ_FIRED || g->alive[g->shot_seat[i]]) {
            ss[k] = g->shot_seat[i];
            st[k] = g->shot_target[i];
            k++;
        }
    if (k == 0) return;
    int none_forfeits = c->mafia_no_number == NN_FORFEIT; /* CITY-N10: no number shown */
    if (c->mafia_kill == KILL_DON) { /* CITY-N3: while the don is alive his choice is theirs */
        for (int i = 0; i < k; i++)
            if (g->roles[ss[i]] == R_DON) {
                if (st[i] < 0 && none_forfeits) {
                    *forfeit = 1;
                    return;
                }
                *victim = st[i];
                *executor = ss[i];
                return;
            }
    }
    if (none_forfeits)
        for (int i = 0; i < k; i++)
            if (st[i] < 0) {
                *forfeit = 1;
                return;
            }
    for (int i = 1; i < k; i++)
        if (st[i] != st[0]) { /* SPORT-N1, CLUB-N1, ONLINE-N4: a miss; CITY-N4: a forfeit */
            *forfeit = c->mafia_split == SPLIT_FORFEIT;
            return;
        }
    if (st[0] < 0) return;
    int ex = ss[0];
    if (c->mafia_kill == KILL_EXECUTOR) { /* FORUM-N1: they agree on the executor too */
        int named = -2;
        for (int i = 0; i < k; i++) {
            int e = -1;
            for (int j = 0; j < g->n_execs; j++)
                if (g->exec_seat[j] == ss[i]) e = g->exec_target[j];
            if (named == -2)
                named = e;
            else if (e != named)
                return;
        }
        ex = named;
    }
    *victim = st[0];
    *executor = ex;
}

static int hunt_hits(const Config *c, Game *g, int target, int status) {
    if (!c->hunt_status) return g->teams[target] != TEAM_TOWN;
    if (status == 0) return g->teams[target] == TEAM_MAFIA;
    return g->roles[target] == R_MANIAC;
}

static void count_heal(const Config *c, Game *g, int heal, int shot_made) {
    int doctor = -1;
    for (int s = 0; s < c->n; s++)
        if (g->alive[s] && g->roles[s] == R_DOCTOR) {
            doctor = s;
            break;
        }
    if (doctor < 0) return;
    int counts = heal >= 0 && (c->heal_spent == HS_ALWAYS || shot_made);
    g->heal_prev = counts ? heal : -1;
    if (counts && heal == doctor) g->self_heals++;
    if (c->heal_told) /* ONLINE-N9: else he learns it from whom he may heal next */
        log_ev(c, g, E_HEAL_STATE, doctor, g->heal_prev, g->self_heals, (int)(1U << doctor));
}

static void morning(const Config *c, Game *g) {
    log_ev(c, g, E_MORNING, -1, -1, g->day, PUBLIC);
    int dseat[4 * MAXN] = {0}, dcause[4 * MAXN] = {0}, nd = 0; /* the hunt's dead */
    int victim, executor, forfeit;
    mafia_target(c, g, &victim, &executor, &forfeit);
    int maniac = g->maniac_shot; /* a blocked maniac did not shoot (CITY-N2) */
    int hunted = -1;
    if (g->n_hunts) { /* FORUM-N3: one request drawn by lot; FORUM-N4: it has priority */
        int i = mt_below(&g->rng, g->n_hunts); /* rng.randrange(len(hunts)) */
        int hunter = g->hunt_hunter[i], target = g->hunt_target[i], status = g->hunt_status[i];
        if (!hunt_hits(c, g, target, status)) {
            dseat[nd] = hunter;
            dcause[nd++] = C_HUNTER;
        } else {
            hunted = target;
            dseat[nd] = target;
            dcause[nd++] = C_HUNTED;
            if (target == executor) victim = -1; /* FORUM-N5 */
            if (g->roles[target] == R_MANIAC) maniac = -1;
        }
    }
    int heal = g->heal; /* a blocked doctor healed nobody (CITY-N2) */
    int shot_made = victim >= 0;
    if (victim == heal) victim = -1; /* ONLINE-N5: "nobody died" */
    if (maniac == heal && c->heal_against == HA_ALL) maniac = -1; /* FORUM-N2 */
    int causes[2];
    if (c->night_announce == ANN_BY_KILLER ||
        (c->night_announce == ANN_TWO_BY_KILLER && victim >= 0 && maniac >= 0 &&
         victim != maniac)) {
        causes[0] = C_MAFIA;
        causes[1] = C_MANIAC;
    } else {
        causes[0] = causes[1] = C_NIGHT;
    }
    int all_seat[8 * MAXN], all_cause[8 * MAXN], na = 0; /* shot_dead, companions, hunt's */
    int comp_seat[2], nc = 0; /* CITY-M2: one more victim, announced last, no reason given */
    int killed_by[2] = {victim, maniac};
    for (int x = 0; x < 2; x++) {
        int killed = killed_by[x];
        if (killed < 0 || killed == hunted) continue;
        int fresh = 1;
        for (int i = 0; i < nd; i++)
            if (dseat[i] == killed) fresh = 0;
        if (!fresh) continue;
        all_seat[na] = killed;
        all_cause[na++] = causes[x];
        int companion = g->blocked; /* CITY-N9: he leaves with her (unless healed, by knob) */
        int saved = c->companion_heal && companion == heal;
        if (g->roles[killed] == R_PUTANA && companion >= 0 && !saved) {
            if (c->companion_reason) { /* "he spent the night with the putana" */
                all_seat[na] = companion;
                all_cause[na++] = C_COMPANION;
            } else {
                comp_seat[nc++] = companion;
            }
        }
    }
    for (int i = 0; i < nc; i++) {
        all_seat[na] = comp_seat[i];
        all_cause[na++] = C_NIGHT;
    }
    for (int i = 0; i < nd; i++) {
        all_seat[na] = dseat[i];
        all_cause[na++] = dcause[i];
    }
    if (forfeit) /* CITY-N4: the mafia could not agree: the whole team leaves */
        for (int s = 0; s < c->n; s++)
            if (g->alive[s] && g->teams[s] == TEAM_MAFIA) {
                all_seat[na] = s;
                all_cause[na++] = C_FORFEIT;
            }
    count_heal(c, g, heal, shot_made);
    uint32_t gone = 0;
    for (int i = 0; i < na; i++) {
        int seat = all_seat[i];
        if (!(gone >> seat & 1) && g->alive[seat]) {
            gone |= 1U << seat;
            eliminate(c, g, seat, all_cause[i]);
            if (all_cause[i] != C_FORFEIT) g->victims[g->n_victims++] = (int8_t)seat;
        }
    }
    if (!gone) log_ev(c, g, E_MISS, -1, -1, -1, PUBLIC);
    if (!check_win(c, g)) start_day(c, g);
}

/* Game._END[stage]: what follows when a stage's turns run out */
static void end_stage(const Config *c, Game *g) {
    switch (g->stage) {
    case S_DAWN:
    case S_ZERO_NIGHT:
        start_day(c, g);
        break;
    case S_SPEECHES:
        end_speeches(c, g);
        break;
    case S_DISCUSSION:
        end_discussion(c, g);
        break;
    case S_NAMING:
        after_nominations(c, g);
        break;
    case S_MONOLOGUES:
        end_monologues(c, g);
        break;
    case S_VOTE:
        resolve_vote(c, g);
        break;
    case S_COUNT:
        end_count(c, g);
        break;
    case S_TIE_SPEECHES:
        start_vote(c, g, g->tied, g->n_tied);
        break;
    case S_CRASH:
        resolve_crash(c, g);
        break;
    case S_LAST_WORDS:
        start_night(c, g);
        break;
    case S_NIGHT:
        morning(c, g);
        break;
    default: /* OVER has no rule: unreachable while the game goes on */
        g->offender = -2;
        end_turns(g);
        break;
    }
}

/* Game._advance: hand the turn to the next player in the queue, running stages as it drains */
static void advance(const Config *c, Game *g) {
    while (g->winner < 0 && g->offender < 0) {
        while (g->qlen) {
            int seat, turn;
            q_popleft(g, &seat, &turn);
            if (!(g->alive[seat] || turn == T_LAST_WORD)) continue;
            if (seat == g->blocked && BLOCKABLE[turn]) { /* CITY-N2: crossed arms */
                log_ev(c, g, E_BLOCKED, seat, -1, turn, (int)(1U << seat));
                continue;
            }
            if (turn == T_DOCTOR) { /* FORUM-N6: a doctor who requested a hunt cannot heal */
                int hunted = 0;
                for (int i = 0; i < g->n_hunts; i++)
                    if (g->hunt_hunter[i] == seat) hunted = 1;
                if (hunted) continue;
            }
            g->actor = seat;
            g->turn = turn;
            if (IS_SPEECH[turn]) {
                /* ONLINE-D5: a word in the discussion is one act */
                g->acts_left = turn == T_DISCUSSION ? 1 : c->speech_acts;
                g->nominated = 0;
                g->asked = 0;
                log_ev(c, g, E_SPEAK, seat, -1, turn, PUBLIC);
            } else {
                log_ev(c, g, E_TURN, seat, -1, turn, IS_PUBLIC[turn] ? PUBLIC : (int)(1U << seat));
            }
            return;
        }
        end_stage(c, g);
    }
    end_turns(g);
}

static void resume_speech(const Config *c, Game *g) {
    int asker = g->asker, turn = g->asker_turn;
    g->asker = g->asker_turn = -1;
    if (asker < 0 || !(g->alive[asker] || turn == T_LAST_WORD)) {
        advance(c, g);
        return;
    }
    g->actor = asker;
    g->turn = turn;
    if (g->acts_left == 0) { /* the question was his last act */
        log_ev(c, g, E_END_SPEECH, asker, -1, -1, PUBLIC);
        advance(c, g);
        return;
    }
    log_ev(c, g, E_TURN, asker, -1, turn, PUBLIC);
}

/* Game._after_gesture: the next listener's gesture, or the speaker goes on */
static void after_gesture(const Config *c, Game *g) {
    while (g->qlen && g->qturn[g->qhead] == T_GESTURE && !g->alive[g->qseat[g->qhead]]) {
        int seat, turn;
        q_popleft(g, &seat, &turn);
    }
    if (g->qlen && g->qturn[g->qhead] == T_GESTURE)
        advance(c, g);
    else
        resume_speech(c, g);
}

/* Game._open_gestures (ONLINE-D6): the listeners a speech act offers a gesture, before the
   speaker goes on; 1 if any */
static int open_gestures(const Config *c, Game *g, int named) {
    int s = g->actor, n = c->n;
    int8_t who[MAXN];
    int k = 0;
    if (c->gestures == G_NAMED) {
        if (named < 0 || named == s || !g->alive[named]) return 0;
        who[k++] = (int8_t)named;
    } else {
        for (int j = 1; j < n; j++) { /* from the speaker's left, in a circle */
            int x = (s + j) % n;
            if (g->alive[x]) who[k++] = (int8_t)x;
        }
        if (!k) return 0;
    }
    g->asker = s;
    g->asker_turn = g->turn;
    for (int i = k - 1; i >= 0; i--) q_appendleft(g, who[i], T_GESTURE);
    advance(c, g);
    return 1;
}

static void leave_at_once(const Config *c, Game *g, int seat, int cause) {
    if (g->alive[seat]) {
        eliminate(c, g, seat, cause);
        q_drop_seat(g, seat); /* no last word either */
        if (check_win(c, g)) return;
    } else if (c->fouls_take_last_word && q_has(g, seat, T_LAST_WORD)) {
        /* SPORT-F3, ONLINE-F1: out already, he waits for his last word: the foul takes it */
        q_drop_seat(g, seat);
        log_ev(c, g, E_SILENCED, -1, seat, T_LAST_WORD, PUBLIC);
    }
    if (seat == g->actor) {
        if (g->turn == T_ANSWER) /* the speaker who asked him goes on */
            resume_speech(c, g);
        else if (g->turn == T_GESTURE) /* the next listener's gesture, or the speaker */
            after_gesture(c, g);
        else
            advance(c, g);
    }
}

static void game_foul(const Config *c, Game *g, int seat) {
    push_input(g, seat, -1, -1, -1, -1);
    int count = ++g->fouls[seat];
    log_ev(c, g, E_FOUL, -1, seat, count, PUBLIC);
    if (c->fouls_mute && count == c->fouls_mute) g->silenced_on[seat] = g->day + 1;
    if (c->fouls_remove && count >= c->fouls_remove) leave_at_once(c, g, seat, C_FOUL);
}

static void game_remove(const Config *c, Game *g, int seat) {
    push_input(g, seat, -3, -1, -1, -1);
    leave_at_once(c, g, seat, C_REMOVED);
}

static void game_terminate(const Config *c, Game *g, int seat) {
    push_input(g, seat, -2, -1, -1, -1);
    g->offender = seat;
    log_ev(c, g, E_TERMINATED, seat, -1, -1, PUBLIC);
    end_turns(g);
}

/* ----------------------------------------------------------- each turn's rule (turns.py) */
static inline void opt(Opt *o, int *k, int act, int has, uint32_t bits) {
    o[*k].act = act;
    o[*k].has = has;
    o[*k].bits = bits;
    (*k)++;
}

/* turns.shot_targets: the seats mafia member `s` may shoot (SPORT-N1, CITY-N3, ONLINE-N4) */
static uint32_t shot_targets(const Config *c, Game *g, int s) {
    uint32_t me = 1U << s;
    uint32_t bits = g->alive_bits & ~me & (c->mafia_target_team ? ~0U : ~g->mafia_mask);
    if (may_shoot_self(c, g)) bits |= me;
    return bits;
}

static int legal_of(const Config *c, Game *g, int s, int t, Opt *o) {
    int k = 0;
    uint32_t me = 1U << s, alive = g->alive_bits, everyone = (1U << c->n) - 1;
    switch (t) {
    case T_SPEECH:
    case T_LAST_WORD:
    case T_TIE_SPEECH:
    case T_MONOLOGUE:
    case T_DISCUSSION:
        opt(o, &k, A_PASS, 0, 0);
        if (t == T_SPEECH) {
            if (c->nominations == NOM_SPEECH && !g->nominated) { /* SPORT-D3, ONLINE-D3 */
                uint32_t bits = alive & ~g->nominee_bits & (c->self_nomination ? ~0U : ~me);
                if (bits) opt(o, &k, A_NOMINATE, 1, bits);
            }
            if (g->asked < c->questions && (alive & ~me)) opt(o, &k, A_ASK, 1, alive & ~me);
        }
        if (c->claims) {
            opt(o, &k, A_CLAIM_ROLE, 0, 0);
            opt(o, &k, A_CLAIM_CHECK, 1, everyone & ~me);
            opt(o, &k, A_ACCUSE, 1, everyone & ~me);
            opt(o, &k, A_VOUCH, 1, everyone & ~me);
        }
        break;
    case T_ANSWER:
        opt(o, &k, A_ANSWER, 0, 0);
        break;
    case T_GESTURE: /* ONLINE-D6 */
        opt(o, &k, A_PASS, 0, 0);
        opt(o, &k, A_ANSWER, 0, 0);
        break;
    case T_MEETING: { /* SPORT-N3: a target he could shoot, or none */
        uint32_t bits = shot_targets(c, g, s);
        opt(o, &k, A_PASS, 0, 0);
        if (bits) opt(o, &k, A_NIGHT, 1, bits);
        break;
    }
    case T_VOTE: {
        uint32_t bits = g->cand_bits & (c->self_vote ? ~0U : ~me);
        opt(o, &k, A_PASS, 0, 0);
        if (bits) opt(o, &k, A_VOTE, 1, bits);
        break;
    }
    case T_OPEN_VOTE: /* only voters who may vote for the nominee get a turn */
        opt(o, &k, A_PASS, 0, 0);
        opt(o, &k, A_VOTE, 1, 1U << g->cands[g->counted]);
        break;
    case T_CRASH_VOTE:
        opt(o, &k, A_VOTE_YES, 0, 0);
        opt(o, &k, A_VOTE_NO, 0, 0);
        break;
    case T_NAMING:
        opt(o, &k, A_NOMINATE, 1, alive & ~me);
        break;
    case T_MAFIA_KILL: {
        int reveal = !g->don_introduced && g->roles[s] == R_DON;
        if (g->day == 0) { /* ONLINE-N1: on the zero night the don may only introduce himself */
            opt(o, &k, A_PASS, 0, 0);
            if (reveal) opt(o, &k, A_REVEAL_DON, 0, 0);
            break;
        }
        uint32_t bits = shot_targets(c, g, s);
        if (c->mafia_pass || !bits) opt(o, &k, A_PASS, 0, 0);
        if (bits) opt(o, &k, A_NIGHT, 1, bits);
        if (reveal) opt(o, &k, A_REVEAL_DON, 0, 0); /* ONLINE-N2 */
        break;
    }
    case T_EXECUTOR:
        opt(o, &k, A_EXECUTOR, 1, alive & g->mafia_mask);
        break;
    case T_DON_CHECK:
    case T_SHERIFF_CHECK:
        if (c->check_skip) opt(o, &k, A_PASS, 0, 0); /* SPORT-N2 */
        opt(o, &k, A_NIGHT, 1, alive & ~me);
        break;
    case T_PUTANA:
        opt(o, &k, A_NIGHT, 1, c->putana_self ? alive : alive & ~me);
        break;
    case T_DOCTOR: {
        uint32_t bits = alive;
        if (!c->heal_repeat && g->heal_prev >= 0) bits &= ~(1U << g->heal_prev);
        if (c->heal_self >= 0 && g->self_heals >= c->heal_self) bits &= ~me;
        if (c->heal_skip || !bits) {
            opt(o, &k, A_PASS, 0, 0);
            if (bits) opt(o, &k, A_NIGHT, 1, bits);
        } else {
            opt(o, &k, A_NIGHT, 1, bits);
        }
        break;
    }
    case T_MANIAC:
        opt(o, &k, A_PASS, 0, 0);
        opt(o, &k, A_NIGHT, 1, alive & ~me);
        break;
    case T_HUNT:
        opt(o, &k, A_PASS, 0, 0);
        opt(o, &k, A_HUNT, 1, alive & ~me);
        break;
    }
    return k;
}

static void turn_apply(const Config *c, Game *g, int act, int target, int value) {
    int s = g->actor, t = g->turn;
    switch (t) {
    case T_SPEECH:
    case T_LAST_WORD:
    case T_TIE_SPEECH:
    case T_MONOLOGUE:
    case T_DISCUSSION:
        if (act == A_PASS) {
            log_ev(c, g, E_END_SPEECH, s, -1, -1, PUBLIC);
            advance(c, g);
            return;
        }
        if (act == A_ASK) { /* ONLINE-D4: the asked player answers at once */
            log_ev(c, g, E_ASK, s, target, value, PUBLIC);
            g->asked++;
            g->acts_left--;
            g->asker = s;
            g->asker_turn = t;
            q_appendleft(g, target, T_ANSWER);
            advance(c, g);
            return;
        }
        log_ev(c, g, SPEECH_EVENT[act], s, target, value, PUBLIC);
        if (act == A_NOMINATE) {
            g->nominees[g->n_nominees++] = (int8_t)target;
            g->nominee_bits |= 1U << target;
            g->nominated = 1;
        } else if (t == T_DISCUSSION) { /* ONLINE-D5: someone spoke in this round */
            g->spoken = 1;
        }
        --g->acts_left;
        if (c->gestures != G_NONE && open_gestures(c, g, target)) return; /* ONLINE-D6 */
        if (g->acts_left == 0) { /* COMMON-5: at most K acts; the K-th ends the speech */
            log_ev(c, g, E_END_SPEECH, s, -1, -1, PUBLIC);
            advance(c, g);
        }
        return;
    case T_ANSWER:
        log_ev(c, g, E_ANSWER, s, g->asker, value, PUBLIC);
        resume_speech(c, g);
        return;
    case T_GESTURE: /* ONLINE-D6: the one he shows already, again: taken back */
        if (act == A_ANSWER) {
            int shown = g->gesture[s] == value ? -1 : value;
            g->gesture[s] = (int8_t)shown;
            log_ev(c, g, E_GESTURE, s, g->asker, shown, PUBLIC);
        }
        after_gesture(c, g);
        return;
    case T_MEETING: /* SPORT-N3: shown to the team */
        log_ev(c, g, E_PROPOSE, s, act == A_NIGHT ? target : -1, -1, (int)g->mafia_mask);
        advance(c, g);
        return;
    case T_VOTE: {
        int i = g->n_ballots++;
        g->b_voter[i] = (int8_t)s;
        if (act == A_VOTE) {
            g->b_target[i] = (int8_t)target;
            g->b_silent[i] = 0;
        } else if (c->silent_vote == SILENT_LAST_NOMINEE) { /* SPORT-D3, CLUB-E3 */
            g->b_target[i] = g->cands[g->n_cands - 1];
            g->b_silent[i] = 1;
        } else {
            g->b_target[i] = -1;
            g->b_silent[i] = 0;
        }
        advance(c, g);
        return;
    }
    case T_OPEN_VOTE:
        if (act == A_VOTE) { /* each voter raises his hand once */
            int i = g->n_ballots++;
            g->b_voter[i] = (int8_t)s;
            g->b_target[i] = (int8_t)target;
            g->b_silent[i] = 0;
            for (int j = 0; j < g->n_waiting; j++) /* waiting.remove(s) */
                if (g->waiting[j] == s) {
                    memmove(g->waiting + j, g->waiting + j + 1, (size_t)(g->n_waiting - j - 1));
                    g->n_waiting--;
                    break;
                }
        }
        advance(c, g);
        return;
    case T_CRASH_VOTE: {
        int i = g->n_crash++;
        g->c_voter[i] = (int8_t)s;
        g->c_yes[i] = act == A_VOTE_YES;
        advance(c, g);
        return;
    }
    case T_NAMING:
        log_ev(c, g, E_NAME, s, target, -1, PUBLIC);
        if (++g->named[target] == c->naming_threshold + 1) {
            g->nominees[g->n_nominees++] = (int8_t)target;
            g->nominee_bits |= 1U << target;
            log_ev(c, g, E_NOMINATE, -1, target, -1, PUBLIC);
        }
        advance(c, g);
        return;
    case T_MAFIA_KILL: {
        if (act == A_REVEAL_DON) { /* ONLINE-N2: he still shoots this turn */
            g->don_introduced = 1;
            log_ev(c, g, E_DON_INTRODUCED, s, -1, R_DON, (int)g->mafia_mask);
            return;
        }
        if (g->day == 0) { /* the zero night: nobody is shot */
            advance(c, g);
            return;
        }
        int shot = act == A_NIGHT ? target : -1, i;
        for (i = 0; i < g->n_shots; i++) /* night.shots[s] = shot (a dict: order kept) */
            if (g->shot_seat[i] == s) break;
        if (i == g->n_shots) {
            g->n_shots++;
            g->shot_seat[i] = (int8_t)s;
        }
        g->shot_target[i] = (int8_t)shot;
        log_ev(c, g, E_SHOT, s, shot, -1, c->mafia_see_shots ? (int)g->mafia_mask : (int)(1U << s));
        if (act == A_NIGHT && c->mafia_kill == KILL_EXECUTOR) q_appendleft(g, s, T_EXECUTOR);
        advance(c, g);
        return;
    }
    case T_EXECUTOR: {
        int i;
        for (i = 0; i < g->n_execs; i++)
            if (g->exec_seat[i] == s) break;
        if (i == g->n_execs) {
            g->n_execs++;
            g->exec_seat[i] = (int8_t)s;
        }
        g->exec_target[i] = (int8_t)target;
        log_ev(c, g, E_EXECUTOR, s, target, -1,
               c->mafia_see_shots ? (int)g->mafia_mask : (int)(1U << s));
        advance(c, g);
        return;
    }
    case T_DON_CHECK:
    case T_SHERIFF_CHECK:
        if (act == A_NIGHT) {
            int hit = t == T_DON_CHECK ? g->roles[target] == R_SHERIFF
                                       : g->teams[target] == TEAM_MAFIA;
            log_ev(c, g, E_CHECK, s, target, hit, (int)(1U << s));
        }
        advance(c, g);
        return;
    case T_PUTANA:
        g->blocked = target;
        log_ev(c, g, E_VISIT, s, target, -1, (int)(1U << s));
        advance(c, g);
        return;
    case T_DOCTOR:
        if (act == A_NIGHT) {
            g->heal = target;
            log_ev(c, g, E_HEAL, s, target, -1, (int)(1U << s));
        }
        advance(c, g);
        return;
    case T_MANIAC: {
        int shot = act == A_NIGHT ? target : -1;
        g->maniac_shot = shot;
        log_ev(c, g, E_SHOT, s, shot, -1, (int)(1U << s));
        advance(c, g);
        return;
    }
    case T_HUNT:
        if (act == A_HUNT) { /* FORUM-N4: value is the status guessed (0 mafia, 1 maniac) */
            int status = c->hunt_status ? value : -1, i = g->n_hunts++;
            g->hunt_hunter[i] = (int8_t)s;
            g->hunt_target[i] = (int8_t)target;
            g->hunt_status[i] = (int8_t)status;
            log_ev(c, g, E_HUNT, s, target, status, (int)(1U << s));
        }
        advance(c, g);
        return;
    }
}

/* Game.apply */
static void game_apply(const Config *c, Game *g, int act, int target, int value) {
    push_input(g, g->actor, act, target, value, g->turn);
    turn_apply(c, g, act, target, value);
}

static int together(const Config *c, int turn) {
    return turn == T_VOTE || turn == T_CRASH_VOTE || turn == T_HUNT || turn == T_OPEN_VOTE ||
           (turn == T_MAFIA_KILL && !c->mafia_see_shots);
}

/* Game.default_action */
static void default_action(const Config *c, Game *g, int *act, int *target, int *value) {
    Opt o[MAXOPTS];
    int k = legal_of(c, g, g->actor, g->turn, o);
    for (int i = 0; i < k; i++)
        if (o[i].act == A_PASS) {
            *act = A_PASS, *target = -1, *value = -1;
            return;
        }
    for (int i = 0; i < k; i++)
        if (o[i].act == A_VOTE_NO) {
            *act = A_VOTE_NO, *target = -1, *value = -1;
            return;
        }
    for (int i = 0; i < k; i++)
        if (o[i].act == A_ANSWER) {
            *act = A_ANSWER, *target = -1, *value = ANS_DONT_KNOW;
            return;
        }
    *act = o[0].act;
    *target = o[0].has && o[0].bits ? __builtin_ctz(o[0].bits) : -1;
    *value = o[0].act == A_CLAIM_ROLE ? 0 : -1;
}

/* ------------------------------------------------------------------- masks and views */
/* byte i of EXPAND[x] is bit i of x: eight seats of a bitmask as eight mask bytes at once */
static uint64_t EXPAND[256];

static void init_expand(void) {
    for (int x = 0; x < 256; x++) {
        uint64_t v = 0;
        for (int i = 0; i < 8; i++)
            if (x >> i & 1) v |= (uint64_t)1 << (8 * i);
        EXPAND[x] = v;
    }
}

/* OR the seats of `bits` (below 1 << n) into m[0..n), 8 at a time: up to 7 bytes past n are
   OR-ed with zeros, so `m` must have room for them */
static inline void or_seats(int8_t *m, uint32_t bits, int n) {
    for (int k = 0; k < n; k += 8) {
        uint64_t v, w = EXPAND[(bits >> k) & 0xff];
        memcpy(&v, m + k, 8);
        v |= w;
        memcpy(m + k, &v, 8);
    }
}

/* ActionLayout._build: the int8 mask of a list of options, into `m` of action_size + 8 */
static void options_mask(const Config *c, const Opt *o, int k, int8_t *m) {
    int n = c->n;
    memset(m, 0, c->action_size + 8);
    for (int i = 0; i < k; i++) {
        int off = c->act_off[o[i].act];
        if (off < 0) continue;
        if (!o[i].has) {
            memset(m + off, 1, c->act_width[o[i].act]);
            continue;
        }
        int blocks = 1;
        if (o[i].act == A_CLAIM_CHECK || (o[i].act == A_HUNT && c->hunt_status))
            blocks = 2;
        else if (o[i].act == A_ASK)
            blocks = c->n_roles;
        uint32_t bits = o[i].bits & ((n < 32 ? 1U << n : 0U) - 1);
        for (int b = 0; b < blocks; b++) or_seats(m + off + b * n, bits, n);
    }
}

static void write_mask(const Config *c, Game *g, int8_t *m) {
    if (g->turn < 0) { /* over: nobody acts */
        memset(m, 0, c->action_size);
        return;
    }
    Opt o[MAXOPTS];
    int8_t scratch[MAXMASK];
    int k = legal_of(c, g, g->actor, g->turn, o);
    options_mask(c, o, k, scratch);
    memcpy(m, scratch, c->action_size);
}

/* VectorObserver.observe: `seat`'s observation into `out` */
static void write_obs(const Config *c, Game *g, int seat, float *out) {
    int P = c->private_size;
    memcpy(out, PRIV(c, g, seat), sizeof(float) * P);
    memcpy(out + P, PUB(c, g), sizeof(float) * c->public_size);
    if (g->o_over) {
        out[c->off[P_PHASE] + c->over_phase] = 1;
        return;
    }
    int pos = c->turn_pos[g->o_turn];
    if (seat == g->o_actor) out[c->off[P_MY_TURN] + pos] = 1;
    if (!g->o_turn_public) { /* who acts at night is nobody else's business */
        out[c->off[P_PHASE] + c->night_phase] = 1;
        return;
    }
    out[c->off[P_PHASE] + pos] = 1;
    out[c->off[P_SPEAKER] + g->o_actor] = 1;
    if (c->speech_turn[g->o_turn])
        out[c->off[P_ACTS_LEFT]] =
            (float)((double)(c->speech_acts - g->o_acts_made) / (double)c->speech_acts);
}

/* VectorObserver.observe_turn: as `seat` will see it when it takes its queued `turn` */
static void write_obs_turn(const Config *c, Game *g, int seat, int turn, float *out) {
    write_obs(c, g, seat, out);
    if (seat != g->o_actor && !g->o_over) {
        out[c->off[P_MY_TURN] + c->turn_pos[turn]] = 1;
        if (g->o_turn_public) {
            out[c->off[P_SPEAKER] + g->o_actor] = 0;
            out[c->off[P_SPEAKER] + seat] = 1;
        }
    }
}

/* ------------------------------------------------------------------- a game's life */
static void game_free_logs(Game *g) {
    PyMem_Free(g->events);
    PyMem_Free(g->seq);
    PyMem_Free(g->inputs);
    g->events = NULL;
    g->seq = NULL;
    g->inputs = NULL;
    g->n_events = g->cap_events = g->n_seq = g->cap_seq = g->n_inputs = g->cap_inputs = 0;
}

/* Game.__init__ with VectorObserver.reset: `deal` NULL deals by the seed */
static void game_start(const Config *c, Game *g, uint64_t seed, const int *deal) {
    int n = c->n;
    float *obs = g->obs;
    MT slot = g->slot;
    int log_events = g->log_events;
    Event *events = g->events;
    int8_t *seq = g->seq;
    Input *inputs = g->inputs;
    int cap_e = g->cap_events, cap_s = g->cap_seq, cap_i = g->cap_inputs;
    memset(g, 0, sizeof(Game));
    g->obs = obs;
    g->slot = slot;
    g->log_events = log_events;
    g->events = events;
    g->seq = seq;
    g->inputs = inputs;
    g->cap_events = cap_e;
    g->cap_seq = cap_s;
    g->cap_inputs = cap_i;
    g->seed = seed;
    mt_seed_u64(&g->rng, seed);
    int dealt[MAXN];
    memcpy(dealt, c->base_deal, sizeof(int) * n);
    for (int i = n - 1; i > 0; i--) { /* COMMON-1: rng.shuffle, drawn even for a given deal */
        int j = mt_below(&g->rng, i + 1);
        int x = dealt[i];
        dealt[i] = dealt[j];
        dealt[j] = x;
    }
    for (int s = 0; s < n; s++) {
        g->roles[s] = deal ? deal[s] : dealt[s];
        g->teams[s] = ROLE_TEAM[g->roles[s]];
        g->alive[s] = 1;
        g->team_alive[g->teams[s]]++;
        if (g->teams[s] == TEAM_MAFIA) g->mafia_mask |= 1U << s;
    }
    g->alive_bits = (1U << n) - 1;
    g->winner = -1;
    g->offender = -1;
    g->actor = -1;
    g->turn = -1;
    g->stage = S_DAWN;
    g->first_speaker = -1;
    g->asker = g->asker_turn = -1;
    g->blocked = g->heal = g->maniac_shot = -1;
    g->heal_prev = -1;
    g->counted = -1;
    g->don_introduced = c->don_known;
    for (int s = 0; s < n; s++) g->o_heals[s] = -2, g->gesture[s] = -1;
    /* the observer's reset */
    memset(obs, 0, sizeof(float) * ((size_t)n * c->private_size + c->public_size));
    g->o_actor = g->o_turn = -1;
    float *pub = PUB(c, g);
    for (int s = 0; s < n; s++) {
        pub[POFF(c, P_ALIVE) + s] = 1;
        PRIV(c, g, s)[c->off[P_SEAT] + s] = 1;
    }
    /* Game._start */
    for (int s = 0; s < n; s++) log_ev(c, g, E_ROLE, s, -1, g->roles[s], (int)(1U << s));
    for (int s = 0; s < n; s++) { /* COMMON-2: the mafia know each other (ONLINE-N2) */
        if (g->teams[s] != TEAM_MAFIA) continue;
        for (int mate = 0; mate < n; mate++) {
            if (mate == s || g->teams[mate] != TEAM_MAFIA) continue;
            int role = g->roles[mate];
            if (role == R_DON && !c->don_known) role = R_MAFIA;
            log_ev(c, g, E_TEAMMATE, s, mate, role, (int)(1U << s));
        }
    }
    if (c->zero_night) { /* COMMON-3: the mafia meet; nobody shoots */
        log_ev(c, g, E_NIGHT, -1, -1, 0, PUBLIC);
        if (c->zero_night_meeting) { /* SPORT-N3: each shows a target, the don last */
            for (int s = 0; s < n; s++)
                if (g->teams[s] == TEAM_MAFIA && g->roles[s] != R_DON) q_append(g, s, T_MEETING);
            for (int s = 0; s < n; s++)
                if (g->roles[s] == R_DON) q_append(g, s, T_MEETING);
        }
        if (c->zero_night_don && !g->don_introduced) /* ONLINE-N1 */
            for (int s = 0; s < n; s++)
                if (g->roles[s] == R_DON) q_append(g, s, T_MAFIA_KILL);
        if (g->qlen) g->stage = S_ZERO_NIGHT;
    }
    advance(c, g);
}

/* ================================================================ the Python type */
static int get_int(PyObject *d, const char *key, int *out) {
    PyObject *v = PyDict_GetItemString(d, key);
    if (!v) {
        PyErr_Format(PyExc_KeyError, "core config lacks %s", key);
        return -1;
    }
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred()) return -1;
    *out = (int)x;
    return 0;
}

static int get_double(PyObject *d, const char *key, double *out) {
    PyObject *v = PyDict_GetItemString(d, key);
    if (!v) {
        PyErr_Format(PyExc_KeyError, "core config lacks %s", key);
        return -1;
    }
    *out = PyFloat_AsDouble(v);
    return PyErr_Occurred() ? -1 : 0;
}

static int get_ints(PyObject *d, const char *key, int *out, int len, int *got) {
    PyObject *v = PyDict_GetItemString(d, key);
    if (!v) {
        PyErr_Format(PyExc_KeyError, "core config lacks %s", key);
        return -1;
    }
    PyObject *seq = PySequence_Fast(v, key);
    if (!seq) return -1;
    Py_ssize_t m = PySequence_Fast_GET_SIZE(seq);
    if (len >= 0 && m > len) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "core config %s has %zd items, at most %d", key, m, len);
        return -1;
    }
    for (Py_ssize_t i = 0; i < m; i++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (x == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = (int)x;
    }
    if (got) *got = (int)m;
    Py_DECREF(seq);
    return 0;
}

#define INT(name) \
    if (get_int(d, #name, &c->name) < 0) return -1;

static int parse_config(Config *c, PyObject *d) {
    INT(n) INT(day_limit) INT(zero_night) INT(zero_night_don) INT(speech_acts) INT(claims)
    INT(nominations) INT(self_nomination) INT(self_vote) INT(nominees_vote) INT(nominee_ban)
    INT(silent_vote) INT(single_nominee) INT(tie) INT(tie_speeches) INT(zero_votes)
    INT(last_word_vote) INT(last_word_night) INT(reveal_on_death) INT(mafia_target_team)
    INT(don_check) INT(sheriff_check) INT(check_skip) INT(fouls_mute) INT(fouls_remove)
    INT(mafia_kill) INT(mafia_split) INT(mafia_pass) INT(self_shot) INT(mafia_see_shots)
    INT(don_known) INT(heal_repeat) INT(heal_self) INT(heal_skip) INT(heal_against)
    INT(heal_spent) INT(night_announce) INT(putana_self) INT(companion_heal) INT(questions)
    INT(naming_threshold) INT(nominee_speeches) INT(hunt) INT(hunt_status) INT(mafia_win)
    INT(hunt_ratio) INT(mafia_win_maniac) INT(vote_count) INT(fouls_take_last_word)
    INT(hunted_reveal) INT(companion_reason) INT(heal_told) INT(mafia_no_number)
    INT(zero_night_meeting) INT(shots_judged) INT(discussion) INT(gestures) INT(nominee_votes)
    INT(heal_memory) INT(obs_size) INT(private_size) INT(elim_cols) INT(n_roles)
    INT(night_phase) INT(over_phase) INT(tonight_start) INT(tonight_end) INT(legacy_float)
    INT(action_size)
    if (c->n < 1 || c->n > MAXN) {
        PyErr_Format(PyExc_ValueError, "the C core plays tables of 1..%d seats; got %d", MAXN,
                     c->n);
        return -1;
    }
    if (c->action_size < 1 || c->action_size + 8 > MAXMASK) {
        PyErr_Format(PyExc_ValueError, "the C core plays action spaces of 1..%d; got %d",
                     MAXMASK - 8, c->action_size);
        return -1;
    }
    if (c->speech_acts < 1) {
        PyErr_SetString(PyExc_ValueError, "speech_acts must be >= 1");
        return -1;
    }
    int got;
    if (get_ints(d, "night_order", c->night_order, 8, &c->n_night_order) < 0) return -1;
    if (get_ints(d, "base_deal", c->base_deal, MAXN, &got) < 0) return -1;
    if (got != c->n) {
        PyErr_SetString(PyExc_ValueError, "base_deal must have one role a seat");
        return -1;
    }
    if (get_ints(d, "offsets", c->off, N_PIECES, &got) < 0) return -1;
    if (got != N_PIECES) {
        PyErr_SetString(PyExc_ValueError, "offsets must have one entry a piece");
        return -1;
    }
    for (int t = 0; t < N_TURNS; t++) c->turn_pos[t] = -1, c->speech_turn[t] = 0;
    if (get_ints(d, "role_index", c->role_index, N_ROLES, NULL) < 0) return -1;
    if (get_ints(d, "turn_pos", c->turn_pos, N_TURNS, NULL) < 0) return -1;
    if (get_ints(d, "speech_turn", c->speech_turn, N_TURNS, NULL) < 0) return -1;
    if (get_ints(d, "act_off", c->act_off, N_ACTS, NULL) < 0) return -1;
    if (get_ints(d, "act_width", c->act_width, N_ACTS, NULL) < 0) return -1;
    if (get_double(d, "named_scale", &c->named_scale) < 0) return -1;
    if (get_double(d, "self_heal_scale", &c->self_heal_scale) < 0) return -1;
    c->day_limit_f = (double)c->day_limit;
    c->public_size = c->obs_size - c->private_size;
    int A = c->action_size;
    c->dec_act = PyMem_Malloc(sizeof(int) * 3 * (size_t)A);
    if (!c->dec_act) {
        PyErr_NoMemory();
        return -1;
    }
    c->dec_target = c->dec_act + A;
    c->dec_value = c->dec_act + 2 * A;
    if (get_ints(d, "dec_act", c->dec_act, A, NULL) < 0) return -1;
    if (get_ints(d, "dec_target", c->dec_target, A, NULL) < 0) return -1;
    if (get_ints(d, "dec_value", c->dec_value, A, NULL) < 0) return -1;
    return 0;
}

static int read_deal(const Config *c, PyObject *deal, int *out) {
    if (deal == Py_None) return 0;
    int got;
    PyObject *d = PyDict_New();
    if (!d) return -1;
    if (PyDict_SetItemString(d, "deal", deal) < 0) {
        Py_DECREF(d);
        return -1;
    }
    int r = get_ints(d, "deal", out, MAXN, &got);
    Py_DECREF(d);
    if (r < 0) return -1;
    if (got != c->n) {
        PyErr_SetString(PyExc_ValueError, "a deal has one role a seat");
        return -1;
    }
    for (int s = 0; s < c->n; s++)
        if (out[s] < 0 || out[s] >= N_ROLES) {
            PyErr_SetString(PyExc_ValueError, "a deal's roles are Role values");
            return -1;
        }
    return 1;
}

static size_t obs_floats(const Config *c) {
    return (size_t)c->n * c->private_size + c->public_size;
}

static void release_buffers(CoreObject *self) {
    if (!self->bound) return;
    PyBuffer_Release(&self->b_obs);
    PyBuffer_Release(&self->b_masks);
    PyBuffer_Release(&self->b_rewards);
    PyBuffer_Release(&self->b_dones);
    PyBuffer_Release(&self->b_trunc);
    PyBuffer_Release(&self->b_winner);
    PyBuffer_Release(&self->b_seat);
    PyBuffer_Release(&self->b_team);
    PyBuffer_Release(&self->b_teams);
    PyBuffer_Release(&self->b_done_teams);
    self->bound = 0;
}

static void aec_release(CoreObject *self);

static void Core_dealloc(CoreObject *self) {
    release_buffers(self);
    aec_release(self);
    if (self->games) {
        for (int b = 0; b < self->num; b++) {
            game_free_logs(&self->games[b]);
            PyMem_Free(self->games[b].obs);
        }
        PyMem_Free(self->games);
    }
    PyMem_Free(self->cfg.dec_act);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Core_init(CoreObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"config", "num_games", "log_events", "deal", NULL};
    PyObject *d, *deal = Py_None;
    int num, log_events = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!i|pO", kwlist, &PyDict_Type, &d, &num,
                                     &log_events, &deal))
        return -1;
    if (self->games) {
        PyErr_SetString(PyExc_RuntimeError, "Core is initialised once");
        return -1;
    }
    if (num < 1) {
        PyErr_SetString(PyExc_ValueError, "num_games must be >= 1");
        return -1;
    }
    memset(&self->cfg, 0, sizeof(Config));
    if (parse_config(&self->cfg, d) < 0) return -1;
    self->has_deal = read_deal(&self->cfg, deal, self->deal);
    if (self->has_deal < 0) return -1;
    self->num = num;
    self->games = PyMem_Calloc((size_t)num, sizeof(Game));
    if (!self->games) {
        PyErr_NoMemory();
        return -1;
    }
    for (int b = 0; b < num; b++) {
        self->games[b].obs = PyMem_Calloc(obs_floats(&self->cfg), sizeof(float));
        if (!self->games[b].obs) {
            PyErr_NoMemory();
            return -1;
        }
        self->games[b].log_events = log_events;
        self->games[b].winner = -1;
        self->games[b].offender = -1;
        self->games[b].turn = -1;
        self->games[b].actor = -1;
        self->games[b].o_over = 1;
        mt_seed_u64(&self->games[b].slot, 0);
    }
    return 0;
}

static Game *game_at(CoreObject *self, int b) {
    if (b < 0 || b >= self->num) {
        PyErr_Format(PyExc_IndexError, "game %d is not in 0..%d", b, self->num - 1);
        return NULL;
    }
    return &self->games[b];
}

static PyObject *check_oom(PyObject *result) {
    if (g_oom) {
        g_oom = 0;
        Py_XDECREF(result);
        return PyErr_NoMemory();
    }
    return result;
}

static int read_key(PyObject *words, uint32_t **key, Py_ssize_t *len) {
    PyObject *seq = PySequence_Fast(words, "a seed's words");
    if (!seq) return -1;
    *len = PySequence_Fast_GET_SIZE(seq);
    if (*len < 1) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a seed has at least one word");
        return -1;
    }
    *key = PyMem_Malloc(sizeof(uint32_t) * (size_t)*len);
    if (!*key) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < *len; i++) {
        unsigned long x = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(seq, i));
        if (x == (unsigned long)-1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            PyMem_Free(*key);
            return -1;
        }
        (*key)[i] = (uint32_t)x;
    }
    Py_DECREF(seq);
    return 0;
}

/* seed_slot(b, words): seed game b's slot stream as random.Random(x) with x's 32-bit words */
static PyObject *Core_seed_slot(CoreObject *self, PyObject *args) {
    int b;
    PyObject *words;
    if (!PyArg_ParseTuple(args, "iO", &b, &words)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    uint32_t *key;
    Py_ssize_t len;
    if (read_key(words, &key, &len) < 0) return NULL;
    mt_init_by_array(&g->slot, key, (size_t)len);
    PyMem_Free(key);
    Py_RETURN_NONE;
}


/* start(b, seed, deal=None): a new game in slot b from a game seed (0 <= seed < 2**64) */
static PyObject *Core_start(CoreObject *self, PyObject *args) {
    int b;
    unsigned long long seed;
    PyObject *deal = Py_None;
    if (!PyArg_ParseTuple(args, "iK|O", &b, &seed, &deal)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    int d[MAXN], has = read_deal(&self->cfg, deal, d);
    if (has < 0) return NULL;
    g->n_events = g->n_seq = g->n_inputs = 0;
    game_start(&self->cfg, g, seed, has ? d : NULL);
    return check_oom(PyLong_FromLong(g->actor));
}

/* start_from_slot(b): a new game whose seed is the slot's getrandbits(63) */
static PyObject *Core_start_from_slot(CoreObject *self, PyObject *arg) {
    int b = (int)PyLong_AsLong(arg);
    if (PyErr_Occurred()) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    uint64_t seed = mt_bits63(&g->slot);
    g->n_events = g->n_seq = g->n_inputs = 0;
    game_start(&self->cfg, g, seed, self->has_deal ? self->deal : NULL);
    return check_oom(PyLong_FromUnsignedLongLong(seed));
}

/* apply(b, index) -> the acting seat now (-1: the game is over). The index must be legal. */
static PyObject *Core_apply(CoreObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "apply(b, index)");
        return NULL;
    }
    int b = (int)PyLong_AsLong(args[0]);
    long a = PyLong_AsLong(args[1]);
    if (PyErr_Occurred()) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    const Config *c = &self->cfg;
    if (g->turn < 0) {
        PyErr_SetString(PyExc_RuntimeError, "the game is over: nobody acts");
        return NULL;
    }
    if (a < 0 || a >= c->action_size) {
        PyErr_Format(PyExc_ValueError, "action %ld is outside 0..%d", a, c->action_size - 1);
        return NULL;
    }
    game_apply(c, g, c->dec_act[a], c->dec_target[a], c->dec_value[a]);
    return check_oom(PyLong_FromLong(g->actor));
}

/* play(b, index) -> None where the index is not legal now (nothing is applied), else
   (the acting seat now, its mask as bytes), or (-1, None) once the game is over: the AEC
   env's step in one call */
static PyObject *Core_play(CoreObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "play(b, index)");
        return NULL;
    }
    int b = (int)PyLong_AsLong(args[0]);
    long a = PyLong_AsLong(args[1]);
    if (PyErr_Occurred()) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    const Config *c = &self->cfg;
    int8_t scratch[MAXMASK];
    if (g->turn < 0 || a < 0 || a >= c->action_size) Py_RETURN_NONE;
    write_mask(c, g, scratch);
    if (!scratch[a]) Py_RETURN_NONE;
    game_apply(c, g, c->dec_act[a], c->dec_target[a], c->dec_value[a]);
    if (g_oom) return check_oom(NULL);
    if (g->turn < 0) return Py_BuildValue("(iO)", -1, Py_None);
    PyObject *m = PyBytes_FromStringAndSize(NULL, c->action_size);
    if (!m) return NULL;
    write_mask(c, g, (int8_t *)PyBytes_AS_STRING(m));
    PyObject *out = PyTuple_New(2);
    if (!out) {
        Py_DECREF(m);
        return NULL;
    }
    PyTuple_SET_ITEM(out, 0, PyLong_FromLong(g->actor));
    PyTuple_SET_ITEM(out, 1, m);
    return out;
}

/* apply_action(b, act, target, value): a structured action (it must be legal) */
static PyObject *Core_apply_action(CoreObject *self, PyObject *args) {
    int b, act, target, value;
    if (!PyArg_ParseTuple(args, "iiii", &b, &act, &target, &value)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    if (g->turn < 0) {
        PyErr_SetString(PyExc_RuntimeError, "the game is over: nobody acts");
        return NULL;
    }
    if (act < 0 || act >= N_ACTS || target < -1 || target >= self->cfg.n) {
        PyErr_SetString(PyExc_ValueError, "no such action");
        return NULL;
    }
    game_apply(&self->cfg, g, act, target, value);
    return check_oom(PyLong_FromLong(g->actor));
}

static PyObject *seat_call(CoreObject *self, PyObject *args, int what) {
    int b, seat;
    if (!PyArg_ParseTuple(args, "ii", &b, &seat)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    if (seat < 0 || seat >= self->cfg.n) {
        PyErr_Format(PyExc_IndexError, "seat %d is not at the table", seat);
        return NULL;
    }
    if (what == 0) {
        game_foul(&self->cfg, g, seat);
    } else if (what == 1) {
        if (!g->alive[seat]) {
            PyErr_Format(PyExc_ValueError, "seat %d has already left the game", seat);
            return NULL;
        }
        game_remove(&self->cfg, g, seat);
    } else {
        game_terminate(&self->cfg, g, seat);
    }
    return check_oom(PyLong_FromLong(g->actor));
}
static PyObject *Core_foul(CoreObject *self, PyObject *args) { return seat_call(self, args, 0); }
static PyObject *Core_remove(CoreObject *self, PyObject *args) { return seat_call(self, args, 1); }
static PyObject *Core_terminate(CoreObject *self, PyObject *args) {
    return seat_call(self, args, 2);
}

/* say(b): log the acting speaker's remark of table talk (its text stays in Python) */
static PyObject *Core_say(CoreObject *self, PyObject *args) {
    int b;
    if (!PyArg_ParseTuple(args, "i", &b)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    if (g->turn < 0 || !IS_SPEECH[g->turn]) {
        PyErr_SetString(PyExc_ValueError, "table talk is part of a speech: nobody is speaking now");
        return NULL;
    }
    log_ev(&self->cfg, g, E_TALK, g->actor, -1, g->talk_count, PUBLIC);
    g->talk_count++;
    return check_oom(PyLong_FromLong(g->n_inputs));
}

static int get_wbuf(PyObject *o, Py_buffer *view, Py_ssize_t bytes, const char *what) {
    if (PyObject_GetBuffer(o, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->len < bytes) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "%s needs a buffer of %zd bytes; got %zd", what, bytes,
                     view->len);
        return -1;
    }
    return 0;
}

/* observe(b, seat, out): seat's observation into the float32 buffer `out` */
static PyObject *Core_observe(CoreObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "observe(b, seat, out)");
        return NULL;
    }
    int b = (int)PyLong_AsLong(args[0]), seat = (int)PyLong_AsLong(args[1]);
    if (PyErr_Occurred()) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    if (seat < 0 || seat >= self->cfg.n) {
        PyErr_Format(PyExc_IndexError, "seat %d is not at the table", seat);
        return NULL;
    }
    Py_buffer v;
    if (get_wbuf(args[2], &v, (Py_ssize_t)sizeof(float) * self->cfg.obs_size, "observe") < 0)
        return NULL;
    write_obs(&self->cfg, g, seat, (float *)v.buf);
    PyBuffer_Release(&v);
    Py_RETURN_NONE;
}

/* observe_turn(b, seat, turn, out) */
static PyObject *Core_observe_turn(CoreObject *self, PyObject *args) {
    int b, seat, turn;
    PyObject *out;
    if (!PyArg_ParseTuple(args, "iiiO", &b, &seat, &turn, &out)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    if (seat < 0 || seat >= self->cfg.n || turn < 0 || turn >= N_TURNS) {
        PyErr_SetString(PyExc_IndexError, "no such seat or turn");
        return NULL;
    }
    Py_buffer v;
    if (get_wbuf(out, &v, (Py_ssize_t)sizeof(float) * self->cfg.obs_size, "observe_turn") < 0)
        return NULL;
    write_obs_turn(&self->cfg, g, seat, turn, (float *)v.buf);
    PyBuffer_Release(&v);
    Py_RETURN_NONE;
}

/* private_rows(b, out): every seat's private row into the float32 buffer `out` [n, P] */
static PyObject *Core_private_rows(CoreObject *self, PyObject *args) {
    int b;
    PyObject *out;
    if (!PyArg_ParseTuple(args, "iO", &b, &out)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    const Config *c = &self->cfg;
    Py_buffer v;
    Py_ssize_t size = (Py_ssize_t)sizeof(float) * c->n * c->private_size;
    if (get_wbuf(out, &v, size, "private_rows") < 0) return NULL;
    memcpy(v.buf, g->obs, (size_t)size);
    PyBuffer_Release(&v);
    Py_RETURN_NONE;
}

/* live(b) -> (actor, turn, turn_public, over): the observer's facts of the moment */
static PyObject *Core_live(CoreObject *self, PyObject *arg) {
    int b = (int)PyLong_AsLong(arg);
    if (PyErr_Occurred()) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    return Py_BuildValue("(iiii)", g->o_actor, g->o_turn, g->o_turn_public, g->o_over);
}

/* mask(b) -> bytes: the acting seat's int8 mask (all zeros once the game is over) */
static PyObject *Core_mask(CoreObject *self, PyObject *arg) {
    int b = (int)PyLong_AsLong(arg);
    if (PyErr_Occurred()) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, self->cfg.action_size);
    if (!out) return NULL;
    write_mask(&self->cfg, g, (int8_t *)PyBytes_AS_STRING(out));
    return out;
}

/* mask_for(b, seat, turn) -> bytes: Game.legal_for's mask (a queued member of the round) */
static PyObject *Core_mask_for(CoreObject *self, PyObject *args) {
    int b, seat, turn;
    if (!PyArg_ParseTuple(args, "iii", &b, &seat, &turn)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    if (seat < 0 || seat >= self->cfg.n || turn < 0 || turn >= N_TURNS) {
        PyErr_SetString(PyExc_IndexError, "no such seat or turn");
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, self->cfg.action_size);
    if (!out) return NULL;
    Opt o[MAXOPTS];
    int8_t scratch[MAXMASK];
    int k = legal_of(&self->cfg, g, seat, turn, o);
    options_mask(&self->cfg, o, k, scratch);
    memcpy(PyBytes_AS_STRING(out), scratch, self->cfg.action_size);
    return out;
}

/* pending_round(b) -> [(seat, turn), ...] (Game.pending_round) */
static PyObject *Core_pending_round(CoreObject *self, PyObject *arg) {
    int b = (int)PyLong_AsLong(arg);
    if (PyErr_Occurred()) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    PyObject *out = PyList_New(0);
    if (!out || g->turn < 0) return out;
    PyObject *x = Py_BuildValue("(ii)", g->actor, g->turn);
    if (!x || PyList_Append(out, x) < 0) goto fail;
    Py_DECREF(x);
    if (together(&self->cfg, g->turn)) {
        for (int k = 0; k < g->qlen; k++) {
            int i = (g->qhead + k) & (QCAP - 1);
            if (g->qturn[i] != g->turn) break;
            if (!g->alive[g->qseat[i]]) continue;
            x = Py_BuildValue("(ii)", g->qseat[i], g->qturn[i]);
            if (!x || PyList_Append(out, x) < 0) goto fail;
            Py_DECREF(x);
        }
    }
    return out;
fail:
    Py_XDECREF(x);
    Py_DECREF(out);
    return NULL;
}

/* queue(b) -> [(seat, turn), ...] */
static PyObject *Core_queue(CoreObject *self, PyObject *arg) {
    int b = (int)PyLong_AsLong(arg);
    if (PyErr_Occurred()) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    PyObject *out = PyList_New(g->qlen);
    if (!out) return NULL;
    for (int k = 0; k < g->qlen; k++) {
        int i = (g->qhead + k) & (QCAP - 1);
        PyObject *x = Py_BuildValue("(ii)", g->qseat[i], g->qturn[i]);
        if (!x) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, x);
    }
    return out;
}

/* default_action(b) -> (act, target, value) */
static PyObject *Core_default_action(CoreObject *self, PyObject *arg) {
    int b = (int)PyLong_AsLong(arg);
    if (PyErr_Occurred()) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    if (g->turn < 0) {
        PyErr_SetString(PyExc_RuntimeError, "the game is over: nobody acts");
        return NULL;
    }
    int act, target, value;
    default_action(&self->cfg, g, &act, &target, &value);
    return Py_BuildValue("(iii)", act, target, value);
}

static PyObject *int_list(const int32_t *x, int n) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(x[i]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

/* actor(b) -> the acting seat (-1: the game is over) */
static PyObject *Core_actor(CoreObject *self, PyObject *arg) {
    int b = (int)PyLong_AsLong(arg);
    if (PyErr_Occurred()) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    return PyLong_FromLong(g->actor);
}

/* status(b) -> (actor, turn, winner, offender, truncated, day, stage, inputs, talk) */
static PyObject *Core_status(CoreObject *self, PyObject *arg) {
    int b = (int)PyLong_AsLong(arg);
    if (PyErr_Occurred()) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    return Py_BuildValue("(iiiiiiiii)", g->actor, g->turn, g->winner, g->offender,
                         g->truncated, g->day, g->stage, g->n_inputs, g->talk_count);
}

/* facts(b) -> dict: the state the inspection hooks read */
static PyObject *Core_facts(CoreObject *self, PyObject *arg) {
    int b = (int)PyLong_AsLong(arg);
    if (PyErr_Occurred()) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    int n = self->cfg.n;
    return Py_BuildValue("{s:N,s:N,s:N,s:N,s:N,s:K,s:i,s:i,s:i,s:i}", "roles",
                         int_list(g->roles, n), "teams", int_list(g->teams, n), "alive",
                         int_list(g->alive, n), "fouls", int_list(g->fouls, n), "team_alive",
                         int_list(g->team_alive, 3), "seed", (unsigned long long)g->seed,
                         "n_events", g->n_events, "n_inputs", g->n_inputs, "talk_count",
                         g->talk_count, "don_introduced", g->don_introduced);
}

/* deal(b) -> (roles, teams): tuples of Role and Team values, one a seat */
static PyObject *Core_deal(CoreObject *self, PyObject *arg) {
    int b = (int)PyLong_AsLong(arg);
    if (b == -1 && PyErr_Occurred()) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    int n = self->cfg.n;
    PyObject *roles = PyTuple_New(n), *teams = PyTuple_New(n);
    if (!roles || !teams) {
        Py_XDECREF(roles);
        Py_XDECREF(teams);
        return NULL;
    }
    for (int s = 0; s < n; s++) {
        PyTuple_SET_ITEM(roles, s, PyLong_FromLong(g->roles[s]));
        PyTuple_SET_ITEM(teams, s, PyLong_FromLong(g->teams[s]));
    }
    return Py_BuildValue("(NN)", roles, teams);
}

/* inputs(b, start=0) -> [(seat, act, target, value, turn, day), ...] */
static PyObject *Core_inputs(CoreObject *self, PyObject *args) {
    int b, start = 0;
    if (!PyArg_ParseTuple(args, "i|i", &b, &start)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    if (start < 0) start = 0;
    int m = g->n_inputs > start ? g->n_inputs - start : 0;
    PyObject *out = PyList_New(m);
    if (!out) return NULL;
    for (int i = 0; i < m; i++) {
        Input *x = &g->inputs[start + i];
        PyObject *t =
            Py_BuildValue("(iiiiii)", x->seat, x->act, x->target, x->value, x->turn, x->day);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, t);
    }
    return out;
}

static PyObject *seq_code(const int8_t *p) {
    /* events.sequence_code: (seat + 1) << (5 * i), as a Python int (it may pass 64 bits) */
    int len = p[0];
    PyObject *code = PyLong_FromLong(0);
    for (int i = len - 1; i >= 0 && code; i--) {
        PyObject *five = PyLong_FromLong(5), *shifted = PyNumber_Lshift(code, five);
        Py_DECREF(five);
        Py_DECREF(code);
        if (!shifted) return NULL;
        PyObject *seat = PyLong_FromLong(p[1 + i] + 1);
        code = PyNumber_Or(shifted, seat);
        Py_DECREF(shifted);
        Py_DECREF(seat);
    }
    return code;
}

/* events(b, start=0) -> [(kind, actor, target, value, seen_by), ...] (log_events only) */
static PyObject *Core_events(CoreObject *self, PyObject *args) {
    int b, start = 0;
    if (!PyArg_ParseTuple(args, "i|i", &b, &start)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    if (!g->log_events) {
        PyErr_SetString(PyExc_RuntimeError, "this core keeps no events (log_events=False)");
        return NULL;
    }
    if (start < 0) start = 0;
    int m = g->n_events > start ? g->n_events - start : 0;
    PyObject *out = PyList_New(m);
    if (!out) return NULL;
    for (int i = 0; i < m; i++) {
        Event *e = &g->events[start + i];
        PyObject *value =
            e->kind == E_VOTING ? seq_code(g->seq + e->value) : PyLong_FromLongLong(e->value);
        if (!value) {
            Py_DECREF(out);
            return NULL;
        }
        PyObject *t = Py_BuildValue("(iiiNi)", e->kind, e->actor, e->target, value, e->seen_by);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, t);
    }
    return out;
}

/* ------------------------------------------------------------- copies and pickles */
static int copy_logs(Game *dst, const Game *src) {
    dst->events = NULL;
    dst->seq = NULL;
    dst->inputs = NULL;
    dst->cap_events = dst->n_events;
    dst->cap_seq = dst->n_seq;
    dst->cap_inputs = dst->n_inputs;
    if (src->n_events) {
        dst->events = PyMem_Malloc(sizeof(Event) * (size_t)src->n_events);
        if (!dst->events) return -1;
        memcpy(dst->events, src->events, sizeof(Event) * (size_t)src->n_events);
    }
    if (src->n_seq) {
        dst->seq = PyMem_Malloc((size_t)src->n_seq);
        if (!dst->seq) return -1;
        memcpy(dst->seq, src->seq, (size_t)src->n_seq);
    }
    if (src->n_inputs) {
        dst->inputs = PyMem_Malloc(sizeof(Input) * (size_t)src->n_inputs);
        if (!dst->inputs) return -1;
        memcpy(dst->inputs, src->inputs, sizeof(Input) * (size_t)src->n_inputs);
    }
    return 0;
}

static int same_config(const Config *a, const Config *b) {
    return a->n == b->n && a->obs_size == b->obs_size && a->action_size == b->action_size &&
           a->private_size == b->private_size;
}

/* copy_game(b, other, ob): game b of this core becomes a copy of game ob of `other` */
static PyObject *Core_copy_game(CoreObject *self, PyObject *args);

/* get_state(b) -> bytes: game b whole (its logs and observation rows included) */
static PyObject *Core_get_state(CoreObject *self, PyObject *arg) {
    int b = (int)PyLong_AsLong(arg);
    if (PyErr_Occurred()) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    const Config *c = &self->cfg;
    size_t fl = obs_floats(c);
    size_t size = 4 * sizeof(int32_t) + sizeof(Game) + sizeof(float) * fl +
                  sizeof(Event) * (size_t)g->n_events + (size_t)g->n_seq +
                  sizeof(Input) * (size_t)g->n_inputs;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (!out) return NULL;
    char *p = PyBytes_AS_STRING(out);
    int32_t head[4] = {STATE_VERSION, c->n, c->obs_size, c->action_size};
    memcpy(p, head, sizeof(head));
    p += sizeof(head);
    Game copy = *g;
    copy.events = NULL;
    copy.seq = NULL;
    copy.inputs = NULL;
    copy.obs = NULL;
    memcpy(p, &copy, sizeof(Game));
    p += sizeof(Game);
    memcpy(p, g->obs, sizeof(float) * fl);
    p += sizeof(float) * fl;
    if (g->n_events) memcpy(p, g->events, sizeof(Event) * (size_t)g->n_events);
    p += sizeof(Event) * (size_t)g->n_events;
    if (g->n_seq) memcpy(p, g->seq, (size_t)g->n_seq);
    p += g->n_seq;
    if (g->n_inputs) memcpy(p, g->inputs, sizeof(Input) * (size_t)g->n_inputs);
    return out;
}

/* set_state(b, bytes): game b becomes the game get_state gave */
static PyObject *Core_set_state(CoreObject *self, PyObject *args) {
    int b;
    Py_buffer v;
    if (!PyArg_ParseTuple(args, "iy*", &b, &v)) return NULL;
    Game *g = game_at(self, b);
    const Config *c = &self->cfg;
    size_t fl = obs_floats(c);
    const char *p = v.buf;
    int32_t head[4];
    Game src;
    if (!g) goto fail;
    if ((size_t)v.len < sizeof(head) + sizeof(Game) + sizeof(float) * fl) goto bad;
    memcpy(head, p, sizeof(head));
    if (head[0] != STATE_VERSION || head[1] != c->n || head[2] != c->obs_size ||
        head[3] != c->action_size)
        goto bad;
    p += sizeof(head);
    memcpy(&src, p, sizeof(Game));
    p += sizeof(Game);
    if (src.n_events < 0 || src.n_seq < 0 || src.n_inputs < 0) goto bad;
    size_t want = sizeof(head) + sizeof(Game) + sizeof(float) * fl +
                  sizeof(Event) * (size_t)src.n_events + (size_t)src.n_seq +
                  sizeof(Input) * (size_t)src.n_inputs;
    if ((size_t)v.len != want) goto bad;
    float *obs = g->obs;
    game_free_logs(g);
    *g = src;
    g->obs = obs;
    memcpy(obs, p, sizeof(float) * fl);
    p += sizeof(float) * fl;
    Game from = src;
    from.events = (Event *)p;
    p += sizeof(Event) * (size_t)src.n_events;
    from.seq = (int8_t *)p;
    p += src.n_seq;
    from.inputs = (Input *)p;
    if (copy_logs(g, &from) < 0) {
        game_free_logs(g);
        PyBuffer_Release(&v);
        return PyErr_NoMemory();
    }
    PyBuffer_Release(&v);
    Py_RETURN_NONE;
bad:
    PyErr_SetString(PyExc_ValueError, "not a saved game of this core's variant and table");
fail:
    PyBuffer_Release(&v);
    return NULL;
}

/* ------------------------------------------------------------------ the batched step */
/* bind(obs, masks, rewards, dones, truncated, winner, seat, team, teams, done_teams): the
   VectorMafia arrays the batched calls write (float32, int8, float32, bool, bool, int64,
   int64, int64, int64, int64) */
static PyObject *Core_bind(CoreObject *self, PyObject *args) {
    PyObject *o[10];
    if (!PyArg_ParseTuple(args, "OOOOOOOOOO", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6],
                          &o[7], &o[8], &o[9]))
        return NULL;
    release_buffers(self);
    const Config *c = &self->cfg;
    Py_ssize_t B = self->num, n = c->n;
    Py_buffer *views[10] = {&self->b_obs,    &self->b_masks, &self->b_rewards, &self->b_dones,
                            &self->b_trunc,  &self->b_winner, &self->b_seat,   &self->b_team,
                            &self->b_teams, &self->b_done_teams};
    Py_ssize_t sizes[10] = {B * c->obs_size * 4, B * c->action_size, B * n * 4, B, B,
                            B * 8, B * 8, B * 8, B * n * 8, B * n * 8};
    for (int i = 0; i < 10; i++) {
        if (get_wbuf(o[i], views[i], sizes[i], "bind") < 0) {
            for (int j = 0; j < i; j++) PyBuffer_Release(views[j]);
            return NULL;
        }
    }
    self->bound = 1;
    Py_RETURN_NONE;
}

static void write_slot(CoreObject *self, int b) {
    const Config *c = &self->cfg;
    Game *g = &self->games[b];
    int seat = g->actor;
    ((int64_t *)self->b_seat.buf)[b] = seat;
    ((int64_t *)self->b_team.buf)[b] = seat >= 0 ? g->teams[seat] : 0;
    write_obs(c, g, seat >= 0 ? seat : 0, (float *)self->b_obs.buf + (size_t)b * c->obs_size);
    write_mask(c, g, (int8_t *)self->b_masks.buf + (size_t)b * c->action_size);
}

static void new_from_slot(CoreObject *self, int b) {
    Game *g = &self->games[b];
    uint64_t seed = mt_bits63(&g->slot);
    g->n_events = g->n_seq = g->n_inputs = 0;
    game_start(&self->cfg, g, seed, self->has_deal ? self->deal : NULL);
    int64_t *teams = (int64_t *)self->b_teams.buf + (size_t)b * self->cfg.n;
    for (int s = 0; s < self->cfg.n; s++) teams[s] = g->teams[s];
}

/* reset_all(): a new game in every slot from its stream; the arrays written */
static PyObject *Core_reset_all(CoreObject *self, PyObject *noargs) {
    if (!self->bound) {
        PyErr_SetString(PyExc_RuntimeError, "bind() the arrays first");
        return NULL;
    }
    for (int b = 0; b < self->num; b++) {
        new_from_slot(self, b);
        write_slot(self, b);
    }
    return check_oom(Py_NewRef(Py_None));
}

/* step_all(actions) -> -1, or the first game whose action is illegal (nothing is applied
   then). A game that ends starts the slot's next one at once. */
static PyObject *Core_step_all(CoreObject *self, PyObject *acts) {
    if (!self->bound) {
        PyErr_SetString(PyExc_RuntimeError, "bind() the arrays first");
        return NULL;
    }
    const Config *c = &self->cfg;
    int B = self->num, n = c->n, A = c->action_size;
    Py_buffer v;
    if (PyObject_GetBuffer(acts, &v, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    if (v.len != (Py_ssize_t)8 * B || v.itemsize != 8 || !v.format ||
        (strcmp(v.format, "l") != 0 && strcmp(v.format, "q") != 0 &&
         strcmp(v.format, "<q") != 0 && strcmp(v.format, "=q") != 0 &&
         strcmp(v.format, "<l") != 0 && strcmp(v.format, "=l") != 0)) {
        PyBuffer_Release(&v);
        PyErr_SetString(PyExc_TypeError, "actions must be a contiguous int64 array of B");
        return NULL;
    }
    const int64_t *a = v.buf;
    const int8_t *masks = self->b_masks.buf;
    for (int b = 0; b < B; b++)
        if (a[b] < 0 || a[b] >= A || masks[(size_t)b * A + a[b]] != 1) {
            PyBuffer_Release(&v);
            return PyLong_FromLong(b);
        }
    float *rewards = self->b_rewards.buf;
    uint8_t *dones = self->b_dones.buf, *trunc = self->b_trunc.buf;
    int64_t *winner = self->b_winner.buf, *done_teams = self->b_done_teams.buf;
    memset(rewards, 0, sizeof(float) * (size_t)B * n);
    memset(dones, 0, (size_t)self->num);
    memset(trunc, 0, (size_t)self->num);
    for (int b = 0; b < B; b++) winner[b] = -1;
    for (int b = 0; b < B; b++) {
        Game *g = &self->games[b];
        int x = (int)a[b];
        game_apply(c, g, c->dec_act[x], c->dec_target[x], c->dec_value[x]);
        if (g->winner >= 0 || g->offender >= 0) { /* VectorMafia._finish */
            dones[b] = 1;
            trunc[b] = (uint8_t)g->truncated;
            winner[b] = g->winner;
            for (int s = 0; s < n; s++) done_teams[(size_t)b * n + s] = g->teams[s];
            if (g->winner >= 0 && g->winner != O_DRAW)
                for (int s = 0; s < n; s++)
                    rewards[(size_t)b * n + s] = g->teams[s] == g->winner ? 1.0f : -1.0f;
            new_from_slot(self, b);
        }
        write_slot(self, b);
    }
    PyBuffer_Release(&v);
    return check_oom(PyLong_FromLong(-1));
}

/* memory() -> bytes held by the games, their rows and their logs (not the bound arrays) */
static PyObject *Core_memory(CoreObject *self, PyObject *noargs) {
    size_t total = sizeof(Game) * (size_t)self->num;
    for (int b = 0; b < self->num; b++) {
        Game *g = &self->games[b];
        total += sizeof(float) * obs_floats(&self->cfg) + sizeof(Event) * (size_t)g->cap_events +
                 (size_t)g->cap_seq + sizeof(Input) * (size_t)g->cap_inputs;
    }
    return PyLong_FromSize_t(total);
}

static PyObject *Core_copy_game(CoreObject *self, PyObject *args) {
    int b, ob;
    CoreObject *other;
    if (!PyArg_ParseTuple(args, "iOi", &b, &other, &ob)) return NULL;
    if (Py_TYPE(other) != Py_TYPE(self)) {
        PyErr_SetString(PyExc_TypeError, "copy_game copies from another Core");
        return NULL;
    }
    Game *g = game_at(self, b), *src = game_at(other, ob);
    if (!g || !src) return NULL;
    if (!same_config(&self->cfg, &other->cfg)) {
        PyErr_SetString(PyExc_ValueError, "copy_game needs a core of the same variant and table");
        return NULL;
    }
    if (g == src) Py_RETURN_NONE;
    float *obs = g->obs;
    game_free_logs(g);
    *g = *src;
    g->obs = obs;
    memcpy(obs, src->obs, sizeof(float) * obs_floats(&self->cfg));
    if (copy_logs(g, src) < 0) {
        game_free_logs(g);
        return PyErr_NoMemory();
    }
    Py_RETURN_NONE;
}

/* fork(b) -> a new Core of one game: a copy of game b (the config copied, not parsed) */
static PyObject *Core_fork(CoreObject *self, PyObject *arg) {
    int b = (int)PyLong_AsLong(arg);
    if (PyErr_Occurred()) return NULL;
    Game *src = game_at(self, b);
    if (!src) return NULL;
    CoreObject *out = (CoreObject *)Py_TYPE(self)->tp_alloc(Py_TYPE(self), 0);
    if (!out) return NULL;
    out->cfg = self->cfg;
    int A = self->cfg.action_size;
    out->cfg.dec_act = PyMem_Malloc(sizeof(int) * 3 * (size_t)A);
    out->games = PyMem_Calloc(1, sizeof(Game));
    if (!out->cfg.dec_act || !out->games) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    memcpy(out->cfg.dec_act, self->cfg.dec_act, sizeof(int) * 3 * (size_t)A);
    out->cfg.dec_target = out->cfg.dec_act + A;
    out->cfg.dec_value = out->cfg.dec_act + 2 * A;
    out->num = 1;
    memcpy(out->deal, self->deal, sizeof(self->deal));
    out->has_deal = self->has_deal;
    Game *g = &out->games[0];
    *g = *src;
    g->events = NULL;
    g->seq = NULL;
    g->inputs = NULL;
    g->obs = PyMem_Malloc(sizeof(float) * obs_floats(&self->cfg));
    if (!g->obs || copy_logs(g, src) < 0) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    memcpy(g->obs, src->obs, sizeof(float) * obs_floats(&self->cfg));
    return (PyObject *)out;
}

/* random_state(b, which) -> (index, words): a stream's state (0: the game's, 1: the slot's),
   as random.Random.getstate() holds it */
static PyObject *Core_random_state(CoreObject *self, PyObject *args) {
    int b, which;
    if (!PyArg_ParseTuple(args, "ii", &b, &which)) return NULL;
    Game *g = game_at(self, b);
    if (!g) return NULL;
    MT *mt = which ? &g->slot : &g->rng;
    PyObject *words = PyTuple_New(MT_N);
    if (!words) return NULL;
    for (int i = 0; i < MT_N; i++) {
        PyObject *w = PyLong_FromUnsignedLong(mt->state[i]);
        if (!w) {
            Py_DECREF(words);
            return NULL;
        }
        PyTuple_SET_ITEM(words, i, w);
    }
    return Py_BuildValue("(iN)", mt->index, words);
}

/* ------------------------------------------------------------ the AEC env's calls */
/* The AEC env (coreenv.py) takes one observation and one mask a move. aec_bind gives the core
   a float32 template the observations are written into (each handed out as a fresh copy, the
   template's own copy()), the env's shared cache of read-only masks (ccore.mask_cache: bytes
   -> int8 array), the function that fills it (ccore.shared_mask) and the all-zeros mask of
   the agents that do not act: a move's mask is looked up in the cache here, in one call. */

/* the cache's read-only array of mask m (a new reference), NULL on an error */
static PyObject *aec_mask_array(CoreObject *self, const int8_t *m) {
    PyObject *key = PyBytes_FromStringAndSize((const char *)m, self->cfg.action_size);
    if (!key) return NULL;
    PyObject *arr = PyDict_GetItemWithError(self->aec_cache, key);
    if (arr) {
        Py_INCREF(arr);
    } else if (!PyErr_Occurred()) {
        arr = PyObject_CallFunctionObjArgs(self->aec_make, self->aec_cache, key, NULL);
    }
    Py_DECREF(key);
    return arr;
}

static void aec_release(CoreObject *self) {
    if (self->aec_bound) PyBuffer_Release(&self->b_tmpl);
    self->aec_bound = 0;
    Py_CLEAR(self->aec_copy);
    for (int i = 0; i < AEC_POOL; i++) Py_CLEAR(self->aec_pool[i]);
    self->aec_next = 0;
    Py_CLEAR(self->aec_cache);
    Py_CLEAR(self->aec_make);
    Py_CLEAR(self->aec_no_mask);
}

/* aec_bind(template, cache, make, no_mask): see above; the template is the core's alone */
static PyObject *Core_aec_bind(CoreObject *self, PyObject *args) {
    PyObject *tmpl, *cache, *make, *no_mask;
    if (!PyArg_ParseTuple(args, "OO!OO", &tmpl, &PyDict_Type, &cache, &make, &no_mask))
        return NULL;
    if (!PyCallable_Check(make)) {
        PyErr_SetString(PyExc_TypeError, "aec_bind: make must be callable");
        return NULL;
    }
    PyObject *copy = PyObject_GetAttrString(tmpl, "copy");
    if (!copy) return NULL;
    Py_buffer v;
    if (get_wbuf(tmpl, &v, (Py_ssize_t)sizeof(float) * self->cfg.obs_size, "aec_bind") < 0) {
        Py_DECREF(copy);
        return NULL;
    }
    aec_release(self);
    self->b_tmpl = v;
    self->aec_bound = 1;
    self->aec_copy = copy;
    self->aec_cache = Py_NewRef(cache);
    self->aec_make = Py_NewRef(make);
    self->aec_no_mask = Py_NewRef(no_mask);
    Py_RETURN_NONE;
}

static Game *aec_game(CoreObject *self, PyObject *arg) {
    if (!self->aec_bound) {
        PyErr_SetString(PyExc_RuntimeError, "aec_bind() first");
        return NULL;
    }
    int b = (int)PyLong_AsLong(arg);
    if (b == -1 && PyErr_Occurred()) return NULL;
    return game_at(self, b);
}

/* seat's observation as a fresh float32 array (a new reference) */
/* Whether the array x of the pool can be handed out again: nobody else holds it (no
   reference, view, buffer or weak reference: the pool's is its only one) and it is still a
   writable C-contiguous float32 vector of the observation's length (what its last holder
   may have changed in place: shape, dtype, flags). Then its buffer is in *v. */
static int aec_reusable(CoreObject *self, PyObject *x, Py_buffer *v) {
    if (Py_REFCNT(x) != 1) return 0;
    Py_ssize_t wl = Py_TYPE(x)->tp_weaklistoffset;
    if (wl > 0 && *(PyObject **)((char *)x + wl) != NULL) return 0;
    if (PyObject_GetBuffer(x, v, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        return -1;
    }
    const char *f = v->format;
    if (v->ndim == 1 && v->shape && v->shape[0] == self->cfg.obs_size && v->itemsize == 4 &&
        f && (strcmp(f, "f") == 0 || strcmp(f, "=f") == 0 ||
              (strcmp(f, "<f") == 0 && PY_LITTLE_ENDIAN)))
        return 1;
    PyBuffer_Release(v);
    return -1;
}

/* seat's observation as a fresh float32 array (a new reference): one the caller alone holds,
   either an array of the pool that nobody holds any more, rewritten whole, or a new one (a
   copy of the template) that joins the pool in place of the oldest */
static PyObject *aec_obs_array(CoreObject *self, Game *g, int seat) {
    for (int i = 0; i < AEC_POOL; i++) {
        PyObject *x = self->aec_pool[i];
        if (!x) continue;
        Py_buffer v;
        int ok = aec_reusable(self, x, &v);
        if (ok > 0) {
            write_obs(&self->cfg, g, seat, (float *)v.buf);
            PyBuffer_Release(&v);
            return Py_NewRef(x);
        }
        if (ok < 0) Py_CLEAR(self->aec_pool[i]); /* changed by its last holder: let it go */
    }
    write_obs(&self->cfg, g, seat, (float *)self->b_tmpl.buf);
    PyObject *x = PyObject_CallNoArgs(self->aec_copy);
    if (!x) return NULL;
    Py_XSETREF(self->aec_pool[self->aec_next], Py_NewRef(x));
    self->aec_next = (self->aec_next + 1) % AEC_POOL;
    return x;
}

static int aec_seat(CoreObject *self, PyObject *arg) {
    long seat = PyLong_AsLong(arg);
    if (seat == -1 && PyErr_Occurred()) return -1;
    if (seat < 0 || seat >= self->cfg.n) {
        PyErr_Format(PyExc_IndexError, "seat %ld is not at the table", seat);
        return -1;
    }
    return (int)seat;
}

/* aec_observe(b, seat) -> seat's observation, a fresh float32 array */
static PyObject *Core_aec_observe(CoreObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "aec_observe(b, seat)");
        return NULL;
    }
    Game *g = aec_game(self, args[0]);
    if (!g) return NULL;
    int seat = aec_seat(self, args[1]);
    if (seat < 0) return NULL;
    return aec_obs_array(self, g, seat);
}

/* aec_obs_dict(b, seat, mask) -> {"observation": a fresh array, "action_mask": the acting
   seat's shared mask (`mask`, or the table's where it is None), the zeros for the others} */
static PyObject *Core_aec_obs_dict(CoreObject *self, PyObject *const *args, Py_ssize_t nargs) {
    static PyObject *k_obs = NULL, *k_mask = NULL;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "aec_obs_dict(b, seat, mask)");
        return NULL;
    }
    if (!k_obs) {
        k_obs = PyUnicode_InternFromString("observation");
        k_mask = PyUnicode_InternFromString("action_mask");
        if (!k_obs || !k_mask) return NULL;
    }
    Game *g = aec_game(self, args[0]);
    if (!g) return NULL;
    int seat = aec_seat(self, args[1]);
    if (seat < 0) return NULL;
    PyObject *mask = self->aec_no_mask;
    if (g->turn >= 0 && seat == g->actor) {
        mask = args[2];
        if (mask == Py_None) {
            int8_t m[MAXMASK];
            write_mask(&self->cfg, g, m);
            mask = aec_mask_array(self, m);
            if (!mask) return NULL;
        } else {
            Py_INCREF(mask);
        }
    } else {
        Py_INCREF(mask);
    }
    PyObject *obs = aec_obs_array(self, g, seat), *d = NULL;
    if (obs) d = PyDict_New();
    if (d && (PyDict_SetItem(d, k_obs, obs) < 0 || PyDict_SetItem(d, k_mask, mask) < 0))
        Py_CLEAR(d);
    Py_XDECREF(obs);
    Py_DECREF(mask);
    return d;
}

/* aec_mask(b) -> the acting seat's shared mask array (zeros once the game is over): `mask`
   from the table */
static PyObject *Core_aec_mask(CoreObject *self, PyObject *arg) {
    Game *g = aec_game(self, arg);
    if (!g) return NULL;
    int8_t m[MAXMASK];
    write_mask(&self->cfg, g, m);
    return aec_mask_array(self, m);
}

/* aec_play(b, index) -> None where the index is not legal now (nothing is applied), else
   (the acting seat now, its shared mask array), or (-1, None) once the game is over: `play`
   with the mask from the table */
static PyObject *Core_aec_play(CoreObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "aec_play(b, index)");
        return NULL;
    }
    Game *g = aec_game(self, args[0]);
    if (!g) return NULL;
    long a = PyLong_AsLong(args[1]);
    if (a == -1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return NULL;
        PyErr_Clear(); /* an int beyond a C long is no action: not legal */
        Py_RETURN_NONE;
    }
    const Config *c = &self->cfg;
    int8_t m[MAXMASK];
    if (g->turn < 0 || a < 0 || a >= c->action_size) Py_RETURN_NONE;
    write_mask(c, g, m);
    if (!m[a]) Py_RETURN_NONE;
    game_apply(c, g, c->dec_act[a], c->dec_target[a], c->dec_value[a]);
    if (g_oom) return check_oom(NULL);
    if (g->turn < 0) return Py_BuildValue("(iO)", -1, Py_None);
    write_mask(c, g, m);
    PyObject *arr = aec_mask_array(self, m);
    if (!arr) return NULL;
    PyObject *out = PyTuple_New(2);
    if (!out) {
        Py_DECREF(arr);
        return NULL;
    }
    PyTuple_SET_ITEM(out, 0, PyLong_FromLong(g->actor));
    PyTuple_SET_ITEM(out, 1, arr);
    return out;
}

static PyMethodDef Core_methods[] = {
    {"seed_slot", (PyCFunction)Core_seed_slot, METH_VARARGS, NULL},
    {"start", (PyCFunction)Core_start, METH_VARARGS, NULL},
    {"start_from_slot", (PyCFunction)Core_start_from_slot, METH_O, NULL},
    {"apply", (PyCFunction)(void (*)(void))Core_apply, METH_FASTCALL, NULL},
    {"play", (PyCFunction)(void (*)(void))Core_play, METH_FASTCALL, NULL},
    {"apply_action", (PyCFunction)Core_apply_action, METH_VARARGS, NULL},
    {"foul", (PyCFunction)Core_foul, METH_VARARGS, NULL},
    {"remove", (PyCFunction)Core_remove, METH_VARARGS, NULL},
    {"terminate", (PyCFunction)Core_terminate, METH_VARARGS, NULL},
    {"say", (PyCFunction)Core_say, METH_VARARGS, NULL},
    {"observe", (PyCFunction)(void (*)(void))Core_observe, METH_FASTCALL, NULL},
    {"observe_turn", (PyCFunction)Core_observe_turn, METH_VARARGS, NULL},
    {"mask", (PyCFunction)Core_mask, METH_O, NULL},
    {"private_rows", (PyCFunction)Core_private_rows, METH_VARARGS, NULL},
    {"live", (PyCFunction)Core_live, METH_O, NULL},
    {"mask_for", (PyCFunction)Core_mask_for, METH_VARARGS, NULL},
    {"pending_round", (PyCFunction)Core_pending_round, METH_O, NULL},
    {"queue", (PyCFunction)Core_queue, METH_O, NULL},
    {"default_action", (PyCFunction)Core_default_action, METH_O, NULL},
    {"status", (PyCFunction)Core_status, METH_O, NULL},
    {"actor", (PyCFunction)Core_actor, METH_O, NULL},
    {"facts", (PyCFunction)Core_facts, METH_O, NULL},
    {"deal", (PyCFunction)Core_deal, METH_O, NULL},
    {"inputs", (PyCFunction)Core_inputs, METH_VARARGS, NULL},
    {"events", (PyCFunction)Core_events, METH_VARARGS, NULL},
    {"get_state", (PyCFunction)Core_get_state, METH_O, NULL},
    {"set_state", (PyCFunction)Core_set_state, METH_VARARGS, NULL},
    {"copy_game", (PyCFunction)Core_copy_game, METH_VARARGS, NULL},
    {"fork", (PyCFunction)Core_fork, METH_O, NULL},
    {"bind", (PyCFunction)Core_bind, METH_VARARGS, NULL},
    {"reset_all", (PyCFunction)Core_reset_all, METH_NOARGS, NULL},
    {"step_all", (PyCFunction)Core_step_all, METH_O, NULL},
    {"memory", (PyCFunction)Core_memory, METH_NOARGS, NULL},
    {"random_state", (PyCFunction)Core_random_state, METH_VARARGS, NULL},
    {"aec_bind", (PyCFunction)Core_aec_bind, METH_VARARGS, NULL},
    {"aec_observe", (PyCFunction)(void (*)(void))Core_aec_observe, METH_FASTCALL, NULL},
    {"aec_obs_dict", (PyCFunction)(void (*)(void))Core_aec_obs_dict, METH_FASTCALL, NULL},
    {"aec_mask", (PyCFunction)Core_aec_mask, METH_O, NULL},
    {"aec_play", (PyCFunction)(void (*)(void))Core_aec_play, METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL}};

static PyObject *Core_get_num(CoreObject *self, void *closure) {
    return PyLong_FromLong(self->num);
}

static PyGetSetDef Core_getset[] = {{"num_games", (getter)Core_get_num, NULL, NULL, NULL},
                                    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "mafia_env._ccore.Core",
    .tp_doc = "B games of one variant and table size, played by the C core",
    .tp_basicsize = sizeof(CoreObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

/* mt_check(words, draws) -> [getrandbits(32) x draws]: for the tests of the seeding */
static PyObject *mt_check(PyObject *mod, PyObject *args) {
    PyObject *words;
    int draws;
    if (!PyArg_ParseTuple(args, "Oi", &words, &draws)) return NULL;
    uint32_t *key;
    Py_ssize_t len;
    if (read_key(words, &key, &len) < 0) return NULL;
    MT mt;
    mt_init_by_array(&mt, key, (size_t)len);
    PyMem_Free(key);
    PyObject *out = PyList_New(draws);
    if (!out) return NULL;
    for (int i = 0; i < draws; i++) PyList_SET_ITEM(out, i, PyLong_FromUnsignedLong(mt_next(&mt)));
    return out;
}

static PyMethodDef module_methods[] = {{"mt_check", mt_check, METH_VARARGS, NULL},
                                       {NULL, NULL, 0, NULL}};

#ifndef CCORE_SOURCE
#define CCORE_SOURCE "" /* built without setup.py: mafia_env.ccore cannot tell a stale build */
#endif

static struct PyModuleDef ccore_module = {PyModuleDef_HEAD_INIT, "_ccore",
                                          "The C core of the mafia_env engine.", -1,
                                          module_methods};

PyMODINIT_FUNC PyInit__ccore(void) {
    init_expand();
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&ccore_module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "MAXN", MAXN);
    PyModule_AddIntConstant(m, "STATE_VERSION", STATE_VERSION);
    PyModule_AddIntConstant(m, "N_PIECES", N_PIECES);
    PyModule_AddStringConstant(m, "SOURCE", CCORE_SOURCE);
    return m;
}
