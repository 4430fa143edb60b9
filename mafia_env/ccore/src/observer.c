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

