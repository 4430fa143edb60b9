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

ALWAYS_INLINE void write_mask(const Config *c, Game *g, int8_t *m) {
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

/* every seat's private row into `out` [n, private_size] */
static void write_private_rows(const Config *c, const Game *g, float *out) {
    memcpy(out, g->obs, sizeof(float) * (size_t)c->n * c->private_size);
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

