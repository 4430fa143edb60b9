/* ------------------------------------------------------------------ the batched step */
/* VectorMafia's step over B games at once, into the arrays of a Batch (binding_batch.c
   gets them from Python's buffers). A game that ends starts the slot's next one at once. */

static void batch_write_slot(const Config *c, Game *games, const Batch *x, int b) {
    Game *g = &games[b];
    int seat = g->actor;
    x->seat[b] = seat;
    x->team[b] = seat >= 0 ? g->teams[seat] : 0;
    write_obs(c, g, seat >= 0 ? seat : 0, x->obs + (size_t)b * c->obs_size);
    write_mask(c, g, x->masks + (size_t)b * c->action_size);
}

static void batch_new_from_slot(const Config *c, Game *games, const int *deal, const Batch *x,
                                int b) {
    Game *g = &games[b];
    game_new_from_slot(c, g, deal);
    int64_t *teams = x->teams + (size_t)b * c->n;
    for (int s = 0; s < c->n; s++) teams[s] = g->teams[s];
}

/* a new game in every slot from its stream; the arrays written */
static void batch_reset(const Config *c, Game *games, int num, const int *deal,
                        const Batch *x) {
    for (int b = 0; b < num; b++) {
        batch_new_from_slot(c, games, deal, x, b);
        batch_write_slot(c, games, x, b);
    }
}

/* one action a game (a[b], B of them): -1, or the first game whose action is not legal
   (nothing is applied then) */
static int batch_step(const Config *c, Game *games, int num, const int *deal, const Batch *x,
                      const int64_t *a) {
    int B = num, n = c->n, A = c->action_size;
    const int8_t *masks = x->masks;
    for (int b = 0; b < B; b++)
        if (a[b] < 0 || a[b] >= A || masks[(size_t)b * A + a[b]] != 1) return b;
    float *rewards = x->rewards;
    uint8_t *dones = x->dones, *trunc = x->trunc;
    int64_t *winner = x->winner, *done_teams = x->done_teams;
    memset(rewards, 0, sizeof(float) * (size_t)B * n);
    memset(dones, 0, (size_t)(unsigned)B);
    memset(trunc, 0, (size_t)(unsigned)B);
    for (int b = 0; b < B; b++) winner[b] = -1;
    for (int b = 0; b < B; b++) {
        Game *g = &games[b];
        int i = (int)a[b];
        game_apply(c, g, c->dec_act[i], c->dec_target[i], c->dec_value[i]);
        if (g->winner >= 0 || g->offender >= 0) { /* VectorMafia._finish */
            dones[b] = 1;
            trunc[b] = (uint8_t)g->truncated;
            winner[b] = g->winner;
            for (int s = 0; s < n; s++) done_teams[(size_t)b * n + s] = g->teams[s];
            if (g->winner >= 0 && g->winner != O_DRAW)
                for (int s = 0; s < n; s++)
                    rewards[(size_t)b * n + s] = g->teams[s] == g->winner ? 1.0f : -1.0f;
            batch_new_from_slot(c, games, deal, x, b);
        }
        batch_write_slot(c, games, x, b);
    }
    return -1;
}
