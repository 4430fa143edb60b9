/* The belief piece of a counted table, from a game's event log (belief/count.py `Counted`,
 * belief/store.py `_Table.marginals_of`, engine/knowledge.py `deal_constraints`).
 *
 * At a table of civilians, sheriffs, mafia and a don (no hunt; count.py `countable`) the public
 * events show the deal only through the deaths: the deals kept are every deal of the role
 * table that passes three tests as the events come (a shot's victim the whole mafia alive could
 * have shot, the win check after each run of deaths, a card shown). A seat's piece is the
 * marginals, seat by role, of the kept deals its facts allow. Plain C over a game's log and
 * arrays the caller owns: the table's (made once per rules and size) and each slot's count
 * (kept between calls, started again by the caller where a slot deals anew). */

typedef struct {
    int D, n, R;
    const int8_t *deals;    /* D x n: each seat's role index in each deal */
    const uint8_t *black;   /* D x n: the seat is of the mafia in the deal */
    const uint8_t *town;    /* D x n: of the town */
    const int8_t *outcomes; /* (n + 1) x (n + 1): the win check by town and mafia alive, -1 */
    const int8_t *index;    /* N_ROLES: a role's index among the table's (-1: none) */
    const uint8_t *mafia_of;        /* R: the role index is of the mafia team */
    int shot_all, shot_never;       /* the mafia's shot (count.py `_shot_by_team`) */
    int don_known, don, sheriff;    /* knob don_known; the don's, the sheriff's index (-1) */
} CountTable;

typedef struct { /* slot b's count: live[b * D ...], ..., misc[b * 4 ...] */
    uint8_t *live;
    int16_t *n_town, *n_black;
    uint8_t *alive;
    int32_t *misc; /* events read, a run of deaths read (the win check due), version, broken */
} CountState;

static void count_keep(const CountTable *t, uint8_t *live, int32_t *version, const uint8_t *ok) {
    int changed = 0;
    for (int d = 0; d < t->D; d++) {
        if (live[d] && !ok[d]) {
            live[d] = 0;
            changed = 1;
        }
    }
    *version += changed;
}

static void count_win(const CountTable *t, uint8_t *live, const int16_t *nt, const int16_t *nb,
                      int32_t *version, int outcome, uint8_t *ok) {
    for (int d = 0; d < t->D; d++) ok[d] = t->outcomes[nt[d] * (t->n + 1) + nb[d]] == outcome;
    count_keep(t, live, version, ok);
}

/* Read game g's public events since the last call into slot b's count; 0, or -1 where an
   event the count does not read came (count.py `hands_over`: the caller's Python path then) */
static int count_update(const CountTable *t, CountState *s, int b, const Game *g, uint8_t *ok) {
    int D = t->D, n = t->n;
    uint8_t *live = s->live + (size_t)b * D;
    int16_t *nt = s->n_town + (size_t)b * D, *nb = s->n_black + (size_t)b * D;
    uint8_t *alive = s->alive + (size_t)b * n;
    int32_t *m = s->misc + (size_t)b * 4;
    if (m[3]) return -1;
    for (int k = m[0]; k < g->n_events; k++) {
        const Event *e = &g->events[k];
        if (e->seen_by != PUBLIC || e->kind == E_TALK) continue;
        if (m[1] && e->kind != E_ELIMINATED && e->kind != E_REVEAL) {
            int over = e->kind == E_GAME_OVER && !(g->truncated && e->value == O_DRAW);
            count_win(t, live, nt, nb, &m[2], over ? (int)e->value : -1, ok);
            m[1] = 0;
        }
        if (e->kind == E_ELIMINATED) {
            int seat = e->target, cause = (int)e->value;
            if (cause != C_VOTE && cause != C_FOUL && cause != C_REMOVED && cause != C_NIGHT) {
                m[3] = 1;
                return -1;
            }
            if (cause == C_NIGHT && !t->shot_all) { /* the team alive that night */
                for (int d = 0; d < D; d++) {
                    int black = t->black[d * n + seat];
                    ok[d] = !black || (!t->shot_never && nb[d] == 1);
                }
                count_keep(t, live, &m[2], ok);
            }
            if (alive[seat]) {
                for (int d = 0; d < D; d++) {
                    nt[d] -= t->town[d * n + seat];
                    nb[d] -= t->black[d * n + seat];
                }
            }
            alive[seat] = 0;
            m[1] = 1;
        } else if (e->kind == E_REVEAL) {
            int r = e->value >= 0 && e->value < N_ROLES ? t->index[e->value] : -1;
            for (int d = 0; d < D; d++) ok[d] = t->deals[d * n + e->target] == r;
            count_keep(t, live, &m[2], ok);
        }
    }
    m[0] = g->n_events;
    if (m[1] && g->winner < 0 && g->offender < 0) { /* the check let the game go on */
        count_win(t, live, nt, nb, &m[2], -1, ok);
        m[1] = 0;
    }
    return 0;
}

