/* ------------------------------------------------------------- a game's calls */
/* The work of each call a game takes (binding_calls.c reads the arguments and builds the
   results): starts, moves, the moderator's calls, table talk, the queue. Each checks what
   it is given against the game and returns a CoreErr (CORE_OK where it did its work). */

/* games_new(c, num, log_events) -> num games of config c, each with its observation rows
   (NULL where memory ran out) */
static Game *games_new(const Config *c, int num, int log_events) {
    Game *games = calloc((size_t)num, sizeof(Game));
    if (!games) return NULL;
    for (int b = 0; b < num; b++) {
        games[b].obs = calloc(obs_floats(c), sizeof(float));
        if (!games[b].obs) {
            for (int k = 0; k < b; k++) free(games[k].obs);
            free(games);
            return NULL;
        }
        games[b].log_events = log_events;
        games[b].winner = -1;
        games[b].offender = -1;
        games[b].turn = -1;
        games[b].actor = -1;
        games[b].o_over = 1;
        mt_seed_u64(&games[b].slot, 0);
    }
    return games;
}

static void games_free(Game *games, int num) {
    if (!games) return;
    for (int b = 0; b < num; b++) {
        game_free_logs(&games[b]);
        free(games[b].obs);
    }
    free(games);
}

/* a new game from a game seed (`deal` NULL deals by the seed) */
static void game_new(const Config *c, Game *g, uint64_t seed, const int *deal) {
    g->n_events = g->n_seq = g->n_inputs = 0;
    game_start(c, g, seed, deal);
}

/* a new game whose seed is the slot's getrandbits(63); its seed */
static uint64_t game_new_from_slot(const Config *c, Game *g, const int *deal) {
    uint64_t seed = mt_bits63(&g->slot);
    game_new(c, g, seed, deal);
    return seed;
}

/* apply an action index (it must be legal) */
static CoreErr game_apply_index(const Config *c, Game *g, long a) {
    if (g->turn < 0) return CORE_ERR_OVER;
    if (a < 0 || a >= c->action_size) return CORE_ERR_INDEX;
    game_apply(c, g, c->dec_act[a], c->dec_target[a], c->dec_value[a]);
    return CORE_OK;
}

/* apply a structured action (it must be legal) */
static CoreErr game_apply_checked(const Config *c, Game *g, int act, int target, int value) {
    if (g->turn < 0) return CORE_ERR_OVER;
    if (act < 0 || act >= N_ACTS || target < -1 || target >= c->n) return CORE_ERR_ACTION;
    game_apply(c, g, act, target, value);
    return CORE_OK;
}

#define PLAY_ILLEGAL (-2)

/* play: the index applied where it is legal now. PLAY_ILLEGAL where it is not (nothing is
   applied), else the acting seat now with its mask in `mask` (action_size bytes), or -1 once
   the game is over. The AEC env's step. */
ALWAYS_INLINE int game_play(const Config *c, Game *g, long a, int8_t *mask) {
    if (g->turn < 0 || a < 0 || a >= c->action_size) return PLAY_ILLEGAL;
    write_mask(c, g, mask);
    if (!mask[a]) return PLAY_ILLEGAL;
    game_apply(c, g, c->dec_act[a], c->dec_target[a], c->dec_value[a]);
    if (g->turn < 0) return -1;
    write_mask(c, g, mask);
    return g->actor;
}

/* a seat's check, and a seat's and a turn's */
static inline CoreErr check_seat(const Config *c, int seat) {
    return seat < 0 || seat >= c->n ? CORE_ERR_SEAT : CORE_OK;
}
static inline CoreErr check_seat_turn(const Config *c, int seat, int turn) {
    return seat < 0 || seat >= c->n || turn < 0 || turn >= N_TURNS ? CORE_ERR_SEAT_TURN : CORE_OK;
}

/* Game.default_action of the acting seat */
static CoreErr game_default(const Config *c, Game *g, int *act, int *target, int *value) {
    if (g->turn < 0) return CORE_ERR_OVER;
    default_action(c, g, act, target, value);
    return CORE_OK;
}

/* whether seat acts now (the game is not over) */
static inline int game_acting(const Game *g, int seat) { return g->turn >= 0 && seat == g->actor; }

/* the moderator's calls on a seat */
enum { CALL_ON_FOUL, CALL_ON_REMOVE, CALL_ON_TERMINATE };

static CoreErr game_seat_call(const Config *c, Game *g, int seat, int what) {
    if (check_seat(c, seat)) return CORE_ERR_SEAT;
    if (what == CALL_ON_FOUL) {
        game_foul(c, g, seat);
    } else if (what == CALL_ON_REMOVE) {
        if (!g->alive[seat]) return CORE_ERR_LEFT;
        game_remove(c, g, seat);
    } else {
        game_terminate(c, g, seat);
    }
    return CORE_OK;
}

/* log the acting speaker's remark of table talk (its text stays in Python) */
static CoreErr game_say(const Config *c, Game *g) {
    if (g->turn < 0 || !IS_SPEECH[g->turn]) return CORE_ERR_SPEECH;
    log_ev(c, g, E_TALK, g->actor, -1, g->talk_count, PUBLIC);
    g->talk_count++;
    return CORE_OK;
}

/* Game.legal_for's mask of a queued member of the round: action_size bytes into `out` */
static CoreErr game_mask_for(const Config *c, Game *g, int seat, int turn, int8_t *out) {
    if (check_seat_turn(c, seat, turn)) return CORE_ERR_SEAT_TURN;
    Opt o[MAXOPTS];
    int8_t scratch[MAXMASK];
    int k = legal_of(c, g, seat, turn, o);
    options_mask(c, o, k, scratch);
    memcpy(out, scratch, (size_t)c->action_size);
    return CORE_OK;
}

/* Game.pending_round: its (seat, turn) pairs into seats/turns (QCAP + 1 room); their count */
static int game_pending_round(const Config *c, const Game *g, int *seats, int *turns) {
    if (g->turn < 0) return 0;
    int m = 0;
    seats[m] = g->actor, turns[m++] = g->turn;
    if (together(c, g->turn)) {
        for (int k = 0; k < g->qlen; k++) {
            int i = (g->qhead + k) & (QCAP - 1);
            if (g->qturn[i] != g->turn) break;
            if (!g->alive[g->qseat[i]]) continue;
            seats[m] = g->qseat[i], turns[m++] = g->qturn[i];
        }
    }
    return m;
}

/* the queue's (seat, turn) pairs into seats/turns (QCAP room); their count */
static int game_queue(const Game *g, int *seats, int *turns) {
    for (int k = 0; k < g->qlen; k++) {
        int i = (g->qhead + k) & (QCAP - 1);
        seats[k] = g->qseat[i], turns[k] = g->qturn[i];
    }
    return g->qlen;
}
