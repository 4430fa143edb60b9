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
    push_input(g, seat, CALL_FOUL, -1, -1, -1);
    int count = ++g->fouls[seat];
    log_ev(c, g, E_FOUL, -1, seat, count, PUBLIC);
    if (c->fouls_mute && count == c->fouls_mute) g->silenced_on[seat] = g->day + 1;
    if (c->fouls_remove && count >= c->fouls_remove) leave_at_once(c, g, seat, C_FOUL);
}

static void game_remove(const Config *c, Game *g, int seat) {
    push_input(g, seat, CALL_REMOVE, -1, -1, -1);
    leave_at_once(c, g, seat, C_REMOVED);
}

static void game_terminate(const Config *c, Game *g, int seat) {
    push_input(g, seat, CALL_TERMINATE, -1, -1, -1);
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


/* ------------------------------------------------------------------- a game's life */
static void game_free_logs(Game *g) {
    free(g->events);
    free(g->seq);
    free(g->inputs);
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