/* The roles `seat` cannot rule out for each seat, from the events it saw (`deal_constraints`):
   allowed[s * R + r] */
static void count_allowed(const CountTable *t, const Game *g, int seat, uint8_t *allowed) {
    int n = t->n, R = t->R;
    memset(allowed, 1, (size_t)n * R);
    uint32_t mates = 0;
    for (int k = 0; k < g->n_events; k++) {
        const Event *e = &g->events[k];
        int kind = e->kind;
        if (kind != E_ROLE && kind != E_TEAMMATE && kind != E_REVEAL && kind != E_DON_INTRODUCED &&
            kind != E_CHECK)
            continue;
        if (e->seen_by != PUBLIC && !((e->seen_by >> seat) & 1)) continue;
        int v = (int)e->value, idx = v >= 0 && v < N_ROLES ? t->index[v] : -1;
        uint8_t *row = e->target >= 0 && e->target < n ? allowed + (size_t)e->target * R : NULL;
        if (!row && kind != E_ROLE && kind != E_DON_INTRODUCED) continue;
        if (kind == E_ROLE && e->actor == seat) {
            for (int r = 0; r < R; r++) allowed[seat * R + r] = r == idx;
        } else if (kind == E_TEAMMATE && e->actor == seat) {
            mates |= 1u << e->target;
            for (int r = 0; r < R; r++)
                row[r] &= (t->don_known || v != R_MAFIA) ? r == idx : t->mafia_of[r];
        } else if (kind == E_REVEAL) {
            for (int r = 0; r < R; r++) row[r] = r == idx;
        } else if (kind == E_DON_INTRODUCED) {
            if (t->don >= 0 && e->actor >= 0 && e->actor < n) {
                for (int s = 0; s < n; s++) allowed[s * R + t->don] = 0;
                for (int r = 0; r < R; r++) allowed[e->actor * R + r] = r == t->don;
            }
        } else if (kind == E_CHECK && e->actor == seat) {
            if (g->roles[seat] == R_DON) { /* "is this the sheriff?" */
                for (int r = 0; r < R; r++) row[r] &= v ? r == t->sheriff : r != t->sheriff;
            } else { /* the sheriff's "black": the mafia team */
                for (int r = 0; r < R; r++) row[r] &= v ? t->mafia_of[r] : !t->mafia_of[r];
            }
        }
    }
    if (g->teams[seat] == TEAM_MAFIA) { /* the mafia know their whole team */
        for (int s = 0; s < n; s++)
            if (s != seat && !((mates >> s) & 1))
                for (int r = 0; r < R; r++) allowed[s * R + r] &= !t->mafia_of[r];
    }
}

/* Slot b's piece of `seat` (n x R floats) from game g: 0, or -1 (the caller's Python path) */
static int count_piece(const CountTable *t, CountState *s, int b, const Game *g, int seat,
                       float *out, uint8_t *ok, uint8_t *allowed, int64_t *cnt) {
    if (count_update(t, s, b, g, ok) < 0) return -1;
    int D = t->D, n = t->n, R = t->R;
    count_allowed(t, g, seat, allowed);
    int rows[MAXN], nrows = 0;
    for (int q = 0; q < n; q++) {
        for (int r = 0; r < R; r++) {
            if (!allowed[q * R + r]) {
                rows[nrows++] = q;
                break;
            }
        }
    }
    const uint8_t *live = s->live + (size_t)b * D;
    memset(cnt, 0, sizeof(int64_t) * (size_t)n * R);
    int64_t kept = 0;
    for (int d = 0; d < D; d++) {
        if (!live[d]) continue;
        const int8_t *deal = t->deals + (size_t)d * n;
        int yes = 1;
        for (int i = 0; i < nrows && yes; i++) yes = allowed[rows[i] * R + deal[rows[i]]];
        if (!yes) continue;
        kept++;
        for (int q = 0; q < n; q++) cnt[q * R + deal[q]]++;
    }
    if (!kept) return -1;
    double w = 1.0 / (double)kept; /* (what Tracker.matrix gives: counts times 1 / deals) */
    for (int i = 0; i < n * R; i++) out[i] = (float)((double)cnt[i] * w);
    return 0;
}
